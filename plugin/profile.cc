/* SPDX-License-Identifier: GPL-3.0-or-later */
/* profile.cc - profile=FILE: edge counts of a previous osp run, for smart
 * path numbering (PEP section 3.4, "profile-guided profiling").
 *
 * FILE is an osp report in tsv form (OSP_OPTIONS=report_format=tsv) of a
 * run of the same program built with instrument=paths.  Only two row kinds
 * matter (doc/CONTRACTS.md):
 *     function  <fid> <name> <file> ...
 *     edge      <fid> <src block> <succ index> <dst> <estimate> <samples>
 * A function is matched by name and source file, its edges by block id and
 * successor index, which are stable for the same source and options.  A
 * function whose counts do not fit its CFG (the source changed) falls back
 * to GCC's estimates; verbose says so.  Counts only order each block's
 * out-edges, so stale counts cost speed, never correctness.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "basic-block.h"
#include "diagnostic-core.h"

#include "osp-plugin.h"

namespace osp {

struct profile_edge
{
  unsigned fid, src, succ;
  double count;
};

struct profile_function
{
  unsigned fid;
  const char *name, *file;
};

static vec<profile_edge> profile_edges;
static vec<profile_function> profile_functions;

/* Split LINE (modified) at tabs into at most MAX fields.  */
static unsigned
split_tabs (char *line, char **fields, unsigned max)
{
  unsigned n = 0;
  line[strcspn (line, "\n")] = 0;
  for (char *p = line; n < max;)
    {
      fields[n++] = p;
      char *tab = strchr (p, '\t');
      if (!tab)
        break;
      *tab = 0;
      p = tab + 1;
    }
  return n;
}

static bool
parse_unsigned (const char *s, unsigned *out)
{
  char *end;
  unsigned long v = strtoul (s, &end, 10);
  if (!ISDIGIT (*s) || *end || v > UINT_MAX)
    return false;
  *out = v;
  return true;
}

bool
load_profile (const char *file)
{
  FILE *f = fopen (file, "r");
  if (!f)
    {
      error ("osp: cannot read profile %qs: %s", file, xstrerror (errno));
      return false;
    }
  char line[8192];
  char *fields[8];
  unsigned lineno = 0;
  bool ok = true;
  while (ok && fgets (line, sizeof line, f))
    {
      lineno++;
      unsigned n = split_tabs (line, fields, 8);
      if (!strcmp (fields[0], "function") && n >= 4)
        {
          profile_function pf;
          if (!parse_unsigned (fields[1], &pf.fid))
            ok = false;
          pf.name = xstrdup (fields[2]);
          pf.file = xstrdup (fields[3]);
          profile_functions.safe_push (pf);
        }
      else if (!strcmp (fields[0], "edge"))
        {
          profile_edge pe;
          char *end;
          if (n != 7 || !parse_unsigned (fields[1], &pe.fid)
              || !parse_unsigned (fields[2], &pe.src)
              || !parse_unsigned (fields[3], &pe.succ))
            ok = false;
          else
            {
              pe.count = strtod (fields[5], &end);
              ok = *end == 0 && pe.count >= 0;
            }
          if (ok)
            profile_edges.safe_push (pe);
        }
    }
  fclose (f);
  if (!ok)
    error ("osp: profile %qs, line %u: malformed %qs row", file, lineno,
           fields[0]);
  else if (profile_edges.is_empty ())
    {
      error ("osp: profile %qs has no edge rows (write it with "
             "%<OSP_OPTIONS=report_format=tsv%> from a program built with "
             "%<instrument=paths%>)", file);
      ok = false;
    }
  return ok;
}

/* Fill WEIGHTS (one per successor slot of BLOCKS, cfg order) with the
   counts of function NAME of FILE.  False if the profile has no counts for
   it or they do not fit its blocks.  */
bool
profile_weights (const char *name, const char *file,
                 const vec<block_info> &blocks, vec<double> *weights)
{
  auto_vec<unsigned> base;
  base.safe_push (0);
  for (const block_info &bi : blocks)
    base.safe_push (base.last () + EDGE_COUNT (bi.bb->succs));
  weights->safe_grow_cleared (base.last ());

  bool found = false;
  for (const profile_function &pf : profile_functions)
    {
      if (strcmp (pf.name, name) || strcmp (pf.file, file))
        continue;
      for (const profile_edge &pe : profile_edges)
        {
          if (pe.fid != pf.fid)
            continue;
          if (pe.src >= blocks.length ()
              || pe.succ >= base[pe.src + 1] - base[pe.src])
            {
              if (opts.verbose)
                inform (UNKNOWN_LOCATION, "osp: profile counts of %qs do not "
                        "fit its blocks; using GCC%'s estimates", name);
              return false;
            }
          (*weights)[base[pe.src] + pe.succ] += pe.count;
          found = true;
        }
    }
  return found;
}

} // namespace osp

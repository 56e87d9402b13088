/* SPDX-License-Identifier: MIT */
/* report.c - reports: a profile taken at one moment, then text or tsv
 * (doc/CONTRACTS.md), then its destination.  Used at exit, by osp_report()
 * and by the report_signal thread (online.c).
 *
 * mode=blocks shows the block counts; the subpath modes show the hot
 * subpaths (sampled: the hot-list with estimates; exact: the exact table)
 * in one shared form, so that a sampled and an exact report of the same
 * run can be compared line by line.  Subpaths are sequences of global
 * block ids, decoded here through the registry snapshot.  In every mode,
 * when some function has Ball-Larus path probes and paths != off, the
 * path and edge profile follows (report-paths.c): in tsv its rows come
 * after the mode's own rows and before the stat rows, in text after the
 * mode's tables.  When forest != off the prefix forest of k-iteration paths
 * (report-forest.c) follows the path section in the same way.  One table
 * (osp_sections, below) says which sections a profile shows and in which
 * order, for the text report, the tsv rows and the stats alike.
 *
 * The profile is taken before (profile/profile.c), so the formats are
 * plain functions of a struct osp_profile that tests can call.
 *
 * The report is formatted into memory first and written with write(2):
 *   - a file is written to a temporary name in its directory and renamed,
 *     so a reader never sees half a report;
 *   - stdout is flushed first so the report follows the program's output;
 *   - stdout and stderr are written only while fds 1 and 2 are still the
 *     files they were at start-up (osp_output_write);
 *   - SIGPIPE is blocked while writing, so a closed pipe cannot kill the
 *     program at exit and change its exit status.
 * Any failure is one line on stderr, never more.
 */
#define _GNU_SOURCE
#include "output/output.h"
#include "format/snapfile.h"
#include "osp/view.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The first line of a text report (and the max_functions warning), shared
   by both formats; BLOCK_ENTRIES < 0 leaves that field out. */
void
osp_report_header (FILE *out, const struct osp_profile *p,
                   const struct osp_options *o, const char *mode,
                   long long block_entries)
{
  /* key=value fields, ungrouped: values to paste back or compare */
  struct osp_para pa;
  FILE *l = osp_para_open (&pa, out);
  fprintf (l, "osp report: mode=%s pid=%ld modules=%llu functions=%u "
           "threads=%llu", mode, p->pid, (unsigned long long) p->modules,
           p->nfns, (unsigned long long) p->threads);
  if (block_entries >= 0)
    fprintf (l, " block_entries=%lld", block_entries);
  fprintf (l, " functions_dropped=%llu unregistered_hits=%llu",
           (unsigned long long) p->functions_dropped,
           (unsigned long long) p->unregistered_hits);
  if (p->records_invalid)
    fprintf (l, " records_invalid=%llu",
             (unsigned long long) p->records_invalid);
  if (p->abi_mismatches)
    fprintf (l, " abi_mismatches=%llu",
             (unsigned long long) p->abi_mismatches);
  if (p->hits_lost)
    fprintf (l, " hits_lost=%llu", (unsigned long long) p->hits_lost);
  osp_para_close (&pa);
  if (p->functions_dropped)
    osp_text_line (out,
                   "osp: %s functions were not profiled: raise "
                   "max_functions (now %u)",
                   OSP_G (p->functions_dropped), o->max_functions);
}

void
osp_report_tsv_header (FILE *out, const struct osp_profile *p,
                       const struct osp_options *o, const char *mode)
{
  fprintf (out, "# osp-report 1 mode=%s", mode);
  if (p->paths.shown)
    fprintf (out, " paths=%s", osp_path_policy_name (o->paths));
  fputc ('\n', out);
}

void
osp_report_stats (const struct osp_stat_out *out, const struct osp_profile *p,
                  const struct osp_options *o)
{
  for (unsigned i = 0; i < osp_nsections; i++)
    if (osp_sections[i].shown (p))
      osp_sections[i].stats (out, p, o);
  /* Only when it happened: reports of every ordinary run stay as they were. */
  if (p->output_skipped)
    osp_stat_u (out, "output_skipped", p->output_skipped);
}

void
osp_location (char *buf, size_t size, const struct osp_fn *f, uint32_t first,
              uint32_t last)
{
  if (first == 0)
    first = last = f->first_line;
  if (first == 0)
    snprintf (buf, size, "%s", f->file);
  else if (last == 0 || last == first)
    snprintf (buf, size, "%s:%u", f->file, first);
  else
    snprintf (buf, size, "%s:%u-%u", f->file, first, last);
}

unsigned char *
osp_report_used_blocks (const struct osp_profile *p, size_t *nblocks)
{
  size_t n = 0;
  for (uint32_t i = 0; i < p->nfns; i++)
    n += p->fns[i]->nblocks;
  unsigned char *used = calloc (n ? n : 1, 1);
  if (used == NULL)
    return NULL;
  for (uint32_t r = 0; r < p->subpaths.nsubs; r++)
    for (uint32_t k = 0; k < p->subpaths.subs[r].len; k++)
      if (p->subpaths.subs[r].blocks[k] < n)
        used[p->subpaths.subs[r].blocks[k]] = 1;
  for (uint32_t r = 0; r < p->paths.nrows; r++)
    {
      const struct osp_path_row *row = &p->paths.rows[r];
      for (uint32_t k = 0; k < row->nsteps; k++)
        used[p->fns[row->fi]->block_base + row->steps[k].block] = 1;
    }
  for (uint32_t r = 0; r < p->forest.nrows; r++)
    {
      const struct osp_forest_row *row = &p->forest.rows[r];
      for (uint32_t k = 0; k < row->nsteps; k++)
        used[p->fns[row->fi]->block_base + row->steps[k].block] = 1;
    }
  *nblocks = n;
  return used;
}

/* ---- the sections ------------------------------------------------------ */

static int
blocks_shown (const struct osp_profile *p)
{
  return !osp_subpath_mode (p);
}

static int
paths_shown (const struct osp_profile *p)
{
  return p->paths.shown;
}

static int
forest_shown (const struct osp_profile *p)
{
  return p->forest.shown;
}

/* One table for every output of a profile: the text report, the tsv
   report's rows, then its stat rows, the view's STATS (viewwrite.c
   through osp_report_stats) and the view's row sections all take the
   sections shown, in this order.  The mode's section comes first and
   brings the report's first line.  (A view has every row section, empty
   when its section is not shown: include/osp/view.h.) */
const struct osp_section osp_sections[] = {
  { "blocks", 0, blocks_shown, osp_format_blocks_tsv, osp_format_blocks_text,
    osp_format_blocks_stats },
  { "subpaths", OSP_VS_SUBPATHS, osp_subpath_mode, osp_format_subpaths_tsv,
    osp_format_subpaths_text, osp_format_subpaths_stats },
  { "paths", OSP_VS_PATHS, paths_shown, osp_format_paths_tsv,
    osp_format_paths_text, osp_format_paths_stats },
  { "forest", OSP_VS_FOREST, forest_shown, osp_format_forest_tsv,
    osp_format_forest_text, osp_format_forest_stats },
  { "work", 0, osp_work_shown, osp_format_work_tsv, osp_format_work_text,
    osp_format_work_stats },
};
const unsigned osp_nsections = sizeof osp_sections / sizeof osp_sections[0];

int
osp_report_format (FILE *out, const struct osp_profile *p,
                   const struct osp_options *o)
{
  int rc = 0;
  int tsv = o->report_format == OSP_FORMAT_TSV;
  for (unsigned i = 0; i < osp_nsections && rc == 0; i++)
    if (osp_sections[i].shown (p))
      rc = (tsv ? osp_sections[i].tsv : osp_sections[i].text) (out, p, o);
  if (rc == 0 && tsv)
    {
      struct osp_stat_out so = { .file = out };
      osp_report_stats (&so, p, o);
    }
  if (fflush (out) != 0 || ferror (out))
    rc = -1;
  return rc;
}

void
osp_report_more (FILE *out, size_t shown, size_t total, const char *what)
{
  if (shown >= total)
    return;
  size_t all = total < OSP_REPORT_TOP_MAX ? total : OSP_REPORT_TOP_MAX;
  fprintf (out, "  (%s more %s%s: report_top=%zu shows %s)\n",
           OSP_G (total - shown), what, total - shown == 1 ? "" : "s", all,
           all == total ? "them" : "the first of them");
}

/* ---- destinations ---------------------------------------------------- */

int
osp_report_emit (const struct osp_options *o)
{
  if (o->report == OSP_REPORT_NONE)
    return 0;
  /* A report asked for now (report_signal, osp_report (NULL)) under the
     default report=line goes to stderr: line is what happens at exit. */
  struct osp_options asked;
  if (o->report == OSP_REPORT_LINE)
    {
      asked = *o;
      asked.report = OSP_REPORT_STDERR;
      o = &asked;
    }
  struct osp_profile p;
  int taken = osp_profile_take (&p) == 0;
  int rc = osp_report_write (o, taken ? &p : NULL);
  if (taken)
    osp_profile_free (&p);
  return rc;
}

int
osp_report_write (const struct osp_options *o, const struct osp_profile *p)
{
  if (o->report == OSP_REPORT_NONE || o->report == OSP_REPORT_LINE)
    return 0; /* line: the snapshot's (snapshot.c) */
  char path[OSP_PATH_MAX];
  const char *where = o->report == OSP_REPORT_STDOUT ? "stdout" : "stderr";
  if (o->report == OSP_REPORT_FILE)
    {
      char host[256] = "unknown";
      gethostname (host, sizeof host - 1);
      host[sizeof host - 1] = '\0';
      if (osp_expand_path (path, sizeof path, o->report_path,
                           (long) getpid (), host)
          != 0)
        {
          osp_warn ("osp: cannot write the report: path too long: %s",
                    o->report_path);
          return -1;
        }
      where = path;
    }

  char *buf = NULL;
  size_t len = 0;
  FILE *mem = NULL;
  int ok = p != NULL;
  if (ok)
    {
      mem = open_memstream (&buf, &len);
      ok = mem != NULL && osp_report_format (mem, p, o) == 0;
      if (mem && fclose (mem) != 0)
        ok = 0;
    }
  if (!ok)
    {
      osp_warn ("osp: cannot write the report to %s: out of memory", where);
      free (buf);
      return -1;
    }

  int err;
  if (o->report == OSP_REPORT_FILE)
    {
      const void *pieces[] = { buf };
      err = osp_file_replace_mode (path, pieces, &len, 1, o->file_mode);
    }
  else if (o->report == OSP_REPORT_STDOUT)
    {
      fflush (stdout);
      err = osp_output_write (STDOUT_FILENO, buf, len);
    }
  else
    err = osp_output_write (STDERR_FILENO, buf, len);
  free (buf);
  if (err == EBADF && o->report != OSP_REPORT_FILE)
    return -1; /* skipped: counted in output_skipped, nowhere to say it */
  if (err != 0)
    osp_warn ("osp: cannot write the report to %s: %s", where,
              osp_file_strerror (err));
  else if (osp_opts.verbose && o->report == OSP_REPORT_FILE)
    osp_warn ("osp: report written to %s", path);
  return err != 0 ? -1 : 0;
}

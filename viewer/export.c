/* export.c - ospview --json, --dot=FUNCTION, --annotate[=FILE]: the
 * newest view of a live process or a snapshot file, for other tools.
 *
 *   --json       the whole view as one JSON document (export-json.c)
 *   --dot=FN     FN's control-flow graph in Graphviz DOT (export-dot.c)
 *   --annotate   the source files as a listing, each line with its share
 *                of the hot subpaths and of the Ball-Larus paths
 *                (export-annotate.c)
 *
 * This file is the entry, export_main, and the helpers the exports share
 * (export.h): string output, file-name matching, the rows whose shares
 * are summed.
 *
 * Why it looks like this: the screens answer "what is hot" in the
 * profile's own terms (paths as block lists); these exports answer the
 * next questions in other tools' terms - a script wants the numbers
 * (JSON), a reader wants to see the hot path on the function's graph
 * (DOT), or next to the code (annotate).  All three read one view the
 * way batch.c does (source_read, view_parse: a refused view is one
 * stderr line, exit 1) and trust nothing else: names and source lines
 * come from the profiled program, so strings are written as valid UTF-8
 * (bad bytes become U+FFFD) and escaped for JSON and DOT by one walker
 * (ex_put), so the formats cannot disagree about a name.  Output is
 * deterministic: the view's order, or names, never addresses or hash
 * order.  Each export is its own file because they share little beyond
 * this: a newcomer reads export.h, this file and the one export at hand.
 *
 * Shares: a subpath's share is a fraction of the blocks seen, a
 * Ball-Larus path's a fraction of all path ends (run.path_ends), a forest
 * node's a fraction of its parent's; all are sampled estimates unless the
 * run says exact.  An edge's, block's or line's share (DOT, annotate) is
 * the sum of the shares of the rows that pass it, each row counted once
 * (so overlapping subpaths may sum past 100%); ex_rows hands both exports
 * the same rows.
 */
#define _GNU_SOURCE
#include "export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- strings: valid UTF-8 out, whatever came in ---------------------- */

/* The length of the valid UTF-8 sequence at P (NUL-terminated), 0 if the
   bytes there are not one. */
static size_t
utf8_seq (const unsigned char *p)
{
  unsigned c = p[0];
  if (c < 0x80)
    return 1;
  size_t n;
  unsigned lo = 0x80, hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf)
    n = 2;
  else if (c >= 0xe0 && c <= 0xef)
    {
      n = 3;
      if (c == 0xe0)
        lo = 0xa0;
      else if (c == 0xed)
        hi = 0x9f;
    }
  else if (c >= 0xf0 && c <= 0xf4)
    {
      n = 4;
      if (c == 0xf0)
        lo = 0x90;
      else if (c == 0xf4)
        hi = 0x8f;
    }
  else
    return 0;
  if (p[1] < lo || p[1] > hi)
    return 0;
  for (size_t i = 2; i < n; i++)
    if (p[i] < 0x80 || p[i] > 0xbf)
      return 0;
  return n;
}

void
ex_put (FILE *f, const char *s, enum ex_esc esc)
{
  const unsigned char *p = (const unsigned char *) s;
  while (*p)
    {
      size_t n = utf8_seq (p);
      if (n == 0)
        {
          fputs (esc == EX_JSON ? "\\ufffd" : "\xef\xbf\xbd", f);
          p++;
          continue;
        }
      if (esc != EX_PLAIN && (*p == '"' || *p == '\\'))
        fprintf (f, "\\%c", *p);
      else if (esc == EX_JSON && *p == '\n')
        fputs ("\\n", f);
      else if (esc == EX_JSON && *p == '\t')
        fputs ("\\t", f);
      else if (esc == EX_JSON && (*p < 0x20 || *p == 0x7f))
        fprintf (f, "\\u%04x", *p);
      else if (*p < 0x20 || *p == 0x7f)
        fputc ('?', f);
      else
        fwrite (p, 1, n, f);
      p += n;
    }
}

const char *
ex_base_name (const char *path)
{
  const char *b = strrchr (path, '/');
  return b && b[1] ? b + 1 : path;
}

int
ex_file_match (const char *path, const char *want, int mode)
{
  size_t pl = strlen (path), wl = strlen (want);
  if (mode == 0)
    return strcmp (path, want) == 0;
  if (mode == 1)
    return pl > wl && strcmp (path + pl - wl, want) == 0
           && (want[0] == '/' || path[pl - wl - 1] == '/');
  return strcmp (ex_base_name (path), ex_base_name (want)) == 0;
}

/* ---- the view ---------------------------------------------------------- */

const char *
ex_fn_name (const struct view *v, uint32_t fi)
{
  return view_str (v, view_fn (v, fi)->name);
}

uint64_t
ex_edge_first (const struct view *v, uint32_t b)
{
  uint64_t lo = 0, hi = v->nedges;
  while (lo < hi)
    {
      uint64_t mid = lo + (hi - lo) / 2;
      if (view_edge (v, mid)->from < b)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

int
ex_grow (void **p, size_t *cap, size_t need, size_t size)
{
  if (need <= *cap)
    return 0;
  size_t ncap = *cap ? *cap : 64;
  while (ncap < need)
    ncap *= 2;
  void *np = realloc (*p, ncap * size);
  if (np == NULL)
    return -1;
  *p = np;
  *cap = ncap;
  return 0;
}

/* ---- share sums -------------------------------------------------------- */

int
ex_rows (const struct view *v, int (*fn) (void *, const struct ex_row *),
         void *ctx)
{
  int rc = 0;
  for (uint64_t i = 0; i < v->nsubpaths && rc == 0; i++)
    {
      const struct osp_vsubpath *s = view_subpath (v, i);
      struct ex_row r = { s->ids, s->len, s->share, 0, UINT32_MAX };
      rc = fn (ctx, &r);
    }
  for (uint64_t i = 0; i < v->npaths && rc == 0; i++)
    {
      const struct osp_vpath *p = view_path (v, i);
      struct ex_row r = { p->ids, p->len, p->share, 1, p->fn };
      rc = fn (ctx, &r);
    }
  return rc;
}

/* ---- reading the view ------------------------------------------------ */

struct loaded
{
  void *buf;
  size_t cap;
  struct view v;
};

/* The source's newest view into L.  0, or -1 after one stderr line. */
static int
load (const struct source *s, struct loaded *l)
{
  char err[1024];
  long len = source_read (s, &l->buf, &l->cap, err, sizeof err);
  const char *name = source_name (s);
  if (len < 0) /* a segment's messages start with its path already */
    fprintf (stderr, "ospview: %s%s%s\n",
             strncmp (err, name, strlen (name)) == 0 ? "" : name,
             strncmp (err, name, strlen (name)) == 0 ? "" : ": ", err);
  else if (len == 0)
    fprintf (stderr, "ospview: %s: no view published yet (try again in a "
             "moment)\n", name);
  else if (view_parse (&l->v, l->buf, (size_t) len, err, sizeof err) != 0)
    fprintf (stderr, "ospview: %s: %s\n", name, err);
  else
    return 0;
  return -1;
}

/* ---- entry ----------------------------------------------------------- */

int
export_main (const struct source *s, enum export_kind kind, const char *arg)
{
  struct loaded l;
  memset (&l, 0, sizeof l);
  int rc = 1;
  if (load (s, &l) == 0)
    {
      if (kind == EXPORT_JSON)
        rc = export_json (s, &l.v);
      else if (kind == EXPORT_DOT)
        rc = export_dot (&l.v, arg ? arg : "");
      else
        rc = export_annotate (&l.v, arg && *arg ? arg : NULL);
    }
  free (l.buf);
  if (fflush (stdout) != 0 || ferror (stdout))
    {
      fprintf (stderr, "ospview: writing the output: %s\n", strerror (errno));
      rc = 1;
    }
  return rc;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* export.c - ospview --json, --dot=FUNCTION, --annotate[=FILE]: the
 * newest view of a live process or a snapshot file, for other tools.
 *
 *   --json       the whole view as one JSON document (export-json.c)
 *   --dot=FN     FN's control-flow graph in Graphviz DOT (export-dot.c)
 *   --annotate   the source files as a listing, each line with its share
 *                of the hot subpaths and of the Ball-Larus paths
 *                (export-annotate.c)
 *   --pprof=FILE the rows as samples of pprof's profile.proto, gzipped
 *                (export-pprof.c, pbwrite.c)
 *   --folded     the rows as folded stacks for flame graphs
 *                (export-folded.c)
 *
 * This file is the entry, export_main, and the helpers the exports share
 * (export.h): file-name matching, the rows whose shares
 * are summed, the rows as stacks of blocks (--pprof and --folded).
 *
 * Why it looks like this: the screens answer "what is hot" in the
 * profile's own terms (paths as block lists); these exports answer the
 * next questions in other tools' terms - a script wants the numbers
 * (JSON), a reader wants to see the hot path on the function's graph
 * (DOT), or next to the code (annotate).  All three read one view the
 * way batch.c does (source_read, view_parse: a refused view is one
 * stderr line, exit 1) and trust nothing else: names and source lines
 * come from the profiled program, so strings are written as valid UTF-8
 * (bad bytes become U+FFFD, control characters C0, DEL and C1 '?' or a
 * JSON escape) and escaped for JSON and DOT by one walker (ex_put, in
 * text.c), so the formats cannot disagree about a name.  The batch
 * screens, --diff's text and every message go through the same walker
 * (ospview_puts): no byte a view holds reaches a terminal as a control
 * sequence.  Output is
 * deterministic: the view's order, or names, never addresses or hash
 * order.  Each export is its own file because they share little beyond
 * this: a newcomer reads export.h, this file and the one export at hand.
 *
 * Shares: a subpath's share is a fraction of the blocks seen, a
 * Ball-Larus path's a fraction of all path ends (run.path_ends), a forest
 * node's a fraction of its parent's; all are sampled estimates unless the
 * run says exact.  An edge's or block's share (DOT) is the sum of the
 * shares of the rows that pass it, each row counted once (so overlapping
 * subpaths may sum past 100%); a line's (annotate) is its part of the
 * rows' work (export-annotate.c), which sums to at most 100%.  ex_rows
 * hands both exports the same rows.
 */
#define _GNU_SOURCE
#include "export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  return ospview_grow (p, cap, need, size, 64);
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
      struct ex_row r = { s->ids, s->len, s->share, s->estimate, 0,
                           UINT32_MAX };
      rc = fn (ctx, &r);
    }
  for (uint64_t i = 0; i < v->npaths && rc == 0; i++)
    {
      const struct osp_vpath *p = view_path (v, i);
      struct ex_row r = { p->ids, p->len, p->share, p->estimate, 1, p->fn };
      rc = fn (ctx, &r);
    }
  return rc;
}

/* ---- rows as stacks ---------------------------------------------------- */

/* Whether the run's policy string OFF is WANT. */
static int
run_is (const struct view *v, uint32_t off, const char *want)
{
  return strcmp (view_str (v, off), want) == 0;
}

/* The stack of forest node I (a subpath's or path's: ROW, with I
   UINT64_MAX) into X: the blocks of the chain from its root down to it,
   the last EX_STACK_MAX of them, filled from the leaf backwards so that
   the walk up stops once the stack is full (a hostile view's chain may be
   as long as its forest).  0, or -1 out of memory. */
static int
stack_of (const struct view *v, uint64_t i, uint64_t ids, uint32_t len,
          uint32_t **st, size_t *cap, struct ex_sample *x)
{
  if (ex_grow ((void **) st, cap, EX_STACK_MAX, sizeof **st) != 0)
    return -1;
  /* frames first, so that the leaf's last block lands at the end */
  uint64_t frames = 0, nodes = 0, k = i;
  int root = 1;
  if (i == UINT64_MAX)
    frames = len;
  else
    for (;; k = view_forest (v, k)->parent)
      {
        frames += view_forest (v, k)->len;
        nodes++;
        if (view_forest (v, k)->parent == OSP_VIEW_NO_PARENT)
          break;
        if (frames >= EX_STACK_MAX || nodes >= EX_STACK_MAX)
          {
            root = 0;
            break;
          }
      }
  x->truncated = !root || frames > EX_STACK_MAX;
  uint32_t pos = frames > EX_STACK_MAX ? EX_STACK_MAX : (uint32_t) frames;
  x->n = pos;
  /* view_parse checked that a parent comes before its child, one level
     up: the walk ends at a root */
  for (k = i; pos > 0; k = view_forest (v, k)->parent)
    {
      if (i != UINT64_MAX)
        {
          ids = view_forest (v, k)->ids;
          len = view_forest (v, k)->len;
        }
      for (uint32_t b = len; b > 0 && pos > 0; b--)
        (*st)[--pos] = v->ids[ids + b - 1];
      if (i == UINT64_MAX)
        break;
    }
  x->stack = *st;
  return 0;
}

/* Row I of section PROF as *X, its stack not made yet; its own blocks
   are the id run at *IDS (length x->len). */
static void
row_of (const struct view *v, enum scr_screen prof, uint64_t i,
        struct ex_sample *x, uint64_t *ids)
{
  memset (x, 0, sizeof *x);
  x->profile = prof;
  x->index = i;
  if (prof == SCR_SUBPATHS)
    {
      const struct osp_vsubpath *s = view_subpath (v, i);
      *ids = s->ids;
      x->len = s->len;
      x->execs = s->estimate;
      x->err95 = s->err95;
      x->value = run_is (v, v->run.mode, "subpaths-exact") ? "exact"
                                                           : "estimate";
    }
  else if (prof == SCR_PATHS)
    {
      /* the rules of the paths screen (screens.c): timer rows are
         samples; a counter row with no interval was counted exactly */
      const struct osp_vpath *p = view_path (v, i);
      int timer = run_is (v, v->run.paths, "timer");
      *ids = p->ids;
      x->len = p->len;
      x->execs = timer ? (double) p->samples : p->estimate;
      x->err95 = timer ? 0 : p->err95;
      x->value = timer ? "samples"
                 : run_is (v, v->run.paths, "exhaustive") || p->err95 == 0
                     ? "exact"
                     : "estimate";
    }
  else
    {
      const struct osp_vforest *f = view_forest (v, i);
      *ids = f->ids;
      x->len = f->len;
      x->depth = f->depth;
      x->execs = f->estimate;
      x->err95 = f->err95;
      x->value = run_is (v, v->run.forest, "exhaustive") ? "exact"
                                                         : "estimate";
    }
  x->cost = view_run_cost (v, *ids, x->len);
}

int
ex_samples (const struct view *v, unsigned screens,
            int (*fn) (void *, const struct ex_sample *), void *ctx)
{
  static const enum scr_screen order[] = { SCR_SUBPATHS, SCR_PATHS,
                                           SCR_FOREST };
  const uint64_t rows[] = { v->nsubpaths, v->npaths, v->nforest };
  uint32_t *st = NULL;
  size_t cap = 0;
  int rc = 0;
  for (size_t k = 0; k < 3; k++)
    for (uint64_t i = 0; (screens >> order[k] & 1) && i < rows[k] && rc == 0;
         i++)
      {
        struct ex_sample x;
        uint64_t ids;
        row_of (v, order[k], i, &x, &ids);
        rc = stack_of (v, order[k] == SCR_FOREST ? i : UINT64_MAX, ids,
                       x.len, &st, &cap, &x);
        if (rc == 0)
          rc = fn (ctx, &x);
      }
  free (st);
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
    ospview_error ("%s%s%s",
                   strncmp (err, name, strlen (name)) == 0 ? "" : name,
                   strncmp (err, name, strlen (name)) == 0 ? "" : ": ", err);
  else if (len == 0)
    ospview_error ("%s: no view published yet (try again in a moment)",
                   name);
  else if (view_parse (&l->v, l->buf, (size_t) len, err, sizeof err) != 0)
    ospview_error ("%s: %s", name, err);
  else
    return 0;
  return -1;
}

/* ---- entry ----------------------------------------------------------- */

int
export_main (const struct source *s, enum export_kind kind, const char *arg)
{
  return export_rows_main (s, kind, arg, (1u << SCR_NSCREENS) - 1);
}

int
export_rows_main (const struct source *s, enum export_kind kind,
                  const char *arg, unsigned screens)
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
      else if (kind == EXPORT_PPROF)
        rc = export_pprof (s, &l.v, arg ? arg : "", screens);
      else if (kind == EXPORT_FOLDED)
        rc = export_folded (&l.v, arg, screens);
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

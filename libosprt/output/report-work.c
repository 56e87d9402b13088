/* SPDX-License-Identifier: MIT */
/* report-work.c - the functions by their own work, in every mode.
 *
 * A block's work is its executions times its estimated cost (the plugin's
 * sum of GCC's estimate_num_insns over its statements, osp/abi.h `costs');
 * a function's self work is the sum over its own blocks, its self
 * executions the sum of their executions.  Where the executions come
 * from: the exact block counts in mode=blocks; otherwise the Ball-Larus
 * path profile, every path's estimate times each of its blocks (the path
 * table holds every distinct path sampled, not only the reported ones).
 * A function with neither counts nothing.  Shares are of the sums over
 * all functions, so each column adds up to 100%.
 *
 * text: "functions by self work", the report_top functions by work.
 * tsv: one `work' row per function with executions or work (doc/
 * CONTRACTS.md).  The view carries the same figures (FNWORK, viewwrite.c).
 */
#define _GNU_SOURCE
#include "output/output.h"
#include "format/workshare.h"

#include <stdlib.h>
#include <string.h>

/* ---- rows by work ------------------------------------------------------
 * The subpath, path and forest tables carry each row's work (its estimate
 * times its blocks' summed cost), the 95% half-width scaled alike (the
 * cost is a constant of the row), and its work share (format/
 * workshare.h: of its length class for subpaths, of all path ends for
 * paths and forest rows). */

double
osp_gids_cost (const struct osp_profile *p, const uint32_t *gids,
               uint32_t len)
{
  double c = 0;
  for (uint32_t k = 0; k < len; k++)
    {
      uint32_t b = 0;
      uint32_t fi = osp_fn_index_of_block (p->fns, p->nfns, gids[k], &b);
      if (fi != UINT32_MAX)
        c += p->fns[fi]->blocks[b].cost;
    }
  return c;
}

double
osp_steps_cost (const struct osp_profile *p, uint32_t fi,
                const struct osp_path_step *steps, uint32_t n)
{
  if (fi >= p->nfns)
    return 0;
  const struct osp_fn *f = p->fns[fi];
  double c = 0;
  for (uint32_t k = 0; k < n; k++)
    if (steps[k].block < f->nblocks)
      c += f->blocks[steps[k].block].cost;
  return c;
}

void
osp_work_units (const struct osp_profile *p, struct osp_work_unit *units,
                struct osp_work_unit *paths, struct osp_work_unit *forest)
{
  memset (units, 0, 32 * sizeof *units);
  memset (paths, 0, sizeof *paths);
  memset (forest, 0, sizeof *forest);
  if (osp_subpath_mode (p))
    for (uint32_t r = 0; r < p->subpaths.nsubs; r++)
      {
        const struct osp_subpath *s = &p->subpaths.subs[r];
        osp_work_unit_add (&units[osp_work_class (s->len)],
                           s->estimate * osp_gids_cost (p, s->blocks, s->len),
                           s->share);
      }
  if (p->paths.shown)
    for (uint32_t r = 0; r < p->paths.nrows; r++)
      {
        const struct osp_path_row *row = &p->paths.rows[r];
        osp_work_unit_add (paths,
                           row->estimate
                               * osp_steps_cost (p, row->fi, row->steps,
                                                 row->nsteps),
                           row->share);
      }
  if (p->forest.shown)
    for (uint32_t r = 0; r < p->forest.nrows; r++)
      {
        const struct osp_forest_row *row = &p->forest.rows[r];
        if (row->parent == UINT32_MAX) /* (its share is in %) */
          osp_work_unit_add (forest,
                             row->estimate
                                 * osp_steps_cost (p, row->fi, row->steps,
                                                   row->nsteps),
                             row->share / 100.0);
      }
}

void
osp_print_work_fields (FILE *out, double work, double err95, double share)
{
  fprintf (out, "\t%.3f\t%.3f\t%.9g", work, err95, share);
}

/* ---- functions by self work ------------------------------------------- */

/* Whether fns[I]'s executions come from its block counts. */
static int
from_blocks (const struct osp_profile *p, uint32_t i)
{
  return p->mode == OSP_MODE_BLOCKS && p->counts != NULL
         && (p->fns[i]->flags & OSP_FN_BLOCK_HOOKS);
}

int
osp_fn_work (const struct osp_profile *p, double *execs, double *work)
{
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      execs[i] = work[i] = 0;
      if (!from_blocks (p, i))
        continue;
      const struct osp_fn *f = p->fns[i];
      for (uint32_t b = 0; b < f->nblocks; b++)
        if (osp_block_counted (f, b))
          {
            execs[i] += (double) p->counts[i][b];
            work[i] += (double) p->counts[i][b] * f->blocks[b].cost;
          }
    }
  if (!p->paths.shown)
    return 0;
  for (uint32_t r = 0; r < p->paths.nrows; r++)
    {
      const struct osp_path_row *row = &p->paths.rows[r];
      if (row->fi >= p->nfns || from_blocks (p, row->fi))
        continue;
      double cost = osp_steps_cost (p, row->fi, row->steps, row->nsteps);
      execs[row->fi] += row->estimate * row->nsteps;
      work[row->fi] += row->estimate * cost;
    }
  return 0;
}

struct fn_work
{
  uint32_t i;
  double execs, work;
};

static int
by_work (const void *a, const void *b)
{
  const struct fn_work *x = a, *y = b;
  if (x->work != y->work)
    return x->work < y->work ? 1 : -1;
  if (x->execs != y->execs)
    return x->execs < y->execs ? 1 : -1;
  return x->i < y->i ? -1 : x->i > y->i;
}

/* The functions with executions or work, by work; *N of them, *TE and *TW
   the sums.  NULL if out of memory (or no function: *N = 0). */
static struct fn_work *
ranked (const struct osp_profile *p, uint32_t *n, double *te, double *tw)
{
  *n = 0;
  *te = *tw = 0;
  size_t m = p->nfns ? p->nfns : 1;
  double *e = malloc (m * sizeof *e), *w = malloc (m * sizeof *w);
  struct fn_work *r = malloc (m * sizeof *r);
  if (e == NULL || w == NULL || r == NULL)
    {
      free (e), free (w), free (r);
      return NULL;
    }
  osp_fn_work (p, e, w);
  for (uint32_t i = 0; i < p->nfns; i++)
    if (e[i] > 0 || w[i] > 0)
      {
        r[(*n)++] = (struct fn_work) { i, e[i], w[i] };
        *te += e[i];
        *tw += w[i];
      }
  free (e), free (w);
  qsort (r, *n, sizeof *r, by_work);
  return r;
}

static double
pct (double x, double total)
{
  return total > 0 ? 100 * x / total : 0;
}

int
osp_format_work_tsv (FILE *out, const struct osp_profile *p,
                     const struct osp_options *o)
{
  (void) o;
  uint32_t n;
  double te, tw;
  struct fn_work *r = ranked (p, &n, &te, &tw);
  if (r == NULL)
    return -1;
  for (uint32_t k = 0; k < n; k++)
    fprintf (out, "work\t%u\t%.0f\t%.4f\t%.0f\t%.4f\n", p->fns[r[k].i]->id,
             r[k].execs, pct (r[k].execs, te), r[k].work,
             pct (r[k].work, tw));
  free (r);
  return 0;
}

int
osp_format_work_text (FILE *out, const struct osp_profile *p,
                      const struct osp_options *o)
{
  uint32_t n;
  double te, tw;
  struct fn_work *r = ranked (p, &n, &te, &tw);
  if (r == NULL)
    return -1;
  uint32_t top = o->report_top && o->report_top < n ? o->report_top : n;
  fputc ('\n', out);
  osp_text_line (out, "functions by self work (%s of %s; work = executions "
                 "x estimated block cost, from %s):", OSP_G (top), OSP_G (n),
                 p->mode == OSP_MODE_BLOCKS ? "block counts"
                                            : "path estimates");
  fprintf (out, "   work%%  execs%%            work      executions  "
           "function  location\n");
  for (uint32_t k = 0; k < top; k++)
    {
      const struct osp_fn *f = p->fns[r[k].i];
      char loc[512];
      osp_location (loc, sizeof loc, f, 0, 0);
      int col = fprintf (out, "%7.2f%% %6.2f%% %15s %15s  %s",
                         pct (r[k].work, tw), pct (r[k].execs, te),
                         OSP_G (r[k].work), OSP_G (r[k].execs), f->name);
      osp_text_field (out, col, 8, loc);
    }
  osp_report_more (out, top, n, "row");
  free (r);
  return 0;
}

int
osp_work_shown (const struct osp_profile *p)
{
  return p->mode == OSP_MODE_BLOCKS || p->paths.shown;
}

void
osp_format_work_stats (const struct osp_stat_out *out,
                       const struct osp_profile *p,
                       const struct osp_options *o)
{
  (void) out, (void) p, (void) o; /* the rows are the figures */
}

/* SPDX-License-Identifier: MIT */
/* report-paths.c - the Ball-Larus path and edge sections of a report
 * (doc/CONTRACTS.md), appended in every mode when some registered function
 * has path probes and paths != off.
 *
 * tsv: one `path' row per entry of the path table, ranked (estimate.c),
 * with its blocks as fid:block like subpath rows, and one `edge' row per
 * CFG successor slot with a non-zero count in the edge profile derived
 * from the samples (pathprof.c); the formatters of the modes put them
 * after their own rows and the path statistics after their own stat rows.
 * text: the policy and statistics, the hottest paths decoded with the
 * subpath report's code (osp_print_blocks), then the edge profile of the
 * conditional blocks of the functions on the top paths, with lines.
 *
 * Estimates (estimate.c): counter = samples x path_interval with a 95%
 * interval; exhaustive = exact counts; timer = samples, not counts.  Rows
 * and edges read from a function's counters (pathprof.c) are counts in
 * every policy that reports them: "exact" in the text's interval column,
 * err95 0 in tsv.
 */
#define _GNU_SOURCE
#include "output/output.h"
#include "format/workshare.h"

#include <stdlib.h>
#include <string.h>

/* The global ids of ROW's blocks into GIDS (room for its nsteps). */
static void
row_gids (const struct osp_profile *p, const struct osp_path_row *row,
          uint32_t *gids)
{
  uint32_t base = p->fns[row->fi]->block_base;
  for (uint32_t k = 0; k < row->nsteps; k++)
    gids[k] = base + row->steps[k].block;
}

static uint32_t
longest_row (const struct osp_path_profile *pp, size_t n)
{
  uint32_t m = 1;
  for (size_t r = 0; r < n; r++)
    if (pp->rows[r].nsteps > m)
      m = pp->rows[r].nsteps;
  return m;
}

/* The block successor slot E of F leads to, as a tsv field. */
static void
print_dst (FILE *out, const struct osp_fn *f, uint32_t e)
{
  if (f->edges[e].dst == OSP_BLOCK_EXIT)
    fputs ("exit", out);
  else
    fprintf (out, "%u", f->edges[e].dst);
}

/* ---- tsv ------------------------------------------------------------- */

int
osp_format_paths_tsv (FILE *out, const struct osp_profile *p,
                      const struct osp_options *o)
{
  (void) o; /* the profile already holds every setting it shows */
  const struct osp_path_profile *pp = &p->paths;
  uint32_t *gids = malloc (longest_row (pp, pp->nrows) * sizeof *gids);
  if (gids == NULL)
    return -1;
  struct osp_work_unit units[32], paths, forest;
  osp_work_units (p, units, &paths, &forest);
  for (uint32_t r = 0; r < pp->nrows; r++)
    {
      const struct osp_path_row *row = &pp->rows[r];
      /* a sampled row too uncertain to rank (collect/shares.c): rank `-',
         after the ranked ones (estimate.c's order) */
      char rank[16] = "-";
      if (!osp_few (row->estimate, row->err95))
        snprintf (rank, sizeof rank, "%u", r + 1);
      fprintf (out, "path\t%s\t%u\t%llu\t%.3f\t%.3f\t%llu\t%.9g\t%u\t",
               rank, p->fns[row->fi]->id, (unsigned long long) row->id,
               row->estimate, row->err95, (unsigned long long) row->samples,
               row->share, row->branches);
      row_gids (p, row, gids);
      osp_print_block_ids (out, p, gids, row->nsteps);
      double cost = osp_steps_cost (p, row->fi, row->steps, row->nsteps);
      osp_print_work_fields (out, row->estimate * cost, row->err95 * cost,
                             osp_work_share (&paths, row->estimate * cost));
      fputc ('\n', out);
    }
  free (gids);

  for (uint32_t i = 0; i < p->nfns; i++)
    {
      const struct osp_fn *f = p->fns[i];
      const uint64_t *c = pp->edges[i];
      if (c == NULL)
        continue;
      for (uint32_t b = 0; b < f->nblocks; b++)
        for (uint32_t s = 0; s < f->blocks[b].nsucc; s++)
          {
            uint32_t e = f->blocks[b].succ + s;
            if (c[e] == 0)
              continue;
            fprintf (out, "edge\t%u\t%u\t%u\t", f->id, b, s);
            print_dst (out, f, e);
            fprintf (out, "\t%.3f\t%llu\n",
                     (double) c[e] * osp_path_edge_scale (pp, f),
                     (unsigned long long) c[e]);
          }
    }
  return 0;
}

void
osp_format_paths_stats (const struct osp_stat_out *out,
                        const struct osp_profile *p,
                        const struct osp_options *o)
{
  const struct osp_path_profile *pp = &p->paths;
  osp_stat_s (out, "paths", osp_path_policy_name (o->paths));
  osp_stat_u (out, "path_interval", o->path_interval);
  osp_stat_u (out, "path_gain", o->path_gain);
  if (o->paths == OSP_PATHS_COUNTER)
    {
      osp_stat_u (out, "path_raises", pp->raises);
      osp_stat_u (out, "path_interval_now", (uint64_t) pp->scale);
    }
  osp_stat_u (out, "path_samples_per_tick", o->path_samples);
  osp_stat_u (out, "path_stride", o->path_stride);
  osp_stat_u (out, "path_period_ms", o->path_period);
  if (o->paths == OSP_PATHS_COUNTER || o->paths == OSP_PATHS_EXHAUSTIVE)
    osp_stat_u (out, "path_ends_seen", pp->ends_seen);
  /* Only with shared path checks (their drawn path ends): then
     path_ends_seen is an estimate, and this much of it was drawn. */
  if (pp->ends_estimated != 0)
    osp_stat_u (out, "path_ends_estimated", pp->ends_estimated);
  if (o->paths == OSP_PATHS_TIMER)
    osp_stat_u (out, "path_ticks", pp->ticks);
  osp_stat_u (out, "path_samples", pp->samples);
  osp_stat_u (out, "path_counted", pp->counted);
  osp_stat_u (out, "path_counted_plain", pp->counted_plain);
  osp_stat_u (out, "paths_distinct", pp->distinct);
  osp_stat_u (out, "paths_dropped", pp->dropped);
  osp_stat_u (out, "paths_invalid", pp->invalid);
  osp_stat_u (out, "path_bytes_used", pp->bytes_used);
  osp_stat_u (out, "path_bytes_peak", pp->bytes_peak);
  osp_stat_u (out, "path_bytes", pp->bytes_bound);
  osp_stat_u (out, "path_counter_bytes", pp->counter_bytes);
  osp_stat_u (out, "decode_cache_hits", pp->cache_hits);
  osp_stat_u (out, "decode_cache_misses", pp->cache_misses);
  osp_stat_u (out, "path_functions", pp->functions);
}

/* ---- text ------------------------------------------------------------ */

static void
text_header (FILE *out, const struct osp_profile *p,
             const struct osp_options *o)
{
  const struct osp_path_profile *pp = &p->paths;
  fputc ('\n', out);
  switch (o->paths)
    {
    case OSP_PATHS_EXHAUSTIVE:
      fprintf (out, "ball-larus paths: exhaustive (exact counts)\n");
      break;
    case OSP_PATHS_TIMER:
      osp_text_line (out, "ball-larus paths: timer PEP(%u,%u) every %u ms "
                     "(samples, not scaled)", o->path_samples, o->path_stride,
                     o->path_period);
      break;
    default:
      osp_text_line (out, "ball-larus paths: sampled, counter-based, mean "
                     "interval %u (estimates with 95%% intervals)",
                     o->path_interval);
      if (pp->raises)
        osp_text_line (out, "  interval now %s: doubled %u times, samples "
                       "thinned to match (path_gain %u samples per path)",
                       OSP_G (pp->scale), pp->raises, o->path_gain);
    }
  struct osp_para pa;
  FILE *l = osp_para_open (&pa, out);
  if (o->paths == OSP_PATHS_TIMER)
    fprintf (l, "  timer ticks %s, ", OSP_G (pp->ticks));
  else if (pp->ends_estimated != 0)
    fprintf (l, "  path ends seen ~%s (an estimate: %s of them stand for "
             "the drawn ends of shared checks), ", OSP_G (pp->ends_seen),
             OSP_G (pp->ends_estimated));
  else
    fprintf (l, "  path ends seen %s, ", OSP_G (pp->ends_seen));
  if (pp->counted)
    fprintf (l, "counted exactly %s (functions with counters and no "
             "checks), ", OSP_G (pp->counted));
  fprintf (l, "samples %s, distinct paths %s, dropped (table full) %s, "
           "invalid ids %s", OSP_G (pp->samples), OSP_G (pp->distinct),
           OSP_G (pp->dropped), OSP_G (pp->invalid));
  osp_para_close (&pa);
  osp_text_line (out, "  path table memory %s used, %s peak, %s bound; "
                 "decode cache %s hits, %s misses; %s functions with path "
                 "probes", OSP_G (pp->bytes_used), OSP_G (pp->bytes_peak),
                 OSP_G (pp->bytes_bound), OSP_G (pp->cache_hits),
                 OSP_G (pp->cache_misses), OSP_G (pp->functions));
  if (pp->dropped)
    fprintf (out, "osp: the path table was full: raise path_bytes\n");
  if (pp->counted_plain && pp->threads > 1)
    osp_text_line (out, "osp: %s threads ran, and %s functions count their "
                   "paths with plain increments, which lose counts when "
                   "threads run one function at once: build threaded "
                   "programs with -fplugin-arg-osp-counts-update=atomic",
                   OSP_G (pp->threads), OSP_G (pp->counted_plain));
}

/* One row of the text list, RANK 0 for an unranked one ("-"). */
static int
text_path_row (FILE *out, const struct osp_profile *p,
               const struct osp_options *o, const struct osp_path_row *row,
               size_t rank, const struct osp_work_unit *unit, uint32_t *gids)
{
  int exact = o->paths == OSP_PATHS_EXHAUSTIVE;
  char err[OSP_GROUPED_SIZE + 8] = "", rk[24] = "-";
  if (!exact && row->exact)
    snprintf (err, sizeof err, "exact");
  else if (!exact)
    snprintf (err, sizeof err, "+/- %s", OSP_G (row->err95));
  if (rank)
    snprintf (rk, sizeof rk, "%zu", rank);
  double work
      = row->estimate * osp_steps_cost (p, row->fi, row->steps, row->nsteps);
  int col = fprintf (out, "%5s %14s %12s %6.2f%% %16s %6.2f%% %8u", rk,
                     OSP_G (row->estimate), err, 100.0 * row->share,
                     OSP_G (work), 100.0 * osp_work_share (unit, work),
                     row->branches);
  row_gids (p, row, gids);
  return osp_print_blocks (out, p, gids, row->nsteps, col, 8);
}

/* The TOP first rows (all ranked), then up to report_top of the rows too
   uncertain to rank, which come after the ranked ones (estimate.c). */
static int
text_paths (FILE *out, const struct osp_profile *p,
            const struct osp_options *o, size_t top, uint32_t ranked)
{
  const struct osp_path_profile *pp = &p->paths;
  int exact = o->paths == OSP_PATHS_EXHAUSTIVE;
  uint32_t *gids = malloc (longest_row (pp, pp->nrows) * sizeof *gids);
  if (gids == NULL)
    return -1;
  struct osp_work_unit units[32], paths, forest;
  osp_work_units (p, units, &paths, &forest);
  fprintf (out, "\nhottest paths (%s of %s%s):\n", OSP_G (top),
           OSP_G (ranked),
           o->paths == OSP_PATHS_TIMER
               ? "; timer samples, not scaled to counts"
               : "");
  fprintf (out, "%5s %14s %12s %7s %16s %7s %8s  %s\n", "rank",
           o->paths == OSP_PATHS_TIMER ? "samples" : "estimate",
           exact ? "" : "+/- 95%", "share", "work", "work%", "branches",
           "path");
  int rc = 0;
  for (size_t r = 0; r < top && rc == 0; r++)
    rc = text_path_row (out, p, o, &pp->rows[r], r + 1, &paths, gids);
  if (rc == 0)
    osp_report_more (out, top, ranked, "row");
  uint32_t few = pp->nrows - ranked;
  if (few > 0 && rc == 0)
    {
      size_t ftop = few < o->report_top ? few : o->report_top;
      fputc ('\n', out);
      osp_text_line (out,
                     "too few samples to rank (%s of %s paths: the 95%% "
                     "interval is wider than the estimate):",
                     OSP_G (ftop), OSP_G (few));
      for (size_t r = 0; r < ftop && rc == 0; r++)
        rc = text_path_row (out, p, o, &pp->rows[ranked + r], 0, &paths,
                            gids);
      if (rc == 0)
        osp_report_more (out, ftop, few, "row");
    }
  free (gids);
  return rc;
}

/* The successors of conditional block B of F (fns[I]) with their counts. */
static void
text_branch (FILE *out, const struct osp_profile *p, uint32_t i, uint32_t b,
             uint64_t total)
{
  const struct osp_fn *f = p->fns[i];
  const struct osp_block *bl = &f->blocks[b];
  const uint64_t *c = p->paths.edges[i];
  double scale = osp_path_edge_scale (&p->paths, f);
  char loc[OSP_PATH_MAX + 64];
  osp_location (loc, sizeof loc, f, bl->line_first, bl->line_last);
  osp_text_line (out, "    block %u %s, %s:", b, loc,
                 OSP_G ((double) total * scale));
  for (uint32_t s = 0; s < bl->nsucc; s++)
    {
      const struct osp_edge *e = &f->edges[bl->succ + s];
      if (e->flags & (OSP_EDGE_ABNORMAL | OSP_EDGE_EH))
        continue;
      char to[OSP_PATH_MAX + 80];
      if (e->dst == OSP_BLOCK_EXIT)
        snprintf (to, sizeof to, "exit");
      else
        {
          osp_location (loc, sizeof loc, f, f->blocks[e->dst].line_first,
                        f->blocks[e->dst].line_last);
          snprintf (to, sizeof to, "block %u %s", e->dst, loc);
        }
      osp_text_line (out, "      -> %-40s %14s %6.2f%%", to,
                     OSP_G ((double) c[bl->succ + s] * scale),
                     osp_share (c[bl->succ + s], total));
    }
}

/* The edge profile of the functions on the TOP first rows, up to
   report_top functions, in the order they first appear. */
static int
text_edges (FILE *out, const struct osp_profile *p,
            const struct osp_options *o, size_t top)
{
  const struct osp_path_profile *pp = &p->paths;
  unsigned char *listed = calloc (p->nfns ? p->nfns : 1, 1);
  uint32_t *fis = malloc ((top ? top : 1) * sizeof *fis);
  if (listed == NULL || fis == NULL)
    {
      free (listed);
      free (fis);
      return -1;
    }
  uint32_t nf = 0;
  for (size_t r = 0; r < top && nf < o->report_top; r++)
    if (!listed[pp->rows[r].fi] && pp->edges[pp->rows[r].fi] != NULL)
      {
        listed[pp->rows[r].fi] = 1;
        fis[nf++] = pp->rows[r].fi;
      }
  fputc ('\n', out);
  osp_text_line (out, "edge profile (conditional blocks of the %s functions "
                 "on the top paths%s):", OSP_G (nf),
                 o->paths == OSP_PATHS_TIMER ? "; timer samples" : "");
  char loc[OSP_PATH_MAX + 64];
  for (uint32_t k = 0; k < nf; k++)
    {
      uint32_t i = fis[k];
      const struct osp_fn *f = p->fns[i];
      osp_location (loc, sizeof loc, f, f->first_line, f->first_line);
      osp_text_line (out, "  %s() %s", f->name, loc);
      for (uint32_t b = 0; b < f->nblocks; b++)
        {
          if (osp_block_normal_succs (f, b) < 2)
            continue;
          uint64_t total = 0;
          for (uint32_t s = 0; s < f->blocks[b].nsucc; s++)
            total += pp->edges[i][f->blocks[b].succ + s];
          if (total != 0)
            text_branch (out, p, i, b, total);
        }
    }
  free (listed);
  free (fis);
  return 0;
}

int
osp_format_paths_text (FILE *out, const struct osp_profile *p,
                       const struct osp_options *o)
{
  const struct osp_path_profile *pp = &p->paths;
  uint32_t ranked = 0;
  while (ranked < pp->nrows
         && !osp_few (pp->rows[ranked].estimate, pp->rows[ranked].err95))
    ranked++;
  size_t top = ranked < o->report_top ? ranked : o->report_top;
  text_header (out, p, o);
  if (text_paths (out, p, o, top, ranked) != 0)
    return -1;
  /* the edges of the functions on the first rows, ranked or not: an edge
     profile sums every sample, however few each path has */
  return text_edges (out, p, o,
                     pp->nrows < o->report_top ? pp->nrows : o->report_top);
}

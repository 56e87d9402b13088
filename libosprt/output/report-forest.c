/* SPDX-License-Identifier: MIT */
/* report-forest.c - the prefix-forest section of a report (k-BLPP's
 * k-Iterations Path Forest, doc/CONTRACTS.md), appended in every mode when
 * the profile has a forest (forest != off and some function has path
 * probes; pathforest.c's osp_forest_collect fills p->forest).
 *
 * What a row is.  A node of the k-IPF stands for an n-gram: the Ball-Larus
 * paths on the way from its tree's root down to it, taken one after the
 * other by one routine activation (a loop's consecutive iterations, say).
 * Its count is how often that n-gram occurred; the row carries only the
 * node's own path (the last of the n-gram), the rest is its ancestors.  The
 * rows come in preorder - every tree (roots by count) followed by its
 * subtree, siblings by count - each with its parent's row index, so a
 * reader rebuilds the forest in one pass.  share is the node's count as a
 * part of its parent's (a root's: of all counted path ends), which is the
 * question the forest answers: "after this run of iterations, how often
 * does the next one take that path?".
 *
 * tsv: one `forest' row per row, after the mode's rows and the path and
 * edge rows, with the blocks as fid:block like path rows; the forest `stat'
 * rows after the path stat rows (the formatters of the modes call us).
 * text: a label that says how exact the numbers are, the statistics that
 * bound what was lost, then the trees drawn as the paper's Figure 4, one
 * node per line, each path decoded by the subpath report's code
 * (osp_print_blocks).
 *
 * Numbers: exhaustive = exact counts (estimate = count, err95 = 0); burst =
 * counts of the sampled bursts, estimate = count x scale with a 95% bound
 * (pathforest.c has the derivation).
 */
#define _GNU_SOURCE
#include "output/output.h"
#include "format/workshare.h"

#include <stdlib.h>
#include <string.h>

/* The global ids of ROW's blocks into GIDS (room for its nsteps): what
   osp_print_blocks and osp_print_block_ids take. */
static void
row_gids (const struct osp_profile *p, const struct osp_forest_row *row,
          uint32_t *gids)
{
  uint32_t base = p->fns[row->fi]->block_base;
  for (uint32_t k = 0; k < row->nsteps; k++)
    gids[k] = base + row->steps[k].block;
}

/* A buffer for the longest row's global ids (at least one slot). */
static uint32_t *
gids_buffer (const struct osp_forest_profile *f)
{
  uint32_t m = 1;
  for (uint32_t r = 0; r < f->nrows; r++)
    if (f->rows[r].nsteps > m)
      m = f->rows[r].nsteps;
  return malloc (m * sizeof (uint32_t));
}

/* ---- tsv ------------------------------------------------------------- */

int
osp_format_forest_tsv (FILE *out, const struct osp_profile *p,
                       const struct osp_options *o)
{
  (void) o; /* the profile already holds every setting it shows */
  const struct osp_forest_profile *f = &p->forest;
  uint32_t *gids = gids_buffer (f);
  if (gids == NULL)
    return -1;
  struct osp_work_unit units[32], paths, forest;
  osp_work_units (p, units, &paths, &forest);
  for (uint32_t r = 0; r < f->nrows; r++)
    {
      const struct osp_forest_row *row = &f->rows[r];
      /* Row numbers are 1-based like path ranks, so the parent field is a
         row number too ("-" for a root). */
      char parent[16] = "-";
      if (row->parent != UINT32_MAX)
        snprintf (parent, sizeof parent, "%u", row->parent + 1);
      /* share as a fraction like every other tsv share (path, subpath);
         the profile keeps it in % for the text form. */
      fprintf (out, "forest\t%u\t%s\t%u\t%u\t%llu\t%llu\t%.3f\t%.3f\t%.9g\t",
               r + 1, parent, row->depth, p->fns[row->fi]->id,
               (unsigned long long) row->id, (unsigned long long) row->count,
               row->estimate, row->err95, row->share / 100.0);
      row_gids (p, row, gids);
      osp_print_block_ids (out, p, gids, row->nsteps);
      /* a node's work is its own path's (the last of its n-gram) */
      double cost = osp_steps_cost (p, row->fi, row->steps, row->nsteps);
      osp_print_work_fields (out, row->estimate * cost, row->err95 * cost,
                             osp_work_share (&forest, row->estimate * cost));
      /* ranked: 0 when the interval is wider than the estimate (too few
         samples, collect/shares.c).  The tree keeps its preorder, so such
         a node is flagged rather than moved; last, so that readers of the
         older 14 fields still work. */
      fprintf (out, "\t%d", !osp_few (row->estimate, row->err95));
      fputc ('\n', out);
    }
  free (gids);
  return 0;
}

void
osp_format_forest_stats (const struct osp_stat_out *out,
                         const struct osp_profile *p,
                         const struct osp_options *o)
{
  (void) o;
  const struct osp_forest_profile *f = &p->forest;
  const struct osp_forest_stats *s = &f->sum;
  /* The settings in force, then forest.c's counters summed over the
     streams, then pathforest.c's stream and report counters. */
  osp_stat_s (out, "forest", osp_forest_policy_name (f->policy));
  osp_stat_u (out, "forest_k", f->k);
  osp_stat_u (out, "forest_burst", f->burst);
  osp_stat_u (out, "forest_interval", f->interval);
  osp_stat_u (out, "forest_warmup", f->warmup);
  osp_stat_u (out, "forest_prune", f->prune);
  osp_stat_f (out, "forest_scale", f->scale);
  osp_stat_u (out, "forest_items", s->items);
  osp_stat_u (out, "forest_unseen", f->unseen);
  osp_stat_u (out, "forest_context", s->context);
  osp_stat_u (out, "forest_markers", s->markers);
  osp_stat_u (out, "forest_bursts", f->bursts);
  osp_stat_u (out, "forest_hash_accesses", s->hash_accesses);
  osp_stat_u (out, "forest_child_finds", s->child_finds);
  osp_stat_u (out, "forest_child_scans", s->child_scans);
  osp_stat_u (out, "forest_nodes", s->nodes_used);
  osp_stat_u (out, "forest_nodes_peak", s->nodes_peak);
  osp_stat_u (out, "forest_nodes_cap", s->nodes_cap);
  osp_stat_u (out, "forest_pruned_nodes", s->pruned_nodes);
  osp_stat_u (out, "forest_pruned_mass", s->pruned_mass);
  osp_stat_u (out, "forest_prune_passes", s->prune_passes);
  osp_stat_u (out, "forest_dropped", s->dropped);
  osp_stat_u (out, "forest_threshold", s->threshold);
  osp_stat_u (out, "forest_deep", s->deep);
  osp_stat_u (out, "forest_streams", f->streams);
  osp_stat_u (out, "forest_threads_refused", f->refused);
  osp_stat_u (out, "forest_resyncs", f->resyncs);
  osp_stat_u (out, "forest_partial", f->partial);
  osp_stat_u (out, "forest_unlabelled", f->unlabelled);
  osp_stat_u (out, "forest_invalid", f->invalid);
  osp_stat_u (out, "forest_shape_hits", f->shape_hits);
  osp_stat_u (out, "forest_shape_misses", f->shape_misses);
  osp_stat_u (out, "forest_trees", f->trees);
  osp_stat_u (out, "forest_ipf_nodes", f->ipf_nodes);
  osp_stat_u (out, "forest_ipf_truncated", f->ipf_truncated);
  osp_stat_u (out, "forest_rows_cut", f->rows_cut);
  osp_stat_u (out, "forest_bytes_bound", f->bytes_bound);
}

/* ---- text ------------------------------------------------------------ */

/* The label, the statistics and what the numbers guarantee; SHOWN trees
   are drawn. */
static void
text_header (FILE *out, const struct osp_profile *p, uint32_t shown)
{
  const struct osp_forest_profile *f = &p->forest;
  const struct osp_forest_stats *s = &f->sum;
  int burst = f->policy == OSP_FOREST_BURST;
  /* forest.c's guarantee: pruning and dropping only ever lose counts, and
     never more than LOST from any one n-gram, so whatever occurred more
     than LOST times survived. */
  uint64_t lost = s->pruned_mass + s->dropped;

  fputc ('\n', out);
  if (burst)
    osp_text_line (out, "prefix forest (k-BLPP, k=%u): sampled bursts of %s "
                   "path ends every ~%s, estimates +/- 95%% (n-grams "
                   "spanning more than %s path ends under-counted)", f->k,
                   OSP_G (f->burst), OSP_G (f->interval),
                   OSP_G (f->warmup + 1));
  else if (lost == 0)
    osp_text_line (out, "prefix forest (k-BLPP, k=%u): exhaustive, exact "
                   "counts", f->k);
  else
    osp_text_line (out, "prefix forest (k-BLPP, k=%u): exhaustive, counts up "
                   "to %s low (out of nodes)", f->k, OSP_G (lost));

  struct osp_para pa;
  FILE *l = osp_para_open (&pa, out);
  fprintf (l, "  path ends counted %s", OSP_G (s->items));
  if (burst)
    fprintf (l, " in %s bursts (+%s context only; one counted stands "
             "for %.4g)", OSP_G (f->bursts), OSP_G (s->context), f->scale);
  fprintf (l, ", trees %s (%s shown), k-SF nodes %s used of %s (peak %s), "
           "k-IPF nodes %s", OSP_G (f->trees), OSP_G (shown),
           OSP_G (s->nodes_used), OSP_G (s->nodes_cap),
           OSP_G (s->nodes_peak), OSP_G (f->ipf_nodes));
  osp_para_close (&pa);
  if (f->unseen)
    osp_text_line (out, "  not in the forest: %s path ends of functions that "
                   "count their paths inline, without checks",
                   OSP_G (f->unseen));
  osp_text_line (out, "  streams %s, threads refused %s, resyncs %s, "
                 "partial activations %s, recursion past the frames %s, "
                 "memory bound %s", OSP_G (f->streams), OSP_G (f->refused),
                 OSP_G (f->resyncs), OSP_G (f->partial), OSP_G (s->deep),
                 OSP_G (f->bytes_bound));

  if (lost)
    osp_text_line (out, "  lost %s counted path ends (pruned %s in %s "
                   "nodes, dropped %s): no count is too high, and every "
                   "n-gram that occurred more than %s times%s is kept, at "
                   "most that much low", OSP_G (lost),
                   OSP_G (s->pruned_mass), OSP_G (s->pruned_nodes),
                   OSP_G (s->dropped), OSP_G (lost),
                   burst ? " in the bursts" : "");
  else
    osp_text_line (out, "  nothing lost to the node budget: %s",
                   burst ? "the bursts' counts are exact"
                         : "every count is exact");

  l = osp_para_open (&pa, out);
  if (f->prune)
    fprintf (l, "  nodes below %u%% of their tree's root are not shown;",
             f->prune);
  else
    fprintf (l, "  every node is shown;");
  fprintf (l, " each line: %s, %% of the parent's, work (%s x the "
           "node's path's block costs) and its %% of the work of all path "
           "ends counted, the node's path (its n-gram is the paths from the "
           "root down to it)",
           burst ? "estimate +/- 95%" : "count",
           burst ? "estimate" : "count");
  osp_para_close (&pa);
  if (burst)
    osp_text_line (out, "  ~ before an estimate: its interval is wider than "
                   "it, too few samples to rank (the tree keeps its order)");

  if (f->refused)
    osp_text_line (out, "osp: %s threads had no forest stream: raise "
                   "forest_threads", OSP_G (f->refused));
  if (s->dropped || s->pruned_mass)
    fprintf (out, "osp: the forest ran out of nodes: raise forest_bytes\n");
  if (f->ipf_truncated)
    osp_text_line (out, "osp: the k-IPF lost %s nodes (out of memory): some "
                   "subtrees are missing", OSP_G (f->ipf_truncated));
  if (f->rows_cut)
    osp_text_line (out, "osp: %s nodes over the row limit are not shown",
                   OSP_G (f->rows_cut));
}

/* LAST[r]: whether row r of the first N is the last child of its parent
   among them (for roots: the last tree).  In preorder a later sibling
   always comes after, so one backward pass that remembers which parents
   already have a child seen answers it.  NULL if out of memory. */
static unsigned char *
last_siblings (const struct osp_forest_profile *f, uint32_t n)
{
  unsigned char *last = malloc (n ? n : 1);
  /* seen[0]: the roots' common "parent"; seen[i + 1]: row i. */
  unsigned char *seen = calloc ((size_t) n + 1, 1);
  if (last == NULL || seen == NULL)
    {
      free (last);
      free (seen);
      return NULL;
    }
  for (uint32_t r = n; r-- > 0;)
    {
      uint32_t par = f->rows[r].parent;
      size_t key = par == UINT32_MAX ? 0 : (size_t) par + 1;
      last[r] = !seen[key];
      seen[key] = 1;
    }
  free (seen);
  return last;
}

/* The tree drawing in front of row R, two columns per level below the
   root: "| " for an ancestor with siblings still to come, "  " for one
   without, then "|-" or "`-" for R itself.  Ancestors are visited from
   R upwards, so the prefix is filled right to left.  Returns its
   width. */
static int
print_prefix (FILE *out, const struct osp_forest_profile *f, uint32_t r,
              const unsigned char *last)
{
  char buf[2 * OSP_FOREST_KMAX + 1];
  uint32_t depth = f->rows[r].depth;
  if (depth == 0)
    return 0;
  if (depth > OSP_FOREST_KMAX)
    depth = OSP_FOREST_KMAX; /* cannot happen: k <= OSP_FOREST_KMAX */
  buf[2 * depth] = '\0';
  uint32_t row = r;
  for (uint32_t d = depth; d > 0; d--)
    {
      char *at = buf + 2 * (d - 1);
      if (d == depth)
        memcpy (at, last[row] ? "`-" : "|-", 2);
      else
        memcpy (at, last[row] ? "  " : "| ", 2);
      row = f->rows[row].parent;
    }
  fputs (buf, out);
  return (int) (2 * depth);
}

int
osp_format_forest_text (FILE *out, const struct osp_profile *p,
                        const struct osp_options *o)
{
  const struct osp_forest_profile *f = &p->forest;
  int burst = f->policy == OSP_FOREST_BURST;
  /* report_top trees, like every other table's report_top rows: the
     rows up to the next root after them (preorder).  The profile may
     hold fewer (it was taken with the run's report_top) and counts every
     tree in f->trees. */
  uint32_t n = 0, trees = 0;
  for (; n < f->nrows; n++)
    if (f->rows[n].depth == 0 && trees++ == o->report_top)
      {
        trees--;
        break;
      }
  text_header (out, p, trees);

  uint32_t *gids = gids_buffer (f);
  unsigned char *last = last_siblings (f, n);
  if (gids == NULL || last == NULL)
    {
      free (gids);
      free (last);
      return -1;
    }
  struct osp_work_unit units[32], paths, forest;
  osp_work_units (p, units, &paths, &forest);
  int rc = 0;
  for (uint32_t r = 0; r < n && rc == 0; r++)
    {
      const struct osp_forest_row *row = &f->rows[r];
      /* A blank line around every tree of more than one node; single-node
         trees (no successor shown) stay together. */
      int has_children = r + 1 < n && f->rows[r + 1].depth > 0;
      int after_big = r > 0 && f->rows[r - 1].depth > 0;
      if (row->depth == 0 && (r == 0 || has_children || after_big))
        fputc ('\n', out);
      fputs ("  ", out);
      int col = 2 + print_prefix (out, f, r, last);
      if (burst) /* "~": too few samples to rank (osp_few) */
        col += fprintf (out, "%s%s +/- %s",
                        osp_few (row->estimate, row->err95) ? "~" : "",
                        OSP_G (row->estimate), OSP_G (row->err95));
      else
        col += fprintf (out, "%s", OSP_G (row->count));
      double work
          = row->estimate * osp_steps_cost (p, row->fi, row->steps,
                                            row->nsteps);
      col += fprintf (out, " %.2f%%  work %s %.2f%%", row->share,
                      OSP_G (work), 100.0 * osp_work_share (&forest, work));
      row_gids (p, row, gids);
      /* a path that does not fit goes below, past its node's drawing */
      rc = osp_print_blocks (out, p, gids, row->nsteps, col,
                             10 + 2 * (int) row->depth);
    }
  if (rc == 0)
    osp_report_more (out, trees, f->trees > trees ? f->trees : trees,
                     "tree");
  free (gids);
  free (last);
  return rc;
}

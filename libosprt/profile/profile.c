/* SPDX-License-Identifier: MIT */
/* profile.c - a profile: everything a report shows, taken at one moment.
 *
 * Taking the profile (registry copy, then counts under the threads lock,
 * then each collector's part) is separate from formatting it, so the
 * outputs are plain functions of a struct osp_profile that tests can
 * call, and so a thread still running during exit can neither tear a row
 * nor be counted twice.  Used at exit, by osp_report(), the report_signal
 * thread (output/online.c), snapshots and the publisher.
 */
#define _GNU_SOURCE
#include "profile/profile.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- taking a profile ------------------------------------------------ */

/* The subpath part of the mode's collector, taken over by P. */
static int
take_subpaths (struct osp_profile *p)
{
  struct osp_subpaths_part s = { 0 };
  int rc = p->mode == OSP_MODE_SUBPATHS ? osp_sampler_collect (&s, &osp_opts)
                                        : osp_exact_collect (&s, &osp_opts);
  /* A collector that fails frees what it made; the walk counters it
     filled first are still the profile's. */
  if (rc != 0)
    {
      memcpy (p->subpaths.walk, s.walk, sizeof p->subpaths.walk);
      return rc;
    }
  p->subpaths = s;
  return 0;
}

static int
take (struct osp_profile *p, int live)
{
  memset (p, 0, sizeof *p);
  p->live = live;
  if (osp_registry_snapshot (&p->fns, &p->nfns, &p->mods, &p->nmods) != 0)
    return -1;
  size_t words = 0;
  for (uint32_t i = 0; i < p->nfns; i++)
    words += p->fns[i]->nblocks;
  p->counts = malloc ((p->nfns ? p->nfns : 1) * sizeof *p->counts);
  p->words = malloc ((words ? words : 1) * sizeof *p->words);
  if (p->counts == NULL || p->words == NULL)
    {
      osp_profile_free (p);
      return -1;
    }
  for (uint32_t i = 0, w = 0; i < p->nfns; w += p->fns[i]->nblocks, i++)
    p->counts[i] = p->words + w;
  osp_blocks_snapshot (p->fns, p->nfns, p->counts);

#define STAT(x) p->x = atomic_load_explicit (&osp_stats.x, memory_order_relaxed)
  STAT (modules);
  STAT (functions);
  STAT (functions_dropped);
  STAT (records_invalid);
  STAT (abi_mismatches);
  STAT (unregistered_hits);
  STAT (hits_lost);
  STAT (threads);
  STAT (output_skipped);
#undef STAT
  p->pid = (long) getpid ();
  p->mode = osp_opts.mode;
  p->seed = osp_seed;
  int rc = 0;
  if (p->mode == OSP_MODE_SUBPATHS || p->mode == OSP_MODE_SUBPATHS_EXACT)
    rc = take_subpaths (p);
  const struct osp_fns fns = { p->fns, p->nfns };
  osp_counters_hold ();
  if (rc == 0)
    rc = osp_pathprof_collect (&p->paths, &fns, &osp_opts);
  if (rc == 0)
    rc = osp_forest_collect (&p->forest, &fns, p->live, &osp_opts);
  osp_counters_done ();
  if (rc != 0)
    osp_profile_free (p);
  return rc;
}

int
osp_profile_take (struct osp_profile *p)
{
  return take (p, 0);
}

int
osp_profile_take_live (struct osp_profile *p)
{
  return take (p, 1);
}

void
osp_profile_free (struct osp_profile *p)
{
  free (p->words);
  free (p->counts);
  free (p->fns);
  free (p->mods);
  free (p->subpaths.subs);
  free (p->subpaths.sub_words);
  free (p->paths.rows);
  free (p->paths.step_words);
  free (p->paths.edges);
  free (p->paths.edge_words);
  osp_forest_profile_free (&p->forest);
  memset (p, 0, sizeof *p);
}

/* ---- numbers shared by every output ------------------------------------ */

/* A function built without block hooks (instrument=none, or paths only)
   has no count for any block: like an OSP_BB_NO_HOOK block, it is "-". */
int
osp_block_counted (const struct osp_fn *f, uint32_t b)
{
  return (f->flags & OSP_FN_BLOCK_HOOKS)
         && !(f->blocks[b].flags & OSP_BB_NO_HOOK);
}

/* ---- statistics: one sink for the tsv report and the view ----------- */

void
osp_stat_u (const struct osp_stat_out *out, const char *name, uint64_t v)
{
  if (out->file)
    fprintf (out->file, "stat\t%s\t%llu\n", name, (unsigned long long) v);
  else
    out->fn (out->arg, name, OSP_STAT_U, v, 0.0, NULL);
}

void
osp_stat_s (const struct osp_stat_out *out, const char *name, const char *v)
{
  if (out->file)
    fprintf (out->file, "stat\t%s\t%s\n", name, v);
  else
    out->fn (out->arg, name, OSP_STAT_S, 0, 0.0, v);
}

void
osp_stat_f (const struct osp_stat_out *out, const char *name, double v)
{
  if (out->file)
    fprintf (out->file, "stat\t%s\t%.6g\n", name, v);
  else
    out->fn (out->arg, name, OSP_STAT_F, 0, v, NULL);
}


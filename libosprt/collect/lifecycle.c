/* SPDX-License-Identifier: MIT */
/* lifecycle.c - the collectors' table: one row per collector.
 *
 * Start-up (runtime.c), a thread's settle, recover and exit, and a fork
 * (thread.c) walk these rows in order instead of naming the collectors
 * one by one, so a new collector is one row here and nothing else
 * changes below it.  The rows are in lock order (base.h): fork's prepare
 * handler takes their locks in this order and releases them in reverse.
 * The order of the other columns is the order the hand-written lists had:
 * init sampler, exact, path table, forest, path sampler (which reads the
 * forest's policy); sync sampler, exact, path sampler (which hands its
 * path batch and forest items on); merge blocks, then the walk counters.
 *
 * The hooks (runtime.c, sampler.c's cursor, trampoline.S) never go
 * through this table: they stay direct calls.
 */
#include "collect/collect.h"

const struct osp_collector osp_collectors[] = {
  { .name = "blocks",
    .merge = osp_blocks_merge,
    .reset = osp_blocks_reset },
  { .name = "subpaths",
    .lock = &osp_hot_lock, .lock_name = "hot-list",
    .init = osp_sampler_init,
    .sync = osp_sampler_sync,
    .recover = osp_sampler_recover,
    .merge = osp_walk_merge,
    .reset = osp_sampler_reset },
  { .name = "subpaths-exact",
    .lock = &osp_exact_lock, .lock_name = "exact",
    .init = osp_exact_init,
    .sync = osp_exact_sync,
    .recover = osp_exact_recover,
    .reset = osp_exact_reset },
  { .name = "path table",
    .lock = &osp_path_lock, .lock_name = "path",
    .init = osp_pathprof_init,
    .reset = osp_pathprof_reset },
  { .name = "prefix forest",
    .lock = &osp_forest_lock, .lock_name = "forest",
    .init = osp_forest_init,
    .reset = osp_forest_reset },
  { .name = "path sampler",
    .init = osp_pathsample_init,
    .sync = osp_pathsample_sync,
    .fork_child = osp_pathsample_fork_child },
};
const unsigned osp_ncollectors
    = sizeof osp_collectors / sizeof osp_collectors[0];

_Static_assert (sizeof osp_collectors / sizeof osp_collectors[0]
                    <= OSP_COLLECTORS_MAX,
                "OSP_COLLECTORS_MAX bounds osp_locks_probe's table");

int
osp_collectors_init (const struct osp_options *o)
{
  for (unsigned c = 0; c < osp_ncollectors; c++)
    if (osp_collectors[c].init != NULL && osp_collectors[c].init (o) != 0)
      return -1;
  return 0;
}

/* SPDX-License-Identifier: MIT */
/* blockcount.c - mode=blocks: exact block-entry counts.
 *
 * In this mode every block entry calls the hook, so the increment is the
 * whole cost of the profiler.  Each thread counts into its own tables and
 * only the owner writes them, with a relaxed load and a relaxed store (not
 * a read-modify-write): on x86-64 that is a plain `add' to memory, while
 * the reporter can still read the counters tear-free and race-free.
 * The alternative, one shared table with atomic_fetch_add, was measured
 * with libosprt/tests/bench_counters.c (16 blocks of one function, 2 vCPU
 * VM, ns per entry): shared fetch_add 8.4-9.1 (1 thread) and 75-82
 * (8 threads), per-thread load+store 0.9 and 5.6-7.5.  The `lock' prefix
 * alone costs ~8 ns even uncontended, about as much as the whole rest of
 * the hook (11 ns per entry, 1 thread, through the PLT).
 *
 * A thread's tables: dir[(id-1) >> 10][(id-1) & 1023] -> nblocks counters,
 * allocated on the thread's first entry of that function.  The top level is
 * sized for max_functions, so the tables of a thread are bounded by the
 * registered functions and nothing is ever moved or grown in place.
 * Counters reach the global totals (osp_fn.totals) when the thread exits;
 * a report adds the live threads' tables to those totals.
 */
#include "collect/collect.h"

#include <string.h>

/* Counter table of function FN for thread T, created if missing. */
static osp_counter *
table (struct osp_thread *t, const struct osp_fn *fn)
{
  uint32_t i = fn->id - 1;
  osp_counter *_Atomic *_Atomic *slot = &t->dir[i >> OSP_DIR_SHIFT];
  osp_counter *_Atomic *chunk
      = atomic_load_explicit (slot, memory_order_relaxed);
  if (chunk == NULL)
    {
      chunk = osp_arena_alloc (&t->arena, OSP_DIR_CHUNK * sizeof *chunk);
      if (chunk == NULL)
        return NULL;
      atomic_store_explicit (slot, chunk, memory_order_release);
    }
  osp_counter *c = atomic_load_explicit (&chunk[i & OSP_DIR_MASK],
                                         memory_order_relaxed);
  if (c == NULL)
    {
      c = osp_arena_alloc (&t->arena, fn->nblocks * sizeof *c);
      if (c == NULL)
        return NULL;
      atomic_store_explicit (&chunk[i & OSP_DIR_MASK], c,
                             memory_order_release);
    }
  return c;
}

void
osp_blocks_hit (struct osp_thread *t, const struct osp_fn *fn, uint32_t b)
{
  osp_counter *c = table (t, fn);
  if (c == NULL)
    {
      atomic_fetch_add_explicit (&osp_stats.hits_lost, 1,
                                 memory_order_relaxed);
      return;
    }
  uint64_t v = atomic_load_explicit (&c[b], memory_order_relaxed);
  atomic_store_explicit (&c[b], v + 1, memory_order_relaxed);
}

/* Thread T's counters of function ID (may be NULL).  Any thread. */
static osp_counter *
peek (struct osp_thread *t, uint32_t id)
{
  uint32_t i = id - 1;
  osp_counter *_Atomic *chunk
      = atomic_load_explicit (&t->dir[i >> OSP_DIR_SHIFT],
                              memory_order_acquire);
  if (chunk == NULL)
    return NULL;
  return atomic_load_explicit (&chunk[i & OSP_DIR_MASK], memory_order_acquire);
}

void
osp_blocks_merge (struct osp_thread *t)
{
  uint32_t n = osp_registry_count ();
  for (uint32_t id = 1; id <= n; id++)
    {
      osp_counter *c = peek (t, id);
      if (c == NULL)
        continue;
      struct osp_fn *fn = osp_fn_by_id (id);
      for (uint32_t b = 0; b < fn->nblocks; b++)
        fn->totals[b] += atomic_load_explicit (&c[b], memory_order_relaxed);
    }
}

int
osp_blocks_snapshot (struct osp_fn **fns, uint32_t nfns, uint64_t **counts)
{
  osp_lock (&osp_threads_lock);
  for (uint32_t i = 0; i < nfns; i++)
    {
      const struct osp_fn *fn = fns[i];
      memcpy (counts[i], fn->totals, fn->nblocks * sizeof *counts[i]);
      for (struct osp_thread *t = osp_threads; t; t = t->next)
        {
          osp_counter *c = peek (t, fn->id);
          if (c != NULL)
            for (uint32_t b = 0; b < fn->nblocks; b++)
              counts[i][b]
                  += atomic_load_explicit (&c[b], memory_order_relaxed);
        }
    }
  osp_unlock (&osp_threads_lock);
  return 0;
}

void
osp_blocks_reset (void)
{
  uint32_t n = osp_registry_count ();
  for (uint32_t id = 1; id <= n; id++)
    {
      struct osp_fn *fn = osp_fn_by_id (id);
      memset (fn->totals, 0, fn->nblocks * sizeof *fn->totals);
    }
}

/* SPDX-License-Identifier: MIT */
/* sampler.h - the open sample's cursor: what a block hook needs to append
 * its block to the sample being taken without entering the runtime.
 *
 * While a sample is taken every block calls the hook (sampler.c; OSP
 * section 3, sampleBlock), and with the default lengths (2..1024 blocks,
 * geometric: 10 on average) nine hooks in ten are not the sample's first
 * block, which draws its length and the skip that will follow the sample:
 * they only append a block id, and the last one arms that skip.  So the
 * sampler leaves a cursor in thread-local storage - where the next id goes,
 * how many ids may go there (the rest of the sample) and the skip to arm
 * after the last - with a small cache of the
 * functions its hooks came from (their first block id and block count,
 * direct-mapped by the record's address: a sample often goes back and
 * forth between a loop and the small functions GCC inlined into it after
 * osp instrumented them, each with its own record), and the hook appends
 * through it: osp_sample_append in C (runtime.c's __osp_block_hook tries
 * it first, and a batched loop's events append whole runs of its chain),
 * and the same steps in assembly at the top of the x86-64
 * trampoline (trampoline.S), which then touches three general registers
 * instead of saving them all and the vector state.  A cache entry is made
 * by the runtime from a registered function and holds the id the runtime
 * gave the record, which the hook compares with the record's: a record
 * registered again (a module loaded where another was) misses.  The walk
 * counters of the appended blocks are added, and a sample the hooks
 * completed is queued, when the sampler next runs (sampler.c,
 * take_appended): a sample costs one entry into the runtime, not two.
 *
 * A block whose start of a sample the sampler has already thinned away
 * (again, below) passes the same way: its hook arms the next skip.
 *
 * While a sample is open every shared path end calls in too (abi.h, one
 * countdown); the trampoline takes those from seen_left, an allowance
 * pathsample.c leaves here, without entering the runtime either.  And
 * under a hold (sampler.c) every block calls the hook while the skip
 * counts down in software: held_left lets the hooks pass those blocks
 * the same way, so a forest burst costs its path ends, not its blocks.
 *
 * Shared by sampler.c (which sets the cursor), runtime.c and trampoline.S;
 * the offsets below are the assembly's view of the structs (checked by
 * static assertions in sampler.c).
 */
#ifndef OSP_SAMPLER_H
#define OSP_SAMPLER_H

#define OSP_CURSOR_NEXT 0      /* struct osp_sample_cursor */
#define OSP_CURSOR_LEFT 8
#define OSP_CURSOR_SKIP 12
#define OSP_CURSOR_FNS 16
#define OSP_CURSOR_SEEN 272    /* after fns[] */
#define OSP_CURSOR_HELD 276
#define OSP_CURSOR_SEEN_ANY 280
#define OSP_CURSOR_AGAIN 284
#define OSP_CURSOR_WAYS 8      /* entries in fns[] */
#define OSP_CURSOR_FN_SHIFT 5  /* log2 of sizeof (struct osp_cursor_fn) */
#define OSP_CURSOR_FN_REC 0    /* struct osp_cursor_fn */
#define OSP_CURSOR_FN_ID 8
#define OSP_CURSOR_FN_BASE 12
#define OSP_CURSOR_FN_NBLOCKS 16
#define OSP_RECORD_ID 8        /* offsetof (struct osp_fn_record, id) */
#define OSP_RECORD_SHIFT 7     /* log2 of sizeof (struct osp_fn_record) */

#ifndef __ASSEMBLER__

#include "collect/collect.h"

struct osp_cursor_fn
{
  const struct osp_fn_record *rec; /* NULL: empty */
  uint32_t id;                     /* what the runtime wrote in rec->id */
  uint32_t base;                   /* the function's first block id */
  uint32_t nblocks;
  uint32_t unused[3];
};

struct osp_sample_cursor
{
  uint32_t *next; /* where the next block id goes */
  uint32_t left;  /* how many may go (the sample's blocks still to come);
                     0: none, no sample open */
  uint32_t skip;  /* the countdown after the sample's last block */
  struct osp_cursor_fn fns[OSP_CURSOR_WAYS];
  /* Shared path ends (abi.h, ABI 8) that may pass while the sample is
     open without entering the runtime: each is seen (__osp_skip is 1
     because of the sample) and needs nothing but counting until the
     path side's next event (pathsample.c sets it, and counts what the
     trampoline took from it). */
  uint32_t seen_left;
  /* Under a hold with no sample open (sampler.c, osp_sampler_hold):
     blocks that may pass before the one that fires, each hook taking
     one and returning 1; the sampler counts what was taken. */
  uint32_t held_left;
  /* Not 0 outside mode=subpaths (blocks, subpaths-exact), where the
     hooks keep __osp_skip at 1 and every shared path end is seen: the
     allowance holds with no sample open too. */
  uint32_t seen_any;
  /* Not 0: the skip that follows the next block to fire, whose start the
     sampler has already thinned away (sampler.c, pre_thin) with no
     sample open and no hold: the trampoline of that block's hook arms it
     and returns without entering the runtime, and sets this to 0, which
     is how the sampler learns it happened.  (Not osp_sample_append_chain:
     the events it is given are not all blocks that fire; a block that
     fires in C passes in osp_sampler_hit.) */
  uint32_t again;
};

extern OSP_TLS struct osp_sample_cursor osp_sample_cursor;

/* The cache entry REC goes to: a module's records are an array (the
   section osp_fns), so eight in a row take eight entries when the index is
   taken from the bits just above a record's size.  (With the bits above
   16 bytes, as when records were 80 bytes, every record of a module went
   to one entry once they grew to 128: a sample crossing from one
   function into another, an inlined callee's blocks among them, entered
   the runtime at each crossing; bench/montecarlo entered it at 6 of its
   10 blocks a sample.)  */
static inline struct osp_cursor_fn *
osp_cursor_fn (const struct osp_fn_record *rec)
{
  return &osp_sample_cursor
              .fns[((uintptr_t) rec >> OSP_RECORD_SHIFT)
                   & (OSP_CURSOR_WAYS - 1)];
}

/* Append blocks of REC to the open sample, as __osp_block_hook would with
   the countdown at 1: those of the chain CHAIN = {k, b0 .. b(k-1)} (k may
   carry OSP_CHAIN_PATH: the caller stops N at the path ends) that a
   batched loop's events I .. I + N - 1 enter (event e enters b(e mod k)),
   in order, as many as the cursor lets.  Returns how many (their events
   are done: __osp_skip is 1 again, or the skip that follows the sample if
   they completed it); 0, having changed nothing, when the runtime must
   take event I.  Not while the runtime is already active on
   this thread (a signal handler's hook inside a hook: the runtime counts
   it as lost).  MARK: the call's stack mark (base.h, osp_stack_mark), the
   re-entrancy flag's value meanwhile. */
static inline uint64_t
osp_sample_append_chain (const struct osp_fn_record *rec,
                         const uint32_t *chain, uint64_t i, uint64_t n,
                         uintptr_t mark)
{
  if (osp_in_runtime)
    return 0;
  osp_in_runtime = mark;
  atomic_signal_fence (memory_order_seq_cst);
  struct osp_sample_cursor *c = &osp_sample_cursor;
  const struct osp_cursor_fn *f = osp_cursor_fn (rec);
  uint64_t m = 0;
  if (c->left != 0 && f->rec == rec
      && f->id == __atomic_load_n (&rec->id, __ATOMIC_RELAXED))
    {
      uint64_t most = n < c->left ? n : c->left;
      uint32_t k = chain[0] & ~OSP_CHAIN_PATH, j = (uint32_t) (i % k);
      while (m < most && chain[1 + j] < f->nblocks)
        {
          *c->next++ = f->base + chain[1 + j];
          j = j + 1 == k ? 0 : j + 1;
          m++;
        }
      c->left -= (uint32_t) m;
      if (m != 0)
        __osp_skip = c->left != 0 ? 1 : c->skip;
    }
  else if (c->left == 0 && c->held_left != 0)
    {
      /* Blocks of a skip held in software: they only pass. */
      m = n < c->held_left ? n : c->held_left;
      c->held_left -= (uint32_t) m;
      if (m != 0)
        __osp_skip = 1;
    }
  atomic_signal_fence (memory_order_seq_cst);
  osp_in_runtime = 0;
  return m;
}

/* The same for one block: 1 if BLOCK of REC was appended, else 0. */
static inline int
osp_sample_append (const struct osp_fn_record *rec, uint32_t block,
                   uintptr_t mark)
{
  const uint32_t one[2] = { 1, block };
  return osp_sample_append_chain (rec, one, 0, 1, mark) != 0;
}

/* How many shared path ends the cursor's allowance lets pass now (0
   with no sample open), and, with TAKE, take that many from it after
   the caller passed them while the sample was open, even if it has
   closed since (block_hooks_shared in runtime.c: a batched loop's path
   ends inside a sample; pathsample.c counts what was taken).  Under the
   re-entrancy flag, as osp_sample_seen_end; a signal handler's path ends
   taken meanwhile are not taken twice. */
static inline uint32_t
osp_sample_seen_allowance (uint32_t take, uintptr_t mark)
{
  if (osp_in_runtime)
    return 0;
  osp_in_runtime = mark;
  atomic_signal_fence (memory_order_seq_cst);
  struct osp_sample_cursor *c = &osp_sample_cursor;
  uint32_t have = c->left != 0 || c->seen_any ? c->seen_left : 0;
  if (take != 0)
    c->seen_left -= take < c->seen_left ? take : c->seen_left;
  atomic_signal_fence (memory_order_seq_cst);
  osp_in_runtime = 0;
  return have;
}

/* A shared path end while a sample is open, as the trampoline's SEEN_END:
   1 if it was taken from the cursor's allowance (nothing else to do:
   __osp_skip stays 1), 0 when the runtime must see it. */
static inline int
osp_sample_seen_end (uintptr_t mark)
{
  if (osp_in_runtime)
    return 0;
  osp_in_runtime = mark;
  atomic_signal_fence (memory_order_seq_cst);
  struct osp_sample_cursor *c = &osp_sample_cursor;
  int took = (c->left != 0 || c->seen_any) && c->seen_left != 0;
  if (took)
    c->seen_left--;
  atomic_signal_fence (memory_order_seq_cst);
  osp_in_runtime = 0;
  return took;
}

#endif /* __ASSEMBLER__ */
#endif /* OSP_SAMPLER_H */

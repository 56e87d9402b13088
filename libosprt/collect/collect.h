/* SPDX-License-Identifier: MIT */
/* collect.h - libosprt's collectors: what the hooks count, per thread
 * and merged, and the parts of a profile each one fills.
 *
 *   thread.c      per-thread state, TLS, exit, fork   -> struct osp_thread
 *   lifecycle.c   the table of collectors: init, sync, recover, merge,
 *                 reset, fork_child, lock (one row per collector)
 *   blockcount.c  mode=blocks: exact block counters   -> per-thread tables
 *   sampler.c     mode=subpaths: skip/length sampling -> per-thread sampler,
 *                 the walk counters, the hot-list's strata (hotlist.h),
 *                 the open sample's cursor the hooks append through
 *                 (sampler.h, shared with trampoline.S)
 *   hotlist.c     the hot-list itself (hotlist.h)
 *   subexact.c    mode=subpaths-exact: every subpath  -> the exact table
 *   estimate.c    length distribution, estimates and intervals
 *   pathsample.c  when a path end is sampled: paths=counter|timer|
 *                 exhaustive|off, the countdown, the timer thread
 *   pathprof.c    the bounded path table with decoded steps, the edge
 *                 profile derived from sampled paths, per-thread batches
 *   forest.c      k-BLPP's k-slab forest (bounded, pruned) and the k-IPF
 *                 (its own header, forest.h; no locks)
 *   pathforest.c  the prefix forest fed online: per-thread streams of path
 *                 ids (bursts or every path end), activations, the k-IPF
 *                 of all threads for a report
 *
 * Uses model/ and base/ only: the profile (profile/) calls the collect
 * functions, the runtime (runtime.c) the hooks; nothing here calls up.
 */
#ifndef OSP_COLLECT_H
#define OSP_COLLECT_H

#include "model/model.h"
#include "collect/forest.h"
#include "collect/hotlist.h"

/* The functions of a profile being taken (its registry snapshot, id
   order): what the path and forest collectors decode against. */
struct osp_fns
{
  struct osp_fn **fns;
  uint32_t nfns;
};

/* ---- thread.c -------------------------------------------------------- */

typedef _Atomic uint64_t osp_counter;

/* The walk counters of the subpath modes (sampler.c) and the path ends
   seen (pathsample.c), per thread and merged.  Owner writes with relaxed
   load+store, readers load. */
enum osp_walk_counter
{
  OSP_W_BLOCKS_SEEN,     /* every block that passed on the thread */
  OSP_W_BLOCKS_SAMPLED,  /* blocks appended to a sample (exact: all) */
  OSP_W_STARTS,          /* samples begun (a start drawn with a skip
                            stretched by W counts W, sampler.c) */
  OSP_W_DECLINED,        /* of those, turned away by the hot-list's coin
                            at their first block (sampler.c) */
  OSP_W_DRAWN,           /* starts as drawn (each counts 1) */
  OSP_W_SAMPLES,         /* samples finished (exact: subpaths counted) */
  OSP_W_PATH_ENDS,       /* path ends passed (paths=counter, exhaustive) */
  OSP_W_PATH_ENDS_DRAWN, /* of those, the part estimated: each drawn path
                            end of a OSP_FN_PATH_SHARED function counts the
                            mean skip it stands for (pathsample.c) */
  OSP_W_N
};

struct osp_thread
{
  struct osp_thread *next, *prev; /* osp_threads list, under its lock */
  struct osp_arena arena;
  /* blockcount.c: dir[id >> OSP_DIR_SHIFT][id & OSP_DIR_MASK] -> counters
     of function id+1, nblocks words.  Written by the owner only (release),
     read by the reporter under osp_threads_lock (acquire). */
  osp_counter *_Atomic *_Atomic *dir;
  uint32_t index;                  /* creation order (per-thread seeds) */
  struct osp_sampler *sampler;     /* sampler.c, made on first use */
  struct osp_exact_thread *exact;  /* subexact.c, made on first use */
  osp_counter walk[OSP_W_N];       /* sampler.c / subexact.c / pathsample.c */
  struct osp_path_thread *pathsample; /* pathsample.c, made on first use */
  /* pathprof.c, made on first use (release store: the reporter reads
     other threads' batches). */
  struct osp_path_batch *_Atomic pathbatch;
  /* paths=timer: this thread's __osp_path_countdown (its TLS, recorded
     when the state is made), the pending-tick flag, and the next stride
     (the timer thread's, under osp_threads_lock). */
  uint32_t *path_countdown;
  atomic_uint path_tick;
  uint32_t path_stride_next;
  /* pathforest.c: this thread's stream, made on its first item (NULL
     also when refused: forest_refused says so). */
  struct osp_kstream *kstream;
  int forest_refused;
  /* runtime.c's hook (poll_sometimes), the only user: block entries
     left until this thread next looks for a viewer's request; starts
     at 1. */
  uint32_t poll_left;
};

/* Add BY to T's walk counter C (T's own thread only): a relaxed load and
   store, not a read-modify-write, since only the owner writes it. */
static inline void
osp_walk_bump (struct osp_thread *t, enum osp_walk_counter c, uint64_t by)
{
  uint64_t v = atomic_load_explicit (&t->walk[c], memory_order_relaxed);
  atomic_store_explicit (&t->walk[c], v + by, memory_order_relaxed);
}

extern pthread_mutex_t osp_threads_lock;
extern struct osp_thread *osp_threads; /* list head, under osp_threads_lock */
/* At exit: wait at most MS milliseconds for each global runtime lock to
   be free (all of them, in order, one deadline: the registry's, the
   threads', the collectors' of lifecycle.c).  0 if every one was;
   else -1 and *WHICH names the first that was not. */
int osp_locks_probe (uint32_t ms, const char **which);
/* On the calling thread, whose runtime frame a signal handler left by
   longjmp (runtime.c): put its per-thread state back in a state the next
   hook can use - the open sample, the queued samples and the exact batch
   are dropped (their blocks are lost). */
void osp_thread_recover (void);

/* What the layers above the collectors do around a fork (runtime.c: the
   publisher's lock and its child, output/publish.c; the identity):
   PREPARE runs first in the prepare handler, before any lock; RELEASE
   last in the parent's handler and at the end of the child's, after
   every lock is released; CHILD last in the child's.  Any may be NULL. */
struct osp_fork_hooks
{
  void (*prepare) (void);
  void (*release) (void);
  void (*child) (void);
};
/* Create the thread key and the fork handlers (once, from osp_init). */
int osp_threads_init (uint32_t max_functions,
                      const struct osp_fork_hooks *hooks);
/* The calling thread's state, created on first use; NULL when none can be
   had (the thread's state was already released at its exit, or no memory).
   Call with osp_in_runtime set.  Inline: every hook of a sample asks. */
extern OSP_TLS struct osp_thread *osp_thread_cur; /* thread.c's, or NULL */
struct osp_thread *osp_thread_make (void);
static inline struct osp_thread *
osp_thread_self (void)
{
  struct osp_thread *t = osp_thread_cur;
  return t != NULL ? t : osp_thread_make ();
}
/* The calling thread's state if it has one (never creates). */
struct osp_thread *osp_thread_peek (void);
/* On T's own thread, with osp_in_runtime set: account for what T's
   samplers consumed so far and hand its queued samples and batches over
   (the reporter's own thread before a report, and thread exit). */
void osp_thread_settle (struct osp_thread *t);

/* ---- blockcount.c ---------------------------------------------------- */

/* Count one entry of block B of FN on thread T (B < FN->nblocks). */
void osp_blocks_hit (struct osp_thread *t, const struct osp_fn *fn,
                     uint32_t b);
/* Add T's counters into the functions' totals.  Under osp_threads_lock. */
void osp_blocks_merge (struct osp_thread *t);
/* Fill COUNTS[i] (FNS[i]->nblocks words each) with totals plus every live
   thread's counters.  Takes osp_threads_lock.  Returns 0 or -1. */
int osp_blocks_snapshot (struct osp_fn **fns, uint32_t nfns,
                         uint64_t **counts);
/* Forget every count (fork child).  Under both locks. */
void osp_blocks_reset (void);

/* ---- sampler.c ------------------------------------------------------- */

extern pthread_mutex_t osp_hot_lock; /* the hot-list's tables (strata) */

/* Choose the seed, build the length table, create the hot-list (mode=
   subpaths).  Once, from osp_init.  Returns 0 or -1. */
int osp_sampler_init (const struct osp_options *o);
/* The hook in mode=subpaths: BLOCK of FN passed on thread T (BLOCK <
   FN->nblocks).  Sets __osp_skip (1 while collecting, else the next skip)
   and, while collecting, the cursor through which the hooks append the
   sample's next blocks of FN themselves (sampler.h). */
void osp_sampler_hit (struct osp_thread *t, const struct osp_fn *fn,
                      uint32_t block);
/* On T's own thread, a block hook of no registered function fired (its
   module of another ABI, or dropped over max_functions): no sample starts
   there, and one being taken (or held) goes on at the next block, which
   the runtime's re-arming to 1 makes call in.  Otherwise the skip is
   drawn again, as after a start declined, so that the blocks of code the
   profile does not know do not each call in (they did: bench/interp with
   max_functions=1 ran 29 times as long). */
void osp_sampler_unregistered (struct osp_thread *t);
/* On T's own thread: count the blocks of the current skip consumed so
   far, and hand the queued samples to the hot-list. */
void osp_sampler_sync (struct osp_thread *t);
/* Enter the runtime from a call whose stack mark is HERE (a hook that
   found the runtime busy, osp_report): 1 with osp_in_runtime = HERE when
   the runtime was not active on this thread, or the frame that set the
   flag was abandoned (a signal handler left it by longjmp: the thread is
   recovered first, osp_thread_recover), so that such a jump never leaves
   the thread's hooks off for good; 0 when a live runtime frame of this
   thread is under way.  After 1, osp_in_runtime = 0 at the end. */
int osp_runtime_enter (uintptr_t here);
/* On T's own thread, after a runtime frame was abandoned (runtime.c):
   drop the open sample and the queued samples, close the cursor. */
void osp_sampler_recover (struct osp_thread *t);
/* T's walk counters into the merged totals.  Under osp_threads_lock. */
void osp_walk_merge (struct osp_thread *t);
/* Merged totals plus every live thread's counters.  Takes the lock. */
void osp_walk_totals (uint64_t out[OSP_W_N]);
/* Fork child, under every lock: empty hot-list, zero totals, new seed. */
void osp_sampler_reset (void);
/* Pure draws, for tests: RNG is a xoshiro256** state (4 words); the
   generator itself is base.h's. */
uint32_t osp_draw_skip (uint64_t rng[4]);
uint32_t osp_draw_length (uint64_t rng[4]);
/* A shared path end on T's thread (mode=subpaths; pathsample.c): the mean
   I of the skip __osp_skip counts down if it was drawn (the sampler is
   skipping and holds nothing: it called with probability 1/I), 0 if it
   was seen (a sample or a hold keeps __osp_skip at 1, or no skip was
   drawn yet on the thread). */
double osp_sampler_drawn (struct osp_thread *t);
/* Hold __osp_skip at 1 on T's thread (ON) or end the hold, the skip kept
   in software meanwhile (sampler.c): while held every block enters the
   runtime and every shared path end calls in (seen).  Changes __osp_skip
   (call only from an entry point whose caller stores it back, or the
   hook's own). */
void osp_sampler_hold (struct osp_thread *t, int on);
/* Calling thread's sample in progress: want = 0 when skipping.  Tests. */
void osp_sampler_state (uint32_t *want, uint32_t *have);

/* ---- subexact.c ------------------------------------------------------ */

extern pthread_mutex_t osp_exact_lock;

/* Reserve the table (mode=subpaths-exact).  Returns 0 or -1. */
int osp_exact_init (const struct osp_options *o);
/* The hook in mode=subpaths-exact (every block): GID passed on thread T. */
void osp_exact_hit (struct osp_thread *t, uint32_t gid);
/* On T's own thread: count T's pending blocks into the table. */
void osp_exact_sync (struct osp_thread *t);
/* The same for the exact batch: drop its blocks and its history. */
void osp_exact_recover (struct osp_thread *t);
/* Fork child, under every lock: forget every count. */
void osp_exact_reset (void);

/* ---- estimate.c ------------------------------------------------------ */

/* P(L): the probability that a sample has length LEN under O's bias
   (0 if LEN is not a sampled length). */
double osp_length_prob (const struct osp_options *o, uint32_t len);

/* One reported subpath (sampled or exact). */
struct osp_subpath
{
  uint32_t len;
  const uint32_t *blocks; /* global block ids */
  uint64_t count;         /* hot-list count (exact: the count) */
  uint64_t error;         /* space-saving over-estimation bound */
  double threshold;       /* of its hot-list table (1 when exact) */
  double estimate, err95, share;
  /* what osp_estimate made the estimate with, for the view (a reader
     measuring two views apart needs it): occurrences one offer stands
     for, 1 / (q P(L)) (0 exact), and the enum osp_est_kind */
  double scale;
  unsigned kind;
};

/* Subpath lengths are 2^1 .. 2^16: at most 16 exponents (one slot spare). */
#define OSP_NEXP_MAX 17

/* One table of the stratified hot-list (sampler.c), as reported. */
struct osp_stratum
{
  uint32_t min_len, max_len;
  double threshold;
  uint64_t entries;
};

enum osp_est_kind
{
  OSP_EST_CONCISE,
  OSP_EST_SPACE_SAVING,
  OSP_EST_EXACT,
  OSP_EST_COUNTING
};
/* Fill S's estimate, err95 and share from its count/error and the run's
   statistics (see estimate.c for the formulas). */
void osp_estimate (struct osp_subpath *s, const struct osp_options *o,
                   double threshold, uint64_t blocks_seen, uint64_t starts,
                   enum osp_est_kind kind);
/* qsort order: the ranked (not osp_subpath_few) first, then the low end
   of the 95% interval max (0, estimate - err95) descending, then estimate
   descending, then length, then block ids. */
int osp_subpath_cmp (const void *a, const void *b);
/* shares.c: after the sort, each share of its length class (N / the
   class's subpaths, or of the class's estimates when they add up to
   more).  The order is the sort's. */
void osp_subpaths_settle (struct osp_subpath *subs, size_t n,
                          uint64_t blocks_seen);
/* Whether an ESTIMATE with 95% half-width ERR95 rests on too few samples
   to rank (the interval is wider than the estimate): subpaths and path
   rows alike (shares.c). */
int osp_few (double estimate, double err95);
/* osp_few of S's estimate. */
int osp_subpath_few (const struct osp_subpath *s);
/* S's length class (0..31: the exponent of a power-of-two length). */
unsigned osp_subpath_class (uint32_t len);

/* Ball-Larus path estimates (paths=counter: N = samples x path_interval,
   err95 = 1.96 sqrt (samples) x path_interval; exhaustive: N = count,
   err95 = 0; timer: N = samples, err95 = 1.96 sqrt (samples), not a
   count; a row read from counters: N = count, err95 = 0): SCALE is
   path_interval, or 1.  The share (N / the sum of every row's N) is the
   caller's. */
struct osp_path_row;
void osp_path_estimate (struct osp_path_row *r, enum osp_path_policy policy,
                        double scale);
/* qsort order of path rows: the ranked (not osp_few) first, then the low
   end of the 95% interval descending, then estimate descending, then
   function id, then path id. */
int osp_path_row_cmp (const void *a, const void *b);

/* ---- pathsample.c ---------------------------------------------------- */

/* Draw parameters; paths=timer starts the timer thread (mode != off).
   Returns 0 or -1 (a timer thread that cannot start is one stderr line,
   not a failure). */
int osp_pathsample_init (const struct osp_options *o);
/* __osp_path_end on T's thread, path ID of record REC: count the path
   ends consumed, take the sample if the policy says so, re-arm. */
void osp_pathsample_end (struct osp_thread *t, struct osp_fn_record *rec,
                         uint64_t id);
/* __osp_path_end_shared on T's thread (abi.h, ABI 8): path ID of record
   REC ended while __osp_skip was 1.  Drawn or seen (the sampler says,
   osp_sampler_drawn), counted, sampled by the policy; may start or end a
   hold (osp_sampler_hold), which changes __osp_skip. */
void osp_pathsample_shared (struct osp_thread *t, struct osp_fn_record *rec,
                            uint64_t id);
/* Whether T's path side wants a hold now (shared path checks): paths=
   exhaustive or forest=exhaustive always, a forest burst, a timer tick
   pending or its burst. */
int osp_pathsample_holds (struct osp_thread *t);
/* The clock of shared path checks for a subpath interval F (sampler.c):
   F, or less when the path policy samples more often (the path table's
   interval under paths=counter, forest_interval under forest=burst). */
double osp_pathsample_clock (double f);
/* On T's own thread: count the path ends of the current countdown consumed
   so far; hand T's batch to the table. */
void osp_pathsample_sync (struct osp_thread *t);
/* Fork child, after every lock is released: restart the timer thread. */
void osp_pathsample_fork_child (void);
/* The countdown of a thread that samples no path ends (paths=off, the
   runtime off, disabled or done, no thread state). */
#define OSP_PATH_HUGE UINT32_MAX

/* ---- pathprof.c ------------------------------------------------------ */

extern pthread_mutex_t osp_path_lock;

/* Reserve the table (path_bytes) unless paths=off or mode=off.  0 or -1. */
int osp_pathprof_init (const struct osp_options *o);
/* A sample of path ID of FN on T's thread: into T's batch, flushed to the
   table when full (a trylock once a quarter full). */
void osp_pathprof_record (struct osp_thread *t, struct osp_fn *fn,
                          uint64_t id, uint32_t gen);
/* paths=counter: the generation of the sampling rate (pathprof.c's gain
   limit; read without the lock), and the mean interval at generation G. */
uint32_t osp_pathprof_gen (void);
double osp_pathprof_interval (uint32_t g);
/* On T's own thread: hand T's batch to the table now.  (A report also
   takes every other live thread's pending samples, pathprof.c.) */
void osp_pathprof_sync (struct osp_thread *t);
/* Fork child, under every lock: forget every sample. */
void osp_pathprof_reset (void);

/* ---- the parts of a profile (profile.h) --------------------------------- */

/* One reported Ball-Larus path. */
struct osp_path_row
{
  uint32_t fi;       /* index into osp_profile.fns */
  uint32_t nsteps;
  uint64_t id, samples;
  const struct osp_path_step *steps;
  uint32_t branches;
  int exact;         /* read from the function's counters */
  double estimate, err95, share;
};

/* The path part of a profile (pathprof.c collects it). */
struct osp_path_profile
{
  int shown;               /* paths != off and some function has probes */
  uint32_t functions;      /* registered functions with path probes */
  struct osp_path_row *rows; /* sorted by osp_path_row_cmp */
  uint32_t nrows;
  struct osp_path_step *step_words; /* the memory of all rows' steps */
  uint64_t **edges;        /* edges[i]: fns[i]'s nedges counts, or NULL */
  uint64_t *edge_words;
  double scale;            /* estimate of one sample (the interval or 1) */
  uint32_t raises;         /* counter: times the interval doubled */
  enum osp_path_policy policy;
  uint64_t ends_seen, samples, distinct, dropped, invalid;
  uint64_t ends_estimated; /* of ends_seen, the part that drawn shared
                              path ends stand for (pathsample.c): when not
                              0, ends_seen is an estimate */
  uint64_t counted;        /* path ends counted exactly in sampled rows */
  uint32_t counted_plain;  /* functions read from counters added to
                              without atomics (counts-update=single) */
  uint64_t threads;        /* threads that ran instrumented code */
  uint64_t bytes_used, bytes_peak, bytes_bound, cache_hits, cache_misses;
  uint64_t ticks;
  uint64_t counter_bytes;  /* inline path counters (instrument=counts) */
};

/* What one unit of edges[I] stands for: 1 when fns[I]'s edges come from
   its counters, else the samples' scale. */
static inline double
osp_path_edge_scale (const struct osp_path_profile *pp,
                     const struct osp_fn *fn)
{
  return osp_paths_counted (fn, pp->policy) ? 1 : pp->scale;
}

/* One node of the reported k-IPF (pathforest.c collects it): the n-gram
   of the BL paths on its root path, the last of which is (fi, id). */
struct osp_forest_row
{
  uint32_t parent;   /* row index of the parent; UINT32_MAX for a root */
  uint32_t depth;    /* 0 for a root: the n-gram has depth + 1 paths */
  uint32_t fi;       /* index into osp_profile.fns */
  uint32_t nsteps;
  uint64_t id, count; /* count: occurrences counted (exhaustive: all) */
  const struct osp_path_step *steps;
  double estimate, err95;
  double share;      /* % of the parent's count; roots: of all items */
};

/* The forest part of a profile. */
struct osp_forest_profile
{
  int shown;                   /* forest != off and some path probes */
  enum osp_forest_policy policy;
  uint32_t k, burst, warmup, interval, prune, frames;
  double scale;                /* estimate of one count (1: exhaustive) */
  struct osp_forest_row *rows; /* the shown trees, each in preorder,
                                  siblings by count; trees by count */
  uint32_t nrows;
  struct osp_path_step *step_words;
  struct osp_forest_mem *mem;  /* NULL: ROWS and STEP_WORDS are this
                                  profile's; else shared with the live
                                  cache (pathforest.c), reference counted;
                                  read-only either way */
  uint64_t trees;              /* trees in the k-IPF (distinct paths) */
  uint64_t ipf_nodes, ipf_truncated, rows_cut;
  struct osp_forest_stats sum; /* forest.c's statistics, all streams */
  uint64_t bursts, streams, refused, resyncs, partial, unlabelled, invalid;
  uint64_t shape_hits, shape_misses, bytes_bound;
  uint64_t unseen;             /* path ends counted inline by functions
                                  without checks: never forest items */
  uint64_t rows_age_ns;        /* live views: the rows (and trees,
                                  ipf_nodes, ipf_truncated, rows_cut) are
                                  of a k-IPF built this long before the
                                  profile was taken (pathforest.c's
                                  budget); 0: built now, as always in a
                                  report */
};

/* The subpath part of a profile, as the collector of the mode fills it:
   the walk counters, then the sorted subpaths (the profile takes them
   over, profile/profile.c). */
struct osp_subpaths_part
{
  uint64_t walk[OSP_W_N];
  struct osp_subpath *subs; /* sorted by osp_subpath_cmp */
  uint32_t nsubs;
  uint32_t *sub_words;      /* the memory of all subs[i].blocks */
  struct hl_stats hl;       /* mode=subpaths: sums over the strata */
  struct osp_stratum strata[OSP_NEXP_MAX];
  uint32_t nstrata;
  uint32_t stretch;         /* mode=subpaths: skips drawn now at mean
                               interval x stretch (sampler.c's W) */
  uint64_t exact_entries, exact_dropped, exact_bytes_used;
};
/* Fill P with the subpaths of the current mode (sampler.c: the hot-list,
   subexact.c: the table), with estimates, sorted.  Returns 0 or -1. */
int osp_sampler_collect (struct osp_subpaths_part *p,
                         const struct osp_options *o);
int osp_exact_collect (struct osp_subpaths_part *p,
                       const struct osp_options *o);
/* Fill PP from the path table (any mode) for the functions of FNS.
   Returns 0 or -1 (the profile's free frees what was made). */
int osp_pathprof_collect (struct osp_path_profile *pp,
                          const struct osp_fns *fns,
                          const struct osp_options *o);

/* ---- pathforest.c ---------------------------------------------------- */

/* Labels of the k-SF: (function id << OSP_FOREST_ID_BITS) | path id. */
#define OSP_FOREST_ID_BITS 40
/* Activations a thread's stream keeps suspended at most. */
#define OSP_FOREST_FRAMES 64

extern pthread_mutex_t osp_forest_lock;
struct osp_forest_profile;

/* Remember the policy (mode != off, forest != off).  0. */
int osp_forest_init (const struct osp_options *o);
/* Whether path ends feed the forest (the countdown policy needs it). */
enum osp_forest_policy osp_forest_policy (void);
/* Path ID of FN ended on T's thread (osp_in_runtime set); BURST_START: the
   first path end of a new burst (the thread's earlier activations are
   forgotten).  Lock-free unless T's queue is full. */
void osp_forest_item (struct osp_thread *t, const struct osp_fn *fn,
                      uint64_t id, int burst_start);
/* On T's own thread: hand T's queued items to its k-SF. */
void osp_forest_sync (struct osp_thread *t);
/* fork child: drop every stream (the parent's threads are gone). */
void osp_forest_reset (void);
/* Fill F: the k-IPF of every stream (pending items included), pruned as O
   says, for the functions of FNS; LIVE: for a live view, the report_top
   trees shown only (osp_ipf_build_top).  Returns 0 or -1 (the profile's
   free frees what was made). */
int osp_forest_collect (struct osp_forest_profile *f,
                        const struct osp_fns *fns, int live,
                        const struct osp_options *o);
void osp_forest_profile_free (struct osp_forest_profile *f);

/* ---- lifecycle.c: the table of collectors -------------------------------- */

/* One collector's part in the runtime's life.  The rows of osp_collectors
   are in lock order (base.h), and every hand-written list of collectors
   (start-up, a thread's settle and recover, its exit, fork) walks them in
   row order.  Any function may be NULL. */
struct osp_collector
{
  const char *name;
  /* Its global lock (fork's prepare takes it, the exit probes it), and
     that lock's name in the exit message; NULL if it has none. */
  pthread_mutex_t *lock;
  const char *lock_name;
  /* Start-up, once, from osp_init (after the registry and the threads).
     0 or -1: the runtime does not start. */
  int (*init) (const struct osp_options *o);
  /* On T's own thread: account for what T consumed so far and hand its
     queued work over (osp_thread_settle). */
  void (*sync) (struct osp_thread *t);
  /* On T's own thread after a runtime frame was abandoned: drop what
     may be half done (osp_thread_recover). */
  void (*recover) (struct osp_thread *t);
  /* Thread exit, under osp_threads_lock: T's counters into the totals. */
  void (*merge) (struct osp_thread *t);
  /* Fork child, under every lock: forget the parent's counts. */
  void (*reset) (void);
  /* Fork child, after every lock is released: restart its threads. */
  void (*fork_child) (void);
};
#define OSP_COLLECTORS_MAX 8
extern const struct osp_collector osp_collectors[];
extern const unsigned osp_ncollectors;
/* Every row's init in order, with O: 0, or -1 at the first that fails. */
int osp_collectors_init (const struct osp_options *o);

#endif /* OSP_COLLECT_H */

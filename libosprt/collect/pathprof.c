/* SPDX-License-Identifier: MIT */
/* pathprof.c - the path profile: sampled (function, path id) -> samples
 * in a bounded table, and the edge profile derived from the same samples
 * (PEP section 3.3).
 *
 * What a sample does (under osp_path_lock): look the (function, id) pair
 * up; a known path adds one to its count and, from the step list cached
 * in its entry, one to each CFG edge it took.  A new path is decoded into
 * steps once (paths.c, PEP 4.3: "computes a path's edges only when PEP
 * samples a path for the first time"), which also validates its id, and
 * gets an entry with that step list.  So a sample costs a hash probe and
 * one add per edge, and decoding happens once per distinct path.  Counts:
 * decode_cache_hits (samples of known paths), decode_cache_misses (decodes).
 *
 * The edge profile is one uint64 per CFG successor slot of each function,
 * made on the function's first sample.  Every valid sample updates it,
 * also one whose path finds the table full (then the path is decoded
 * without being cached, and counted in paths_dropped), so the edge profile
 * stays complete when the path table overflows.  Ids that do not decode
 * (a record without probes, a value past npaths, a numbering the runtime
 * cannot follow) are counted in paths_invalid and nothing else.
 *
 * Memory: one mapping of path_bytes (MAP_NORESERVE: pages cost only once
 * touched; under `ulimit -v' perhaps less, osp_map_table), everything included: an index of uint32 slots (1/8 of the
 * bytes, kept at most half full: open addressing, linear probing) over a
 * pool of 64-bit words holding the entries [function id | nsteps << 32,
 * path id, samples, steps...] and the edge counters [nedges << 32,
 * counters...] (a first word with function id 0: so the gain limit walks
 * the pool, not the whole index).  Entries may use the
 * pool only up to 7/8 of it, so the edge counters of functions first
 * sampled after the path table filled up still find room; a sample whose
 * function's counters cannot be made even then is dropped altogether.
 * Nothing is ever freed (only a fork child starts over), so the bound
 * cannot be exceeded and no allocator runs on the sample path: a sample
 * taken in a signal handler that interrupted malloc cannot deadlock.
 *
 * Inline counters: a function with them counts its own path ends in
 * fn->counts (in the module, then runtime memory: registry.c; 8 bytes a path,
 * bounded by the plugin's max-paths).  When osp_paths_counted says so
 * (paths=exhaustive: every function with counters; paths=counter: those
 * without sample checks, as the plugin builds small functions without
 * loops) its paths never reach the table; a report reads the counters instead,
 * decodes each path with a nonzero count into an exact row and derives
 * the function's edge profile from those rows (so its edges are counts,
 * osp_path_edge_scale).  Under paths=counter those rows are counts among
 * estimates: their total is path_counted, and shares divide by the sum
 * of every row's estimate.  Path ends of functions that have only
 * counters are not seen by the runtime and are added to path_ends_seen
 * from the counts.  The timer ignores the counters.  Counters added to
 * with plain increments (counts-update=single, gcov's default) lose the
 * increments of threads that run one function at once: with more than
 * one thread the report says so (path_counted_plain).
 *
 * The gain limit (paths=counter, path_gain G > 0): once the table holds
 * more than G samples per distinct path, more samples would only narrow
 * intervals that are already narrow, while every one costs a runtime call.
 * So the interval doubles (generation g: path_interval x 2^g, at most
 * 2^30), and every count already taken is thinned to what the new
 * interval would have given: each sample kept by a fair coin (a path's
 * count becomes binomial (count, 1/2), exactly), in the path entries, in
 * the edge counters and in the samples of paths the table dropped alike,
 * so that every count stays a binomial sample at the one current rate and
 * the estimate stays s x interval with the same Poisson interval
 * (estimate.c).  An edge counter is thinned as the sum of its paths'
 * thinned counts plus a thinned remainder (the dropped paths' part), so
 * paths and edges stay consistent.  A thread's countdown drawn at an older
 * generation still samples at the older rate: its sample carries its
 * generation and is kept with probability 2^-(g - its generation) when it
 * reaches the table (the same thinning).  So the samples taken grow with
 * the logarithm of a run's length, as the hot-list's (hotlist.c's gain
 * limit), and a long run's path ends stop paying for them (bench/lu's
 * daxpy loop, a path end a cycle: 17% of its run was the runtime).
 *
 * Threads: a sample first goes into its thread's batch (64 pairs, arena
 * memory), which is handed over under osp_path_lock with a trylock once a
 * quarter full and a blocking lock when full; only exhaustive mode makes
 * that frequent.  The decode buffer is per thread too, grown before the
 * lock is taken.  A report counts every live thread's pending samples
 * too, so that an exhaustive profile is exact even with threads that are
 * still running (or idle in a pool) at exit: holding osp_threads_lock
 * (the states stay alive) and osp_path_lock (no owner can flush), it
 * counts each batch's pairs [done, n) and moves `done' to n.  The owner
 * only appends at n (writing the pair, then publishing n with a release
 * store) and empties the batch only under the lock, counting from done,
 * so each pair is counted once, by one of them.
 */
#define _GNU_SOURCE
#include "collect/collect.h"
#include "format/grow.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

pthread_mutex_t osp_path_lock = PTHREAD_MUTEX_INITIALIZER;

#define BATCH 64
/* An entry's words before its steps: */
#define E_KEY 0     /* function id | nsteps << 32 */
#define E_ID 1      /* path id */
#define E_SAMPLES 2
#define HDR 3

struct osp_path_batch
{
  atomic_uint n;                 /* pairs queued (owner-written) */
  uint32_t done;                 /* pairs the reporter counted; lock */
  uint32_t cap;                  /* steps scratch can hold */
  struct osp_path_step *scratch; /* decode buffer (arena, grown) */
  struct
  {
    struct osp_fn *fn;
    uint64_t id;
    uint32_t gen; /* the generation of the countdown that took it */
  } q[BATCH];
};

/* Under osp_path_lock (the geometry is immutable after init). */
static void *map;
static size_t map_len;
static uint32_t *slots;
static uint64_t nslots;
static uint64_t *pool;
static uint64_t pool_words, pool_used, entry_limit;
static uint64_t samples, distinct, dropped, invalid, hits, misses, peak;
static uint64_t gain_limit; /* path_gain, 0: none */
static uint64_t rng[4];     /* the thinning coins */
static uint32_t max_gen;    /* the last generation: interval <= 2^30 */
static double base_interval;
/* The generation: written under the lock, read by samplers without it. */
static atomic_uint gen;

int
osp_pathprof_init (const struct osp_options *o)
{
  if (o->mode == OSP_MODE_OFF || o->paths == OSP_PATHS_OFF)
    return 0;
  base_interval = o->path_interval;
  if (o->paths == OSP_PATHS_COUNTER && o->path_gain > 0)
    {
      gain_limit = o->path_gain;
      uint64_t interval = o->path_interval;
      for (max_gen = 0; interval << (max_gen + 1) <= UINT64_C (1) << 30;)
        max_gen++;
    }
  osp_rng_seed (rng, osp_seed ^ 0x7468696e6e696e67u, 0);
  map_len = (size_t) o->path_bytes;
  slots = osp_map_table ("path table (path_bytes)", &map_len, &nslots);
  if (slots == NULL)
    return -1;
  map = slots;
  pool = (uint64_t *) (slots + nslots);
  pool_words = (map_len - nslots * sizeof *slots) / sizeof *pool;
  entry_limit = pool_words - pool_words / 8;
  return 0;
}

static uint64_t
bytes_used (void)
{
  return nslots * sizeof *slots + pool_used * sizeof *pool;
}

static uint64_t
hash (uint32_t fid, uint64_t id)
{
  uint64_t h = id * 0x9e3779b97f4a7c15u ^ (uint64_t) fid * 0xc2b2ae3d27d4eb4fu;
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9u;
  return h ^ (h >> 29);
}

/* FN's edge counters, made (zeroed: untouched or madvise'd pages) if it
   has none yet; NULL when the pool is full. */
static uint64_t *
edges_of (struct osp_fn *fn)
{
  if (fn->path_edges == NULL)
    {
      uint64_t n = fn->nedges ? fn->nedges : 1;
      if (pool_used + 1 + n > pool_words)
        return NULL;
      pool[pool_used] = n << 32;
      fn->path_edges = pool + pool_used + 1;
      pool_used += 1 + n;
    }
  return fn->path_edges;
}

static void
add_edges (uint64_t *edges, const struct osp_fn *fn,
           const struct osp_path_step *st, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++)
    if (st[i].succ != OSP_STEP_END)
      edges[fn->blocks[st[i].block].succ + st[i].succ]++;
}

/* One sample of path ID of FN.  SCRATCH holds FN->nblocks steps. */
static void
count_locked (struct osp_fn *fn, uint64_t id, struct osp_path_step *scratch)
{
  uint64_t mask = nslots - 1, i;
  for (i = hash (fn->id, id) & mask; slots[i] != 0; i = (i + 1) & mask)
    {
      uint64_t *e = pool + slots[i] - 1;
      if (e[E_ID] == id && (uint32_t) e[E_KEY] == fn->id)
        {
          e[E_SAMPLES]++;
          hits++;
          samples++;
          add_edges (fn->path_edges, fn,
                     (const struct osp_path_step *) (e + HDR),
                     (uint32_t) (e[E_KEY] >> 32));
          return;
        }
    }
  misses++;
  uint32_t n = osp_path_decode (fn, id, scratch);
  if (n == 0)
    {
      invalid++;
      return;
    }
  samples++;
  uint64_t *edges = edges_of (fn);
  if (edges == NULL)
    {
      dropped++;
      return;
    }
  if (2 * (distinct + 1) <= nslots && pool_used + HDR + n <= entry_limit)
    {
      uint64_t *e = pool + pool_used;
      e[E_KEY] = fn->id | (uint64_t) n << 32;
      e[E_ID] = id;
      e[E_SAMPLES] = 1;
      memcpy (e + HDR, scratch, n * sizeof *scratch);
      slots[i] = (uint32_t) pool_used + 1;
      pool_used += HDR + n;
      distinct++;
    }
  else
    dropped++;
  add_edges (edges, fn, scratch, n);
  if (bytes_used () > peak)
    peak = bytes_used ();
}

uint32_t
osp_pathprof_gen (void)
{
  return atomic_load_explicit (&gen, memory_order_relaxed);
}

double
osp_pathprof_interval (uint32_t g)
{
  return base_interval * (double) (UINT64_C (1) << g);
}

/* Subtract (SIGN < 0) or add C to each edge of the path of entry E. */
static void
entry_edges (const uint64_t *e, uint64_t c, int sign)
{
  struct osp_fn *fn = osp_fn_by_id ((uint32_t) e[E_KEY]);
  const struct osp_path_step *st = (const struct osp_path_step *) (e + HDR);
  for (uint32_t i = 0; i < (uint32_t) (e[E_KEY] >> 32); i++)
    if (st[i].succ != OSP_STEP_END)
      {
        uint64_t *x = &fn->path_edges[fn->blocks[st[i].block].succ
                                      + st[i].succ];
        *x = sign < 0 ? *x - c : *x + c;
      }
}

/* The entry or edge counters after E in the pool. */
static uint64_t *
next_in_pool (uint64_t *e)
{
  return e + ((uint32_t) e[E_KEY] != 0 ? HDR : 1) + (e[E_KEY] >> 32);
}

/* The gain limit (the header comment): the next generation, and every
   count thinned to it.  Under the lock. */
static void
raise_locked (void)
{
  uint64_t in_entries = 0, kept = 0;
  /* Each entry's count leaves its edges, which keep the remainder. */
  for (uint64_t *e = pool; e < pool + pool_used; e = next_in_pool (e))
    if ((uint32_t) e[E_KEY] != 0)
      {
        in_entries += e[E_SAMPLES];
        entry_edges (e, e[E_SAMPLES], -1);
        e[E_SAMPLES] = osp_draw_half (rng, e[E_SAMPLES]);
        kept += e[E_SAMPLES];
      }
  uint32_t n = osp_registry_count ();
  for (uint32_t id = 1; id <= n; id++)
    {
      struct osp_fn *fn = osp_fn_by_id (id);
      for (uint64_t k = 0; fn->path_edges != NULL && k < fn->nedges; k++)
        fn->path_edges[k] = osp_draw_half (rng, fn->path_edges[k]);
    }
  for (uint64_t *e = pool; e < pool + pool_used; e = next_in_pool (e))
    if ((uint32_t) e[E_KEY] != 0)
      entry_edges (e, e[E_SAMPLES], +1);
  samples = kept + osp_draw_half (rng, samples - in_entries);
  atomic_store_explicit (&gen, osp_pathprof_gen () + 1, memory_order_relaxed);
}

/* Count B's pairs from `done' to N with SCRATCH, each kept as if drawn at
   the current generation, and raise the generation while the table is
   over its gain limit.  Under the lock. */
static void
count_batch_locked (struct osp_path_batch *b, uint32_t n,
                    struct osp_path_step *scratch)
{
  if (map != NULL)
    for (uint32_t i = b->done; i < n; i++)
      {
        uint32_t d = osp_pathprof_gen () - b->q[i].gen; /* 0..30 */
        if (d == 0
            || (osp_rng_next (rng) & ((UINT64_C (1) << d) - 1)) == 0)
          count_locked (b->q[i].fn, b->q[i].id, scratch);
      }
  b->done = n;
  while (gain_limit && osp_pathprof_gen () < max_gen
         && samples > gain_limit * (distinct ? distinct : 1))
    raise_locked ();
}

/* The owner's flush. */
static void
flush (struct osp_path_batch *b, int wait)
{
  if (atomic_load_explicit (&b->n, memory_order_relaxed) == 0)
    return;
  if (wait)
    osp_lock (&osp_path_lock);
  else if (osp_trylock (&osp_path_lock) != 0)
    return;
  count_batch_locked (b, atomic_load_explicit (&b->n, memory_order_relaxed),
                      b->scratch);
  b->done = 0;
  atomic_store_explicit (&b->n, 0, memory_order_relaxed);
  osp_unlock (&osp_path_lock);
}

/* The reporter: every live thread's pending pairs.  Under osp_threads_lock
   and osp_path_lock.  Returns 0, or -1 if out of memory. */
static int
drain_locked (void)
{
  struct osp_path_step *scratch = NULL;
  uint32_t cap = 0;
  int rc = 0;
  for (struct osp_thread *t = osp_threads; t && rc == 0; t = t->next)
    {
      struct osp_path_batch *b
          = atomic_load_explicit (&t->pathbatch, memory_order_acquire);
      if (b == NULL)
        continue;
      uint32_t n = atomic_load_explicit (&b->n, memory_order_acquire);
      for (uint32_t i = b->done; i < n; i++)
        if (b->q[i].fn->nblocks > cap)
          {
            cap = b->q[i].fn->nblocks;
            free (scratch);
            scratch = malloc (cap * sizeof *scratch);
            if (scratch == NULL)
              {
                rc = -1;
                break;
              }
          }
      if (rc == 0)
        count_batch_locked (b, n, scratch);
    }
  free (scratch);
  return rc;
}

void
osp_pathprof_record (struct osp_thread *t, struct osp_fn *fn, uint64_t id,
                     uint32_t g)
{
  struct osp_path_batch *b
      = atomic_load_explicit (&t->pathbatch, memory_order_relaxed);
  if (b == NULL)
    {
      b = osp_arena_alloc (&t->arena, sizeof *b);
      atomic_store_explicit (&t->pathbatch, b, memory_order_release);
    }
  if (b != NULL && fn->nblocks > b->cap)
    {
      /* Grown geometrically, so the arena keeps at most twice the
         longest function's worth (the old buffer is not reused). */
      uint32_t cap = b->cap < 64 ? 64 : b->cap;
      while (cap < fn->nblocks)
        cap = cap > UINT32_MAX / 2 ? fn->nblocks : 2 * cap;
      struct osp_path_step *s
          = osp_arena_alloc (&t->arena, (size_t) cap * sizeof *s);
      if (s != NULL)
        {
          flush (b, 1); /* the queued pairs may need the old buffer */
          b->scratch = s;
          b->cap = cap;
        }
    }
  if (b == NULL || fn->nblocks > b->cap)
    {
      atomic_fetch_add_explicit (&osp_stats.hits_lost, 1,
                                 memory_order_relaxed);
      return;
    }
  uint32_t n = atomic_load_explicit (&b->n, memory_order_relaxed);
  b->q[n].fn = fn;
  b->q[n].id = id;
  b->q[n].gen = g;
  atomic_store_explicit (&b->n, ++n, memory_order_release);
  if (n == BATCH)
    flush (b, 1);
  else if (n >= BATCH / 4)
    flush (b, 0);
}

void
osp_pathprof_sync (struct osp_thread *t)
{
  struct osp_path_batch *b
      = atomic_load_explicit (&t->pathbatch, memory_order_relaxed);
  if (b != NULL)
    flush (b, 1);
}

void
osp_pathprof_reset (void)
{
  if (map != NULL)
    madvise (map, map_len, MADV_DONTNEED); /* private anonymous: zeroes */
  pool_used = samples = distinct = dropped = invalid = hits = misses = 0;
  peak = 0;
  uint32_t n = osp_registry_count ();
  for (uint32_t id = 1; id <= n; id++)
    {
      struct osp_fn *fn = osp_fn_by_id (id);
      fn->path_edges = NULL;
      if (fn->counts != NULL)
        memset (fn->counts, 0, fn->npaths * sizeof *fn->counts);
    }
}

/* ---- the report's view ----------------------------------------------- */

/* Whether the report reads FN's paths from its inline counters. */
static int
counted (const struct osp_fn *fn, const struct osp_options *o)
{
  return osp_paths_counted (fn, o->paths);
}

/* Append the rows of FN (function index FI), read from its counters, to
   PP (steps as offsets, *W words of them used; room for CAP[0] rows and
   CAP[1] words), and make its edge profile EDGES from them. */
static int
copy_counted (struct osp_path_profile *pp, uint32_t fi,
              const struct osp_fn *fn, uint64_t *edges, size_t *w,
              size_t cap[2], struct osp_path_step *scratch)
{
  for (uint64_t id = 0; id < fn->npaths; id++)
    {
      uint64_t c = __atomic_load_n (&fn->counts[id], __ATOMIC_RELAXED);
      if (c == 0)
        continue;
      uint32_t n = osp_path_decode (fn, id, scratch);
      if (n == 0)
        {
          pp->invalid++;
          continue;
        }
      if (osp_grow (&pp->rows, &cap[0], pp->nrows + 1, sizeof *pp->rows, 64)
          || osp_grow (&pp->step_words, &cap[1], *w + n,
                       sizeof *pp->step_words, 64))
        return -1;
      memcpy (pp->step_words + *w, scratch, n * sizeof *scratch);
      pp->rows[pp->nrows++] = (struct osp_path_row) {
        .fi = fi, .nsteps = n, .id = id, .samples = c, .exact = 1,
        .steps = (const struct osp_path_step *) (uintptr_t) *w
      };
      *w += n;
      for (uint32_t s = 0; s < n; s++)
        if (scratch[s].succ != OSP_STEP_END)
          edges[fn->blocks[scratch[s].block].succ + scratch[s].succ] += c;
      if (pp->policy == OSP_PATHS_EXHAUSTIVE)
        pp->samples += c;
      else
        pp->counted += c;
      pp->distinct++;
      if (osp_fn_counts_only (fn))
        pp->ends_seen += c;
    }
  return 0;
}

/* Copy the table's rows (steps as offsets into *WORDS until the copying
   is over), the rows of the functions counted inline, and the edge
   counters of P's functions.  Under the lock. */
static int
copy_locked (const struct osp_fns *p, struct osp_path_profile *pp,
             const struct osp_options *o)
{
  size_t nedges = 0;
  uint32_t scratch_len = 0;
  for (uint32_t i = 0; i < p->nfns; i++)
    if (p->fns[i]->path_edges != NULL || counted (p->fns[i], o))
      {
        nedges += p->fns[i]->nedges;
        if (counted (p->fns[i], o) && p->fns[i]->nblocks > scratch_len)
          scratch_len = p->fns[i]->nblocks;
      }
  pp->rows = malloc ((distinct ? distinct : 1) * sizeof *pp->rows);
  pp->step_words = malloc ((pool_used ? pool_used : 1)
                          * sizeof *pp->step_words);
  pp->edges = calloc (p->nfns ? p->nfns : 1, sizeof *pp->edges);
  pp->edge_words = malloc ((nedges ? nedges : 1) * sizeof (uint64_t));
  if (!pp->rows || !pp->step_words || !pp->edges || !pp->edge_words)
    return -1;
  size_t w = 0;
  for (uint64_t i = 0; i < nslots && map != NULL; i++)
    {
      if (slots[i] == 0)
        continue;
      const uint64_t *e = pool + slots[i] - 1;
      uint32_t fid = (uint32_t) e[E_KEY], n = (uint32_t) (e[E_KEY] >> 32);
      if (fid == 0 || fid > p->nfns /* registered after the snapshot */
          || e[E_SAMPLES] == 0) /* thinned away (the gain limit) */
        continue;
      memcpy (pp->step_words + w, e + HDR, n * sizeof *pp->step_words);
      pp->rows[pp->nrows++] = (struct osp_path_row) {
        .fi = fid - 1, .nsteps = n, .id = e[E_ID], .samples = e[E_SAMPLES],
        .steps = (const struct osp_path_step *) (uintptr_t) w
      };
      pp->distinct++;
      w += n;
    }
  size_t k = 0, cap[2] = { distinct ? distinct : 1,
                           pool_used ? pool_used : 1 };
  struct osp_path_step *scratch = NULL;
  if (scratch_len
      && (scratch = malloc (scratch_len * sizeof *scratch)) == NULL)
    return -1;
  int rc = 0;
  for (uint32_t i = 0; i < p->nfns && rc == 0; i++)
    {
      const struct osp_fn *fn = p->fns[i];
      if (fn->path_edges == NULL && !counted (fn, o))
        continue;
      pp->edges[i] = pp->edge_words + k;
      k += fn->nedges;
      if (fn->path_edges != NULL)
        memcpy (pp->edges[i], fn->path_edges,
                fn->nedges * sizeof *pp->edge_words);
      else
        memset (pp->edges[i], 0, fn->nedges * sizeof *pp->edge_words);
      if (counted (fn, o))
        {
          rc = copy_counted (pp, i, fn, pp->edges[i], &w, cap, scratch);
          pp->counted_plain += !(fn->flags & OSP_FN_COUNTS_ATOMIC);
        }
    }
  free (scratch);
  return rc;
}

int
osp_pathprof_collect (struct osp_path_profile *pp, const struct osp_fns *p,
                      const struct osp_options *o)
{
  memset (pp, 0, sizeof *pp);
  for (uint32_t i = 0; i < p->nfns; i++)
    pp->functions += p->fns[i]->npaths != 0;
  pp->shown = pp->functions > 0 && o->paths != OSP_PATHS_OFF;
  if (!pp->shown)
    return 0;
  uint64_t walk[OSP_W_N];
  osp_walk_totals (walk);
  pp->ends_seen = walk[OSP_W_PATH_ENDS];
  pp->ends_estimated = walk[OSP_W_PATH_ENDS_DRAWN];
  pp->ticks = atomic_load_explicit (&osp_stats.path_ticks,
                                    memory_order_relaxed);
  pp->threads = atomic_load_explicit (&osp_stats.threads,
                                      memory_order_relaxed);
  pp->policy = o->paths;
  pp->bytes_bound = o->path_bytes;

  osp_lock (&osp_threads_lock);
  osp_lock (&osp_path_lock);
  int rc = drain_locked ();
  osp_unlock (&osp_threads_lock);
  pp->raises = osp_pathprof_gen ();
  pp->scale = o->paths == OSP_PATHS_COUNTER
                  ? osp_pathprof_interval (pp->raises)
                  : 1;
  pp->samples = samples;
  pp->distinct = 0; /* the rows copied: a thinned-away entry is none */
  pp->dropped = dropped;
  pp->invalid = invalid;
  pp->cache_hits = hits;
  pp->cache_misses = misses;
  pp->bytes_used = map ? bytes_used () : 0;
  pp->bytes_peak = peak;
  pp->counter_bytes = atomic_load_explicit (&osp_stats.counter_bytes,
                                            memory_order_relaxed);
  if (rc == 0)
    rc = copy_locked (p, pp, o);
  osp_unlock (&osp_path_lock);
  if (rc != 0)
    return -1; /* osp_profile_free frees what was made */

  /* Every path end recorded, estimated: also the samples of paths the
     table had no room for (ospview's merge divides by the same). */
  double total = (double) pp->samples * pp->scale + (double) pp->counted;
  for (uint32_t r = 0; r < pp->nrows; r++)
    {
      struct osp_path_row *row = &pp->rows[r];
      row->steps = pp->step_words + (uintptr_t) row->steps;
      row->branches = osp_path_branches (p->fns[row->fi], row->steps,
                                         row->nsteps);
      osp_path_estimate (row, o->paths, pp->scale);
      row->share = total > 0 ? row->estimate / total : 0;
    }
  if (pp->nrows > 1)
    qsort (pp->rows, pp->nrows, sizeof *pp->rows, osp_path_row_cmp);
  return 0;
}

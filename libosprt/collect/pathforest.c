/* SPDX-License-Identifier: MIT */
/* pathforest.c - the prefix forest of k-iteration paths (k-BLPP), fed
 * online from the path ends the countdown hands to the runtime
 * (OSP_OPTIONS forest=burst|exhaustive|off, forest_k, forest_burst, ...).
 *
 * Reference: D'Elia, Demetrescu, "Ball-Larus path profiling across
 * multiple loop iterations" (k-BLPP): section 2.1 (a stream of BL path ids
 * with routine-entry markers), Figure 6 and 7 (forest.c), section 5
 * (bursting, left as future work).
 *
 * The stream.  Every thread has one: the path ends pathsample.c gives it,
 * each packed into a label (function id << 40 | path id).  The paper
 * splits one thread stream at routine entries, so a loop whose body calls
 * a routine never forms a multi-iteration path.  Here each routine
 * ACTIVATION gets its own piece instead: the k-SF keeps a stack of cursors
 * (forest.c), and every item is classified (osp_path_shape, cached per
 * thread) by whether its path starts at block 0 (the activation's first
 * path: only the entry edge reaches block 0, numbering.cc) and whether it
 * returns or ends in a noreturn call (its last).  A path end is emitted
 * after every call made on the path has returned - but for a call in tail
 * position, which the path's end precedes (plugin/tailcalls.cc: the callee
 * then runs as if called by the caller's caller, as the jump makes it) -
 * so a thread's items are a well-nested sequence:
 *     entry path: a new activation (enter), counted there;
 *     other path: the activation on top if it is the same function; else
 *         the nearest one of that function below, the ones above being
 *         dropped (their last path was never seen: longjmp, an exception,
 *         a callee without probes that exits...: `resyncs'); else a new
 *         piece (`partial': the activation began before the stream did);
 *     a returning path then leaves its activation.
 * So n-grams are runs of consecutive paths of one activation, across any
 * calls it makes.  A recursion deeper than OSP_FOREST_FRAMES suspended
 * activations restarts the deepest piece (forest.c's `deep').
 *
 * Exhaustive: every path end is an item (the countdown is always 1); the
 * k-IPF is exact unless memory ran out (then forest.c's guarantee: nothing
 * over-counted, every n-gram with more than LOST = pruned + dropped
 * occurrences present within LOST).
 *
 * Bursts (the default): the countdown also runs a geometric draw of mean
 * forest_interval path ends; when it fires, the next forest_burst = B path
 * ends are items (a burst), then the draw again.  A burst forgets the
 * thread's activations first.  Its first W = min (4k, B/2) items are
 * CONTEXT only (forest.c: they build the cursors, count nothing), so an
 * n-gram counted at offset >= W lies wholly inside the burst as long as
 * its paths and those of the calls made between them span at most W + 1
 * path ends of the thread.  Every path end then has the same chance to be
 * counted, (B - W) / (I - 1 + B) (a renewal cycle: a gap of G - 1 ends,
 * G geometric of mean I, then B ends), so
 *     estimate = count x scale,   scale = (I - 1 + B) / (B - W),
 * unbiased for such n-grams; longer-spanning ones (iterations that call
 * routines with many paths) are under-counted.  The occurrences of one
 * n-gram cluster in bursts (up to B - W per burst), so the 95% error
 * treats bursts as Poisson draws of clusters of at most m = min (count,
 * B - W) occurrences: err95 = 1.96 sqrt (count x m) x scale, a bound.
 *
 * Threads and locks.  A stream lives in one mapping of forest_bytes
 * (MAP_NORESERVE: untouched pages cost nothing): the queue, the shape
 * cache, the cursor frames and the k-SF's pool; nothing else is allocated.
 * At most forest_threads streams are made (`refused' counts the threads
 * that found none: past forest_threads, or with no memory or no room in
 * the address space budget under `ulimit -v', base/arena.c; one line says the
 * latter two, once); a stream outlives its thread, so the report keeps
 * what exited threads saw.  The owner appends items to the queue without a
 * lock (release-publishing the count), and processes them into the k-SF
 * under the stream's lock: with a trylock once a quarter full, blocking
 * when full.  A report takes osp_forest_lock and then every stream's lock,
 * processes what is queued, builds the k-IPF of all streams (threads
 * merged) and lets go: a live view at any moment, not only at exit.
 *
 * Live views on a budget.  The k-IPF build is most of a publish (issue
 * 36: bzip2 compressing, 18M of 24M instructions a view) and holds every
 * stream's lock while it runs, so a thread whose queue fills waits for
 * it.  A live collect therefore rebuilds the rows only when the time
 * since the last build is at least LIVE_BUDGET times what that build
 * cost on the calling thread's CPU clock: the forest's share of a core
 * stays under 1 / LIVE_BUDGET whatever its size.  In between, it hands
 * out the last rows with their age (rows_age_ns, shown by the view and
 * ospview); the statistics are always current.  Reports (live = 0) always
 * build afresh.  The rows handed out are not copies: the cache and every
 * profile holding them share one reference-counted block (struct
 * osp_forest_mem), freed by the last osp_forest_profile_free, so a view
 * between rebuilds costs no allocation; nobody writes rows once built.
 */
#define _GNU_SOURCE
#include "collect/collect.h"
#include "format/grow.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

pthread_mutex_t osp_forest_lock = PTHREAD_MUTEX_INITIALIZER;

#define QUEUE 256
#define SHAPE_BITS 9
#define ID_MASK (((uint64_t) 1 << OSP_FOREST_ID_BITS) - 1)
#define FID_MAX ((uint32_t) (UINT64_MAX >> OSP_FOREST_ID_BITS) - 1)

enum { SHAPE_VALID = 1, SHAPE_ENTRY = 2, SHAPE_LEAVES = 4 };

struct shape_slot
{
  const struct osp_fn *fn;
  uint64_t id;
  uint32_t flags;
};

struct osp_kstream
{
  struct osp_kstream *next; /* the list, under osp_forest_lock */
  pthread_mutex_t lock;
  void *map;
  size_t map_len;
  /* The queue: the owner writes q[n] then publishes n (release); both
     sides process [done, n) under the lock; only the owner resets n. */
  atomic_uint n;
  uint32_t done;
  struct
  {
    const struct osp_fn *fn; /* NULL: a burst starts */
    uint64_t id;
  } q[QUEUE];
  /* Under the lock. */
  uint64_t offset; /* items since the burst began */
  uint64_t bursts, resyncs, partial, unlabelled, invalid;
  uint64_t shape_hits, shape_misses;
  struct osp_forest_pool pool;
  struct osp_kslab ks;
  struct shape_slot shapes[1u << SHAPE_BITS];
};

/* Immutable after osp_forest_init. */
static enum osp_forest_policy policy = OSP_FOREST_OFF;
static unsigned k_opt;
static uint32_t warmup, nframes;
static size_t stream_bytes;
static uint32_t max_streams;

/* Under osp_forest_lock. */
static struct osp_kstream *streams;
static uint32_t nstreams;
static uint64_t refused;
static int warned_no_stream; /* under osp_forest_lock */

/* The memory of a forest profile's rows once shared with the live cache:
   its rows and step words, and how many profiles (the cache counting as
   one) hold them.  Freed when the count drops to 0. */
struct osp_forest_mem
{
  atomic_uint refs;
  struct osp_forest_row *rows;
  struct osp_path_step *step_words;
};

/* The last live rows, under osp_forest_lock (see "Live views on a
   budget"): what build_rows made for NFNS functions, LIVE_ROWS.MEM
   shared with the profiles it went to. */
#define LIVE_BUDGET 200
static struct osp_forest_profile live_rows;
static uint32_t live_nfns;
static int live_valid;
static uint64_t live_built_ns; /* CLOCK_MONOTONIC of the build */
static uint64_t live_cost_ns;  /* its CPU time on the building thread */

int
osp_forest_init (const struct osp_options *o)
{
  /* paths=timer writes the countdown from another thread: no bursts
     could be counted (options.c says so when forest= was given). */
  policy = o->mode == OSP_MODE_OFF || o->paths == OSP_PATHS_TIMER
               ? OSP_FOREST_OFF
               : o->forest;
  osp_registry_forest_fed (policy != OSP_FOREST_OFF);
  k_opt = o->forest_k;
  warmup = policy == OSP_FOREST_BURST
               ? (4 * o->forest_k < o->forest_burst / 2 ? 4 * o->forest_k
                                                        : o->forest_burst / 2)
               : 0;
  stream_bytes = (size_t) o->forest_bytes;
  max_streams = o->forest_threads;
  /* The frames may take an eighth of the budget. */
  size_t fb = OSP_KCURSOR_BYTES (k_opt);
  nframes = (uint32_t) (stream_bytes / 8 / fb);
  if (nframes > OSP_FOREST_FRAMES)
    nframes = OSP_FOREST_FRAMES;
  if (nframes < 2)
    nframes = 2;
  return 0;
}

enum osp_forest_policy
osp_forest_policy (void)
{
  return policy;
}

/* ---- a stream -------------------------------------------------------- */

static struct osp_kstream *
stream_new (void)
{
  size_t head = (sizeof (struct osp_kstream) + 63) & ~(size_t) 63;
  size_t frames = (size_t) nframes * OSP_KCURSOR_BYTES (k_opt);
  if (head + frames + 4096 > stream_bytes)
    return NULL;
  if (osp_reserve (stream_bytes) != 0) /* ulimit -v: base/arena.c's budget */
    return NULL;
  void *m = mmap (NULL, stream_bytes, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED)
    {
      osp_unreserve (stream_bytes);
      return NULL;
    }
  struct osp_kstream *k = m;
  k->map = m;
  k->map_len = stream_bytes;
  pthread_mutex_init (&k->lock, NULL);
  char *fr = (char *) m + head;
  if (osp_forest_pool_init_zeroed (&k->pool, fr + frames,
                                   stream_bytes - head - frames) != 0
      || osp_kslab_init (&k->ks, &k->pool, k_opt, fr, nframes) != 0)
    {
      munmap (m, stream_bytes);
      osp_unreserve (stream_bytes);
      return NULL;
    }
  return k;
}

static struct osp_kstream *
stream_of (struct osp_thread *t)
{
  if (t->kstream || t->forest_refused)
    return t->kstream;
  osp_lock (&osp_forest_lock);
  struct osp_kstream *k = nstreams < max_streams ? stream_new () : NULL;
  if (k)
    {
      k->next = streams;
      streams = k;
      nstreams++;
    }
  else
    {
      /* Not for want of a slot: no memory, or no address space (one line
         for the process; the report counts the threads refused). */
      if (nstreams < max_streams && !warned_no_stream)
        osp_warn ("osp: cannot map a prefix forest stream (%zu bytes, "
                  "forest_bytes; ulimit -v?): threads without one stay out "
                  "of the forest, the program runs on", stream_bytes);
      warned_no_stream |= nstreams < max_streams;
      refused++;
    }
  osp_unlock (&osp_forest_lock);
  t->kstream = k;
  t->forest_refused = k == NULL;
  return k;
}

/* The shape flags of path ID of FN (decoded once, then cached). */
static uint32_t
shape_of (struct osp_kstream *k, const struct osp_fn *fn, uint64_t id)
{
  uint64_t h = (id ^ (uint64_t) fn->id << 32) * 0x9e3779b97f4a7c15u;
  struct shape_slot *s = &k->shapes[h >> (64 - SHAPE_BITS)];
  if (s->fn == fn && s->id == id)
    {
      k->shape_hits++;
      return s->flags;
    }
  k->shape_misses++;
  int entry, leaves;
  uint32_t f = 0;
  if (osp_path_shape (fn, id, &entry, &leaves) == 0)
    f = SHAPE_VALID | (entry ? SHAPE_ENTRY : 0) | (leaves ? SHAPE_LEAVES : 0);
  *s = (struct shape_slot) { fn, id, f };
  return f;
}

/* A new activation of function FID: a fresh piece, or the bottom frame
   if it was never claimed (after a burst start). */
static void
begin_activation (struct osp_kslab *ks, uint64_t fid)
{
  if (ks->cur->tag == 0 && ks->cur->n == 0)
    {
      ks->cur->tag = fid;
      ks->markers++; /* a piece begins, as osp_kslab_enter counts it */
    }
  else
    osp_kslab_enter (ks, fid);
}

/* The frame of path end FN (not an entry path): see the header. */
static void
find_activation (struct osp_kstream *k, uint64_t fid)
{
  struct osp_kslab *ks = &k->ks;
  if (ks->cur->tag == fid)
    return;
  if (ks->over)
    {
      /* Too deep: the frames below belong to older activations, and the
         current cursor is shared by the ones above them; only keep
         functions apart. */
      osp_kslab_push (ks, OSP_FOREST_MARKER);
      ks->cur->tag = fid;
      k->partial++;
      return;
    }
  for (unsigned i = ks->depth - 1; i-- > 0;)
    if (osp_kslab_frame (ks, i)->tag == fid)
      {
        while (ks->depth > i + 1)
          {
            osp_kslab_leave (ks);
            k->resyncs++;
          }
        return;
      }
  k->partial++;
  begin_activation (ks, fid);
}

static void
process_one (struct osp_kstream *k, const struct osp_fn *fn, uint64_t id)
{
  struct osp_kslab *ks = &k->ks;
  if (fn == NULL)
    {
      osp_kslab_reset (ks);
      k->offset = 0;
      k->bursts++;
      return;
    }
  uint64_t pos = k->offset++;
  uint32_t shape = shape_of (k, fn, id);
  if (!(shape & SHAPE_VALID) || id > ID_MASK || fn->id > FID_MAX)
    {
      /* Not a label: the piece cannot continue across it. */
      if (shape & SHAPE_VALID)
        k->unlabelled++;
      else
        k->invalid++;
      osp_kslab_push (ks, OSP_FOREST_MARKER);
      return;
    }
  uint64_t fid = fn->id;
  if (shape & SHAPE_ENTRY)
    begin_activation (ks, fid);
  else
    find_activation (k, fid);
  uint64_t label = fid << OSP_FOREST_ID_BITS | id;
  if (pos >= warmup)
    osp_kslab_push (ks, label);
  else
    osp_kslab_context (ks, label);
  if (shape & SHAPE_LEAVES)
    osp_kslab_leave (ks);
}

/* Process the queue's [done, n).  Under K's lock. */
static void
drain (struct osp_kstream *k)
{
  uint32_t n = atomic_load_explicit (&k->n, memory_order_acquire);
  for (uint32_t i = k->done; i < n; i++)
    process_one (k, k->q[i].fn, k->q[i].id);
  k->done = n;
}

/* The owner's flush: drain and empty the queue. */
static void
flush (struct osp_kstream *k, int block)
{
  if (block)
    osp_lock (&k->lock);
  else if (osp_trylock (&k->lock) != 0)
    return;
  drain (k);
  k->done = 0;
  atomic_store_explicit (&k->n, 0, memory_order_relaxed);
  osp_unlock (&k->lock);
}

static void
append (struct osp_kstream *k, const struct osp_fn *fn, uint64_t id)
{
  uint32_t n = atomic_load_explicit (&k->n, memory_order_relaxed);
  if (n == QUEUE)
    {
      flush (k, 1);
      n = 0;
    }
  k->q[n].fn = fn;
  k->q[n].id = id;
  atomic_store_explicit (&k->n, n + 1, memory_order_release);
  if (n + 1 >= QUEUE / 4)
    flush (k, 0);
}

void
osp_forest_item (struct osp_thread *t, const struct osp_fn *fn, uint64_t id,
                 int burst_start)
{
  struct osp_kstream *k = stream_of (t);
  if (k == NULL)
    return;
  if (burst_start)
    append (k, NULL, 0);
  append (k, fn, id);
}

void
osp_forest_sync (struct osp_thread *t)
{
  if (t->kstream)
    flush (t->kstream, 1);
}

void
osp_forest_reset (void)
{
  struct osp_kstream *k = streams;
  while (k)
    {
      struct osp_kstream *next = k->next;
      size_t len = k->map_len; /* K lives in the mapping */
      munmap (k->map, len);
      osp_unreserve (len);
      k = next;
    }
  streams = NULL;
  nstreams = 0;
  refused = 0;
  /* The parent's live rows are not the child's profile.  A reference a
     parent thread held at the fork is never given back here: that block
     stays (once), rather than be freed under a copy of it. */
  osp_forest_profile_free (&live_rows);
  live_valid = 0;
}

/* ---- the report's view ----------------------------------------------- */

static void
add_stats (struct osp_forest_stats *sum, const struct osp_forest_stats *st)
{
  sum->items += st->items;
  sum->context += st->context;
  sum->markers += st->markers;
  sum->deep += st->deep;
  sum->hash_accesses += st->hash_accesses;
  sum->child_finds += st->child_finds;
  sum->child_scans += st->child_scans;
  sum->nodes_used += st->nodes_used;
  sum->nodes_peak += st->nodes_peak;
  sum->nodes_cap += st->nodes_cap;
  sum->pruned_nodes += st->pruned_nodes;
  sum->pruned_mass += st->pruned_mass;
  sum->prune_passes += st->prune_passes;
  sum->prunes += st->prunes;
  sum->dropped += st->dropped;
  sum->mass += st->mass;
  if (st->threshold > sum->threshold)
    sum->threshold = st->threshold; /* the largest: the coarsest stream */
}


struct collect
{
  const struct osp_fns *p;
  struct osp_forest_profile *f;
  const struct osp_ipf *ipf;
  const uint64_t *hot; /* per IPF node: the largest count in its subtree */
  const uint32_t *by_id;
  uint32_t nids;
  size_t cap;          /* rows allocated */
  uint64_t base;       /* the tree's hottest count */
  uint32_t prune;
};

#define ROWS_MAX 100000

/* HOT[w] = the largest count in W's subtree, for every node below W. */
static uint64_t
subtree_hot (const struct osp_ipf *ipf, uint64_t *hot, uint32_t w)
{
  uint64_t m = ipf->nodes[w].count;
  for (uint32_t c = ipf->nodes[w].child; c; c = ipf->nodes[c].sib)
    {
      uint64_t h = subtree_hot (ipf, hot, c);
      if (h > m)
        m = h;
    }
  return hot[w] = m;
}

/* Whether IPF node W is reported: something in its subtree reaches
   forest_prune % of its tree's hottest count.  With nothing lost, counts
   never grow down a tree, so that is W's own count against its root's;
   once pruning lost some occurrences (or in a burst's context) a node
   can hold 0 above counted n-grams, and is kept as their connector. */
static int
shown_node (const struct collect *c, uint32_t w)
{
  uint64_t h = c->hot[w];
  return h > 0 && (double) h * 100.0 >= (double) c->prune * (double) c->base;
}

/* Row for IPF node W under row PARENT, then its shown children (preorder,
   hottest first as the k-IPF sorts them). */
static int
add_rows (struct collect *c, uint32_t w, uint32_t parent, uint32_t depth)
{
  const struct osp_ipf_node *nd = &c->ipf->nodes[w];
  struct osp_forest_profile *f = c->f;
  uint64_t fid = nd->label >> OSP_FOREST_ID_BITS;
  uint32_t fi = fid < c->nids ? c->by_id[fid] : UINT32_MAX;
  if (fi == UINT32_MAX)
    return 0;
  if (f->nrows == ROWS_MAX)
    {
      f->rows_cut++;
      return 0;
    }
  if (osp_grow (&f->rows, &c->cap, f->nrows + 1, sizeof *f->rows, 256) != 0)
    return -1;
  uint32_t me = f->nrows++;
  f->rows[me] = (struct osp_forest_row) {
    .parent = parent,
    .depth = depth,
    .fi = fi,
    .id = nd->label & ID_MASK,
    .count = nd->count,
  };
  for (uint32_t ch = nd->child; ch; ch = c->ipf->nodes[ch].sib)
    if (shown_node (c, ch) && add_rows (c, ch, me, depth + 1) != 0)
      return -1;
  return 0;
}

/* Decode every row's path into one block of steps. */
static int
decode_rows (const struct osp_fns *p, struct osp_forest_profile *f)
{
  size_t words = 0;
  for (uint32_t r = 0; r < f->nrows; r++)
    words += p->fns[f->rows[r].fi]->nblocks;
  f->step_words = malloc ((words ? words : 1) * sizeof *f->step_words);
  if (f->step_words == NULL)
    return -1;
  size_t w = 0;
  for (uint32_t r = 0; r < f->nrows; r++)
    {
      struct osp_forest_row *row = &f->rows[r];
      row->steps = f->step_words + w;
      row->nsteps = osp_path_decode (p->fns[row->fi], row->id,
                                     f->step_words + w);
      w += row->nsteps;
    }
  return 0;
}

static void
estimate_rows (struct osp_forest_profile *f)
{
  uint64_t m_max = f->policy == OSP_FOREST_BURST ? f->burst - f->warmup : 0;
  uint64_t total = f->sum.items;
  /* Every occurrence of a child's n-gram is one of its parent's prefix,
     so a parent ran at least as often as its child.  It can be counted
     less: occurrences pruned by the memory bound (the child's count is
     then the truth's lower bound: nothing is over-counted), or, in a
     burst, ending in the context items (counted from offset W on) just
     before a child that is counted.  So a parent is raised to its
     largest child - toward the truth (exhaustive: never past it) -
     backwards (rows come parents first), so that a raise carries up.
     A connector (count 0: lost, CONTRACTS.md) is left as it is. */
  for (uint32_t r = f->nrows; r-- > 0;)
    {
      struct osp_forest_row *row = &f->rows[r];
      if (row->parent != UINT32_MAX && f->rows[row->parent].count > 0
          && row->count > f->rows[row->parent].count)
        f->rows[row->parent].count = row->count;
    }
  for (uint32_t r = 0; r < f->nrows; r++)
    {
      struct osp_forest_row *row = &f->rows[r];
      row->estimate = (double) row->count * f->scale;
      if (m_max)
        {
          double m = (double) (row->count < m_max ? row->count : m_max);
          row->err95 = 1.96 * osp_sqrt ((double) row->count * m) * f->scale;
        }
      uint64_t of = row->parent == UINT32_MAX ? total
                                               : f->rows[row->parent].count;
      row->share = osp_share (row->count, of);
    }
}

/* The k-IPF of the locked streams KS[0..N) into F's rows. */
static int
build_rows (struct osp_forest_profile *f, const struct osp_fns *p, int live,
            const struct osp_options *o, const struct osp_kslab *const *ks,
            unsigned n)
{
  uint64_t used = f->sum.nodes_used;
  /* Each k-SF node joins at most k nodes (its subtree's first k levels
     under its own label), and most far fewer. */
  uint64_t want = 64 * (uint64_t) f->k * (used + 16) + (1u << 16);
  if (want > ((uint64_t) 1 << 30))
    want = (uint64_t) 1 << 30;
  struct osp_ipf ipf;
  if (osp_ipf_init (&ipf, NULL, (size_t) want) != 0)
    return -1;
  /* A live view shows report_top trees: build only those (the exit
     report and osp_report() build all, for the trees count). */
  if (live)
    osp_ipf_build_top (&ipf, ks, n, 0, o->report_top);
  else
    osp_ipf_build (&ipf, ks, n, 0);
  f->ipf_nodes = ipf.used - 1;
  f->ipf_truncated = ipf.truncated;

  uint32_t nids = 0;
  for (uint32_t i = 0; i < p->nfns; i++)
    if (p->fns[i]->id + 1 > nids)
      nids = p->fns[i]->id + 1;
  uint32_t *by_id = malloc ((nids ? nids : 1) * sizeof *by_id);
  if (by_id == NULL)
    {
      osp_ipf_destroy (&ipf);
      return -1;
    }
  memset (by_id, 0xff, (nids ? nids : 1) * sizeof *by_id);
  for (uint32_t i = 0; i < p->nfns; i++)
    by_id[p->fns[i]->id] = i;

  uint64_t *hot = malloc ((size_t) ipf.used * sizeof *hot);
  if (hot == NULL)
    {
      free (by_id);
      osp_ipf_destroy (&ipf);
      return -1;
    }
  subtree_hot (&ipf, hot, 0);

  struct collect c = { .p = p, .f = f, .ipf = &ipf, .hot = hot,
                       .by_id = by_id, .nids = nids,
                       .prune = o->forest_prune };
  int rc = 0;
  uint32_t shown = 0;
  /* Trees come sorted by their root's count; a root that counted nothing
     (only context, or all lost) may still lead to counted n-grams. */
  for (uint32_t r = ipf.nodes[0].child; r && rc == 0;
       r = ipf.nodes[r].sib)
    {
      if (hot[r] == 0)
        continue;
      f->trees++;
      if (shown == o->report_top)
        continue;
      c.base = hot[r];
      uint32_t before = f->nrows;
      rc = add_rows (&c, r, UINT32_MAX, 0);
      shown += f->nrows > before;
    }
  if (ipf.ranked)
    f->trees = ipf.ranked; /* the trees left out counted too */
  free (hot);
  free (by_id);
  osp_ipf_destroy (&ipf);
  if (rc == 0)
    rc = decode_rows (p, f);
  if (rc == 0)
    estimate_rows (f);
  return rc;
}

/* The path ends of P's functions that osp_fn_counts_only: none of them
   reaches the forest. */
static uint64_t
unseen_ends (const struct osp_fns *p)
{
  uint64_t n = 0;
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      const struct osp_fn *fn = p->fns[i];
      if (osp_fn_counts_only (fn))
        for (uint64_t id = 0; id < fn->npaths; id++)
          n += __atomic_load_n (&fn->counts[id], __ATOMIC_RELAXED);
    }
  return n;
}

static uint64_t
clock_of (clockid_t id)
{
  struct timespec ts;
  clock_gettime (id, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* DST's rows become SRC's, shared (one more reference to SRC->mem), with
   what describes them. */
static void
share_rows (struct osp_forest_profile *dst,
            const struct osp_forest_profile *src)
{
  atomic_fetch_add_explicit (&src->mem->refs, 1, memory_order_relaxed);
  dst->mem = src->mem;
  dst->rows = src->rows;
  dst->step_words = src->step_words;
  dst->nrows = src->nrows;
  dst->trees = src->trees;
  dst->ipf_nodes = src->ipf_nodes;
  dst->ipf_truncated = src->ipf_truncated;
  dst->rows_cut = src->rows_cut;
}

/* The rows of F for a live view over P: the last ones when the budget
   says so (0), else -1 (build them). */
static int
live_reuse (struct osp_forest_profile *f, const struct osp_fns *p,
            uint64_t now)
{
  if (!live_valid || live_nfns != p->nfns
      || now - live_built_ns >= LIVE_BUDGET * live_cost_ns)
    return -1;
  share_rows (f, &live_rows);
  f->rows_age_ns = now - live_built_ns;
  return 0;
}

/* Keep F's fresh rows (built at NOW for COST ns of CPU) for the next live
   collects, shared with F; without memory the next one builds again. */
static void
live_keep (struct osp_forest_profile *f, const struct osp_fns *p,
           uint64_t now, uint64_t cost)
{
  osp_forest_profile_free (&live_rows);
  live_valid = 0;
  if (f->mem == NULL)
    {
      f->mem = malloc (sizeof *f->mem);
      if (f->mem == NULL)
        return;
      atomic_init (&f->mem->refs, 1);
      f->mem->rows = f->rows;
      f->mem->step_words = f->step_words;
    }
  share_rows (&live_rows, f);
  live_nfns = p->nfns;
  live_built_ns = now;
  live_cost_ns = cost;
  live_valid = 1;
}

int
osp_forest_collect (struct osp_forest_profile *f, const struct osp_fns *p,
                    int live, const struct osp_options *o)
{
  memset (f, 0, sizeof *f);
  f->policy = policy;
  int probes = 0;
  for (uint32_t i = 0; i < p->nfns; i++)
    probes |= p->fns[i]->npaths != 0;
  if (policy == OSP_FOREST_OFF || !probes)
    return 0;
  f->shown = 1;
  f->k = k_opt;
  f->burst = policy == OSP_FOREST_BURST ? o->forest_burst : 0;
  f->interval = policy == OSP_FOREST_BURST ? o->forest_interval : 0;
  f->warmup = warmup;
  f->prune = o->forest_prune;
  f->frames = nframes;
  f->scale = policy == OSP_FOREST_BURST
                 ? ((double) o->forest_interval - 1 + o->forest_burst)
                       / (double) (o->forest_burst - warmup)
                 : 1.0;
  f->bytes_bound = (uint64_t) stream_bytes * max_streams;
  f->unseen = unseen_ends (p);

  osp_lock (&osp_forest_lock);
  const struct osp_kslab **ks = malloc ((nstreams ? nstreams : 1)
                                        * sizeof *ks);
  if (ks == NULL)
    {
      osp_unlock (&osp_forest_lock);
      return -1;
    }
  unsigned n = 0;
  for (struct osp_kstream *k = streams; k; k = k->next)
    {
      osp_lock (&k->lock);
      drain (k);
      struct osp_forest_stats st;
      osp_kslab_stats (&k->ks, &st);
      add_stats (&f->sum, &st);
      f->bursts += k->bursts;
      f->resyncs += k->resyncs;
      f->partial += k->partial;
      f->unlabelled += k->unlabelled;
      f->invalid += k->invalid;
      f->shape_hits += k->shape_hits;
      f->shape_misses += k->shape_misses;
      ks[n++] = &k->ks;
    }
  f->streams = nstreams;
  f->refused = refused;
  int rc = 0;
  uint64_t now = clock_of (CLOCK_MONOTONIC);
  if (!live || live_reuse (f, p, now) != 0)
    {
      uint64_t cpu0 = clock_of (CLOCK_THREAD_CPUTIME_ID);
      rc = build_rows (f, p, live, o, ks, n);
      if (rc == 0 && live)
        live_keep (f, p, now, clock_of (CLOCK_THREAD_CPUTIME_ID) - cpu0);
    }
  for (struct osp_kstream *k = streams; k; k = k->next)
    osp_unlock (&k->lock);
  osp_unlock (&osp_forest_lock);
  free (ks);
  if (rc != 0)
    osp_forest_profile_free (f);
  return rc;
}

void
osp_forest_profile_free (struct osp_forest_profile *f)
{
  if (f->mem == NULL)
    {
      free (f->rows);
      free (f->step_words);
    }
  else if (atomic_fetch_sub_explicit (&f->mem->refs, 1, memory_order_acq_rel)
           == 1)
    {
      free (f->mem->rows);
      free (f->mem->step_words);
      free (f->mem);
    }
  f->mem = NULL;
  f->rows = NULL;
  f->step_words = NULL;
  f->nrows = 0;
}

/* SPDX-License-Identifier: MIT */
/* subexact.c - mode=subpaths-exact: the ground truth for the sampler.
 *
 * Counts every subpath of every length L = 2^n, min_length <= L <=
 * exact_max, ending at every block of every thread: no sampling, so the
 * hook fires on every block (like mode=blocks) and each block adds
 * log2(exact_max/min_length) + 1 subpaths.  Slow; for verification only.
 *
 * Each thread appends its blocks to a private batch (arena memory) that
 * begins with the thread's last exact_max - 1 earlier blocks; when the
 * batch is full the owner takes osp_exact_lock once and counts every
 * subpath ending in the new blocks.  So the count of subpath S is exact
 * for every thread's blocks up to its last batch (a report adds the
 * reporting thread's own pending blocks first; other live threads may
 * have up to BATCH blocks not yet counted).
 *
 * The table: one mmap of exact_bytes (untouched pages cost nothing; under
 * `ulimit -v' perhaps less, osp_map_table), an
 * open-addressing index of uint32 slots (1/8 of the bytes, at most half
 * full) over a pool of entries [count lo, count hi, hash, len, ids...].
 * Identity is the whole sequence (hash, then length, then every id).  An
 * occurrence that finds the table full (index half full or pool used up)
 * is not counted and counted in exact_dropped instead.
 */
#define _GNU_SOURCE
#include "collect/collect.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

pthread_mutex_t osp_exact_lock = PTHREAD_MUTEX_INITIALIZER;

#define BATCH 256
#define HDR 4 /* words before an entry's ids */

struct osp_exact_thread
{
  uint32_t n, hist; /* words in buf; the first hist are history */
  uint32_t buf[];   /* exact_max - 1 + BATCH */
};

/* Under osp_exact_lock (the geometry is immutable after init). */
static void *map;
static size_t map_len;
static uint32_t *slots, *pool;
static uint64_t nslots, pool_words, pool_used, entries, dropped;
static uint32_t min_len, max_len, bufcap;

int
osp_exact_init (const struct osp_options *o)
{
  min_len = o->min_length;
  max_len = o->exact_max;
  bufcap = max_len - 1 + BATCH;
  if (o->mode != OSP_MODE_SUBPATHS_EXACT)
    return 0;
  map_len = (size_t) o->exact_bytes;
  slots = osp_map_table ("exact table (exact_bytes)", &map_len, &nslots);
  if (slots == NULL)
    return -1;
  map = slots;
  pool = slots + nslots;
  pool_words = (map_len - nslots * sizeof *slots) / sizeof *pool;
  if (pool_words > UINT32_MAX - 1)
    pool_words = UINT32_MAX - 1; /* slots hold offset + 1 in 32 bits */
  return 0;
}

static uint64_t
hash (const uint32_t *b, uint32_t len)
{
  uint64_t h = 0x9e3779b97f4a7c15u ^ len;
  for (uint32_t i = 0; i < len; i++)
    {
      h = (h ^ b[i]) * 0xff51afd7ed558ccdu;
      h ^= h >> 29;
    }
  return h;
}

/* Count one occurrence of B[0..LEN).  Under osp_exact_lock. */
static int
count_one (const uint32_t *b, uint32_t len)
{
  uint64_t h = hash (b, len), mask = nslots - 1;
  for (uint64_t i = h & mask;; i = (i + 1) & mask)
    {
      uint32_t o = slots[i];
      if (o == 0)
        {
          if (2 * (entries + 1) > nslots || pool_used + HDR + len > pool_words)
            {
              dropped++;
              return 0;
            }
          uint32_t *e = pool + pool_used;
          e[0] = 1;
          e[1] = 0;
          e[2] = (uint32_t) h;
          e[3] = len;
          memcpy (e + HDR, b, len * sizeof *b);
          slots[i] = (uint32_t) pool_used + 1;
          pool_used += HDR + len;
          entries++;
          return 1;
        }
      uint32_t *e = pool + o - 1;
      if (e[2] == (uint32_t) h && e[3] == len
          && memcmp (e + HDR, b, len * sizeof *b) == 0)
        {
          if (++e[0] == 0)
            e[1]++;
          return 1;
        }
    }
}

/* Count every subpath ending in T's new blocks, keep the history. */
static void
process (struct osp_thread *t, struct osp_exact_thread *x)
{
  uint64_t counted = 0;
  osp_lock (&osp_exact_lock);
  for (uint32_t i = x->hist; i < x->n; i++)
    for (uint32_t len = min_len; len <= max_len && len <= i + 1; len *= 2)
      counted += (uint64_t) count_one (x->buf + i + 1 - len, len);
  osp_unlock (&osp_exact_lock);
  osp_walk_bump (t, OSP_W_SAMPLES, counted);
  uint32_t keep = x->n < max_len - 1 ? x->n : max_len - 1;
  memmove (x->buf, x->buf + x->n - keep, keep * sizeof *x->buf);
  x->n = x->hist = keep;
}

void
osp_exact_hit (struct osp_thread *t, uint32_t gid)
{
  struct osp_exact_thread *x = t->exact;
  if (x == NULL)
    {
      x = osp_arena_alloc (&t->arena,
                           sizeof *x + bufcap * sizeof (uint32_t));
      if (x == NULL)
        {
          atomic_fetch_add_explicit (&osp_stats.hits_lost, 1,
                                     memory_order_relaxed);
          return;
        }
      t->exact = x;
    }
  osp_walk_bump (t, OSP_W_BLOCKS_SEEN, 1);
  osp_walk_bump (t, OSP_W_BLOCKS_SAMPLED, 1);
  osp_walk_bump (t, OSP_W_STARTS, 1);
  osp_walk_bump (t, OSP_W_DRAWN, 1);
  x->buf[x->n++] = gid;
  if (x->n == bufcap)
    process (t, x);
}

void
osp_exact_sync (struct osp_thread *t)
{
  if (t->exact != NULL && t->exact->n > t->exact->hist)
    process (t, t->exact);
}

void
osp_exact_recover (struct osp_thread *t)
{
  /* An abandoned process () may have moved the history without setting
     n: start the batch afresh (the subpaths across it are lost). */
  if (t->exact != NULL)
    t->exact->n = t->exact->hist = 0;
}

void
osp_exact_reset (void)
{
  if (map != NULL)
    madvise (map, map_len, MADV_DONTNEED); /* private anonymous: zeroes */
  pool_used = entries = dropped = 0;
}

int
osp_exact_collect (struct osp_subpaths_part *p, const struct osp_options *o)
{
  osp_walk_totals (p->walk);
  osp_lock (&osp_exact_lock);
  p->exact_entries = entries;
  p->exact_dropped = dropped;
  p->exact_bytes_used = nslots * sizeof *slots + pool_used * sizeof *pool;
  struct osp_subpath *subs = malloc ((entries ? entries : 1) * sizeof *subs);
  uint32_t *words = malloc ((pool_used ? pool_used : 1) * sizeof *words);
  if (subs == NULL || words == NULL)
    {
      osp_unlock (&osp_exact_lock);
      free (subs);
      free (words);
      return -1;
    }
  uint64_t n = 0, w = 0;
  for (uint64_t off = 0; off < pool_used; n++)
    {
      const uint32_t *e = pool + off;
      memcpy (words + w, e + HDR, e[3] * sizeof *words);
      subs[n] = (struct osp_subpath) {
        .len = e[3], .blocks = words + w,
        .count = e[0] | (uint64_t) e[1] << 32
      };
      w += e[3];
      off += HDR + e[3];
    }
  osp_unlock (&osp_exact_lock);
  for (uint64_t i = 0; i < n; i++)
    osp_estimate (&subs[i], o, 1.0, p->walk[OSP_W_BLOCKS_SEEN],
                  p->walk[OSP_W_STARTS], OSP_EST_EXACT);
  qsort (subs, n, sizeof *subs, osp_subpath_cmp);
  osp_subpaths_settle (subs, n, p->walk[OSP_W_BLOCKS_SEEN]);
  p->subs = subs;
  p->nsubs = (uint32_t) n;
  p->sub_words = words;
  return 0;
}

/* SPDX-License-Identifier: MIT */
/* hotlist.c - the bounded table of sampled subpaths (hotlist.h).
 *
 * References:
 *   Oren, Matias, Sagiv, "Online Subpath Profiling", CC 2002, section 2.3:
 *     the hot-list of
 *     concise samples under a memory bound, threshold raised adaptively.
 *   Gibbons, Matias, "New sampling-based summary statistics for improving
 *     approximate query answers", SIGMOD 1998: concise samples.
 *   Metwally, Agrawal, El Abbadi, "Efficient computation of frequent and
 *     top-k elements in data streams", ICDT 2005: Space-Saving.
 *   Kachitvichyanukul, Schmeiser 1988 (inversion) and Hoermann, "The
 *     generation of binomial random variates", 1993 (BTRS): the exact
 *     binomial sampler used for thinning.
 *
 * Memory.  hl_create makes ONE allocation of exactly mem_bytes; nothing is
 * allocated afterwards.  Its layout, in 8-byte words:
 *
 *   [struct hotlist][hash buckets: uint32 x nb][records ->   free   <- heap]
 *                                               ^arena_lo  ^top    arena_hi^
 *
 *   - A record is a 32-byte header plus the stored ids, rounded up to 8
 *     bytes, so short and long subpaths pay for what they store and nothing
 *     is reserved per length class.  Records are bump-allocated at `top'.
 *   - A removed record is marked dead (its first word becomes HL_DEAD |
 *     its size) and left in place.  Concise samples remove records only
 *     while raising the threshold, which then compacts once: live records
 *     slide down in address order and the bucket chains are rebuilt from
 *     the stored keys, O(arena), paid for by the 1/8 of the arena it frees
 *     (see below).  Space-Saving's table stays full, so it unlinks each
 *     evicted record and puts the new one in the largest evicted slot when
 *     it fits (always for equal sizes; a filler covers any rest); only a
 *     record bigger than the slots it evicted goes to `top', compacting
 *     first if needed.  (That compaction is O(arena) per such miss: with
 *     mixed lengths Space-Saving costs ~1 us per offer at 64 KiB.  Free
 *     lists of dead slots per size class would avoid most of them.)
 *   - Space-Saving only: a binary min-heap of record offsets (by count)
 *     grows down from the end of the arena, 4 bytes per entry, each record
 *     knowing its heap position.  Concise samples need no order.
 *   - Buckets: a power of two near mem_bytes / 64 (about 6% of the bound),
 *     chained through the records.  Even if the whole arena held 2-id
 *     records (40 bytes) the load factor stays below 2.
 *
 *   mem_used = the fixed part (struct + buckets) + the live records + their
 *   heap slots.  Dead records awaiting compaction are not counted (they are
 *   reclaimed before any allocation could fail).  Everything lives inside
 *   the one block, so mem_peak <= mem_bytes holds by construction.
 *
 * Concise samples.  Every offer ever made is, at any moment, in
 * the sample independently with probability 1/tau (tau = the current
 * threshold):
 *   - an offer is admitted with probability 1/tau;
 *   - when an admitted new subpath does not fit, tau is raised to
 *     tau' = 1.25 tau, repeatedly, and at each raise every kept sample
 *     point survives with probability tau/tau', i.e. an entry's count
 *     becomes Binomial(count, tau/tau').  A point admitted at tau and
 *     surviving the raise was thus kept with probability
 *     (1/tau)(tau/tau') = 1/tau'.  The pending subpath is one of these
 *     points: it was admitted at the old tau, so it must pass the same
 *     tau/tau' coin at every raise too, or offers arriving at a raise would
 *     be over-represented.
 *   - the caller may flip the admission coin itself, before it has the
 *     subpath (the sampler does, at a sample's first block, so that a
 *     sample the coin turns away is never collected): it reads the cut
 *     (hl_admit_cut) and offers what passed with that cut
 *     (hl_offer_passed), which then passes a second coin of tau/tau' if
 *     tau rose to tau' in between - the same thinning a kept point gets.
 *   - raises continue until 1/8 of the arena is free beyond the pending
 *     record (or everything is free).  A raise costs O(entries + arena)
 *     and leaves that much room, which must be refilled by new admitted
 *     blocks before the next raise: the resampling work is amortised O(1)
 *     per admitted (hence per offered) block.  The factor 1.25 keeps tau
 *     within 25% of the smallest threshold that would do, and each pass
 *     drops about 20% of the sample points.
 *   - with max_gain, an admitted offer that takes the sample size past
 *     max_gain x m (m: the entries of max_len the arena holds, or the
 *     entries it holds now if more) raises tau once, the same raise: a
 *     table whose few hot entries never fill the arena stops growing
 *     counts whose intervals are already narrow.
 *   So count is Binomial(N, 1/tau) for a subpath offered N times, count*tau
 *   estimates N, with variance about tau^2 count.  (tau itself depends on
 *   the stream; for a subpath that is a small part of the sample this
 *   dependence is negligible - t_hotlist measures bias and coverage.)
 *
 * Counting samples (Gibbons, Matias, section 4 "Counting samples").  The invariant: an entry's count is the number of offers of its
 * subpath since (and including) the first that passed a coin of 1/tau, for
 * the current tau, as if tau had been the threshold from the start.
 *   - an offer of a subpath in the table increments its count (no coin);
 *   - an offer of an absent one is admitted with probability 1/tau (count
 *     1); if it does not fit, tau is raised as for concise samples (same
 *     factor, same 1/8 of free room, same amortised cost), and at each
 *     raise every entry's first counted offer would have passed the new
 *     coin with probability tau/tau' (given it passed the old one); if not,
 *     it and each following offer are taken back until one passes 1/tau':
 *     the count drops by 1 + Geometric(1/tau') failures (O(1) per entry by
 *     inversion), and entries that reach 0 are evicted.  The pending
 *     subpath takes the same coin.
 *   So for a subpath offered O times, O - count is the number of offers
 *   before the first admitted one: geometric with mean tau - 1 (truncated
 *   at O), and count + tau - 1 estimates O (estimate.c).  Its spread is
 *   about tau whatever O: hot entries keep their exact counts but the few
 *   tau offers missed before they got in, instead of keeping 1/tau of them
 *   as concise samples do.  No gain limit (max_gain is ignored): a count
 *   costs nothing but the look-up the offer needs anyway, and
 *   hl_admit_cut always says UINT64_MAX, since an entry's offers cannot be
 *   turned away before they are seen.
 *
 * Space-Saving.  On a hit the counter is incremented.  On a miss the
 * entries with the smallest counts are evicted (heap order) until the new
 * record fits; it gets count = floor + 1 and error = floor, where floor is
 * the largest count ever evicted.  With equal-size records this is exactly
 * Metwally's rule (evicted counts never decrease, so floor = the min just
 * evicted).  With unequal sizes one eviction may free room for several new
 * entries; using floor rather than 0 for them keeps the guarantee
 * count - error <= true <= count: an unmonitored subpath was seen at most
 * as often as its count when evicted, which is <= floor.  Every live count
 * is >= floor (entries are evicted smallest first), so a subpath seen more
 * than floor times is never missing.
 *
 * Identity.  SEQUENCE: key = hash of the ids, the stored ids are compared,
 * so only identical sequences share an entry.  XOR: key = (len, xor of the
 * ids) and nothing else is compared: sequences of equal length and equal
 * xor share an entry - permutations of each other, but also e.g. [1,2,3]
 * and [0,0,0], and [a,a,b] with [c,c,b].  ROTATION: the sequence is first
 * rotated to its lexicographically least rotation (compared as unsigned
 * ids), then handled like SEQUENCE: exactly the rotations of one sequence
 * share an entry (not reversals, not other permutations).
 *
 * Locking: one mutex per table, held for the whole of every call.  Offers
 * do O(len) work when admitted (hash, compare, copy) and occasionally a
 * resampling pass, so the caller is expected to queue samples per thread
 * and flush them in batches (the sampler does), not call per block.
 */
#define _GNU_SOURCE
#include "hotlist.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A stored subpath.  `next' chains the bucket (word offset, 0 = end);
   `key' is the hash (SEQUENCE, ROTATION) or the xor of the ids (XOR);
   `heap' is the Space-Saving heap position.  Size: 32 bytes + ids, rounded
   up to 8.  A dead record (or a filler left in a reused slot, which may be
   a single word) is only its first word: HL_DEAD | its size in words.  A
   live count never gets near 2^63 (it grows by one per offer). */
struct hl_rec
{
  uint64_t count;
  uint64_t error;
  uint32_t next;
  uint32_t key;
  uint32_t len;
  uint32_t heap;
  uint32_t blocks[];
};

struct hotlist
{
  pthread_mutex_t lock;
  struct hl_config cfg;
  uint64_t rng[4];           /* xoshiro256** */
  double tau;
  uint64_t max_sample;       /* concise: raise tau above this sample size
                                (max_gain x m; 0: only when full) */
  uint64_t admit_cut;        /* admit iff next64 < admit_cut (tau > 1);
                                written under the lock, atomically, since
                                hl_admit_cut reads it without */
  uint64_t ss_floor;         /* Space-Saving: largest count ever evicted */
  uint64_t *words;           /* the whole block (== this struct) */
  uint32_t *buckets;
  uint32_t bucket_mask;
  uint32_t arena_lo, arena_hi; /* word offsets of the arena */
  uint32_t top;                /* first free word after the records */
  uint32_t nheap;              /* Space-Saving heap entries */
  size_t fixed_bytes;        /* struct + buckets */
  size_t cap_bytes;          /* arena size */
  size_t live_bytes;         /* live records + heap slots */
  struct hl_stats st;        /* counters; threshold/mem_* filled on read */
};

/* Concise: the threshold's growth factor at each raise. */
#define HL_RAISE 1.25
/* Concise: a resampling episode frees at least this part of the arena. */
#define HL_FREE_DIV 8

#define HL_DEAD (UINT64_C (1) << 63)
#define REC(h, off) ((struct hl_rec *) ((h)->words + (off)))

/* ---- random numbers ---------------------------------------------------- */

static uint64_t
hl_splitmix64 (uint64_t *x)
{
  uint64_t z = (*x += UINT64_C (0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static void
hl_seed (struct hotlist *h, uint64_t seed)
{
  for (int i = 0; i < 4; i++)
    h->rng[i] = hl_splitmix64 (&seed);
}

static inline uint64_t
hl_rotl (uint64_t x, int k)
{
  return (x << k) | (x >> (64 - k));
}

static inline uint64_t
hl_next (struct hotlist *h)
{
  uint64_t *s = h->rng;
  uint64_t r = hl_rotl (s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = hl_rotl (s[3], 45);
  return r;
}

/* Uniform in [0, 1). */
static inline double
hl_unif (struct hotlist *h)
{
  return (double) (hl_next (h) >> 11) * 0x1.0p-53;
}

/* ---- binomial variates -------------------------------------------------- */

/* log k! for integral k >= 0: a table below 16, else Stirling's series for
   log Gamma(k + 1) to the x^-9 term (error < 1e-14). */
static double
hl_log_fact (double k)
{
  static const double table[16] = {
    0, 0, 0.69314718055994495, 1.7917594692280554, 3.1780538303479449,
    4.7874917427820467, 6.5792512120101021, 8.5251613610654147,
    10.604602902745249, 12.801827480081467, 15.104412573075514,
    17.502307845873887, 19.987214495661885, 22.552163853123421,
    25.191221182738683, 27.89927138384089
  };
  if (k < 16)
    return table[(int) k];
  /* not lgamma: it writes the global signgam (a data race) */
  double x = k + 1, r = 1 / x, r2 = r * r;
  return (x - 0.5) * log (x) - x + 0.91893853320467274
         + r * (1.0 / 12 - r2 * (1.0 / 360 - r2 * (1.0 / 1260
                - r2 * (1.0 / 1680 - r2 / 1188))));
}

/* n * p < 10, p <= 1/2: inversion by sequential search from 0 (expected
   O(1 + np) steps).  The restart bound is > 10 standard deviations above
   the mean, so it only guards against rounding in the recurrence. */
static uint64_t
hl_binom_inv (struct hotlist *h, uint64_t n, double p)
{
  double q = 1 - p, np = (double) n * p;
  double qn = 1, sq = q; /* q^n by squaring */
  for (uint64_t e = n; e; e >>= 1, sq *= sq)
    if (e & 1)
      qn *= sq;
  double bound = np + 10 * sqrt (np * q + 1);
  if (bound > (double) n)
    bound = (double) n;
  for (;;)
    {
      double u = hl_unif (h), px = qn;
      uint64_t x = 0;
      while (u > px)
        {
          x++;
          if ((double) x > bound)
            break;
          u -= px;
          px *= ((double) (n - x + 1) * p) / ((double) x * q);
        }
      if ((double) x <= bound)
        return x;
    }
}

/* n * p >= 10, p <= 1/2: Hoermann's BTRS (transformed rejection with
   squeeze), exact, about 1.2 iterations on average whatever n is. */
static uint64_t
hl_binom_btrs (struct hotlist *h, uint64_t n, double p)
{
  double q = 1 - p, dn = (double) n;
  double spq = sqrt (dn * p * q);
  double b = 1.15 + 2.53 * spq;
  double a = -0.0873 + 0.0248 * b + 0.01 * p;
  double c = dn * p + 0.5;
  double alpha = (2.83 + 5.1 / b) * spq;
  double vr = 0.92 - 4.2 / b;
  double lpq = log (p / q);
  double m = (double) (uint64_t) ((dn + 1) * p); /* the mode */
  double hm = hl_log_fact (m) + hl_log_fact (dn - m);
  for (;;)
    {
      double u = hl_unif (h) - 0.5;
      double v = (double) ((hl_next (h) >> 11) + 1) * 0x1.0p-53; /* (0,1] */
      double us = 0.5 - (u < 0 ? -u : u);
      if (us <= 0)
        continue;
      double t = (2 * a / us + b) * u + c;
      if (!(t >= 0) || t >= dn + 1)
        continue;
      double k = (double) (uint64_t) t;
      if (k > dn)
        continue;
      if (us >= 0.07 && v <= vr)
        return (uint64_t) k;
      v = log (v * alpha / (a / (us * us) + b));
      if (v <= hm - hl_log_fact (k) - hl_log_fact (dn - k) + (k - m) * lpq)
        return (uint64_t) k;
    }
}

/* Binomial(n, p), exact up to double rounding. */
static uint64_t
hl_binomial (struct hotlist *h, uint64_t n, double p)
{
  if (n == 0 || p <= 0)
    return 0;
  if (p >= 1)
    return n;
  if (p > 0.5)
    return n - hl_binomial (h, n, 1 - p);
  if ((double) n * p < 10)
    return hl_binom_inv (h, n, p);
  return hl_binom_btrs (h, n, p);
}

/* ---- keys ---------------------------------------------------------------- */

static inline uint64_t
hl_mix (uint64_t z)
{
  z = (z ^ (z >> 33)) * UINT64_C (0xff51afd7ed558ccd);
  z = (z ^ (z >> 33)) * UINT64_C (0xc4ceb9fe1a85ec53);
  return z ^ (z >> 33);
}

/* Hash of ids A[0..n) continuing state S (FxHash-like, finished by
   hl_mix). */
static inline uint64_t
hl_hash_run (uint64_t s, const uint32_t *a, uint32_t n)
{
  for (uint32_t i = 0; i < n; i++)
    s = (hl_rotl (s, 5) ^ a[i]) * UINT64_C (0x517cc1b727220a95);
  return s;
}

/* Start of the lexicographically least rotation of A[0..n), in O(n) time
   and O(1) space (the two-candidate minimum-expression algorithm; Booth's
   failure-function version would need an O(n) scratch array, i.e. memory
   outside the bound or a slice of it).  Candidates i < j: compare the
   rotations at i and j for k ids; the loser and the k ids after it cannot
   start the least rotation. */
static uint32_t
hl_least_rotation (const uint32_t *a, uint32_t n)
{
  uint32_t i = 0, j = 1, k = 0;
  while (i < n && j < n && k < n)
    {
      uint32_t x = a[(i + k) % n], y = a[(j + k) % n];
      if (x == y)
        {
          k++;
          continue;
        }
      if (x > y)
        i += k + 1;
      else
        j += k + 1;
      if (i == j)
        j++;
      k = 0;
    }
  return i < j ? i : j;
}

/* The key of A[0..n) starting at rotation R (R = 0 except for ROTATION). */
static uint32_t
hl_key (const struct hotlist *h, const uint32_t *a, uint32_t n, uint32_t r)
{
  if (h->cfg.encoding == HL_ENC_XOR)
    {
      uint32_t x = 0;
      for (uint32_t i = 0; i < n; i++)
        x ^= a[i];
      return x;
    }
#ifdef HL_TEST_WEAK_HASH
  /* Test build: every sequence of a length collides, so only the stored
     ids can tell them apart. */
  (void) a;
  (void) r;
  return n;
#else
  uint64_t s = hl_hash_run (n, a + r, n - r);
  s = hl_hash_run (s, a, r);
  return (uint32_t) hl_mix (s);
#endif
}

static inline uint32_t
hl_bucket (const struct hotlist *h, uint32_t key, uint32_t len)
{
  return (uint32_t) hl_mix (((uint64_t) len << 32) | key) & h->bucket_mask;
}

/* Does record X hold A[0..n) rotated by R? */
static inline int
hl_same (const struct hotlist *h, const struct hl_rec *x, uint32_t key,
         const uint32_t *a, uint32_t n, uint32_t r)
{
  if ((x->count & HL_DEAD) || x->key != key || x->len != n)
    return 0;
  if (h->cfg.encoding == HL_ENC_XOR)
    return 1;
  /* A loop, not memcmp: most offers are a few ids long, and this runs
     for every admitted one (two library calls cost more than the ids). */
  for (uint32_t i = 0; i < n - r; i++)
    if (x->blocks[i] != a[r + i])
      return 0;
  for (uint32_t i = 0; i < r; i++)
    if (x->blocks[n - r + i] != a[i])
      return 0;
  return 1;
}

/* ---- arena --------------------------------------------------------------- */

static inline uint32_t
hl_rec_words (uint32_t len)
{
  return (uint32_t) ((sizeof (struct hl_rec) + (size_t) len * 4 + 7) / 8);
}

/* Bytes of the bound a live record of LEN ids takes. */
static inline size_t
hl_need (const struct hotlist *h, uint32_t len)
{
  return (size_t) hl_rec_words (len) * 8
         + (h->cfg.policy == HL_SPACE_SAVING ? 4 : 0);
}

/* Size in words of the (live or dead) record at R. */
static inline uint32_t
hl_size (const struct hl_rec *r)
{
  return r->count & HL_DEAD ? (uint32_t) (r->count & ~HL_DEAD)
                            : hl_rec_words (r->len);
}

static inline uint32_t *
hl_heap_slot (struct hotlist *h, uint32_t i)
{
  return (uint32_t *) (h->words + h->arena_hi) - 1 - i;
}

/* Slide the live records down over the dead ones, fix the heap's offsets,
   and rebuild the bucket chains from the stored keys. */
static void
hl_compact (struct hotlist *h)
{
  uint32_t dst = h->arena_lo;
  for (uint32_t off = h->arena_lo; off < h->top;)
    {
      struct hl_rec *r = REC (h, off);
      uint32_t w = hl_size (r);
      if (!(r->count & HL_DEAD))
        {
          if (dst != off)
            memmove (h->words + dst, r, (size_t) w * 8);
          if (h->cfg.policy == HL_SPACE_SAVING)
            *hl_heap_slot (h, REC (h, dst)->heap) = dst;
          dst += w;
        }
      off += w;
    }
  h->top = dst;
  memset (h->buckets, 0, ((size_t) h->bucket_mask + 1) * 4);
  for (uint32_t off = h->arena_lo; off < h->top;)
    {
      struct hl_rec *r = REC (h, off);
      uint32_t b = hl_bucket (h, r->key, r->len);
      r->next = h->buckets[b];
      h->buckets[b] = off;
      off += hl_size (r);
    }
}

/* Does a record of LEN ids fit after `top' (and its heap slot)? */
static inline int
hl_fits_at_top (struct hotlist *h, uint32_t len)
{
  size_t end = (size_t) h->arena_hi * 8
               - (h->cfg.policy == HL_SPACE_SAVING ? (size_t) h->nheap * 4
                                                   : 0);
  return (size_t) (h->top + hl_rec_words (len)) * 8
         + (h->cfg.policy == HL_SPACE_SAVING ? 4 : 0) <= end;
}

/* Store a record (the caller made room: live_bytes + need <= cap) and
   chain it: in the dead slot at SLOT of SLOT_WORDS words if it is big
   enough (the rest becomes a filler), else at `top', compacting first if
   the free space is not all there. */
static struct hl_rec *
hl_insert (struct hotlist *h, const uint32_t *a, uint32_t n, uint32_t r,
           uint32_t key, uint64_t count, uint64_t error, uint32_t slot,
           uint32_t slot_words)
{
  uint32_t w = hl_rec_words (n), off;
  if (slot && slot_words >= w)
    {
      off = slot;
      if (slot_words > w)
        REC (h, off + w)->count = HL_DEAD | (slot_words - w);
    }
  else
    {
      if (!hl_fits_at_top (h, n))
        hl_compact (h);
      off = h->top;
      h->top += w;
    }
  struct hl_rec *x = REC (h, off);
  x->count = count;
  x->error = error;
  x->key = key;
  x->len = n;
  x->heap = 0;
  memcpy (x->blocks, a + r, (size_t) (n - r) * 4);
  memcpy (x->blocks + (n - r), a, (size_t) r * 4);
  uint32_t b = hl_bucket (h, key, n);
  x->next = h->buckets[b];
  h->buckets[b] = off;
  h->live_bytes += hl_need (h, n);
  h->st.entries++;
  h->st.sample_size += count;
  return x;
}

/* Mark X dead (its space is reused or reclaimed by the next compaction;
   a dead record stays in its bucket chain unless unlinked). */
static void
hl_kill (struct hotlist *h, struct hl_rec *x)
{
  h->st.sample_size -= x->count;
  h->live_bytes -= hl_need (h, x->len);
  x->count = HL_DEAD | hl_rec_words (x->len);
  h->st.entries--;
  h->st.evictions++;
}

/* ---- Space-Saving heap (min by count) ------------------------------------ */

static inline uint64_t
hl_heap_count (struct hotlist *h, uint32_t i)
{
  return REC (h, *hl_heap_slot (h, i))->count;
}

static inline void
hl_heap_set (struct hotlist *h, uint32_t i, uint32_t off)
{
  *hl_heap_slot (h, i) = off;
  REC (h, off)->heap = i;
}

static void
hl_sift_up (struct hotlist *h, uint32_t i)
{
  uint32_t off = *hl_heap_slot (h, i);
  uint64_t c = REC (h, off)->count;
  while (i > 0)
    {
      uint32_t p = (i - 1) / 2;
      if (hl_heap_count (h, p) <= c)
        break;
      hl_heap_set (h, i, *hl_heap_slot (h, p));
      i = p;
    }
  hl_heap_set (h, i, off);
}

static void
hl_sift_down (struct hotlist *h, uint32_t i)
{
  uint32_t off = *hl_heap_slot (h, i);
  uint64_t c = REC (h, off)->count;
  for (;;)
    {
      uint32_t l = 2 * i + 1, m = i;
      uint64_t mc = c;
      if (l < h->nheap && hl_heap_count (h, l) < mc)
        m = l, mc = hl_heap_count (h, l);
      if (l + 1 < h->nheap && hl_heap_count (h, l + 1) < mc)
        m = l + 1;
      if (m == i)
        break;
      hl_heap_set (h, i, *hl_heap_slot (h, m));
      i = m;
    }
  hl_heap_set (h, i, off);
}

/* Take the live record at OFF out of its bucket chain. */
static void
hl_unlink (struct hotlist *h, uint32_t off)
{
  struct hl_rec *x = REC (h, off);
  uint32_t *p = &h->buckets[hl_bucket (h, x->key, x->len)];
  while (*p != off)
    p = &REC (h, *p)->next;
  *p = x->next;
}

/* Evict the entry with the smallest count; returns its offset.  It is
   unlinked at once, so its slot can be reused before any compaction. */
static uint32_t
hl_evict_min (struct hotlist *h)
{
  uint32_t off = *hl_heap_slot (h, 0);
  struct hl_rec *x = REC (h, off);
  if (x->count > h->ss_floor)
    h->ss_floor = x->count;
  hl_unlink (h, off);
  hl_kill (h, x);
  h->nheap--;
  if (h->nheap > 0)
    {
      hl_heap_set (h, 0, *hl_heap_slot (h, h->nheap));
      hl_sift_down (h, 0);
    }
  return off;
}

/* ---- concise samples: raising the threshold ------------------------------ */

static void
hl_set_tau (struct hotlist *h, double tau)
{
  h->tau = tau;
  /* P(next64 < cut) = cut / 2^64 = 1 / tau (to 2^-64). */
  double cut = 18446744073709551616.0 / tau;
  __atomic_store_n (&h->admit_cut,
                    cut >= 18446744073709551615.0 ? UINT64_MAX
                                                  : (uint64_t) cut,
                    __ATOMIC_RELAXED);
}

/* Counting samples: how many of an entry's counted occurrences a raise
   from tau to tau' = tau / KEEP takes back (Gibbons and Matias, counting
   samples, the threshold raise): with probability KEEP the first counted
   occurrence would have passed the coin at tau' too and nothing changes;
   otherwise it is dropped, and so is each following one until one passes
   a coin of 1/tau' - one plus a geometric number of failures, drawn by
   inversion in O(1). */
static uint64_t
hl_counting_drop (struct hotlist *h, double keep, double tau2)
{
  if (hl_unif (h) < keep)
    return 0;
  double u = (double) ((hl_next (h) >> 11) + 1) * 0x1.0p-53; /* (0,1] */
  double g = log (u) / log1p (-1 / tau2);
  return g >= 0x1p62 ? UINT64_C (1) << 62 : 1 + (uint64_t) g;
}

/* One raise: tau' = HL_RAISE tau, each kept sample point survives with
   probability tau / tau', which is returned (concise); counting samples
   take back what hl_counting_drop says, as if tau' had been the
   threshold all along. */
static double
hl_raise (struct hotlist *h)
{
  double tau2 = h->tau * HL_RAISE, keep = h->tau / tau2;
  int counting = h->cfg.policy == HL_COUNTING;
  for (uint32_t off = h->arena_lo; off < h->top;)
    {
      struct hl_rec *r = REC (h, off);
      off += hl_size (r);
      if (r->count & HL_DEAD)
        continue;
      uint64_t c;
      if (counting)
        {
          uint64_t d = hl_counting_drop (h, keep, tau2);
          c = d >= r->count ? 0 : r->count - d;
        }
      else
        c = hl_binomial (h, r->count, keep);
      if (c == 0)
        hl_kill (h, r);
      else
        {
          h->st.sample_size -= r->count - c;
          r->count = c;
        }
    }
  hl_set_tau (h, tau2);
  h->st.resamples++;
  return keep;
}

/* Make room for an admitted new subpath of LEN ids by raising tau (see the
   header comment); returns whether the subpath itself survived. */
static int
hl_make_room (struct hotlist *h, uint32_t len)
{
  size_t need = hl_need (h, len);
  size_t target = need + h->cap_bytes / HL_FREE_DIV;
  if (target > h->cap_bytes)
    target = h->cap_bytes;
  int survived = 1;
  while (h->cap_bytes - h->live_bytes < target)
    {
      double keep = hl_raise (h);
      if (survived && hl_unif (h) >= keep)
        survived = 0;
    }
  hl_compact (h);
  return survived;
}

/* Keep the sample within max_gain x m points (hl_config), or max_gain
   per entry if the table holds more entries than m (shorter ones than
   max_len): one raise thins it by 1/HL_RAISE, so the next comes after a
   fifth of the cap has been admitted again, and the work stays amortised
   O(1) per offer. */
static void
hl_bound_sample (struct hotlist *h)
{
  if (h->max_sample == 0)
    return;
  uint64_t most = (uint64_t) h->cfg.max_gain * h->st.entries;
  if (most < h->max_sample)
    most = h->max_sample;
  if (h->st.sample_size > most)
    hl_raise (h);
}

/* ---- the API ------------------------------------------------------------- */

static void
hl_clear (struct hotlist *h)
{
  memset (&h->st, 0, sizeof h->st);
  memset (h->buckets, 0, ((size_t) h->bucket_mask + 1) * 4);
  h->top = h->arena_lo;
  h->nheap = 0;
  h->live_bytes = 0;
  h->ss_floor = 0;
  h->st.mem_peak = h->fixed_bytes;
  hl_set_tau (h, 1);
}

struct hotlist *
hl_create (const struct hl_config *c)
{
  if (c == NULL || c->mem_bytes < HL_MIN_BYTES || c->max_len == 0
      || (c->policy != HL_CONCISE && c->policy != HL_SPACE_SAVING
          && c->policy != HL_COUNTING)
      || (c->encoding != HL_ENC_SEQUENCE && c->encoding != HL_ENC_XOR
          && c->encoding != HL_ENC_ROTATION)
      || c->mem_bytes / 8 > UINT32_MAX)
    {
      errno = EINVAL;
      return NULL;
    }
  /* malloc, not mmap: one block of exactly the bound, which also lets
     AddressSanitizer check that nothing strays outside it. */
  uint64_t *words = malloc (c->mem_bytes);
  if (words == NULL)
    {
      errno = ENOMEM;
      return NULL;
    }
  struct hotlist *h = (struct hotlist *) words;
  memset (h, 0, sizeof *h);
  if (pthread_mutex_init (&h->lock, NULL) != 0)
    {
      free (words);
      errno = ENOMEM;
      return NULL;
    }
  h->cfg = *c;
  h->words = words;
  size_t total_words = c->mem_bytes / 8;
  size_t nb = 16;
  while (nb * 2 <= c->mem_bytes / 64)
    nb *= 2;
  size_t head_words = (sizeof *h + 7) / 8;
  h->buckets = (uint32_t *) (words + head_words);
  h->bucket_mask = (uint32_t) (nb - 1);
  h->arena_lo = (uint32_t) (head_words + (nb * 4 + 7) / 8);
  h->arena_hi = (uint32_t) total_words;
  h->fixed_bytes = (size_t) h->arena_lo * 8;
  h->cap_bytes = (size_t) (h->arena_hi - h->arena_lo) * 8;
  if (c->max_gain && c->policy == HL_CONCISE)
    h->max_sample = (uint64_t) c->max_gain
                    * (h->cap_bytes / hl_need (h, c->max_len) + 1);
  hl_seed (h, c->seed);
  hl_clear (h);
  return h;
}

void
hl_destroy (struct hotlist *h)
{
  if (h == NULL)
    return;
  pthread_mutex_destroy (&h->lock);
  free (h->words);
}

/* Whether an offer that already passed the admission coin at cut PASSED
   (UINT64_MAX: no coin yet) passes the rest of it now: with probability
   admit_cut / PASSED, as if it had been admitted at PASSED and thinned at
   every raise since.  A cut above PASSED (the table was reset since) lets
   it pass. */
static int
hl_admits (struct hotlist *h, uint64_t passed)
{
  if (h->admit_cut >= passed)
    return 1;
  if (passed == UINT64_MAX)
    return hl_next (h) < h->admit_cut;
  return hl_unif (h) * (double) passed < (double) h->admit_cut;
}

/* hl_offer_passed under the lock. */
static void
hl_offer_locked (struct hotlist *h, const uint32_t *blocks, uint32_t len,
                 uint64_t passed)
{
  h->st.offered++;
  if (len == 0)
    return;
  if (len > h->cfg.max_len || hl_need (h, len) > h->cap_bytes)
    {
      h->st.too_long++;
      return;
    }
  int concise = h->cfg.policy == HL_CONCISE;
  int counting = h->cfg.policy == HL_COUNTING;
  /* The coin comes first, so a rejected offer costs O(1) whatever LEN. */
  if (concise && !hl_admits (h, passed))
    return;
  if (!counting)
    h->st.admitted++;

  uint32_t r = h->cfg.encoding == HL_ENC_ROTATION
                   ? hl_least_rotation (blocks, len) : 0;
  uint32_t key = hl_key (h, blocks, len, r);
  for (uint32_t off = h->buckets[hl_bucket (h, key, len)]; off;)
    {
      struct hl_rec *x = REC (h, off);
      if (hl_same (h, x, key, blocks, len, r))
        {
          /* Counting samples: an entry counts every later offer of its
             subpath, without a coin. */
          x->count++;
          h->st.sample_size++;
          if (counting)
            h->st.admitted++;
          else if (!concise)
            hl_sift_down (h, x->heap);
          else
            hl_bound_sample (h);
          return;
        }
      off = x->next;
    }

  size_t need = hl_need (h, len);
  if (counting)
    {
      /* A new subpath gets in with probability 1/tau (the coin after the
         look-up: only absent subpaths flip it). */
      if (!hl_admits (h, UINT64_MAX))
        return;
      h->st.admitted++;
      if (h->cap_bytes - h->live_bytes < need && !hl_make_room (h, len))
        return;
      hl_insert (h, blocks, len, r, key, 1, 0, 0, 0);
    }
  else if (concise)
    {
      if (h->cap_bytes - h->live_bytes < need && !hl_make_room (h, len))
        return;
      hl_insert (h, blocks, len, r, key, 1, 0, 0, 0);
      hl_bound_sample (h);
    }
  else
    {
      /* A full table stays full, so without slot reuse every miss would
         compact the whole arena.  Reuse the biggest evicted slot if the
         new record fits in it (always when sizes are equal). */
      uint32_t slot = 0, slot_words = 0;
      while (h->cap_bytes - h->live_bytes < need)
        {
          uint32_t off = hl_evict_min (h);
          if (hl_size (REC (h, off)) > slot_words)
            slot = off, slot_words = hl_size (REC (h, off));
        }
      struct hl_rec *x = hl_insert (h, blocks, len, r, key, h->ss_floor + 1,
                                    h->ss_floor, slot, slot_words);
      uint32_t i = h->nheap++;
      hl_heap_set (h, i, (uint32_t) ((uint64_t *) x - h->words));
      hl_sift_up (h, i);
    }
  size_t used = h->fixed_bytes + h->live_bytes;
  if (used > h->st.mem_peak)
    h->st.mem_peak = used;
}

void
hl_offer (struct hotlist *h, const uint32_t *blocks, uint32_t len)
{
  hl_offer_passed (h, blocks, len, UINT64_MAX);
}

void
hl_offer_passed (struct hotlist *h, const uint32_t *blocks, uint32_t len,
                 uint64_t cut)
{
  pthread_mutex_lock (&h->lock);
  hl_offer_locked (h, blocks, len, cut);
  pthread_mutex_unlock (&h->lock);
}

uint64_t
hl_admit_cut (const struct hotlist *h)
{
  /* Counting samples must see every offer: one of an entry already in
     the table is counted whatever the threshold. */
  if (h->cfg.policy == HL_COUNTING)
    return UINT64_MAX;
  return __atomic_load_n (&h->admit_cut, __ATOMIC_RELAXED);
}

void
hl_reset (struct hotlist *h)
{
  pthread_mutex_lock (&h->lock);
  hl_clear (h);
  /* A forked child must not replay its parent's coins: reseed from the
     stream (deterministic, but decorrelated from the parent's future). */
  hl_seed (h, hl_next (h));
  pthread_mutex_unlock (&h->lock);
}

void
hl_foreach (struct hotlist *h,
            void (*fn) (const struct hl_item *it, void *arg), void *arg)
{
  pthread_mutex_lock (&h->lock);
  for (uint32_t off = h->arena_lo; off < h->top;)
    {
      struct hl_rec *r = REC (h, off);
      off += hl_size (r);
      if (r->count & HL_DEAD)
        continue;
      struct hl_item it = { .count = r->count, .error = r->error,
                            .len = r->len, .blocks = r->blocks };
      fn (&it, arg);
    }
  pthread_mutex_unlock (&h->lock);
}

void
hl_get_stats (struct hotlist *h, struct hl_stats *s)
{
  pthread_mutex_lock (&h->lock);
  *s = h->st;
  s->threshold = h->tau;
  s->mem_used = h->fixed_bytes + h->live_bytes;
  if (s->mem_peak < s->mem_used)
    s->mem_peak = s->mem_used;
  s->mem_bytes = h->cfg.mem_bytes;
  pthread_mutex_unlock (&h->lock);
}

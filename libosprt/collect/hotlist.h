/* SPDX-License-Identifier: MIT */
/* hotlist.h - the bounded table of sampled subpaths (OSP paper, section 2.3).
 *
 * The sampler (sampler.c) hands over every sampled subpath as a sequence of
 * global block ids.  The hot-list keeps a histogram of them under a memory
 * bound given in bytes that covers everything it allocates (entries, hash
 * index and the stored sequences):
 *
 *   HL_CONCISE        Gibbons-Matias concise samples: each offered subpath is
 *                     admitted with probability 1/threshold; when the bound is
 *                     reached, the threshold is raised and every entry's count
 *                     is thinned binomially (each unit survives with
 *                     probability old/new), so the kept histogram stays a
 *                     uniform sample of everything offered so far.  Amortised
 *                     O(1) per offered block.  count * threshold estimates the
 *                     number of offers of a subpath.  With max_gain
 *                     G, the threshold is also raised whenever the sample
 *                     holds more than G x m points, m the entries of
 *                     max_len the bound holds (or the entries it holds,
 *                     if more: shorter ones): the OSP paper's sample of
 *                     m x G (section 2.3, equation 1; G is its "gain", the
 *                     average count of an entry), past which more samples
 *                     narrow the intervals little and cost as much.
 *   HL_COUNTING       Gibbons-Matias counting samples: a
 *                     subpath already in the table counts every later
 *                     offer, without a coin; a new one is admitted with
 *                     probability 1/threshold.  When the bound is reached
 *                     the threshold is raised and each entry gives back the
 *                     offers it would not have counted had the new
 *                     threshold been in force all along (its first counted
 *                     offer with probability 1 - old/new, then each next one
 *                     until a 1/new coin passes).  count + threshold - 1
 *                     estimates the offers of an entry; its error does not
 *                     grow with the count, so a hot entry's relative error
 *                     falls as the run goes on.  No gain limit, and
 *                     hl_admit_cut is UINT64_MAX: every offer must be seen.
 *   HL_SPACE_SAVING   Metwally et al. (the default: doc/ACCURACY.md,
 *                     "Precision with run length"): a fixed number of counters (as many as
 *                     fit in the bound); an unknown subpath replaces the
 *                     entry with the smallest count and inherits it as its
 *                     error (with unequal lengths: the smallest entries are
 *                     evicted until it fits, and it inherits the largest
 *                     count ever evicted).  count - error <= offers <= count.
 *                     threshold stays 1.
 *
 * Identity (HL_ENC_*): with HL_ENC_SEQUENCE every distinct block sequence is
 * its own entry - the hash only finds candidates, the stored sequences are
 * compared, so different sequences are never merged.  HL_ENC_XOR is the
 * paper's prototype encoding (length + xor of the block ids): sequences with
 * the same length and the same multiset parity collide on purpose.
 * HL_ENC_ROTATION groups the rotations of a sequence (a loop's subpath counts
 * the same whichever iteration point it starts at): the key is the
 * lexicographically least rotation.  For XOR and ROTATION the stored
 * sequence is the first one seen (XOR) or the least rotation (ROTATION).
 *
 * Thread safety: every function may be called from any thread; the table
 * has its own mutex, held for the whole call.  hl_offer never allocates
 * (the whole bound is one block reserved at creation), so it is safe on any
 * program thread; but an admitted offer costs O(len) and sometimes a
 * resampling pass, so callers buffer samples per thread and flush them in
 * batches rather than calling it per block.
 *
 * Costs: a concise offer rejected by the coin is O(1); an admitted one
 * O(len) plus amortised O(1) per block for resampling and compaction.
 * Space-Saving: O(len + log entries) per offer, plus a compaction of the
 * bound when a longer subpath replaces shorter ones.
 */
#ifndef OSP_HOTLIST_H
#define OSP_HOTLIST_H

#include <stddef.h>
#include <stdint.h>

#include "model/hlenums.h"

struct hl_config
{
  size_t mem_bytes;          /* the whole bound, >= HL_MIN_BYTES */
  uint32_t max_len;          /* longest sequence that will be offered */
  enum hl_policy policy;
  enum hl_encoding encoding;
  uint64_t seed;             /* for the admission and thinning coins */
  uint32_t max_gain;         /* concise: 0, or G: the threshold is also
                                raised whenever the sample size passes G
                                times the number of max_len entries the
                                bound holds, or of its entries if more
                                (below) */
};

/* HL_MIN_BYTES: model/hlenums.h (the options check it). */

struct hotlist;

/* NULL (and errno EINVAL or ENOMEM) if the configuration is invalid or the
   memory cannot be reserved.  A sequence longer than max_len or than fits
   in the bound is counted in stats.too_long and otherwise ignored. */
struct hotlist *hl_create (const struct hl_config *c);
void hl_destroy (struct hotlist *h);

/* Offer one sampled subpath of LEN >= 1 block ids (LEN == 0 is only
   counted in offered). */
void hl_offer (struct hotlist *h, const uint32_t *blocks, uint32_t len);

/* The admission coin, for a caller that flips it before it collects a
   subpath (sampler.c), so that one turned away costs nothing more: an
   offer passes when a uniform 64-bit number is below the cut, 2^64 / the
   threshold (UINT64_MAX: every offer passes, as always under
   space-saving).  Read without the lock: a raise may follow at once, and
   hl_offer_passed accounts for it. */
uint64_t hl_admit_cut (const struct hotlist *h);

/* hl_offer for a subpath that passed the caller's coin at CUT, a value of
   hl_admit_cut: if the threshold has risen since, it passes the rest of
   the coin (probability the cut now / CUT), as if it had been admitted at
   CUT and thinned at every raise since, and the table stays a uniform
   sample of all offers (those the caller turned away included; they are
   not counted in stats.offered).  hl_offer is CUT = UINT64_MAX. */
void hl_offer_passed (struct hotlist *h, const uint32_t *blocks,
                      uint32_t len, uint64_t cut);

/* Forget everything, keep the configuration (a forked child: the caller
   makes sure no other thread was inside the hot-list at fork, e.g. by
   holding its own lock across fork).  The coin stream is reseeded from its
   current state, so the child does not replay its parent's coins. */
void hl_reset (struct hotlist *h);

struct hl_item
{
  uint64_t count;          /* kept samples (concise), offers counted since
                              admission (counting) or counter
                              (space-saving) */
  uint64_t error;          /* space-saving over-estimation bound; 0 for concise */
  uint32_t len;
  const uint32_t *blocks;  /* valid only during the hl_foreach callback */
};

struct hl_stats
{
  uint64_t offered;        /* hl_offer and hl_offer_passed calls */
  uint64_t admitted;       /* offers that passed the threshold coin
                              (counting: or were counted by an entry) */
  uint64_t entries;        /* distinct entries now */
  uint64_t sample_size;    /* sum of counts now */
  double threshold;        /* >= 1; admission probability is 1/threshold */
  uint64_t resamples;      /* threshold raises (concise, counting) */
  uint64_t evictions;      /* entries removed by thinning or replacement */
  uint64_t too_long;       /* offers whose sequence could never fit */
  size_t mem_used;         /* bytes of the bound in use now */
  size_t mem_peak;         /* the most ever in use; never above mem_bytes */
  size_t mem_bytes;        /* the bound */
};

/* Call FN for every entry, under the table's lock (FN must not call back
   into the hot-list).  The order is unspecified. */
void hl_foreach (struct hotlist *h,
                 void (*fn) (const struct hl_item *it, void *arg), void *arg);
void hl_get_stats (struct hotlist *h, struct hl_stats *s);

#endif /* OSP_HOTLIST_H */

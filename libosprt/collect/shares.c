/* SPDX-License-Identifier: MIT */
/* shares.c - which subpaths are ranked, and what their shares mean.
 *
 * Ranked or not.  An entry whose 95% interval is wider than its estimate
 * (err95 > N) rests on a sample or two: its interval reaches below zero,
 * so the data cannot tell it from a subpath that never ran.  Sorted by
 * the low end of the interval (estimate.c) such entries already come
 * last, but sorted by estimate or share (ospview) a single sample of a
 * length-512 subpath, its estimate cut to the whole run, came first.  So
 * they are not ranked: after the ranked entries, marked (the report's
 * "too few samples" group, rank `-' in the tsv, ospview's `few' rows),
 * and no sort key puts them above a ranked one.  Exact counts (err95 = 0)
 * are always ranked.
 *
 * Shares.  Subpaths of different lengths do not add up (a loop's
 * length-2 and length-8 subpaths cover the same blocks), so a share is
 * taken within a length class: N / W(L), W(L) = blocks_seen - L + 1 the
 * subpaths of length L the run had (one thread: exact; T threads have
 * T(L - 1) fewer, negligible for L much shorter than the run).  The
 * distinct subpaths of one length are disjoint, so their shares add up to
 * 100% (exact mode, a table that did not fill: exactly).  Estimates are
 * noisy and cut, so a class's entries may be estimated to more than W(L)
 * together: their shares are then of their own sum instead, which keeps
 * every class at most 100%, and the report says what the listed rows of
 * each class leave to the rest ("other").
 */
#include "collect/collect.h"

#include <string.h>

int
osp_few (double estimate, double err95)
{
  return err95 > estimate;
}

int
osp_subpath_few (const struct osp_subpath *s)
{
  return osp_few (s->estimate, s->err95);
}

void
osp_subpaths_settle (struct osp_subpath *subs, size_t n, uint64_t blocks_seen)
{
  if (n == 0) /* (subs may be NULL then) */
    return;
  /* class sums by exponent: lengths are powers of two 2..2^16 */
  double sum[32];
  memset (sum, 0, sizeof sum);
  for (size_t i = 0; i < n; i++)
    sum[osp_subpath_class (subs[i].len)] += subs[i].estimate;
  for (size_t i = 0; i < n; i++)
    {
      struct osp_subpath *s = &subs[i];
      double w = blocks_seen >= s->len ? (double) (blocks_seen - s->len + 1)
                                       : 0;
      double of = sum[osp_subpath_class (s->len)];
      if (w > of)
        of = w;
      s->share = of > 0 ? s->estimate / of : 0;
    }
}

unsigned
osp_subpath_class (uint32_t len)
{
  /* a length that is not a power of two (a view of another writer) still
     gets a class: its highest bit */
  return len ? 31u - (unsigned) __builtin_clz (len) : 0;
}

/* SPDX-License-Identifier: MIT */
/* workshare.h - the work share of a row: one rule for libosprt's reports
 * (output/report-*.c) and ospview's exports (viewer/export-json.c).
 *
 * A row's work is its count (estimate) times the sum of its blocks'
 * estimated costs.  Its share is of the whole its count share is of: a
 * subpath's of the subpaths of its length (collect/shares.c), a path's of
 * all path ends, a forest row's of all path ends counted in the forest.
 * Those wholes' work is not measured (a sampled run's blocks are not all
 * weighed), so it is taken from the rows themselves: rows covering a
 * fraction F of the whole's count (the sum of their count shares) with
 * work X stand for a whole of work X / F - the part not listed is taken
 * to cost per occurrence what the listed rows cost on average.  So the
 * work shares of a unit add up to its count shares' sum: 100% where the
 * rows cover it (mode=subpaths-exact, every path row), the listed part
 * of it elsewhere, never more.  Shares of one unit compare like with like
 * (a length-2 subpath's work with a length-2 subpath's): raw work of
 * subpaths of different lengths does not, a length-L window over a loop
 * weighing about L blocks.
 */
#ifndef OSP_WORKSHARE_H
#define OSP_WORKSHARE_H

#include <stdint.h>

/* The rows of one unit: their work and count shares (fractions) summed. */
struct osp_work_unit
{
  double work, share;
};

static inline void
osp_work_unit_add (struct osp_work_unit *u, double work, double share)
{
  u->work += work;
  u->share += share;
}

/* WORK's share of U's whole; 0 when U has no work.  Count shares that add
   up to nothing (a run of no blocks) leave the rows' own sum. */
static inline double
osp_work_share (const struct osp_work_unit *u, double work)
{
  double covered = u->share > 1 ? 1 : u->share;
  double whole = covered > 0 ? u->work / covered : u->work;
  return whole > 0 ? work / whole : 0;
}

/* The unit of a subpath of length LEN: its length class, the exponent of
   a power of two (the highest bit of another length), 0..31. */
static inline unsigned
osp_work_class (uint32_t len)
{
  return len ? 31u - (unsigned) __builtin_clz (len) : 0;
}

#endif /* OSP_WORKSHARE_H */

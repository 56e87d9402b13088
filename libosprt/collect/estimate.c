/* SPDX-License-Identifier: MIT */
/* estimate.c - what a count in the sample says about the whole run.
 *
 * The sampler (sampler.c) walks each thread's block stream: while not
 * sampling, every block independently starts a sample with probability
 * p = 1/interval (geometric skips); a started sample has length L = 2^e,
 * min_length <= L <= max_length, drawn independently with probability
 * P(L) (the length bias below), and is the block that started it and the
 * next L-1 blocks of the thread.  Neither choice looks at the program, so
 *
 *   q = starts / blocks_seen
 *
 * estimates the probability that a given position of the stream starts a
 * sample (positions inside a sample cannot start one, so q is a little
 * below p; measuring it instead of assuming p accounts for that exactly).
 * starts includes the samples the hot-list's coin turned away at their
 * first block (sampler.c): that coin is the table's 1/tau below.  When
 * the sampler stretches its skips by W (it does not draw what the
 * tables would turn away), a start counts W: it stands for the starts at
 * rate p that the coins would have declined, and starts / blocks_seen
 * still estimates q (its noise, 1/sqrt of the starts drawn, stays below
 * the counts').
 * An occurrence of subpath S of length L at some position is offered to
 * the hot-list with probability q * P(L).  The hot-list table of S's
 * length class (sampler.c stratifies by length) keeps count c under its
 * threshold tau (concise samples: each offer is kept with probability
 * 1/tau, thinning keeps that true), so c * tau estimates the offers and
 *
 *   N = c * tau / (q * P(L))
 *
 * estimates the occurrences of S.  Offers of one subpath are a thinned
 * point process, so c is close to Poisson and the 95% interval is
 *
 *   N +/- 1.96 * sqrt(c) * tau / (q * P(L)).
 *
 * Counting samples (the default policy; hotlist.c) keep, for a subpath
 * offered O times, count c = O - M, where M, the offers before the one
 * that got it in, is Geometric(1/tau) (truncated at O; Gibbons and Matias,
 * counting samples: after every raise the table is as if tau had been the
 * threshold from the start).  E[M] = tau - 1, so
 *
 *   N = (c + tau - 1) / (q * P(L)).
 *
 * Two independent errors: the offers themselves (Poisson, variance about
 * c + tau - 1) and M (variance tau (tau - 1), skewed: its 97.5% quantile
 * is ln 0.025 / ln (1 - 1/tau), about 3.69 tau, g = that minus the mean
 * is about 2.69 tau, and the lower side, the mean minus the 2.5%
 * quantile, is below tau).  The interval takes the larger side of M and
 * adds the two 95% half-widths in quadrature:
 *
 *   err95 = sqrt (1.96^2 (c + tau - 1) + g^2) / (q * P(L)).
 *
 * The first term falls as 1/sqrt(c) relative to N, the second is about
 * 2.7 tau / c: a subpath that keeps running is measured more precisely the
 * longer the run, down to the floor its table's threshold sets (tau grows
 * only as fast as the counts of the entries the bound can no longer
 * hold).  Concise samples' 1.96 sqrt(c) tau is the square root of that
 * floor, and stays there.  (doc/ACCURACY.md has the measurements.)
 *
 * Space-saving (tau = 1) bounds the offers between c - error and c; we
 * report the middle of that range, N = (c - error/2) / (q * P(L)), and as
 * error half its width plus the same Poisson term:
 *   err95 = (error/2 + 1.96 * sqrt(c)) / (q * P(L)).
 * Exact mode: N = c, err95 = 0.
 *
 * share = N / blocks_seen: a thread of n blocks has n - L + 1 subpaths of
 * length L, so for L much smaller than the run this is the fraction of
 * all subpaths of that length that are S.
 *
 * So no subpath of length L occurs more than blocks_seen - L + 1 times,
 * and N is cut to that.  Only long subpaths sampled once or twice exceed
 * it, their P(L) being tiny under the geometric bias: on a run of 90,006
 * blocks one sample of length 1024 stood for 1,023,068 occurrences, a
 * share of 1137%.  The cut only moves N toward the truth; err95 stays the
 * spread of the uncut estimator (the interval is wide, and says so).
 *
 * Not covered by the interval: the uncertainty of q (from counts of
 * millions, negligible), samples still queued in other threads at report
 * time (at most 64 per thread), and samples cut by a thread's end.
 */
#include "collect/collect.h"

#include <string.h>

/* Weight of exponent E (length 2^E) under bias B. */
static double
weight (enum osp_bias b, unsigned e)
{
  switch (b)
    {
    case OSP_BIAS_UNIFORM:
      return 1.0;
    case OSP_BIAS_LONG:
      return (double) e; /* proportional to n for length 2^n */
    case OSP_BIAS_GEOMETRIC:
    default:
      return osp_pow2 (-(int) e); /* 2^n with probability ~ 2^-n */
    }
}

static unsigned
log2u (uint32_t v)
{
  return 31u - (unsigned) __builtin_clz (v);
}

double
osp_length_prob (const struct osp_options *o, uint32_t len)
{
  if (len == 0 || (len & (len - 1)) != 0 || len < o->min_length
      || len > o->max_length)
    return 0.0;
  double sum = 0;
  for (unsigned e = log2u (o->min_length); e <= log2u (o->max_length); e++)
    sum += weight (o->length_bias, e);
  return weight (o->length_bias, log2u (len)) / sum;
}

void
osp_estimate (struct osp_subpath *s, const struct osp_options *o,
              double threshold, uint64_t blocks_seen, uint64_t starts,
              enum osp_est_kind kind)
{
  double c = (double) s->count;
  s->kind = kind;
  s->scale = 0;
  if (kind == OSP_EST_EXACT)
    {
      s->estimate = c;
      s->err95 = 0;
    }
  else
    {
      double q = blocks_seen ? (double) starts / (double) blocks_seen : 0;
      double pl = osp_length_prob (o, s->len);
      double scale = q > 0 && pl > 0 ? threshold / (q * pl) : 0;
      s->scale = q > 0 && pl > 0 ? 1 / (q * pl) : 0;
      if (kind == OSP_EST_COUNTING)
        {
          /* Offers before the one that got the subpath in: geometric,
             mean tau - 1; its 97.5% quantile is ln 0.025 / ln (1 -
             1/tau), and the spread above the mean is the larger side
             (see the header comment). */
          double m = threshold > 1 ? threshold - 1 : 0;
          double g = threshold > 1
                         ? -3.6888794541139363 / osp_ln1m (1 / threshold) - m
                         : 0;
          double poisson = 1.96 * 1.96 * (c + m);
          s->estimate = (c + m) * scale / threshold;
          s->err95 = osp_sqrt (poisson + g * g) * scale / threshold;
        }
      else if (kind == OSP_EST_SPACE_SAVING)
        {
          double half = (double) s->error / 2;
          s->estimate = (c - half) * scale;
          s->err95 = (half + 1.96 * osp_sqrt (c)) * scale;
        }
      else
        {
          s->estimate = c * scale;
          s->err95 = 1.96 * osp_sqrt (c) * scale;
        }
      double most = blocks_seen >= s->len
                        ? (double) (blocks_seen - s->len + 1) : 0;
      if (s->estimate > most)
        s->estimate = most;
    }
  s->share = blocks_seen ? s->estimate / (double) blocks_seen : 0;
}

/* Ranking: by the low end of the 95% interval, max (0, N - err95), then
 * by N.  Ranking by N alone puts on top the long subpaths sampled once:
 * P(1024) is tiny under the geometric bias, so one sample of a length-1024
 * path scales to an estimate of ~1e5 with an error just as large (on
 * examples/demo.c the whole top 20 was such entries).  The low end ranks
 * what is hot with confidence; in exact mode (err95 = 0) it is N itself. */
static double
low_end (double estimate, double err95)
{
  double l = estimate - err95;
  return l > 0 ? l : 0;
}

/* The ranking's first two keys, descending: -1, 0 or 1 as for qsort. */
static int
by_interval (double est_x, double err_x, double est_y, double err_y)
{
  double lx = low_end (est_x, err_x), ly = low_end (est_y, err_y);
  if (lx != ly)
    return lx < ly ? 1 : -1;
  if (est_x != est_y)
    return est_x < est_y ? 1 : -1;
  return 0;
}

/* Rows too uncertain to rank (shares.c: err95 > N) come after every
   ranked one whatever their estimates: their low end is 0 like that of a
   ranked row whose interval just reaches 0, and the estimate, the next
   key, would put a long subpath sampled once first among those. */
static int
by_few (int few_x, int few_y)
{
  return few_x == few_y ? 0 : few_x ? 1 : -1;
}

int
osp_subpath_cmp (const void *a, const void *b)
{
  const struct osp_subpath *x = a, *y = b;
  int c = by_few (osp_subpath_few (x), osp_subpath_few (y));
  if (c != 0)
    return c;
  c = by_interval (x->estimate, x->err95, y->estimate, y->err95);
  if (c != 0)
    return c;
  if (x->len != y->len)
    return x->len < y->len ? -1 : 1;
  for (uint32_t i = 0; i < x->len; i++)
    if (x->blocks[i] != y->blocks[i])
      return x->blocks[i] < y->blocks[i] ? -1 : 1;
  return 0;
}

/* ---- Ball-Larus path samples -------------------------------------------
 * paths=counter samples every path end independently with probability
 * p = 1/path_interval (pathsample.c: geometric countdowns), so the samples
 * s of a path that ran N times are binomial(N, p), close to Poisson: the
 * estimate is N = s / p = s x path_interval, with the 95% interval
 * N +/- 1.96 sqrt (s) / p.  (Samples still in other threads' batches at
 * report time, at most 64 per thread, are not in s.)  exhaustive records
 * every path end: N = s exactly.  timer samples bursts after timer ticks:
 * how many path ends a sample stands for is not known, so N = s with the
 * same Poisson spread, in samples, not in counts.  A row read from a
 * function's inline counters (pathprof.c: a function without loops the plugin counts, or one
 * built with instrument=counts alone) is exact in every policy that
 * reports it: N = count, err95 = 0.  share = N / the sum of all estimates
 * (pathprof.c): the fraction of all recorded path ends.  Ranking is the
 * subpaths' rule (rows with too few samples last: one sample or two of
 * counter or timer, 1.96 sqrt (s) > s; then the low end of the interval,
 * then the estimate), then function id and path id, so equal runs give
 * identical reports. */
void
osp_path_estimate (struct osp_path_row *r, enum osp_path_policy policy,
                   double scale)
{
  double s = (double) r->samples;
  if (r->exact)
    scale = 1;
  r->estimate = s * scale;
  r->err95 = policy == OSP_PATHS_EXHAUSTIVE || r->exact
                 ? 0
                 : 1.96 * osp_sqrt (s) * scale;
}

int
osp_path_row_cmp (const void *a, const void *b)
{
  const struct osp_path_row *x = a, *y = b;
  int c = by_few (osp_few (x->estimate, x->err95),
                  osp_few (y->estimate, y->err95));
  if (c != 0)
    return c;
  c = by_interval (x->estimate, x->err95, y->estimate, y->err95);
  if (c != 0)
    return c;
  if (x->fi != y->fi) /* fns are in id order */
    return x->fi < y->fi ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

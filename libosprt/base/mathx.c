/* SPDX-License-Identifier: MIT */
/* mathx.c - the arithmetic of estimates, without libm.
 *
 * Natural log, ln (1 - p), square root, powers of two and percentages:
 * what the samplers' draws and the estimators (collect/estimate.c) need,
 * pure functions with no state.
 */
#include "base/base.h"

#include <string.h>

/* ---- libm-free math ---------------------------------------------------
 * The runtime does not link libm: a static libosprt.a would otherwise need
 * -lm on every link line of every instrumented program.  Both are exact
 * to a few ulps, far below what a sampler or an interval needs. */

/* 2^E as a double, |E| < 1000. */
double
osp_pow2 (int e)
{
  double r = 1;
  double b = e < 0 ? 0.5 : 2;
  for (int i = e < 0 ? -e : e; i > 0; i--)
    r *= b;
  return r;
}

/* 1/(2i+1), i = 0..11: the atanh series' coefficients. */
static const double inv_odd[12] = {
  1.0, 1.0 / 3, 1.0 / 5, 1.0 / 7, 1.0 / 9, 1.0 / 11,
  1.0 / 13, 1.0 / 15, 1.0 / 17, 1.0 / 19, 1.0 / 21, 1.0 / 23
};

/* The samplers draw a logarithm for every skip, so this is on the hot side
   of a sample (it was 1-3% of a sampled run as a loop of halvings and a
   20-term series): the exponent comes from the bits, and 12 terms suffice
   since |s| <= 0.1716 leaves s^24 / 25 below 1e-19. */
double
osp_ln (double x)
{
  if (!(x > 0))
    return -1e308;
  if (x > 1.7976931348623157e308)
    return x; /* +inf */
  int adjust = 0;
  if (x < 2.2250738585072014e-308)
    {
      x *= 18014398509481984.0; /* 2^54: subnormals become normal */
      adjust = -54;
    }
  /* x = m * 2^e with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh s. */
  uint64_t bits;
  memcpy (&bits, &x, sizeof bits);
  int e = (int) ((bits >> 52) & 0x7ff) - 1023 + adjust;
  bits = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
  memcpy (&x, &bits, sizeof x); /* in [1, 2) */
  if (x >= 1.4142135623730951)
    {
      x *= 0.5;
      e++;
    }
  double s = (x - 1) / (x + 1), s2 = s * s, sum = 0;
  /* Unrolled: every skip the sampler draws takes a logarithm. */
#pragma GCC unroll 12
  for (int i = 11; i >= 0; i--)
    sum = sum * s2 + inv_odd[i];
  return 2 * s * sum + e * 0.6931471805599453;
}

double
osp_ln1m (double p)
{
  if (p >= 0.01)
    return osp_ln (1 - p);
  /* -(p + p^2/2 + p^3/3 + ...): no cancellation for tiny p. */
  double sum = 0, term = p;
  for (int k = 1; k < 30; k++)
    {
      sum += term / k;
      term *= p;
    }
  return -sum;
}

double
osp_sqrt (double x)
{
  if (!(x > 0))
    return 0;
  double scale = 1;
  while (x > 4)
    {
      x *= 0.25;
      scale *= 2;
    }
  while (x < 0.25)
    {
      x *= 4;
      scale *= 0.5;
    }
  double r = 2; /* Newton from above sqrt (x) <= 2: monotone */
  for (int i = 0; i < 64; i++)
    {
      double n = 0.5 * (r + x / r);
      if (n >= r)
        break;
      r = n;
    }
  return r * scale;
}

double
osp_share (uint64_t x, uint64_t total)
{
  return total ? 100.0 * (double) x / (double) total : 0.0;
}

/*
 * montecarlo.c - Monte Carlo simulation benchmark for osp.
 *
 * Kernels: (1) Monte Carlo option pricing: geometric Brownian motion paths
 * of a stock price are simulated step by step with normal variates from
 * the Marsaglia polar method (a rejection loop); each path pays a European
 * call and an up-and-out barrier call (knocked out when the path crosses
 * the barrier at a monitoring step).  (2) Estimation of pi by counting
 * integer random points inside the quarter circle.  All random numbers
 * come from a fixed-seed xorshift64* generator.  This is the MonteCarlo
 * kernel of the Java Grande Forum benchmark suite, section 2 (one of the
 * kernels measured in the evaluation of the OSP paper; the JGF version also
 * prices by simulating price paths), written from scratch in C for this
 * project.
 *
 * Sizes:   default  700000 paths x 250 steps, 2e8 points for pi
 *          small     20000 paths x  50 steps, 4e6 points for pi
 *
 * Check:   the European price must agree with the Black-Scholes formula
 *          within 4 standard errors of the estimate; the barrier price
 *          must be positive and not above the European price; the pi
 *          estimate must lie within 4 standard errors of pi.  The checksum
 *          digests the integer counts (points inside the circle, paths in
 *          the money, paths knocked out) and the two prices rounded to
 *          1e-4, values that do not depend on -O level or FMA contraction.
 *
 * Usage:   montecarlo [small|default]
 * Output:  "montecarlo SIZE ok checksum=HEX" (exit 0) or
 *          "montecarlo SIZE FAILED: why" (exit 1); a bad argument gives a
 *          usage line on stderr (exit 2).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bench.h"

#define MC_PI 3.14159265358979323846

/* Random number generator: xorshift64* plus the spare normal variate of
   the polar method. */
struct mc_rng {
  uint64_t state;
  int have_spare;
  double spare;
};

uint64_t mc_next(struct mc_rng *g)
{
  return bench_xorshift64s(&g->state);
}

/* Uniform in [0, 1). */
double mc_uniform(struct mc_rng *g)
{
  return bench_unit(mc_next(g));
}

/* Standard normal variate, Marsaglia polar method. */
double mc_normal(struct mc_rng *g)
{
  if (g->have_spare) {
    g->have_spare = 0;
    return g->spare;
  }
  double u, v, s;
  do {
    u = 2.0 * mc_uniform(g) - 1.0;
    v = 2.0 * mc_uniform(g) - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  double f = sqrt(-2.0 * log(s) / s);
  g->spare = v * f;
  g->have_spare = 1;
  return u * f;
}

struct mc_option {
  double s0, strike, barrier, rate, sigma, maturity;
  int steps;
};

struct mc_result {
  double euro_sum, euro_sumsq, barrier_sum;
  uint64_t in_money, knocked_out;
};

/* Simulate one path; returns log(S_T / S0) and sets *CROSSED when the
   price reached the barrier at some monitoring step. */
double mc_path(struct mc_rng *g, const struct mc_option *opt, double drift, double vol, double log_barrier, int *crossed)
{
  double x = 0.0;
  *crossed = 0;
  for (int k = 0; k < opt->steps; k++) {
    x += drift + vol * mc_normal(g);
    if (x >= log_barrier)
      *crossed = 1;
  }
  return x;
}

void mc_price(struct mc_rng *g, const struct mc_option *opt, long paths, struct mc_result *res)
{
  double dt = opt->maturity / opt->steps;
  double drift = (opt->rate - 0.5 * opt->sigma * opt->sigma) * dt;
  double vol = opt->sigma * sqrt(dt);
  double log_barrier = log(opt->barrier / opt->s0);
  memset(res, 0, sizeof *res);
  for (long p = 0; p < paths; p++) {
    int crossed;
    double x = mc_path(g, opt, drift, vol, log_barrier, &crossed);
    double st = opt->s0 * exp(x);
    double payoff = 0.0;
    if (st > opt->strike) {
      payoff = st - opt->strike;
      res->in_money++;
    }
    res->euro_sum += payoff;
    res->euro_sumsq += payoff * payoff;
    if (crossed)
      res->knocked_out++;
    else
      res->barrier_sum += payoff;
  }
}

/* Black-Scholes price of a European call. */
double mc_black_scholes(const struct mc_option *opt)
{
  double sq = opt->sigma * sqrt(opt->maturity);
  double d1 = (log(opt->s0 / opt->strike) + (opt->rate + 0.5 * opt->sigma * opt->sigma) * opt->maturity) / sq;
  double d2 = d1 - sq;
  double n1 = 0.5 * erfc(-d1 / sqrt(2.0));
  double n2 = 0.5 * erfc(-d2 / sqrt(2.0));
  return opt->s0 * n1 - opt->strike * exp(-opt->rate * opt->maturity) * n2;
}

/* Count integer points (x, y) in [0, 2^31)^2 with x^2 + y^2 < 2^62. */
uint64_t mc_pi_hits(struct mc_rng *g, long points)
{
  const uint64_t r2 = (uint64_t)1 << 62;
  uint64_t hits = 0;
  for (long i = 0; i < points; i++) {
    uint64_t r = mc_next(g);
    uint64_t x = r >> 33;
    uint64_t y = r & 0x7FFFFFFFULL;
    if (x * x + y * y < r2)
      hits++;
  }
  return hits;
}

int main(int argc, char **argv)
{
  long paths = 700000, points = 200000000;
  int steps = 250;

  if (bench_init(argc, argv, "montecarlo")) {
    paths = 20000;
    steps = 50;
    points = 4000000;
  }

  struct mc_rng g = { 0x853C49E6748FEA9BULL, 0, 0.0 };
  struct mc_option opt = { 100.0, 100.0, 140.0, 0.05, 0.2, 1.0, steps };
  struct mc_result res;

  mc_price(&g, &opt, paths, &res);
  double disc = exp(-opt.rate * opt.maturity);
  double mean = res.euro_sum / paths;
  double var = res.euro_sumsq / paths - mean * mean;
  double euro = disc * mean;
  double stderr_euro = disc * sqrt(var / paths);
  double barrier = disc * res.barrier_sum / paths;
  double exact = mc_black_scholes(&opt);
  if (!(fabs(euro - exact) < 4.0 * stderr_euro))
    bench_fail("European price differs from Black-Scholes");
  if (!(barrier > 0.0 && barrier <= euro))
    bench_fail("barrier price not in (0, European price]");
  if (res.knocked_out == 0 || res.knocked_out >= (uint64_t)paths)
    bench_fail("no path or every path knocked out");

  uint64_t hits = mc_pi_hits(&g, points);
  double p = (double)hits / points;
  double pi_est = 4.0 * p;
  double pi_err = 4.0 * sqrt(p * (1.0 - p) / points);
  if (!(fabs(pi_est - MC_PI) < 4.0 * pi_err))
    bench_fail("pi estimate outside 4 standard errors");

  uint64_t h = bench_mix(0, hits);
  h = bench_mix(h, res.in_money);
  h = bench_mix(h, res.knocked_out);
  h = bench_mix(h, (uint64_t)llround(euro * 1e4));
  h = bench_mix(h, (uint64_t)llround(barrier * 1e4));

  return bench_report(NULL, h);
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * fft.c - complex fast Fourier transform benchmark for osp.
 *
 * Kernel: an in-place, iterative, radix-2 complex FFT (Gold-Rader bit
 * reversal followed by log2(N) butterfly stages whose twiddle factors are
 * generated with a trigonometric recurrence), run forward and then inverse
 * on a pseudo-random complex signal, repeated.  This is the FFT kernel of
 * the Java Grande Forum benchmark suite, section 2 (one of the kernels
 * measured in the evaluation of the OSP paper), written from scratch in C
 * for this project.
 *
 * Sizes:   default  N = 2^18 complex points, 28 forward+inverse pairs
 *          small    N = 2^13 complex points, 16 forward+inverse pairs
 *
 * Check:   every repetition fills the signal with small integers
 *          (real and imaginary parts in [-1000, 1000]) from a fixed-seed
 *          xorshift64* generator, then checks that
 *            - DC bin of the forward transform equals the sum of the input,
 *            - Parseval holds: sum |X|^2 = N * sum |x|^2 (relative 1e-9),
 *            - the inverse transform recovers the input (max error 1e-6).
 *          The checksum digests the recovered (rounded) signal and a
 *          coarsely rounded sample of the spectrum (one bin in 64, in
 *          units of 4), so it does not depend on -O level or on FMA
 *          contraction.
 *
 * Usage:   fft [small|default]
 * Output:  "fft SIZE ok checksum=HEX" (exit 0) or "fft SIZE FAILED: why"
 *          (exit 1); a bad argument gives a usage line on stderr (exit 2).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "bench.h"

#define FFT_PI 3.14159265358979323846

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;

static uint64_t rng_next(void)
{
  return bench_xorshift64s(&rng_state);
}

/* Fill DATA (N interleaved complex values) with small random integers and
   keep a copy in ORIG. */
void fft_fill(double *data, double *orig, int n)
{
  for (int i = 0; i < 2 * n; i++) {
    int v = (int)((rng_next() >> 33) % 2001) - 1000;
    data[i] = v;
    orig[i] = v;
  }
}

/* Gold-Rader in-place bit-reversal permutation. */
void fft_bitreverse(double *data, int n)
{
  int j = 0;
  for (int i = 0; i < n - 1; i++) {
    if (i < j) {
      double tr = data[2 * i], ti = data[2 * i + 1];
      data[2 * i] = data[2 * j];
      data[2 * i + 1] = data[2 * j + 1];
      data[2 * j] = tr;
      data[2 * j + 1] = ti;
    }
    int k = n >> 1;
    while (k <= j) {
      j -= k;
      k >>= 1;
    }
    j += k;
  }
}

/* Unnormalised transform; DIRECTION is -1 (forward) or +1 (inverse). */
void fft_transform(double *data, int n, int direction)
{
  fft_bitreverse(data, n);
  for (int half = 1; half < n; half <<= 1) {
    double theta = direction * FFT_PI / half;
    double t = sin(0.5 * theta);
    double wpr = -2.0 * t * t;
    double wpi = sin(theta);
    double wr = 1.0, wi = 0.0;
    for (int m = 0; m < half; m++) {
      for (int i = m; i < n; i += 2 * half) {
        int j = i + half;
        double tr = wr * data[2 * j] - wi * data[2 * j + 1];
        double ti = wr * data[2 * j + 1] + wi * data[2 * j];
        data[2 * j] = data[2 * i] - tr;
        data[2 * j + 1] = data[2 * i + 1] - ti;
        data[2 * i] += tr;
        data[2 * i + 1] += ti;
      }
      double tmp = wr;
      wr += wr * wpr - wi * wpi;
      wi += wi * wpr + tmp * wpi;
    }
  }
}

void fft_inverse(double *data, int n)
{
  fft_transform(data, n, +1);
  double scale = 1.0 / n;
  for (int i = 0; i < 2 * n; i++)
    data[i] *= scale;
}

double fft_energy(const double *data, int n)
{
  double e = 0.0;
  for (int i = 0; i < 2 * n; i++)
    e += data[i] * data[i];
  return e;
}

/* Check the forward spectrum against the input (DC bin, Parseval) and fold
   a coarse sample of it into the digest. */
uint64_t fft_check_spectrum(const double *spec, const double *orig, int n, uint64_t h)
{
  double sre = 0.0, sim = 0.0;
  for (int i = 0; i < n; i++) {
    sre += orig[2 * i];
    sim += orig[2 * i + 1];
  }
  if (fabs(spec[0] - sre) > 1e-6 || fabs(spec[1] - sim) > 1e-6)
    bench_fail("DC bin differs from the sum of the input");
  double ein = fft_energy(orig, n) * n;
  double eout = fft_energy(spec, n);
  if (!(fabs(eout - ein) <= 1e-9 * ein))
    bench_fail("Parseval identity does not hold");
  for (int k = 0; k < n; k += 64) {
    h = bench_mix(h, (uint64_t)llround(spec[2 * k] * 0.25));
    h = bench_mix(h, (uint64_t)llround(spec[2 * k + 1] * 0.25));
  }
  return h;
}

/* Check that the inverse transform recovered the input. */
uint64_t fft_check_inverse(const double *data, const double *orig, int n, uint64_t h)
{
  double maxerr = 0.0;
  for (int i = 0; i < 2 * n; i++) {
    double err = fabs(data[i] - orig[i]);
    if (err > maxerr)
      maxerr = err;
    h = bench_mix(h, (uint64_t)llround(data[i]));
  }
  if (!(maxerr < 1e-6))
    bench_fail("inverse transform does not recover the input");
  return h;
}

int main(int argc, char **argv)
{
  int log2n = 18, reps = 28;

  if (bench_init(argc, argv, "fft")) {
    log2n = 13;
    reps = 16;
  }

  int n = 1 << log2n;
  double *data = malloc(2 * (size_t)n * sizeof *data);
  double *orig = malloc(2 * (size_t)n * sizeof *orig);
  if (!data || !orig)
    bench_fail("out of memory");

  uint64_t h = 0;
  for (int r = 0; r < reps; r++) {
    fft_fill(data, orig, n);
    fft_transform(data, n, -1);
    h = fft_check_spectrum(data, orig, n, h);
    fft_inverse(data, n);
    h = fft_check_inverse(data, orig, n, h);
  }

  free(data);
  free(orig);
  return bench_report(NULL, h);
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

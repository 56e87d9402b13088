/* fft.c - an iterative radix-2 complex FFT and its inverse, for the accuracy
 * experiments (doc/ACCURACY.md).  A pseudo-random signal of N = 2^LOGN points
 * is transformed forward and back ROUNDS times; each round checks that the
 * inverse restores the signal (max error < 1e-9) and, in the first round,
 * that the forward transform matches a direct DFT at a few frequencies.
 *
 * Usage: fft [ROUNDS [LOGN [REPORT-PREFIX]]]   (defaults 1000, 10)
 * With REPORT-PREFIX, osp_report(PREFIX.N.tsv) is called after each sixth
 * of the rounds (N = 1..6) when the program is linked with libosprt.
 * Prints "fft rounds=R n=N checksum=C" and exits 0 (1 if a check fails).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <osp/osp.h>
#pragma weak osp_report

struct cpx { double re, im; };

static void __attribute__ ((noinline))
bit_reverse (struct cpx *a, unsigned n)
{
  unsigned i, j = 0, bit;
  for (i = 1; i < n; i++)
    {
      for (bit = n >> 1; j & bit; bit >>= 1)
        j ^= bit;
      j |= bit;
      if (i < j)
        {
          struct cpx t = a[i];
          a[i] = a[j];
          a[j] = t;
        }
    }
}

/* w[k] = exp(-2 pi i k / n), k < n/2. */
static void __attribute__ ((noinline))
fft (struct cpx *a, const struct cpx *w, unsigned n, int inverse)
{
  unsigned len, i, k, step;
  bit_reverse (a, n);
  for (len = 2; len <= n; len <<= 1)
    {
      step = n / len;
      for (i = 0; i < n; i += len)
        for (k = 0; k < len / 2; k++)
          {
            struct cpx u = a[i + k], v = a[i + k + len / 2], t;
            double wi = inverse ? -w[k * step].im : w[k * step].im;
            t.re = v.re * w[k * step].re - v.im * wi;
            t.im = v.re * wi + v.im * w[k * step].re;
            a[i + k].re = u.re + t.re;
            a[i + k].im = u.im + t.im;
            a[i + k + len / 2].re = u.re - t.re;
            a[i + k + len / 2].im = u.im - t.im;
          }
    }
  if (inverse)
    for (i = 0; i < n; i++)
      {
        a[i].re /= n;
        a[i].im /= n;
      }
}

int
main (int argc, char **argv)
{
  unsigned rounds = argc > 1 ? (unsigned) strtoul (argv[1], NULL, 10) : 1000;
  unsigned logn = argc > 2 ? (unsigned) strtoul (argv[2], NULL, 10) : 10;
  const char *prefix = argc > 3 ? argv[3] : NULL;
  unsigned n = 1u << logn, i, r, stop = 1;
  struct cpx *x = malloc (n * sizeof *x), *a = malloc (n * sizeof *a);
  struct cpx *w = malloc (n / 2 * sizeof *w);
  unsigned long rng = 42;
  double check = 0;

  if (!x || !a || !w || logn < 1 || logn > 24)
    return 2;
  for (i = 0; i < n / 2; i++)
    {
      w[i].re = cos (2 * M_PI * i / n);
      w[i].im = -sin (2 * M_PI * i / n);
    }
  for (i = 0; i < n; i++)
    {
      rng = rng * 6364136223846793005ul + 1442695040888963407ul;
      x[i].re = (double) (rng >> 40) / (1u << 24) - 0.5;
      rng = rng * 6364136223846793005ul + 1442695040888963407ul;
      x[i].im = (double) (rng >> 40) / (1u << 24) - 0.5;
    }
  for (r = 0; r < rounds; r++)
    {
      double err = 0;
      for (i = 0; i < n; i++)
        a[i] = x[i];
      fft (a, w, n, 0);
      if (r == 0)
        for (unsigned f = 0; f < n; f += n / 4 + 1)
          {
            double re = 0, im = 0;
            for (i = 0; i < n; i++)
              {
                double ang = -2 * M_PI * (double) ((unsigned long) f * i % n) / n;
                re += x[i].re * cos (ang) - x[i].im * sin (ang);
                im += x[i].re * sin (ang) + x[i].im * cos (ang);
              }
            if (fabs (re - a[f].re) > 1e-6 || fabs (im - a[f].im) > 1e-6)
              {
                fprintf (stderr, "fft: bin %u is (%g,%g), the DFT says (%g,%g)\n", f,
                         a[f].re, a[f].im, re, im);
                return 1;
              }
          }
      check += a[r % n].re;
      fft (a, w, n, 1);
      for (i = 0; i < n; i++)
        {
          double d = fabs (a[i].re - x[i].re) + fabs (a[i].im - x[i].im);
          if (d > err)
            err = d;
        }
      if (err > 1e-9)
        {
          fprintf (stderr, "fft: round %u: the inverse is off by %g\n", r, err);
          return 1;
        }
      if (prefix && (r + 1) * 6 >= (unsigned long) stop * rounds && stop <= 6)
        {
          char path[4096];
          snprintf (path, sizeof path, "%s.%u.tsv", prefix, stop);
          if (osp_report && osp_report (path) != 0)
            fprintf (stderr, "fft: osp_report(%s) failed\n", path);
          stop++;
        }
    }
  printf ("fft rounds=%u n=%u checksum=%.6f\n", rounds, n, check);
  free (x);
  free (a);
  free (w);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

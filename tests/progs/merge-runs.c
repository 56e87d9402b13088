/* tests/progs/merge-runs.c - the program of tests/viewer-merge.sh: runs whose hot paths
   depend on the argument, so that the snapshots of several runs differ and their merge has
   rows from some runs only.  Usage: merge-runs K N: N iterations of a loop whose body
   chooses among four branches by the bits of an LCG, with weights that rotate with K
   (K = 0..3: each run has another hottest branch; K >= 4: K mod 4).  stdout: a checksum. */
#include <stdio.h>
#include <stdlib.h>

static unsigned __attribute__ ((noinline)) mix_a (unsigned x)
{
  return x * 2654435761u + 1;
}

static unsigned __attribute__ ((noinline)) mix_b (unsigned x)
{
  unsigned s = x;
  for (unsigned i = 0; i < 1 + (x >> 28); i++)
    s = (s ^ (s >> 7)) * 40503u + i;
  return s;
}

static unsigned __attribute__ ((noinline)) mix_c (unsigned x)
{
  return x % 3 == 0 ? x / 3 : x ^ 0x5bd1e995u;
}

static unsigned __attribute__ ((noinline)) mix_d (unsigned x)
{
  if (x & 1)
    return mix_a (x) ^ mix_c (x);
  return x + 7;
}

static unsigned __attribute__ ((noinline)) run (unsigned k, long n)
{
  /* weights of the four branches out of 16, rotated by k */
  static const unsigned w[4] = { 9, 4, 2, 1 };
  unsigned state = 12345u + k, acc = 0;
  for (long i = 0; i < n; i++)
    {
      state = state * 1103515245u + 12345u;
      unsigned r = (state >> 16) & 15, b = 0;
      while (r >= w[(b + 4 - k) % 4])
        r -= w[(b++ + 4 - k) % 4];
      switch (b)
        {
        case 0:
          acc += mix_a (state);
          break;
        case 1:
          acc ^= mix_b (state);
          break;
        case 2:
          acc += mix_c (state);
          break;
        default:
          acc ^= mix_d (state);
          break;
        }
    }
  return acc;
}

int main (int argc, char **argv)
{
  unsigned k = argc > 1 ? (unsigned) atoi (argv[1]) % 4 : 0;
  long n = argc > 2 ? atol (argv[2]) : 200000;
  printf ("%u\n", run (k, n));
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

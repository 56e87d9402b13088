/* batch.c - loops of every shape the plugin's loop batching (batch-loops=yes, probes.cc)
 * looks at: loops it batches (one call-free path from header to back edge: a counted loop, a
 * loop with two exits, a loop that often runs zero times, a do-while, an inner loop under a
 * loop it cannot batch) and loops it must not (a call in the body, a branch in the body, an
 * inner loop).  tests/paths.sh checks that the batched build's path counts, samples and
 * forest equal the unbatched build's. */
#include <stdio.h>
#include <stdlib.h>

static double a[512], b[512];

__attribute__ ((noinline)) static double
daxpy (int n, double alpha)
{
  for (int i = 0; i < n; i++)       /* batched: one path, one exit */
    b[i] += alpha * a[i];
  return b[n > 0 ? n - 1 : 0];
}

__attribute__ ((noinline)) static int
find (const int *v, int n, int key)
{
  int i = 0;
  while (i < n) {                   /* batched: two exits */
    if (v[i] == key)
      break;
    i++;
  }
  return i;
}

__attribute__ ((noinline)) static unsigned
digits (unsigned x)
{
  unsigned d = 0;
  do {                              /* batched: a do-while */
    d++;
    x /= 10;
  } while (x);
  return d;
}

__attribute__ ((noinline)) static long
triangle (int n)
{
  long s = 0;
  for (int i = 0; i < n; i++) {     /* not batched: has an inner loop */
    for (int j = 0; j <= i; j++)    /* batched; often zero or one iteration */
      s += j;
    if (i % 7 == 3)
      s ^= i;
  }
  return s;
}

__attribute__ ((noinline)) static int
odd (int x)
{
  return x & 1;
}

__attribute__ ((noinline)) static long
mixed (int n)
{
  long s = 0;
  for (int i = 0; i < n; i++)       /* not batched: a call */
    s += odd (i);
  for (int i = 0; i < n; i++)       /* not batched: two paths */
    s += (i & 3) ? i : -i;
  return s;
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 400;
  static int v[300];
  double sum = 0;
  long acc = 0;
  for (int i = 0; i < 512; i++)
    a[i] = (i % 13) * 0.25;
  for (int i = 0; i < 300; i++)
    v[i] = (i * 37) % 301;
  for (int r = 0; r < rounds; r++) {
    sum += daxpy (r % 512, 0.5);
    acc += find (v, 300, r % 320);
    acc += digits ((unsigned) r * 7919u);
    acc += triangle (r % 40);
    acc += mixed (r % 50);
  }
  printf ("batch: sum=%.3f acc=%ld\n", sum, acc);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* single-path.c - functions without loops, which the plugin counts
 * inline instead of checking when they have few paths
 * (count-loop-free=N), next to functions it samples (tests/paths.sh).
 *   scale3, store: one path each, run N and N/2 times;
 *   finish: one path that ends in a noreturn call (exit), run once;
 *   pick: two paths, no loop;
 *   bits7: 2^7 = 128 paths, no loop: more than the default 64;
 *   next: one path, inlined twice into draws' loop, whose generator
 *     state goes through a pointer (GCC's store motion must keep both
 *     the state and next's counter in registers through the loop);
 *   main: a loop, sampled. */
#include <stdio.h>
#include <stdlib.h>

static int __attribute__ ((noinline))
scale3 (int x)
{
  return 3 * x + 1;
}

static void __attribute__ ((noinline))
store (volatile int *p, int v)
{
  *p = v;
}

static int __attribute__ ((noinline))
pick (int x)
{
  if (x % 3 == 0)
    return x / 3;
  return x - 1;
}

static int __attribute__ ((noinline))
bits7 (int x)
{
  int s = 0;
  if (x & 1)
    s += 3;
  if (x & 2)
    s ^= 5;
  if (x & 4)
    s += 7;
  if (x & 8)
    s ^= 11;
  if (x & 16)
    s += 13;
  if (x & 32)
    s ^= 17;
  if (x & 64)
    s += 19;
  return s;
}

struct gen
{
  unsigned long long s;
};

static inline unsigned long long
next (struct gen *g)
{
  unsigned long long x = g->s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  g->s = x;
  return x * 0x2545F4914F6CDD1DULL;
}

static long __attribute__ ((noinline))
draws (struct gen *g, int n)
{
  long hits = 0;
  for (int i = 0; i < n; i++)
    hits += (next (g) ^ next (g)) >> 63;
  return hits;
}

static void __attribute__ ((noinline, noreturn))
finish (long s)
{
  printf ("%ld\n", s);
  exit (0);
}

int
main (int argc, char **argv)
{
  static volatile int cell;
  long s = 0;
  int n = argc > 1 ? atoi (argv[1]) : 200000;
  for (int i = 0; i < n; i++)
    {
      s += scale3 (i) + bits7 (i);
      if (i & 1)
        {
          store (&cell, i);
          s += pick (cell);
        }
    }
  struct gen g = { 88172645463325252ULL };
  finish (s + cell + draws (&g, n));
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

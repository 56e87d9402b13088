/* tests/progs/forest-random.c - many distinct n-grams for tests/forest.sh: a loop whose body
   takes 4 independent branches on the bits of an LCG (16 paths per iteration, 16^k k-grams),
   with volatile stores so that no branch becomes a conditional move.
   Usage: forest-random N.  stdout: a checksum. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned v0, v1, v2, v3;

static unsigned __attribute__ ((noinline)) scramble (long n)
{
  unsigned state = 2024u, acc = 0;
  for (long i = 0; i < n; i++)
    {
      state = state * 1103515245u + 12345u;
      unsigned r = state >> 16;
      if (r & 1)
        v0 = r;
      if (r & 2)
        v1 = r;
      if (r & 4)
        v2 = r;
      if (r & 8)
        v3 = r;
      acc += r;
    }
  return acc;
}

int main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 1000;
  printf ("forest-random %ld: %u\n", n, scramble (n));
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

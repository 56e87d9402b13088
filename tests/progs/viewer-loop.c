/* tests/progs/viewer-loop.c - a program that runs for a while, for tests/viewer-batch.sh and
   tests/snapshot.sh: the viewer attaches to it while it runs.  Usage: viewer-loop SECONDS
   [STOPFILE].  spin() loops over a branch that goes one way 3 times in 4 (its hot path) and
   calls mix() on the other; main calls spin() in rounds until SECONDS have passed or, given
   STOPFILE, until that file exists (the test creates it when done: on a loaded machine a test
   may need any time, so SECONDS is then only the cap for a test that died).  stdout: a
   checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static unsigned __attribute__ ((noinline)) mix (unsigned x)
{
  x ^= x >> 13;
  x *= 0x5bd1e995u;
  return x ^ (x >> 15);
}

static unsigned __attribute__ ((noinline)) spin (unsigned n, unsigned s)
{
  for (unsigned i = 0; i < n; i++)
    {
      if ((i & 3) != 3)
        s = s * 1103515245u + 12345u;
      else
        s += mix (s);
    }
  return s;
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

int
main (int argc, char **argv)
{
  double seconds = argc > 1 ? atof (argv[1]) : 5;
  const char *stop = argc > 2 ? argv[2] : NULL;
  double end = now () + seconds;
  unsigned s = 1;
  for (unsigned r = 0; now () < end && !(stop && r % 16 == 0 && access (stop, F_OK) == 0); r++)
    s = spin (100000, s);
  printf ("%u\n", s);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* tests/progs/export-loop.c - a small program with one clearly hot path, for
   tests/viewer-export.sh (ospview --json, --dot, --annotate).  Usage:
   export-loop [N [SECONDS [STOPFILE]]]: work() loops N times (default
   2000000) over a branch that takes the "hot" arm 15 times in 16 and calls
   cold() on the other; with SECONDS, main calls work() again until that
   many seconds have passed or, given STOPFILE, until that file exists (a
   live process to attach to: the test creates STOPFILE when done, however
   long a loaded machine made it take; SECONDS only caps the run of a test
   that died).  The test finds the lines by their HOT and COLD comments.
   stdout: a checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static unsigned __attribute__ ((noinline)) cold (unsigned x)
{
  x ^= x >> 7;                                  /* COLD-CALLEE */
  return x * 2654435761u;
}

static unsigned __attribute__ ((noinline)) work (unsigned n, unsigned s)
{
  for (unsigned i = 0; i < n; i++)
    {
      if ((i & 15) != 15)
        s = s * 1103515245u + 12345u;           /* HOT */
      else
        s += cold (s);                          /* COLD */
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
  unsigned n = argc > 1 ? (unsigned) strtoul (argv[1], NULL, 10) : 2000000u;
  double end = now () + (argc > 2 ? atof (argv[2]) : 0);
  const char *stop = argc > 3 ? argv[3] : NULL;
  unsigned s = work (n, 1);
  while (now () < end && !(stop && access (stop, F_OK) == 0))
    s = work (n, s);
  printf ("%u\n", s);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

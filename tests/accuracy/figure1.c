/* figure1.c - the shape of the OSP paper's Figure 1: several cold paths
 * that share one hot section.  Every call of segment() runs
 *
 *     1 -> 2a|2b|2c|2d -> 3 -> 4 -> 5 -> 6 -> 7a|7b|7c|7d -> return
 *
 * with the two choices taken from a pseudo-random number, so each of the
 * 16 complete paths through segment() is cold (1/16 of the calls) while
 * the section [3 4 5 6] runs on every call.  Blocks 3..6 are separate
 * basic blocks because each ends in a test of a flag that is never set
 * (its then-branch never runs).  The caller picks one of four call sites
 * at random, so no other run of four blocks is executed on every call:
 * [3 4 5 6] is the hottest subpath of length 4, with count = the number
 * of calls.  The lines of the hot section lie between the HOT-BEGIN and
 * HOT-END markers (tests/subpaths.sh reads them).
 *
 * Usage: figure1 [CALLS [REPORT-PREFIX]]   (default 2000000 calls)
 * With REPORT-PREFIX, osp_report(PREFIX.N.tsv) is called after each sixth
 * of the calls (N = 1..6) when the program is linked with libosprt.
 * Prints "figure1 calls=N hot=H checksum=C" and exits 0; the checksum
 * does not depend on instrumentation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <osp/osp.h>
#pragma weak osp_report

static unsigned never;     /* 0 at run time; the compiler cannot know */
static unsigned long hot;  /* executions of the hot section */

static unsigned __attribute__ ((noinline))
segment (unsigned k, unsigned x)
{
  /* 1 */
  switch (k & 3)
    {
    case 0: x = x * 3 + 1; break;          /* 2a */
    case 1: x = (x >> 1) ^ 0x9e37u; break; /* 2b */
    case 2: x = x + 0x7f4a7c15u; break;    /* 2c */
    default: x = ~x * 5; break;            /* 2d */
    }
  /* HOT-BEGIN */
  x ^= x << 7;                      /* 3 */
  if (never)
    x++;
  x ^= x >> 9;                      /* 4 */
  if (never > 1)
    x--;
  x *= 0x2545f491u;                 /* 5 */
  if (never > 2)
    x += 3;
  x ^= x >> 13;                     /* 6 */
  hot++;
  /* HOT-END */
  switch ((k >> 2) & 3)
    {
    case 0: x += 17; break;               /* 7a */
    case 1: x ^= 0x55u; break;            /* 7b */
    case 2: x = (x << 3) | (x >> 29); break; /* 7c */
    default: x -= k; break;               /* 7d */
    }
  return x;
}

int
main (int argc, char **argv)
{
  unsigned long calls = argc > 1 ? strtoul (argv[1], NULL, 10) : 2000000;
  const char *prefix = argc > 2 ? argv[2] : NULL;
  unsigned long i = 0, stop;
  unsigned rng = 12345, sum = 0, x = 1;

  never = (unsigned) argc > 1000;
  /* Six stretches of calls; the loop body is a varied switch, so the only
     blocks run on every iteration besides the hot section are the loop
     test, the switch and the tail of segment() (fewer than four). */
  for (stop = 1; stop <= 6; stop++)
    {
      unsigned long end = calls * stop / 6;
      if (i < end)
        do
          {
            rng = rng * 1103515245u + 12345u;
            unsigned k = rng >> 16;
            switch ((k >> 4) & 3)
              {
              case 0: x = segment (k, x); sum += x; break;
              case 1: x = segment (k, x + 1); sum ^= x; break;
              case 2: x = segment (k, x ^ 3); sum -= x; break;
              default: x = segment (k, ~x); sum += x >> 3; break;
              }
          }
        while (++i < end);
      if (prefix)
        {
          char path[4096];
          snprintf (path, sizeof path, "%s.%lu.tsv", prefix, stop);
          if (osp_report && osp_report (path) != 0)
            fprintf (stderr, "figure1: osp_report(%s) failed\n", path);
        }
    }
  if (hot != calls)
    {
      fprintf (stderr, "figure1: hot section ran %lu times for %lu calls\n", hot, calls);
      return 1;
    }
  printf ("figure1 calls=%lu hot=%lu checksum=%08x\n", calls, hot, sum ^ x);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

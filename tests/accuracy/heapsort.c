/* heapsort.c - heapsort of pseudo-random ints, for the accuracy experiments
 * (doc/ACCURACY.md).  ROUNDS times: fill an array of SIZE ints from a
 * linear congruential generator, heapsort it, check that it is sorted and
 * that the sum and xor of its elements did not change.
 *
 * Usage: heapsort [ROUNDS [SIZE [REPORT-PREFIX]]]   (defaults 75, 10000)
 * With REPORT-PREFIX, osp_report(PREFIX.N.tsv) is called after each sixth
 * of the rounds (N = 1..6) when the program is linked with libosprt.
 * Prints "heapsort rounds=R size=S checksum=C" and exits 0 (1 if a check
 * fails).
 */
#include <stdio.h>
#include <stdlib.h>
#include <osp/osp.h>
#pragma weak osp_report

static void __attribute__ ((noinline))
sift_down (int *a, unsigned start, unsigned end)
{
  unsigned root = start;
  while (2 * root + 1 <= end)
    {
      unsigned child = 2 * root + 1, swap = root;
      if (a[swap] < a[child])
        swap = child;
      if (child + 1 <= end && a[swap] < a[child + 1])
        swap = child + 1;
      if (swap == root)
        return;
      int t = a[root];
      a[root] = a[swap];
      a[swap] = t;
      root = swap;
    }
}

static void __attribute__ ((noinline))
heapsort (int *a, unsigned n)
{
  unsigned start, end;
  if (n < 2)
    return;
  for (start = (n - 2) / 2 + 1; start-- > 0;)
    sift_down (a, start, n - 1);
  for (end = n - 1; end > 0; end--)
    {
      int t = a[end];
      a[end] = a[0];
      a[0] = t;
      sift_down (a, 0, end - 1);
    }
}

int
main (int argc, char **argv)
{
  unsigned rounds = argc > 1 ? (unsigned) strtoul (argv[1], NULL, 10) : 75;
  unsigned size = argc > 2 ? (unsigned) strtoul (argv[2], NULL, 10) : 10000;
  const char *prefix = argc > 3 ? argv[3] : NULL;
  int *a = malloc ((size ? size : 1) * sizeof *a);
  unsigned long rng = 7, check = 0;
  unsigned r, i, stop = 1;

  if (!a)
    return 2;
  for (r = 0; r < rounds; r++)
    {
      unsigned long sum = 0, sum2 = 0;
      unsigned xr = 0, xr2 = 0;
      for (i = 0; i < size; i++)
        {
          rng = rng * 6364136223846793005ul + 1442695040888963407ul;
          a[i] = (int) (rng >> 33) - (1 << 30);
          sum += (unsigned) a[i];
          xr ^= (unsigned) a[i];
        }
      heapsort (a, size);
      for (i = 0; i < size; i++)
        {
          if (i > 0 && a[i - 1] > a[i])
            {
              fprintf (stderr, "heapsort: round %u: a[%u] > a[%u]\n", r, i - 1, i);
              return 1;
            }
          sum2 += (unsigned) a[i];
          xr2 ^= (unsigned) a[i];
        }
      if (sum != sum2 || xr != xr2)
        {
          fprintf (stderr, "heapsort: round %u: the elements changed\n", r);
          return 1;
        }
      check = check * 31 + (unsigned) a[size / 2] + xr;
      if (prefix && (r + 1) * 6 >= (unsigned long) stop * rounds && stop <= 6)
        {
          char path[4096];
          snprintf (path, sizeof path, "%s.%u.tsv", prefix, stop);
          if (osp_report && osp_report (path) != 0)
            fprintf (stderr, "heapsort: osp_report(%s) failed\n", path);
          stop++;
        }
    }
  printf ("heapsort rounds=%u size=%u checksum=%lu\n", rounds, size, check);
  free (a);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

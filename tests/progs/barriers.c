/* barriers.c - calls to functions that GCC believes leave osp's counters alone
 * (tests/barriers.sh, plugin/barriers.cc): a const recursive function (declared so),
 * a pure one, and recursive functions whose constness only GCC's IPA analysis finds.
 * Their hooks decrement the same countdown as their callers' do. */
#include <stdio.h>
#include <stdlib.h>

static unsigned table[256];

__attribute__ ((const, noinline)) static unsigned
cfib (unsigned n)
{
  return n < 2 ? n : cfib (n - 1) + cfib (n - 2);
}

/* Const by IPA's analysis only. */
__attribute__ ((noinline)) static unsigned long
ways (unsigned n, unsigned k)
{
  if (k == 0 || k == n)
    return 1;
  return ways (n - 1, k - 1) + ways (n - 1, k);
}

__attribute__ ((pure, noinline)) static unsigned long
sum_below (unsigned n)
{
  unsigned long s = 0;
  for (unsigned i = 0; i < n && i < 256; i++)
    s += table[i] & 1 ? table[i] : table[i] / 2;
  return s;
}

/* Pure by IPA's analysis only. */
__attribute__ ((noinline)) static unsigned
depth (unsigned i)
{
  return i >= 256 || table[i] % 7 == 0 ? 0 : 1 + depth (i + 1 + table[i] % 3);
}

int
main (int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned) atoi (argv[1]) : 22;
  for (unsigned i = 0; i < 256; i++)
    table[i] = i * 2654435761u >> 7;
  unsigned long acc = 0;
  for (unsigned r = 0; r < n; r++)
    {
      acc += cfib (r);
      acc += ways (r, r / 3);
      acc += sum_below (r * 11) + sum_below (r * 11);
      acc += depth (r % 17) + depth (r % 17);
    }
  printf ("barriers n=%u acc=%lu\n", n, acc);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

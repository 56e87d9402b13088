/* tests/progs/phantom.c - the shape of SQLite's lookupName/sqlite3StrICmp
 * (tests/phantom.sh): a small case-insensitive string compare, with a loop of
 * its own, that GCC inlines into a caller's nest of loops with constant trip
 * counts.  Inside the nest the compare's blocks have estimated counts above
 * the count of entering the nest, which is what let RTL loop-invariant motion
 * hoist their hooks (asm statements with constant operands) out of their cold
 * blocks.  Prints a checksum, so the plain and instrumented builds can be
 * compared.  */
#include <stdio.h>
#include <stdlib.h>

#define NAMES 64

static char names[NAMES][8];
static char keys[NAMES][8];

static inline int
upper (int c)
{
  return c >= 'a' && c <= 'z' ? c - 32 : c;
}

static int
str_icmp (const char *a, const char *b)
{
  while (*a && upper (*a) == upper (*b))
    {
      a++;
      b++;
    }
  return upper (*a) - upper (*b);
}

__attribute__ ((noinline)) static int
matches (char (*k)[8])
{
  int found = 0;
  for (int i = 0; i < NAMES; i++)
    for (int j = 0; j < NAMES; j++)
      if (str_icmp (names[j], k[i]) == 0)
        found++;
  return found;
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 20;
  for (int i = 0; i < NAMES; i++)
    {
      snprintf (names[i], sizeof names[i], "n%dx", i * 7 % 100);
      snprintf (keys[i], sizeof keys[i], "N%dX", i * 11 % 100);
    }
  long sum = 0;
  for (int r = 0; r < rounds; r++)
    sum += matches (keys);
  printf ("%ld\n", sum);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* tests/progs/paths-tricky.c - control flow that stresses Ball-Larus numbering
   (tests/paths.sh): 80 if statements in a row (2^80 acyclic paths: the numbering must cut),
   a switch with 300 cases, an irreducible loop (two entries), a loop nest with early exits,
   and a noreturn call ending a path.  Prints a checksum; deterministic. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define IF1(k) if (x & (1ull << ((k) % 64))) s += (k) * 3; else s ^= (k);
#define IF10(k) IF1 (k) IF1 (k + 1) IF1 (k + 2) IF1 (k + 3) IF1 (k + 4) \
                IF1 (k + 5) IF1 (k + 6) IF1 (k + 7) IF1 (k + 8) IF1 (k + 9)

static uint64_t __attribute__ ((noinline)) eighty_ifs (uint64_t x)
{
  uint64_t s = 0;
  IF10 (0) IF10 (10) IF10 (20) IF10 (30) IF10 (40) IF10 (50) IF10 (60) IF10 (70)
  return s;
}

#define C1(k) case k: r = (v * (k)) ^ ((k) << 3); break;
#define C10(k) C1 (k) C1 (k + 1) C1 (k + 2) C1 (k + 3) C1 (k + 4) \
               C1 (k + 5) C1 (k + 6) C1 (k + 7) C1 (k + 8) C1 (k + 9)
#define C100(k) C10 (k) C10 (k + 10) C10 (k + 20) C10 (k + 30) C10 (k + 40) \
                C10 (k + 50) C10 (k + 60) C10 (k + 70) C10 (k + 80) C10 (k + 90)

static unsigned __attribute__ ((noinline)) switch300 (unsigned c, unsigned v)
{
  unsigned r;
  switch (c)
    {
      C100 (0) C100 (100) C100 (200)
    default:
      r = v + 1;
    }
  return r;
}

/* Two entries into one loop: no single header dominates it.  */
static int __attribute__ ((noinline)) irreducible (int n, int mid)
{
  int i = 0, acc = 0;
  if (mid)
    goto b;
a:
  acc += i * 2;
  if (i % 7 == 3)
    goto c;
b:
  acc ^= i;
  i++;
  if (i < n)
    goto a;
  return acc;
c:
  acc -= 5;
  i += 2;
  if (i < n)
    goto b;
  return acc + 1;
}

static int __attribute__ ((noinline)) nest (int n)
{
  int t = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      {
        if ((i * j) % 11 == 10)
          break;
        if ((i + j) % 13 == 12)
          continue;
        t += i ^ j;
        if (t > 1000000)
          return t;
      }
  return t;
}

static void __attribute__ ((noreturn, noinline)) finish (uint64_t sum)
{
  printf ("checksum %llu\n", (unsigned long long) sum);
  fflush (stdout);
  exit (sum % 2 ? 3 : 0);
}

int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 2000;
  uint64_t sum = 0, x = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < n; i++)
    {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      sum += eighty_ifs (x);
      sum += switch300 ((unsigned) (x % 320), i);
      sum += irreducible (i % 50, i & 1);
    }
  sum += nest (n / 20);
  if (n >= 0)
    finish (sum);
  return 1;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* tests/progs/diff-branches.c - a program whose hot paths depend on its argument, for
   tests/viewer-diff.sh (ospview --diff).  Usage: diff-branches A|B [N].
   work() runs N iterations (default 1000000) of a loop whose body takes branch X on PCT% of
   them and branch Y on the others: A takes X 70% of the time, B 30%.  A then runs only_a()
   and B only_b(), 1000 iterations each, so each run has a path the other lacks.  Built with
   -DDIFF_EXTRA, extra() is defined last and called once: the runtime registers functions
   last-defined first, so every function id shifts while every line stays where it was (the
   #if lines are there in both builds), and the two builds must still match by content.  The
   test finds the lines marked with the comments "[X]", "[Y]", "[A]" and "[B]" with grep.
   stdout: a checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef DIFF_EXTRA
static unsigned __attribute__ ((noinline)) extra (unsigned s);
#endif

static unsigned __attribute__ ((noinline))
work (unsigned n, unsigned pct_x, unsigned s)
{
  for (unsigned i = 0; i < n; i++)
    {
      if (i % 100 < pct_x)
        {
          __asm__ volatile ("" ::: "memory");
          s = s * 1103515245u + 12345u; /* [X] */
        }
      else
        {
          __asm__ volatile ("" ::: "memory");
          s = (s ^ (s >> 7)) + 3u; /* [Y] */
        }
    }
  return s;
}

static unsigned __attribute__ ((noinline))
only_a (unsigned n, unsigned s)
{
  for (unsigned i = 0; i < n; i++)
    s += i * 3u; /* [A] */
  return s;
}

static unsigned __attribute__ ((noinline))
only_b (unsigned n, unsigned s)
{
  for (unsigned i = 0; i < n; i++)
    s ^= i << 2; /* [B] */
  return s;
}

int
main (int argc, char **argv)
{
  int a = argc > 1 && strcmp (argv[1], "A") == 0;
  unsigned n = argc > 2 ? (unsigned) strtoul (argv[2], NULL, 10) : 1000000u;
  unsigned s = 1;
#ifdef DIFF_EXTRA
  s = extra (s);
#endif
  s = work (n, a ? 70u : 30u, s);
  s = a ? only_a (1000u, s) : only_b (1000u, s);
  printf ("%u\n", s);
  return 0;
}

#ifdef DIFF_EXTRA
static unsigned __attribute__ ((noinline)) extra (unsigned s) { return s * 7u + 1u; }
#endif
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* tests/progs/forest-loops.c - the known-sequence program of tests/forest.sh (k-BLPP n-grams).
   driver() runs a loop whose body takes branch A (calls helper(), which has a loop of its
   own) or branch B (calls rec(), recursive) by the bits of an LCG; main runs two driver
   activations.  Usage: forest-loops N [FILE]: the first activation has N iterations, the
   second N / 3 + 5; with FILE, each activation's choices are written to it as one line of
   A and B letters.  stdout: a checksum.  forest.sh finds the branches by the source lines
   of the two forest-branch comments: keep each on the line of its branch's call. */
#include <stdio.h>
#include <stdlib.h>

static char *choices;

/* A loop of 1..3 iterations: its paths come between the caller's. */
static unsigned __attribute__ ((noinline)) helper (unsigned x)
{
  unsigned s = x;
  for (unsigned i = 0; i <= (x >> 20) % 3; i++)
    s = s * 2654435761u + i;
  return s;
}

/* Recursion 0..3 deep; not a tail call (xor is not an accumulator GCC knows). */
static unsigned __attribute__ ((noinline)) rec (unsigned n)
{
  if (n == 0)
    return 7;
  return (rec (n - 1) * 2654435761u) ^ n;
}

static unsigned __attribute__ ((noinline)) driver (long n, unsigned state)
{
  unsigned acc = 0;
  for (long i = 0; i < n; i++)
    {
      state = state * 1103515245u + 12345u;
      if ((state >> 16) % 5 < 3)
        {
          choices[i] = 'A';
          acc += helper (state); /* forest-branch-A */
        }
      else
        {
          choices[i] = 'B';
          acc ^= rec ((state >> 20) % 4); /* forest-branch-B */
        }
    }
  return acc;
}

int main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 1000;
  FILE *f = NULL;
  if (argc > 2 && (f = fopen (argv[2], "w")) == NULL)
    {
      perror (argv[2]);
      return 2;
    }
  choices = malloc (n + 6);
  if (choices == NULL)
    return 2;
  unsigned sum = 0;
  long lens[2] = { n, n / 3 + 5 };
  unsigned seeds[2] = { 12345u, 777u };
  for (int a = 0; a < 2; a++)
    {
      sum = sum * 31 + driver (lens[a], seeds[a]);
      if (f)
        fprintf (f, "%.*s\n", (int) lens[a], choices);
    }
  if (f && fclose (f) != 0)
    return 2;
  printf ("forest-loops %ld: %u\n", n, sum);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

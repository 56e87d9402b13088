/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fold-recursion.c - a one-line recursive function (tests/honest-rows.sh). */
static int fib (int n) { return n < 2 ? n : fib (n - 1) + fib (n - 2); }

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* ROUNDS calls of fib (22); with a STOP file, until it exists too. */
int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 20;
  const char *stop = argc > 2 ? argv[2] : NULL;
  long sum = 0;
  for (int i = 0; i < rounds || (stop && access (stop, F_OK) != 0); i++)
    sum += fib (22);
  printf ("%ld\n", sum);
  return 0;
}

/* oracle program: loops, branches, switch, recursion, function pointers, goto, early returns.
   Every counted statement is on a line of its own, so that many line counts are unambiguous. */
#include <stdio.h>

static int fib (int n)
{
  if (n < 2)
    return n;
  return fib (n - 1) + fib (n - 2);
}

static int classify (int x)
{
  int r;
  switch (x % 6)
    {
    case 0:
      r = 1;
      break;
    case 1:
    case 2:
      r = 2;
      break;
    case 3:
      r = 3;
      /* fall through */
    case 4:
      r = 4;
      break;
    default:
      r = 5;
    }
  return r;
}

static int twice (int x)
{
  return 2 * x;
}

static int square (int x)
{
  return x * x;
}

static int find (const int *v, int n, int key)
{
  int i = 0;
again:
  if (i >= n)
    return -1;
  if (v[i] == key)
    goto found;
  i++;
  goto again;
found:
  return i;
}

static int never_called (int x)
{
  return x + 1;
}

static long collatz_steps (long x)
{
  long n = 0;
  do
    {
      if (x % 2 == 0)
        x = x / 2;
      else
        x = 3 * x + 1;
      n++;
    }
  while (x != 1);
  return n;
}

int main (int argc, char **argv)
{
  int (*ops[2]) (int) = { twice, square };
  int v[50];
  long total = 0;
  (void) argv;
  for (int i = 0; i < 50; i++)
    v[i] = (i * 13) % 50;
  for (int i = 0; i < 100; i++)
    total += classify (i);
  for (int i = 0; i < 30; i++)
    total += ops[i % 2] (i);
  total += fib (15);
  for (int k = 0; k < 60; k += 7)
    total += find (v, 50, k);
  for (long x = 2; x < 40; x++)
    total += collatz_steps (x);
  if (argc > 5)
    total += never_called (argc);
  printf ("total %ld\n", total);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

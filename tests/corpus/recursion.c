/* osp-test: recursion: mutual recursion, Ackermann, non-tail deep recursion (100000 frames),
   recursion through a function pointer.
   oracle: (counts compared with gcov by tests/oracle.sh) */
#include <stdio.h>

static int is_odd (unsigned n);
static int __attribute__((noinline)) is_even (unsigned n) { return n == 0 ? 1 : is_odd (n - 1); }
static int __attribute__((noinline)) is_odd (unsigned n) { return n == 0 ? 0 : is_even (n - 1); }

static unsigned long __attribute__((noinline)) ack (unsigned long m, unsigned long n)
{
  if (m == 0)
    return n + 1;
  if (n == 0)
    return ack (m - 1, 1);
  return ack (m - 1, ack (m, n - 1));
}

/* Not a tail call: the result is combined after the call returns. */
static unsigned long __attribute__((noinline)) deep (unsigned n, volatile unsigned *probe)
{
  if (n == 0)
    return *probe;
  unsigned long r = deep (n - 1, probe);
  return r * 3 + (n & 7);
}

static long __attribute__((noinline)) via_pointer (long (*self) (), int n)
{
  return n <= 1 ? 1 : n * self (self, n - 1);
}

static unsigned __attribute__((noinline)) hanoi (unsigned n, int from, int to, int via)
{
  if (n == 0)
    return 0;
  return hanoi (n - 1, from, via, to) + 1 + hanoi (n - 1, via, to, from);
}

int main (void)
{
  volatile unsigned probe = 5;
  printf ("even(10001) %d odd(777) %d\n", is_even (10001), is_odd (777));
  printf ("ack(2,3) %lu ack(3,5) %lu\n", ack (2, 3), ack (3, 5));
  printf ("deep %lu\n", deep (100000, &probe));
  printf ("via_pointer %ld\n", via_pointer ((long (*) ()) via_pointer, 15));
  printf ("hanoi %u\n", hanoi (18, 1, 3, 2));
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

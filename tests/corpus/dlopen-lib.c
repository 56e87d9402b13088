/* The shared library loaded by dlopen.c (not a test of its own). */
static long calls;

static long __attribute__((noinline)) fib (long n)
{
  return n < 2 ? n : fib (n - 1) + fib (n - 2);
}

long lib_calls (void)
{
  return calls;
}

long lib_compute (long n)
{
  calls++;
  long r = 0;
  for (long i = 0; i < n; i++)
    r += fib (i) % 1000;
  return r;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

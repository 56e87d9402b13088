/* Program for tests/plugin-options.sh and tests/runtime-options.sh: a few functions with
   distinct name patterns, each called a known number of times. */
#include <stdio.h>

int __attribute__((noinline)) alpha_one (int x) { return x + 1; }
int __attribute__((noinline)) alpha_two (int x) { return x * 2; }
int __attribute__((noinline)) beta_one (int x) { return x - 3; }
int __attribute__((noinline)) gamma_fn (int x)
{
  int r = 0;
  for (int i = 0; i < x; i++)
    r += i % 3 ? alpha_one (i) : beta_one (i);
  return r;
}

int main (void)
{
  long s = 0;
  for (int i = 0; i < 10; i++)
    s += alpha_one (i) + alpha_two (i);
  s += gamma_fn (30);
  printf ("s %ld\n", s);
  return (int) (s % 7);
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

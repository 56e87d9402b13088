/* Program for tests/registration.sh (with registration-other.c): functions that are used,
   unused (external, so only --gc-sections or LTO can drop them), and inlined everywhere; every
   one of them must still be registered. */
#include <stdio.h>

int other_used (int x);
int used_here (int x);
int unused_extern (int x);

static inline int inlined_helper (int x)
{
  return x * x + 1;
}

__attribute__((noinline)) int used_here (int x)
{
  return inlined_helper (x) + 3;
}

int unused_extern (int x)
{
  return x * 7;
}

int main (void)
{
  int s = 0;
  for (int i = 0; i < 5; i++)
    s += used_here (i) + other_used (i);
  printf ("s %d\n", s);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

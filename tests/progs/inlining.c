/* inlining.c - helpers that GCC's IPA inliner merges into their callers in the plain build at
 * -O2 and that osp's code, counted in their size, would keep out of line (inline-sizes=plain,
 * sizes.cc).  uniform() has three blocks and merges next() first; area() is a dispatcher
 * inlined either way.  tests/paths.sh checks that uniform() is inlined with inline-sizes=plain
 * and not with inline-sizes=instrumented, and that both builds report the same rows. */
#include <stdio.h>

static unsigned long long state = 88172645463325252ull;

/* xorshift64: loop-free, one block */
static unsigned long long
next (void)
{
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

/* three blocks, called from a loop */
static double
uniform (void)
{
  unsigned long long x = next ();
  if ((x & 1023) == 0)
    return 0.5;
  return (double) (x >> 11) * (1.0 / 9007199254740992.0);
}

struct shape { int kind; double a, b; };

/* a dispatcher of four blocks */
static double
area (const struct shape *s)
{
  if (s->kind == 0)
    return s->a * s->b;
  if (s->kind == 1)
    return 3.0 * s->a * s->a;
  return 0.5 * s->a * s->b;
}

__attribute__ ((noinline)) static long
hits (int n)
{
  long in = 0;
  for (int i = 0; i < n; i++)
    {
      double x = uniform (), y = uniform ();
      if (x * x + y * y <= 1.0)
        in++;
    }
  return in;
}

__attribute__ ((noinline)) static double
total (const struct shape *s, int n)
{
  double t = 0;
  for (int i = 0; i < n; i++)
    t += area (&s[i]);
  return t;
}

int
main (void)
{
  struct shape s[64];
  for (int i = 0; i < 64; i++)
    {
      s[i].kind = i % 3;
      s[i].a = i * 0.25;
      s[i].b = 64 - i;
    }
  double t = 0;
  for (int r = 0; r < 200; r++)
    t += total (s, 64);
  printf ("hits %ld area %.3f\n", hits (20000), t);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* runs.c - straight runs of tests that GCC's IPA inliner makes (fold-tests=yes, runs.cc): small
 * helpers instrumented before inlining bring their blocks' tests into their callers one after
 * the other.  Runs in a function without loops (norm2, mix), in the body of a loop that calls
 * a function of ours and so keeps its tests (walk), broken by such a call (mix: the call runs
 * its own tests between two of the caller's) and by branches (clamp's join), and one that
 * starts with a shared path check (scan: the path end and the hooks of the blocks on the way
 * from its loop's end to the return that its tail call shares, tailcalls.cc; -O2, -O3).
 * tests/paths.sh
 * checks that the folded build's rows equal the unfolded build's, draw for draw with the same
 * seed, with intervals short enough that the runs' slow chains run often. */
#include <stdio.h>

struct vec { double x, y, z; };

static inline struct vec
sub (struct vec a, struct vec b)
{
  struct vec r = { a.x - b.x, a.y - b.y, a.z - b.z };
  return r;
}

static inline double
dot (struct vec a, struct vec b)
{
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

static inline double
clamp (double v, double lo, double hi)
{
  if (v < lo)
    return lo;
  if (v > hi)
    return hi;
  return v;
}

__attribute__ ((noinline)) double
norm2 (struct vec a, struct vec b)
{
  struct vec d = sub (a, b);
  struct vec e = sub (b, a);
  return dot (d, d) + dot (d, e) + dot (e, e);
}

static unsigned seed = 12345;

__attribute__ ((noinline)) unsigned
next_random (void)
{
  seed = seed * 1103515245u + 12345u;
  return seed >> 8;
}

__attribute__ ((noinline)) double
mix (struct vec a, struct vec b)
{
  double s = dot (a, b);
  struct vec d = sub (a, b);
  s += (double) (next_random () & 7);
  s += dot (d, a) + dot (d, b);
  return clamp (s, -1e6, 1e6) + dot (a, a);
}

__attribute__ ((noinline)) double
walk (int n)
{
  struct vec p = { 0, 0, 0 }, q = { 1, 2, 3 };
  double s = 0;
  for (int i = 0; i < n; i++) {
    struct vec r = { (double) (next_random () & 255), (double) (i & 15), 1.0 };
    struct vec d = sub (r, p);
    s += dot (d, q) + dot (d, d);
    p = sub (q, r);
    s = clamp (s, -1e9, 1e9);
  }
  return s;
}

struct scanner { int level, depth; };

static inline void
reprep (struct scanner *m)
{
  m->level = 0;
  m->depth = 200;
}

__attribute__ ((noinline)) const char *
matcher (struct scanner *m, const char *p)
{
  m->level += *p & 1;
  return *p == 'z' ? p : NULL;
}

__attribute__ ((noinline)) int
finish (struct scanner *m, const char *e)
{
  return m->level + *e;
}

__attribute__ ((noinline)) int
scan (struct scanner *m, const char *src, const char *end)
{
  for (; src <= end; src++)
    {
      const char *e;
      reprep (m);
      if ((e = matcher (m, src)) != NULL && e != end)
        return finish (m, e);
    }
  return 0;
}

int
main (void)
{
  double s = 0;
  struct scanner m;
  char text[512];
  for (int i = 0; i < 511; i++) /* a 'z' now and then in the first half only */
    text[i] = (char) (i < 256 && i % 37 == 36 ? 'z' : 'a' + (i * 7) % 25);
  text[511] = 0;
  for (int i = 0; i < 200; i++) /* both returns: from the loop, and after it */
    s += scan (&m, text + (i & 63) * 6, text + 510 - (i & 31));
  for (int i = 0; i < 3000; i++) {
    struct vec a = { i, i * 0.5, 1.0 }, b = { (double) (next_random () & 63), 2.0, -1.0 };
    s += norm2 (a, b) + mix (a, b);
  }
  s += walk (5000);
  printf ("%.1f\n", s);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* versions.c - inner loops of the shapes the plugin's loop versioning (version-loops=yes,
 * versions.cc) looks at: loops it versions in every iteration (a branchy counted loop, a
 * branchy loop of unknown length, one with two exits, one inside an outer loop, one calling
 * a leaf built-in, two in one function), a loop versioned on its trip count under
 * instrument=paths (one test an iteration), a loop whose only call GCC's IPA inliner
 * removes (versioned after inlining), a one-path counted loop (batched by default; with
 * batch-loops=no versioned, and GCC then knows which of its hooks must fire whenever the
 * tested copy runs; hooks.cc's osp_pin pass keeps it in place), an outer loop whose blocks before its inner
 * loop are versioned (chains), a loop that calls a function of ours without loops (calls:
 * versioned, the callee's tests counted in the choice; helper itself is versioned as a whole), a branchy loop that steps a
 * generator's state through a pointer (stepper: the untested copy is a loop of its own, so
 * GCC's store motion keeps the state in a register through it, as in the plain build), and
 * loops it must leave alone (a call to a function of ours with a loop, calls_loop).
 * tests/paths.sh checks that the versioned build's rows equal the unversioned build's, draw
 * for draw with the same seed, with intervals short enough that both copies run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int v[4096];
static double d[4096];

__attribute__ ((noinline)) static long
branchy (int n)
{
  long s = 0;
  for (int i = 0; i < n; i++) {     /* counted, a branch in the body */
    if (v[i] & 1)
      s += v[i];
    else if (v[i] & 2)
      s -= v[i] >> 1;
    else
      s ^= i;
  }
  return s;
}

__attribute__ ((noinline)) static int
collatz (unsigned x)
{
  int steps = 0;
  while (x != 1) {                  /* length unknown when entered */
    x = (x & 1) ? 3 * x + 1 : x / 2;
    steps++;
  }
  return steps;
}

__attribute__ ((noinline)) static int
search (int n, int key)
{
  int i, hits = 0;
  for (i = 0; i < n; i++) {         /* two exits and a branch */
    if (v[i] == key)
      break;
    if (v[i] < key)
      hits++;
  }
  return i + hits;
}

__attribute__ ((noinline)) static double
norms (int rows, int cols)
{
  double total = 0;
  for (int r = 0; r < rows; r++) {
    double s = 0;
    for (int c = 0; c < cols; c++) { /* inner loop, leaf built-in */
      double x = d[r * cols + c];
      s += x > 0 ? sqrt (x) : -x;
    }
    total += s;
  }
  return total;
}

__attribute__ ((noinline)) static int
helper (int x)
{
  return x % 3 ? x + 1 : x - 1;
}

__attribute__ ((noinline)) static long
calls (int n)
{
  long s = 0;
  for (int i = 0; i < n; i++)       /* calls one of ours without a loop: versioned */
    s += v[i] & 4 ? helper (v[i]) : v[i];
  return s;
}

__attribute__ ((noinline)) static long
calls_loop (int n)
{
  long s = 0;
  for (int i = 0; i < n; i++)       /* calls one of ours with a loop: left alone */
    s += v[i] & 4 ? collatz (v[i] + 1) : v[i];
  return s;
}

/* No noinline: instrumented, it looks too big to GCC's early inliner, and
   the IPA inliner puts it into its one caller, whose loop is then
   versioned after inlining (versions.cc's late pass).  */
static int
classify (int x)
{
  if (x & 32)
    return x >> 2;
  return x & 64 ? 3 * x : x + 7;
}

__attribute__ ((noinline)) static long
inlined (int n)
{
  long s = 0;
  for (int i = 0; i < n; i++)       /* call-free once classify is inlined */
    s += classify (v[i]);
  return s;
}

__attribute__ ((noinline)) static long
empty_often (int from, int to)
{
  long s = 0;
  for (int i = from; i < to; i++)   /* often runs zero times */
    s += (v[i] & 8) ? 1 : 2;
  for (int i = to; i < 3 * to; i++) /* a second one in the function */
    s += (v[i] & 16) ? s & 3 : 1;
  return s;
}

__attribute__ ((noinline)) static long
chains (int n)
{
  long s = 0;
  for (int i = 0; i < n; i++) {     /* outer loop: its first part is versioned */
    int x = v[i];
    if (x & 1)
      s += x;
    else
      s -= x >> 1;
    if (x % 7 == 0)
      for (int k = 0; k < (x & 15); k++) /* inner loop, entered now and then */
        s += v[(i + k) & 4095] & 3;
    if (x & 4)                      /* also after the inner loop: keeps its test */
      s ^= i;
  }
  return s;
}

/* end's value in the next iteration is p's at the header: when the two
   copies' headers are joined, the new PHI for end must take the new PHI
   for p (versions.cc join_versions; found as GCC's pr34415 at -O2 with
   placement=late).  */
__attribute__ ((noinline)) static const char *
scan (const char *p)
{
  const char *end = p;
  int n = 1;
  for (;;) {                        /* outer loop, versioned with inner loops */
    int c = *p;
    c = c >= 'a' && c <= 'z' ? c - 32 : c;
    if (c == 'X')
      end = p;
    else if (c == 'Y') {
      end = p;
      do
        p++;
      while (*p == '-');
    } else
      break;
    p++;
    n++;
  }
  return n > 3 && *p == '.' ? end : p;
}

struct gen { unsigned long long s; };

__attribute__ ((noinline)) static long
stepper (struct gen *g, int n)
{
  long hits = 0;
  for (int i = 0; i < n; i++) {     /* the state through G, loaded and stored every iteration */
    unsigned long long x = g->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    g->s = x;
    if ((x * 0x2545F4914F6CDD1DULL) >> 62)
      hits++;
  }
  return hits;
}

static const char text[] = "xYy--Xx.q";

__attribute__ ((noinline)) static void
refill (int k)
{
  for (int i = 0; i < 300; i++)     /* one path: batched unless batch-loops=no */
    v[i] = (i * 37 + k) % 1000;
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 40;
  unsigned seed = 12345;
  for (int i = 0; i < 4096; i++) {
    seed = seed * 1103515245u + 12345u;
    v[i] = (int) (seed >> 8) % 1000;
    d[i] = (double) ((int) (seed >> 4) % 2001 - 1000) / 7.0;
  }
  long acc = 0;
  double dacc = 0;
  struct gen g = { 0x853C49E6748FEA9BULL };
  for (int r = 0; r < rounds; r++) {
    acc += branchy (r < 3 ? r : 64 + r * 97);
    acc += collatz (27 + r);
    acc += search (4096, v[(r * 131) % 4096]);
    dacc += norms (1 + r % 7, 64 + r);
    acc += calls (256 + r);
    acc += calls_loop (64 + r);
    acc += inlined (128 + 31 * r);
    refill (r);
    acc += chains (1000 + 7 * r);
    acc += scan (text + r % 3) - text;
    acc += empty_often (r % 5, r % 9);
    acc += stepper (&g, 200 + 13 * r);
  }
  printf ("versions: %ld %.6f %llx\n", acc, dacc, g.s);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

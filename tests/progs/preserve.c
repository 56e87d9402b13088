/* Program for tests/preserving.sh: loops that keep many values live in
   registers across osp's hooks and sample checks - general registers,
   SSE/AVX vectors (GCC vector extensions: ymm with -mavx2), x87 long
   doubles, the flags of a comparison - while every hook and check calls
   the runtime (mode=subpaths-exact, paths=exhaustive).  The runtime's
   trampolines must preserve all of it: the output is compared with the
   plain build's, bit for bit (%a). */
#include <stdio.h>
#include <stdlib.h>

typedef double v4d __attribute__ ((vector_size (32)));
typedef long v4l __attribute__ ((vector_size (32)));

static unsigned long __attribute__ ((noinline))
mix (unsigned long n)
{
  /* Twelve integer accumulators: more than the callee-saved registers. */
  unsigned long a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8;
  unsigned long i = 9, j = 10, k = 11, l = 12;
  for (unsigned long x = 0; x < n; x++)
    {
      a += x ^ b;
      b = (b << 3) ^ (c >> 2);
      if (a & 1)
        c += d * 3;
      else
        d ^= e + x;
      e = e * 6364136223846793005ul + f;
      f ^= g >> 5;
      if ((x & 7) == 3)
        g += h;
      h = h * 3 + i;
      i ^= j + k;
      j += (k < l) ? 1 : 2;
      k = k * 5 + x;
      l ^= a;
    }
  return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h ^ i ^ j ^ k ^ l;
}

static v4d __attribute__ ((noinline))
vectors (int n, v4l *bits)
{
  v4d s0 = { 1, 2, 3, 4 }, s1 = { 0.5, 0.25, 0.125, 1 }, s2 = s1 * 3;
  v4d s3 = s0 / 7, s4 = s0 + s1, s5 = s2 - s3;
  v4l m = { 1, 3, 5, 7 };
  for (int x = 0; x < n; x++)
    {
      v4d t = { x, x + 1, x * 0.5, -x };
      s0 = s0 * 0.999 + t;
      s1 = s1 + s0 * 1e-3;
      if (x % 3 == 0)
        s2 = s2 - s1 * 1e-4;
      else
        s3 = s3 + s2 * 1e-5;
      s4 = s4 * 0.5 + s3;
      s5 = s5 + s4 * s0 * 1e-9;
      m = m * 3 + (v4l) { x, x, x, x };
    }
  *bits = m;
  return s0 + s1 + s2 + s3 + s4 + s5;
}

static long double __attribute__ ((noinline))
x87 (int n)
{
  long double p = 1, q = 0.5L, r = 3;
  for (int x = 1; x < n; x++)
    {
      p = p * 1.0000001L + q;
      if (x & 1)
        q = q / 1.5L + r;
      else
        r = r - q / 7;
    }
  return p + q + r;
}

static int __attribute__ ((noinline))
flags (const int *v, int n)
{
  int below = 0;
  for (int x = 0; x < n; x++)
    /* The comparison's result may live in the flags across the check of
       the next path end; the trampolines say they clobber "cc". */
    below += v[x] < v[(x * 7) % n];
  return below;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 20000;
  int *v = malloc (n * sizeof *v);
  for (int x = 0; x < n; x++)
    v[x] = (x * 2654435761u) >> 7;
  v4l bits;
  v4d s = vectors (n, &bits);
  printf ("mix %lx\n", mix (n));
  printf ("vectors %a %a %a %a\n", s[0], s[1], s[2], s[3]);
  printf ("bits %lx %lx %lx %lx\n", bits[0], bits[1], bits[2], bits[3]);
  printf ("x87 %La\n", x87 (n));
  printf ("flags %d\n", flags (v, n));
  free (v);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

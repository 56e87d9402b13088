/* osp-test: variable-length arrays and alloca: in loops, in nested scopes left by goto and
   break, with sizes from arguments, passed to other functions.
   oracle: (counts compared with gcov by tests/oracle.sh) */
#include <alloca.h>
#include <stdio.h>
#include <string.h>

static long __attribute__((noinline)) sum (int n, const long v[n])
{
  long s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}

static long __attribute__((noinline)) vla_loop (int rounds)
{
  long total = 0;
  for (int r = 1; r <= rounds; r++)
    {
      long v[r];
      for (int i = 0; i < r; i++)
        v[i] = (long) i * r;
      total += sum (r, v);
      if (r == rounds - 1)
        continue;
      {
        char buf[r * 3 + 1];
        memset (buf, 'a' + r % 26, sizeof buf - 1);
        buf[sizeof buf - 1] = 0;
        total += (long) strlen (buf);
        if (r % 17 == 0)
          goto next;
      }
    next:;
    }
  return total;
}

static long __attribute__((noinline)) matrix (int n)
{
  double m[n][n];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      m[i][j] = i == j ? 2 : (i + j) % 3;
  long t = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      t += (long) m[i][j] * (i + 1);
  return t;
}

static unsigned __attribute__((noinline)) alloca_chain (int n)
{
  unsigned h = 2166136261u;
  for (int i = 1; i <= n; i++)
    {
      unsigned char *p = alloca ((size_t) i);
      for (int k = 0; k < i; k++)
        p[k] = (unsigned char) (k * 7 + i);
      for (int k = 0; k < i; k++)
        h = (h ^ p[k]) * 16777619u;
    }
  return h;
}

int main (int argc, char **argv)
{
  (void) argv;
  printf ("vla_loop %ld\n", vla_loop (60 + argc));
  printf ("matrix %ld\n", matrix (40 + argc));
  printf ("alloca_chain %u\n", alloca_chain (200 + argc));
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

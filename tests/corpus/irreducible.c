/* osp-test: irreducible control flow (gotos into loop bodies), Duff's device, loops with
   several back edges, varargs, and calls through function-pointer tables.
   oracle: (counts compared with gcov by tests/oracle.sh) */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int __attribute__((noinline)) irreducible (int n, int start_inside)
{
  int i = 0, acc = 0;
  if (start_inside)
    goto inside;
  while (i < n)
    {
      acc += 2;
    inside:
      acc += i;
      i++;
      if (i % 5 == 0)
        goto skip;
      acc ^= i;
    skip:;
    }
  return acc;
}

static void __attribute__((noinline)) duff (char *to, const char *from, int count)
{
  int n = (count + 7) / 8;
  if (count <= 0)
    return;
  switch (count % 8)
    {
    case 0: do { *to++ = *from++;
    case 7:      *to++ = *from++;
    case 6:      *to++ = *from++;
    case 5:      *to++ = *from++;
    case 4:      *to++ = *from++;
    case 3:      *to++ = *from++;
    case 2:      *to++ = *from++;
    case 1:      *to++ = *from++;
               } while (--n > 0);
    }
}

static long __attribute__((noinline)) sum_va (int n, ...)
{
  va_list ap;
  long s = 0;
  va_start (ap, n);
  for (int i = 0; i < n; i++)
    s += va_arg (ap, int);
  va_end (ap);
  return s;
}

static int op_add (int a, int b) { return a + b; }
static int op_sub (int a, int b) { return a - b; }
static int op_mul (int a, int b) { return a * b; }
static int op_max (int a, int b) { return a > b ? a : b; }

static int __attribute__((noinline)) multi_back (int n)
{
  int i = 0, r = 0;
again:
  i++;
  if (i > n)
    return r;
  if (i % 3 == 0)
    {
      r += 3;
      goto again;
    }
  if (i % 5 == 0)
    {
      r -= 1;
      goto again;
    }
  r += i;
  goto again;
}

int main (void)
{
  int (*ops[]) (int, int) = { op_add, op_sub, op_mul, op_max };
  char src[100], dst[100];
  for (int i = 0; i < 100; i++)
    src[i] = (char) ('A' + i % 26);
  memset (dst, 0, sizeof dst);
  duff (dst, src, 99);
  int acc = 1;
  for (int i = 0; i < 1000; i++)
    acc = ops[i % 4] (acc, i % 13) % 100003;
  printf ("irreducible %d %d\n", irreducible (100, 0), irreducible (100, 1));
  printf ("duff %.20s %c\n", dst, dst[98]);
  printf ("sum_va %ld\n", sum_va (6, 1, 2, 3, 4, 5, 6));
  printf ("ops %d multi_back %d\n", acc, multi_back (1000));
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* osp-test: expect=scale_one expect=search expect=bump
   GNU C nested functions: trampolines (address taken), access to the parent's
   frame, nonlocal goto from a nested function back into its parent.
   oracle: gcov-skip=find_first */
#include <stdio.h>
#include <stdlib.h>

static int find_first_calls, scale_one_calls;

static void __attribute__((noinline)) apply (int *v, int n, void (*f) (int *))
{
  for (int i = 0; i < n; i++)
    f (&v[i]);
}

static int __attribute__((noinline)) sum_scaled (int n, int scale)
{
  int v[32];
  int total = 0;
  void scale_one (int *p) { scale_one_calls++; *p = *p * scale; total += *p; }
  for (int i = 0; i < n; i++)
    v[i] = i;
  apply (v, n, scale_one);
  return total;
}

static int __attribute__((noinline)) find_first (const int *v, int n, int key)
{
  __label__ found;
  find_first_calls++;
  int where = -1;
  void search (int i)
  {
    if (i >= n)
      return;
    if (v[i] == key)
      {
        where = i;
        goto found;
      }
    search (i + 1);
  }
  search (0);
  return -1;
found:
  return where;
}

static int __attribute__((noinline)) counter (int n)
{
  int count = 0;
  __attribute__ ((noinline)) int bump (int k) { count += k; return count; }
  int r = 0;
  for (int i = 0; i < n; i++)
    r ^= bump (i);
  return r + count;
}

int main (void)
{
  int v[100];
  for (int i = 0; i < 100; i++)
    v[i] = (i * 37) % 101;
  printf ("sum_scaled %d\n", sum_scaled (20, 3));
  printf ("find_first %d %d %d\n", find_first (v, 100, 74), find_first (v, 100, 5),
          find_first (v, 100, 1000));
  printf ("counter %d\n", counter (1000));
  printf ("expect-calls find_first %d\nexpect-calls scale_one %d\n", find_first_calls,
          scale_one_calls);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

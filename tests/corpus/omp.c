/* osp-test: cflags=-fopenmp expect=_omp_fn
   OpenMP: outlined bodies (parallel for with reduction, sections, tasks, critical).
   oracle: gcov-cflags=-fprofile-update=atomic report-extra=_omp_fn */
#include <omp.h>
#include <stdio.h>

static long __attribute__((noinline)) work (long i)
{
  long r = i;
  for (int k = 0; k < 10; k++)
    r = (r * 31 + k) % 1000003;
  return r;
}

static long __attribute__((noinline)) fib_task (int n)
{
  if (n < 15)
    return n < 2 ? n : fib_task (n - 1) + fib_task (n - 2);
  long a, b;
#pragma omp task shared(a)
  a = fib_task (n - 1);
#pragma omp task shared(b)
  b = fib_task (n - 2);
#pragma omp taskwait
  return a + b;
}

int main (void)
{
  long sum = 0;
  omp_set_num_threads (4);
#pragma omp parallel for reduction(+:sum) schedule(dynamic, 7)
  for (long i = 0; i < 20000; i++)
    sum += work (i);
  printf ("reduction %ld\n", sum);

  long s1 = 0, s2 = 0;
#pragma omp parallel sections
  {
#pragma omp section
    for (int i = 0; i < 1000; i++)
      s1 += i;
#pragma omp section
    for (int i = 0; i < 1000; i++)
      s2 += 2 * i;
  }
  printf ("sections %ld %ld\n", s1, s2);

  long hist[8] = { 0 };
#pragma omp parallel for
  for (int i = 0; i < 8000; i++)
    {
#pragma omp critical
      hist[i % 8] += work (i) & 1;
    }
  for (int i = 0; i < 8; i++)
    printf ("hist[%d] %ld\n", i, hist[i]);

  long f = 0;
#pragma omp parallel
#pragma omp single
  f = fib_task (25);
  printf ("fib %ld\n", f);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

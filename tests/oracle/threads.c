/* oracle: cflags=-fprofile-update=atomic
   8 threads call the same functions; the counts are the sums over all threads (the gcov
   build needs atomic counter updates to count them exactly). */
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 8

static long leaf (long x)
{
  if (x % 3 == 0)
    return x / 3;
  return x + 1;
}

static long chain (long n)
{
  long s = 0;
  for (long i = 0; i < n; i++)
    s += leaf (i);
  return s;
}

static void *worker (void *arg)
{
  long id = (long) arg;
  long s = 0;
  for (int r = 0; r < 200; r++)
    s += chain (50 + id);
  return (void *) s;
}

int main (void)
{
  pthread_t t[NTHREADS];
  long total = 0;
  for (long i = 0; i < NTHREADS; i++)
    pthread_create (&t[i], NULL, worker, (void *) i);
  for (int i = 0; i < NTHREADS; i++)
    {
      void *r;
      pthread_join (t[i], &r);
      total += (long) r;
    }
  printf ("total %ld\n", total);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

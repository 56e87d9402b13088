/* osp-test: expect=^worker$ expect=^collatz_len$
   8 threads running instrumented code concurrently (mutex, atomics, thread-local
   data, a barrier), then joined; the result is deterministic.
   oracle: gcov-cflags=-fprofile-update=atomic */
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 8
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t barrier;
static long shared_total;
static long atomic_total;
static __thread long mine;

static long __attribute__((noinline)) step (long x)
{
  if (x & 1)
    return 3 * x + 1;
  return x / 2;
}

static long __attribute__((noinline)) collatz_len (long x)
{
  long n = 0;
  while (x != 1)
    {
      x = step (x);
      n++;
    }
  return n;
}

static void *worker (void *arg)
{
  long id = (long) arg;
  for (long i = 1 + id; i < 40000; i += NTHREADS)
    mine += collatz_len (i);
  pthread_barrier_wait (&barrier);
  pthread_mutex_lock (&lock);
  shared_total += mine;
  pthread_mutex_unlock (&lock);
  __atomic_add_fetch (&atomic_total, mine % 1000, __ATOMIC_RELAXED);
  return (void *) (mine % 97);
}

int main (void)
{
  pthread_t t[NTHREADS];
  pthread_barrier_init (&barrier, NULL, NTHREADS);
  for (long i = 0; i < NTHREADS; i++)
    if (pthread_create (&t[i], NULL, worker, (void *) i) != 0)
      return 2;
  long rets = 0;
  for (int i = 0; i < NTHREADS; i++)
    {
      void *r;
      pthread_join (t[i], &r);
      rets = rets * 7 + (long) r;
    }
  printf ("total %ld atomic %ld rets %ld\n", shared_total, atomic_total, rets);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

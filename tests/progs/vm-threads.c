/* tests/progs/vm-threads.c - a program that creates a few threads with default stacks and
 * runs instrumented code in each, for tests/safety-address-space.sh: under an `ulimit -v' a
 * little above what its plain build needs, the instrumented build must run identically (its
 * pthread_create must not fail for want of the address space the runtime reserved). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define NTHREADS 4

static unsigned long
work (unsigned long s)
{
  for (int i = 0; i < 200000; i++)
    {
      if (s & 1)
        s = s * 6364136223846793005ul + 1442695040888963407ul;
      else
        s ^= s >> 7;
    }
  return s;
}

static void *
run (void *arg)
{
  unsigned long *r = arg;
  *r = work (*r);
  return NULL;
}

int
main (void)
{
  pthread_t th[NTHREADS];
  unsigned long r[NTHREADS];
  for (int i = 0; i < NTHREADS; i++)
    {
      r[i] = (unsigned long) i + 1;
      int e = pthread_create (&th[i], NULL, run, &r[i]);
      if (e != 0)
        {
          printf ("pthread_create: %s\n", strerror (e));
          return 1;
        }
    }
  unsigned long x = work (99);
  for (int i = 0; i < NTHREADS; i++)
    {
      pthread_join (th[i], NULL);
      x ^= r[i];
    }
  printf ("%lx\n", x);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

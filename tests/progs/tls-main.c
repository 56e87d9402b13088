/* tests/progs/tls-main.c - the executable of tests/plugin-tls.sh: main_work in the main thread
   and in two more, each also calling lib_work (tls-lib.c) when it is linked in or, with an
   argument, from the library of that name, which it dlopens.  Its stdout depends on nothing
   but the work. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

extern unsigned long lib_work (unsigned n) __attribute__ ((weak));
static unsigned long (*work) (unsigned);

static __attribute__ ((noinline)) unsigned long
main_work (unsigned n)
{
  unsigned long h = 7;
  for (unsigned i = 0; i < n; i++)
    {
      if (i & 1)
        h += i * 3;
      else
        h = (h << 1) ^ i;
    }
  return h;
}

static void *
thread_main (void *arg)
{
  unsigned long *r = arg;
  for (unsigned k = 0; k < 200; k++)
    *r += main_work (1000 + k) + (work ? work (1000 + k) : 0);
  return NULL;
}

int
main (int argc, char **argv)
{
  work = lib_work;
  if (argc > 1)
    {
      void *lib = dlopen (argv[1], RTLD_NOW);
      if (!lib || !(work = (unsigned long (*) (unsigned)) dlsym (lib, "lib_work")))
        {
          fprintf (stderr, "tls-main: %s\n", dlerror ());
          return 2;
        }
    }
  unsigned long r[3] = { 0, 0, 0 };
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    if (pthread_create (&t[i], NULL, thread_main, &r[i + 1]))
      return 3;
  thread_main (&r[0]);
  for (int i = 0; i < 2; i++)
    pthread_join (t[i], NULL);
  printf ("%lx %lx %lx\n", r[0], r[1], r[2]);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Program for tests/early-hooks.sh: instrumented code runs before the module is registered
   (from .preinit_array and a priority-101 constructor) and late (a priority-101 destructor,
   which runs after the default-priority ones).  The results must not change. */
#include <stdio.h>
#include <stdlib.h>

static long acc;

__attribute__((noinline)) long work (int x)
{
  long r = 0;
  for (int i = 0; i <= x; i++)
    r += (i % 2) ? i : -i;
  return r;
}

static void preinit (int argc, char **argv, char **envp)
{
  (void) argc; (void) argv; (void) envp;
  acc += work (10);
}
__attribute__((section (".preinit_array"), used))
static void (*preinit_entry) (int, char **, char **) = preinit;

__attribute__((constructor (101))) static void early_ctor (void)
{
  acc += work (20) * 100;
}

__attribute__((destructor (101))) static void late_dtor (void)
{
  printf ("late %ld\n", work (5));
  fflush (stdout);
}

int main (void)
{
  acc += work (30) * 10000;
  printf ("acc %ld\n", acc);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

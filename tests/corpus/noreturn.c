/* osp-test: noreturn calls: a noreturn function of our own, abort() in an unused path,
   __builtin_unreachable, exit() from a deep call chain with atexit handlers.
   oracle: (counts compared with gcov by tests/oracle.sh) */
#include <stdio.h>
#include <stdlib.h>

static void __attribute__((noreturn, noinline)) die (const char *why, int code)
{
  printf ("die: %s\n", why);
  fflush (stdout);
  exit (code);
}

static int __attribute__((noinline)) checked_div (int a, int b)
{
  if (b == 0)
    abort ();
  return a / b;
}

static int __attribute__((noinline)) classify (unsigned x)
{
  switch (x & 3)
    {
    case 0: return 10;
    case 1: return 20;
    case 2: return 30;
    case 3: return 40;
    }
  __builtin_unreachable ();
}

static void on_exit_1 (void) { printf ("atexit 1\n"); }
static void on_exit_2 (void) { printf ("atexit 2\n"); }

static void __attribute__((noinline)) level (int n, int total)
{
  if (n == 0)
    {
      printf ("total %d\n", total);
      die ("bottom reached", 7);
    }
  level (n - 1, total + checked_div (1000, n) + classify (n));
}

int main (void)
{
  atexit (on_exit_1);
  atexit (on_exit_2);
  int s = 0;
  for (unsigned i = 0; i < 100; i++)
    s += classify (i);
  printf ("classify %d\n", s);
  level (30, 0);
  printf ("not reached\n");
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

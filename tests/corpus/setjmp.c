/* osp-test: setjmp/longjmp: setjmp in a loop, longjmp from deep calls, volatile locals,
   jumps back into a loop body, sigsetjmp without signals.
   oracle: (counts compared with gcov by tests/oracle.sh) */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;
static int depth_reached;

static void __attribute__((noinline)) dive (int n, int limit)
{
  if (n == limit)
    {
      depth_reached = n;
      longjmp (env, n + 1);
    }
  dive (n + 1, limit);
  depth_reached = -1; /* never reached */
}

static int __attribute__((noinline)) setjmp_in_loop (int rounds)
{
  volatile int total = 0;
  for (volatile int i = 0; i < rounds; i++)
    {
      int r = setjmp (env);
      if (r == 0)
        dive (0, i % 7);
      else
        total += r * (i + 1);
    }
  return total;
}

static jmp_buf retry_env;

static int __attribute__((noinline)) retry (void)
{
  volatile int attempts = 0;
  if (setjmp (retry_env) != 0)
    {
      /* re-entered after a longjmp */
    }
  attempts++;
  if (attempts < 5)
    longjmp (retry_env, attempts);
  return attempts;
}

static sigjmp_buf senv;

static int __attribute__((noinline)) sig_variant (int x)
{
  volatile int acc = x;
  switch (sigsetjmp (senv, 1))
    {
    case 0:
      acc += 10;
      siglongjmp (senv, 2);
    case 2:
      acc *= 3;
      break;
    default:
      acc = -1;
    }
  return acc;
}

int main (void)
{
  int a = setjmp_in_loop (50);
  printf ("setjmp_in_loop %d depth %d\n", a, depth_reached);
  printf ("retry %d\n", retry ());
  printf ("sig_variant %d\n", sig_variant (4));
  jmp_buf local;
  volatile int k = 0;
  if (setjmp (local) < 3)
    {
      k++;
      if (k < 3)
        longjmp (local, k);
    }
  printf ("k %d\n", k);
  return a % 256 == 0 ? 1 : 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

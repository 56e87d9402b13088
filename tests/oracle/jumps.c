/* oracle: gcov-skip=interp
   setjmp/longjmp, computed goto, exit() from a nested call, atexit.  gcov's call count for
   interp is wrong (the computed-goto dispatcher is merged into its entry block): the program
   counts those calls itself. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;
static int depth_sum;

static void dive (int n)
{
  depth_sum += n;
  if (n == 0)
    longjmp (env, 1);
  dive (n - 1);
}

static int try_dive (int n)
{
  if (setjmp (env) == 0)
    {
      dive (n);
      return -1;
    }
  return depth_sum;
}

static int interp_calls;

static int interp (const unsigned char *code)
{
  interp_calls++;
  static void *labels[] = { &&op_inc, &&op_dbl, &&op_end };
  int acc = 0;
  goto *labels[*code++];
op_inc:
  acc++;
  goto *labels[*code++];
op_dbl:
  acc *= 2;
  goto *labels[*code++];
op_end:
  return acc;
}

static void on_exit_handler (void)
{
  printf ("exit handler\n");
}

static void finish (int code)
{
  printf ("finishing\n");
  exit (code);
}

int main (void)
{
  static const unsigned char code[] = { 0, 0, 1, 0, 1, 1, 0, 2 };
  int s = 0;
  atexit (on_exit_handler);
  for (int i = 0; i < 10; i++)
    s += try_dive (i);
  for (int i = 0; i < 20; i++)
    s += interp (code);
  printf ("s %d\n", s);
  printf ("expect-calls interp %d\n", interp_calls);
  finish (0);
  return 1;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

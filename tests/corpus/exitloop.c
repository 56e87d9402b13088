/* osp-test: infinite loops that are only left by exit(): for(;;), while(1) around a state
   machine, exit from a nested function called inside the loop; the exit status is 3.
   oracle: (counts compared with gcov by tests/oracle.sh) */
#include <stdio.h>
#include <stdlib.h>

static unsigned long state = 12345;

static unsigned __attribute__((noinline)) next (void)
{
  state = state * 6364136223846793005ul + 1442695040888963407ul;
  return (unsigned) (state >> 33);
}

static void __attribute__((noinline)) maybe_leave (unsigned v, unsigned long iter)
{
  if (v % 100003 == 17 || iter == 3000000)
    {
      printf ("leaving at iteration %lu value %u\n", iter, v);
      exit (3);
    }
}

static void report (void)
{
  printf ("atexit: state %lu\n", state);
}

int main (void)
{
  atexit (report);
  int phase = 0;
  unsigned long iter = 0;
  for (;;)
    {
      iter++;
      switch (phase)
        {
        case 0:
          if (next () % 5 == 0)
            phase = 1;
          break;
        case 1:
          phase = next () % 2 ? 2 : 0;
          break;
        case 2:
          while (1)
            {
              unsigned v = next ();
              maybe_leave (v, iter);
              if (v & 1)
                break;
            }
          phase = 0;
          break;
        }
    }
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* osp-test: fork: four children run instrumented code and exit with computed statuses; one
   child forks a grandchild; the parent collects the statuses in order. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int __attribute__((noinline)) digits (unsigned long x)
{
  int s = 0;
  while (x)
    {
      s += x % 10;
      x /= 10;
    }
  return s;
}

static int __attribute__((noinline)) child_work (int k)
{
  unsigned long v = 1;
  for (int i = 0; i < 1000 * (k + 1); i++)
    v = v * 2654435761u % 1000000007u;
  return digits (v) % 64;
}

int main (void)
{
  pid_t pids[4];
  fflush (stdout);
  for (int k = 0; k < 4; k++)
    {
      pids[k] = fork ();
      if (pids[k] < 0)
        return 2;
      if (pids[k] == 0)
        {
          int st = child_work (k);
          if (k == 3)
            {
              pid_t g = fork ();
              if (g == 0)
                exit (child_work (9));
              int gs;
              waitpid (g, &gs, 0);
              st = (st + WEXITSTATUS (gs)) % 64;
            }
          exit (st);
        }
    }
  for (int k = 0; k < 4; k++)
    {
      int st;
      if (waitpid (pids[k], &st, 0) != pids[k] || !WIFEXITED (st))
        {
          printf ("child %d failed\n", k);
          return 1;
        }
      printf ("child %d status %d (expected %d)\n", k, WEXITSTATUS (st),
              k == 3 ? (child_work (3) + child_work (9)) % 64 : child_work (k));
    }
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* osp-test: cflags=-fexceptions
   __attribute__((cleanup)) with -fexceptions (EH edges in C), vfork + _exit, a statement
   expression with a nested loop, and a cleanup run on every path out of a loop body.
   oracle: (counts compared with gcov by tests/oracle.sh) */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int cleanups;

static void release (int **p)
{
  if (*p)
    {
      cleanups++;
      free (*p);
    }
}

static int __attribute__((noinline)) use_buffers (int n)
{
  int total = 0;
  for (int i = 0; i < n; i++)
    {
      int *buf __attribute__((cleanup (release))) = malloc (sizeof (int) * (size_t) (i + 1));
      for (int k = 0; k <= i; k++)
        buf[k] = k;
      total += ({ int s = 0; for (int k = 0; k <= i; k++) s += buf[k]; s; });
      if (i % 7 == 3)
        continue;
      if (i == n - 2)
        break;
      total++;
    }
  return total;
}

static int __attribute__((noinline)) child_status (void)
{
  pid_t p = vfork ();
  if (p == 0)
    _exit (42);
  int st;
  if (p < 0 || waitpid (p, &st, 0) != p)
    return -1;
  return WEXITSTATUS (st);
}

int main (void)
{
  int t = use_buffers (50);
  printf ("use_buffers %d cleanups %d\n", t, cleanups);
  printf ("vfork child %d\n", child_status ());
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

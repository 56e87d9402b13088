/* osp-test: publish-live: a program that stays alive on demand, for tests/publish.sh.
     publish-live wait        prints "ready ...", waits for a line on stdin, prints "done ..."
     publish-live fork FILE   three children each compute, live 300 ms and exit with a status;
                              their pids go to FILE (not stdout, which must not depend on them)
   Every result printed is deterministic, so the instrumented build prints exactly what the plain
   one does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static unsigned long __attribute__ ((noinline)) work (int n)
{
  unsigned long v = 1;
  for (int i = 0; i < n; i++)
    v = (i % 3 == 0) ? v * 2654435761u % 1000000007u : v + (unsigned long) i;
  return v;
}

static void
sleep_ms (long ms)
{
  struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
  while (nanosleep (&ts, &ts) != 0)
    ;
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "wait") == 0)
    {
      printf ("ready %lu\n", work (100000));
      fflush (stdout);
      char line[64];
      if (fgets (line, sizeof line, stdin) == NULL)
        return 3;
      printf ("done %lu\n", work (200000));
      return 0;
    }
  if (argc > 2 && strcmp (argv[1], "fork") == 0)
    {
      FILE *pids = fopen (argv[2], "w");
      if (pids == NULL)
        return 2;
      pid_t child[3];
      fflush (stdout);
      for (int k = 0; k < 3; k++)
        {
          child[k] = fork ();
          if (child[k] < 0)
            return 2;
          if (child[k] == 0)
            {
              int st = (int) (work (10000 * (k + 1)) % 64);
              sleep_ms (300);
              exit (st);
            }
          fprintf (pids, "%ld\n", (long) child[k]);
        }
      fclose (pids);
      for (int k = 0; k < 3; k++)
        {
          int status;
          waitpid (child[k], &status, 0);
          printf ("child %d: %d\n", k, WIFEXITED (status) ? WEXITSTATUS (status) : -1);
        }
      return 0;
    }
  fprintf (stderr, "usage: publish-live wait | fork FILE\n");
  return 2;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

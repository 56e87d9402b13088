/* SPDX-License-Identifier: GPL-3.0-or-later */
/* quiet-default.c - a program run with osp's defaults (tests/quiet-default.sh):
 * a hot loop, one line of its own on stderr, exit status 3.
 *
 *   quiet-default N            the loop N times
 *   quiet-default N chdir DIR  then chdir (DIR) before exit: the default
 *                              snapshot stays in the start-up directory
 *   quiet-default N fork       a child runs the loop too and exits with
 *                              exit (), before the parent */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned
work (unsigned n)
{
  unsigned s = 0;
  for (unsigned i = 0; i < n; i++)
    s += (i * 2654435761u) >> 29; /* HOT */
  return s;
}

int
main (int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned) strtoul (argv[1], NULL, 10) : 1000;
  const char *what = argc > 2 ? argv[2] : "";
  if (strcmp (what, "fork") == 0)
    {
      fflush (NULL);
      pid_t pid = fork ();
      if (pid == 0)
        {
          printf ("child %u\n", work (n));
          exit (0);
        }
      int status;
      if (pid < 0 || waitpid (pid, &status, 0) != pid)
        return 1;
    }
  printf ("%u\n", work (n));
  fprintf (stderr, "quiet-default: its own line\n");
  if (strcmp (what, "chdir") == 0 && argc > 3 && chdir (argv[3]) != 0)
    return 1;
  return 3;
}

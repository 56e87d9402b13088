/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/progs/maxrss.c - maxrss FILE CMD ARGS...: run CMD, write its peak resident set size
   in KiB (getrusage's ru_maxrss of the child, from wait4) to FILE, exit with its status (128 +
   the signal if it was killed).  tests/viewer-fleet.sh measures ospview --merge with it. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: maxrss FILE CMD ARGS...\n");
      return 2;
    }
  pid_t pid = fork ();
  if (pid < 0)
    {
      perror ("maxrss: fork");
      return 2;
    }
  if (pid == 0)
    {
      execvp (argv[2], argv + 2);
      perror ("maxrss: exec");
      _exit (127);
    }
  int status;
  struct rusage ru;
  if (wait4 (pid, &status, 0, &ru) != pid)
    {
      perror ("maxrss: wait4");
      return 2;
    }
  FILE *f = fopen (argv[1], "w");
  if (f == NULL || fprintf (f, "%ld\n", ru.ru_maxrss) < 0 || fclose (f) != 0)
    {
      perror ("maxrss: writing the figure");
      return 2;
    }
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

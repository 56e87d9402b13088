/* osp-test: shm-safety: a program for tests/safety-shm.sh (live views' shared memory).
     shm-safety wait               prints "ready PID" (its pid as it sees itself), waits for a line
                                   on stdin (running a little code every 10 ms, so that a viewer's
                                   request for views is noticed), prints "done"
     shm-safety exitfork N FILE GO forks N children that compute, write their pids to FILE (one
                                   line each, appended), wait until the file GO exists (10 s at
                                   most) and end with _exit (no exit path, no unlink); the parent
                                   prints "children done" once all are reaped, then waits for a
                                   line on stdin (running code as "wait" does: its runtime entries
                                   sweep the children's leftovers) and prints "done"
     shm-safety truncloop F G STOP until the file STOP exists: truncate F to nothing, write G's
                                   bytes back into it, again
     shm-safety forks N            N times: fork a child that computes a little and exits; wait
                                   for it (for timing fork-heavy programs)
   What it prints does not depend on the build, so the instrumented one prints what the plain
   one does. */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
wait_line (void)
{
  char line[64];
  if (fgets (line, sizeof line, stdin) == NULL)
    exit (3);
}

/* wait_line, running a little instrumented code every 10 ms meanwhile:
   without a viewer the runtime has no thread, and a parent removes its
   children's leftovers from its runtime entries (and at exit). */
static void
wait_line_busy (void)
{
  struct pollfd p = { .fd = 0, .events = POLLIN };
  unsigned long v = 0;
  while (poll (&p, 1, 10) == 0)
    v += work (100);
  if (v == 1) /* never: keeps the work */
    puts ("");
  wait_line ();
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "wait") == 0)
    {
      printf ("ready %ld %lu\n", (long) getpid (), work (1000) % 10);
      fflush (stdout);
      wait_line_busy (); /* a viewer's request is noticed */
      printf ("done %lu\n", work (100000));
      return 0;
    }
  if (argc > 4 && strcmp (argv[1], "exitfork") == 0)
    {
      int n = atoi (argv[2]);
      fflush (stdout);
      for (int k = 0; k < n; k++)
        {
          pid_t c = fork ();
          if (c < 0)
            return 2;
          if (c == 0)
            {
              unsigned long v = work (10000);
              int fd = open (argv[3], O_WRONLY | O_APPEND | O_CREAT, 0644);
              char line[32];
              int len = snprintf (line, sizeof line, "%ld\n", (long) getpid ());
              if (fd < 0 || write (fd, line, (size_t) len) != len)
                _exit (2);
              close (fd);
              struct stat st;
              for (int i = 0; i < 1000 && stat (argv[4], &st) != 0; i++)
                {
                  struct timespec ts = { 0, 10000000 };
                  nanosleep (&ts, NULL);
                  v += work (100);
                }
              _exit ((int) (v & 0));
            }
        }
      int bad = 0;
      for (int k = 0; k < n; k++)
        {
          int status;
          if (wait (&status) < 0 || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
            bad++;
        }
      printf ("children done, %d failed\n", bad);
      fflush (stdout);
      wait_line_busy ();
      printf ("done %lu\n", work (1000));
      return 0;
    }
  if (argc > 2 && strcmp (argv[1], "forks") == 0)
    {
      int n = atoi (argv[2]);
      unsigned long sum = 0;
      for (int k = 0; k < n; k++)
        {
          fflush (stdout);
          pid_t c = fork ();
          if (c < 0)
            return 2;
          if (c == 0)
            exit ((int) (work (1000) % 2));
          int status;
          waitpid (c, &status, 0);
          sum += WIFEXITED (status) ? (unsigned long) WEXITSTATUS (status) : 99;
        }
      printf ("forks %d: %lu\n", n, sum);
      return 0;
    }
  if (argc > 4 && strcmp (argv[1], "truncloop") == 0)
    {
      static char good[1 << 20];
      int g = open (argv[3], O_RDONLY);
      ssize_t n = g < 0 ? -1 : read (g, good, sizeof good);
      int fd = open (argv[2], O_RDWR);
      if (n <= 0 || fd < 0)
        return 2;
      struct stat st;
      for (unsigned long k = 0; stat (argv[4], &st) != 0; k++)
        {
          if (ftruncate (fd, 0) != 0 || pwrite (fd, good, (size_t) n, 0) != n)
            return 2;
          if (k % 64 == 0)
            {
              struct timespec ts = { 0, 100000 };
              nanosleep (&ts, NULL);
            }
        }
      return 0;
    }
  fprintf (stderr, "usage: shm-safety wait | exitfork N FILE GO | truncloop F G STOP | forks N\n");
  return 2;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

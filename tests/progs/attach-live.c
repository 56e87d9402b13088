/* osp-test: attach-live: for tests/safety-attach.sh (a process no viewer watches has no extra thread).
     attach-live unshare     prints its thread count (/proc/self/status), then unshare
                             (CLONE_NEWUSER): "unshare ok", or "unshare: <error>" and status 1
     attach-live live        prints its thread count and "ready", then runs a little code every
                             10 ms until a line arrives on stdin, and prints "done"
     attach-live fork FILE   the same in a forked child (its pid written to FILE, its thread
                             count to FILE.threads); the parent waits for it: "child 0"
   What it prints does not depend on the build (the thread count is checked before any viewer
   attached), so the instrumented one prints what the plain one does. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned long __attribute__ ((noinline)) work (int n)
{
  unsigned long v = 1;
  for (int i = 0; i < n; i++)
    v = (i % 3 == 0) ? v * 2654435761u % 1000000007u : v + (unsigned long) i;
  return v;
}

static int
threads (void)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];
  int n = -1;
  while (f != NULL && fgets (line, sizeof line, f))
    if (sscanf (line, "Threads: %d", &n) == 1)
      break;
  if (f != NULL)
    fclose (f);
  return n;
}

/* Until a line arrives on stdin, run some instrumented code every 10 ms. */
static void
busy_until_line (void)
{
  struct pollfd p = { .fd = 0, .events = POLLIN };
  unsigned long v = 0;
  while (poll (&p, 1, 10) == 0)
    v += work (2000);
  char line[64];
  if (fgets (line, sizeof line, stdin) == NULL || v == 1)
    exit (3);
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "unshare") == 0)
    {
      printf ("threads %d\n", threads ());
      if (unshare (CLONE_NEWUSER) != 0)
        {
          printf ("unshare: %s\n", strerror (errno));
          return 1;
        }
      printf ("unshare ok %lu\n", work (1000) % 10);
      return 0;
    }
  if (argc > 1 && strcmp (argv[1], "live") == 0)
    {
      printf ("threads %d\n", threads ());
      printf ("ready %lu\n", work (1000) % 10);
      fflush (stdout);
      busy_until_line ();
      printf ("done\n");
      return 0;
    }
  if (argc > 2 && strcmp (argv[1], "fork") == 0)
    {
      fflush (stdout);
      pid_t c = fork ();
      if (c < 0)
        return 2;
      if (c == 0)
        {
          char name[4096];
          snprintf (name, sizeof name, "%s.threads", argv[2]);
          FILE *t = fopen (name, "w");
          if (t == NULL || fprintf (t, "%d\n", threads ()) < 0
              || fclose (t) != 0)
            _exit (2);
          FILE *f = fopen (argv[2], "w");
          if (f == NULL || fprintf (f, "%ld\n", (long) getpid ()) < 0 || fclose (f) != 0)
            _exit (2);
          busy_until_line ();
          exit (0); /* the exit path: the child's last view */
        }
      int status;
      if (waitpid (c, &status, 0) != c)
        return 2;
      printf ("child %d\n", WIFEXITED (status) ? WEXITSTATUS (status) : 128);
      return 0;
    }
  fprintf (stderr, "usage: attach-live unshare | live | fork FILE\n");
  return 2;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

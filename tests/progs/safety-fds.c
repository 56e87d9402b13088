/* tests/progs/safety-fds.c - a program that takes its file descriptors back from whatever
   inherited them, as daemons do, for tests/safety-fds.sh.  Usage:

     safety-fds high DIR   close every fd >= 3, open DIR/a and DIR/b (they get the lowest
                           numbers, those osp could have kept), raise SIGWINCH (the test sets
                           report_signal=WINCH; ignored by default, so the plain build
                           runs the same), then write "data a\n" and "data b\n" into them.
     safety-fds std DIR    close fds 0, 1 and 2, open DIR/0, DIR/1 and DIR/2 (they become fds 0,
                           1 and 2) and write "data N\n" into each; the exit report and any osp
                           message would go to fd 1 or 2 next.

   Each file must hold exactly what the program wrote into it.  Some branchy work runs first so
   that there is a profile to report. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static unsigned
step (unsigned x)
{
  return (x & 1) ? 3 * x + 1 : x / 2;
}

static unsigned long
work (void)
{
  unsigned long total = 0;
  for (unsigned n = 1; n < 5000; n++)
    for (unsigned x = n; x != 1; x = step (x))
      total++;
  return total;
}

static int
create (const char *dir, const char *name)
{
  char path[4096];
  snprintf (path, sizeof path, "%s/%s", dir, name);
  return open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
}

static void
put (int fd, const char *text)
{
  ssize_t unused = write (fd, text, strlen (text));
  (void) unused;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    return 2;
  unsigned long total = work ();
  if (strcmp (argv[1], "high") == 0)
    {
      struct rlimit rl;
      int max = getrlimit (RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 65536
                    ? (int) rl.rlim_cur
                    : 65536;
      for (int fd = 3; fd < max; fd++)
        close (fd);
      int a = create (argv[2], "a"), b = create (argv[2], "b");
      if (a < 0 || b < 0)
        return 3;
      raise (SIGWINCH);
      /* Give a report thread, if any, the time to run (not needed for the check: a byte would
         have been written by the handler, within raise). */
      struct timespec ts = { 0, 100 * 1000 * 1000 };
      nanosleep (&ts, NULL);
      put (a, "data a\n");
      put (b, "data b\n");
      close (a);
      close (b);
      printf ("steps %lu\n", total);
      return 0;
    }
  if (strcmp (argv[1], "std") == 0)
    {
      close (0);
      close (1);
      close (2);
      int f0 = create (argv[2], "0"), f1 = create (argv[2], "1"),
          f2 = create (argv[2], "2");
      if (f0 != 0 || f1 != 1 || f2 != 2)
        return 3;
      put (0, "data 0\n");
      put (1, "data 1\n");
      put (2, "data 2\n");
      return 0;
    }
  return 2;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

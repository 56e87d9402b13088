/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench/pubcost.c - what live publishing costs a running program (issue 36's
 * goal: under 1% of a core at the default period).  Attaches to PID's
 * segment as a viewer does (osp/shm.h: stores 1 into `attach', so the
 * runtime starts publishing), then until the process exits reads the
 * segment's publishes and publish_ns and the CPU time of PID's threads
 * other than its main thread (the publisher, /proc/PID/task/TID/stat), and
 * prints them with the share of a core over the time it watched:
 *
 *     cc -O2 -I include bench/pubcost.c -o pubcost
 *     ./prog ARGS > /dev/null & ./pubcost $!
 *
 * (The program must be instrumented and publishing: publish=on, the
 * default.  A program with threads of its own counts them too.)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "osp/shm.h"

/* User + system clock ticks of PID's threads but the main one; -1 when
   the process is gone. */
static long
other_ticks (int pid)
{
  char dir[64];
  snprintf (dir, sizeof dir, "/proc/%d/task", pid);
  DIR *d = opendir (dir);
  if (d == NULL)
    return -1;
  long sum = 0;
  struct dirent *e;
  while ((e = readdir (d)) != NULL)
    {
      int tid = atoi (e->d_name);
      if (tid <= 0 || tid == pid)
        continue;
      char f[128], buf[1024];
      snprintf (f, sizeof f, "/proc/%d/task/%d/stat", pid, tid);
      FILE *in = fopen (f, "r");
      if (in == NULL)
        continue;
      size_t n = fread (buf, 1, sizeof buf - 1, in);
      fclose (in);
      buf[n] = '\0';
      /* Fields 14 and 15 (utime, stime) follow the command's ')'. */
      const char *p = strrchr (buf, ')');
      long ut, st;
      if (p != NULL
          && sscanf (p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld",
                     &ut, &st) == 2)
        sum += ut + st;
    }
  closedir (d);
  return sum;
}

static double
now_s (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

int
main (int argc, char **argv)
{
  if (argc != 2 || atoi (argv[1]) <= 0)
    {
      fprintf (stderr, "usage: pubcost PID\n");
      return 2;
    }
  int pid = atoi (argv[1]);
  char path[96];
  snprintf (path, sizeof path, "/dev/shm/osp-%d-%d", (int) geteuid (), pid);
  int fd = -1;
  for (int i = 0; i < 5000 && fd < 0 && kill (pid, 0) == 0; i++)
    if ((fd = open (path, O_RDWR)) < 0)
      usleep (1000);
  if (fd < 0)
    {
      fprintf (stderr, "pubcost: no segment %s (not instrumented, publish=off, or gone)\n",
               path);
      return 1;
    }
  struct osp_shm_header *h = mmap (NULL, sizeof *h, PROT_READ | PROT_WRITE,
                                   MAP_SHARED, fd, 0);
  close (fd);
  if (h == MAP_FAILED)
    {
      perror ("pubcost: mmap");
      return 1;
    }
  atomic_store (&h->attach, 1);
  double t0 = now_s (), t1 = t0;
  unsigned long long pubs = 0, ns = 0;
  long ticks = 0, t;
  while (atomic_load (&h->state) != OSP_SHM_EXITED && (t = other_ticks (pid)) >= 0)
    {
      ticks = t;
      pubs = atomic_load (&h->publishes);
      ns = atomic_load (&h->publish_ns);
      t1 = now_s ();
      usleep (50000);
    }
  double cpu_ms = (double) ticks * 1000.0 / (double) sysconf (_SC_CLK_TCK);
  printf ("publishes %llu, %.2f ms each (wall), publisher CPU %.0f ms in %.1f s = %.2f%% of a core\n",
          pubs, pubs ? (double) ns / 1e6 / (double) pubs : 0.0, cpu_ms, t1 - t0,
          t1 > t0 ? cpu_ms / 10.0 / (t1 - t0) : 0.0);
  return 0;
}

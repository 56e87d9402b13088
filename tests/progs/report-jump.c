/* tests/progs/report-jump.c - osp_report() left by a siglongjmp out of a signal handler that
 * interrupted it (tests/safety-signals.sh; instrumented builds only: it calls osp_report).
 *
 * Usage: report-jump RESULT, with OSP_OPTIONS report=stdout and stdout a pipe nobody reads yet.
 * The program fills the pipe, then three times calls osp_report (NULL), whose write of the report
 * to stdout blocks; a thread of ours waits until the main thread is blocked in write(2)
 * (/proc/self/task/TID/syscall) and sends it SIGUSR1, whose handler jumps back out of the call:
 * so the jump always lands in a system call, never inside malloc.  Then after() runs 1000
 * times and osp_report (RESULT.tsv) writes a report to a file.  RESULT gets "jumps N" and
 * "report R" (R: that last call's return value, 0 when it wrote the report).  Before the fix
 * osp_report pinned the runtime's re-entrancy flag: the jump left it set, every later hook of
 * the thread was lost and every later osp_report returned -1. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <osp/osp.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static sigjmp_buf again;
static volatile sig_atomic_t in_report;
static volatile unsigned jumps;
static pthread_t main_thread;
static volatile int finished;

static void
on_usr1 (int sig)
{
  (void) sig;
  if (in_report)
    {
      in_report = 0;
      jumps++;
      siglongjmp (again, 1);
    }
}

/* Whether thread TID is blocked in write(2) now. */
static int
in_write (pid_t tid)
{
  char file[64], buf[64];
  snprintf (file, sizeof file, "/proc/self/task/%ld/syscall", (long) tid);
  int fd = open (file, O_RDONLY);
  if (fd < 0)
    return 0;
  ssize_t n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  return atol (buf) == SYS_write && buf[0] != '-';
}

static void *
watcher (void *arg)
{
  pid_t tid = *(pid_t *) arg;
  while (!finished)
    {
      if (in_report && in_write (tid))
        pthread_kill (main_thread, SIGUSR1);
      struct timespec ts = { 0, 2000000 };
      nanosleep (&ts, NULL);
    }
  return NULL;
}

static volatile unsigned long sink;

static __attribute__ ((noinline)) void
after (unsigned i)
{
  if (i % 3)
    sink += i;
  else
    sink ^= i;
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    return 2;
  /* Without /proc's view of a thread's system call there is no telling
     where the signal would land: nothing to check. */
  char self[64];
  snprintf (self, sizeof self, "/proc/self/task/%ld/syscall",
            (long) syscall (SYS_gettid));
  if (access (self, R_OK) != 0)
    {
      FILE *f = fopen (argv[1], "w");
      return f == NULL || fputs ("no /proc/self/task/TID/syscall\n", f) < 0
             || fclose (f) != 0 ? 2 : 0;
    }
  /* Fill the pipe: from now on a write to stdout blocks. */
  int fl = fcntl (1, F_GETFL);
  fcntl (1, F_SETFL, fl | O_NONBLOCK);
  static char junk[4096];
  memset (junk, '.', sizeof junk);
  while (write (1, junk, sizeof junk) > 0)
    ;
  while (write (1, junk, 1) > 0)
    ;
  fcntl (1, F_SETFL, fl);

  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR1, &sa, NULL);
  main_thread = pthread_self ();
  pid_t tid = (pid_t) syscall (SYS_gettid);
  pthread_t w;
  if (pthread_create (&w, NULL, watcher, &tid) != 0)
    return 2;
  static volatile int tries;
  sigsetjmp (again, 1);
  while (tries < 3)
    {
      tries++;
      in_report = 1;
      osp_report (NULL); /* blocks in its write until the jump (or -1) */
      in_report = 0;
    }
  finished = 1;
  pthread_join (w, NULL);
  for (unsigned i = 0; i < 1000; i++)
    after (i);
  char path[4096];
  snprintf (path, sizeof path, "%s.tsv", argv[1]);
  int rc = osp_report (path);
  FILE *f = fopen (argv[1], "w");
  if (f == NULL || fprintf (f, "jumps %u\nreport %d\n", jumps, rc) < 0 || fclose (f) != 0)
    return 2;
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

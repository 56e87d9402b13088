/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/progs/window.c - a long run, then a short window, for tests/recent-interval.sh: the
   interval ospview gives what ran between two snapshots of one process.  Usage: window DIR
   ROUNDS1 ROUNDS2 [CAP]; CAP seconds (alarm, default 600) only end a program whose test died.
     1. ROUNDS1 rounds of work(), then osp_report (DIR/r1.txt) (which settles this thread's
        queued samples into the profile, so a view published later holds all of them),
        creates DIR/s1 and waits for SIGUSR1 (no instrumented code runs meanwhile);
     2. ROUNDS2 rounds of work(), osp_report (DIR/r2.txt), DIR/s2, waits for SIGUSR1 again;
     3. prints a checksum, exits 0.
   Deterministic: with seed=N the samples are the same every run, and mode=subpaths-exact
   counts what ran in each step exactly. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "osp/osp.h"

#define ITERS 100000u

static volatile sig_atomic_t go;

static void
on_usr1 (int sig)
{
  (void) sig;
  go++;
}

/* Two branches on lines of their own, so that every subpath's text is its own. */
static unsigned __attribute__ ((noinline)) work (unsigned n, unsigned s)
{
  for (unsigned i = 0; i < n; i++)
    {
      if (s & 1)
        s = s * 1103515245u + 12345u;
      else
        s = (s >> 1) ^ 0x9e3779b9u;
    }
  return s;
}

static void
step_done (const char *dir, const char *name, sig_atomic_t want, const sigset_t *wait_mask)
{
  char p[4200];
  snprintf (p, sizeof p, "%s/r%s.txt", dir, name + 1);
  osp_report (p);
  snprintf (p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen (p, "w");
  if (f)
    fclose (f);
  while (go < want)
    sigsuspend (wait_mask);
}

int
main (int argc, char **argv)
{
  if (argc < 4 || argc > 5 || strlen (argv[1]) > 4000)
    {
      fprintf (stderr, "usage: window DIR ROUNDS1 ROUNDS2 [CAP]\n");
      return 2;
    }
  unsigned r1 = (unsigned) atoi (argv[2]), r2 = (unsigned) atoi (argv[3]);
  alarm (argc > 4 ? (unsigned) atoi (argv[4]) : 600u);
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR1, &sa, NULL);
  /* SIGUSR1 only wakes sigsuspend: none is lost between the test's kill and the wait */
  sigset_t block, wait_mask;
  sigemptyset (&block);
  sigaddset (&block, SIGUSR1);
  sigprocmask (SIG_BLOCK, &block, &wait_mask);
  sigdelset (&wait_mask, SIGUSR1);
  unsigned s = 1;
  for (unsigned r = 0; r < r1; r++)
    s = work (ITERS, s);
  step_done (argv[1], "s1", 1, &wait_mask);
  for (unsigned r = 0; r < r2; r++)
    s = work (ITERS, s);
  step_done (argv[1], "s2", 2, &wait_mask);
  printf ("%u\n", s);
  return 0;
}

/* tests/progs/phases.c - a program with two phases, for tests/viewer-recent.sh: recent mode
   (ospview --recent) and --diff between two snapshots of one process.  Usage: phases DIR
   [CAP]; CAP seconds (alarm, default 600) only end a program whose test died.
   No clock is read: the test drives the phases, so they last as long as the test needs however
   loaded the machine.
     phase A  a()'s loop, round after round, until the file DIR/b exists; after A_ROUNDS rounds
              it creates DIR/a-done (the test then knows a() has done a fixed amount of work)
     phase B  creates DIR/in-b, then runs b()'s loop for half as many rounds as phase A ran
              (so that a() stays ahead in the cumulative profile), creates DIR/b-done
     idle     waits for SIGUSR1 in sigsuspend: no instrumented code runs, so every recent rate
              is zero; SIGUSR1 in any phase ends the program (exit 0).
   stdout: a checksum and the rounds of each phase. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define A_ROUNDS 6000u
#define ITERS 200000u

static volatile sig_atomic_t stop;

static void
on_usr1 (int sig)
{
  (void) sig;
  stop = 1;
}

static unsigned __attribute__ ((noinline)) a (unsigned n, unsigned s)
{
  for (unsigned i = 0; i < n; i++)
    s = s * 1103515245u + 12345u; /* [A] */
  return s;
}

static unsigned __attribute__ ((noinline)) b (unsigned n, unsigned s)
{
  for (unsigned i = 0; i < n; i++)
    s = (s ^ (s >> 7)) * 2654435761u + i; /* [B] */
  return s;
}

static void
touch (const char *dir, const char *name)
{
  char p[4200];
  snprintf (p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen (p, "w");
  if (f)
    fclose (f);
}

int
main (int argc, char **argv)
{
  if (argc < 2 || argc > 3 || strlen (argv[1]) > 4000)
    {
      fprintf (stderr, "usage: phases DIR [CAP]\n");
      return 2;
    }
  alarm (argc > 2 ? (unsigned) atoi (argv[2]) : 600u);
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR1, &sa, NULL);
  char go_b[4200];
  snprintf (go_b, sizeof go_b, "%s/b", argv[1]);
  unsigned s = 1, ra = 0, rb = 0;
  for (; !stop && access (go_b, F_OK) != 0; ra++)
    {
      s = a (ITERS, s);
      if (ra + 1 == A_ROUNDS)
        touch (argv[1], "a-done");
    }
  touch (argv[1], "in-b");
  for (; !stop && rb < ra / 2; rb++)
    s = b (ITERS, s);
  touch (argv[1], "b-done");
  sigset_t block, old;
  sigemptyset (&block);
  sigaddset (&block, SIGUSR1);
  sigprocmask (SIG_BLOCK, &block, &old);
  while (!stop)
    sigsuspend (&old);
  printf ("%u %u %u\n", s, ra, rb);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

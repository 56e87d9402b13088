/* tests/progs/longjmp-alarm.c - the usual timeout pattern: a frequent SIGALRM whose handler
 * siglongjmps back to the main loop, wherever the signal landed - often in the middle of an osp
 * hook, a batch flush under a runtime lock, or a path end (tests/safety-signals.sh).
 *
 * The work is ROUNDS rounds; a round interrupted by the jump is simply done again, so stdout (a
 * checksum of every round's result, printed before exit() flushes it) is the same whatever the
 * timing.  The handler jumps only when a round was finished since its last jump, so the program
 * always gets to the end, however slow the build.  stderr says how many jumps there were.
 *
 * Arguments: the number of rounds (default 3000); a second argument, `quiet', leaves the timer
 * off (the same work without a signal: the counts to compare with). */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#define MAX_ROUNDS 100000

static sigjmp_buf again;
static volatile sig_atomic_t armed;
static volatile unsigned done, done_at_jump;
static uint64_t results[MAX_ROUNDS];

static void
on_alarm (int sig)
{
  (void) sig;
  if (armed && done != done_at_jump)
    {
      done_at_jump = done;
      siglongjmp (again, 1);
    }
}

static __attribute__ ((noinline)) uint64_t
mix (uint64_t x, unsigned k)
{
  switch (k % 4)
    {
    case 0:
      return x * 31 + k;
    case 1:
      return x ^ (x >> 7);
    case 2:
      return x + (x << 3) + 1;
    default:
      return x % 1000003 + k;
    }
}

static __attribute__ ((noinline)) uint64_t
work (unsigned round)
{
  uint64_t x = round + 1, acc = 0;
  for (unsigned i = 0; i < 400; i++)
    {
      if (x & 1)
        x = 3 * x + 1;
      else
        x /= 2;
      if (x < 4)
        x += round + i;
      acc = mix (acc + x, i);
    }
  return acc;
}

int
main (int argc, char **argv)
{
  unsigned rounds = argc > 1 ? (unsigned) strtoul (argv[1], NULL, 10) : 3000;
  if (rounds == 0 || rounds > MAX_ROUNDS)
    {
      fprintf (stderr, "longjmp-alarm: rounds must be 1..%d\n", MAX_ROUNDS);
      return 2;
    }
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGALRM, &sa, NULL);
  struct itimerval it = { { 0, 200 }, { 0, 200 } };
  if (argc <= 2 || strcmp (argv[2], "quiet") != 0)
    setitimer (ITIMER_REAL, &it, NULL);

  static volatile unsigned long jumps;
  if (sigsetjmp (again, 1) != 0)
    jumps++;
  armed = 1;
  while (done < rounds)
    {
      uint64_t r = work (done);
      results[done] = r; /* a round done again stores the same */
      done = done + 1;
    }
  armed = 0;
  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  setitimer (ITIMER_REAL, &off, NULL);

  uint64_t sum = 0;
  for (unsigned i = 0; i < rounds; i++)
    sum = sum * 1099511628211u + results[i];
  printf ("rounds %u checksum %llu\n", rounds, (unsigned long long) sum);
  fprintf (stderr, "longjmp-alarm: %lu jumps\n", jumps);
  exit (0);
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* osp-test: expect=on_usr1 expect=on_usr2
   signals: handlers that call instrumented code, raise() inside loops, SIGALRM from
   an interval timer while the main thread spins, siglongjmp out of a handler.
   (on_alarm is not in expect=: an alarm that interrupts the runtime's hook is counted in
   stat hits_lost, not in the handler's block counts.) */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static volatile sig_atomic_t usr1_count, alarm_count;
static volatile long handler_work;
static sigjmp_buf escape;

static long __attribute__((noinline)) in_handler_work (int sig)
{
  long r = 0;
  for (int i = 0; i < sig * 10; i++)
    r += i % 7;
  return r;
}

static void on_usr1 (int sig)
{
  usr1_count++;
  handler_work += in_handler_work (sig);
}

static void on_alarm (int sig)
{
  (void) sig;
  alarm_count++;
}

static void on_usr2 (int sig)
{
  siglongjmp (escape, sig);
}

int main (void)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sigemptyset (&sa.sa_mask);
  sa.sa_handler = on_usr1;
  sigaction (SIGUSR1, &sa, NULL);
  sa.sa_handler = on_alarm;
  sigaction (SIGALRM, &sa, NULL);
  sa.sa_handler = on_usr2;
  sigaction (SIGUSR2, &sa, NULL);

  for (int i = 0; i < 100; i++)
    if (i % 3 == 0)
      raise (SIGUSR1);
  printf ("usr1 %d work %ld\n", (int) usr1_count, handler_work);

  struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
  setitimer (ITIMER_REAL, &it, NULL);
  unsigned long spins = 0;
  while (alarm_count < 5)
    spins++;
  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  setitimer (ITIMER_REAL, &off, NULL);
  printf ("alarms >= 5: %d\n", alarm_count >= 5);

  volatile int escaped = 0;
  int s = sigsetjmp (escape, 1);
  if (s == 0)
    {
      raise (SIGUSR2);
      printf ("not reached\n");
    }
  else
    escaped = s;
  printf ("escaped via %s\n", escaped == SIGUSR2 ? "SIGUSR2" : "?");
  /* the mask was restored by siglongjmp: a second SIGUSR2 is delivered again */
  if (sigsetjmp (escape, 1) == 0)
    raise (SIGUSR2);
  else
    escaped++;
  printf ("escaped twice %d\n", escaped == SIGUSR2 + 1);
  return spins == 0 ? 3 : 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

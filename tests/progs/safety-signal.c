/* tests/progs/safety-signal.c - what a program sees of its own SIGUSR2 disposition, for
   tests/safety-fds.sh (report_signal=USR2, snapshot_signal=USR2).  The test starts it with
   SIGUSR2 ignored (inherited through exec, as `trap '' USR2` or nohup-like launchers do).  It
   prints the disposition osp left it, raises SIGUSR2 (ignored: nothing happens), then installs
   a handler of its own and checks that sigaction reports the old disposition it expects, and that
   the handler runs. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t got;

static void
on_usr2 (int sig)
{
  (void) sig;
  got++;
}

static const char *
disposition (const struct sigaction *sa)
{
  if (sa->sa_flags & SA_SIGINFO)
    return "handled";
  if (sa->sa_handler == SIG_IGN)
    return "ignored";
  if (sa->sa_handler == SIG_DFL)
    return "default";
  return sa->sa_handler == on_usr2 ? "mine" : "foreign";
}

int
main (void)
{
  struct sigaction sa, old;
  sigaction (SIGUSR2, NULL, &old);
  printf ("at start: %s\n", disposition (&old));
  raise (SIGUSR2);
  printf ("survived the signal\n");
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_usr2;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR2, &sa, &old);
  printf ("replaced: %s\n", disposition (&old));
  raise (SIGUSR2);
  sigaction (SIGUSR2, NULL, &old);
  printf ("now: %s, handler ran %d time(s)\n", disposition (&old), (int) got);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

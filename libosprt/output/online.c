/* SPDX-License-Identifier: MIT */
/* online.c - reports while the program runs: osp_report() (osp/osp.h,
 * whose entry point is runtime.c's: it may start the runtime),
 * OSP_OPTIONS=report_signal=SIG, and snapshots on snapshot_signal=SIG.
 *
 * osp_report() runs on the calling program thread: it first settles that
 * thread's own samplers (the part of the current skip or path countdown
 * already consumed, the queued samples and path batch), then takes and
 * writes a report exactly as at exit.  Other threads keep running; their
 * counters are read as of their last hook and their few queued samples
 * wait for their next flush.
 *
 * report_signal, snapshot_signal: a signal handler may not take locks or
 * allocate, so it only sets the bit of its job in an atomic word and
 * sem_post()s a semaphore (both async-signal-safe).  A runtime thread,
 * started at start-up only when the option is set, waits on the semaphore
 * and writes a report or a snapshot (snapshot.c) for the jobs it finds
 * asked (one of each per burst).  No file descriptor is involved: osp
 * keeps none open under the program, which may close any fd it did not
 * open and reuse its number (doc/osp.md, "File descriptors and the
 * program's output").  The thread is created with every signal blocked,
 * so it never runs the program's handlers and never takes a
 * process-directed signal meant for the program; it runs no instrumented
 * code.
 *
 * osp takes a signal only when its disposition is still SIG_DFL at
 * start-up: one inherited as ignored (SIG_IGN survives exec) or already
 * handled is the program's, and the feature is off with one line.  A
 * program that installs its own handler later replaces ours: the feature
 * stops, and the program's handler alone runs (but its sigaction sees
 * ours as the old one).  A forked child has no report thread (it still
 * gets its exit report).
 */
#define _GNU_SOURCE
#include "output/output.h"

#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

/* What the handler asks for (WANT_* bits), and the count that wakes the
   thread: a semaphore in our own memory, not a pipe, because a fd we kept
   could be closed by the program and its number reused for the program's
   own file, which the handler would then write into. */
static atomic_int wants;
static sem_t wake;

enum { WANT_REPORT = 1, WANT_SNAPSHOT = 2 };

static void
on_signal (int sig)
{
  int saved = errno;
  atomic_fetch_or (&wants,
                   sig == osp_opts.snapshot_signal ? WANT_SNAPSHOT
                                                   : WANT_REPORT);
  sem_post (&wake); /* async-signal-safe; at SEM_VALUE_MAX a wake-up is
                       already due */
  errno = saved;
}

static void *
report_thread (void *arg)
{
  (void) arg;
  osp_in_runtime = 1; /* never counted, whatever it runs */
  for (;;)
    {
      if (sem_wait (&wake) != 0)
        {
          if (errno == EINTR)
            continue;
          return NULL;
        }
      /* One report (snapshot) for all the signals of a burst: the later
         wake-ups of the burst find nothing asked. */
      int want = atomic_exchange (&wants, 0);
      if (osp_running () && (want & WANT_REPORT))
        osp_report_emit (&osp_opts);
      if (osp_running () && (want & WANT_SNAPSHOT))
        osp_snapshot_emit (&osp_opts);
    }
}

/* Whether SIG still has the disposition a program that never touched it
   has (SIG_DFL): anything else was set by the program, by its parent
   (SIG_IGN survives exec), or by a library before us, and is not ours to
   take over. */
static int
signal_free (int sig, const char *key)
{
  struct sigaction old;
  if (sigaction (sig, NULL, &old) != 0)
    return 0;
  if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
    return 1;
  osp_warn ("osp: %s=%s: SIG%s is already %s by the program or its "
            "parent; %s is off", key, osp_signal_name (sig),
            osp_signal_name (sig),
            !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN
                ? "ignored"
                : "handled",
            key);
  return 0;
}

int
osp_online_init (const struct osp_options *o)
{
  int report = o->report_signal != 0
               && signal_free (o->report_signal, "report_signal");
  int snapshot = o->snapshot_signal != 0
                 && signal_free (o->snapshot_signal, "snapshot_signal");
  if (!report && !snapshot)
    return 0;
  if (sem_init (&wake, 0, 0) != 0)
    return -1;
  if (osp_start_thread (report_thread, NULL) != 0)
    {
      sem_destroy (&wake);
      return -1;
    }

  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESTART;
  sigemptyset (&sa.sa_mask);
  int rc = 0;
  if (report)
    rc |= sigaction (o->report_signal, &sa, NULL);
  if (snapshot)
    rc |= sigaction (o->snapshot_signal, &sa, NULL);
  return rc;
}

int
osp_report_now (const char *path)
{
  /* A stack mark, not OSP_RUNTIME_PINNED: a signal handler that
     interrupts the report and leaves by longjmp leaves the flag set, and
     the thread's next hook above this frame (or its next osp_report) must
     see the frame is gone and recover, or every hook of the thread would
     be lost from then on.  Its locks are safe (osp_lock holds signals). */
  if (!osp_running () || osp_opts.mode == OSP_MODE_OFF
      || !osp_runtime_enter (osp_stack_mark ()))
    return -1;
  struct osp_thread *t = osp_thread_peek ();
  if (t != NULL)
    osp_thread_settle (t);
  struct osp_options o = osp_opts;
  int rc = 0;
  if (path != NULL)
    {
      /* A literal path: double every '%' so no %p/%h expansion applies. */
      size_t n = 0;
      for (const char *c = path; *c; c++)
        {
          if (n + 3 > sizeof o.report_path)
            {
              rc = -1;
              break;
            }
          if (*c == '%')
            o.report_path[n++] = '%';
          o.report_path[n++] = *c;
        }
      o.report_path[n] = '\0';
      o.report = OSP_REPORT_FILE;
      if (rc != 0 || n == 0)
        {
          osp_warn ("osp: osp_report: bad path");
          rc = -1;
        }
    }
  if (rc == 0)
    rc = osp_report_emit (&o);
  atomic_signal_fence (memory_order_seq_cst);
  osp_in_runtime = 0;
  return rc;
}

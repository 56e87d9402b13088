/* online.c - reports while the program runs: osp_report() (osp/osp.h),
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
 * allocate, so it only write()s one byte naming the signal's job to a pipe (non-blocking: a burst of signals that
 * fills the pipe loses nothing but repeats).  A runtime thread, started
 * at start-up only when the option is set, blocks in read() on the other
 * end and writes a report or a snapshot (snapshot.c) for each wake-up (one
 * of each asked for per burst).  It is
 * created with every signal blocked, so it never runs the program's
 * handlers and never takes a process-directed signal meant for the
 * program; it runs no instrumented code.  Limits: the program replacing
 * our handler for SIG disables it; a forked child has no report thread
 * (it still gets its exit report).
 */
#define _GNU_SOURCE
#include "osprt.h"
#include "osp/osp.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static int pipe_fd[2] = { -1, -1 };

enum { WANT_REPORT = 1, WANT_SNAPSHOT = 2 };

static void
on_signal (int sig)
{
  int saved = errno;
  char c = sig == osp_opts.snapshot_signal ? WANT_SNAPSHOT : WANT_REPORT;
  ssize_t unused = write (pipe_fd[1], &c, 1);
  (void) unused;
  errno = saved;
}

static void *
report_thread (void *arg)
{
  (void) arg;
  osp_in_runtime = 1; /* never counted, whatever it runs */
  char buf[64];
  for (;;)
    {
      ssize_t n = read (pipe_fd[0], buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return NULL;
      int want = 0;
      for (ssize_t i = 0; i < n; i++)
        want |= buf[i];
      if (osp_running () && (want & WANT_REPORT))
        osp_report_emit (&osp_opts);
      if (osp_running () && (want & WANT_SNAPSHOT))
        osp_snapshot_emit (&osp_opts);
    }
}

int
osp_online_init (const struct osp_options *o)
{
  if (o->report_signal == 0 && o->snapshot_signal == 0)
    return 0;
  if (pipe2 (pipe_fd, O_CLOEXEC) != 0)
    return -1;
  fcntl (pipe_fd[1], F_SETFL, O_NONBLOCK);

  if (osp_start_thread (report_thread, NULL) != 0)
    {
      close (pipe_fd[0]);
      close (pipe_fd[1]);
      pipe_fd[0] = pipe_fd[1] = -1;
      return -1;
    }

  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESTART;
  sigemptyset (&sa.sa_mask);
  int rc = 0;
  if (o->report_signal != 0)
    rc |= sigaction (o->report_signal, &sa, NULL);
  if (o->snapshot_signal != 0)
    rc |= sigaction (o->snapshot_signal, &sa, NULL);
  return rc;
}

int
osp_report_now (const char *path)
{
  if (!osp_running () || osp_opts.mode == OSP_MODE_OFF || osp_in_runtime)
    return -1;
  osp_in_runtime = 1;
  atomic_signal_fence (memory_order_seq_cst);
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

OSP_EXPORT int
osp_report (const char *path)
{
  osp_init ();
  return osp_report_now (path);
}

/* SPDX-License-Identifier: MIT */
/* lock.c - runtime locks, signals and threads.
 *
 * Every runtime lock is taken through osp_lock, which blocks the
 * asynchronous signals while the thread holds any runtime lock, so that a
 * signal handler leaving by longjmp can never abandon one (the hang of
 * issue 32).  The outermost lock pays two pthread_sigmask calls; program
 * threads take locks once per batch flush, not per hook.  The runtime's
 * own threads start with every signal blocked and a small stack.
 */
#define _GNU_SOURCE
#include "base/base.h"

#include <signal.h>
#include <time.h>

OSP_TLS uintptr_t osp_in_runtime;

/* ---- runtime locks and signals ----------------------------------------- */

/* How many osp_signals_hold are open on this thread, and the mask the
   outermost found.  Only the outermost pays the two pthread_sigmask. */
static OSP_TLS unsigned held;
static OSP_TLS sigset_t held_mask;

/* Every asynchronous signal; not the synchronous ones, which a fault
   raises whatever the mask (blocked, the kernel would kill the process
   instead of running the program's handler).  Made by osp_signals_init;
   before that (unit tests), on the stack each time. */
static sigset_t async_signals;
static atomic_int async_signals_made;

static void
make_async_set (sigset_t *s)
{
  sigfillset (s);
  sigdelset (s, SIGSEGV);
  sigdelset (s, SIGBUS);
  sigdelset (s, SIGFPE);
  sigdelset (s, SIGILL);
  sigdelset (s, SIGTRAP);
  sigdelset (s, SIGSYS);
}

void
osp_signals_hold (void)
{
  if (held == 0)
    {
      sigset_t old, here;
      const sigset_t *set = &async_signals;
      if (!atomic_load_explicit (&async_signals_made, memory_order_acquire))
        {
          make_async_set (&here);
          set = &here;
        }
      pthread_sigmask (SIG_BLOCK, set, &old);
      /* Blocked from here: no handler can see HELD half set. */
      held_mask = old;
    }
  held++;
}

void
osp_signals_release (void)
{
  if (--held == 0)
    pthread_sigmask (SIG_SETMASK, &held_mask, NULL);
}

void
osp_lock (pthread_mutex_t *m)
{
  osp_signals_hold ();
  pthread_mutex_lock (m);
}

int
osp_trylock (pthread_mutex_t *m)
{
  osp_signals_hold ();
  if (pthread_mutex_trylock (m) == 0)
    return 0;
  osp_signals_release ();
  return -1;
}

void
osp_unlock (pthread_mutex_t *m)
{
  pthread_mutex_unlock (m);
  osp_signals_release ();
}

void
osp_signals_init (void)
{
  make_async_set (&async_signals);
  atomic_store_explicit (&async_signals_made, 1, memory_order_release);
}

/* A runtime thread's stack: the deepest runtime path (a report: osp_report_now,
   the writers, stdio) needs a few tens of KB; the default (RLIMIT_STACK,
   8 MB) would take that much of the program's address space.  */
#define RUNTIME_STACK (512 * 1024)

int
osp_start_thread (void *(*fn) (void *), void *arg)
{
  size_t stack = RUNTIME_STACK;
  if (stack < (size_t) PTHREAD_STACK_MIN)
    stack = PTHREAD_STACK_MIN;
  if (osp_reserve (stack) != 0)
    return -1;
  sigset_t all, old;
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  pthread_attr_t attr;
  pthread_attr_init (&attr);
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize (&attr, stack);
  pthread_t th;
  int rc = pthread_create (&th, &attr, fn, arg);
  pthread_attr_destroy (&attr);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  /* The stack stays reserved: runtime threads live as long as the process
     (a fork child starts its own, and inherits the count of its parent's). */
  if (rc != 0)
    osp_unreserve (stack);
  return rc == 0 ? 0 : -1;
}

void
osp_timespec_add_ms (struct timespec *ts, uint32_t ms)
{
  ts->tv_sec += ms / 1000;
  ts->tv_nsec += (long) (ms % 1000) * 1000000L;
  if (ts->tv_nsec >= 1000000000L)
    {
      ts->tv_sec++;
      ts->tv_nsec -= 1000000000L;
    }
}

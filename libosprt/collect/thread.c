/* SPDX-License-Identifier: MIT */
/* thread.c - per-thread state: creation, release at thread exit, fork.
 *
 * A thread gets its state on its first counted hook, not at creation:
 * osp cannot see pthread_create, and threads that never run instrumented
 * code should cost nothing.  The state lives in mmap'ed memory (an arena
 * per thread), never malloc, so creating it inside a signal handler that
 * interrupted malloc cannot deadlock; it is linked into a global list so
 * the reporter can read live threads' counters.
 *
 * At thread exit a pthread key destructor merges the thread's counters into
 * the global totals and unlinks it under the same lock the reporter holds,
 * so a count is always seen exactly once: in the thread or in the totals.
 * Other TLS destructors may run instrumented code after ours; the thread is
 * then marked gone and its hooks are not counted (recreating the state
 * there would leak it, as no destructor would run again).
 *
 * In the subpath modes the exiting thread first accounts for its current
 * skip and hands its queued samples (or exact batch, or path batch) over
 * (osp_thread_settle), then its walk counters merge like the block
 * counters.
 *
 * A state records the address of its thread's __osp_path_countdown, so
 * that the paths=timer thread can arm it (pathsample.c) for as long as
 * the state is linked.
 *
 * Every collector's part in this is a row of lifecycle.c's table (sync
 * for the settle, recover, merge at thread exit, reset and fork_child in
 * a fork child), so this file names none of them.
 *
 * fork: prepare takes every runtime lock (base.h's order) so that the
 * child never inherits a lock held by a thread that does not exist in it;
 * the child then drops all thread states (their threads are gone, its own
 * starts afresh: a new sampler, __osp_skip and __osp_path_countdown back
 * to 1), zeroes the totals, resets every collector (the hot-list, the
 * exact table and the path table emptied, the forest streams dropped)
 * and runs their fork_child (the path timer thread restarts with
 * paths=timer), so it reports its own profile at its own exit.  What the
 * layers above do around a fork comes from runtime.c (osp_fork_hooks):
 * the publisher's lock first in prepare; the child leaves the parent's
 * segment and publishes its own (output/publish.c).
 *
 * The locks, signals, arena and address-space budget used here are
 * base/'s (lock.c, arena.c).
 */
#define _GNU_SOURCE
#include "collect/collect.h"

#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

pthread_mutex_t osp_threads_lock = PTHREAD_MUTEX_INITIALIZER;
struct osp_thread *osp_threads;

OSP_TLS struct osp_thread *osp_thread_cur;
static OSP_TLS unsigned char gone; /* state released at thread exit */
static OSP_TLS uintptr_t in_runtime_before_fork;
static pthread_key_t key;
static size_t dir_words; /* top-level directory entries per thread */
static uint32_t next_index; /* under osp_threads_lock */
/* What the layers above do around a fork (runtime.c: the publisher). */
static struct osp_fork_hooks outer;

int
osp_locks_probe (uint32_t ms, const char **which)
{
  /* Every global runtime lock in osprt's order: the registry's, the
     threads', then the collectors' (lifecycle.c's rows). */
  enum { N = 2 + OSP_COLLECTORS_MAX };
  struct
  {
    pthread_mutex_t *lock;
    const char *name;
  } locks[N] = {
    { &osp_registry_lock, "registry" }, { &osp_threads_lock, "threads" },
  };
  unsigned n = 2;
  for (unsigned c = 0; c < osp_ncollectors; c++)
    if (osp_collectors[c].lock != NULL)
      {
        locks[n].lock = osp_collectors[c].lock;
        locks[n++].name = osp_collectors[c].lock_name;
      }
  struct timespec deadline;
  clock_gettime (CLOCK_REALTIME, &deadline);
  osp_timespec_add_ms (&deadline, ms);
  osp_signals_hold ();
  unsigned got = 0;
  while (got < n && pthread_mutex_timedlock (locks[got].lock, &deadline) == 0)
    got++;
  for (unsigned i = got; i > 0; i--)
    pthread_mutex_unlock (locks[i - 1].lock);
  osp_signals_release ();
  if (got == n)
    return 0;
  *which = locks[got].name;
  return -1;
}

/* ---- thread list ----------------------------------------------------- */

static void
unlink_thread (struct osp_thread *t)
{
  if (t->prev)
    t->prev->next = t->next;
  else
    osp_threads = t->next;
  if (t->next)
    t->next->prev = t->prev;
}

/* Release T's memory.  T must be unlinked (or the list abandoned). */
static void
release_thread (struct osp_thread *t)
{
  struct osp_arena a = t->arena; /* T itself lives in the arena */
  osp_arena_release (&a);
}

struct osp_thread *
osp_thread_make (void)
{
  if (gone)
    return NULL;
  /* Signals held throughout: linked into the list means known to this
     thread (osp_thread_cur), whatever a signal handler does. */
  osp_signals_hold ();
  struct osp_arena a = { 0 };
  struct osp_thread *t = osp_arena_alloc_held (&a, sizeof *t);
  if (t != NULL)
    t->dir = osp_arena_alloc_held (&a, dir_words * sizeof *t->dir);
  if (t == NULL || t->dir == NULL)
    {
      osp_arena_release (&a);
      osp_signals_release ();
      return NULL;
    }
  t->arena = a;
  t->path_countdown = &__osp_path_countdown;
  t->poll_left = 1; /* a new thread looks at once */
  osp_lock (&osp_threads_lock);
  t->index = next_index++;
  t->next = osp_threads;
  if (osp_threads)
    osp_threads->prev = t;
  osp_threads = t;
  atomic_fetch_add_explicit (&osp_stats.threads, 1, memory_order_relaxed);
  pthread_setspecific (key, t);
  osp_thread_cur = t;
  osp_unlock (&osp_threads_lock);
  osp_signals_release ();
  return t;
}

struct osp_thread *
osp_thread_peek (void)
{
  return osp_thread_cur;
}

void
osp_thread_recover (void)
{
  __osp_skip = 1; /* the next block calls in, whatever was armed */
  struct osp_thread *t = osp_thread_cur;
  if (t == NULL)
    return; /* no state, no open sample (only a state's sampler opens it) */
  for (unsigned c = 0; c < osp_ncollectors; c++)
    if (osp_collectors[c].recover != NULL)
      osp_collectors[c].recover (t);
}

void
osp_thread_settle (struct osp_thread *t)
{
  for (unsigned c = 0; c < osp_ncollectors; c++)
    if (osp_collectors[c].sync != NULL)
      osp_collectors[c].sync (t);
}

static void
thread_exit (void *arg)
{
  struct osp_thread *t = arg;
  uintptr_t was = osp_in_runtime;
  osp_in_runtime = OSP_RUNTIME_PINNED;
  atomic_signal_fence (memory_order_seq_cst);
  /* A hook frame that never resumes (the thread left it by a jump, or
     exits from a signal handler that interrupted it): start from a clean
     state (runtime.c's destructor does the same). */
  if (was != 0 && was != OSP_RUNTIME_PINNED)
    osp_thread_recover ();
  gone = 1;
  osp_thread_cur = NULL;
  osp_thread_settle (t);
  osp_lock (&osp_threads_lock);
  for (unsigned c = 0; c < osp_ncollectors; c++)
    if (osp_collectors[c].merge != NULL)
      osp_collectors[c].merge (t);
  unlink_thread (t);
  osp_unlock (&osp_threads_lock);
  release_thread (t);
  atomic_signal_fence (memory_order_seq_cst);
  osp_in_runtime = 0;
}
/* ---- fork ------------------------------------------------------------ */

static void
fork_prepare (void)
{
  in_runtime_before_fork = osp_in_runtime;
  osp_in_runtime = OSP_RUNTIME_PINNED;
  atomic_signal_fence (memory_order_seq_cst);
  /* Held until fork_release, in the parent and in the child: the
     publisher's lock is a runtime lock too. */
  osp_signals_hold ();
  if (outer.prepare != NULL)
    outer.prepare ();
  osp_lock (&osp_registry_lock);
  osp_lock (&osp_threads_lock);
  for (unsigned c = 0; c < osp_ncollectors; c++)
    if (osp_collectors[c].lock != NULL)
      osp_lock (osp_collectors[c].lock);
}

/* Undo fork_prepare, in the reverse lock order: the parent's handler, and
   the end of the child's. */
static void
fork_release (void)
{
  for (unsigned c = osp_ncollectors; c > 0; c--)
    if (osp_collectors[c - 1].lock != NULL)
      osp_unlock (osp_collectors[c - 1].lock);
  osp_unlock (&osp_threads_lock);
  osp_unlock (&osp_registry_lock);
  if (outer.release != NULL)
    outer.release ();
  osp_signals_release ();
  atomic_signal_fence (memory_order_seq_cst);
  osp_in_runtime = in_runtime_before_fork;
}

static void
fork_child (void)
{
  /* Only this thread exists now; every state in the list, ours included,
     holds the parent's counts. */
  struct osp_thread *t = osp_threads;
  osp_threads = NULL;
  while (t)
    {
      struct osp_thread *next = t->next;
      release_thread (t);
      t = next;
    }
  osp_thread_cur = NULL;
  next_index = 0;
  __osp_skip = 1; /* the new state's first hook comes at the next block */
  __osp_path_countdown = 1; /* and its first path end at the next one */
  pthread_setspecific (key, NULL);
  for (unsigned c = 0; c < osp_ncollectors; c++)
    if (osp_collectors[c].reset != NULL)
      osp_collectors[c].reset ();
  atomic_store_explicit (&osp_stats.threads, 0, memory_order_relaxed);
  atomic_store_explicit (&osp_stats.unregistered_hits, 0,
                         memory_order_relaxed);
  atomic_store_explicit (&osp_stats.hits_lost, 0, memory_order_relaxed);
  atomic_store_explicit (&osp_stats.path_ticks, 0, memory_order_relaxed);
  fork_release ();
  /* The parent's timer thread does not exist here; a new one takes the
     threads lock, so it starts after the release.  So does the child's
     publisher (its own segment, never the parent's). */
  for (unsigned c = 0; c < osp_ncollectors; c++)
    if (osp_collectors[c].fork_child != NULL)
      osp_collectors[c].fork_child ();
  if (outer.child != NULL)
    outer.child ();
}

int
osp_threads_init (uint32_t max_functions, const struct osp_fork_hooks *hooks)
{
  if (hooks != NULL)
    outer = *hooks;
  dir_words = (max_functions + OSP_DIR_CHUNK - 1) / OSP_DIR_CHUNK;
  osp_signals_init ();
  osp_budget_init ();
  if (pthread_key_create (&key, thread_exit) != 0)
    return -1;
  if (pthread_atfork (fork_prepare, fork_release, fork_child) != 0)
    return -1;
  return 0;
}

/* ---- entering the runtime after an abandoned frame ---------------- */

/* Whether the runtime frame that set osp_in_runtime to WAS is gone: a
   signal handler that interrupted it left by longjmp (the usual timeout:
   siglongjmp out of a SIGALRM handler).  A live frame is an ancestor of
   ours, so on the same stack it lies above us (stacks grow down here, as
   on every target GCC's osp plugin supports); a frame at or below our
   stack pointer on our stack is gone.  A handler on an alternate signal
   stack (sigaltstack) runs elsewhere: there only a frame on that same
   stack can be judged, and a frame on the main stack may be the one it
   interrupted.  Off the alternate stack a frame on it is gone, as nothing
   on the main stack can interrupt it.  When in doubt the frame is live
   (the hook is lost): a hook deeper than the abandoned frame is lost
   until one at or above it (the loop the program jumped back to) comes. */
static __attribute__ ((noinline, cold)) int
abandoned (uintptr_t was, uintptr_t sp)
{
  if (was == OSP_RUNTIME_PINNED)
    return 0;
  stack_t ss;
  if (sigaltstack (NULL, &ss) == 0 && !(ss.ss_flags & SS_DISABLE))
    {
      uintptr_t lo = (uintptr_t) ss.ss_sp, hi = lo + ss.ss_size;
      int frame_alt = was >= lo && was < hi;
      if (ss.ss_flags & SS_ONSTACK)
        return frame_alt && sp >= was;
      if (frame_alt)
        return 1;
    }
  return sp >= was;
}

/* collect.h.  Also the generated code's busy entries (runtime.c,
   enter_busy) come here. */
int
osp_runtime_enter (uintptr_t here)
{
  uintptr_t was = osp_in_runtime;
  if (was != 0 && !abandoned (was, here))
    return 0;
  if (was != 0)
    {
      /* Recover the thread as the abandoned frame left it, under the
         pinned flag so that nothing it calls takes the runtime as free. */
      osp_in_runtime = OSP_RUNTIME_PINNED;
      atomic_signal_fence (memory_order_seq_cst);
      osp_thread_recover ();
    }
  osp_in_runtime = here;
  atomic_signal_fence (memory_order_seq_cst);
  return 1;
}

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
 * fork: prepare takes every runtime lock (osprt.h's order) so that the
 * child never inherits a lock held by a thread that does not exist in it;
 * the child then drops all thread states (their threads are gone, its own
 * starts afresh: a new sampler, __osp_skip and __osp_path_countdown back
 * to 1), zeroes the totals, empties the hot-list, the exact table and the
 * path table, drops the forest streams, and restarts the path timer
 * thread (paths=timer), so it reports its own profile at its own exit.
 * The publisher's lock (publish.c) comes first in prepare; the child
 * leaves the parent's segment and publishes its own (publish.c).
 *
 * Every runtime lock is taken through osp_lock (osprt.h), which blocks
 * the asynchronous signals while the thread holds any runtime lock, so
 * that a signal handler leaving by longjmp can never abandon one (the
 * hang of issue 32).  The outermost lock pays two pthread_sigmask calls;
 * program threads take locks once per batch flush, not per hook.  The
 * arena and a thread's first state are updated with signals held the
 * same way, so an abandoned hook never leaves them half done.
 *
 * Address space: under `ulimit -v' the runtime's optional reservations
 * (tables, forest streams, publish buffers, its threads' stacks) draw on a
 * budget, so that they never take what the program needs (osp_reserve,
 * below; doc/osp.md, Safety); runtime threads get small stacks.
 */
#define _GNU_SOURCE
#include "osprt.h"

#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

pthread_mutex_t osp_threads_lock = PTHREAD_MUTEX_INITIALIZER;
struct osp_thread *osp_threads;
OSP_TLS uintptr_t osp_in_runtime;

OSP_TLS struct osp_thread *osp_thread_cur;
static OSP_TLS unsigned char gone; /* state released at thread exit */
static OSP_TLS uintptr_t in_runtime_before_fork;
static pthread_key_t key;
static size_t dir_words; /* top-level directory entries per thread */
static uint32_t next_index; /* under osp_threads_lock */

/* ---- arena ----------------------------------------------------------- */

struct osp_map
{
  struct osp_map *next;
  size_t size;
};

#define ARENA_CHUNK (64 * 1024)

static void *
arena_alloc (struct osp_arena *a, size_t size)
{
  size = (size + 15) & ~(size_t) 15;
  if (size > a->left)
    {
      /* Big requests get their own mapping so a chunk is never wasted. */
      size_t hdr = (sizeof (struct osp_map) + 15) & ~(size_t) 15;
      size_t len = size + hdr > ARENA_CHUNK / 4 ? size + hdr : ARENA_CHUNK;
      void *m = mmap (NULL, len, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED)
        return NULL;
      struct osp_map *map = m;
      map->size = len;
      map->next = a->maps;
      a->maps = map;
      if (len != ARENA_CHUNK)
        return (char *) m + hdr;
      a->cur = (char *) m + hdr;
      a->left = len - hdr;
    }
  void *p = a->cur;
  a->cur += size;
  a->left -= size;
  return p;
}

/* With signals held: a handler that leaves a hook by longjmp must not
   leave cur and left disagreeing (the next allocation would overrun the
   chunk).  Rare: a thread's states, a function's first counters. */
void *
osp_arena_alloc (struct osp_arena *a, size_t size)
{
  osp_signals_hold ();
  void *p = arena_alloc (a, size);
  osp_signals_release ();
  return p;
}

static void
arena_release (struct osp_arena *a)
{
  struct osp_map *m = a->maps;
  while (m)
    {
      struct osp_map *next = m->next;
      munmap (m, m->size);
      m = next;
    }
}

/* ---- runtime locks and signals ----------------------------------------- */

/* How many osp_signals_hold are open on this thread, and the mask the
   outermost found.  Only the outermost pays the two pthread_sigmask. */
static OSP_TLS unsigned held;
static OSP_TLS sigset_t held_mask;

/* Every asynchronous signal; not the synchronous ones, which a fault
   raises whatever the mask (blocked, the kernel would kill the process
   instead of running the program's handler).  Made by osp_threads_init;
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

int
osp_locks_probe (uint32_t ms, const char **which)
{
  static const struct
  {
    pthread_mutex_t *lock;
    const char *name;
  } locks[] = {
    { &osp_registry_lock, "registry" }, { &osp_threads_lock, "threads" },
    { &osp_hot_lock, "hot-list" },      { &osp_exact_lock, "exact" },
    { &osp_path_lock, "path" },         { &osp_forest_lock, "forest" },
  };
  enum { N = sizeof locks / sizeof locks[0] };
  struct timespec deadline;
  clock_gettime (CLOCK_REALTIME, &deadline);
  osp_timespec_add_ms (&deadline, ms);
  osp_signals_hold ();
  unsigned got = 0;
  while (got < N && pthread_mutex_timedlock (locks[got].lock, &deadline) == 0)
    got++;
  for (unsigned i = got; i > 0; i--)
    pthread_mutex_unlock (locks[i - 1].lock);
  osp_signals_release ();
  if (got == N)
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
  arena_release (&a);
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
  struct osp_thread *t = arena_alloc (&a, sizeof *t);
  if (t != NULL)
    t->dir = arena_alloc (&a, dir_words * sizeof *t->dir);
  if (t == NULL || t->dir == NULL)
    {
      arena_release (&a);
      osp_signals_release ();
      return NULL;
    }
  t->arena = a;
  t->path_countdown = &__osp_path_countdown;
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
  osp_sampler_recover (t);
  osp_exact_recover (t);
}

void
osp_thread_settle (struct osp_thread *t)
{
  osp_sampler_sync (t);
  osp_exact_sync (t);
  osp_pathsample_sync (t);
}

/* ---- address space --------------------------------------------------- */

/* Under `ulimit -v' (RLIMIT_AS) every byte the runtime maps is a byte the
   program cannot map: MAP_NORESERVE tables and untouched thread stacks
   count as much as used memory, and a program that runs plain under the
   limit failed its own pthread_create with osp (4 MB of path table, 12 MB
   of publish buffers, 8 MB for each runtime thread's default stack).  So
   with a limit, the runtime's optional reservations - the path and exact
   tables, the forest streams, the publish buffers, its threads' stacks -
   share a budget of a sixteenth of the address space left under the limit
   when the runtime starts, and one that does not fit fails as if the
   kernel had refused it: its part shrinks or stops with one line, the
   program runs on with the rest.  Without a limit there is no budget.  */
static uint64_t budget = UINT64_MAX;
static atomic_uint_least64_t reserved;

/* The process's mapped bytes now (VmSize), or 0 if unknown. */
static uint64_t
vm_size (void)
{
  FILE *f = fopen ("/proc/self/statm", "re");
  if (f == NULL)
    return 0;
  unsigned long pages = 0;
  int ok = fscanf (f, "%lu", &pages) == 1;
  fclose (f);
  return ok ? (uint64_t) pages * (uint64_t) sysconf (_SC_PAGESIZE) : 0;
}

static void
budget_init (void)
{
  struct rlimit r;
  if (getrlimit (RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY)
    return;
  uint64_t used = vm_size ();
  budget = r.rlim_cur > used ? (r.rlim_cur - used) / 16 : 0;
}

int
osp_reserve (size_t bytes)
{
  uint64_t before = atomic_fetch_add (&reserved, bytes);
  if (before + bytes <= budget && before + bytes >= before)
    return 0;
  atomic_fetch_sub (&reserved, bytes);
  return -1;
}

void
osp_unreserve (size_t bytes)
{
  atomic_fetch_sub (&reserved, bytes);
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
  osp_blocks_merge (t);
  osp_walk_merge (t);
  unlink_thread (t);
  osp_unlock (&osp_threads_lock);
  release_thread (t);
  atomic_signal_fence (memory_order_seq_cst);
  osp_in_runtime = 0;
}

uint32_t *
osp_map_table (const char *what, size_t *bytes, uint64_t *nslots)
{
  /* Under an address space limit, the largest size the budget (above)
     affords, halving down to the smallest size the option accepts. */
  size_t want = *bytes, len = want;
  void *m = MAP_FAILED;
  for (;;)
    {
      if (osp_reserve (len) == 0)
        {
          m = mmap (NULL, len, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
          if (m != MAP_FAILED)
            break;
          osp_unreserve (len);
        }
      if (len / 2 < OSP_MIN_TABLE_BYTES)
        return NULL; /* the runtime does not start: runtime.c's one line */
      len /= 2;
    }
  if (len != want)
    osp_warn ("osp: ulimit -v: the %s has %zu bytes, not %zu; the program "
              "runs, profiled within them", what, len, want);
  *bytes = len;
  uint64_t n = 2;
  while (n * 2 * sizeof (uint32_t) <= len / 8)
    n *= 2;
  *nslots = n;
  return m;
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
  osp_publish_fork_prepare ();
  osp_lock (&osp_registry_lock);
  osp_lock (&osp_threads_lock);
  osp_lock (&osp_hot_lock);
  osp_lock (&osp_exact_lock);
  osp_lock (&osp_path_lock);
  osp_lock (&osp_forest_lock);
}

/* Undo fork_prepare, in the reverse lock order: the parent's handler, and
   the end of the child's. */
static void
fork_release (void)
{
  osp_unlock (&osp_forest_lock);
  osp_unlock (&osp_path_lock);
  osp_unlock (&osp_exact_lock);
  osp_unlock (&osp_hot_lock);
  osp_unlock (&osp_threads_lock);
  osp_unlock (&osp_registry_lock);
  osp_publish_fork_release ();
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
  osp_blocks_reset ();
  osp_sampler_reset ();
  osp_exact_reset ();
  osp_pathprof_reset ();
  osp_forest_reset ();
  atomic_store_explicit (&osp_stats.threads, 0, memory_order_relaxed);
  atomic_store_explicit (&osp_stats.unregistered_hits, 0,
                         memory_order_relaxed);
  atomic_store_explicit (&osp_stats.hits_lost, 0, memory_order_relaxed);
  atomic_store_explicit (&osp_stats.path_ticks, 0, memory_order_relaxed);
  fork_release ();
  /* The parent's timer thread does not exist here; a new one takes the
     threads lock, so it starts after the release.  So does the child's
     publisher (its own segment, never the parent's). */
  osp_pathsample_fork_child ();
  osp_identity_fork_child ();
  osp_publish_fork_child ();
}

int
osp_threads_init (uint32_t max_functions)
{
  dir_words = (max_functions + OSP_DIR_CHUNK - 1) / OSP_DIR_CHUNK;
  make_async_set (&async_signals);
  atomic_store_explicit (&async_signals_made, 1, memory_order_release);
  budget_init ();
  if (pthread_key_create (&key, thread_exit) != 0)
    return -1;
  if (pthread_atfork (fork_prepare, fork_release, fork_child) != 0)
    return -1;
  return 0;
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

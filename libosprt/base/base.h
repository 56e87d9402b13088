/* SPDX-License-Identifier: MIT */
/* base.h - libosprt's bottom layer: what every other layer may use.
 *
 * Nothing here knows what osp profiles: messages and the process-wide
 * statistics (warn.c), the runtime's phase (warn.c), locks, signals and
 * runtime threads (lock.c), memory without malloc within the address
 * space budget (arena.c), random numbers (random.c), the arithmetic of
 * estimates (mathx.c).  The view format library under it all
 * (libosprt/format/: CRC-32, string tables, atomic file replacement,
 * views parsed and built) includes nothing of the runtime.
 * doc/HACKING.md has the map of the layers above.
 *
 * Locks, always taken in this order (fork's prepare handler takes all):
 *   osp_publish_lock   the shared-memory segment and its publishing
 *                      (output/publish.c): a publish takes a profile
 *                      under it.
 *   osp_registry_lock  registration; the module table; the function list.
 *   osp_threads_lock   the list of live thread states; the merged totals;
 *                      the path timer thread's tick (pathsample.c).
 *   then the collectors' locks, in the order of collect/lifecycle.c's
 *   table:
 *   osp_hot_lock       every call into the hot-list (sampler flushes, the
 *                      reporter), so a fork never inherits its mutex held.
 *   osp_exact_lock     the exact subpath table (subexact.c).
 *   osp_path_lock      the path table, the path edge counters and their
 *                      statistics (pathprof.c).
 *   osp_forest_lock    the list of forest streams (pathforest.c); then
 *   a stream's lock    its k-SF, frames and pending items (one thread's;
 *                      a report holds them all, in list order).
 * Only fork's prepare handler (all), a publish (osp_publish_lock, then
 * what taking a profile takes) and the path report (osp_threads_lock,
 * then osp_path_lock, to count live threads' pending path samples) hold
 * more than one.
 * Hooks take no lock except on a thread's first hook (to link its state)
 * and when a thread's queue of finished samples (or exact batch, or path
 * batch) is flushed: osp_hot_lock or osp_path_lock with trylock while the
 * queue has room, blocking only when it is full (bounded).
 *
 * Every lock is taken with osp_lock/osp_trylock (lock.c), which block
 * the asynchronous signals while the thread holds any runtime lock: a
 * signal handler that leaves by longjmp (siglongjmp out of a SIGALRM
 * handler, the usual timeout) can never abandon a held lock.  At exit the
 * destructor waits for the locks with a deadline (osp_locks_probe) and
 * reports the profile as lost rather than wait for ever.
 *
 * Reentrancy: every runtime path that can run on a program thread sets the
 * per-thread flag osp_in_runtime first; a hook or path end that finds it
 * set (a signal handler running instrumented code while the runtime is
 * busy on the same thread) only re-arms __osp_skip (__osp_path_countdown)
 * and returns, so it can never deadlock on a lock its own thread holds nor
 * see a half-updated table.  A hook frame that a handler left by longjmp
 * left the flag set: the next hook on the thread above that frame's stack
 * pointer sees it is gone and recovers (runtime.c).
 */
#ifndef OSP_BASE_H
#define OSP_BASE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define OSP_EXPORT __attribute__ ((visibility ("default")))
#define OSP_TLS __attribute__ ((tls_model ("initial-exec"))) __thread

/* ---- warn.c: messages, statistics, the runtime's phase ---------------- */

/* Process-wide statistics; relaxed atomics (rarely written). */
struct osp_stats
{
  atomic_uint_fast64_t modules, functions, functions_dropped;
  atomic_uint_fast64_t records_invalid;
  atomic_uint_fast64_t abi_mismatches; /* records of another ABI */
  atomic_uint_fast64_t unregistered_hits, hits_lost, threads;
  atomic_uint_fast64_t path_ticks; /* paths=timer: ticks delivered */
  atomic_uint_fast64_t counter_bytes; /* inline path counters kept */
  /* Messages and reports not written because fd 2 (or fd 1) is no longer
     the file it was at start-up (osp_output_write). */
  atomic_uint_fast64_t output_skipped;
};
extern struct osp_stats osp_stats;

/* Print one "osp: ..." line to stderr with write(2) (no stdio locks),
   through osp_output_write. */
void osp_warn (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));
/* Remember what fds 1 and 2 are (device, inode) at start-up, first thing
   in osp_init. */
void osp_output_init (void);
/* Write LEN bytes of BUF to FD (1 or 2) only if FD is still the file it
   was at start-up; else count it in osp_stats.output_skipped.  0, or an
   errno value (EBADF when skipped). */
int osp_output_write (int fd, const void *buf, size_t len);

/* Where the runtime is in its life; runtime.c moves it on. */
enum osp_phase
{
  OSP_PHASE_NEW,       /* osp_init not run yet */
  OSP_PHASE_RUNNING,   /* counting */
  OSP_PHASE_DISABLED,  /* start-up failed: run unprofiled */
  OSP_PHASE_REPORTING, /* the exit report is being made (still counting) */
  OSP_PHASE_DONE       /* reported: hooks only re-arm */
};
/* Hidden: the hooks read it as they read a static of runtime.c. */
extern atomic_int osp_phase __attribute__ ((visibility ("hidden")));
/* Whether the runtime is counting (not disabled, not done). */
int osp_running (void);

/* Work that an upper layer asks the runtime's entries to do when it is
   due (output/publish.c: a viewer's request, a fork child's segment, the
   sweep of children's leftovers).  The entries (runtime.c's block hook
   and path end bodies, past the countdown - in mode=blocks and
   subpaths-exact, where every block entry comes, once every few hundred
   entries of a thread; the paths=timer thread) call osp_entry_poll: one
   relaxed load of osp_entry_watch, NULL for as long as nothing is
   pending, else one more of the word it points at, which
   is non-zero when the work is due; then osp_entry_work runs, with no
   runtime lock held.  The owner sets osp_entry_work once, before it first
   points osp_entry_watch anywhere.  Always inlined: GCC would call it out
   of line from the hook's rare path that looks, and the hook then saves
   its live registers around every look, not only around the work. */
extern _Atomic (const _Atomic uint32_t *) osp_entry_watch;
extern void (*osp_entry_work) (void);
static inline __attribute__ ((always_inline)) void
osp_entry_poll (void)
{
  const _Atomic uint32_t *w
      = atomic_load_explicit (&osp_entry_watch, memory_order_relaxed);
  if (__builtin_expect (w != NULL, 0)
      && __builtin_expect (atomic_load_explicit (w, memory_order_relaxed)
                               != 0,
                           0))
    osp_entry_work ();
}

/* ---- lock.c: locks, signals, runtime threads -------------------------- */

/* Nonzero while the runtime is active on this thread (Reentrancy, above):
   a hook, a path end and the cursor's append (collect/sampler.h,
   trampoline.S) store their stack pointer, which tells a frame that a
   signal handler left by longjmp from a live one (collect/thread.c,
   osp_runtime_enter); every other runtime path stores
   OSP_RUNTIME_PINNED, never taken for abandoned. */
extern OSP_TLS uintptr_t osp_in_runtime;
#define OSP_RUNTIME_PINNED 1
/* The stack mark of a call from generated code, which the runtime's entry
   (runtime.c, enter) stores in osp_in_runtime and compares with it: the
   stack pointer at the entry point's entry, so that a hook from where an
   abandoned one was finds the mark equal, not above, whichever path each
   took.  An x86-64 trampoline passes it to the C function it calls as the
   fifth argument, and its cursor append stores the same %rsp; the
   exported C entry points (plain calls) use their own stack pointer. */

/* The stack pointer, or near enough: an address in the caller's frame. */
static inline __attribute__ ((always_inline)) uintptr_t
osp_stack_mark (void)
{
#if defined __x86_64__
  uintptr_t sp;
  __asm__ volatile ("movq %%rsp, %0" : "=r" (sp));
  return sp;
#else
  return (uintptr_t) __builtin_frame_address (0);
#endif
}

/* Runtime locks and signals: every runtime lock is taken through these,
   which block the asynchronous signals for as long as the thread holds
   any (nested: only the outermost pays two pthread_sigmask), so no
   signal handler can run, and so none can leave by longjmp, while a
   runtime lock is held.  osp_trylock returns 0 when it took the lock.
   osp_signals_hold/release alone keep a short update of thread-local
   state (the arena, a thread's first state) whole the same way. */
void osp_signals_hold (void);
void osp_signals_release (void);
void osp_lock (pthread_mutex_t *m);
int osp_trylock (pthread_mutex_t *m);
void osp_unlock (pthread_mutex_t *m);
/* Make the set of asynchronous signals once (osp_threads_init); before
   that (unit tests) osp_signals_hold makes it on the stack each time. */
void osp_signals_init (void);
/* Start a detached runtime thread running FN (ARG) with every signal
   blocked, so it never runs the program's handlers nor takes a signal
   meant for the program.  Returns 0 or -1. */
int osp_start_thread (void *(*fn) (void *), void *arg);
/* TS + MS milliseconds (the runtime threads' absolute wake-up times). */
void osp_timespec_add_ms (struct timespec *ts, uint32_t ms);

/* ---- arena.c: memory without malloc, the address space budget --------- */

/* Bump allocator over mmap'ed chunks: zeroed memory and no malloc, so a
   thread's first hook inside a signal handler that interrupted malloc
   cannot deadlock in the allocator. */
struct osp_arena
{
  struct osp_map *maps;
  char *cur;
  size_t left;
};
/* Zeroed memory from arena A (NULL if out of memory), with signals held
   (osp_arena_alloc) or by a caller that holds them (osp_arena_alloc_held). */
void *osp_arena_alloc (struct osp_arena *a, size_t size);
void *osp_arena_alloc_held (struct osp_arena *a, size_t size);
/* Unmap every chunk of A. */
void osp_arena_release (struct osp_arena *a);
/* The bounded tables (pathprof.c, subexact.c): one anonymous mapping of
   *BYTES, MAP_NORESERVE so that pages cost only once touched, that starts
   with an index of *NSLOTS uint32 slots - the largest power of two whose
   double still fits in *BYTES / 8, so that it stays at most half full -
   followed by the table's pool.  Under an address space limit it may be
   smaller (halved down to OSP_MIN_TABLE_BYTES: *BYTES says, and one line
   names WHAT).  NULL if even that cannot be had. */
#define OSP_MIN_TABLE_BYTES ((size_t) 64 * 1024)
uint32_t *osp_map_table (const char *what, size_t *bytes, uint64_t *nslots);
/* The address space budget of the runtime's optional reservations under
   `ulimit -v': 0 if BYTES more fit in it (they are then counted), -1 if
   not; osp_unreserve gives them back.  osp_budget_init measures it (once,
   from osp_threads_init). */
int osp_reserve (size_t bytes);
void osp_unreserve (size_t bytes);
void osp_budget_init (void);

/* ---- random.c: random numbers ---------------------------------------- */

/* The seed in use (printed in reports); hidden, as osp_phase. */
extern _Atomic uint64_t osp_seed __attribute__ ((visibility ("hidden")));

/* splitmix64: seeds and one-off draws. */
static inline uint64_t
osp_splitmix64 (uint64_t *x)
{
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* A xoshiro256** state (4 words): the next number.  Inline, as it was
   inside the sampler: a hook's draws cost no call. */
static inline uint64_t
osp_rng_next (uint64_t s[4])
{
  uint64_t x = s[1] * 5;
  uint64_t r = ((x << 7) | (x >> 57)) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = (s[3] << 45) | (s[3] >> 19);
  return r;
}
/* Seed RNG from SEED and the stream number STREAM (a thread's index). */
void osp_rng_seed (uint64_t rng[4], uint64_t seed, uint64_t stream);
double osp_ln (double x);
/* K >= 1 with P(K = k) = p (1-p)^(k-1), LOG_KEEP = ln (1 - p) (0: K = 1),
   saturated at UINT32_MAX. */
static inline uint32_t
osp_draw_geometric (uint64_t rng[4], double log_keep_p)
{
  if (log_keep_p == 0)
    return 1;
  /* Inversion: u uniform in (0, 1], K = 1 + floor (log u / log (1-p)). */
  double u = (double) ((osp_rng_next (rng) >> 11) + 1) * 0x1p-53;
  double k = osp_ln (u) / log_keep_p; /* >= 0; truncation is floor */
  return k >= (double) (UINT32_MAX - 1) ? UINT32_MAX : (uint32_t) k + 1;
}
/* Binomial (N, 1/2): how many of N samples a coin flip each keeps. */
uint64_t osp_draw_half (uint64_t rng[4], uint64_t n);

/* ---- mathx.c: the arithmetic of estimates ----------------------------- */

/* Natural log (above), ln (1 - p), square root, 2^E: without libm. */
double osp_ln1m (double p);
double osp_sqrt (double x);
double osp_pow2 (int e);
/* 100 * X / TOTAL (0 when TOTAL is 0). */
double osp_share (uint64_t x, uint64_t total);

#endif /* OSP_BASE_H */

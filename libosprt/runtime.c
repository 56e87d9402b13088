/* SPDX-License-Identifier: MIT */
/* runtime.c - start-up, the exit report, and the ABI entry points.
 *
 * Start-up is lazy and idempotent (pthread_once): the first caller may be
 * our own constructor, an instrumented constructor of the executable that
 * runs before it, or a dlopen'ed library.
 *
 * The exit report runs from a destructor of priority 101, the last of all
 * destructors of the module that holds libosprt (prioritised destructors
 * run in reverse priority order after the plain ones); with the shared
 * library, the executable's destructors run before ours anyway.  So code
 * run by atexit handlers and destructors is still counted (but for the
 * inline path counters of a module whose own destructor handed them over,
 * __osp_release_module: what its code counts after that, when a later
 * library's destructor calls it, is not read).  An atomic phase
 * makes the report happen once, whatever the exit path (exit from two
 * threads, a report already made before a fork, ...).
 *
 * The hook is the only hot entry point.  It re-arms __osp_skip first (so
 * everything after that, including a nested hook, sees a sane value), then
 * bails out if the runtime is already active on this thread: a signal
 * handler running instrumented code in the middle of a hook or of any
 * locked runtime path must neither deadlock nor see half-done state.
 * (The flag holds the hook's stack mark: a hook frame that a signal
 * handler left by longjmp is told from a live one by it, and the next
 * hook recovers the thread instead of being lost for ever; see enter.
 * No runtime lock can be held by such a frame: osp_lock blocks signals.)
 * Then it dispatches on the mode: blocks counts the block, subpaths hands
 * its global id to the sampler (which re-arms __osp_skip with the next
 * skip), subpaths-exact to the exact counter, off disarms the countdown.
 *
 * __osp_path_end, called when a thread's path-end countdown reaches 0, is
 * built the same way, independent of the block hook (a program may have
 * either, both or neither): it sets the countdown to 1 first; if the
 * runtime is already active on the thread it returns there (the path end
 * is counted in hits_lost); otherwise the path sampler (pathsample.c)
 * counts, samples and re-arms it.  Every way out leaves the countdown
 * armed: 1 while the runtime is not up yet, huge when it is off,
 * disabled or done.
 *
 * The exit report first waits for the runtime locks with a deadline
 * (EXIT_WAIT_MS): a lock still held then means the report, snapshot and
 * last view are lost (one line says so), never that the program's exit,
 * and the flush of its stdio after us, waits for ever.
 *
 * __osp_path_end_shared (ABI 8, one countdown) is a path end of a function
 * whose checks test __osp_skip == 1: it writes no countdown on the way in
 * (the block hooks' countdown is 1 already) and lets the path sampler
 * decide whether it was drawn or seen (below, and pathsample.c).
 *
 * verify_paths=1 prints its summary line at exit, before the report.
 *
 * Publishing (publish.c) starts last, once everything it publishes is up;
 * at exit the profile of the exit report is also the snapshot= file's
 * (snapshot.c) and the last published view.
 */
#define _GNU_SOURCE
#include "runtime.h"
#include "collect/sampler.h"
#include "osp/osp.h"
#include "osp/snapshot.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Generated code: `if (--__osp_skip == 0) __osp_block_hook (...)'.  A plain
   __thread initialiser (.tdata), so it is valid before any constructor and
   in every thread; initial-exec, so the decrement is one TLS access. */
OSP_EXPORT __attribute__ ((tls_model ("initial-exec"))) __thread uint32_t
    __osp_skip = 1;
/* The same for `if (--__osp_path_countdown == 0) __osp_path_end (...)':
   1 in every new thread, so its first path end calls in and the runtime
   arms it for the thread's policy. */
OSP_EXPORT __attribute__ ((tls_model ("initial-exec"))) __thread uint32_t
    __osp_path_countdown = 1;

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The outputs' part in a fork (thread.c runs them around the collectors'):
   the publisher's lock before every other, and in the child, after every
   lock is released, the child's own identity and segment, and no default
   snapshot (osp_snapshot_default_rule). */
static void
fork_child_outputs (void)
{
  osp_snapshot_default_rule (&osp_opts, 1);
  osp_identity_fork_child ();
  osp_publish_fork_child ();
}

static const struct osp_fork_hooks fork_hooks = {
  .prepare = osp_publish_fork_prepare,
  .release = osp_publish_fork_release,
  .child = fork_child_outputs,
};

static void
init_once (void)
{
  osp_in_runtime = 1;
  atomic_signal_fence (memory_order_seq_cst);
  osp_output_init (); /* before the first message */
  osp_options_defaults (&osp_opts);
  osp_options_from_env (&osp_opts); /* ignored in a privileged process */
  osp_identity_init ();
  int ok = osp_registry_init (osp_opts.max_functions, osp_opts.verbose) == 0
           && osp_threads_init (osp_opts.max_functions, &fork_hooks) == 0
           && osp_collectors_init (&osp_opts) == 0;
  if (!ok)
    osp_warn ("osp: cannot start the runtime (out of memory); "
              "the program runs unprofiled");
  atomic_store (&osp_phase, ok ? OSP_PHASE_RUNNING : OSP_PHASE_DISABLED);
  if (ok && osp_opts.mode != OSP_MODE_OFF && osp_online_init (&osp_opts) != 0)
    osp_warn ("osp: report_signal, snapshot_signal: cannot start their "
              "thread; reports and snapshots come at exit only");
  if (ok)
    osp_publish_init (&osp_opts); /* its problems are one line, not fatal */
  atomic_signal_fence (memory_order_seq_cst);
  osp_in_runtime = 0;
}

void
osp_init (void)
{
  pthread_once (&once, init_once);
}

__attribute__ ((constructor (101))) static void
osp_constructor (void)
{
  osp_init ();
}

/* How long the exit report waits for a runtime lock (osp_locks_probe):
   generous, as another thread may be in the middle of a long flush on a
   loaded machine; only a lock that is never released should run out. */
#define EXIT_WAIT_MS 10000u

__attribute__ ((destructor (101))) static void
osp_destructor (void)
{
  int expected = OSP_PHASE_RUNNING;
  if (!atomic_compare_exchange_strong (&osp_phase, &expected, OSP_PHASE_REPORTING))
    return;
  uintptr_t was = osp_in_runtime;
  osp_in_runtime = OSP_RUNTIME_PINNED;
  atomic_signal_fence (memory_order_seq_cst);
  /* A hook frame of this thread that never resumes (exit () called from
     a signal handler that interrupted it, or left by a jump and no hook
     since): its thread-local state may be half updated; settle it from a
     clean one. */
  if (was != 0 && was != OSP_RUNTIME_PINNED)
    osp_thread_recover ();
  if (osp_opts.verify_paths)
    osp_paths_verify_summary ();
  const char *held;
  if (osp_opts.mode != OSP_MODE_OFF && osp_locks_probe (EXIT_WAIT_MS, &held))
    /* Never wait for ever: the program's own exit (its stdio) follows. */
    osp_warn ("osp: the %s lock was still held after %u s at exit: the "
              "exit report, snapshot and last view are lost", held,
              EXIT_WAIT_MS / 1000);
  else if (osp_opts.mode != OSP_MODE_OFF)
    {
      struct osp_thread *t = osp_thread_peek ();
      if (t != NULL)
        osp_thread_settle (t);
      osp_snapshot_default_rule (&osp_opts, 0);
      /* One profile for the exit report, the snapshot and the last
         published view. */
      struct osp_profile p;
      int report = osp_opts.report != OSP_REPORT_NONE
                   && osp_opts.report != OSP_REPORT_LINE;
      int taken = (report || osp_publish_active ()
                   || osp_opts.snapshot_path[0] != '\0')
                  && osp_profile_take (&p) == 0;
      osp_report_write (&osp_opts, taken ? &p : NULL);
      if (osp_opts.snapshot_path[0] != '\0')
        {
          if (taken)
            osp_snapshot_write (&p, &osp_opts, 1, OSP_SNAP_AT_EXIT);
          else
            osp_warn ("osp: cannot write the snapshot: out of memory");
        }
      osp_publish_exit (taken ? &p : NULL);
      if (taken)
        osp_profile_free (&p);
    }
  atomic_store (&osp_phase, OSP_PHASE_DONE);
  atomic_signal_fence (memory_order_seq_cst);
  osp_in_runtime = was;
}

/* Instrumented objects call __osp_register_module@LIBOSPRT_0, so that a
   shared library linked without -losprt fails to link instead of failing
   when loaded (plugin/linkcheck.cc).  The definition carries the version
   as its default, @@: in libosprt.so through osprt.map, in libosprt.a
   through the .symver itself, under which an unversioned reference (the
   unit tests, objects of older plugins) binds to it too.  The C name is
   renamed so that the object has no second, unversioned definition.  */
void __osp_register_module (uint32_t abi, struct osp_fn_record *start,
                            struct osp_fn_record *stop)
  __asm__ ("__osp_register_module_v0");
__asm__ (".symver __osp_register_module_v0, " OSP_SYM_REGISTER
         "@@" OSP_RUNTIME_VERSION_NODE);

OSP_EXPORT void
__osp_register_module (uint32_t abi, struct osp_fn_record *start,
                       struct osp_fn_record *stop)
{
  osp_init ();
  if (atomic_load (&osp_phase) == OSP_PHASE_DISABLED)
    return;
  uintptr_t was = osp_in_runtime;
  osp_in_runtime = OSP_RUNTIME_PINNED;
  atomic_signal_fence (memory_order_seq_cst);
  osp_registry_add (abi, start, stop);
  atomic_signal_fence (memory_order_seq_cst);
  osp_in_runtime = was;
}

OSP_EXPORT void
__osp_release_module (uint32_t abi, struct osp_fn_record *start,
                      struct osp_fn_record *stop)
{
  if (abi != OSP_ABI_VERSION || atomic_load (&osp_phase) == OSP_PHASE_DISABLED)
    return; /* its records were refused: nothing of it was registered */
  uintptr_t was = osp_in_runtime;
  osp_in_runtime = OSP_RUNTIME_PINNED;
  atomic_signal_fence (memory_order_seq_cst);
  osp_registry_release (start, stop);
  atomic_signal_fence (memory_order_seq_cst);
  osp_in_runtime = was;
}

/* The program's own report (osp/osp.h): an entry point like the hooks, so
   it may be the first call into osp and start the runtime; the report
   itself is online.c's. */
OSP_EXPORT int
osp_report (const char *path)
{
  osp_init ();
  return osp_report_now (path);
}

static void
lost (atomic_uint_fast64_t *stat)
{
  atomic_fetch_add_explicit (stat, 1, memory_order_relaxed);
}

/* Enter the runtime from generated code whose call has the stack mark
   HERE (base.h) when the runtime is already active on this thread: 0 if
   the frame that set the flag is live (the hook or path end is lost),
   else (it was abandoned: osp_runtime_enter, collect/thread.c) 1 with
   the thread recovered and the flag holding HERE, and leave () must
   follow.  Out of line, and
   its callers' (the *_busy functions) too, so that the hot path of each
   entry point keeps nothing live across a call. */
static __attribute__ ((noinline, cold)) int
enter_busy (uintptr_t here)
{
  lost (&osp_stats.hits_lost);
  /* The abandoned hook is the one lost; what its thread had pending goes
     with it (collect/thread.c). */
  return osp_runtime_enter (here);
}

/* The same when the runtime is not active: 1. */
static inline int
enter (uintptr_t here)
{
  if (osp_in_runtime)
    return 0;
  osp_in_runtime = here;
  atomic_signal_fence (memory_order_seq_cst);
  return 1;
}

static inline void
leave (void)
{
  atomic_signal_fence (memory_order_seq_cst);
  osp_in_runtime = 0;
}

/* When the entries look for a viewer's request (publish.c,
   osp_entry_poll; no runtime lock is held).  In mode=subpaths an entry
   comes only when a countdown runs out, and looks each time.  Where every
   block entry comes into the hook (mode=blocks and subpaths-exact), a
   thread looks once every POLL_EVERY of its entries, counted down in
   T->poll_left (1 in a new thread: its first entry looks): the two loads
   and the test of a look at each were about 2% of a mode=blocks run's
   instructions, and 256 entries take microseconds, so an attach is
   noticed as soon as before, to a human.  The countdown is T's, not a
   thread-local of its own, and is counted before the entry's work: T is
   at hand in a register there, where a thread-local would cost one more
   load of its offset and a look after the work would keep T in a
   callee-saved register across the call.  (Lost entries, in the hook
   below, look each time: they are few, and may be all a program has.) */
#define POLL_EVERY 256

static inline void
poll_sometimes (struct osp_thread *t)
{
  if (__builtin_expect (--t->poll_left == 0, 0))
    {
      t->poll_left = POLL_EVERY;
      osp_entry_poll ();
    }
}

/* Inlined into each entry point (the trampolines' and the C ones), so
   that passing the mark costs no call. */
static inline __attribute__ ((always_inline)) void
block_hook_body (struct osp_fn_record *rec, uint32_t block)
{
  int ph = atomic_load_explicit (&osp_phase, memory_order_acquire);
  if (ph == OSP_PHASE_RUNNING || ph == OSP_PHASE_REPORTING)
    {
      if (osp_opts.mode == OSP_MODE_OFF)
        __osp_skip = UINT32_MAX;
      else
        {
          struct osp_fn *fn = osp_fn_of_record (rec);
          struct osp_thread *t;
          /* Each way looks for a viewer's request (poll_sometimes);
             mode=blocks is tested first: its entries are the many, the
             others' cost more than a test each anyway. */
          if (fn == NULL)
            {
              lost (&osp_stats.unregistered_hits);
              if (osp_opts.mode == OSP_MODE_SUBPATHS
                  && (t = osp_thread_self ()) != NULL)
                osp_sampler_unregistered (t);
              osp_entry_poll ();
            }
          else if (block >= fn->nblocks || (t = osp_thread_self ()) == NULL)
            {
              lost (&osp_stats.hits_lost);
              osp_entry_poll ();
            }
          else if (osp_opts.mode == OSP_MODE_BLOCKS)
            {
              poll_sometimes (t);
              osp_blocks_hit (t, fn, block);
            }
          else if (osp_opts.mode == OSP_MODE_SUBPATHS)
            {
              osp_sampler_hit (t, fn, block);
              osp_entry_poll ();
            }
          else
            {
              poll_sometimes (t);
              osp_exact_hit (t, fn->block_base + block);
            }
        }
    }
  else if (ph == OSP_PHASE_NEW)
    lost (&osp_stats.unregistered_hits); /* nothing can be registered yet */
  else if (ph == OSP_PHASE_DISABLED)
    __osp_skip = UINT32_MAX;
  leave ();
}

static __attribute__ ((noinline, cold)) void
block_hook_busy (struct osp_fn_record *rec, uint32_t block, uintptr_t mark)
{
  if (enter_busy (mark))
    block_hook_body (rec, block);
}

static inline __attribute__ ((always_inline)) void
block_hook_runtime (struct osp_fn_record *rec, uint32_t block, uintptr_t mark)
{
  __osp_skip = 1;
  if (enter (mark))
    block_hook_body (rec, block);
  else
    block_hook_busy (rec, block, mark);
}

void
osp_block_hook_runtime (struct osp_fn_record *rec, uint32_t block,
                        uint64_t unused3, uint64_t unused4, uintptr_t mark)
{
  (void) unused3;
  (void) unused4;
  block_hook_runtime (rec, block, mark);
}

/* Always inlined: when block_hook_body grows a little, GCC splits this
   into a part of its own, which block_event (a batch's blocks) then
   calls: 4-8% more instructions in mode=blocks (bench fft and sor). */
static inline __attribute__ ((always_inline)) void
block_hook (struct osp_fn_record *rec, uint32_t block, uintptr_t mark)
{
  /* The middle of a sample (sampler.h)? */
  if (!osp_sample_append (rec, block, mark))
    block_hook_runtime (rec, block, mark);
}

OSP_EXPORT void
__osp_block_hook (struct osp_fn_record *rec, uint32_t block)
{
  block_hook (rec, block, osp_stack_mark ());
}

static inline void
path_countdown_set (uint32_t v)
{
  __atomic_store_n (&__osp_path_countdown, v, __ATOMIC_RELAXED);
}

static inline __attribute__ ((always_inline)) void
path_end_body (struct osp_fn_record *rec, uint64_t path)
{

  int ph = atomic_load_explicit (&osp_phase, memory_order_acquire);
  if ((ph == OSP_PHASE_RUNNING || ph == OSP_PHASE_REPORTING)
      && osp_opts.mode != OSP_MODE_OFF
      && (osp_opts.paths != OSP_PATHS_OFF
          || osp_forest_policy () != OSP_FOREST_OFF))
    {
      struct osp_thread *t = osp_thread_self ();
      if (t != NULL)
        osp_pathsample_end (t, rec, path); /* re-arms */
      else
        {
          path_countdown_set (OSP_PATH_HUGE);
          lost (&osp_stats.hits_lost);
        }
      osp_entry_poll (); /* as in the block hook */
    }
  else if (ph == OSP_PHASE_NEW) /* the countdown stays 1: come back later */
    lost (&osp_stats.unregistered_hits);
  else
    path_countdown_set (OSP_PATH_HUGE);
  leave ();
}

static __attribute__ ((noinline, cold)) void
path_end_busy (struct osp_fn_record *rec, uint64_t path, uintptr_t mark)
{
  if (enter_busy (mark))
    path_end_body (rec, path);
}

static inline __attribute__ ((always_inline)) void
path_end (struct osp_fn_record *rec, uint64_t path, uintptr_t mark)
{
  /* As in the hook: 1 first, so a path end of a signal handler that
     interrupts us calls in (and is counted as lost) instead of wrapping
     the countdown; the exit in the body re-arms it for real. */
  path_countdown_set (1);
  if (enter (mark))
    path_end_body (rec, path);
  else
    path_end_busy (rec, path, mark);
}

OSP_EXPORT void
__osp_path_end (struct osp_fn_record *rec, uint64_t path)
{
  path_end (rec, path, osp_stack_mark ());
}

void
osp_path_end_tramp (struct osp_fn_record *rec, uint64_t path,
                    uint64_t unused3, uint64_t unused4, uintptr_t mark)
{
  (void) unused3;
  (void) unused4;
  path_end (rec, path, mark);
}

/* __osp_path_end_shared (ABI 8, abi.h): a path end of a function whose
   checks test __osp_skip == 1 instead of counting down a countdown of
   their own.  __osp_skip is 1 on the way in (that is why it called) and
   this entry never decrements it: the sampler decides (collect/
   pathsample.c, osp_pathsample_shared) whether the path end was drawn -
   the sampler skipping, so it called with probability 1 / the skip's
   mean - or seen - a sample or a hold keeps __osp_skip at 1, so every
   path end calls - and may change __osp_skip only to start or end a
   hold; the trampoline returns it and the code stores it back.  Outside
   mode=subpaths (blocks, subpaths-exact) the block hooks keep __osp_skip
   at 1, so every path end is seen. */
static inline __attribute__ ((always_inline)) void
path_end_shared_body (struct osp_fn_record *rec, uint64_t path)
{
  int ph = atomic_load_explicit (&osp_phase, memory_order_acquire);
  if ((ph == OSP_PHASE_RUNNING || ph == OSP_PHASE_REPORTING)
      && osp_opts.mode != OSP_MODE_OFF)
    {
      struct osp_thread *t = osp_thread_self ();
      if (t != NULL)
        osp_pathsample_shared (t, rec, path);
      else
        lost (&osp_stats.hits_lost);
      osp_entry_poll (); /* as in the block hook */
    }
  else if (ph == OSP_PHASE_NEW) /* __osp_skip stays 1: come back later */
    lost (&osp_stats.unregistered_hits);
  else
    __osp_skip = UINT32_MAX; /* as the block hook: off, disabled, done */
  leave ();
}

static __attribute__ ((noinline, cold)) void
path_end_shared_busy (struct osp_fn_record *rec, uint64_t path,
                      uintptr_t mark)
{
  if (enter_busy (mark))
    path_end_shared_body (rec, path);
}

static inline __attribute__ ((always_inline)) void
path_end_shared (struct osp_fn_record *rec, uint64_t path, uintptr_t mark)
{
  /* In a sample, most need only counting (sampler.h, seen_left). */
  if (osp_sample_seen_end (mark))
    return;
  if (enter (mark))
    path_end_shared_body (rec, path);
  else
    path_end_shared_busy (rec, path, mark);
}

OSP_EXPORT void
__osp_path_end_shared (struct osp_fn_record *rec, uint64_t path)
{
  path_end_shared (rec, path, osp_stack_mark ());
}

void
osp_path_end_shared_tramp (struct osp_fn_record *rec, uint64_t path,
                           uint64_t unused3, uint64_t unused4, uintptr_t mark)
{
  (void) unused3;
  (void) unused4;
  /* The check read 1, but maybe from a register: the calling code keeps
     __osp_skip there through a loop (the asm tells GCC it touches no
     memory) and stores it only where it must, so memory may still hold a
     value from before the loop's decrements, and the trampoline hands
     back what memory holds.  tests/phantom.sh: blocks_seen 2076061
     against 2386895 at interval=10000 without this.  (A plain call makes
     GCC store the countdown first.) */
  __osp_skip = 1;
  path_end_shared (rec, path, mark);
}

/* Batched loops (abi.h, plugin/loops.cc): at a loop's exit, the events of
   its run at once: EVENTS events, of which event I goes to ONE (REC, ARG,
   I, MAX), the countdown having been the low 32 bits of C_TAIL (the
   generated code has already stored it minus EVENTS, right when EVENTS is
   less).  Each time the countdown runs out within them, that event goes
   to its ordinary entry point, which re-arms the countdown, as a hook or
   check would have sent it; what is left then counts down the re-armed
   countdown.  So the runtime sees exactly the events per-iteration hooks
   and checks would have given it, in order (an exhaustive mode, countdown
   1, sees all).  ONE returns how many events it took, from I on and at
   most MAX: more than one when it could append the next ones to an open
   sample at once (each as a hook with the countdown at 1 would have). */
typedef uint64_t (*event_fn) (struct osp_fn_record *rec, const void *arg,
                              uint64_t i, uint64_t max, uintptr_t mark);

static void
run_batch (uint32_t *countdown, uint64_t events, uint64_t c_tail,
           struct osp_fn_record *rec, const void *arg, event_fn one,
           uintptr_t mark)
{
  uint64_t at = 0;
  uint32_t c = (uint32_t) c_tail;
  while (events - at >= (c ? c : 1)) /* 0 only transiently: as 1 */
    {
      at += c ? c : 1;
      __atomic_store_n (countdown, 0, __ATOMIC_RELAXED);
      at += one (rec, arg, at - 1, events - at + 1, mark) - 1;
      c = __atomic_load_n (countdown, __ATOMIC_RELAXED);
    }
  __atomic_store_n (countdown, (c ? c : 1) - (uint32_t) (events - at),
                    __ATOMIC_RELAXED);
}

static uint64_t
path_event (struct osp_fn_record *rec, const void *path, uint64_t i,
            uint64_t max, uintptr_t mark)
{
  (void) i;
  (void) max;
  path_end (rec, *(const uint64_t *) path, mark);
  return 1;
}

static uint64_t
block_event (struct osp_fn_record *rec, const void *chain, uint64_t i,
             uint64_t max, uintptr_t mark)
{
  const uint32_t *c = chain;
  block_hook (rec, c[1 + i % (c[0] & ~OSP_CHAIN_PATH)], mark);
  return 1 + osp_sample_append_chain (rec, c, i + 1, max - 1, mark);
}

/* A batched loop of a OSP_FN_PATH_SHARED function (abi.h): CHAIN = {k |
   OSP_CHAIN_PATH, b0 .. b(k-1), P lo, P hi} and a path end of P before
   the first block of iterations 1 .. n, that is before every event
   m k (m >= 1).  As run_batch, but such a path end is seen as its shared
   check would have called: when __osp_skip was 1 before that event's
   block, which is when that block is the one that fires (or every block
   fires, under a sample or a hold).  The path end may end a hold (then
   the block is only the first of the skip re-armed) or start one; and a
   run of appends to an open sample stops at the next path end. */
/* From event AT of a batched loop's EVENTS, at a path end (AT a multiple
   of K) with a sample open: the path ends the cursor's allowance lets
   pass are seen as the trampoline would take them (sampler.h,
   osp_sample_seen_end), so the blocks between them are appended in one
   run rather than one iteration at a time (lu's inner loop, a chain of
   one block, entered the runtime twice a block: bench/lu 1.35x -> 1.46x
   instructions before this).  Returns the next event to take. */
static uint64_t
append_through_seen_ends (struct osp_fn_record *rec, const uint32_t *chain,
                          uint64_t k, uint64_t at, uint64_t events,
                          uintptr_t mark)
{
  while (at < events && at % k == 0)
    {
      uint64_t ends = osp_sample_seen_allowance (0, mark);
      if (ends == 0)
        break;
      uint64_t stop = ends < (events - at + k - 1) / k ? at + ends * k : events;
      uint64_t m = osp_sample_append_chain (rec, chain, at, stop - at, mark);
      if (m == 0)
        break;
      osp_sample_seen_allowance ((uint32_t) ((m + k - 1) / k), mark);
      at += m;
    }
  return at;
}

static void
block_hooks_shared (struct osp_fn_record *rec, const uint32_t *chain,
                    uint64_t events, uint64_t c_tail, uintptr_t mark)
{
  uint64_t k = chain[0] & ~OSP_CHAIN_PATH;
  uint64_t path = chain[1 + k] | (uint64_t) chain[2 + k] << 32;
  uint64_t at = 0, ended = 0; /* ended: the last event whose path end ran */
  uint32_t c = (uint32_t) c_tail;
  for (;;)
    {
      uint64_t f = at + (c ? c : 1) - 1; /* the event that fires */
      if (f >= events)
        break;
      at = f;
      if (f >= k && f % k == 0 && f != ended)
        {
          ended = f;
          __osp_skip = 1; /* what the check saw */
          path_end_shared (rec, path, mark);
          c = __atomic_load_n (&__osp_skip, __ATOMIC_RELAXED);
          if (c != 1)
            continue; /* a hold ended: event f begins the skip */
        }
      __atomic_store_n (&__osp_skip, 0, __ATOMIC_RELAXED);
      uint64_t next_end = (f / k + 1) * k; /* no appends past it */
      uint64_t max = (next_end < events ? next_end : events) - f;
      at += block_event (rec, chain, f, max, mark);
      at = append_through_seen_ends (rec, chain, k, at, events, mark);
      c = __atomic_load_n (&__osp_skip, __ATOMIC_RELAXED);
    }
  __atomic_store_n (&__osp_skip, (c ? c : 1) - (uint32_t) (events - at),
                    __ATOMIC_RELAXED);
}

static void
path_ends (struct osp_fn_record *rec, uint64_t path, uint64_t n,
           uint64_t c_tail, uintptr_t mark)
{
  run_batch (&__osp_path_countdown, n, c_tail, rec, &path, path_event, mark);
}

static void
block_hooks (struct osp_fn_record *rec, const uint32_t *chain, uint64_t n,
             uint64_t c_tail, uintptr_t mark)
{
  if (chain[0] & OSP_CHAIN_PATH)
    block_hooks_shared (rec, chain,
                        n * (chain[0] & ~OSP_CHAIN_PATH) + (c_tail >> 32),
                        c_tail, mark);
  else
    run_batch (&__osp_skip, n * chain[0] + (c_tail >> 32), c_tail, rec,
               chain, block_event, mark);
}

OSP_EXPORT void
__osp_path_ends (struct osp_fn_record *rec, uint64_t path, uint64_t n,
                 uint64_t c_tail)
{
  path_ends (rec, path, n, c_tail, osp_stack_mark ());
}

void
osp_path_ends_tramp (struct osp_fn_record *rec, uint64_t path, uint64_t n,
                     uint64_t c_tail, uintptr_t mark)
{
  path_ends (rec, path, n, c_tail, mark);
}

OSP_EXPORT void
__osp_block_hooks (struct osp_fn_record *rec, const uint32_t *chain,
                   uint64_t n, uint64_t c_tail)
{
  block_hooks (rec, chain, n, c_tail, osp_stack_mark ());
}

void
osp_block_hooks_tramp (struct osp_fn_record *rec, const uint32_t *chain,
                       uint64_t n, uint64_t c_tail, uintptr_t mark)
{
  block_hooks (rec, chain, n, c_tail, mark);
}

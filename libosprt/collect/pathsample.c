/* SPDX-License-Identifier: MIT */
/* pathsample.c - which Ball-Larus path ends are sampled (OSP_OPTIONS
 * paths=counter|timer|exhaustive|off).
 *
 * Generated code keeps the path register up to date always (cheap: a
 * register add on some edges) and, at every path end, decrements the
 * per-thread countdown __osp_path_countdown; only when it reaches 0 does
 * it call __osp_path_end, which lands here.  That is PEP's split (section
 * 3.2): computing the path number is nearly free, storing it is what
 * costs, so only sampled path ends store.  Every policy is a way of
 * re-arming the countdown; each call consumes exactly the value armed
 * last, so the path ends that passed are known exactly (path_ends_seen,
 * like sampler.c's blocks_seen), except under the timer, which writes the
 * countdown from another thread.
 *
 *   counter (default): Arnold and Ryder's counter-based sampling (PLDI'01,
 *     section 3) with a randomised interval: each countdown is drawn from
 *     the geometric distribution of mean path_interval, so every path end
 *     is sampled independently with probability p = 1/path_interval (the
 *     countdown is memoryless: a thread's first path end too, see
 *     `fresh').  A fixed interval could alias with a loop's period and
 *     sample the same iteration point forever.  So a path sampled s times
 *     ran about N = s / p times, with a Poisson 95% interval
 *     +/- 1.96 sqrt (s) / p (estimate.c).  p halves whenever the path
 *     table raises its generation (pathprof.c's gain limit, path_gain):
 *     the next draw uses it, and a sample carries the generation of the
 *     draw that took it.
 *   timer: PEP's simplified Arnold-Grove sampling PEP(SAMPLES, STRIDE)
 *     (PEP section 4.4): a runtime thread ticks every path_period ms;
 *     between ticks threads run with a long countdown (an expiry without
 *     a tick only re-arms).  At each tick every live thread's countdown is
 *     set to a stride that rotates through 1..STRIDE (the stride comes
 *     before the first sample, against timer bias), and from the path end
 *     where it fires the thread takes SAMPLES samples at consecutive path
 *     ends (countdown 1), then goes back to the long countdown.  How many
 *     path ends a tick stands for is unknown, so timer samples are
 *     reported as samples and shares, not scaled to counts.
 *   exhaustive: the countdown is always 1: every path end is recorded,
 *     exact counts, the perfect profile that accuracy is measured against.
 *   off: the countdown is huge and nothing is recorded.
 *
 * The timer thread (like online.c's report thread) is created with every
 * signal blocked and sleeps with clock_nanosleep on CLOCK_MONOTONIC: no
 * setitimer, no SIGPROF, so the program's own signals and timers are
 * untouched.  It writes a thread's countdown through a pointer to that
 * thread's TLS variable recorded when the thread's state was made, under
 * osp_threads_lock, so it never writes into a thread that has exited (the
 * state is unlinked at thread exit under the same lock), and sets the
 * thread's tick flag.  The write is a relaxed atomic store racing with
 * the owner's plain decrement (load, subtract, store): the owner can
 * overwrite it with its old value minus one, and a thread that ends paths
 * back to back does so nearly always (its loads are served from its own
 * pending stores; measured: most ticks lost to a spinning thread even
 * with three repeated stores 20 us apart).  So the "long countdown"
 * between ticks is not huge but a poll: geometric with mean
 * OSP_PATH_POLL path ends (randomised so the poll points cannot alias
 * with a loop), and a runtime call that finds the tick flag set starts
 * the burst there, whether the countdown ran out because of the tick's
 * stride or because of the poll.  A tick whose store was lost thus starts
 * its burst at most about OSP_PATH_POLL path ends late, for one runtime
 * call per OSP_PATH_POLL path ends.  A forked child restarts the timer
 * thread (thread.c's fork handler).
 *
 * Shared checks (abi.h, ABI 8: OSP_FN_PATH_SHARED) have no countdown:
 * they call __osp_path_end_shared when __osp_skip, the block hooks'
 * countdown, is 1, and land in osp_pathsample_shared.  The subpath
 * sampler says which kind of path end it is (osp_sampler_drawn):
 *   drawn: the sampler is skipping and holds nothing, so the path end
 *     called with probability 1/I, I the mean of the skip it drew
 *     (memoryless); it stands for I path ends (path_ends_seen grows by
 *     I, an estimate: OSP_W_PATH_ENDS_DRAWN says how much), counter keeps
 *     it with probability I / (the interval now), forest=burst opens a
 *     burst with probability I / forest_interval.  The sampler's clock
 *     makes I at most both (osp_pathsample_clock).
 *   seen: a sample is being recorded, or a hold keeps __osp_skip at 1,
 *     so every path end calls; each counts 1 and goes through the same
 *     software countdowns (path_left, forest_left) as an own countdown's
 *     path ends.  While a sample is open the trampoline takes such path
 *     ends from an allowance in the sample cursor (allow, take_absorbed;
 *     sampler.h) without entering C.
 * A hold (osp_pathsample_holds; sampler.c keeps the skip in software
 * meanwhile) is wanted by paths=exhaustive and forest=exhaustive always,
 * by a forest burst while it lasts, and under paths=timer from a tick
 * (whose flag the thread's next block fire or shared path end notices:
 * the timer thread cannot write __osp_skip without breaking
 * blocks_seen) through its stride and burst, counted here in path ends.
 * Holds start and end only from the block hook and the shared path end,
 * whose callers store __osp_skip back, never from __osp_path_end (its
 * caller may keep __osp_skip in a register across the call).
 */
#define _GNU_SOURCE
#include "collect/collect.h"
#include "collect/sampler.h"

#include <errno.h>
#include <time.h>

struct osp_path_thread
{
  uint64_t rng[4];
  uint32_t armed;  /* what the runtime last wrote into the countdown */
  uint32_t gen;    /* counter: the generation path_left was drawn at */
  double log_keep_gen; /* ln (1 - 1/interval) at generation gen */
  uint32_t burst;  /* timer: samples still to take in this tick's burst */
  uint32_t stride_left; /* timer, shared path ends: path ends of the
                           tick's stride still to pass before its burst */
  /* counter, exhaustive: path ends until the next path sample (this one
     included); forest=burst: until the next forest burst, or the items
     still to give in the current one (forest_burst_left > 0). */
  uint32_t path_left, forest_left, forest_burst_left;
  /* Shared path ends: the allowance last left in the sample cursor
     (sampler.h, seen_left) for the trampoline to take seen path ends
     from; what it took is counted at the next entry (take_absorbed). */
  uint32_t allowed;
};

/* paths=timer: mean path ends between polls of the tick flag. */
#define OSP_PATH_POLL 65536

/* Immutable after osp_pathsample_init. */
static enum osp_path_policy policy = OSP_PATHS_OFF;
static double log_keep; /* ln (1 - 1/path_interval); 0 when it is 1 */
static double log_keep_poll; /* ln (1 - 1/OSP_PATH_POLL) */
static uint32_t samples_per_tick, stride, period_ms;
static enum osp_forest_policy forest = OSP_FOREST_OFF;
static double log_keep_forest; /* ln (1 - 1/forest_interval) */
static uint32_t forest_burst;
static double forest_interval;
static int subpaths; /* mode=subpaths: a shared path end may be drawn */

/* The generated code decrements the countdown with a plain load and
   store; the runtime's own accesses are relaxed atomics because the timer
   thread writes it too (on x86-64 both are plain moves). */
static inline void
countdown_set (uint32_t v)
{
  __atomic_store_n (&__osp_path_countdown, v, __ATOMIC_RELAXED);
}

static inline void
arm (struct osp_path_thread *s, uint32_t v)
{
  s->armed = v;
  countdown_set (v);
}

/* paths=counter: path ends until the next sample, at the path table's
   current generation (its gain limit), which S remembers. */
static uint32_t
draw_path_left (struct osp_path_thread *s)
{
  uint32_t g = osp_pathprof_gen ();
  if (g != s->gen)
    {
      s->gen = g;
      s->log_keep_gen = osp_ln1m (1.0 / osp_pathprof_interval (g));
    }
  return osp_draw_geometric (s->rng, s->log_keep_gen);
}

/* paths=counter, a path end counted down in software (consume): whether
   it is the one to sample, the next draw made if so. */
static int
counter_due (struct osp_path_thread *s)
{
  if (s->path_left != 0)
    return 0;
  s->path_left = draw_path_left (s);
  return 1;
}

static struct osp_path_thread *
make_state (struct osp_thread *t)
{
  struct osp_path_thread *s = osp_arena_alloc (&t->arena, sizeof *s);
  if (s == NULL)
    return NULL;
  /* Its own stream: independent of the subpath sampler's choices, yet
     the same for the same seed (thread index 0 of a single thread). */
  osp_rng_seed (s->rng, osp_seed ^ 0x7061746873616d70u, t->index);
  s->armed = 1; /* __osp_path_countdown starts at 1 in every thread */
  /* Drawn now, so the thread's first path end too is sampled with
     probability p (the draws are memoryless). */
  s->log_keep_gen = log_keep; /* generation 0 */
  s->path_left = policy == OSP_PATHS_COUNTER ? draw_path_left (s) : 1;
  s->forest_left = osp_draw_geometric (s->rng, log_keep_forest);
  t->pathsample = s;
  return s;
}

/* The countdown the forest needs next: 1 in a burst or exhaustively,
   else the path ends until the next burst (forest=burst), huge when off. */
static uint32_t
forest_next (const struct osp_path_thread *s)
{
  switch (forest)
    {
    case OSP_FOREST_EXHAUSTIVE:
      return 1;
    case OSP_FOREST_BURST:
      return s->forest_burst_left ? 1 : s->forest_left;
    case OSP_FOREST_OFF:
      break;
    }
  return OSP_PATH_HUGE;
}

/* N path ends passed since the countdown was armed (the one calling in
   included when it ran out): count them against both draws. */
static void
consume (struct osp_thread *t, struct osp_path_thread *s, uint32_t n)
{
  if (policy == OSP_PATHS_TIMER)
    return;
  osp_walk_bump (t, OSP_W_PATH_ENDS, n);
  if (policy == OSP_PATHS_COUNTER)
    s->path_left -= n < s->path_left ? n : s->path_left;
  if (forest == OSP_FOREST_BURST && s->forest_burst_left == 0)
    s->forest_left -= n < s->forest_left ? n : s->forest_left;
}

/* The seen shared path ends the trampoline took from the cursor since
   S set its allowance: count them as seen here. */
static void
take_absorbed (struct osp_thread *t, struct osp_path_thread *s)
{
  uint32_t left = osp_sample_cursor.seen_left;
  if (left < s->allowed)
    consume (t, s, s->allowed - left);
  s->allowed = left;
}

/* How many seen shared path ends may pass, from now, before the path
   side must see one (take it, start or feed a burst, a tick's stride):
   the trampoline counts them off in the cursor meanwhile. */
static void
allow (struct osp_path_thread *s)
{
  uint32_t a = UINT32_MAX;
  if (policy == OSP_PATHS_EXHAUSTIVE || forest == OSP_FOREST_EXHAUSTIVE
      || s->forest_burst_left > 0 || s->burst > 0 || s->stride_left > 0)
    a = 0;
  if (policy == OSP_PATHS_COUNTER && s->path_left <= a)
    a = s->path_left ? s->path_left - 1 : 0;
  if (forest == OSP_FOREST_BURST && s->forest_left <= a)
    a = s->forest_left ? s->forest_left - 1 : 0;
  s->allowed = a;
  osp_sample_cursor.seen_left = a;
  osp_sample_cursor.seen_any = !subpaths;
}

/* This path end of FN, ID, for the forest. */
static void
forest_end (struct osp_thread *t, struct osp_path_thread *s,
            const struct osp_fn *fn, uint64_t id)
{
  switch (forest)
    {
    case OSP_FOREST_EXHAUSTIVE:
      osp_forest_item (t, fn, id, 0);
      break;
    case OSP_FOREST_BURST:
      if (s->forest_burst_left > 0)
        osp_forest_item (t, fn, id, 0);
      else if (s->forest_left == 0)
        {
          osp_forest_item (t, fn, id, 1);
          s->forest_burst_left = forest_burst;
        }
      else
        break;
      if (--s->forest_burst_left == 0)
        s->forest_left = osp_draw_geometric (s->rng, log_keep_forest);
      break;
    case OSP_FOREST_OFF:
      break;
    }
}

/* Path ID of REC ended on T: into the path table if TAKE (a sample of
   generation GEN), and to the forest. */
static void
record_end (struct osp_thread *t, struct osp_path_thread *s,
            struct osp_fn_record *rec, uint64_t id, int take, uint32_t gen)
{
  if (!take && forest == OSP_FOREST_OFF)
    return;
  struct osp_fn *fn = osp_fn_of_record (rec);
  if (fn == NULL)
    {
      atomic_fetch_add_explicit (&osp_stats.unregistered_hits, 1,
                                 memory_order_relaxed);
      return;
    }
  /* Exhaustively, a function with inline counters has counted this path
     end itself (pathprof.c reads the counters). */
  if (take && !osp_paths_counted (fn, policy))
    osp_pathprof_record (t, fn, id, gen);
  forest_end (t, s, fn, id);
}

void
osp_pathsample_end (struct osp_thread *t, struct osp_fn_record *rec,
                    uint64_t id)
{
  struct osp_path_thread *s = t->pathsample ? t->pathsample : make_state (t);
  if (s == NULL)
    {
      countdown_set (OSP_PATH_HUGE);
      atomic_fetch_add_explicit (&osp_stats.hits_lost, 1,
                                 memory_order_relaxed);
      return;
    }
  int shared = atomic_load_explicit (&osp_paths_shared, memory_order_relaxed);
  if (shared)
    take_absorbed (t, s);
  consume (t, s, s->armed);
  uint32_t next = OSP_PATH_HUGE;
  int take = 0;
  uint32_t gen = s->gen;
  switch (policy)
    {
    case OSP_PATHS_EXHAUSTIVE:
      take = 1;
      next = 1;
      break;
    case OSP_PATHS_COUNTER:
      take = counter_due (s);
      next = s->path_left;
      break;
    case OSP_PATHS_TIMER:
      /* A tick (even one arriving in the middle of a burst) starts a
         new burst at the path end where its stride runs out. */
      if (atomic_exchange_explicit (&t->path_tick, 0, memory_order_acquire))
        s->burst = samples_per_tick;
      if (s->burst > 0)
        {
          take = 1;
          s->burst--;
        }
      next = s->burst > 0 ? 1 : osp_draw_geometric (s->rng, log_keep_poll);
      break;
    case OSP_PATHS_OFF:
      break;
    }
  record_end (t, s, rec, id, take, gen);
  uint32_t f = forest_next (s);
  arm (s, f < next ? f : next);
  if (shared)
    allow (s);
}

/* True with probability P (1 and more: always), from S's stream. */
static int
coin (struct osp_path_thread *s, double p)
{
  return p >= 1 || (double) osp_rng_next (s->rng) < p * 0x1p64;
}

/* paths=timer at a shared path end: the tick's stride, then its burst,
   counted in path ends here (the timer thread cannot write __osp_skip:
   blocks_seen would lose its exactness), as the own countdown counts
   them.  Whether to take this one. */
static int
timer_end (struct osp_thread *t, struct osp_path_thread *s)
{
  if (atomic_exchange_explicit (&t->path_tick, 0, memory_order_acquire))
    {
      s->burst = samples_per_tick;
      s->stride_left = __atomic_load_n (&t->path_stride_next,
                                        __ATOMIC_RELAXED);
    }
  if (s->stride_left > 0 && --s->stride_left > 0)
    return 0;
  if (s->burst == 0)
    return 0;
  s->burst--;
  return 1;
}

void
osp_pathsample_shared (struct osp_thread *t, struct osp_fn_record *rec,
                       uint64_t id)
{
  struct osp_path_thread *s = t->pathsample ? t->pathsample : make_state (t);
  if (s == NULL)
    {
      atomic_fetch_add_explicit (&osp_stats.hits_lost, 1,
                                 memory_order_relaxed);
      return;
    }
  take_absorbed (t, s);
  if (policy == OSP_PATHS_OFF && forest == OSP_FOREST_OFF)
    {
      allow (s);
      return;
    }
  double clock = subpaths ? osp_sampler_drawn (t) : 0;
  int take = 0;
  uint32_t gen = s->gen;
  if (clock > 0)
    {
      /* Drawn: it called with probability 1/clock, so it stands for
         clock path ends (an estimate), and each policy keeps it with its
         own rate times clock (<= 1: the clock is never slower than the
         policies' rates, osp_pathsample_clock). */
      uint64_t stands = (uint64_t) (clock + 0.5);
      if (policy != OSP_PATHS_TIMER)
        {
          osp_walk_bump (t, OSP_W_PATH_ENDS, stands);
          osp_walk_bump (t, OSP_W_PATH_ENDS_DRAWN, stands);
        }
      switch (policy)
        {
        case OSP_PATHS_EXHAUSTIVE: /* only before its hold starts */
          take = 1;
          break;
        case OSP_PATHS_COUNTER:
          gen = osp_pathprof_gen ();
          take = coin (s, clock / osp_pathprof_interval (gen));
          break;
        case OSP_PATHS_TIMER:
          take = timer_end (t, s);
          break;
        case OSP_PATHS_OFF:
          break;
        }
      if (forest == OSP_FOREST_BURST && s->forest_burst_left == 0
          && coin (s, clock / forest_interval))
        s->forest_left = 0; /* forest_end starts the burst here */
    }
  else
    {
      /* Seen: every path end calls now; count it and count down in
         software as the own countdown would have. */
      consume (t, s, 1);
      switch (policy)
        {
        case OSP_PATHS_EXHAUSTIVE:
          take = 1;
          break;
        case OSP_PATHS_COUNTER:
          take = counter_due (s);
          break;
        case OSP_PATHS_TIMER:
          take = timer_end (t, s);
          break;
        case OSP_PATHS_OFF:
          break;
        }
    }
  record_end (t, s, rec, id, take, gen);
  if (subpaths)
    osp_sampler_hold (t, osp_pathsample_holds (t));
  allow (s);
}

int
osp_pathsample_holds (struct osp_thread *t)
{
  const struct osp_path_thread *s = t->pathsample;
  if (policy == OSP_PATHS_EXHAUSTIVE || forest == OSP_FOREST_EXHAUSTIVE)
    return 1;
  if (policy == OSP_PATHS_TIMER
      && (atomic_load_explicit (&t->path_tick, memory_order_relaxed)
          || (s != NULL && (s->burst > 0 || s->stride_left > 0))))
    return 1;
  return s != NULL && s->forest_burst_left > 0;
}

double
osp_pathsample_clock (double f)
{
  double i = f;
  if (policy == OSP_PATHS_COUNTER)
    {
      double p = osp_pathprof_interval (osp_pathprof_gen ());
      i = p < i ? p : i;
    }
  if (forest == OSP_FOREST_BURST && forest_interval < i)
    i = forest_interval;
  return i;
}

void
osp_pathsample_sync (struct osp_thread *t)
{
  struct osp_path_thread *s = t->pathsample;
  if (s != NULL)
    take_absorbed (t, s);
  if (s != NULL && policy != OSP_PATHS_TIMER)
    {
      uint32_t left = __atomic_load_n (&__osp_path_countdown,
                                       __ATOMIC_RELAXED);
      if (left <= s->armed)
        {
          consume (t, s, s->armed - left);
          s->armed = left;
        }
    }
  osp_pathprof_sync (t);
  osp_forest_sync (t);
}

/* ---- the timer ------------------------------------------------------- */

/* One tick: every live thread strides, then takes a burst. */
static void
tick (void)
{
  osp_lock (&osp_threads_lock);
  for (struct osp_thread *t = osp_threads; t; t = t->next)
    {
      if (t->path_countdown == NULL)
        continue;
      uint32_t k = t->path_stride_next % stride + 1; /* 1..stride, rotating */
      /* Atomic, and before the flag (release): a shared path end of the
         thread reads the stride after taking the flag (timer_end). */
      __atomic_store_n (&t->path_stride_next, k, __ATOMIC_RELAXED);
      atomic_store_explicit (&t->path_tick, 1, memory_order_release);
      __atomic_store_n (t->path_countdown, k, __ATOMIC_RELEASE);
    }
  osp_unlock (&osp_threads_lock);
  atomic_fetch_add_explicit (&osp_stats.path_ticks, 1, memory_order_relaxed);
}

static void *
timer_main (void *arg)
{
  (void) arg;
  osp_in_runtime = 1; /* runs no instrumented code; never counted */
  struct timespec next, now;
  clock_gettime (CLOCK_MONOTONIC, &next);
  for (;;)
    {
      osp_timespec_add_ms (&next, period_ms);
      while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL)
             == EINTR)
        ;
      /* Fell a period behind (a stopped process, a busy machine): start
         again from now rather than tick in a burst to catch up. */
      clock_gettime (CLOCK_MONOTONIC, &now);
      struct timespec late = next;
      osp_timespec_add_ms (&late, period_ms);
      if (now.tv_sec > late.tv_sec
          || (now.tv_sec == late.tv_sec && now.tv_nsec > late.tv_nsec))
        next = now;
      if (osp_running ())
        tick ();
      /* This thread exists anyway: a viewer's request is noticed here
         too, even while the program runs no instrumented code. */
      osp_entry_poll ();
    }
  return NULL;
}

static void
start_timer (void)
{
  if (osp_start_thread (timer_main, NULL) != 0)
    osp_warn ("osp: paths=timer: cannot start the timer thread; no path "
              "is sampled");
}

int
osp_pathsample_init (const struct osp_options *o)
{
  policy = o->mode == OSP_MODE_OFF ? OSP_PATHS_OFF : o->paths;
  log_keep = o->path_interval > 1 ? osp_ln1m (1.0 / o->path_interval) : 0;
  log_keep_poll = osp_ln1m (1.0 / OSP_PATH_POLL);
  samples_per_tick = o->path_samples;
  stride = o->path_stride;
  period_ms = o->path_period;
  forest = osp_forest_policy ();
  log_keep_forest = o->forest_interval > 1
                        ? osp_ln1m (1.0 / o->forest_interval)
                        : 0;
  forest_burst = o->forest_burst;
  forest_interval = o->forest_interval;
  subpaths = o->mode == OSP_MODE_SUBPATHS;
  if (policy == OSP_PATHS_TIMER)
    start_timer ();
  return 0;
}

void
osp_pathsample_fork_child (void)
{
  if (policy == OSP_PATHS_TIMER)
    start_timer ();
}

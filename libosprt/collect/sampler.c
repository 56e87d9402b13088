/* SPDX-License-Identifier: MIT */
/* sampler.c - mode=subpaths: the OSP sampling walk (paper, Figure 3).
 *
 * Every thread walks its own stream of executed blocks (calls, returns and
 * loop iterations included: a subpath is simply consecutive blocks of one
 * thread).  The generated code's countdown __osp_skip is the paper's
 * `skip': the hook fires when it reaches 0, and
 *   - while skipping, that block starts a sample: choosePathLength draws
 *     L = 2^e, the block is the sample's first, and __osp_skip is set to 1
 *     so the next L-1 blocks call the hook too (sampleBlock) - unless the
 *     hot-list would turn the sample away (below): then the next skip
 *     follows at once (the length and that choice are one draw, by the
 *     plan below);
 *   - when the L-th block is appended the sample is finished, queued, and
 *     __osp_skip gets the next skip (chooseSkipValue, drawn when the
 *     sample started, so that a hook can arm it without the runtime).
 * Skips are geometric with mean f = interval (times the plan's stretch W):
 * every block that is not in a sample starts one independently with
 * probability 1/f (1/(f W), each such start standing for W).  So the start
 * positions know nothing of the program and cannot alias with a loop's
 * period the way a fixed stride would (a stride of 1000 over a loop of 4
 * blocks would sample the same iteration point forever).  Estimation from
 * the counters below is explained in estimate.c.
 *
 * Random numbers: xoshiro256** per thread, seeded by splitmix64 from the
 * process seed and the thread's creation index, so a single-threaded
 * program run twice with the same seed=N samples the same positions (the
 * hot-list's coins are seeded from the same seed).
 *
 * Counters (exact, per thread, owner-written): blocks_seen grows by the
 * skip consumed at every hook (each hook consumes the value the runtime
 * last armed: the skip, or 1 while collecting), so it counts every block
 * that passed on the thread; a thread's report adds the part of the
 * current skip already consumed (osp_sampler_sync).
 *
 * After a sample's first block the hooks append their blocks through a
 * cursor without entering the runtime (sampler.h), the last one arming
 * the next skip: the blocks so appended are counted (have, and their walk
 * counters), and a sample they completed is queued, when the sampler next
 * runs on the thread, by take_appended.
 *
 * Finished samples wait in a per-thread queue (arena memory, no malloc):
 * at most QMAX samples and qcap = max_length + QWORDS ids.  Once a quarter
 * full the owner tries osp_hot_lock and hands the whole batch to the
 * hot-list if it is free; when there is no room left for a longest
 * sample it waits for the lock.  Program threads therefore meet on the
 * hot-list once per batch, not once per sample.
 *
 * The hot-list is stratified by length: one concise-sample table per
 * length class (2, 4, ..., max_length, grouped when the bound is too small
 * for a table per length), each with an equal share of hotlist_bytes and
 * its own threshold.  A single table is a uniform sample of all offers, so
 * its memory goes mostly to long subpaths, which are nearly all distinct:
 * on the test programs the threshold climbed to ~45 and the top-5 estimates
 * were off by up to 12%.  Per class, each table is still a uniform sample
 * of the offers of its lengths, so an entry's estimate uses its own table's
 * threshold (estimate.c) and stays unbiased, while the short, hot subpaths
 * keep thresholds near 1.  (Gibbons and Matias's analysis holds per table;
 * the sum of the tables' bounds is the bound.)
 *
 * A table with threshold tau keeps each offer with probability 1/tau, so
 * once tau has risen most long samples would be collected, block by block,
 * queued and offered only to be turned away (moldyn: thresholds 20 to 140
 * for lengths 8 and up, whose samples hold 8 in 10 of the sampled blocks).
 * The coin is therefore flipped when a sample starts, against its table's
 * threshold (hl_admit_cut): a sample that fails it is counted (declined)
 * and never collected.  One that passes carries the cut it passed, and
 * the table thins it by tau/tau' at the offer if its threshold rose to
 * tau' meanwhile (hl_offer_passed), so each table is the same uniform
 * sample of all offers as if every sample had been offered.  A declined
 * start is still a start for the estimator (estimate.c): the paper's skip
 * likewise grows with the hot-list's threshold (OSP section 2.3, "the
 * sampling frequency f"), which is what this does per table.
 *
 * And the coin is not flipped one start at a time but folded into the
 * skips (the plan, below): with a_L = 1/tau of length L's table and A = sum P(L) a_L, the
 * starts a table keeps are a Bernoulli(A/f) stream, of which a start has
 * length L with probability P(L) a_L / A.  So with W = floor (1/A) the
 * skips are drawn with mean f W, and a start takes length L with
 * probability P(L) a_L W, or none (declined: 1 - A W < A of them); it
 * stands for W starts at the interval, W - 1 of them declined.  Each
 * length's samples are then kept with probability P(L) a_L / f per block,
 * as with every start drawn and every coin flipped, and no coin is left:
 * a sample carries its table's cut for the plan, and the table thins it
 * if its threshold rose since (hl_offer_passed).  The plan is recomputed
 * under osp_hot_lock after each batch, when a threshold may have risen,
 * and each thread takes a copy then; a copy goes into use when the
 * thread next draws a skip, so that a start is always weighed and given
 * its length by the plan its skip was drawn with.  A stale plan is still
 * right (thresholds only rise, so a_L was larger, and the table's thinning
 * makes up the difference), only less economical.  With the gain limit
 * (the `gain` option, hotlist.h) every table's threshold keeps rising as
 * the run goes on, however few its entries, so the starts of a long run
 * grow about with the logarithm of its length.
 *
 * Shared path checks (abi.h, ABI 8; pathsample.c) read __osp_skip too:
 * once a function with OSP_FN_PATH_SHARED is registered, skips are drawn
 * with the mean I = min (f W, the path policy's intervals)
 * (osp_pathsample_clock), the clock of the path ends, and a block where
 * a skip runs out starts a sample with probability I / (f W) (else the
 * next skip is drawn): so a block still starts one with probability
 * 1/(f W), and starts/blocks_seen estimates the same q.  That coin and
 * that next skip are drawn ahead, when the skip is armed (pre_thin): a
 * block that only draws the next skip then finds it in the cursor and
 * its trampoline arms it, without entering the runtime (by default
 * I = path_interval = interval / 2, so half the blocks where a skip runs
 * out).  A hold
 * (osp_sampler_hold, asked by the path side) keeps __osp_skip at 1 with
 * the skip counted down in software (soft; the hooks pass its blocks
 * through the cursor's held_left), and a hold that starts during a
 * sample makes the cursor arm 1 after it, the skip drawn to follow it
 * going into soft.  Without such a record nothing of this runs: the
 * draws are those of before, one for one.
 *
 * All of the above is policy=concise.  Counting samples (the default) and
 * Space-Saving must see every start - an entry's offers are counted, not
 * sampled - so their tables' cut is always UINT64_MAX: W stays 1, nothing
 * is declined, and the rate of samples never falls as the run goes on
 * (on bench/interp, concise's stretch reached x85 and its samples grew
 * 1.6 times from 4 s to 32 s while the blocks grew 9 times;
 * doc/ACCURACY.md).
 */
#define _GNU_SOURCE
#include "collect/collect.h"
#include "collect/sampler.h"
#include "format/grow.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

pthread_mutex_t osp_hot_lock = PTHREAD_MUTEX_INITIALIZER;

#define QMAX 64
#define QWORDS 4096

/* How skips are drawn and what a start takes (header comment). */
struct plan
{
  uint64_t gen;                 /* plan_now's generation it copies */
  uint64_t weight;              /* W */
  double log_keep;              /* log (1 - 1/(interval W)); 0 if that is 1 */
  uint64_t take[OSP_NEXP_MAX];  /* P(L) a_L W cumulated, by length; past
                                   the last: declined */
  uint64_t cut[OSP_NEXP_MAX];   /* 2^64 a_L: the table's cut it assumed */
};

struct osp_sampler
{
  uint64_t rng[4];
  uint32_t armed;      /* the countdown last armed in __osp_skip, by the
                          runtime or by the hook that ended a sample */
  uint32_t want, have; /* the sample being collected; want = 0: skipping */
  int fresh;           /* no hook handled yet on this state */
  uint64_t cut;        /* the admission cut it passed (hl_admit_cut) */
  uint32_t after;      /* the skip drawn to follow it */
  /* The shared path checks' clock (header comment): the mean I of the
     skip drawn last, and the log it was drawn with (clock_log, for
     clock_for's cache). */
  double clock, clock_for, clock_log;
  /* A hold (pathsample.c asks, osp_sampler_hold): __osp_skip stays 1 and
     the skip counts down here, in soft (blocks until the one that fires,
     as __osp_skip would be), while skipping. */
  int held;
  uint32_t soft;
  uint32_t held_armed; /* what set_soft left in the cursor's held_left */
  /* The skip after the armed one's block when that block's start is
     already thinned away (pre_thin; the cursor's again), and its clock. */
  uint32_t again;
  double again_clock;
  int decided; /* the armed skip's block starts a sample: coin flipped */
  struct plan plan;    /* the one the armed skip was drawn with */
  struct plan next;    /* the newest it has (plan's generation: none) */
  uint32_t qused, nq;  /* words and samples finished in the queue */
  uint32_t qlen[QMAX];
  uint64_t qcut[QMAX];
  uint32_t q[];        /* qcap words; the open sample follows qused */
};

/* Immutable after osp_sampler_init. */
static double plen[OSP_NEXP_MAX];     /* P(L) */
static uint32_t interval, most_weight; /* interval x W stays <= 2^30 */
static struct plan plan_base;         /* W = 1, every cut UINT64_MAX */

/* The plan in force (see the header comment); under osp_hot_lock. */
static struct plan plan_now;
static void fill_plan (struct plan *p, const uint64_t cut[]);
static unsigned e_min, nexp;

/* The strata: table s holds the lengths 2^(e_min+e) with
   e * nstrata / nexp == s.  Calls under osp_hot_lock. */
static struct hotlist *strata[OSP_NEXP_MAX];
static unsigned nstrata;

static unsigned
stratum_of (uint32_t len)
{
  unsigned e = 31u - (unsigned) __builtin_clz (len) - e_min;
  return e * nstrata / nexp;
}
static uint32_t max_len, qcap;

/* Merged counters of exited threads, under osp_threads_lock. */
static uint64_t totals[OSP_W_N];

uint32_t
osp_draw_skip (uint64_t rng[4])
{
  return osp_draw_geometric (rng, plan_base.log_keep);
}

/* The subpath interval of plan P: f W. */
static double
plan_interval (const struct plan *p)
{
  return (double) interval * (double) p->weight;
}

/* The next skip, by the newest plan the thread has: of mean f W, or, once
   shared path checks are registered, of the clock I (header comment). */
static uint32_t
draw_skip (struct osp_sampler *s)
{
  if (s->next.gen != s->plan.gen)
    s->plan = s->next;
  double f = plan_interval (&s->plan);
  if (!atomic_load_explicit (&osp_paths_shared, memory_order_relaxed))
    {
      s->clock = f;
      return osp_draw_geometric (s->rng, s->plan.log_keep);
    }
  double i = osp_pathsample_clock (f);
  if (i != s->clock_for)
    {
      s->clock_for = i;
      s->clock_log = i > 1 ? osp_ln1m (1 / i) : 0;
    }
  s->clock = i;
  return osp_draw_geometric (s->rng, s->clock_log);
}

/* What a start takes by plan P, for a uniform 64-bit R: the index of its
   length, or nexp if it is declined. */
static unsigned
take_length (const struct plan *p, uint64_t r)
{
  unsigned i = 0;
  while (i < nexp && r >= p->take[i] && p->take[i] != UINT64_MAX)
    i++;
  return i;
}

uint32_t
osp_draw_length (uint64_t rng[4])
{
  return (uint32_t) 1 << (e_min + take_length (&plan_base,
                                                osp_rng_next (rng)));
}

static uint64_t
random_seed (void)
{
  uint64_t s;
  if (getrandom (&s, sizeof s, GRND_NONBLOCK) == (ssize_t) sizeof s)
    return s;
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  uint64_t x = (uint64_t) ts.tv_nsec ^ ((uint64_t) ts.tv_sec << 30)
               ^ ((uint64_t) getpid () << 48);
  return osp_splitmix64 (&x);
}

/* ---- set-up ---------------------------------------------------------- */

static int
make_hotlist (const struct osp_options *o)
{
  nstrata = nexp;
  if (o->hotlist_bytes / HL_MIN_BYTES < nstrata)
    nstrata = (unsigned) (o->hotlist_bytes / HL_MIN_BYTES);
  for (unsigned i = 0; i < nstrata; i++)
    {
      /* The longest length of the stratum: e * nstrata / nexp == i. */
      unsigned e_last = ((i + 1) * nexp - 1) / nstrata;
      struct hl_config c = { .mem_bytes = (size_t) o->hotlist_bytes / nstrata,
                             .max_len = (uint32_t) 1 << (e_min + e_last),
                             .policy = o->policy,
                             .encoding = o->encoding,
                             .max_gain = o->gain,
                             .seed = osp_seed ^ 0x686f746c69737421u ^ i };
      strata[i] = hl_create (&c);
      if (strata[i] == NULL)
        return -1;
    }
  return 0;
}

int
osp_sampler_init (const struct osp_options *o)
{
  osp_seed = o->seed_set ? o->seed : random_seed ();
  interval = o->interval;
  most_weight = o->interval < (1u << 30) ? (1u << 30) / o->interval : 1;
  e_min = 31u - (unsigned) __builtin_clz (o->min_length);
  nexp = 31u - (unsigned) __builtin_clz (o->max_length) - e_min + 1;
  uint64_t cut[OSP_NEXP_MAX];
  for (unsigned i = 0; i < nexp; i++)
    {
      plen[i] = osp_length_prob (o, (uint32_t) 1 << (e_min + i));
      cut[i] = UINT64_MAX;
    }
  plan_base.gen = 0;
  fill_plan (&plan_base, cut);
  plan_base.take[nexp - 1] = UINT64_MAX; /* sum P(L) = 1, to rounding */
  plan_now = plan_base;
  max_len = o->max_length;
  qcap = max_len + QWORDS;
  if (o->mode != OSP_MODE_SUBPATHS)
    return 0;
  return make_hotlist (o);
}

/* ---- the walk -------------------------------------------------------- */

static struct osp_sampler *
make_sampler (struct osp_thread *t)
{
  struct osp_sampler *s
      = osp_arena_alloc (&t->arena, sizeof *s + qcap * sizeof (uint32_t));
  if (s == NULL)
    return NULL;
  osp_rng_seed (s->rng, osp_seed, t->index);
  s->plan = s->next = plan_base; /* until its first batch brings plan_now */
  s->armed = 1; /* __osp_skip starts at 1 in every thread (and child) */
  s->fresh = 1;
  t->sampler = s;
  return s;
}

/* Recompute plan_now if a table's threshold has moved (caller holds
   osp_hot_lock). */
static void
update_plan (void)
{
  uint64_t cut[OSP_NEXP_MAX];
  int same = 1;
  for (unsigned i = 0; i < nexp; i++)
    {
      cut[i] = hl_admit_cut (strata[stratum_of ((uint32_t) 1 << (e_min + i))]);
      same &= cut[i] == plan_now.cut[i];
    }
  if (same)
    return;
  fill_plan (&plan_now, cut);
  plan_now.gen++;
}

/* Plan P for the tables' cuts CUT (header comment), its generation
   aside. */
static void
fill_plan (struct plan *p, const uint64_t cut[])
{
  double a = 0;
  for (unsigned i = 0; i < nexp; i++)
    a += plen[i] * ((double) cut[i] * 0x1p-64);
  double w = a > 0 ? 1 / a : most_weight;
  p->weight = w >= most_weight ? most_weight : w >= 1 ? (uint64_t) w : 1;
  double f = (double) interval * (double) p->weight;
  p->log_keep = f > 1 ? osp_ln1m (1 / f) : 0;
  double cum = 0;
  for (unsigned i = 0; i < nexp; i++)
    {
      cum += plen[i] * ((double) cut[i] * 0x1p-64) * (double) p->weight;
      p->take[i] = cum >= 1.0 ? UINT64_MAX : (uint64_t) (cum * 0x1p64);
      p->cut[i] = cut[i];
    }
}

/* Hand the finished samples to the hot-list (caller holds osp_hot_lock),
   keeping an open sample's blocks at the front of the queue. */
static void
flush_locked (struct osp_sampler *s)
{
  uint32_t off = 0;
  for (uint32_t i = 0; i < s->nq; i++)
    {
      hl_offer_passed (strata[stratum_of (s->qlen[i])], s->q + off,
                       s->qlen[i], s->qcut[i]);
      off += s->qlen[i];
    }
  if (s->want && s->have)
    memmove (s->q, s->q + s->qused, s->have * sizeof *s->q);
  if (s->want)
    osp_sample_cursor.next = s->q + s->have; /* the open sample moved */
  s->qused = 0;
  s->nq = 0;
  update_plan ();
  if (plan_now.gen != s->next.gen)
    s->next = plan_now;
}

static void
flush (struct osp_sampler *s, int wait)
{
  if (s->nq == 0)
    return;
  if (wait)
    osp_lock (&osp_hot_lock);
  else if (osp_trylock (&osp_hot_lock) != 0)
    return;
  flush_locked (s);
  osp_unlock (&osp_hot_lock);
}

static inline void
arm (struct osp_sampler *s, uint32_t skip)
{
  s->armed = skip;
  __osp_skip = skip;
}

/* Under a hold with no sample open: SOFT blocks to the one that fires,
   all but that one passed by the hooks themselves (sampler.h,
   held_left). */
static inline void
set_soft (struct osp_sampler *s, uint32_t soft)
{
  s->soft = soft;
  s->held_armed = osp_sample_cursor.held_left = soft - 1;
}

/* Count the blocks the hooks passed that way since. */
static void
take_held (struct osp_thread *t, struct osp_sampler *s)
{
  uint32_t left = osp_sample_cursor.held_left;
  if (left < s->held_armed)
    {
      osp_walk_bump (t, OSP_W_BLOCKS_SEEN, s->held_armed - left);
      s->soft -= s->held_armed - left;
    }
  s->held_armed = left;
}

/* Skip SKIP blocks (the last of them fires): in __osp_skip, or in soft
   under a hold. */
static inline void
arm_skip (struct osp_sampler *s, uint32_t skip)
{
  if (s->held)
    {
      set_soft (s, skip);
      arm (s, 1);
    }
  else
    arm (s, skip);
}

/* Thin now the start of the block where the skip just armed (or, in a
   sample, the one to follow it) runs out, when shared path checks make
   the clock I faster than f W (header comment): with probability
   1 - I / (f W) that block only draws the next skip, so draw it here and
   leave it in the cursor, whose trampoline arms it at that block without
   entering the runtime (half the entries of the default on Lua, where
   I = path_interval is half the interval).  The coin and the skip are
   those the block would draw, with the plan and clock of the skip they
   follow; the running skip keeps its clock (osp_sampler_drawn). */
/* The coin of a block where a skip runs out under the clock I faster
   than f W (header comment): whether it only draws the next skip
   (probability 1 - I / (f W)). */
static int
thinned (struct osp_sampler *s)
{
  double f = plan_interval (&s->plan);
  return s->clock < f
         && (double) osp_rng_next (s->rng) >= s->clock / f * 0x1p64;
}

static void
pre_thin (struct osp_sampler *s)
{
  s->decided = 0;
  if (s->held || !(s->clock < plan_interval (&s->plan)))
    return;
  if (!thinned (s))
    {
      s->decided = 1; /* hit flips no coin for it */
      return;
    }
  double clock = s->clock;
  uint32_t k = draw_skip (s);
  s->again_clock = s->clock;
  s->clock = clock;
  s->again = osp_sample_cursor.again = k;
}

/* Arm SKIP, and thin the start at its end now if it is to be thinned. */
static void
arm_next (struct osp_sampler *s, uint32_t skip)
{
  arm_skip (s, skip);
  pre_thin (s);
}

/* If the trampoline armed the pre-thinned skip, the skip that ran out
   before it is counted and it is the armed one. */
static void
take_again (struct osp_thread *t, struct osp_sampler *s)
{
  if (s->again != 0 && osp_sample_cursor.again == 0)
    {
      osp_walk_bump (t, OSP_W_BLOCKS_SEEN, s->armed);
      s->armed = s->again;
      s->clock = s->again_clock;
      s->again = 0;
      s->decided = 0;
    }
}

/* Forget a pre-thinned skip not armed yet: the countdown is about to be
   armed otherwise (a hold, a thread's exit); its block then draws as if
   it had never been thinned, the same law. */
static void
drop_again (struct osp_sampler *s)
{
  if (s->again != 0)
    s->decided = 0;
  s->again = osp_sample_cursor.again = 0;
}

/* ---- the open sample's cursor (sampler.h) ----------------------------- */

OSP_TLS struct osp_sample_cursor osp_sample_cursor;

_Static_assert (offsetof (struct osp_sample_cursor, next) == OSP_CURSOR_NEXT
                && offsetof (struct osp_sample_cursor, left)
                       == OSP_CURSOR_LEFT
                && offsetof (struct osp_sample_cursor, skip)
                       == OSP_CURSOR_SKIP
                && offsetof (struct osp_sample_cursor, fns) == OSP_CURSOR_FNS
                && offsetof (struct osp_sample_cursor, seen_left)
                       == OSP_CURSOR_SEEN
                && offsetof (struct osp_sample_cursor, held_left)
                       == OSP_CURSOR_HELD
                && offsetof (struct osp_sample_cursor, seen_any)
                       == OSP_CURSOR_SEEN_ANY
                && offsetof (struct osp_sample_cursor, again)
                       == OSP_CURSOR_AGAIN
                && sizeof (struct osp_cursor_fn) == 1 << OSP_CURSOR_FN_SHIFT
                && offsetof (struct osp_cursor_fn, rec) == OSP_CURSOR_FN_REC
                && offsetof (struct osp_cursor_fn, id) == OSP_CURSOR_FN_ID
                && offsetof (struct osp_cursor_fn, base)
                       == OSP_CURSOR_FN_BASE
                && offsetof (struct osp_cursor_fn, nblocks)
                       == OSP_CURSOR_FN_NBLOCKS
                && offsetof (struct osp_fn_record, id) == OSP_RECORD_ID
                && sizeof (struct osp_fn_record) == 1 << OSP_RECORD_SHIFT,
                "trampoline.S's offsets of the cursor");

/* Queue the open sample, complete, and note that the skip drawn to follow
   it is armed (by the caller, or already by the hook that appended its
   last block). */
static void
finish_sample (struct osp_thread *t, struct osp_sampler *s)
{
  osp_sample_cursor.left = 0;
  s->qcut[s->nq] = s->cut;
  s->qlen[s->nq++] = s->want;
  s->qused += s->want;
  s->want = 0;
  if (s->held) /* the cursor armed 1 (open_cursor, osp_sampler_hold) */
    {
      s->armed = 1;
      set_soft (s, s->after);
    }
  else
    s->armed = s->after;
  osp_walk_bump (t, OSP_W_SAMPLES, 1);
  if (s->nq == QMAX || qcap - s->qused < max_len)
    flush (s, 1);
  else if (s->nq >= QMAX / 4)
    flush (s, 0);
}

/* Count in the blocks the hooks appended through the cursor since the
   sampler last ran: each consumed a countdown of 1, as a hook in the
   runtime would have, and the one that appended a sample's last block
   armed its skip.  While a sample is open the cursor's next is always
   where the sample's next block goes (set by open_cursor, moved by the
   appends and by flush_locked). */
static void
take_appended (struct osp_thread *t, struct osp_sampler *s)
{
  if (s->want == 0)
    return;
  uint32_t n = (uint32_t) (osp_sample_cursor.next
                           - (s->q + s->qused + s->have));
  if (n == 0)
    return;
  s->have += n;
  osp_walk_bump (t, OSP_W_BLOCKS_SEEN, n);
  osp_walk_bump (t, OSP_W_BLOCKS_SAMPLED, n);
  if (s->have == s->want)
    finish_sample (t, s);
}

/* Let the hooks append the rest of the open sample's blocks, those of FN
   among them, and arm its skip after the last. */
static void
open_cursor (const struct osp_sampler *s, const struct osp_fn *fn)
{
  struct osp_cursor_fn *f = osp_cursor_fn (fn->rec);
  f->rec = fn->rec;
  f->id = fn->id;
  f->base = fn->block_base;
  f->nblocks = fn->nblocks;
  osp_sample_cursor.next = (uint32_t *) s->q + s->qused + s->have;
  osp_sample_cursor.skip = s->held ? 1 : s->after;
  osp_sample_cursor.left = s->want - s->have;
}

static void hit (struct osp_thread *t, struct osp_sampler *s,
                 const struct osp_fn *fn, uint32_t block);

/* What the trampolines did since the last hit (the cursor's appends, the
   hold's blocks), and the blocks of the skip that ran out, counted. */
static void
take_skip (struct osp_thread *t, struct osp_sampler *s)
{
  take_appended (t, s);
  take_held (t, s);
  osp_walk_bump (t, OSP_W_BLOCKS_SEEN, s->armed);
}

void
osp_sampler_hit (struct osp_thread *t, const struct osp_fn *fn,
                 uint32_t block)
{
  struct osp_sampler *s = t->sampler ? t->sampler : make_sampler (t);
  if (s == NULL)
    {
      atomic_fetch_add_explicit (&osp_stats.hits_lost, 1,
                                 memory_order_relaxed);
      return;
    }
  take_appended (t, s);
  take_again (t, s);
  if (s->again != 0 && s->want == 0)
    {
      /* The pre-thinned block, come here rather than through the
         trampoline (a batched loop's, a C entry): it passes the same way.
         (In a sample, a hook comes here to append: the block after the
         sample's skip is still to come.) */
      osp_sample_cursor.again = 0;
      take_again (t, s);
      arm (s, s->armed);
    }
  else
    {
      take_skip (t, s);
      hit (t, s, fn, block);
    }
  /* Shared path checks: a hold the path side wants now (a burst, a
     tick) starts, or one it no longer wants ends, here. */
  if (atomic_load_explicit (&osp_paths_shared, memory_order_relaxed))
    osp_sampler_hold (t, osp_pathsample_holds (t));
}

void
osp_sampler_unregistered (struct osp_thread *t)
{
  struct osp_sampler *s = t->sampler;
  if (s == NULL || s->want != 0 || s->held || s->fresh)
    return;
  take_appended (t, s);
  take_again (t, s);
  drop_again (s);
  take_skip (t, s);
  arm_next (s, draw_skip (s));
}

/* The hit of BLOCK of FN on S, its blocks counted. */
static void
hit (struct osp_thread *t, struct osp_sampler *s, const struct osp_fn *fn,
     uint32_t block)
{
  if (s->fresh)
    {
      /* The thread's first block: it starts a sample with probability
         1/f like any other; if not, the skip's remaining blocks follow. */
      s->fresh = 0;
      uint32_t k = draw_skip (s);
      if (k > 1)
        {
          arm_next (s, k - 1);
          return;
        }
    }
  else if (s->want == 0 && s->held && s->soft > 1)
    {
      set_soft (s, s->soft - 1); /* a block of the skip held in software */
      arm (s, 1);
      return;
    }
  if (s->want == 0)
    {
      osp_sample_cursor.held_left = s->held_armed = 0; /* this one fires */
      /* The clock ran out: with shared path checks it may run faster
         than f W, and the start is thinned to keep 1 in f W per block
         (clock / f W of them). */
      if (!s->decided && thinned (s))
        {
          arm_next (s, draw_skip (s));
          return;
        }
      s->decided = 0;
      /* The hot-list's admission coin is flipped now rather than when
         the sample is offered, so that a sample it would turn away is
         not collected at all (see the header comment). */
      /* The start stands for W at the interval; it takes a length by
         the plan its skip was drawn with, or is declined. */
      const struct plan *p = &s->plan;
      unsigned i = take_length (p, osp_rng_next (s->rng));
      osp_walk_bump (t, OSP_W_STARTS, p->weight);
      osp_walk_bump (t, OSP_W_DRAWN, 1);
      if (i == nexp)
        {
          osp_walk_bump (t, OSP_W_DECLINED, p->weight);
          arm_next (s, draw_skip (s));
          return;
        }
      osp_walk_bump (t, OSP_W_DECLINED, p->weight - 1);
      s->want = (uint32_t) 1 << (e_min + i);
      s->have = 0;
      s->cut = p->cut[i];
      s->after = draw_skip (s);
    }
  s->q[s->qused + s->have++] = fn->block_base + block;
  osp_walk_bump (t, OSP_W_BLOCKS_SAMPLED, 1);
  if (s->have < s->want)
    {
      arm (s, 1);
      open_cursor (s, fn);
      if (s->have == 1) /* the sample's start: the block after it */
        pre_thin (s);
      return;
    }
  finish_sample (t, s);
  arm_skip (s, s->after); /* its start thinned, if so, when it began */
}

void
osp_sampler_sync (struct osp_thread *t)
{
  struct osp_sampler *s = t->sampler;
  if (s == NULL)
    return;
  take_appended (t, s);
  take_held (t, s);
  take_again (t, s);
  uint32_t left = __osp_skip;
  if (!s->fresh && s->want == 0 && left <= s->armed)
    {
      osp_walk_bump (t, OSP_W_BLOCKS_SEEN, s->armed - left);
      s->armed = left;
    }
  flush (s, 1);
  /* The next block comes through the runtime, which reopens the cursor:
     at thread exit, T's memory is about to go. */
  osp_sample_cursor.left = 0;
  osp_sample_cursor.held_left = s->held_armed = 0;
  drop_again (s);
}

double
osp_sampler_drawn (struct osp_thread *t)
{
  struct osp_sampler *s = t->sampler;
  if (s == NULL || s->fresh || s->held)
    return 0;
  take_appended (t, s);
  take_again (t, s);
  return s->want == 0 ? s->clock : 0;
}

void
osp_sampler_hold (struct osp_thread *t, int on)
{
  struct osp_sampler *s = t->sampler;
  if (s == NULL || s->held == !!on)
    return; /* no skip drawn yet: __osp_skip is 1 */
  take_appended (t, s);
  take_held (t, s);
  take_again (t, s);
  drop_again (s); /* on: every block fires; off: none was pending */
  s->held = !!on;
  if (s->want != 0)
    {
      /* In a sample: the skip that follows it waits in s->after; the
         cursor's hook arms it, or 1 under the hold. */
      if (osp_sample_cursor.left != 0)
        osp_sample_cursor.skip = on ? 1 : s->after;
      return;
    }
  if (s->fresh)
    return; /* its first hook draws the skip (hit) */
  if (on)
    {
      /* The skip's blocks that passed are counted; the rest go into
         soft.  (From a hook, none passed; from a shared path end,
         __osp_skip is 1.) */
      uint32_t left = __osp_skip;
      if (left == 0 || left > s->armed)
        left = s->armed; /* not ours (a signal handler's hook): as armed */
      osp_walk_bump (t, OSP_W_BLOCKS_SEEN, s->armed - left);
      set_soft (s, left);
      arm (s, 1);
    }
  else
    {
      arm (s, s->soft); /* held: __osp_skip is 1, soft is what is left */
      osp_sample_cursor.held_left = s->held_armed = 0;
    }
}

void
osp_sampler_state (uint32_t *want, uint32_t *have)
{
  struct osp_thread *t = osp_thread_peek ();
  struct osp_sampler *s = t ? t->sampler : NULL;
  if (s != NULL)
    take_appended (t, s);
  *want = s ? s->want : 0;
  *have = s ? s->have : 0;
}

void
osp_sampler_recover (struct osp_thread *t)
{
  osp_sample_cursor.left = 0;
  osp_sample_cursor.held_left = 0;
  struct osp_sampler *s = t->sampler;
  if (s == NULL)
    return;
  /* The frame may have stopped anywhere in the hook or in an append:
     keep nothing that a half-done step could have left inconsistent.
     The next plan was only ever written whole (under osp_hot_lock, so
     with signals blocked); the plan in use may be half copied. */
  s->want = s->have = 0;
  s->nq = s->qused = 0;
  s->plan = s->next;
  s->armed = 1; /* what the hook that recovers re-armed */
  s->held = 0;  /* the next hook asks again (osp_sampler_hit) */
  s->held_armed = 0;
  drop_again (s);
  s->decided = 0;
}

/* ---- totals ---------------------------------------------------------- */

void
osp_walk_merge (struct osp_thread *t)
{
  for (int c = 0; c < OSP_W_N; c++)
    totals[c] += atomic_load_explicit (&t->walk[c], memory_order_relaxed);
}

void
osp_walk_totals (uint64_t out[OSP_W_N])
{
  osp_lock (&osp_threads_lock);
  for (int c = 0; c < OSP_W_N; c++)
    out[c] = totals[c];
  for (struct osp_thread *t = osp_threads; t; t = t->next)
    for (int c = 0; c < OSP_W_N; c++)
      out[c] += atomic_load_explicit (&t->walk[c], memory_order_relaxed);
  osp_unlock (&osp_threads_lock);
}

void
osp_sampler_reset (void)
{
  memset (totals, 0, sizeof totals);
  /* The cursor's allowances were the parent thread's sampler's: the
     child's new one would not count what the hooks passed through them. */
  osp_sample_cursor.left = 0;
  osp_sample_cursor.held_left = 0;
  osp_sample_cursor.again = 0;
  uint64_t gen = plan_now.gen;
  plan_now = plan_base;
  plan_now.gen = gen + 1;
  /* The child samples other positions than its parent and siblings. */
  uint64_t x = osp_seed ^ ((uint64_t) getpid () << 32);
  osp_seed = osp_splitmix64 (&x);
  for (unsigned i = 0; i < nstrata; i++)
    hl_reset (strata[i]);
}

/* ---- the report's view ----------------------------------------------- */

struct collect
{
  double threshold; /* of the table being copied */
  struct osp_subpath *subs;
  uint32_t *words;
  size_t n, cap, nwords, wcap;
  int failed;
};

/* The report's hot-list figures: sums over the tables, the largest
   threshold. */
static void
add_stats (struct hl_stats *sum, const struct hl_stats *t)
{
  sum->offered += t->offered;
  sum->admitted += t->admitted;
  sum->entries += t->entries;
  sum->sample_size += t->sample_size;
  if (t->threshold > sum->threshold)
    sum->threshold = t->threshold;
  sum->resamples += t->resamples;
  sum->evictions += t->evictions;
  sum->too_long += t->too_long;
  sum->mem_used += t->mem_used;
  sum->mem_peak += t->mem_peak;
  sum->mem_bytes += t->mem_bytes;
}

static void
copy_item (const struct hl_item *it, void *arg)
{
  struct collect *c = arg;
  if (c->failed)
    return;
  if (osp_grow (&c->subs, &c->cap, c->n + 1, sizeof *c->subs, 256) != 0
      || osp_grow (&c->words, &c->wcap, c->nwords + it->len,
                   sizeof *c->words, 1024)
             != 0)
    {
      c->failed = 1;
      return;
    }
  memcpy (c->words + c->nwords, it->blocks, it->len * sizeof *c->words);
  /* blocks holds the offset until the copying is over (realloc moves). */
  c->subs[c->n++] = (struct osp_subpath) {
    .len = it->len, .blocks = (const uint32_t *) (uintptr_t) c->nwords,
    .count = it->count, .error = it->error, .threshold = c->threshold
  };
  c->nwords += it->len;
}

int
osp_sampler_collect (struct osp_subpaths_part *p, const struct osp_options *o)
{
  struct collect c = { 0 };
  osp_walk_totals (p->walk);
  if (nstrata == 0)
    return -1;
  memset (&p->hl, 0, sizeof p->hl);
  osp_lock (&osp_hot_lock);
  for (unsigned i = 0; i < nstrata; i++)
    {
      struct hl_stats st;
      hl_get_stats (strata[i], &st);
      add_stats (&p->hl, &st);
      p->strata[i] = (struct osp_stratum) {
        .min_len = (uint32_t) 1 << (e_min + (i * nexp + nstrata - 1) / nstrata),
        .max_len = (uint32_t) 1 << (e_min + ((i + 1) * nexp - 1) / nstrata),
        .threshold = st.threshold, .entries = st.entries
      };
      c.threshold = st.threshold;
      hl_foreach (strata[i], copy_item, &c);
    }
  p->nstrata = nstrata;
  p->stretch = (uint32_t) plan_now.weight;
  osp_unlock (&osp_hot_lock);
  if (c.failed)
    {
      free (c.subs);
      free (c.words);
      return -1;
    }
  enum osp_est_kind kind = o->policy == HL_SPACE_SAVING
                               ? OSP_EST_SPACE_SAVING
                           : o->policy == HL_COUNTING ? OSP_EST_COUNTING
                                                       : OSP_EST_CONCISE;
  for (size_t i = 0; i < c.n; i++)
    {
      c.subs[i].blocks = c.words + (uintptr_t) c.subs[i].blocks;
      osp_estimate (&c.subs[i], o, c.subs[i].threshold,
                    p->walk[OSP_W_BLOCKS_SEEN], p->walk[OSP_W_STARTS], kind);
    }
  if (c.n > 1)
    qsort (c.subs, c.n, sizeof *c.subs, osp_subpath_cmp);
  osp_subpaths_settle (c.subs, c.n, p->walk[OSP_W_BLOCKS_SEEN]);
  p->subs = c.subs;
  p->nsubs = (uint32_t) c.n;
  p->sub_words = c.words;
  return 0;
}

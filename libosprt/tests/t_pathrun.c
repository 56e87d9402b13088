/* SPDX-License-Identifier: MIT */
/* t_pathrun.c - Ball-Larus path sampling through the shared library and
 * the tsv exit report only (black-box, like t_threads):
 *   threads    paths=exhaustive, 4 threads and the main thread run known
 *              path ends on two functions while a signal handler running
 *              path ends interrupts them, and a thread still alive at exit
 *              holds unflushed samples: exact per-path counts, the edge
 *              rows, path_ends_seen (nested path ends are lost, never
 *              miscounted);
 *   verify     verify_paths=1: the summary line at exit;
 *   counter    paths=counter, path_interval=50, path_gain=0 (a fixed
 *              interval): path_ends_seen exact, the sample count and every
 *              estimate within their intervals;
 *   gain       the same with path_gain=20, seeds 1..30: the interval
 *              doubles several times and the report says so, each
 *              estimate is its samples x the final interval, the table
 *              keeps about 20 samples a path, the edges agree with the
 *              paths, the estimates are unbiased and their intervals
 *              cover the truth;
 *   timer      paths=timer PEP(64,17) every 10 ms: a thread spinning on
 *              path ends for >= 250 ms (and 5 bursts) is sampled in
 *              bursts of 64 consecutive path ends, about one per tick;
 *   shared     shared path checks (ABI 8) of a loop, through the x86-64
 *              preserving trampolines as the plugin calls them (their
 *              fast paths: appends, a hold's blocks, seen path ends in a
 *              sample) and through the C entry points: the same report,
 *              seed for seed, with a forest burst's holds and paths=
 *              counter (skipped where the library has no trampolines);
 *   timerfork  a forked child restarts the timer: its own report has
 *              samples (not under ThreadSanitizer, which cannot start a
 *              thread in the child of a threaded process, nor under
 *              AddressSanitizer, whose leak check hangs in such a child). */
#include "testutil.h"

#include "pathgraphs.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>

#define NTHREADS 4

static struct tg g_dia, g_loop, g_one, g_big;
static struct osp_fn_record recs[3] __attribute__ ((aligned (8)));
static struct osp_fn_record rec_big __attribute__ ((aligned (8)));
static long iters = 200000;
static atomic_long handled;
static atomic_int signals_sent;

static void
setup (void)
{
  tg_diamonds (&g_dia, 3);
  tg_build (&g_dia, &recs[0], "dia", "d.c");
  tg_loop (&g_loop);
  tg_build (&g_loop, &recs[1], "loopy", "l.c");
  tg_init (&g_one, 1);
  tg_edge (&g_one, 0, OSP_BLOCK_EXIT, 0);
  tg_build (&g_one, &recs[2], "handler", "h.c");
  __osp_register_module (OSP_ABI_VERSION, recs, recs + 3);
}

/* ---- the workloads (run with OSP_OPTIONS) ---------------------------- */

static void
on_signal (int sig)
{
  (void) sig;
  osp_test_path_end (&recs[2], 0);
  atomic_fetch_add (&handled, 1);
}

static void *
worker (void *arg)
{
  long k = (long) (intptr_t) arg;
  for (long i = 0; i < iters; i++)
    {
      osp_test_path_end (&recs[0], (uint64_t) ((i * 5 + k) % 8));
      osp_test_path_end (&recs[1], (uint64_t) ((i + k) % 4));
    }
  /* Alive until every signal is sent (as in t_threads): a signal sent to
     a thread that has exited is not delivered. */
  while (!atomic_load (&signals_sent))
    sched_yield ();
  return NULL;
}

/* Ends 10 paths (too few for its batch to be flushed) and stays alive,
   idle, while the program exits: the report must count them. */
static atomic_int lingering_done;

static void *
lingering (void *arg)
{
  (void) arg;
  for (int i = 0; i < 10; i++)
    osp_test_path_end (&recs[1], 0);
  atomic_store (&lingering_done, 1);
  for (;;)
    pause ();
  return NULL;
}

static int
scenario_threads (void)
{
  setup ();
  pthread_t idle;
  pthread_create (&idle, NULL, lingering, NULL);
  while (!atomic_load (&lingering_done))
    sched_yield ();
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction (SIGUSR1, &sa, NULL);
  pthread_t th[NTHREADS];
  for (long k = 0; k < NTHREADS; k++)
    pthread_create (&th[k], NULL, worker, (void *) (intptr_t) k);
  for (int s = 0; s < 200; s++)
    {
      pthread_kill (th[s % NTHREADS], SIGUSR1);
      struct timespec ts = { 0, 200000 };
      nanosleep (&ts, NULL);
    }
  atomic_store (&signals_sent, 1);
  for (int k = 0; k < NTHREADS; k++)
    pthread_join (th[k], NULL);
  for (int i = 0; i < 1000; i++)
    osp_test_path_end (&recs[0], 7);
  printf ("%ld\n", atomic_load (&handled));
  return 0;
}

static int
scenario_verify (void)
{
  setup ();
  __osp_register_module (OSP_ABI_VERSION, recs, recs + 3); /* once each */
  return 0;
}

static int
scenario_counter (void)
{
  setup ();
  /* Path i of the loop on (i + 1) of every 10 path ends. */
  static const uint64_t of[10] = { 0, 1, 1, 2, 2, 2, 3, 3, 3, 3 };
  for (long i = 0; i < 400000; i++)
    osp_test_path_end (&recs[1], of[i % 10]);
  return 0;
}

static double
now_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Path ends with consecutive ids, so a burst shows as a run of ids: for
   at least MS ms and until the runtime has been called WANT times (WANT /
   64 bursts' samples), or 30 s scaled have passed.  (The ticks are wall
   time; on a loaded machine, or under ThreadSanitizer, MS alone may hold
   too few bursts for test_timer's checks, which are about behaviour.) */
static void
spin (double ms, long want)
{
  tg_diamonds (&g_big, 20);
  tg_build (&g_big, &rec_big, "big", "b.c");
  __osp_register_module (OSP_ABI_VERSION, &rec_big, &rec_big + 1);
  double end = now_ms () + ms, cap = osp_test_deadline (30);
  long calls = 0;
  for (uint64_t i = 0;; i++)
    {
      /* osp_test_path_end, counting the calls into the runtime */
      uint32_t t = __atomic_load_n (&__osp_path_countdown, __ATOMIC_RELAXED);
      t = t - 1;
      __atomic_store_n (&__osp_path_countdown, t, __ATOMIC_RELAXED);
      if (t == 0)
        {
          calls++;
          __osp_path_end (&rec_big, i & ((1u << 20) - 1));
        }
      if ((i & 1023) == 0 && now_ms () > end
          && (calls >= want || osp_test_expired (cap)))
        break;
    }
}

static int
scenario_timer (void)
{
  spin (250, 5 * 64); /* test_timer wants 5 ticks */
  return 0;
}

static int
scenario_timerfork (void)
{
  fflush (NULL);
  pid_t pid = fork ();
  if (pid == 0)
    {
      spin (150, 64);
      exit (0); /* the child's exit report */
    }
  int status;
  waitpid (pid, &status, 0);
  printf ("%ld\n", (long) pid);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 1;
}

/* ---- reading the reports --------------------------------------------- */

/* Field F (0-based, as a number) of the first row of kind KIND ("path"
   or "edge") whose two key fields are KEY1 and KEY2: fid and path id for
   a path row (fields 2, 3), fid and source block for an edge row (fields
   1, 2: its first successor with a count).  -1 if there is none. */
static double
row_field (const char *report, const char *kind, long long key1,
           long long key2, int f)
{
  char pre[32];
  snprintf (pre, sizeof pre, "\n%s\t", kind);
  int a = strcmp (kind, "path") == 0 ? 2 : 1;
  for (const char *l = strstr (report, pre); l; l = strstr (l + 1, pre))
    {
      double v[12] = { 0 };
      const char *c = l + 1;
      for (int k = 0; k < 12 && c; k++)
        {
          v[k] = atof (c);
          c = strpbrk (c, "\t\n");
          c = c && *c == '\t' ? c + 1 : NULL;
        }
      if ((long long) v[a] == key1 && (long long) v[a + 1] == key2)
        return v[f];
    }
  return -1;
}

static void
test_threads (const char *dir)
{
  char path[4200], opts[4400], out[4300];
  snprintf (path, sizeof path, "%s/threads.tsv", dir);
  snprintf (out, sizeof out, "%s/threads.out", dir);
  snprintf (opts, sizeof opts,
            "mode=blocks:paths=exhaustive:report_format=tsv:report=%s", path);
  CHECK_EQ (osp_test_run ("threads", opts, out, NULL), 0);
  char *r = osp_test_slurp (path), *o = osp_test_slurp (out);
  CHECK (r && o);
  if (!r || !o)
    return;
  CHECK (strncmp (r, "# osp-report 1 mode=blocks paths=exhaustive\n", 44)
         == 0);
  long handled_n = atol (o);
  uint64_t dia[8] = { 0 }, loop[4] = { 0 }, total = 0;
  for (long k = 0; k < NTHREADS; k++)
    for (long i = 0; i < iters; i++)
      {
        dia[(i * 5 + k) % 8]++;
        loop[(i + k) % 4]++;
        total += 2;
      }
  dia[7] += 1000;
  loop[0] += 10; /* the idle thread's pending batch */
  total += 1010;
  for (int id = 0; id < 8; id++)
    CHECK_EQ (row_field (r, "path", 1, id, 6), dia[id]);
  for (int id = 0; id < 4; id++)
    CHECK_EQ (row_field (r, "path", 2, id, 6), loop[id]);
  double h = row_field (r, "path", 3, 0, 6);
  long long lost = osp_test_stat (r, "hits_lost");
  fprintf (stderr, "threads: %ld signals handled, %.0f sampled, %lld lost\n",
           handled_n, h, lost);
  /* A handler's path end is counted, or lost (it found the runtime busy),
     or, rarely, missed: if the signal lands between the interrupted path
     end's store of 0 and its test, the handler's decrement wraps the
     countdown and only the interrupted path end calls in. */
  CHECK (handled_n > 0);
  long long seen = (long long) (h < 0 ? 0 : h) + lost;
  CHECK (seen <= handled_n && seen >= handled_n * 9 / 10);
  CHECK_EQ (osp_test_stat (r, "path_ends_seen"),
            total + (uint64_t) (h < 0 ? 0 : h));
  CHECK_EQ (osp_test_stat (r, "path_samples"),
            osp_test_stat (r, "path_ends_seen"));
  CHECK_EQ (osp_test_stat (r, "paths_invalid"), 0);
  CHECK_EQ (osp_test_stat (r, "paths_dropped"), 0);
  CHECK_EQ (osp_test_stat (r, "threads"), NTHREADS + 2);
  /* Edge rows: loop block 1 -> 2 (succ 0) is taken by paths 1 and 2; the
     diamonds' first branch (block 0, succ 0) by paths 0-3. */
  CHECK_EQ (row_field (r, "edge", 2, 1, 6), loop[1] + loop[2]);
  CHECK_EQ (row_field (r, "edge", 1, 0, 6), dia[0] + dia[1] + dia[2] + dia[3]);
  free (r);
  free (o);
}

/* verify_paths=1: each function checked once, one summary line at exit. */
static void
test_verify (const char *dir)
{
  char err[4200];
  snprintf (err, sizeof err, "%s/verify.err", dir);
  CHECK_EQ (osp_test_run ("verify", "verify_paths=1:report=none", NULL, err),
            0);
  char *e = osp_test_slurp (err);
  CHECK_STR (e, "osp: verified path numbering: 3 functions, 13 paths "
                "enumerated, 0 ids round-tripped, 0 errors\n");
  free (e);
}

static void
test_counter (const char *dir)
{
  char path[4200], opts[4400];
  snprintf (path, sizeof path, "%s/counter.tsv", dir);
  snprintf (opts, sizeof opts,
            "mode=blocks:paths=counter:path_interval=50:path_gain=0:seed=1:"
            "report_format=tsv:report=%s", path);
  CHECK_EQ (osp_test_run ("counter", opts, NULL, NULL), 0);
  char *r = osp_test_slurp (path);
  CHECK (r != NULL);
  if (r == NULL)
    return;
  CHECK (strncmp (r, "# osp-report 1 mode=blocks paths=counter\n", 41) == 0);
  CHECK_EQ (osp_test_stat (r, "path_ends_seen"), 400000);
  long long s = osp_test_stat (r, "path_samples");
  fprintf (stderr, "counter: %lld samples of 400000 path ends at 1/50\n", s);
  CHECK (s > 8000 - 450 && s < 8000 + 450); /* 5 sd */
  static const double truth[4] = { 40000, 80000, 120000, 160000 };
  for (int id = 0; id < 4; id++)
    {
      double est = row_field (r, "path", 2, id, 4);
      double err = row_field (r, "path", 2, id, 5);
      double n = row_field (r, "path", 2, id, 6);
      fprintf (stderr, "  path %d: %.0f +/- %.0f (%.0f samples), truth %.0f\n",
               id, est, err, n, truth[id]);
      CHECK (est == n * 50);
      CHECK (est > truth[id] - 2 * err && est < truth[id] + 2 * err);
    }
  free (r);
}

/* The estimates of the edge rows of function FID leaving block B, summed. */
static double
edges_out (const char *report, int fid, int b)
{
  double sum = 0;
  for (const char *l = strstr (report, "\nedge\t"); l;
       l = strstr (l + 1, "\nedge\t"))
    {
      int f, blk, succ, dst;
      double est;
      if (sscanf (l + 1, "edge\t%d\t%d\t%d\t%d\t%lf", &f, &blk, &succ, &dst,
                  &est) == 5
          && f == fid && blk == b)
        sum += est;
    }
  return sum;
}

static void
test_gain (const char *dir)
{
  static const double truth[4] = { 40000, 80000, 120000, 160000 };
  double ratio = 0;
  int covered = 0, runs = 30;
  for (int seed = 1; seed <= runs; seed++)
    {
      char path[4200], opts[4400];
      snprintf (path, sizeof path, "%s/gain.tsv", dir);
      snprintf (opts, sizeof opts,
                "mode=blocks:paths=counter:path_interval=50:path_gain=20:"
                "seed=%d:report_format=tsv:report=%s", seed, path);
      CHECK_EQ (osp_test_run ("counter", opts, NULL, NULL), 0);
      char *r = osp_test_slurp (path);
      CHECK (r != NULL);
      if (r == NULL)
        return;
      long long raises = osp_test_stat (r, "path_raises");
      long long s = osp_test_stat (r, "path_samples");
      double now = (double) osp_test_stat (r, "path_interval_now");
      if (seed == 1)
        fprintf (stderr, "gain: %lld samples, interval 50 doubled %lld "
                 "times\n", s, raises);
      CHECK (raises >= 5 && raises <= 10);
      CHECK (now == 50.0 * (double) (1LL << raises));
      /* At most the limit (20 per distinct path: 5 with 0-1) and what
         the report drained from the last batch. */
      CHECK (s > 0 && s <= 20 * 5 + 64);
      double est_sum = 0;
      for (int id = 0; id < 4; id++)
        {
          double est = row_field (r, "path", 2, id, 4);
          double err = row_field (r, "path", 2, id, 5);
          double n = row_field (r, "path", 2, id, 6);
          if (n < 0) /* thinned to no sample: estimate 0, no row */
            est = err = 0;
          CHECK (n < 0 || est == n * now);
          covered += est - err <= truth[id] && truth[id] <= est + err;
          est_sum += est;
        }
      ratio += est_sum / 400000;
      /* The loop's paths 1-2-3 and 1-2-4 leave the header by 1 -> 2 and
         split at block 2: thinned edges still add up. */
      CHECK (edges_out (r, 2, 1) > 0);
      CHECK (edges_out (r, 2, 2) == row_field (r, "edge", 2, 1, 5));
      free (r);
    }
  ratio /= runs;
  fprintf (stderr, "gain: mean estimate / truth %.3f, %d of %d intervals "
           "cover the truth\n", ratio, covered, 4 * runs);
  /* Unbiased: the mean of 30 runs of ~80 samples is within 4 sd (2.4%). */
  CHECK (ratio > 0.9 && ratio < 1.1);
  CHECK (covered >= 4 * runs * 8 / 10);
}

static int
by_u64 (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return x < y ? -1 : x > y;
}

static void
test_timer (const char *dir)
{
  char path[4200], opts[4400];
  snprintf (path, sizeof path, "%s/timer.tsv", dir);
  snprintf (opts, sizeof opts,
            "mode=blocks:paths=timer:path_period=10:path_samples=64:"
            "path_stride=17:report_format=tsv:report=%s", path);
  CHECK_EQ (osp_test_run ("timer", opts, NULL, NULL), 0);
  char *r = osp_test_slurp (path);
  CHECK (r != NULL);
  if (r == NULL)
    return;
  CHECK (strncmp (r, "# osp-report 1 mode=blocks paths=timer\n", 39) == 0);
  CHECK (strstr (r, "\nstat\tpath_ends_seen\t") == NULL); /* not known */
  long long ticks = osp_test_stat (r, "path_ticks");
  long long s = osp_test_stat (r, "path_samples");
  /* Runs of consecutive ids: one per burst. */
  uint64_t *ids = malloc ((size_t) (s > 0 ? s : 1) * sizeof *ids);
  long long n = 0, counted = 0;
  for (const char *l = strstr (r, "\npath\t"); l && n < s;
       l = strstr (l + 1, "\npath\t"))
    {
      const char *c = l + 6;
      c = strchr (c, '\t') + 1; /* rank */
      c = strchr (c, '\t') + 1; /* fid */
      ids[n++] = strtoull (c, NULL, 10);
      for (int f = 0; f < 3; f++)  /* id, estimate, err95 */
        c = strchr (c, '\t') + 1;
      counted += strtoll (c, NULL, 10); /* samples */
    }
  qsort (ids, (size_t) n, sizeof *ids, by_u64);
  long long runs = 0, full = 0, len = 0;
  for (long long i = 0; i < n; i++)
    {
      len++;
      if (i + 1 == n || ids[i + 1] != ids[i] + 1)
        {
          runs++;
          full += len == 64;
          len = 0;
        }
    }
  fprintf (stderr, "timer: %lld ticks, %lld samples, %lld runs of "
           "consecutive path ends, %lld of 64\n", ticks, s, runs, full);
  /* Ids wrap at 2^20, so a fast run can sample one id in two bursts:
     the rows' samples, not the rows, add up to path_samples. */
  CHECK_EQ (counted, s);
  CHECK (n <= s);
  CHECK (ticks >= 5);
  CHECK (s >= 64 && s <= 64 * ticks);
  /* Each burst answers a tick; ticks that arrive while the worker waits
     for a CPU coalesce (a loaded machine gave 6 bursts for 25 ticks), so
     only "several bursts, none without a tick" holds everywhere.  A
     burst is cut short when its thread loses the CPU in the middle of it
     and the next tick re-strides it (seen at load 14: more cut bursts than
     whole ones), and at exit; so "some burst was whole" is what holds. */
  CHECK (runs <= ticks && runs >= 2);
  CHECK (full >= 1);
  free (ids);
  free (r);
}

static void
test_timerfork (const char *dir)
{
  char out[4200], opts[4400], path[4400];
  snprintf (out, sizeof out, "%s/fork.out", dir);
  snprintf (opts, sizeof opts,
            "mode=blocks:paths=timer:path_period=10:report_format=tsv:"
            "report=%s/fork.%%p.tsv", dir);
  CHECK_EQ (osp_test_run ("timerfork", opts, out, NULL), 0);
  char *o = osp_test_slurp (out);
  long child = o ? atol (o) : 0;
  free (o);
  snprintf (path, sizeof path, "%s/fork.%ld.tsv", dir, child);
  char *r = osp_test_slurp (path);
  CHECK (r != NULL);
  if (r == NULL)
    return;
  long long s = osp_test_stat (r, "path_samples");
  fprintf (stderr, "timerfork: the child took %lld samples in %lld ticks\n",
           s, osp_test_stat (r, "path_ticks"));
  CHECK (s >= 64);
  free (r);
  unlink (path);
}

/* ---- shared path checks through the trampolines ---------------------- */

/* Absent from a runtime built without trampoline.S (the sanitizer builds
   of tests/sanitizers.sh, other targets). */
extern void __osp_block_hook_preserving (void) __attribute__ ((weak));
extern void __osp_path_end_shared_preserving (void) __attribute__ ((weak));

static struct osp_fn_record r_shared __attribute__ ((aligned (8)));
static struct tg g_shared;

/* A call as the plugin emits it (abi.h): over the red zone, record in
   %rdi, argument in %rsi, the countdown back in %eax, every other
   register kept (the asm names none but the flags). */
static uint32_t
tramp (void (*fn) (void), struct osp_fn_record *rec, uint64_t arg)
{
  uint32_t r;
  __asm__ volatile ("add $-128, %%rsp\n\tcall *%[fn]\n\tsub $-128, %%rsp"
                    : "=a" (r)
                    : [fn] "b" (fn), "D" (rec), "S" (arg)
                    : "cc", "memory");
  return r;
}

static int use_tramp;

static void
shared_block (uint32_t b)
{
  uint32_t t = __osp_skip - 1;
  __osp_skip = t;
  if (t == 0)
    {
      if (use_tramp)
        __osp_skip = tramp (__osp_block_hook_preserving, &r_shared, b);
      else
        __osp_block_hook (&r_shared, b);
    }
}

static void
shared_check (uint64_t id)
{
  if (__osp_skip == 1)
    {
      if (use_tramp)
        __osp_skip = tramp (__osp_path_end_shared_preserving, &r_shared, id);
      else
        __osp_path_end_shared (&r_shared, id);
    }
}

static int
scenario_shared (int with_tramp)
{
  use_tramp = with_tramp;
  tg_loop (&g_shared);
  tg_build (&g_shared, &r_shared, "shared", "s.c");
  r_shared.flags |= OSP_FN_PATH_CHECKS | OSP_FN_PATH_SHARED;
  __osp_register_module (OSP_ABI_VERSION, &r_shared, &r_shared + 1);
  uint64_t x = 1;
  for (int a = 0; a < 3000; a++)
    {
      shared_block (0);
      shared_check (0);
      for (int i = 0; i < 200; i++)
        {
          x = x * 6364136223846793005u + 1442695040888963407u;
          int three = (int) (x >> 63);
          shared_block (1);
          shared_block (2);
          shared_block (three ? 3 : 4);
          shared_check (three ? 1 : 2);
        }
      shared_block (1);
      shared_block (5);
      shared_check (3);
    }
  return 0;
}

/* REPORT's stat and row lines but those that name the run (times, the
   program, options). */
static char *
rows_of (const char *report)
{
  char *out = malloc (strlen (report) + 1), *o = out;
  for (const char *l = report; *l;)
    {
      const char *nl = strchr (l, '\n');
      size_t len = nl ? (size_t) (nl - l) + 1 : strlen (l);
      if (l[0] != '#' && strstr (l, "time") == NULL
          && strstr (l, "_ns\t") == NULL && strstr (l, "seconds") == NULL
          && strncmp (l, "stat\tpid", 9) != 0
          && strstr (l, "report") == NULL && strstr (l, "option") == NULL
          && strstr (l, "program") == NULL && strstr (l, "rusage") == NULL)
        {
          memcpy (o, l, len);
          o += len;
        }
      l += len;
    }
  *o = '\0';
  return out;
}

static void shared_pair (const char *dir, int blocks);

static void
test_shared (const char *dir)
{
  if (__osp_block_hook_preserving == NULL
      || __osp_path_end_shared_preserving == NULL)
    {
      fprintf (stderr, "shared: no trampolines in this runtime, skipped\n");
      return;
    }
  for (int blocks = 0; blocks < 2; blocks++)
    shared_pair (dir, blocks);
}

/* The pair of runs, in mode=subpaths or mode=blocks (where every shared
   path end is seen). */
static void
shared_pair (const char *dir, int blocks)
{
  char path[2][4200], opts[4400];
  char *r[2];
  for (int k = 0; k < 2; k++)
    {
      snprintf (path[k], sizeof path[k], "%s/shared%d.tsv", dir, k);
      snprintf (opts, sizeof opts,
                "mode=%s:paths=counter:path_interval=20:path_gain=0:"
                "forest=burst:forest_interval=3000:forest_burst=64:seed=3:"
                "report_format=tsv:report=%s",
                blocks ? "blocks" : "subpaths", path[k]);
      CHECK_EQ (osp_test_run (k ? "shared-tramp" : "shared-c", opts, NULL,
                              NULL), 0);
      char *s = osp_test_slurp (path[k]);
      CHECK (s != NULL);
      r[k] = s ? rows_of (s) : NULL;
      free (s);
    }
  if (r[0] && r[1] && !blocks)
    {
      CHECK (osp_test_stat (r[0], "blocks_seen") == 3000 * 603);
      CHECK (osp_test_stat (r[0], "path_ends_estimated") > 0);
    }
  if (r[0] && r[1] && blocks)
    CHECK (osp_test_stat (r[0], "path_ends_seen") == 3000 * 202);
  if (r[0] && r[1])
    {
      CHECK (osp_test_stat (r[0], "forest_bursts") > 10);
      CHECK_STR (r[1], r[0]);
    }
  free (r[0]);
  free (r[1]);
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    {
      if (strcmp (argv[1], "shared-c") == 0)
        return scenario_shared (0);
      if (strcmp (argv[1], "shared-tramp") == 0)
        return scenario_shared (1);
      if (strcmp (argv[1], "threads") == 0)
        return scenario_threads ();
      if (strcmp (argv[1], "counter") == 0)
        return scenario_counter ();
      if (strcmp (argv[1], "verify") == 0)
        return scenario_verify ();
      if (strcmp (argv[1], "timer") == 0)
        return scenario_timer ();
      if (strcmp (argv[1], "timerfork") == 0)
        return scenario_timerfork ();
      return 2;
    }
  char *dir = osp_test_tmpdir ();
  test_threads (dir);
  test_verify (dir);
  test_counter (dir);
  test_gain (dir);
  test_timer (dir);
#if defined(__x86_64__) && !defined(__ILP32__)
  test_shared (dir);
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
  /* ThreadSanitizer cannot start threads in the child of a threaded
     process ("starting new threads after multi-threaded fork is not
     supported"), and the child's new timer thread is the point here;
     LeakSanitizer hangs at the exit of such a child (google/sanitizers
     #836, #1479; tests/sanitizers.sh turns it off for t_fork only). */
  fprintf (stderr, "timerfork: skipped under the sanitizers\n");
#else
  test_timerfork (dir);
#endif
  char cmd[4300];
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system (cmd) != 0)
    fprintf (stderr, "cannot remove %s\n", dir);
  free (dir);
  return osp_test_done ("t_pathrun");
}

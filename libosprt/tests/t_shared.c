/* SPDX-License-Identifier: MIT */
/* t_shared.c - shared path checks (ABI 8, one countdown): a function with
 * OSP_FN_PATH_SHARED whose path ends test __osp_skip == 1 and call
 * __osp_path_end_shared, driven as generated code would with the loop of
 * pathgraphs.h (paths 0 = entry, 1 = 1-2-3, 2 = 1-2-4, 3 = 1-5 exit):
 *   drawn      mode=subpaths, paths=counter: path samples at rate
 *              1/path_interval and path_ends_seen (now an estimate,
 *              path_ends_estimated > 0) within generous statistical
 *              bounds, blocks_seen exact, starts/blocks_seen still about
 *              1/interval (the clock runs faster, starts are thinned);
 *   exhaustive paths=exhaustive holds __osp_skip at 1: every path end
 *              seen, counts exact, nothing estimated, blocks_seen exact;
 *   blocks     mode=blocks: every shared path end seen, path_ends_seen
 *              exact;
 *   burst      forest=burst holds during a burst: a burst's items are
 *              consecutive path ends (strictly alternating paths 1 and 2
 *              never give an n-gram of a path after itself), blocks_seen
 *              exact;
 *   timer      paths=timer: ticks reach shared ends through the flag
 *              (the timer thread never writes __osp_skip), samples come,
 *              at most path_samples a tick, blocks_seen exact;
 *   chain      a batched loop with OSP_CHAIN_PATH (__osp_block_hooks)
 *              gives the very same report, seed for seed, as the same
 *              run with a hook per block and a shared check per back
 *              edge;
 *   records    OSP_FN_PATH_SHARED is refused without block hooks and
 *              checks; old records leave the sampler's clock alone.
 */
#include "testutil.h"

#include "osprt.h"
#include "pathgraphs.h"

/* What generated code does at a shared path end. */
static void
shared_end (struct osp_fn_record *r, uint64_t id)
{
  if (__atomic_load_n (&__osp_skip, __ATOMIC_RELAXED) == 1)
    __osp_path_end_shared (r, id);
}

static struct tg g_loop;
static struct osp_fn_record r_loop __attribute__ ((aligned (8)));

static struct osp_fn *
make_loop (void)
{
  tg_loop (&g_loop);
  tg_build (&g_loop, &r_loop, "loop", "loop.c");
  r_loop.flags |= OSP_FN_PATH_CHECKS | OSP_FN_PATH_SHARED;
  __osp_register_module (OSP_ABI_VERSION, &r_loop, &r_loop + 1);
  return osp_fn_of_record (&r_loop);
}

static uint64_t rng_state = 88172645463325252u;

static int
coin (void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (int) (rng_state >> 63);
}

/* One activation of the loop with ITERS iterations, iteration i taking
   block 3 (path 1) or 4 (path 2): alternating when ALT, else at random.
   Adds its path ends to ENDS[4]; returns its blocks. */
static uint64_t
activation (uint32_t iters, int alt, uint64_t ends[4])
{
  osp_test_block (&r_loop, 0);
  shared_end (&r_loop, 0);
  ends[0]++;
  for (uint32_t i = 0; i < iters; i++)
    {
      int three = alt ? (i % 2 == 0) : coin ();
      osp_test_block (&r_loop, 1);
      osp_test_block (&r_loop, 2);
      osp_test_block (&r_loop, three ? 3 : 4);
      shared_end (&r_loop, three ? 1 : 2);
      ends[three ? 1 : 2]++;
    }
  osp_test_block (&r_loop, 1);
  osp_test_block (&r_loop, 5);
  shared_end (&r_loop, 3);
  ends[3]++;
  return 3 + 3 * (uint64_t) iters;
}

static void
take (struct osp_profile *p)
{
  osp_thread_settle (osp_thread_peek ());
  CHECK_EQ (osp_profile_take (p), 0);
}

static uint64_t
sum4 (const uint64_t e[4])
{
  return e[0] + e[1] + e[2] + e[3];
}

/* |A - B| <= FRAC B */
static int
near (double a, double b, double frac)
{
  return a - b <= frac * b && b - a <= frac * b;
}

static int
scenario_drawn (void)
{
  CHECK (make_loop () != NULL);
  CHECK (atomic_load (&osp_paths_shared));
  uint64_t ends[4] = { 0 }, blocks = 0;
  for (int a = 0; a < 4000; a++)
    blocks += activation (100, 0, ends);
  struct osp_profile p;
  take (&p);
  uint64_t n = sum4 (ends);
  CHECK_EQ (p.subpaths.walk[OSP_W_BLOCKS_SEEN], blocks); /* exact */
  /* path_interval=50: each path end kept with probability 1/50
     (n/50 = 8080, sd 90: 5% is over 4 sd). */
  double want = (double) n / 50;
  CHECK (near ((double) p.paths.samples, want, 0.05));
  CHECK (p.paths.ends_estimated > 0);
  CHECK (near ((double) p.paths.ends_seen, (double) n, 0.03));
  for (uint32_t r = 0; r < p.paths.nrows; r++)
    {
      const struct osp_path_row *row = &p.paths.rows[r];
      if (row->id == 1 || row->id == 2)
        CHECK (near (row->estimate, (double) ends[row->id], 0.1));
    }
  /* q: starts per block stays 1/interval (thinned from the faster
     clock): blocks/2000 = 606, sd 25. */
  CHECK (near ((double) p.subpaths.walk[OSP_W_STARTS],
               (double) blocks / 2000, 0.2));
  fprintf (stderr, "drawn: %llu path ends, estimated %llu; %llu samples "
           "(want %.0f); %llu starts (want %.0f)\n",
           (unsigned long long) n, (unsigned long long) p.paths.ends_seen,
           (unsigned long long) p.paths.samples, want,
           (unsigned long long) p.subpaths.walk[OSP_W_STARTS],
           (double) blocks / 2000);
  osp_profile_free (&p);
  return osp_test_failures ? 1 : 0;
}

static int
scenario_exhaustive (void)
{
  CHECK (make_loop () != NULL);
  uint64_t ends[4] = { 0 }, blocks = 0;
  for (int a = 0; a < 500; a++)
    blocks += activation (37, 0, ends);
  struct osp_profile p;
  take (&p);
  CHECK_EQ (p.subpaths.walk[OSP_W_BLOCKS_SEEN], blocks);
  CHECK_EQ (p.paths.ends_seen, sum4 (ends));
  CHECK_EQ (p.paths.ends_estimated, 0);
  CHECK_EQ (p.paths.samples, sum4 (ends));
  CHECK_EQ (p.paths.nrows, 4);
  for (uint32_t r = 0; r < p.paths.nrows; r++)
    CHECK_EQ (p.paths.rows[r].samples, ends[p.paths.rows[r].id]);
  CHECK (p.subpaths.walk[OSP_W_SAMPLES] > 0); /* subpaths still sampled */
  osp_profile_free (&p);
  return osp_test_failures ? 1 : 0;
}

/* mode=blocks keeps __osp_skip at 1: every shared path end is seen and
   counted exactly (most without entering C: the cursor's allowance). */
static int
scenario_blocks (void)
{
  CHECK (make_loop () != NULL);
  uint64_t ends[4] = { 0 };
  for (int a = 0; a < 1000; a++)
    activation (100, 0, ends);
  struct osp_profile p;
  take (&p);
  uint64_t n = sum4 (ends);
  CHECK_EQ (p.paths.ends_seen, n);
  CHECK_EQ (p.paths.ends_estimated, 0);
  CHECK (near ((double) p.paths.samples, (double) n / 50, 0.1));
  osp_profile_free (&p);
  return osp_test_failures ? 1 : 0;
}

static int
scenario_burst (void)
{
  CHECK (make_loop () != NULL);
  uint64_t ends[4] = { 0 }, blocks = 0;
  for (int a = 0; a < 2000; a++)
    blocks += activation (100, 1, ends);
  struct osp_profile p;
  take (&p);
  CHECK_EQ (p.subpaths.walk[OSP_W_BLOCKS_SEEN], blocks);
  CHECK (p.forest.bursts > 20);
  /* Each burst counts its 16 items past the warm-up (8 here:
     pathforest.c); the last may be cut short. */
  CHECK (p.forest.sum.items >= (p.forest.bursts - 1) * 8
         && p.forest.sum.items <= p.forest.bursts * 8);
  uint32_t pairs = 0;
  for (uint32_t r = 0; r < p.forest.nrows; r++)
    {
      const struct osp_forest_row *row = &p.forest.rows[r];
      if (row->parent == UINT32_MAX)
        continue;
      pairs++;
      /* Consecutive path ends of the loop are never the same path. */
      CHECK (row->id != p.forest.rows[row->parent].id);
    }
  CHECK (pairs > 0);
  fprintf (stderr, "burst: %llu bursts, %llu items, %u rows\n",
           (unsigned long long) p.forest.bursts,
           (unsigned long long) p.forest.sum.items, p.forest.nrows);
  osp_profile_free (&p);
  return osp_test_failures ? 1 : 0;
}

static int
scenario_timer (void)
{
  CHECK (make_loop () != NULL);
  uint64_t ends[4] = { 0 }, blocks = 0;
  double end = osp_test_deadline (20);
  while (atomic_load (&osp_stats.path_ticks) < 5 && !osp_test_expired (end))
    for (int a = 0; a < 100; a++)
      blocks += activation (50, 0, ends);
  for (int a = 0; a < 100; a++) /* the last tick's burst */
    blocks += activation (50, 0, ends);
  struct osp_profile p;
  take (&p);
  CHECK_EQ (p.subpaths.walk[OSP_W_BLOCKS_SEEN], blocks);
  CHECK (p.paths.ticks >= 5);
  CHECK (p.paths.samples > 0);
  CHECK (p.paths.samples <= p.paths.ticks * 8);
  osp_profile_free (&p);
  return osp_test_failures ? 1 : 0;
}

/* The chain scenarios: the loop's iterations 1-2-3 (path 1, back edge
   3 -> 1) as a batched loop would hand them over, or one hook and check
   at a time. */
static const uint32_t chain[] = { 3 | OSP_CHAIN_PATH, 1, 2, 3, 1, 0 };

static void
chain_run (int batched)
{
  uint64_t ends[4] = { 0 };
  for (uint32_t a = 0; a < 3000; a++)
    {
      uint64_t n = a % 97; /* back edges taken */
      osp_test_block (&r_loop, 0);
      shared_end (&r_loop, 0);
      if (batched)
        {
          /* Left from b0 (block 1 -> 5): j = 0. */
          uint32_t c = __atomic_load_n (&__osp_skip, __ATOMIC_RELAXED);
          uint64_t events = n * 3 + 1;
          __atomic_store_n (&__osp_skip, c - (uint32_t) events,
                            __ATOMIC_RELAXED);
          if (events >= c)
            __osp_block_hooks (&r_loop, chain, n, c | (uint64_t) 1 << 32);
        }
      else
        {
          for (uint64_t i = 0; i < n; i++)
            {
              osp_test_block (&r_loop, 1);
              osp_test_block (&r_loop, 2);
              osp_test_block (&r_loop, 3);
              shared_end (&r_loop, 1);
            }
          osp_test_block (&r_loop, 1);
        }
      osp_test_block (&r_loop, 5);
      shared_end (&r_loop, 3);
    }
  (void) ends;
}

static int
scenario_chain (int batched)
{
  CHECK (make_loop () != NULL);
  chain_run (batched);
  return osp_test_failures ? 1 : 0;
}

/* The report's rows and counters (not its times, pid or file names). */
static char *
report_rows (const char *path)
{
  char *s = osp_test_slurp (path);
  if (s == NULL)
    return NULL;
  char *out = malloc (strlen (s) + 1), *o = out;
  for (char *l = s; *l;)
    {
      char *nl = strchr (l, '\n');
      size_t len = nl ? (size_t) (nl - l) + 1 : strlen (l);
      if (strncmp (l, "stat\t", 5) == 0 || strncmp (l, "path\t", 5) == 0
          || strncmp (l, "subpath\t", 8) == 0)
        {
          if (strstr (l, "_ns\t") == NULL && strstr (l, "seconds") == NULL
              && strstr (l, "\tpid\t") == NULL && strstr (l, "time") == NULL
              && strstr (l, "options") == NULL
              && strstr (l, "report") == NULL)
            {
              memcpy (o, l, len);
              o += len;
            }
        }
      l += len;
    }
  *o = '\0';
  free (s);
  return out;
}

static void
test_chain (void)
{
  char *dir = osp_test_tmpdir (), *a, *b, *oa, *ob;
  if (asprintf (&a, "%s/hooks.tsv", dir) < 0
      || asprintf (&b, "%s/batch.tsv", dir) < 0)
    abort ();
  const char *common = "mode=subpaths:paths=counter:path_interval=7:"
                       "path_gain=0:forest=burst:forest_interval=300:"
                       "forest_burst=16:seed=5:report_format=tsv";
  if (asprintf (&oa, "%s:report=%s", common, a) < 0
      || asprintf (&ob, "%s:report=%s", common, b) < 0)
    abort ();
  CHECK_EQ (osp_test_run ("chain-hooks", oa, NULL, NULL), 0);
  CHECK_EQ (osp_test_run ("chain-batch", ob, NULL, NULL), 0);
  char *ra = report_rows (a), *rb = report_rows (b);
  CHECK (ra != NULL && strstr (ra, "path_ends_estimated") != NULL);
  CHECK (ra != NULL && strstr (ra, "\npath\t") != NULL);
  CHECK_STR (rb, ra ? ra : "");
  free (ra);
  free (rb);
  unlink (a);
  unlink (b);
  rmdir (dir);
  free (a);
  free (b);
  free (oa);
  free (ob);
  free (dir);
}

/* In-process: the record checks and the clock's switch. */
static struct tg g_rec;
static struct osp_fn_record r_old, r_bad __attribute__ ((aligned (8)));

static void
test_records (void)
{
  CHECK (!atomic_load (&osp_paths_shared));
  tg_loop (&g_rec);
  tg_build (&g_rec, &r_old, "old", "old.c");
  r_old.flags |= OSP_FN_PATH_CHECKS;
  __osp_register_module (OSP_ABI_VERSION, &r_old, &r_old + 1);
  CHECK (osp_fn_of_record (&r_old) != NULL);
  CHECK (!atomic_load (&osp_paths_shared)); /* old records: no clock */
  tg_build (&g_rec, &r_bad, "bad", "bad.c");
  r_bad.flags |= OSP_FN_PATH_SHARED; /* without checks */
  CHECK (osp_record_check (&r_bad) != NULL);
  r_bad.flags |= OSP_FN_PATH_CHECKS;
  CHECK (osp_record_check (&r_bad) == NULL);
  r_bad.flags &= ~(uint32_t) OSP_FN_BLOCK_HOOKS;
  CHECK (osp_record_check (&r_bad) != NULL);
}

int
main (int argc, char **argv)
{
  osp_publish_exit (NULL); /* as t_paths: no profile taken meanwhile */
  if (argc > 1 && strcmp (argv[1], "drawn") == 0)
    return scenario_drawn ();
  if (argc > 1 && strcmp (argv[1], "exhaustive") == 0)
    return scenario_exhaustive ();
  if (argc > 1 && strcmp (argv[1], "burst") == 0)
    return scenario_burst ();
  if (argc > 1 && strcmp (argv[1], "blocks") == 0)
    return scenario_blocks ();
  if (argc > 1 && strcmp (argv[1], "timer") == 0)
    return scenario_timer ();
  if (argc > 1 && strcmp (argv[1], "chain-hooks") == 0)
    return scenario_chain (0);
  if (argc > 1 && strcmp (argv[1], "chain-batch") == 0)
    return scenario_chain (1);

  test_records ();
  CHECK_EQ (osp_test_run ("drawn", "mode=subpaths:paths=counter:"
                          "path_interval=50:path_gain=0:forest=off:seed=7:"
                          "report=none", NULL, NULL), 0);
  CHECK_EQ (osp_test_run ("exhaustive", "mode=subpaths:paths=exhaustive:"
                          "forest=off:seed=7:report=none", NULL, NULL), 0);
  CHECK_EQ (osp_test_run ("blocks", "mode=blocks:paths=counter:"
                          "path_interval=50:path_gain=0:forest=off:seed=7:"
                          "report=none", NULL, NULL), 0);
  CHECK_EQ (osp_test_run ("burst", "mode=subpaths:paths=counter:"
                          "path_interval=1000:forest=burst:forest_k=2:"
                          "forest_burst=16:forest_interval=2000:"
                          "forest_prune=0:seed=7:report=none", NULL, NULL),
            0);
  CHECK_EQ (osp_test_run ("timer", "mode=subpaths:paths=timer:"
                          "path_period=1:path_samples=8:path_stride=3:"
                          "seed=7:report=none", NULL, NULL), 0);
  test_chain ();
  return osp_test_done ("t_shared");
}

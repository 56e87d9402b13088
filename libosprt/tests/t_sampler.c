/* SPDX-License-Identifier: MIT */
/* t_sampler.c - mode=subpaths: the sampler's random draws (skip mean and
 * spread, no fixed stride, length distribution of each bias), the walk
 * driven through __osp_block_hook with hand-made records (exact counters,
 * starts not aliased with a loop's period), estimates against the known
 * exact counts of a synthetic stream (a loop of 4 blocks plus a rare
 * branch), reproducible reports with a fixed seed, and the options of the
 * subpath modes (good and bad values). */
#include "testutil.h"

#include "osprt.h"

#include <math.h>
#include <signal.h>

/* ---- draws ------------------------------------------------------------ */

static void
init_tables (uint32_t interval, uint32_t lo, uint32_t hi, enum osp_bias b)
{
  struct osp_options o;
  osp_options_defaults (&o);
  o.mode = OSP_MODE_OFF; /* tables only: no second hot-list */
  o.interval = interval;
  o.min_length = lo;
  o.max_length = hi;
  o.length_bias = b;
  o.seed_set = 1;
  o.seed = osp_seed;
  CHECK_EQ (osp_sampler_init (&o), 0);
}

/* The runtime's own ln and sqrt (no libm) against libm. */
static void
test_math (void)
{
  static const double xs[] = { 5e-324, 1e-310, 1e-300, 1e-17, 0x1p-53, 1e-9, 0.001, 0.3,
                               0.70710678, 0.7071067811865476, 1.4142135623730951,
                               0.9999999, 1, 1.5, 2, 1e6, 1e300, 1.7e308 };
  for (size_t i = 0; i < sizeof xs / sizeof *xs; i++)
    {
      CHECK (fabs (osp_ln (xs[i]) - log (xs[i])) <= 1e-13 * fabs (log (xs[i])) + 1e-15);
      CHECK (fabs (osp_sqrt (xs[i]) - sqrt (xs[i])) <= 1e-14 * sqrt (xs[i]));
    }
  static const double ps[] = { 1e-9, 1e-6, 0.001, 0.0099, 0.01, 0.5, 0.9 };
  for (size_t i = 0; i < sizeof ps / sizeof *ps; i++)
    CHECK (fabs (osp_ln1m (ps[i]) - log1p (-ps[i])) <= 1e-13 * fabs (log1p (-ps[i])));
}

static void
test_skips (void)
{
  uint64_t rng[4];
  osp_rng_seed (rng, 1234, 0);
  const uint32_t f = 1000;
  const int n = 200000;
  init_tables (f, 2, 1024, OSP_BIAS_GEOMETRIC);
  double sum = 0, sum2 = 0, prev = 0, cross = 0;
  int ones = 0, distinct = 0;
  static unsigned char seen[20000];
  memset (seen, 0, sizeof seen);
  for (int i = 0; i < n; i++)
    {
      double k = osp_draw_skip (rng);
      CHECK (k >= 1);
      sum += k;
      sum2 += k * k;
      if (i)
        cross += k * prev;
      prev = k;
      ones += k == 1;
      if (k < 20000 && !seen[(int) k])
        {
          seen[(int) k] = 1;
          distinct++;
        }
    }
  double mean = sum / n, var = sum2 / n - mean * mean;
  double corr = (cross / (n - 1) - mean * mean) / var;
  fprintf (stderr, "skips: mean %.1f sd %.1f lag-1 corr %.4f P(1) %.5f "
           "distinct %d\n", mean, sqrt (var), corr, (double) ones / n,
           distinct);
  CHECK (fabs (mean - f) < 0.015 * f);           /* sd of mean: 0.22% */
  CHECK (fabs (sqrt (var) - (f - 0.5)) < 0.03 * f); /* geometric spread */
  CHECK (fabs (corr) < 0.015);                   /* independent */
  CHECK (ones > 100 && ones < 300);              /* P(K=1) = 1/f */
  CHECK (distinct > 3000);                       /* not a fixed stride */

  init_tables (1, 2, 1024, OSP_BIAS_GEOMETRIC);
  for (int i = 0; i < 1000; i++)
    CHECK_EQ (osp_draw_skip (rng), 1);
}

static void
test_lengths (void)
{
  static const struct
  {
    enum osp_bias b;
    uint32_t lo, hi;
  } cases[] = {
    { OSP_BIAS_GEOMETRIC, 2, 1024 }, { OSP_BIAS_UNIFORM, 2, 1024 },
    { OSP_BIAS_LONG, 2, 1024 },      { OSP_BIAS_GEOMETRIC, 4, 64 },
    { OSP_BIAS_LONG, 8, 65536 },     { OSP_BIAS_UNIFORM, 16, 16 },
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
    {
      struct osp_options o;
      osp_options_defaults (&o);
      o.min_length = cases[c].lo;
      o.max_length = cases[c].hi;
      o.length_bias = cases[c].b;
      init_tables (1000, cases[c].lo, cases[c].hi, cases[c].b);
      uint64_t rng[4];
      osp_rng_seed (rng, 99, c);
      const int n = 200000;
      uint64_t hist[17] = { 0 };
      for (int i = 0; i < n; i++)
        {
          uint32_t len = osp_draw_length (rng);
          CHECK (len >= cases[c].lo && len <= cases[c].hi
                 && (len & (len - 1)) == 0);
          hist[__builtin_ctz (len)]++;
        }
      double chi2 = 0, psum = 0;
      int cells = 0;
      for (unsigned e = 1; e <= 16; e++)
        {
          double p = osp_length_prob (&o, 1u << e);
          psum += p;
          if (p == 0)
            {
              CHECK_EQ (hist[e], 0);
              continue;
            }
          double want = p * n;
          chi2 += (hist[e] - want) * (hist[e] - want) / want;
          cells++;
        }
      fprintf (stderr, "lengths case %zu: chi2 %.1f over %d cells\n", c,
               chi2, cells);
      CHECK (fabs (psum - 1) < 1e-9);
      CHECK (chi2 < 45); /* df <= 15: p < 1e-4 */
    }
  struct osp_options o;
  osp_options_defaults (&o);
  /* The paper's default: 2^n with probability proportional to 2^-n. */
  CHECK (fabs (osp_length_prob (&o, 2) / osp_length_prob (&o, 4) - 2) < 1e-9);
  o.length_bias = OSP_BIAS_LONG;
  CHECK (fabs (osp_length_prob (&o, 1024) / osp_length_prob (&o, 2) - 10)
         < 1e-9);
  CHECK (osp_length_prob (&o, 3) == 0 && osp_length_prob (&o, 2048) == 0);
}

/* A subpath sampled once with a tiny P(L) scales past the run's length:
   the estimate is cut to blocks_seen - L + 1, the error is not.  */
static void
test_estimate_bound (void)
{
  struct osp_options o;
  osp_options_defaults (&o);
  struct osp_subpath s = { 0 };
  s.len = 1024;
  s.count = 1;
  double pl = osp_length_prob (&o, 1024);
  osp_estimate (&s, &o, 1.0, 90000, 90, OSP_EST_CONCISE);
  CHECK (fabs (s.estimate - (90000 - 1024 + 1)) < 1e-9);
  CHECK (fabs (s.err95 - 1.96 / (0.001 * pl)) < 1e-3);
  CHECK (s.share <= 1.0);
  osp_estimate (&s, &o, 1.0, 90000, 90, OSP_EST_SPACE_SAVING);
  CHECK (fabs (s.estimate - (90000 - 1024 + 1)) < 1e-9);
  /* Under the bound: untouched.  */
  s.len = 2;
  s.count = 7;
  osp_estimate (&s, &o, 1.0, 90000, 90, OSP_EST_CONCISE);
  CHECK (fabs (s.estimate - 7 / (0.001 * osp_length_prob (&o, 2))) < 1e-6);
  /* A run shorter than the subpath.  */
  s.len = 1024;
  osp_estimate (&s, &o, 1.0, 1000, 1, OSP_EST_CONCISE);
  CHECK (s.estimate == 0 && s.share == 0);
}

/* shares.c: two single samples of length 512, each cut to the run, made
   a length class of 200%; a share is now within its class and a class
   adds up to at most 1.  estimate.c's sort puts the unranked (err95 > N)
   after the ranked, though the low end of the interval (0) and the
   estimate (9489 > 10) put them above the length-4 row before: the
   settle no longer moves them. */
static void
test_settle (void)
{
  static const uint32_t ids[512] = { 0 };
  struct osp_subpath s[5] = {
    { .len = 512, .blocks = ids, .estimate = 9489, .err95 = 50000 },
    { .len = 2, .blocks = ids, .estimate = 6000, .err95 = 100 },
    { .len = 512, .blocks = ids, .estimate = 9489, .err95 = 50000 },
    { .len = 2, .blocks = ids, .estimate = 3000, .err95 = 80 },
    { .len = 4, .blocks = ids, .estimate = 10, .err95 = 10 },
  };
  qsort (s, 5, sizeof *s, osp_subpath_cmp);
  for (int pass = 0; pass < 2; pass++)
    {
      CHECK (s[0].len == 2 && s[0].estimate == 6000);
      CHECK (s[1].len == 2 && s[1].estimate == 3000);
      CHECK (s[2].len == 4); /* err95 = N: ranked */
      CHECK (s[3].len == 512 && s[4].len == 512);
      if (pass == 0)
        osp_subpaths_settle (s, 5, 10000);
    }
  CHECK (osp_subpath_few (&s[3]) && !osp_subpath_few (&s[2]));
  CHECK (fabs (s[0].share - 0.6) < 1e-3); /* of 10000 - 2 + 1 */
  CHECK (fabs (s[3].share + s[4].share - 1.0) < 1e-12);
  CHECK (fabs (s[2].share - 10.0 / 9997) < 1e-12);

  /* Path rows by the same rule: one sample (100 +/- 196) after a row
     whose interval just reaches 0 (10 +/- 10), which the estimate put
     second before. */
  struct osp_path_row r[3] = {
    { .id = 1, .estimate = 100, .err95 = 196 },
    { .id = 2, .estimate = 10, .err95 = 10 },
    { .id = 3, .estimate = 50, .err95 = 0, .exact = 1 },
  };
  qsort (r, 3, sizeof *r, osp_path_row_cmp);
  CHECK (r[0].id == 3 && r[1].id == 2 && r[2].id == 1);
  CHECK (osp_few (r[2].estimate, r[2].err95) && !osp_few (10, 10));
}

/* ---- the walk through the hook ---------------------------------------- */

static struct osp_fn_record rec __attribute__ ((aligned (8)));
static uint32_t cfg[64];
static uint64_t trng = 0x1234567;

static uint32_t
trand (void)
{
  trng ^= trng << 13;
  trng ^= trng >> 7;
  trng ^= trng << 17;
  return (uint32_t) trng;
}

/* What generated code does; returns whether the hook fired. */
static int
blk (uint32_t b)
{
  uint32_t t = __osp_skip - 1;
  __osp_skip = t;
  if (t != 0)
    return 0;
  __osp_block_hook (&rec, b);
  return 1;
}

/* The synthetic program: a loop over blocks 0 1 2 3, and once in about
   50 iterations block 4 between 1 and 2.  Fills STREAM (if not NULL). */
static size_t
run_loop (size_t nblocks, uint32_t *stream, uint64_t *res, uint64_t *starts)
{
  size_t n = 0;
  uint32_t want, have, len = 0;
  uint64_t last_start = 0, gaps = 0, ngaps = 0;
  while (n < nblocks)
    {
      for (uint32_t b = 0; b < 4 && n < nblocks; b++)
        {
          uint32_t seq[2] = { b, 4 };
          int k = (b == 1 && trand () % 50 == 0) ? 2 : 1;
          for (int j = 0; j < k && n < nblocks; j++)
            {
              if (stream)
                stream[n] = seq[j];
              if (blk (seq[j]))
                {
                  osp_sampler_state (&want, &have);
                  if (want && have == 1)
                    {
                      if (res)
                        res[n % 4]++;
                      if (*starts)
                        {
                          gaps += n - last_start - len + 1;
                          ngaps++;
                        }
                      (*starts)++;
                      last_start = n;
                      len = want;
                    }
                }
              n++;
            }
        }
    }
  if (ngaps)
    fprintf (stderr, "walk: %llu starts, mean skip %.1f\n",
             (unsigned long long) *starts, (double) gaps / (double) ngaps);
  return n;
}

static uint64_t
exact_count (const uint32_t *stream, size_t n, const uint32_t *s,
             uint32_t len)
{
  uint64_t c = 0;
  for (size_t i = 0; i + len <= n; i++)
    if (stream[i] == s[0] && memcmp (stream + i, s, len * sizeof *s) == 0)
      c++;
  return c;
}

/* OSP_OPTIONS=interval=100:seed=42:report=none:policy=concise, and with
   GAINED gain=4, a limit that raises every table's threshold, so that the
   skips are stretched (x10 here, with a third of the starts drawn); with
   COUNTING policy=counting or spacesaving (the default), whose tables must
   see every start: nothing declined, skips never stretched. */
static int
scenario_estimate (int gained, int counting)
{
  osp_test_chain (&rec, cfg, "loop", "loop.c", 5, 10);
  __osp_register_module (OSP_ABI_VERSION, &rec, &rec + 1);
  const size_t n = 2000000;
  uint32_t *stream = malloc (n * sizeof *stream);
  uint64_t res[4] = { 0 }, starts = 0;
  run_loop (n, stream, res, &starts);

  /* Starts fall on every iteration point alike: no aliasing with the
     period 4 of the loop. */
  for (int r = 0; r < 4; r++)
    CHECK (fabs ((double) res[r] / (double) starts - 0.25) < 0.03);

  osp_sampler_sync (osp_thread_peek ());
  struct osp_profile p;
  CHECK_EQ (osp_profile_take (&p), 0);
  CHECK_EQ (p.subpaths.walk[OSP_W_BLOCKS_SEEN], n); /* exact */
  /* The loop sees the samples the hot-list's coin let through; those it
     turned away at their first block are counted apart, and each was
     started. */
  CHECK_EQ (p.subpaths.walk[OSP_W_STARTS],
            starts + p.subpaths.walk[OSP_W_DECLINED]);
  if (counting)
    CHECK_EQ (p.subpaths.walk[OSP_W_DECLINED], 0);
  else
    CHECK (p.subpaths.walk[OSP_W_DECLINED] > 0);
  CHECK (p.subpaths.walk[OSP_W_SAMPLES] + 1 >= starts
         && p.subpaths.walk[OSP_W_SAMPLES] <= starts);
  CHECK_EQ (p.subpaths.hl.offered, p.subpaths.walk[OSP_W_SAMPLES]);
  /* A start every f = 100 blocks outside samples: q lies between
     1/(f + E[L]) (every start collected, E[L] ~ 10) and 1/f (none). */
  double q = (double) p.subpaths.walk[OSP_W_STARTS] / (double) n;
  fprintf (stderr, "estimate: q %.5f (1/(f+E[L]) ~ %.5f .. 1/f = %.5f), "
           "%llu declined, %u entries, threshold %.3g, resamples %llu\n", q,
           1.0 / (100 + 10), 1.0 / 100,
           (unsigned long long) p.subpaths.walk[OSP_W_DECLINED],
           p.subpaths.nsubs,
           p.subpaths.hl.threshold,
           (unsigned long long) p.subpaths.hl.resamples);
  /* Stretched skips make fewer, heavier starts: q is noisier. */
  double slack = gained ? 4 / sqrt ((double) starts) : 0;
  CHECK (q > (0.97 - slack) / (100 + 10) && q < (1.03 + slack) / 100);
  /* the default 64K bound was reached: raised or, Space-Saving, evicted */
  CHECK (p.subpaths.hl.resamples > 0 || p.subpaths.hl.evictions > 0);
  fprintf (stderr, "estimate: skips stretched x%u, %llu starts seen\n",
           p.subpaths.stretch, (unsigned long long) starts);
  if (gained && !counting)
    CHECK (p.subpaths.stretch > 1
           && p.subpaths.walk[OSP_W_STARTS] > 2 * starts);
  else
    CHECK_EQ (p.subpaths.stretch, 1);

  int checked = 0, inside = 0;
  double worst = 0;
  for (uint32_t i = 0; i < p.subpaths.nsubs && checked < 60; i++)
    {
      const struct osp_subpath *s = &p.subpaths.subs[i];
      if (s->count < 10)
        continue;
      uint64_t ex = exact_count (stream, n, s->blocks, s->len);
      double z = fabs (s->estimate - (double) ex) / (s->err95 / 1.96);
      if (z > worst)
        worst = z;
      inside += fabs (s->estimate - (double) ex) <= s->err95;
      checked++;
      if (checked <= 5)
        fprintf (stderr, "  len %u: estimate %.0f +/- %.0f, exact %llu\n",
                 s->len, s->estimate, s->err95, (unsigned long long) ex);
    }
  fprintf (stderr, "estimate: %d of %d within their 95%% interval, worst "
           "z %.2f\n", inside, checked, worst);
  CHECK (checked >= 12);
  CHECK (inside >= checked * 85 / 100);
  CHECK (worst < 4.5);
  /* The hottest length-2 subpath of the loop, e.g. 2 3, occurs about
     n/4 times: its share is about 25%. */
  for (uint32_t i = 0; i < p.subpaths.nsubs; i++)
    if (p.subpaths.subs[i].len == 2)
      {
        CHECK (fabs (p.subpaths.subs[i].share - 0.25)
               < 0.03 + (gained ? p.subpaths.subs[i].err95 / (double) n : 0));
        break;
      }
  osp_profile_free (&p);
  free (stream);
  return osp_test_failures ? 1 : 0;
}

/* Exit report with whatever OSP_OPTIONS say: a reproducibility run. */
static int
scenario_repro (void)
{
  osp_test_chain (&rec, cfg, "loop", "loop.c", 5, 10);
  __osp_register_module (OSP_ABI_VERSION, &rec, &rec + 1);
  uint64_t starts = 0;
  run_loop (300000, NULL, NULL, &starts);
  return 0;
}

/* ---- options ---------------------------------------------------------- */

static char *
parse (struct osp_options *o, const char *spec, int *problems)
{
  char *msg = NULL;
  size_t len = 0;
  FILE *err = open_memstream (&msg, &len);
  osp_options_defaults (o);
  *problems = osp_options_parse (o, spec, err);
  fclose (err);
  return msg;
}

static void
test_options (void)
{
  struct osp_options o;
  int n;
  char *msg = parse (&o,
                     "mode=subpaths-exact:interval=7:gain=0:min_length=4:"
                     "max_length=65536:length_bias=long:hotlist_bytes=1M:"
                     "policy=spacesaving:encoding=rotation:seed=0x10:"
                     "exact_max=64:exact_bytes=2g:report_signal=SIGUSR2",
                     &n);
  CHECK_EQ (n, 0);
  CHECK_STR (msg, "");
  CHECK (o.mode == OSP_MODE_SUBPATHS_EXACT);
  CHECK_EQ (o.interval, 7);
  CHECK_EQ (o.gain, 0);
  CHECK_EQ (o.min_length, 4);
  CHECK_EQ (o.max_length, 65536);
  CHECK (o.length_bias == OSP_BIAS_LONG);
  CHECK_EQ (o.hotlist_bytes, 1 << 20);
  CHECK (o.policy == HL_SPACE_SAVING);
  CHECK (o.encoding == HL_ENC_ROTATION);
  CHECK (o.seed_set && o.seed == 16);
  CHECK_EQ (o.exact_max, 64);
  CHECK_EQ (o.exact_bytes, 2ull << 30);
  CHECK_EQ (o.report_signal, SIGUSR2);
  free (msg);

  msg = parse (&o, "hotlist_bytes=4096:seed=18446744073709551615:"
                   "report_signal=USR1:length_bias=uniform:encoding=xor:"
                   "mode=off:report_signal=none", &n);
  CHECK_EQ (n, 0);
  CHECK_EQ (o.hotlist_bytes, 4096);
  CHECK (o.seed == UINT64_MAX);
  CHECK_EQ (o.report_signal, 0);
  CHECK (o.encoding == HL_ENC_XOR && o.length_bias == OSP_BIAS_UNIFORM);
  free (msg);

  static const struct
  {
    const char *item, *key;
  } bad[] = {
    { "interval=0", "interval" },         { "interval=1.5", "interval" },
    { "gain=-1", "gain" },                { "gain=1000000001", "gain" },
    { "min_length=3", "min_length" },     { "min_length=1", "min_length" },
    { "max_length=131072", "max_length" }, { "length_bias=short", "length_bias" },
    { "hotlist_bytes=1K", "hotlist_bytes" }, { "hotlist_bytes=12q", "hotlist_bytes" },
    { "hotlist_bytes=", "hotlist_bytes" }, { "policy=lru", "policy" },
    { "encoding=md5", "encoding" },       { "seed=-1", "seed" },
    { "seed=0x", "seed" },                { "exact_max=1", "exact_max" },
    { "exact_bytes=1K", "exact_bytes" },  { "report_signal=KILL", "report_signal" },
    { "report_signal=9", "report_signal" }, { "mode=subpath", "mode" },
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    {
      msg = parse (&o, bad[i].item, &n);
      char want[128];
      snprintf (want, sizeof want, "for key '%s' (accepted: ", bad[i].key);
      CHECK_EQ (n, 1);
      CHECK_CONTAINS (msg, want);
      CHECK (msg && strchr (msg, '\n') == msg + strlen (msg) - 1);
      struct osp_options d;
      osp_options_defaults (&d);
      CHECK (memcmp (&o, &d, sizeof o) == 0); /* everything at its default */
      free (msg);
    }
  msg = parse (&o, "max_length=32:min_length=64", &n);
  CHECK_EQ (n, 1);
  CHECK_STR (msg, "osp: OSP_OPTIONS: min_length 64 is greater than "
                  "max_length 32 (accepted: powers of two 2..65536, "
                  "min_length <= max_length)\n");
  CHECK_EQ (o.min_length, 2);
  CHECK_EQ (o.max_length, 1024);
  free (msg);
  msg = parse (&o, "min_length=64:max_length=128", &n);
  CHECK_EQ (n, 1); /* exact_max 32 < min_length 64 */
  CHECK_CONTAINS (msg, "exact_max 32 is less than min_length 64");
  CHECK_EQ (o.max_length, 128);
  free (msg);
}

int
main (int argc, char **argv)
{
  /* These tests change the runtime's globals (options, the sampler's
     tables, the path table) under it: the publisher thread, which the
     constructor started, must not take a profile meanwhile (a data race
     ThreadSanitizer reports).  Its segment goes away now. */
  osp_publish_exit (NULL);
  if (argc > 1 && strcmp (argv[1], "estimate") == 0)
    return scenario_estimate (0, 0);
  if (argc > 1 && strcmp (argv[1], "estimate-gain") == 0)
    return scenario_estimate (1, 0);
  if (argc > 1 && strcmp (argv[1], "estimate-counting") == 0)
    return scenario_estimate (1, 1);
  if (argc > 1 && strcmp (argv[1], "repro") == 0)
    return scenario_repro ();

  test_options ();
  test_math ();
  test_skips ();
  test_lengths ();
  test_estimate_bound ();
  test_settle ();

  CHECK_EQ (osp_test_run ("estimate",
                          "interval=100:seed=42:report=none:policy=concise",
                          NULL, NULL),
            0);
  CHECK_EQ (osp_test_run ("estimate-gain",
                          "interval=100:seed=42:report=none:gain=4:"
                          "policy=concise",
                          NULL, NULL),
            0);
  /* The gain limit does not apply to counting samples. */
  CHECK_EQ (osp_test_run ("estimate-counting",
                          "interval=100:seed=42:report=none:gain=4:"
                          "policy=counting",
                          NULL, NULL),
            0);
  /* Nor to Space-Saving (the default), which also sees every start. */
  CHECK_EQ (osp_test_run ("estimate-counting",
                          "interval=100:seed=42:report=none:gain=4", NULL,
                          NULL),
            0);

  char *dir = osp_test_tmpdir ();
  char opts[12800], rep[3][4200];
  char *r[3];
  const char *seeds[3] = { "7", "7", "8" };
  for (int i = 0; i < 3; i++)
    {
      snprintf (rep[i], sizeof rep[i], "%s/r%d.tsv", dir, i);
      snprintf (opts, sizeof opts,
                "seed=%s:interval=50:report=%s:report_format=tsv", seeds[i],
                rep[i]);
      CHECK_EQ (osp_test_run ("repro", opts, NULL, NULL), 0);
      r[i] = osp_test_slurp (rep[i]);
      CHECK (r[i] != NULL);
    }
  CHECK_CONTAINS (r[0], "# osp-report 1 mode=subpaths\n");
  CHECK_CONTAINS (r[0], "\nsubpath\t1\t");
  CHECK_CONTAINS (r[0], "\nstat\tblocks_seen\t300000\n");
  CHECK_CONTAINS (r[0], "\nstat\tseed\t7\n");
  CHECK_CONTAINS (r[0], "\nblock\t1\t0\tloop\tloop.c\t10\t10\t-\n");
  CHECK (r[0] && r[1] && strcmp (r[0], r[1]) == 0); /* same seed */
  CHECK (r[0] && r[2] && strcmp (r[0], r[2]) != 0); /* other seed */
  for (int i = 0; i < 3; i++)
    {
      free (r[i]);
      unlink (rep[i]);
    }
  rmdir (dir);
  free (dir);
  return osp_test_done ("t_sampler");
}

/* SPDX-License-Identifier: MIT */
/* t_paths.c - Ball-Larus paths (white-box): decoding and encoding every id
 * of hand-made functions numbered by the reference numbering of
 * pathgraphs.h (a diamond chain, a loop with a header start and back
 * edges, a block without normal successors, abnormal and EH edges, each
 * also numbered in the other successor order), branch counts,
 * verify_paths (passes on good numberings, one line on a broken one, the
 * summary line), the record checks and refusals (values past npaths,
 * start values that disagree with the flags, a P-DAG cycle), the path
 * table (exact counts fed exhaustively through __osp_path_end, the byte
 * bound never exceeded, overflow counted, the edge profile equal to the
 * sum over paths of count x edges, also past the bound; invalid ids),
 * the geometric countdown, the path options, and the tsv and text
 * sections of a report, path and prefix forest. */
#include "testutil.h"

#include "osprt.h"
#include "pathgraphs.h"

#include <fcntl.h>

/* The registered copy of R (registered here if it is not yet). */
static struct osp_fn *
fn_of (struct osp_fn_record *r)
{
  if (r->id == 0)
    __osp_register_module (OSP_ABI_VERSION, r, r + 1);
  return osp_fn_of_record (r);
}

/* ---- decode, encode, branches ---------------------------------------- */

struct expect
{
  const struct osp_fn *f;
  uint64_t paths;
  unsigned char seen[1024];
};

static void
check_one (uint64_t id, const uint32_t *blocks, const uint32_t *succs,
           uint32_t n, void *arg)
{
  struct expect *x = arg;
  struct osp_path_step dec[TG_MAXB], ref[TG_MAXB];
  for (uint32_t i = 0; i < n; i++)
    ref[i] = (struct osp_path_step) {
      blocks[i], succs[i] == TG_END ? OSP_STEP_END : succs[i]
    };
  x->paths++;
  CHECK (id < x->f->npaths);
  if (id >= x->f->npaths || id >= 8 * sizeof x->seen)
    return;
  CHECK (!(x->seen[id / 8] & (1u << (id % 8)))); /* the reference too */
  x->seen[id / 8] |= (unsigned char) (1u << (id % 8));
  uint32_t nd = osp_path_decode (x->f, id, dec);
  CHECK_EQ (nd, n);
  CHECK (nd == n && memcmp (dec, ref, n * sizeof *ref) == 0);
  CHECK_EQ (osp_path_encode (x->f, ref, n), id);
}

/* Every id of G's function decodes to the reference path of that sum and
   back; nothing else decodes. */
static void
check_graph (struct tg *g, struct osp_fn_record *r, const char *name)
{
  tg_build (g, r, name, "g.c");
  struct osp_fn *f = fn_of (r);
  CHECK (f != NULL);
  if (f == NULL)
    return;
  CHECK_EQ (f->npaths, g->npaths);
  struct expect x = { .f = f };
  tg_paths (g, check_one, &x);
  CHECK_EQ (x.paths, g->npaths);
  struct osp_path_step dec[TG_MAXB];
  CHECK_EQ (osp_path_decode (f, g->npaths, dec), 0);
  CHECK_EQ (osp_path_decode (f, UINT64_MAX, dec), 0);
  CHECK_EQ (osp_paths_verify (f), 0);
}

static struct tg g_dia, g_dia_r, g_loop, g_loop_r, g_noret, g_noret_r, g_abn,
    g_abn_r, g_big;
static struct osp_fn_record r_dia, r_dia_r, r_loop, r_loop_r, r_noret,
    r_noret_r, r_abn, r_abn_r, r_big __attribute__ ((aligned (8)));

static void
test_decode (void)
{
  tg_diamonds (&g_dia, 3);
  check_graph (&g_dia, &r_dia, "dia");
  CHECK_EQ (g_dia.npaths, 8);
  tg_diamonds (&g_dia_r, 4);
  g_dia_r.reverse = 1;
  check_graph (&g_dia_r, &r_dia_r, "dia_r");
  tg_loop (&g_loop);
  check_graph (&g_loop, &r_loop, "loop");
  CHECK_EQ (g_loop.npaths, 4);
  tg_loop (&g_loop_r);
  g_loop_r.reverse = 1;
  check_graph (&g_loop_r, &r_loop_r, "loop_r");
  tg_noreturn (&g_noret);
  check_graph (&g_noret, &r_noret, "noret");
  CHECK_EQ (g_noret.npaths, 4); /* 0-1 end, 0-2-exit, 0-2-3 end, 4-exit */
  tg_noreturn (&g_noret_r);
  g_noret_r.reverse = 1;
  check_graph (&g_noret_r, &r_noret_r, "noret_r");
  tg_abnormal (&g_abn);
  check_graph (&g_abn, &r_abn, "abn");
  CHECK_EQ (g_abn.npaths, 3); /* 0-1-2-exit, 0-1 ending before 3, 3-exit */
  tg_abnormal (&g_abn_r);
  g_abn_r.reverse = 1;
  check_graph (&g_abn_r, &r_abn_r, "abn_r");

  /* The loop's numbering, worked out by hand (Figure 2, successors in
     order): 0 -> 1 is path 0, 1-2-3 is 1, 1-2-4 is 2, 1-5 is 3. */
  struct osp_fn *f = osp_fn_of_record (&r_loop);
  struct osp_path_step s[TG_MAXB];
  CHECK_EQ (osp_path_decode (f, 2, s), 3);
  CHECK (s[0].block == 1 && s[0].succ == 0 && s[1].block == 2
         && s[1].succ == 1 && s[2].block == 4 && s[2].succ == 0);
  CHECK_EQ (osp_path_branches (f, s, 3), 2); /* at 1 and at 2 */
  CHECK_EQ (osp_path_decode (f, 0, s), 1);
  CHECK_EQ (osp_path_branches (f, s, 1), 0);
  /* Every path through three diamonds decides three branches. */
  f = osp_fn_of_record (&r_dia);
  for (uint64_t id = 0; id < 8; id++)
    CHECK_EQ (osp_path_branches (f, s, osp_path_decode (f, id, s)), 3);
  /* The abnormal edge 0 -> 3 is not a branch: 0-1-2 decides only at 1. */
  f = osp_fn_of_record (&r_abn);
  CHECK_EQ (osp_path_decode (f, 0, s), 3);
  CHECK_EQ (osp_path_branches (f, s, 3), 1);

  /* Steps that are not a P-DAG path have no id. */
  f = osp_fn_of_record (&r_loop);
  struct osp_path_step bad[2] = { { 2, 0 }, { 3, 0 } }; /* 2 is no start */
  CHECK_EQ (osp_path_encode (f, bad, 2), OSP_PATH_NONE);
  struct osp_path_step cut[1] = { { 1, 0 } }; /* 1 -> 2 does not end */
  CHECK_EQ (osp_path_encode (f, cut, 1), OSP_PATH_NONE);
  struct osp_path_step far[1] = { { 1, 7 } };
  CHECK_EQ (osp_path_encode (f, far, 1), OSP_PATH_NONE);

  /* 20 diamonds: 2^20 paths, past the enumeration limit. */
  tg_diamonds (&g_big, 20);
  tg_build (&g_big, &r_big, "big", "big.c");
  f = fn_of (&r_big);
  CHECK (f && f->npaths == (1u << 20));
  for (uint64_t id = 0; f && id < f->npaths; id += 4099)
    {
      uint32_t n = osp_path_decode (f, id, s);
      CHECK_EQ (n, 41); /* d l|r d l|r ... d: 2 steps per diamond + 1 */
      CHECK_EQ (osp_path_encode (f, s, n), id);
      CHECK_EQ (osp_path_branches (f, s, n), 20);
    }
}

/* ---- verify_paths ---------------------------------------------------- */

static char *
capture_begin (char *path, size_t size, int *saved)
{
  char *dir = osp_test_tmpdir ();
  snprintf (path, size, "%s/err", dir);
  fflush (stderr);
  *saved = dup (2);
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  dup2 (fd, 2);
  close (fd);
  osp_output_init (); /* the file is fd 2 as of start-up (report.c) */
  return dir;
}

static char *
capture_end (const char *path, char *dir, int saved)
{
  dup2 (saved, 2);
  close (saved);
  osp_output_init ();
  char *text = osp_test_slurp (path);
  unlink (path);
  rmdir (dir);
  free (dir);
  return text;
}

static struct tg g_broken;
static struct osp_fn_record r_broken __attribute__ ((aligned (8)));

static void
test_verify (void)
{
  struct osp_verify_totals t0, t1;
  osp_paths_verify_totals (&t0);
  CHECK_EQ (osp_paths_verify (osp_fn_of_record (&r_big)), 0);
  osp_paths_verify_totals (&t1);
  CHECK_EQ (t1.functions, t0.functions + 1);
  CHECK_EQ (t1.round_trips, t0.round_trips + OSP_VERIFY_SAMPLES + 2);
  CHECK_EQ (t1.enumerated, t0.enumerated);
  CHECK_EQ (osp_paths_verify (osp_fn_of_record (&r_loop)), 0);
  osp_paths_verify_totals (&t0);
  CHECK_EQ (t0.enumerated, t1.enumerated + 4);
  CHECK_EQ (t0.errors, 0);

  /* A numbering whose values are all in range but collide: the record is
     valid, the verifier says what is wrong with it. */
  tg_diamonds (&g_broken, 3);
  tg_build (&g_broken, &r_broken, "broken", "b.c");
  g_broken.paths[2 + 1] = 0; /* block 0's second edge: now like the first */
  struct osp_fn *f = fn_of (&r_broken);
  CHECK (f != NULL);
  char path[4200];
  int saved;
  char *dir = capture_begin (path, sizeof path, &saved);
  CHECK_EQ (osp_paths_verify (f), -1);
  osp_paths_verify_summary ();
  char *err = capture_end (path, dir, saved);
  osp_paths_verify_totals (&t1);
  CHECK_EQ (t1.errors, 1);
  char want[512];
  snprintf (want, sizeof want,
            "osp: path numbering error in broken (b.c): two paths sum to 0\n"
            "osp: verified path numbering: %llu functions, %llu paths "
            "enumerated, %llu ids round-tripped, 1 errors\n",
            (unsigned long long) t1.functions,
            (unsigned long long) t1.enumerated,
            (unsigned long long) t1.round_trips);
  CHECK_STR (err, want);
  free (err);
}

/* ---- record checks --------------------------------------------------- */

static struct tg g_chk, g_cyc;
static struct osp_fn_record r_cyc, r_range __attribute__ ((aligned (8)));
static uint64_t range_words[TG_MAXB * (2 + TG_MAXS)];

static void
test_checks (void)
{
  struct osp_fn_record r;
  tg_loop (&g_chk);
  tg_build (&g_chk, &r, "chk", "c.c");
  CHECK (osp_record_check (&r) == NULL);

  struct osp_fn_record h = r;
  uint64_t words[TG_MAXB * (2 + TG_MAXS)];
  memcpy (words, g_chk.paths, sizeof words);
  h.paths = words;
  words[2 + 0] = r.npaths; /* block 0's edge: a value past npaths */
  CHECK_STR (osp_record_check (&h), "a path value not below npaths");
  memcpy (words, g_chk.paths, sizeof words);
  words[0] = OSP_PATH_NONE; /* block 0 is a start: its value is missing */
  CHECK_STR (osp_record_check (&h), "a path start without a start value");
  memcpy (words, g_chk.paths, sizeof words);
  words[tg_offset (&g_chk, 2)] = 0; /* block 2 starts no path */
  CHECK (osp_record_check (&h) != NULL);
  memcpy (words, g_chk.paths, sizeof words);
  CHECK (osp_record_check (&h) == NULL);
  h.paths_len--;
  CHECK_STR (osp_record_check (&h),
             "paths_len is not 2 * nblocks + successors");
  h = r;
  h.npaths = 0;
  CHECK (osp_record_check (&h) != NULL);
  h = r;
  h.paths = NULL;
  CHECK (osp_record_check (&h) != NULL);
  h = r;
  h.flags &= ~(uint32_t) OSP_FN_PATH_PROBES;
  CHECK (osp_record_check (&h) != NULL); /* words without the flag */
  h.paths = NULL;
  h.npaths = 0;
  h.paths_len = 0;
  CHECK (osp_record_check (&h) == NULL);

  /* Inline counters: the flag and the array go together, need the P-DAG,
     and are refused past the plugin's cap. */
  static uint64_t counts[64];
  h = r;
  h.flags |= OSP_FN_PATH_COUNTS;
  CHECK_STR (osp_record_check (&h), "path counters without a counts array");
  h.counts = counts;
  CHECK (osp_record_check (&h) == NULL);
  h.npaths = ((uint64_t) 1 << 24) + 1;
  CHECK_STR (osp_record_check (&h), "path counters for more than 2^24 paths");
  h = r;
  h.counts = counts;
  CHECK_STR (osp_record_check (&h),
             "a counts array without OSP_FN_PATH_COUNTS");
  h.flags &= ~(uint32_t) OSP_FN_PATH_PROBES;
  h.paths = NULL;
  h.npaths = 0;
  h.paths_len = 0;
  CHECK (osp_record_check (&h) != NULL);

  /* Refused at registration, one line each: a value past npaths, and a
     loop whose header is not a start (the P-DAG has a cycle). */
  tg_loop (&g_cyc);
  tg_build (&g_cyc, &r_range, "range", "r.c");
  memcpy (range_words, g_cyc.paths, sizeof range_words);
  range_words[2] = 99;
  r_range.paths = range_words;
  tg_build (&g_cyc, &r_cyc, "cyc", "y.c");
  g_cyc.cfg[6 + 2] &= ~(uint32_t) OSP_BB_PATH_START; /* block 1's flags */
  g_cyc.paths[3] = OSP_PATH_NONE;                    /* and start value */
  CHECK (osp_record_check (&r_cyc) == NULL);         /* words look right */
  uint64_t invalid = atomic_load (&osp_stats.records_invalid);
  char path[4200];
  int saved;
  char *dir = capture_begin (path, sizeof path, &saved);
  __osp_register_module (OSP_ABI_VERSION, &r_range, &r_range + 1);
  __osp_register_module (OSP_ABI_VERSION, &r_range, &r_range + 1);
  __osp_register_module (OSP_ABI_VERSION, &r_cyc, &r_cyc + 1);
  char *err = capture_end (path, dir, saved);
  CHECK_CONTAINS (err, "osp: ignoring the record of range in ");
  CHECK_CONTAINS (err, ": a path value not below npaths; that function runs "
                       "unprofiled\n");
  CHECK_CONTAINS (err, "osp: ignoring the record of cyc in ");
  CHECK_CONTAINS (err, ": the P-DAG has a cycle (an edge into a block that "
                       "is no path start closes it); that function runs "
                       "unprofiled\n");
  int lines = 0;
  for (const char *c = err; c && *c; c++)
    lines += *c == '\n';
  CHECK_EQ (lines, 2); /* the repeat of range's module is quiet */
  free (err);
  CHECK_EQ (atomic_load (&osp_stats.records_invalid), invalid + 2);
  CHECK_EQ (r_range.id, 0);
  CHECK_EQ (r_cyc.id, 0);
  CHECK (osp_fn_of_record (&r_cyc) == NULL);
}

/* ---- draws and options ----------------------------------------------- */

static void
test_geometric (void)
{
  uint64_t rng[4];
  osp_rng_seed (rng, 42, 7);
  const uint32_t interval = 1000;
  double lk = osp_ln1m (1.0 / interval), sum = 0;
  const int n = 1000000;
  uint32_t ones = 0;
  for (int i = 0; i < n; i++)
    {
      uint32_t k = osp_draw_geometric (rng, lk);
      CHECK (k >= 1);
      sum += k;
      ones += k == 1;
    }
  double mean = sum / n;
  fprintf (stderr, "geometric: mean %.1f (interval %u), P(1) %.5f\n", mean,
           interval, (double) ones / n);
  CHECK (mean > 0.98 * interval && mean < 1.02 * interval); /* sd 0.1% */
  CHECK (ones > 800 && ones < 1200);                        /* 1000 +/- 6 sd */
  for (int i = 0; i < 100; i++)
    CHECK_EQ (osp_draw_geometric (rng, 0), 1); /* path_interval=1 */
}

static void
test_options (void)
{
  struct osp_options o;
  osp_options_defaults (&o);
  CHECK (o.paths == OSP_PATHS_COUNTER);
  CHECK_EQ (o.path_interval, 1000);
  CHECK_EQ (o.path_gain, 300);
  CHECK_EQ (o.path_samples, 64);
  CHECK_EQ (o.path_stride, 17);
  CHECK_EQ (o.path_period, 10);
  CHECK_EQ (o.path_bytes, 4u << 20);
  CHECK_EQ (o.verify_paths, 0);
  CHECK_EQ (osp_options_parse (&o,
                               "paths=timer:path_interval=5:path_gain=0:"
                               "path_samples=8:"
                               "path_stride=3:path_period=60000:"
                               "path_bytes=1m:verify_paths=1",
                               stderr),
            0);
  CHECK (o.paths == OSP_PATHS_TIMER);
  CHECK_EQ (o.path_interval, 5);
  CHECK_EQ (o.path_gain, 0);
  CHECK_EQ (o.path_samples, 8);
  CHECK_EQ (o.path_stride, 3);
  CHECK_EQ (o.path_period, 60000);
  CHECK_EQ (o.path_bytes, 1u << 20);
  CHECK_EQ (o.verify_paths, 1);
  CHECK_STR (osp_path_policy_name (o.paths), "timer");
  static const char *const names[] = { "counter", "timer", "exhaustive",
                                       "off" };
  for (int i = 0; i < 4; i++)
    {
      char spec[64];
      snprintf (spec, sizeof spec, "paths=%s", names[i]);
      CHECK_EQ (osp_options_parse (&o, spec, NULL), 0);
      CHECK_STR (osp_path_policy_name (o.paths), names[i]);
    }
  CHECK_EQ (osp_options_parse (&o, "path_bytes=4g", NULL), 0);
  CHECK_EQ (o.path_bytes, (uint64_t) 4 << 30);
  CHECK_EQ (osp_options_parse (&o, "path_bytes=64K", NULL), 0);
  CHECK_EQ (o.path_bytes, 65536);

  static const char *const bad[] = {
    "paths=sometimes", "paths=", "path_interval=0",
    "path_interval=1000000001", "path_gain=-1", "path_gain=1000000001",
    "path_samples=0", "path_samples=1000001",
    "path_stride=0", "path_period=0", "path_period=60001",
    "path_bytes=63k", "path_bytes=5g", "path_bytes=1t", "verify_paths=2",
  };
  osp_options_defaults (&o);
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    CHECK_EQ (osp_options_parse (&o, bad[i], NULL), 1);
  struct osp_options d;
  osp_options_defaults (&d);
  CHECK (memcmp (&o, &d, sizeof o) == 0); /* every default kept */

  char *msg = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&msg, &len);
  osp_options_parse (&o, "paths=often", f);
  fclose (f);
  CHECK_STR (msg, "osp: OSP_OPTIONS: bad value 'often' for key 'paths' "
                  "(accepted: counter, timer, exhaustive, off)\n");
  free (msg);
}

/* ---- the path table (OSP_OPTIONS from a re-run) ---------------------- */

static struct tg g_tab, g_tbig;
static struct osp_fn_record r_tab, r_tbig, r_plain __attribute__ ((aligned (8)));
static uint32_t cfg_plain[16];

/* The edge profile of F from the rows equals P's edge counters, plus the
   edges of the samples that were dropped (EXTRA, may be NULL). */
static void
check_edges (const struct osp_profile *p, const struct osp_fn *f,
             const uint64_t *extra)
{
  uint32_t fi = f->id - 1;
  uint64_t *sum = calloc (f->nedges + 1, sizeof *sum);
  for (uint32_t r = 0; r < p->paths.nrows; r++)
    {
      const struct osp_path_row *row = &p->paths.rows[r];
      if (row->fi != fi)
        continue;
      for (uint32_t k = 0; k < row->nsteps; k++)
        if (row->steps[k].succ != OSP_STEP_END)
          sum[f->blocks[row->steps[k].block].succ + row->steps[k].succ]
              += row->samples;
    }
  CHECK (p->paths.edges[fi] != NULL);
  for (uint32_t e = 0; e < f->nedges && p->paths.edges[fi]; e++)
    CHECK_EQ (p->paths.edges[fi][e], sum[e] + (extra ? extra[e] : 0));
  free (sum);
}

static int
scenario_table (void)
{
  osp_test_chain (&r_plain, cfg_plain, "plain", "p.c", 2, 5);
  __osp_register_module (OSP_ABI_VERSION, &r_plain, &r_plain + 1);
  tg_loop (&g_tab);
  tg_build (&g_tab, &r_tab, "loopy", "l.c");
  struct osp_fn *fl = fn_of (&r_tab);
  tg_diamonds (&g_tbig, 20);
  tg_build (&g_tbig, &r_tbig, "big", "big.c");
  struct osp_fn *fb = fn_of (&r_tbig);
  CHECK (fl != NULL && fb != NULL);
  if (fl == NULL || fb == NULL)
    return 1;

  /* Exact counts, through the ABI: path id i of the loop 10 * (i + 1)
     times, interleaved. */
  uint64_t want[4] = { 10, 20, 30, 40 }, n = 0;
  for (int round = 0; round < 40; round++)
    for (uint64_t id = 0; id < 4; id++)
      if ((uint64_t) round < want[id])
        {
          osp_test_path_end (&r_tab, id);
          n++;
        }
  CHECK_EQ (__osp_path_countdown, 1); /* exhaustive: always 1 */
  struct osp_thread *t = osp_thread_peek ();
  CHECK (t != NULL);
  osp_thread_settle (t);
  struct osp_profile p;
  CHECK_EQ (osp_profile_take (&p), 0);
  CHECK (p.paths.shown);
  CHECK_EQ (p.paths.functions, 2);
  CHECK_EQ (p.paths.ends_seen, n);
  CHECK_EQ (p.paths.samples, n);
  CHECK_EQ (p.paths.distinct, 4);
  CHECK_EQ (p.paths.cache_misses, 4);
  CHECK_EQ (p.paths.cache_hits, n - 4);
  CHECK_EQ (p.paths.nrows, 4);
  for (uint32_t r = 0; r < p.paths.nrows; r++)
    {
      const struct osp_path_row *row = &p.paths.rows[r];
      CHECK_EQ (row->id, 3 - r); /* ranked by count */
      CHECK_EQ (row->samples, want[row->id]);
      CHECK (row->estimate == (double) want[row->id] && row->err95 == 0);
    }
  check_edges (&p, fl, NULL);
  osp_profile_free (&p);

  /* Past the bound: 3000 distinct paths of `big' (24 words each) do not
     fit in 64K; the table never exceeds it, the overflow is counted, and
     every sample still reaches the edge profile. */
  uint64_t *extra = calloc (fb->nedges, sizeof *extra);
  struct osp_path_step s[64];
  uint64_t before = 0;
  CHECK_EQ (osp_profile_take (&p), 0);
  before = p.paths.distinct;
  osp_profile_free (&p);
  for (uint64_t i = 0; i < 3000; i++)
    osp_pathprof_record (t, fb, i * 349, 0);
  osp_pathprof_record (t, fb, 0, 0); /* a known path: a cache hit */
  osp_pathprof_record (t, fb, 1u << 20, 0); /* no such path */
  osp_pathprof_record (t, fl, UINT64_MAX, 0);
  osp_pathprof_record (t, osp_fn_of_record (&r_plain), 0, 0); /* no probes */
  osp_test_path_end (&r_plain, 0);
  osp_thread_settle (t);
  CHECK_EQ (osp_profile_take (&p), 0);
  CHECK (p.paths.bytes_used <= 65536 && p.paths.bytes_peak <= 65536);
  CHECK (p.paths.bytes_used > 56000); /* entries filled their 7/8 */
  CHECK_EQ (p.paths.bytes_bound, 65536);
  CHECK (p.paths.dropped > 0);
  CHECK_EQ (p.paths.distinct - before + p.paths.dropped, 3000);
  CHECK_EQ (p.paths.invalid, 4);
  CHECK_EQ (p.paths.samples, n + 3001);
  fprintf (stderr, "table: %llu distinct, %llu dropped, %llu bytes used\n",
           (unsigned long long) p.paths.distinct,
           (unsigned long long) p.paths.dropped,
           (unsigned long long) p.paths.bytes_used);
  /* The dropped samples' edges: every fed id not in a row. */
  for (uint64_t i = 0; i < 3000; i++)
    {
      int in_table = 0;
      for (uint32_t r = 0; r < p.paths.nrows && !in_table; r++)
        in_table = p.paths.rows[r].fi == fb->id - 1
                   && p.paths.rows[r].id == i * 349;
      if (in_table)
        continue;
      uint32_t k = osp_path_decode (fb, i * 349, s);
      for (uint32_t j = 0; j < k; j++)
        if (s[j].succ != OSP_STEP_END)
          extra[fb->blocks[s[j].block].succ + s[j].succ]++;
    }
  check_edges (&p, fb, extra);
  check_edges (&p, fl, NULL);
  /* Path 0 of big is in the table and was sampled twice. */
  int found = 0;
  for (uint32_t r = 0; r < p.paths.nrows; r++)
    if (p.paths.rows[r].fi == fb->id - 1 && p.paths.rows[r].id == 0)
      found = p.paths.rows[r].samples == 2;
  CHECK (found);
  osp_profile_free (&p);
  free (extra);
  return osp_test_failures ? 1 : 0;
}

/* ---- the report's path sections -------------------------------------- */

static char *
format (enum osp_report_format fmt, uint32_t top)
{
  struct osp_options o = osp_opts;
  o.report_format = fmt;
  o.report_top = top;
  struct osp_profile p;
  char *buf = NULL;
  size_t len = 0;
  if (osp_profile_take (&p) != 0)
    return NULL;
  FILE *f = open_memstream (&buf, &len);
  CHECK_EQ (osp_report_format (f, &p, &o), 0);
  fclose (f);
  osp_profile_free (&p);
  return buf;
}

static const char expected_tsv[]
    = "# osp-report 1 mode=blocks paths=exhaustive\n"
      "module\t0\t1\n"
      "module\t1\t1\n"
      "function\t1\tplain\tp.c\t5\t0\t0\n"
      "function\t2\tloopy\tl.c\t10\t-\t0\n"
      "block\t2\t0\tloopy\tl.c\t10\t10\t-\n"
      "block\t2\t1\tloopy\tl.c\t11\t11\t-\n"
      "block\t2\t2\tloopy\tl.c\t12\t12\t-\n"
      "block\t2\t3\tloopy\tl.c\t13\t13\t-\n"
      "block\t2\t4\tloopy\tl.c\t14\t14\t-\n"
      "block\t2\t5\tloopy\tl.c\t15\t15\t-\n"
      "path\t1\t2\t3\t40.000\t0.000\t40\t0.4\t1\t2:1,2:5\t"
      "80.000\t0.000\t0.333333333\n"
      "path\t2\t2\t1\t30.000\t0.000\t30\t0.3\t2\t2:1,2:2,2:3\t"
      "90.000\t0.000\t0.375\n"
      "path\t3\t2\t2\t20.000\t0.000\t20\t0.2\t2\t2:1,2:2,2:4\t"
      "60.000\t0.000\t0.25\n"
      "path\t4\t2\t0\t10.000\t0.000\t10\t0.1\t0\t2:0\t"
      "10.000\t0.000\t0.0416666667\n"
      "edge\t2\t0\t0\t1\t10.000\t10\n"
      "edge\t2\t1\t0\t2\t50.000\t50\n"
      "edge\t2\t1\t1\t5\t40.000\t40\n"
      "edge\t2\t2\t0\t3\t30.000\t30\n"
      "edge\t2\t2\t1\t4\t20.000\t20\n"
      "edge\t2\t3\t0\t1\t30.000\t30\n"
      "edge\t2\t4\t0\t1\t20.000\t20\n"
      "edge\t2\t5\t0\texit\t40.000\t40\n"
      "work\t2\t240\t100.0000\t240\t100.0000\n"
      "stat\tmodules\t2\n"
      "stat\tfunctions\t2\n"
      "stat\tfunctions_dropped\t0\n"
      "stat\tblock_entries\t0\n"
      "stat\tunregistered_hits\t0\n"
      "stat\tthreads\t1\n"
      "stat\trecords_invalid\t0\n"
      "stat\tabi_mismatches\t0\n"
      "stat\thits_lost\t0\n"
      "stat\tpaths\texhaustive\n"
      "stat\tpath_interval\t1000\n"
      "stat\tpath_gain\t300\n"
      "stat\tpath_samples_per_tick\t64\n"
      "stat\tpath_stride\t17\n"
      "stat\tpath_period_ms\t10\n"
      "stat\tpath_ends_seen\t100\n"
      "stat\tpath_samples\t100\n"
      "stat\tpath_counted\t0\n"
      "stat\tpath_counted_plain\t0\n"
      "stat\tpaths_distinct\t4\n"
      "stat\tpaths_dropped\t0\n"
      "stat\tpaths_invalid\t0\n"
      /* 2048 slots of 4 bytes (1/8), 8 edge counters, 4 entries of 3 words
         + 1 per step */
      "stat\tpath_bytes_used\t8432\n"
      "stat\tpath_bytes_peak\t8432\n"
      "stat\tpath_bytes\t65536\n"
      "stat\tpath_counter_bytes\t0\n"
      "stat\tdecode_cache_hits\t96\n"
      "stat\tdecode_cache_misses\t4\n"
      "stat\tpath_functions\t1\n";

static int
scenario_report (void)
{
  osp_test_chain (&r_plain, cfg_plain, "plain", "p.c", 2, 5);
  __osp_register_module (OSP_ABI_VERSION, &r_plain, &r_plain + 1);
  tg_loop (&g_tab);
  tg_build (&g_tab, &r_tab, "loopy", "l.c");
  r_tab.flags &= ~(uint32_t) OSP_FN_BLOCK_HOOKS; /* paths only: counts "-" */
  CHECK (fn_of (&r_tab) != NULL);
  uint64_t want[4] = { 10, 30, 20, 40 };
  for (uint64_t id = 0; id < 4; id++)
    for (uint64_t k = 0; k < want[id]; k++)
      osp_test_path_end (&r_tab, id);
  osp_thread_settle (osp_thread_peek ());

  char *tsv = format (OSP_FORMAT_TSV, 20);
  CHECK_STR (tsv, expected_tsv);
  free (tsv);

  char *text = format (OSP_FORMAT_TEXT, 2);
  CHECK_CONTAINS (text, "\nball-larus paths: exhaustive (exact counts)\n"
                        "  path ends seen 100, samples 100, distinct paths "
                        "4, dropped (table full) 0, invalid ids 0\n"
                        "  path table memory 8432 used, 8432 peak, 65,536 "
                        "bound; decode cache 96 hits, 4 misses; 1 functions"
                        "\n      with path probes\n");
  CHECK_CONTAINS (text, "\nhottest paths (2 of 4):\n"
                        " rank       estimate                share        "
                        "     work   work% branches  path\n"
                        "    1             40               40.00"
                        "%               80  33.33%        1\n"
                        "        loopy() l.c:11 -> l.c:15\n"
                        "    2             30               30.00"
                        "%               90  37.50%        2  "
                        "loopy() l.c:11-13\n");
  CHECK_CONTAINS (text, "\nedge profile (conditional blocks of the 1 "
                        "functions on the top paths):\n"
                        "  loopy() l.c:10\n"
                        "    block 1 l.c:11, 90:\n"
                        "      -> block 2 l.c:12");
  CHECK_CONTAINS (text, "50  55.56%\n      -> block 5 l.c:15");
  CHECK_CONTAINS (text, "    block 2 l.c:12, 50:\n");
  free (text);
  return osp_test_failures ? 1 : 0;
}

/* ---- the report's forest section (report-forest.c) ------------------ */

/* loopy's paths (see expected_tsv): 0 = the entry 0 (E), 1 = 1-2-3 (A),
   2 = 1-2-4 (B), 3 = 1-5, which returns (L).  Ten activations of
   E A B A B A B L give, for k = 3, the n-grams (x 10): E, A 3, B 3, L;
   EA, AB 3, BA 2, BL; EAB, ABA 2, BAB 2, ABL.  Trees by count (ties by
   label), children by count: every row's count and share follow. */
static const char expected_forest_tsv[]
    = "forest\t1\t-\t0\t2\t1\t30\t30.000\t0.000\t0.375\t2:1,2:2,2:3\t"
      "90.000\t0.000\t0.428571429\t1\n"
      "forest\t2\t1\t1\t2\t2\t30\t30.000\t0.000\t1\t2:1,2:2,2:4\t90.000\t"
      "0.000\t0.428571429\t1\n"
      "forest\t3\t2\t2\t2\t1\t20\t20.000\t0.000\t0.666666667\t"
      "2:1,2:2,2:3\t60.000\t0.000\t0.285714286\t1\n"
      "forest\t4\t2\t2\t2\t3\t10\t10.000\t0.000\t0.333333333\t2:1,2:5\t"
      "20.000\t0.000\t0.0952380952\t1\n"
      "forest\t5\t-\t0\t2\t2\t30\t30.000\t0.000\t0.375\t2:1,2:2,2:4\t"
      "90.000\t0.000\t0.428571429\t1\n"
      "forest\t6\t5\t1\t2\t1\t20\t20.000\t0.000\t0.666666667\t"
      "2:1,2:2,2:3\t60.000\t0.000\t0.285714286\t1\n"
      "forest\t7\t6\t2\t2\t2\t20\t20.000\t0.000\t1\t2:1,2:2,2:4\t60.000\t"
      "0.000\t0.285714286\t1\n"
      "forest\t8\t5\t1\t2\t3\t10\t10.000\t0.000\t0.333333333\t2:1,2:5\t"
      "20.000\t0.000\t0.0952380952\t1\n"
      "forest\t9\t-\t0\t2\t0\t10\t10.000\t0.000\t0.125\t2:0\t10.000\t"
      "0.000\t0.0476190476\t1\n"
      "forest\t10\t9\t1\t2\t1\t10\t10.000\t0.000\t1\t2:1,2:2,2:3\t"
      "30.000\t0.000\t0.142857143\t1\n"
      "forest\t11\t10\t2\t2\t2\t10\t10.000\t0.000\t1\t2:1,2:2,2:4\t"
      "30.000\t0.000\t0.142857143\t1\n"
      "forest\t12\t-\t0\t2\t3\t10\t10.000\t0.000\t0.125\t2:1,2:5\t"
      "20.000\t0.000\t0.0952380952\t1\n"
      "work\t2\t210\t100.0000\t210\t100.0000\n"
      "stat\tmodules\t2\n";

static int
scenario_forest (void)
{
  osp_test_chain (&r_plain, cfg_plain, "plain", "p.c", 2, 5);
  __osp_register_module (OSP_ABI_VERSION, &r_plain, &r_plain + 1);
  tg_loop (&g_tab);
  tg_build (&g_tab, &r_tab, "loopy", "l.c");
  r_tab.flags &= ~(uint32_t) OSP_FN_BLOCK_HOOKS;
  CHECK (fn_of (&r_tab) != NULL);
  static const uint64_t activation[] = { 0, 1, 2, 1, 2, 1, 2, 3 };
  for (int a = 0; a < 10; a++)
    for (size_t i = 0; i < sizeof activation / sizeof *activation; i++)
      osp_test_path_end (&r_tab, activation[i]);
  osp_thread_settle (osp_thread_peek ());

  /* tsv: the forest rows right after the edge rows, the stat rows after
     the path stats; every block on a forest row has a block row. */
  char *tsv = format (OSP_FORMAT_TSV, 20);
  CHECK_CONTAINS (tsv, "\tl.c\t15\t15\t-\n");
  CHECK_CONTAINS (tsv, "edge\t2\t5\t0\texit\t10.000\t10\n"
                       "forest\t1\t");
  CHECK_CONTAINS (tsv, expected_forest_tsv);
  CHECK_CONTAINS (tsv, "stat\tpath_functions\t1\n"
                       "stat\tforest\texhaustive\n"
                       "stat\tforest_k\t3\n");
  CHECK_CONTAINS (tsv, "stat\tforest_items\t80\n");
  CHECK_CONTAINS (tsv, "stat\tforest_trees\t4\n");
  CHECK_CONTAINS (tsv, "stat\tforest_bytes_bound\t");
  free (tsv);

  /* text: the label, nothing lost, the trees drawn: all four with
     report_top=4, the first two and a line for the rest with 2, like
     every table's rows.  (The profile holds the run's report_top trees.) */
  char *text = format (OSP_FORMAT_TEXT, 2);
  CHECK_CONTAINS (text, "\nprefix forest (k-BLPP, k=3): exhaustive, exact "
                        "counts\n  path ends counted 80, trees 4 (2 shown)");
  CHECK_CONTAINS (text, "  `-10 33.33%  work 20 9.52%  "
                        "loopy() l.c:11 -> l.c:15\n"
                        "  (2 more trees: report_top=4 shows them)\n");
  CHECK (strstr (text, "work 10 4.76%  loopy() l.c:10\n") == NULL); /* tree 3 */
  free (text);
  text = format (OSP_FORMAT_TEXT, 4);
  CHECK_CONTAINS (text, "trees 4 (4 shown)");
  CHECK (strstr (text, "more trees") == NULL);
  CHECK_CONTAINS (text, "  nothing lost to the node budget: every count is "
                        "exact\n  every node is shown;");
  CHECK_CONTAINS (text, "\n\n"
                        "  30 37.50%  work 90 42.86%  loopy() l.c:11-13\n"
                        "  `-30 100.00%  work 90 42.86%  "
                        "loopy() l.c:11-12 -> l.c:14\n"
                        "    |-20 66.67%  work 60 28.57%  loopy() l.c:11-13\n"
                        "    `-10 33.33%  work 20 9.52%  "
                        "loopy() l.c:11 -> l.c:15\n"
                        "\n"
                        "  30 37.50%  work 90 42.86%  "
                        "loopy() l.c:11-12 -> l.c:14\n"
                        "  |-20 66.67%  work 60 28.57%  loopy() l.c:11-13\n"
                        "  | `-20 100.00%  work 60 28.57%  "
                        "loopy() l.c:11-12 -> l.c:14\n"
                        "  `-10 33.33%  work 20 9.52%  "
                        "loopy() l.c:11 -> l.c:15\n"
                        "\n"
                        "  10 12.50%  work 10 4.76%  loopy() l.c:10\n"
                        "  `-10 100.00%  work 30 14.29%  loopy() l.c:11-13\n"
                        "    `-10 100.00%  work 30 14.29%  "
                        "loopy() l.c:11-12 -> l.c:14\n"
                        "\n"
                        "  10 12.50%  work 20 9.52%  "
                        "loopy() l.c:11 -> l.c:15\n");
  free (text);

  /* Live views between rebuilds share the last built rows
     (pathforest.c, "Live views on a budget"): the same memory, not a
     copy, alive while any profile or the cache holds it, whatever order
     they are freed in.  (A rebuild happens when the budget allows: try
     a few times for a view that reuses.) */
  struct osp_profile full, a, b;
  CHECK_EQ (osp_profile_take (&full), 0);
  CHECK_EQ (osp_profile_take_live (&a), 0);
  int shared = 0;
  for (int i = 0; i < 20 && !shared; i++)
    {
      CHECK_EQ (osp_profile_take_live (&b), 0);
      shared = b.forest.rows == a.forest.rows && b.forest.rows != NULL;
      if (!shared)
        {
          osp_profile_free (&a);
          a = b;
        }
    }
  CHECK (shared);
  if (shared)
    {
      CHECK (b.forest.rows_age_ns > 0);
      osp_profile_free (&a); /* the cache and B still hold the rows */
      CHECK_EQ (b.forest.nrows, full.forest.nrows);
      for (uint32_t r = 0; r < b.forest.nrows && r < full.forest.nrows; r++)
        CHECK (b.forest.rows[r].count == full.forest.rows[r].count
               && b.forest.rows[r].nsteps == full.forest.rows[r].nsteps
               && b.forest.rows[r].steps[0].block
                      == full.forest.rows[r].steps[0].block);
    }
  osp_profile_free (&b);
  osp_profile_free (&full);
  return osp_test_failures ? 1 : 0;
}

/* ---- inline counters (instrument=counts) ------------------------------ */

static struct tg g_cnt;
static struct osp_fn_record r_cnt __attribute__ ((aligned (8)));
static uint64_t module_counts[16];

static int
scenario_counts (void)
{
  tg_loop (&g_cnt);
  tg_build (&g_cnt, &r_cnt, "counted", "c.c");
  r_cnt.flags |= OSP_FN_PATH_COUNTS | OSP_FN_PATH_CHECKS;
  CHECK (r_cnt.npaths <= 16);
  r_cnt.counts = module_counts;
  module_counts[2] = 5; /* counted before registration */
  struct osp_fn *f = fn_of (&r_cnt);
  CHECK (f != NULL);
  /* The runtime reads the counters in the module, the early count with
     them, until the module is released. */
  CHECK (f->counts == module_counts && f->kept != NULL);
  CHECK (r_cnt.counts == module_counts);
  CHECK_EQ (f->counts[2], 5);
  uint64_t want[4] = { 10, 30, 20, 40 };
  for (uint64_t id = 0; id < 4; id++)
    {
      r_cnt.counts[id] += want[id]; /* what the generated code does */
      osp_test_path_end (&r_cnt, id); /* the check of the same path end:
                                         the table must not count it */
    }
  want[2] += 5;
  osp_thread_settle (osp_thread_peek ());

  struct osp_profile p;
  CHECK_EQ (osp_profile_take (&p), 0);
  CHECK_EQ (p.paths.nrows, 4);
  uint64_t total = 0;
  for (uint32_t r = 0; r < p.paths.nrows; r++)
    {
      const struct osp_path_row *row = &p.paths.rows[r];
      CHECK (row->id < 4 && row->samples == want[row->id]);
      total += row->samples;
    }
  CHECK_EQ (p.paths.samples, total);
  CHECK_EQ (p.paths.ends_seen, 4); /* the checks' path ends */
  CHECK_EQ (p.paths.counter_bytes, r_cnt.npaths * 8);
  /* The edge profile is the rows' edges times their counts: the loop
     header's out-edges carry every path. */
  const uint64_t *e = p.paths.edges[f->id - 1];
  CHECK (e != NULL);
  uint64_t out = 0;
  for (uint32_t s = 0; s < f->blocks[1].nsucc; s++)
    out += e[f->blocks[1].succ + s];
  CHECK_EQ (out, want[1] + want[2] + want[3]);
  osp_profile_free (&p);

  /* The module's destructor (before a dlclose) hands the counts over:
     what the module adds afterwards is not read, and a repeat (another
     translation unit's destructor) changes nothing. */
  __osp_release_module (OSP_ABI_VERSION, &r_cnt, &r_cnt + 1);
  CHECK (f->counts == f->kept);
  module_counts[0] += 1000;
  __osp_release_module (OSP_ABI_VERSION, &r_cnt, &r_cnt + 1);
  CHECK_EQ (osp_profile_take (&p), 0);
  CHECK_EQ (p.paths.nrows, 4);
  for (uint32_t r = 0; r < p.paths.nrows; r++)
    CHECK (p.paths.rows[r].samples == want[p.paths.rows[r].id]);
  osp_profile_free (&p);

  /* A fork child starts over. */
  osp_pathprof_reset ();
  CHECK_EQ (f->counts[2], 0);
  return osp_test_failures ? 1 : 0;
}

/* paths=counter: a function with counters and no checks (what the
   plugin makes of a single-path function, and instrument=counts alone)
   is read from its counters, exactly, among the sampled rows; one with
   both is sampled like any other. */
static struct tg g_only, g_both;
static struct osp_fn_record r_only __attribute__ ((aligned (8)));
static struct osp_fn_record r_both __attribute__ ((aligned (8)));
static uint64_t only_counts[16], both_counts[16];

/* A thread that ends path 0 of record ARG (and so gets a state). */
static void *
end_one_path (void *arg)
{
  __atomic_store_n (&__osp_path_countdown, 1, __ATOMIC_RELAXED);
  osp_test_path_end (arg, 0);
  return NULL;
}

static int
scenario_counter_mix (void)
{
  tg_loop (&g_only);
  tg_build (&g_only, &r_only, "only", "o.c");
  r_only.flags |= OSP_FN_PATH_COUNTS;
  r_only.counts = only_counts;
  tg_loop (&g_both);
  tg_build (&g_both, &r_both, "both", "b.c");
  r_both.flags |= OSP_FN_PATH_COUNTS | OSP_FN_PATH_CHECKS;
  r_both.counts = both_counts;
  CHECK (r_only.npaths == 4 && r_both.npaths == 4);
  struct osp_fn *fo = fn_of (&r_only), *fb = fn_of (&r_both);
  CHECK (fo != NULL && fb != NULL);
  CHECK (osp_paths_counted (fo, OSP_PATHS_COUNTER));
  CHECK (!osp_paths_counted (fb, OSP_PATHS_COUNTER));
  CHECK (!osp_paths_counted (fo, OSP_PATHS_TIMER));
  uint64_t want[4] = { 1, 300, 0, 2000 };
  for (uint64_t id = 0; id < 4; id++)
    r_only.counts[id] += want[id];
  for (int rep = 0; rep < 2000; rep++)
    for (uint64_t id = 0; id < 4; id++)
      {
        r_both.counts[id]++;
        osp_test_path_end (&r_both, id);
      }
  osp_thread_settle (osp_thread_peek ());

  struct osp_profile p;
  CHECK_EQ (osp_profile_take (&p), 0);
  const struct osp_path_profile *pp = &p.paths;
  CHECK_EQ (pp->counted, 2301);
  CHECK_EQ (pp->ends_seen, 8000 + 2301);
  double shares = 0, sampled = 0;
  uint32_t exact = 0;
  for (uint32_t r = 0; r < pp->nrows; r++)
    {
      const struct osp_path_row *row = &pp->rows[r];
      shares += row->share;
      if (p.fns[row->fi] == fo)
        {
          /* Counts, not estimates: no interval, no scale. */
          CHECK (row->exact && row->err95 == 0);
          CHECK (row->id < 4 && row->samples == want[row->id]);
          CHECK (row->estimate == (double) want[row->id]);
          exact++;
        }
      else
        {
          CHECK (!row->exact && row->err95 > 0);
          CHECK (row->estimate == (double) row->samples * 10);
          sampled += row->estimate;
        }
    }
  CHECK_EQ (exact, 3); /* path 2 never ran */
  CHECK_EQ (pp->samples * 10, (uint64_t) sampled);
  CHECK (shares > 0.999999 && shares < 1.000001);
  /* Edges: counts for the counted function, samples for the other. */
  CHECK (osp_path_edge_scale (pp, fo) == 1);
  CHECK (osp_path_edge_scale (pp, fb) == 10);
  const uint64_t *e = pp->edges[fo->id - 1];
  CHECK (e != NULL);
  uint64_t out = 0;
  for (uint32_t s = 0; s < fo->blocks[1].nsucc; s++)
    out += e[fo->blocks[1].succ + s];
  CHECK_EQ (out, want[1] + want[2] + want[3]);
  CHECK_EQ (pp->counted_plain, 1); /* r_only: no OSP_FN_COUNTS_ATOMIC */
  char *text = format (OSP_FORMAT_TEXT, 20);
  CHECK_CONTAINS (text, "counted exactly 2301 (functions with counters and "
                        "no checks), samples ");
  CHECK_CONTAINS (text, "        2000        exact ");
  CHECK (strstr (text, "plain increments") == NULL); /* one thread */
  free (text);
  osp_profile_free (&p);

  /* A second thread: plain counters may have lost increments. */
  pthread_t th;
  CHECK_EQ (pthread_create (&th, NULL, end_one_path, &r_both), 0);
  CHECK_EQ (pthread_join (th, NULL), 0);
  text = format (OSP_FORMAT_TEXT, 20);
  CHECK_CONTAINS (text, "osp: 2 threads ran, and 1 functions count their "
                        "paths with plain increments");
  free (text);
  return osp_test_failures ? 1 : 0;
}

int
main (int argc, char **argv)
{
  /* These tests change the runtime's globals (options, the sampler's
     tables, the path table) under it: the publisher thread, which the
     constructor started, must not take a profile meanwhile (a data race
     ThreadSanitizer reports).  Its segment goes away now. */
  osp_publish_exit (NULL);
  if (argc > 1 && strcmp (argv[1], "table") == 0)
    return scenario_table ();
  if (argc > 1 && strcmp (argv[1], "report") == 0)
    return scenario_report ();
  if (argc > 1 && strcmp (argv[1], "forest") == 0)
    return scenario_forest ();
  if (argc > 1 && strcmp (argv[1], "counts") == 0)
    return scenario_counts ();
  if (argc > 1 && strcmp (argv[1], "counter-mix") == 0)
    return scenario_counter_mix ();

  test_decode ();
  test_verify ();
  test_checks ();
  test_geometric ();
  test_options ();
  CHECK_EQ (osp_test_run ("table", "mode=blocks:paths=exhaustive:"
                          "path_bytes=64k:report=none", NULL, NULL), 0);
  /* forest=off: the expected report is the path section alone (the forest
     section has its own tests). */
  CHECK_EQ (osp_test_run ("report", "mode=blocks:paths=exhaustive:"
                          "forest=off:path_bytes=64k:report=none", NULL,
                          NULL), 0);
  CHECK_EQ (osp_test_run ("counts", "mode=blocks:paths=exhaustive:"
                          "forest=off:report=none", NULL, NULL), 0);
  CHECK_EQ (osp_test_run ("counter-mix", "mode=blocks:paths=counter:"
                          "path_interval=10:seed=3:forest=off:report=none",
                          NULL, NULL), 0);
  CHECK_EQ (osp_test_run ("forest", "mode=blocks:paths=exhaustive:"
                          "forest=exhaustive:forest_k=3:forest_prune=0:"
                          "path_bytes=64k:report=none", NULL, NULL), 0);
  return osp_test_done ("t_paths");
}

/* SPDX-License-Identifier: MIT */
/* t_publish.c - live views (viewwrite.c, publish.c, crc32.c;
 * include/osp/view.h and shm.h).
 *
 *   crc32: zlib's check value and pieces; every length and alignment
 *     against the bit-by-bit definition.
 *   view: osp_view_write on a hand-made profile (three functions, subpaths
 *     with one of an unknown block, paths, a forest of three trees), the
 *     bytes validated by ospview's own parser (view_parse of the format
 *     library, libosprt/format/: there is one validation of a view, and
 *     what the runtime writes must pass it); the values against the
 *     profile; STATS against the tsv
 *     report's stat rows (same names, order and values), and one more,
 *     forest_rows_age_ms, when the forest's rows are older; then every
 *     buffer size from nothing to the whole view: each view that is
 *     written fits, is valid, is cut only at the end of the row sections
 *     (the forest at a tree's start when it can), and keeps more rows as
 *     the buffer grows.
 *   view cache: the views of a publisher that keeps the functions'
 *     sections from one view to the next (viewcache.c) against views
 *     written from scratch, byte for byte, as the rows, the counts
 *     (mode=blocks), RUN's strings and the functions change - a module
 *     registering between two views, a function list of the same length
 *     but another function - and when the view buffer is too small; the
 *     kept part is the one made for the functions in use.
 *   modules (scenario): the real publisher, a module registering
 *     between two views: the second view has its functions.
 *   stress (scenario): the real publisher every 50 ms (started by a
 *     viewer's request, shm.h `attach', at a program hook) plus a thread
 *     publishing back to back, a program thread changing counts, and two
 *     readers following osp/shm.h's protocol (one on the writer's own
 *     mapping, so ThreadSanitizer sees the seqlock, one on a mapping of
 *     its own, as ospview): every copy accepted must be a valid view, its
 *     seq and its counts never decreasing; and every other copy of the
 *     second reader is made to straddle three publishes (it waits halfway),
 *     which the protocol must refuse every time.  It runs 2 s, longer
 *     if need be (up to a scaled minute, testutil.h) until each reader
 *     has accepted 10 copies
 *     (and refused 10) and 20 views were published: a loaded machine or
 *     a sanitizer makes it slower, not wrong.
 *   lifecycle (scenarios run as separate processes): the segment exists
 *     with mode 0600 while the program runs, has no view until a viewer
 *     asks (the runtime's entries then start the publisher), carries its
 *     pid, program,
 *     arguments and options, is unlinked at exit while a reader still
 *     mapped sees the last view marked exited, and takes memory for its
 *     views only (not the two whole buffers); at start-up the segments of
 *     our pid namespace whose process is provably gone (its pid free, or
 *     held by a process of another start time) are swept, and nothing
 *     else (a dead pid of another pid namespace, a live process's); publish=off and
 *     mode=off create none; a name already taken, or no room for the
 *     segment (a file size limit), is one stderr line and the program
 *     runs on; a segment left by an exec'ed image of the same
 *     pid is replaced; a fork child publishes its own segment (made by its
 *     runtime entries publish_ms after the fork, views once asked) and
 *     leaves its parent's alone (under TSan or ASan it publishes none).
 */
#include "testutil.h"

#include "osprt.h"
#include "format/crc32.h"
#include "format/viewparse.h"
#include "osp/shm.h"
#include "osp/view.h"
#include "output/viewcache.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

/* publish.c: under ThreadSanitizer or AddressSanitizer a fork child does
   not publish. */
#if defined __SANITIZE_THREAD__ || defined __SANITIZE_ADDRESS__
#define SANITIZED 1
#elif defined __has_feature
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

/* ---- the view format library's parser ------------------------------- */

/* NULL if the LEN bytes at BUF (8-aligned) are a view that ospview
   accepts (view_parse, libosprt/format/viewparse.c: the one validation
   every reader uses) with every section this runtime writes, else what is
   wrong.  Fills V.  Per thread: the stress readers call it at once. */
static const char *
view_check (const void *buf, size_t len, struct view *v)
{
  static _Thread_local char err[256];
  memset (v, 0, sizeof *v);
  if (view_parse (v, buf, len, err, sizeof err) != 0)
    return err;
  if (v->hdr->nsections != 15 || v->fnsrc == NULL || v->stats == NULL
      || v->costs == NULL || v->fnwork == NULL || v->blines == NULL
      || v->lines == NULL)
    return "not every section of this minor version";
  return NULL;
}

/* ---- crc32 ----------------------------------------------------------- */

static void
test_crc32 (void)
{
  CHECK_EQ (osp_crc32 (0, "123456789", 9), 0xCBF43926u);
  CHECK_EQ (osp_crc32 (0, "", 0), 0);
  CHECK_EQ (osp_crc32 (0, "a", 1), 0xE8B7BE43u);
  uint32_t c = osp_crc32 (0, "1234", 4);
  CHECK_EQ (osp_crc32 (c, "56789", 5), 0xCBF43926u);
  /* Carry-less folding of 64 then 16 bytes where the CPU has it, eight
     bytes at a time, the rest one by one: every length and start
     (alignment) against the bit-by-bit definition, and against the same
     bytes checksummed in two pieces cut anywhere. */
  unsigned char buf[300];
  uint32_t x = 12345;
  for (size_t i = 0; i < sizeof buf; i++)
    {
      x = x * 1103515245u + 12345u;
      buf[i] = (unsigned char) (x >> 16);
    }
  for (size_t off = 0; off < 8; off++)
    for (size_t len = 0; off + len <= sizeof buf; len++)
      {
        uint32_t want = 0xFFFFFFFFu;
        for (size_t i = 0; i < len; i++)
          {
            want ^= buf[off + i];
            for (int b = 0; b < 8; b++)
              want = (want >> 1) ^ (0xEDB88320u & (0u - (want & 1u)));
          }
        want = ~want;
        CHECK_EQ (osp_crc32 (0, buf + off, len), want);
        size_t cut = len / 3;
        CHECK_EQ (osp_crc32 (osp_crc32 (0, buf + off, cut), buf + off + cut,
                             len - cut),
                  want);
      }
  /* Long: many 64-byte folds, then 16-byte ones, then single bytes. */
  static unsigned char big[100003];
  for (size_t i = 0; i < sizeof big; i++)
    big[i] = (unsigned char) (i * 2654435761u >> 13);
  uint32_t want = 0xFFFFFFFFu;
  for (size_t i = 0; i < sizeof big; i++)
    {
      want ^= big[i];
      for (int b = 0; b < 8; b++)
        want = (want >> 1) ^ (0xEDB88320u & (0u - (want & 1u)));
    }
  CHECK_EQ (osp_crc32 (0, big, sizeof big), ~want);
  CHECK_EQ (osp_crc32 (osp_crc32 (0, big, 777), big + 777, sizeof big - 777),
            ~want);
}

/* ---- a hand-made profile --------------------------------------------- */

static struct osp_block blk_a[4], blk_b[3], blk_c[2];
static struct osp_edge edg_a[4], edg_b[3], edg_c[2];
static struct osp_fn fn_a, fn_b, fn_c;
static struct osp_fn *fns[3];
static uint64_t words[9], *counts[3];
static uint32_t sub_words[64];
static struct osp_subpath subs[5];
static struct osp_path_step steps[64];
static struct osp_path_row prows[4];
static struct osp_forest_row frows[7];
static uint64_t *edges[3];

static void
make_fn (struct osp_fn *f, uint32_t id, const char *name, const char *file,
         struct osp_block *b, struct osp_edge *e, uint32_t n, uint32_t line,
         uint32_t base)
{
  memset (f, 0, sizeof *f);
  f->id = id;
  f->flags = OSP_FN_BLOCK_HOOKS;
  f->nblocks = n;
  f->first_line = line;
  f->name = (char *) name;
  f->file = (char *) file;
  f->blocks = b;
  f->block_base = base;
  f->edges = e;
  f->nedges = n;
  for (uint32_t i = 0; i < n; i++)
    {
      b[i].line_first = line + 2 * i;
      b[i].line_last = line + 2 * i + 1;
      /* a chain: block i -> i + 1, the last one -> the exit */
      b[i].nsucc = 1;
      b[i].succ = i;
      e[i].dst = i + 1 < n ? i + 1 : OSP_BLOCK_EXIT;
      e[i].flags = i == 0 ? OSP_EDGE_TRUE : OSP_EDGE_FALLTHRU;
    }
}

/* Subpath modes: 5 subpaths, the fourth with a block of no function. */
static void
make_profile (struct osp_profile *p, struct osp_options *o)
{
  osp_options_defaults (o);
  make_fn (&fn_a, 1, "alpha", "a.c", blk_a, edg_a, 4, 10, 0);
  make_fn (&fn_b, 2, "beta", "b.c", blk_b, edg_b, 3, 30, 4);
  make_fn (&fn_c, 3, "gamma", "a.c", blk_c, edg_c, 2, 50, 7);
  /* alpha's file as the plugin records it; beta's was not readable */
  fn_a.comp_dir = (char *) "/build";
  fn_a.file_size = 1234;
  fn_a.has_sha256 = 1;
  for (int i = 0; i < 32; i++)
    fn_a.file_sha256[i] = (uint8_t) (i * 7 + 1);
  fns[0] = &fn_a;
  fns[1] = &fn_b;
  fns[2] = &fn_c;
  counts[0] = words;
  counts[1] = words + 4;
  counts[2] = words + 7;
  memset (p, 0, sizeof *p);
  p->fns = fns;
  p->counts = counts;
  p->words = words;
  p->nfns = 3;
  p->modules = 1;
  p->functions = 3;
  p->threads = 2;
  p->pid = 4242;
  p->mode = OSP_MODE_SUBPATHS;
  p->subpaths.walk[OSP_W_BLOCKS_SEEN] = 100000;
  p->subpaths.walk[OSP_W_BLOCKS_SAMPLED] = 500;
  p->subpaths.walk[OSP_W_STARTS] = 90;
  p->subpaths.walk[OSP_W_SAMPLES] = 88;
  p->seed = 7;
  p->subpaths.nstrata = 2;
  p->subpaths.strata[0] = (struct osp_stratum) { 2, 2, 1.5, 3 };
  p->subpaths.strata[1] = (struct osp_stratum) { 4, 1024, 2.25, 2 };
  p->subpaths.hl.threshold = 2.25;
  p->subpaths.hl.entries = 5;

  /* subpaths: lengths 2, 3, 2, 2 (unknown block 999), 4 */
  static const uint32_t sb[] = { 0, 1, 4, 5, 6, 7, 8, 999, 1, 0, 1, 2, 3 };
  static const uint32_t sl[] = { 2, 3, 2, 2, 4 };
  memcpy (sub_words, sb, sizeof sb);
  uint32_t at = 0;
  for (uint32_t i = 0; i < 5; i++)
    {
      subs[i].len = sl[i];
      subs[i].blocks = sub_words + at;
      subs[i].count = 100 - 10 * i;
      subs[i].threshold = 1;
      subs[i].estimate = 1000.5 - 100 * i;
      subs[i].err95 = i == 4 ? 700 : 12.25; /* the last: too few to rank */
      subs[i].share = 0.01 * (5 - i);
      subs[i].scale = 40 + i;
      subs[i].error = i;
      subs[i].kind = OSP_EST_SPACE_SAVING;
      at += sl[i];
    }
  p->subpaths.subs = subs;
  p->subpaths.nsubs = 5;
  p->subpaths.sub_words = sub_words;

  /* paths: alpha 0-1-3, beta 0-2, alpha 0-2-3, gamma 0-1 */
  static const struct path_spec
  {
    uint32_t fi, n, b[4];
  } ps[4] = { { 0, 3, { 0, 1, 3 } }, { 1, 2, { 0, 2 } },
              { 0, 3, { 0, 2, 3 } }, { 2, 2, { 0, 1 } } };
  uint32_t sat = 0;
  for (uint32_t r = 0; r < 4; r++)
    {
      prows[r].fi = ps[r].fi;
      prows[r].nsteps = ps[r].n;
      prows[r].id = r * 3;
      prows[r].samples = 40 - r;
      prows[r].steps = steps + sat;
      prows[r].branches = r % 2;
      prows[r].estimate = 4000 - 100 * r;
      prows[r].err95 = r == 3 ? 5000 : 7; /* the last: too few to rank */
      prows[r].share = 0.1 * (4 - r);
      for (uint32_t k = 0; k < ps[r].n; k++)
        steps[sat++] = (struct osp_path_step) { ps[r].b[k], 0 };
    }
  p->paths.shown = 1;
  p->paths.functions = 3;
  p->paths.rows = prows;
  p->paths.nrows = 4;
  p->paths.edges = edges;
  p->paths.scale = 1000;
  p->paths.ends_seen = 123456;
  p->paths.samples = 150;

  /* forest: tree {0: root, 1: child, 2: grandchild, 3: child}, tree {4},
     tree {5: root, 6: child} */
  static const struct forest_spec
  {
    uint32_t parent, depth, fi, n, b[3];
  } fs[7] = { { UINT32_MAX, 0, 0, 3, { 0, 1, 3 } }, { 0, 1, 0, 3, { 0, 2, 3 } },
              { 1, 2, 0, 2, { 0, 1 } },          { 0, 1, 0, 1, { 0 } },
              { UINT32_MAX, 0, 1, 2, { 0, 2 } }, { UINT32_MAX, 0, 2, 2, { 0, 1 } },
              { 5, 1, 2, 1, { 1 } } };
  for (uint32_t r = 0; r < 7; r++)
    {
      frows[r].parent = fs[r].parent;
      frows[r].depth = fs[r].depth;
      frows[r].fi = fs[r].fi;
      frows[r].nsteps = fs[r].n;
      frows[r].id = 100 + r;
      frows[r].count = 70 - r;
      frows[r].steps = steps + sat;
      frows[r].estimate = 700 - 10 * r;
      frows[r].err95 = r == 6 ? 1000 : 3; /* the last: too few to rank */
      frows[r].share = 50.0 - r;
      for (uint32_t k = 0; k < fs[r].n; k++)
        steps[sat++] = (struct osp_path_step) { fs[r].b[k], 0 };
    }
  p->forest.shown = 1;
  p->forest.policy = OSP_FOREST_BURST;
  p->forest.k = 8;
  p->forest.scale = 2.5;
  p->forest.rows = frows;
  p->forest.nrows = 7;
  p->forest.trees = 3;
}

static struct osp_view_run
make_run (const struct osp_options *o)
{
  struct osp_view_run run = {
    .pid = 4242, .start_ns = 11, .instance_id = 0xabcdef, .time_ns = 22,
    .program = "/bin/prog", .args = "prog -x 1", .options = "mode=subpaths",
    .opts = o, .exited = 1,
  };
  return run;
}

/* The tsv report's stat rows of P must be the view's STATS, in order. */
static void
check_stats_match_tsv (const struct view *v, const struct osp_profile *p,
                       struct osp_options *o)
{
  o->report_format = OSP_FORMAT_TSV;
  char *tsv = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&tsv, &len);
  CHECK_EQ (osp_report_format (f, p, o), 0);
  fclose (f);
  uint64_t i = 0;
  int rows = 0;
  for (char *line = strtok (tsv, "\n"); line; line = strtok (NULL, "\n"))
    {
      if (strncmp (line, "stat\t", 5) != 0)
        continue;
      rows++;
      char *name = line + 5, *tab = strchr (name, '\t');
      if (tab == NULL || i >= v->nstats)
        {
          CHECK (!"more stat rows in the tsv than in the view");
          break;
        }
      *tab = '\0';
      const char *value = tab + 1;
      const struct osp_vstat *st = &v->stats[i++];
      CHECK_STR (v->strings + st->name, name);
      char got[128];
      if (st->kind == OSP_VSTAT_U64)
        snprintf (got, sizeof got, "%llu", (unsigned long long) st->value);
      else if (st->kind == OSP_VSTAT_F64)
        {
          double d;
          memcpy (&d, &st->value, sizeof d);
          snprintf (got, sizeof got, "%.6g", d);
        }
      else
        snprintf (got, sizeof got, "%s", v->strings + st->value);
      CHECK_STR (got, value);
    }
  CHECK_EQ (i, v->nstats);
  CHECK (rows > 40); /* the subpath, path and forest stats are all there */
  free (tsv);
}

static void
test_view (void)
{
  struct osp_profile p;
  struct osp_options o;
  make_profile (&p, &o);
  struct osp_view_run run = make_run (&o);
  size_t cap = 1 << 16;
  uint64_t *buf = malloc (cap);
  int truncated = -1;
  size_t n = osp_view_write (buf, cap, &p, &run, 5, &truncated, NULL);
  CHECK (n > 0 && n % 8 == 0);
  CHECK_EQ (truncated, 0);
  struct view v;
  const char *why = view_check (buf, n, &v);
  if (why)
    fprintf (stderr, "view: %s\n", why);
  CHECK (why == NULL);
  if (why)
    {
      free (buf);
      return;
    }
  CHECK_EQ (v.hdr->seq, 5);
  CHECK_EQ (v.hdr->time_ns, 22);
  CHECK_EQ (v.hdr->nsections, 15);
  /* minor 3: a cost per block, self figures per function */
  CHECK_EQ (v.ncosts, v.nblocks);
  CHECK_EQ (v.nfnwork, v.nfns);
  /* minor 4: where each block's statement lines are */
  CHECK_EQ (v.nblines, v.nblocks);
  CHECK_EQ (v.run.pid, 4242);
  CHECK_EQ (v.run.instance_id, 0xabcdef);
  CHECK_EQ (v.run.exited, 1);
  CHECK_STR (v.strings + v.run.program, "/bin/prog");
  CHECK_STR (v.strings + v.run.args, "prog -x 1");
  CHECK_STR (v.strings + v.run.mode, "subpaths");
  CHECK_STR (v.strings + v.run.paths, "counter");
  CHECK_STR (v.strings + v.run.forest, "burst");
  CHECK_EQ (v.run.blocks_seen, 100000);
  CHECK_EQ (v.run.path_ends, 123456);
  CHECK (v.run.path_scale == 1000 && v.run.forest_scale == 2.5);
  CHECK_EQ (v.run.forest_k, 8);

  CHECK_EQ (v.nfns, 3);
  CHECK_EQ (v.nblocks, 9);
  CHECK_STR (v.strings + v.fns[1].name, "beta");
  CHECK_EQ (v.fns[2].id, 3);
  CHECK_EQ (v.fns[0].file, v.fns[2].file); /* "a.c" once */
  CHECK (v.fns[0].file != v.fns[1].file);
  CHECK_EQ (v.fns[0].calls, OSP_VIEW_NONE); /* no counts in subpath modes */
  /* each function's source digest and directory, as registered */
  CHECK_EQ (v.fnsrc[0].flags, OSP_VSRC_DIGEST);
  CHECK_EQ (v.fnsrc[0].size, 1234);
  CHECK_EQ (v.fnsrc[0].sha256[31], 31 * 7 + 1);
  CHECK_STR (v.strings + v.fnsrc[0].comp_dir, "/build");
  CHECK (v.fnsrc[1].flags == 0 && v.fnsrc[1].size == 0);
  CHECK_STR (v.strings + v.fnsrc[1].comp_dir, "");
  CHECK_EQ (v.blocks[5].fn, 1);
  CHECK_EQ (v.blocks[5].block, 1);
  CHECK_EQ (v.blocks[5].first_line, 32);
  CHECK_EQ (v.blocks[5].last_line, 33);
  CHECK_EQ (v.blocks[5].count, OSP_VIEW_NONE);
  /* Every function's successor lists, in BLOCKS indices. */
  CHECK_EQ (v.nedges, 9);
  if (v.nedges == 9)
    {
      CHECK (v.edges[0].from == 0 && v.edges[0].to == 1
             && v.edges[0].flags == OSP_EDGE_TRUE);
      CHECK (v.edges[3].from == 3 && v.edges[3].to == OSP_VIEW_EXIT);
      CHECK (v.edges[4].from == 4 && v.edges[4].to == 5
             && v.edges[4].flags == OSP_EDGE_TRUE);
      CHECK (v.edges[8].from == 8 && v.edges[8].to == OSP_VIEW_EXIT
             && v.edges[8].flags == OSP_EDGE_FALLTHRU);
    }

  /* The subpath with block 999 is left out; ranks stay the report's. */
  CHECK_EQ (v.nsubpaths, 4);
  static const uint32_t rank[] = { 1, 2, 3, 5 };
  for (uint32_t i = 0; i < 4 && i < v.nsubpaths; i++)
    {
      const struct osp_subpath *s = &subs[rank[i] - 1];
      CHECK_EQ (v.subpaths[i].rank, rank[i]);
      CHECK_EQ (v.subpaths[i].len, s->len);
      CHECK_EQ (v.subpaths[i].count, s->count);
      CHECK (v.subpaths[i].estimate == s->estimate && v.subpaths[i].share == s->share);
      for (uint32_t k = 0; k < s->len; k++)
        CHECK_EQ (v.ids[v.subpaths[i].ids + k], s->blocks[k]); /* block0s agree */
      /* view minor 4: the runtime's ranked flag and the evidence */
      CHECK_EQ (view_subpath_ranked (&v, i), !osp_subpath_few (s));
      struct view_evidence ev;
      CHECK (view_subpath_evidence (&v, i, &ev));
      CHECK (ev.count == s->count && ev.threshold == 1 && ev.scale == s->scale
             && ev.error == s->error
             && ev.estimator == OSP_VSUB_EST_SPACE_SAVING);
    }
  CHECK_EQ (v.subpath_size, sizeof (struct osp_vsubpath));
  CHECK (v.nsubpaths == 4 && !view_subpath_ranked (&v, 3)); /* rank 5 */
  CHECK_EQ (v.npaths, 4);
  for (uint32_t r = 0; r < 4 && r < v.npaths; r++)
    {
      CHECK_EQ (v.paths[r].rank, r + 1);
      CHECK_EQ (v.paths[r].fn, prows[r].fi);
      CHECK_EQ (v.paths[r].id, prows[r].id);
      CHECK_EQ (v.paths[r].samples, prows[r].samples);
      CHECK_EQ (v.paths[r].branches, prows[r].branches);
      CHECK (v.paths[r].share == prows[r].share);
      for (uint32_t k = 0; k < prows[r].nsteps; k++)
        CHECK_EQ (v.ids[v.paths[r].ids + k],
                  v.fns[prows[r].fi].block0 + prows[r].steps[k].block);
      /* view minor 5: the runtime's ranked flag */
      CHECK_EQ (view_path_ranked (&v, r), r != 3);
    }
  CHECK_EQ (v.path_size, sizeof (struct osp_vpath));
  CHECK_EQ (v.nforest, 7);
  for (uint32_t r = 0; r < 7 && r < v.nforest; r++)
    {
      CHECK_EQ (v.forest[r].parent, frows[r].parent);
      CHECK_EQ (v.forest[r].count, frows[r].count);
      CHECK (v.forest[r].share == frows[r].share / 100.0);
      CHECK_EQ (v.forest[r].len, frows[r].nsteps);
      CHECK_EQ (view_forest_ranked (&v, r), r != 6); /* minor 5 */
    }
  CHECK_EQ (v.forest_size, sizeof (struct osp_vforest));
  const struct osp_vstat *st = view_stat_named (&v, "threshold_4-1024");
  CHECK (st != NULL && st->kind == OSP_VSTAT_F64);
  st = view_stat_named (&v, "policy");
  CHECK (st != NULL && st->kind == OSP_VSTAT_STR
         && strcmp (v.strings + st->value, "spacesaving") == 0);
  st = view_stat_named (&v, "blocks_seen");
  CHECK (st != NULL && st->kind == OSP_VSTAT_U64 && st->value == 100000);
  check_stats_match_tsv (&v, &p, &o);

  /* Forest rows older than the view (a live view on the forest's budget,
     pathforest.c): one more stat, last, with their age; none when the
     rows are of now (above). */
  CHECK (view_stat_named (&v, "forest_rows_age_ms") == NULL);
  p.forest.rows_age_ns = 1500000000u;
  uint64_t *aged = malloc (cap);
  size_t na = osp_view_write (aged, cap, &p, &run, 6, &truncated, NULL);
  struct view va;
  CHECK (na > 0 && view_check (aged, na, &va) == NULL);
  if (na > 0 && view_check (aged, na, &va) == NULL)
    {
      CHECK_EQ (va.nstats, v.nstats + 1);
      st = view_stat_named (&va, "forest_rows_age_ms");
      CHECK (st != NULL && st == &va.stats[va.nstats - 1]
             && st->kind == OSP_VSTAT_U64 && st->value == 1500);
    }
  free (aged);
  p.forest.rows_age_ns = 0;

  /* Every size: nothing, then views cut at the end of the rows, then the
     whole view. */
  size_t full = n;
  uint64_t last_sub = 0, last_path = 0, last_forest = 0;
  size_t first = 0;
  uint64_t *small = malloc (full);
  for (size_t c = 0; c <= full; c += 8)
    {
      memset (small, 0xa5, full);
      size_t m = osp_view_write (small, c, &p, &run, 1, &truncated, NULL);
      if (m == 0)
        {
          CHECK_EQ (first, 0); /* no gap once views fit */
          continue;
        }
      if (first == 0)
        first = c;
      CHECK (m <= c);
      CHECK_EQ (truncated, c < full);
      struct view w;
      why = view_check (small, m, &w);
      if (why)
        {
          fprintf (stderr, "cap %zu: %s\n", c, why);
          CHECK (why == NULL);
          break;
        }
      CHECK_EQ (w.nfns, 3);
      CHECK_EQ (w.nblocks, 9);
      CHECK_EQ (w.nstats, v.nstats);
      CHECK (w.nsubpaths >= last_sub && w.npaths >= last_path
             && w.nforest >= last_forest);
      last_sub = w.nsubpaths;
      last_path = w.npaths;
      last_forest = w.nforest;
      /* The forest is cut at a tree's start, unless within the first. */
      if (w.nforest > 0 && w.nforest < 7)
        CHECK (frows[w.nforest].parent == UINT32_MAX || w.nforest < 4);
      for (uint64_t r = 0; r < w.nforest; r++)
        CHECK_EQ (w.forest[r].count, frows[r].count);
    }
  CHECK (first > 0 && first < full);
  CHECK_EQ (last_sub, 4);
  CHECK_EQ (last_forest, 7);
  /* The first view that fits has no rows at all. */
  CHECK_EQ (osp_view_write (small, first, &p, &run, 1, &truncated, NULL) > 0, 1);
  struct view w;
  CHECK (view_check (small, osp_view_write (small, first, &p, &run, 1,
                                            &truncated, NULL),
                     &w)
         == NULL);
  CHECK (w.nsubpaths == 0 && w.npaths == 0 && w.nforest == 0 && truncated);

  /* mode=blocks: calls and counts. */
  p.mode = OSP_MODE_BLOCKS;
  p.subpaths.nsubs = 0;
  for (int i = 0; i < 9; i++)
    words[i] = 10 * (uint64_t) i + 1;
  blk_b[2].flags = OSP_BB_NO_HOOK;
  n = osp_view_write (buf, cap, &p, &run, 6, &truncated, NULL);
  CHECK (n > 0 && view_check (buf, n, &v) == NULL);
  if (n > 0 && view_check (buf, n, &v) == NULL)
    {
      CHECK_STR (v.strings + v.run.mode, "blocks");
      CHECK_EQ (v.fns[1].calls, 41);
      CHECK_EQ (v.blocks[5].count, 51);
      CHECK_EQ (v.blocks[6].count, OSP_VIEW_NONE);
      CHECK_EQ (v.run.blocks_seen, 1 + 11 + 21 + 31 + 41 + 51 + 71 + 81);
      st = view_stat_named (&v, "block_entries");
      CHECK (st != NULL && st->value == v.run.blocks_seen);
      check_stats_match_tsv (&v, &p, &o);
    }
  blk_b[2].flags = 0;
  free (small);
  free (buf);
}

/* ---- the publisher's cache ------------------------------------------ */

/* P written with CACHE into WITH and from scratch into WITHOUT (CAP bytes
   each): the same bytes, and a view ospview accepts (so every CRC the
   cache kept or continued is right).  The view's size, 0 if none. */
static size_t
both_ways (struct osp_view_cache *cache, const struct osp_profile *p,
           const struct osp_view_run *run, size_t cap, uint64_t *with,
           uint64_t *without, struct view *v)
{
  int t1 = -1, t2 = -1;
  memset (with, 0x5a, cap);
  memset (without, 0xa5, cap);
  size_t n = osp_view_write (with, cap, p, run, 9, &t1, cache);
  size_t m = osp_view_write (without, cap, p, run, 9, &t2, NULL);
  CHECK_EQ (n, m);
  CHECK_EQ (t1, t2);
  CHECK (n == m && memcmp (with, without, n) == 0);
  if (n == 0)
    return 0;
  const char *why = view_check (with, n, v);
  if (why)
    fprintf (stderr, "view cache: %s\n", why);
  CHECK (why == NULL);
  return why == NULL ? n : 0;
}

static void
test_view_cache (void)
{
  struct osp_profile p;
  struct osp_options o;
  make_profile (&p, &o);
  struct osp_view_run run = make_run (&o);
  size_t cap = 1 << 16;
  uint64_t *with = malloc (cap), *without = malloc (cap);
  struct osp_view_cache cache = { NULL };
  struct view v;

  /* The first view makes the part and keeps it. */
  CHECK (both_ways (&cache, &p, &run, cap, with, without, &v) > 0);
  CHECK (cache.part != NULL && cache.part->nfns == 3);
  const struct osp_view_part *kept = cache.part;

  /* Rows, statistics and a string statistic change: the part serves. */
  for (uint32_t i = 0; i < p.subpaths.nsubs; i++)
    {
      subs[i].count += 7 * i;
      subs[i].estimate *= 1.5;
    }
  p.subpaths.walk[OSP_W_BLOCKS_SEEN] = 200000;
  o.policy = HL_COUNTING; /* a string statistic the part does not have */
  prows[1].samples = 99;
  p.forest.rows_age_ns = 2000000000u;
  CHECK (both_ways (&cache, &p, &run, cap, with, without, &v) > 0);
  CHECK (cache.part == kept);

  /* A module registers: a fourth function (blocks 9..13, its own name and
     file), and a subpath through it.  A view made with the kept part
     would have three functions, nine blocks and no such subpath. */
  static struct osp_block blk_d[5];
  static struct osp_edge edg_d[5];
  static struct osp_fn fn_d, fn_e;
  struct osp_fn *fns4[4] = { &fn_a, &fn_b, &fn_c, &fn_d };
  make_fn (&fn_d, 4, "delta", "d.c", blk_d, edg_d, 5, 70, 9);
  fn_d.comp_dir = (char *) "/elsewhere";
  p.fns = fns4;
  p.nfns = 4;
  sub_words[0] = 11; /* the first subpath: blocks 11, 12 (delta's) */
  sub_words[1] = 12;
  CHECK (both_ways (&cache, &p, &run, cap, with, without, &v) > 0);
  CHECK_EQ (v.nfns, 4);
  CHECK_EQ (v.nblocks, 14);
  CHECK (v.nfns == 4 && strcmp (v.strings + v.fns[3].name, "delta") == 0);
  CHECK (v.nsubpaths == 4 && v.ids[v.subpaths[0].ids] == 11);
  CHECK (cache.part != NULL && cache.part->nfns == 4);

  /* As many functions, one of them another: made again too. */
  make_fn (&fn_e, 4, "epsilon", "e.c", blk_d, edg_d, 5, 90, 9);
  fns4[3] = &fn_e;
  CHECK (both_ways (&cache, &p, &run, cap, with, without, &v) > 0);
  CHECK (v.nfns == 4 && strcmp (v.strings + v.fns[3].name, "epsilon") == 0);
  CHECK (cache.part != NULL && cache.part->fns[3] == &fn_e);

  /* RUN's strings (interned first, before the functions') change. */
  run.options = "mode=subpaths:interval=7";
  CHECK (both_ways (&cache, &p, &run, cap, with, without, &v) > 0);
  CHECK (strcmp (v.strings + v.run.options, "mode=subpaths:interval=7") == 0);
  p.forest.shown = 0;
  CHECK (both_ways (&cache, &p, &run, cap, with, without, &v) > 0);
  CHECK_EQ (v.run.forest, 0);
  p.forest.shown = 1;

  /* mode=blocks: FUNCS' calls and BLOCKS' counts change between views. */
  static uint64_t words4[14];
  uint64_t *counts4[4] = { words4, words4 + 4, words4 + 7, words4 + 9 };
  p.counts = counts4;
  p.words = words4;
  p.mode = OSP_MODE_BLOCKS;
  p.subpaths.nsubs = 0;
  for (int round = 0; round < 2; round++)
    {
      for (int i = 0; i < 14; i++)
        words4[i] = (uint64_t) (round + 1) * (3 * (uint64_t) i + 1);
      CHECK (both_ways (&cache, &p, &run, cap, with, without, &v) > 0);
      CHECK (v.nfns == 4 && v.fns[3].calls == words4[9]);
      CHECK (v.nblocks == 14 && v.blocks[13].count == words4[13]);
    }

  /* A buffer too small for the functions: no view, but the part is kept,
     and a larger buffer's view uses it (the snapshot's tries). */
  CHECK_EQ (both_ways (&cache, &p, &run, 512, with, without, &v), 0);
  kept = cache.part;
  CHECK (kept != NULL);
  CHECK (both_ways (&cache, &p, &run, cap, with, without, &v) > 0);
  CHECK (cache.part == kept);

  /* Block ids that are not BLOCKS indices (a profile whose functions'
     block_base leave gaps): the subpaths' blocks are searched for. */
  p.mode = OSP_MODE_SUBPATHS;
  p.subpaths.nsubs = 5;
  fn_e.block_base = 100; /* blocks 100..104 */
  sub_words[0] = 101;
  sub_words[1] = 102;
  CHECK (both_ways (&cache, &p, &run, cap, with, without, &v) > 0);
  CHECK (cache.part != NULL && !cache.part->gid_is_index);
  CHECK (v.nsubpaths == 4 && v.ids[v.subpaths[0].ids] == 10);

  osp_view_cache_clear (&cache);
  CHECK (cache.part == NULL);
  free (with);
  free (without);
}

/* ---- reading a segment (osp/shm.h's reader protocol) ----------------- */

static char shm_path[128];

static const char *
segment_path (long pid)
{
  snprintf (shm_path, sizeof shm_path, "%s%s%lu-%ld", OSP_SHM_DIR,
            OSP_SHM_PREFIX, (unsigned long) geteuid (), pid);
  return shm_path;
}

/* Map the segment of PID read-only (NULL if none); *SIZE its size. */
static const struct osp_shm_header *
map_segment (long pid, size_t *size)
{
  int fd = open (segment_path (pid), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  struct stat st;
  void *m = MAP_FAILED;
  if (fstat (fd, &st) == 0 && st.st_size >= (off_t) sizeof (struct osp_shm_header))
    m = mmap (NULL, (size_t) st.st_size, PROT_READ, MAP_SHARED, fd, 0);
  close (fd);
  if (m == MAP_FAILED)
    return NULL;
  *size = (size_t) st.st_size;
  return m;
}

/* Ask the process of the segment at PATH for views, as ospview does
   (shm.h, `attach'): one store through a descriptor opened for writing. */
static int
ask (const char *path)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  uint32_t one = 1;
  int ok = fd >= 0
           && pwrite (fd, &one, sizeof one,
                      (off_t) offsetof (struct osp_shm_header, attach))
                  == (ssize_t) sizeof one;
  if (fd >= 0)
    close (fd);
  return ok ? 0 : -1;
}

/* What the runtime's entries do between their work (runtime.c): look for
   a viewer's request, a fork child's segment due; enough times for the
   slow path's gate (publish.c, once every 256 entries when only
   something time-gated is pending). */
static void
runtime_entries (void)
{
  for (int i = 0; i < 256; i++)
    osp_entry_poll ();
}

struct read_stats
{
  uint64_t accepted, retries, giveups, bad, spoiled;
};

static atomic_int stop;

/* One attempt of osp/shm.h's reader protocol on H into BUF (H->buf_cap
   bytes): 1 with the view's length in *LEN (0: none published yet), or 0
   when it must be retried.  SPOIL: halfway through the copy, wait until
   the writer has published three more views, so the buffer being copied
   has been rewritten under the copy (the attempt must then fail). */
static int
read_once (const struct osp_shm_header *h, uint64_t *buf, uint64_t *len,
           int spoil, struct read_stats *rs)
{
  uint64_t b = atomic_load_explicit (&h->current, memory_order_acquire);
  if (b > 1)
    {
      rs->bad++;
      return 0;
    }
  uint64_t s1 = atomic_load_explicit (&h->seq[b], memory_order_acquire);
  if (s1 & 1)
    return 0;
  uint64_t l = atomic_load_explicit (&h->len[b], memory_order_relaxed);
  if (l > h->buf_cap || l % 8)
    return 0;
  const uint64_t *src = (const uint64_t *) ((const char *) h + h->buf_off[b]);
  uint64_t p0 = atomic_load_explicit (&h->publishes, memory_order_relaxed);
  for (uint64_t i = 0; i < l / 8; i++)
    {
      if (spoil && i == l / 16)
        while (atomic_load_explicit (&h->publishes, memory_order_relaxed)
                   < p0 + 3
               && !atomic_load_explicit (&stop, memory_order_relaxed))
          sched_yield ();
      buf[i] = __atomic_load_n (&src[i], __ATOMIC_RELAXED);
    }
  atomic_thread_fence (memory_order_acquire);
  if (atomic_load_explicit (&h->seq[b], memory_order_relaxed) != s1)
    return 0;
  *len = l;
  return 1;
}

/* The newest view: its length, 0 if none yet, -1 after the retries. */
static long
read_view (const struct osp_shm_header *h, uint64_t *buf,
           struct read_stats *rs)
{
  for (int tries = 0; tries < 64; tries++)
    {
      uint64_t l;
      if (read_once (h, buf, &l, 0, rs))
        return (long) l;
      rs->retries++;
    }
  rs->giveups++;
  return -1;
}

/* ---- scenario: stress ------------------------------------------------ */

/* Views of some size (~100 KB: 128 functions of 16 blocks), so that a
   reader's copy takes long enough to overlap writes. */
#define SFNS 128
static struct osp_fn_record srec[SFNS] __attribute__ ((aligned (8)));
static uint32_t scfg[SFNS][6 * 16];

static void *
program_thread (void *arg)
{
  (void) arg;
  while (!atomic_load_explicit (&stop, memory_order_relaxed))
    for (uint32_t f = 0; f < SFNS; f++)
      for (uint32_t b = 0; b < 16; b++)
        osp_test_block (&srec[f], b);
  return NULL;
}

/* Set by the writer, and by each reader, once it has done what the
   scenario checks it did (the scenario runs until then: on a loaded
   machine 2 s may not be enough, and a test checks behaviour, not
   speed). */
static atomic_int writer_enough, readers_enough;

static void *
writer_thread (void *arg)
{
  atomic_uint_fast64_t *n = arg;
  while (!atomic_load_explicit (&stop, memory_order_relaxed))
    if (osp_publish_now () == 0 && ++*n == 10)
      atomic_store (&writer_enough, 1);
  return NULL;
}

struct reader
{
  const struct osp_shm_header *h;
  int spoiler; /* every other read is spoiled (read_once) */
  struct read_stats rs;
  const char *problem;
};

static void *
reader_thread (void *arg)
{
  struct reader *r = arg;
  uint64_t *buf = malloc (r->h->buf_cap);
  uint64_t last_seq = 0, last_count = 0;
  int done = 0;
  while (!atomic_load_explicit (&stop, memory_order_relaxed) && !r->problem)
    {
      if (!done && r->rs.accepted >= 10 && (!r->spoiler || r->rs.spoiled >= 10))
        {
          done = 1;
          atomic_fetch_add (&readers_enough, 1);
        }
      uint64_t len;
      if (r->spoiler && (r->rs.accepted + r->rs.spoiled) % 2)
        {
          if (read_once (r->h, buf, &len, 1, &r->rs))
            {
              if (!atomic_load (&stop))
                r->problem = "a copy overwritten under it was accepted";
            }
          else
            r->rs.spoiled++;
          continue;
        }
      long l = read_view (r->h, buf, &r->rs);
      if (l <= 0)
        continue;
      struct view v;
      const char *why = view_check (buf, (size_t) l, &v);
      if (why)
        {
          r->problem = why;
          break;
        }
      if (v.hdr->seq < last_seq)
        r->problem = "seq decreased";
      if (v.nblocks >= 1 && v.blocks[0].count != OSP_VIEW_NONE)
        {
          if (v.blocks[0].count < last_count)
            r->problem = "a count decreased";
          last_count = v.blocks[0].count;
        }
      last_seq = v.hdr->seq;
      r->rs.accepted++;
    }
  if (!done) /* a problem: no use waiting for more */
    atomic_fetch_add (&readers_enough, 1);
  free (buf);
  return NULL;
}

static int
scenario_stress (void)
{
  static char names[SFNS][16];
  for (int f = 0; f < SFNS; f++)
    {
      snprintf (names[f], sizeof names[f], "spin%d", f);
      osp_test_chain (&srec[f], scfg[f], names[f], "spin.c", 16,
                      (uint32_t) (1 + 20 * f));
    }
  __osp_register_module (OSP_ABI_VERSION, srec, srec + SFNS);
  struct reader r[2];
  memset (r, 0, sizeof r);
  r[0].h = osp_publish_segment ();
  r[1].spoiler = 1;
  size_t size;
  r[1].h = map_segment ((long) getpid (), &size);
  if (r[0].h == NULL || r[1].h == NULL)
    {
      puts ("no segment");
      return 1;
    }
  /* The real publisher starts at the program thread's next hooks. */
  if (ask (segment_path ((long) getpid ())) != 0)
    {
      puts ("cannot ask for views");
      return 1;
    }
  atomic_uint_fast64_t published = 0;
  pthread_t prog, wr, rd[2];
  pthread_create (&prog, NULL, program_thread, NULL);
  pthread_create (&wr, NULL, writer_thread, &published);
  for (int i = 0; i < 2; i++)
    pthread_create (&rd[i], NULL, reader_thread, &r[i]);
  /* At least 2 s, then until every thread has done enough or a scaled
     minute has passed (the checks below then fail). */
  struct timespec ts = { 2, 0 };
  nanosleep (&ts, NULL);
  double end = osp_test_deadline (60);
  while (!(atomic_load (&r[0].h->publishes) >= 20
           && atomic_load (&writer_enough)
           && atomic_load (&readers_enough) == 2)
         && !osp_test_expired (end))
    osp_test_nap ();
  atomic_store (&stop, 1);
  pthread_join (prog, NULL);
  pthread_join (wr, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join (rd[i], NULL);
  const struct osp_shm_header *h = r[0].h;
  uint64_t publishes = atomic_load (&h->publishes);
  printf ("stress: %llu views published (%llu back to back), %llu "
          "truncated, %.1f us per publish\n",
          (unsigned long long) publishes, (unsigned long long) published,
          (unsigned long long) atomic_load (&h->truncated),
          publishes ? atomic_load (&h->publish_ns) / 1e3 / publishes : 0.0);
  int rc = 0;
  for (int i = 0; i < 2; i++)
    {
      printf ("reader %d (%s mapping): %llu views accepted, %llu retries, "
              "%llu gave up, %llu bad, %llu spoiled copies refused\n", i,
              i ? "own" : "the writer's",
              (unsigned long long) r[i].rs.accepted,
              (unsigned long long) r[i].rs.retries,
              (unsigned long long) r[i].rs.giveups,
              (unsigned long long) r[i].rs.bad,
              (unsigned long long) r[i].rs.spoiled);
      if (r[i].problem)
        printf ("reader %d: %s\n", i, r[i].problem);
      if (r[i].problem || r[i].rs.bad || r[i].rs.accepted < 10
          || (r[i].spoiler && r[i].rs.spoiled < 10))
        rc = 1;
    }
  if (publishes < 20 || published < 10)
    rc = 1;
  munmap ((void *) r[1].h, size);
  return rc;
}

/* ---- scenario: a module registers between two views ----------------- */

/* The publisher keeps the functions' sections from one view to the next
   (viewcache.c): a module that registers in between must be in the next
   view, its strings, blocks and edges with it. */
static int
scenario_modules (void)
{
  osp_test_chain (&srec[0], scfg[0], "first", "first.c", 8, 1);
  __osp_register_module (OSP_ABI_VERSION, srec, srec + 1);
  size_t size;
  const struct osp_shm_header *h = map_segment (getpid (), &size);
  CHECK (h != NULL);
  if (h == NULL)
    return 1;
  uint64_t *buf = malloc (h->buf_cap);
  struct read_stats rs;
  memset (&rs, 0, sizeof rs);
  for (uint32_t round = 0; round < 3; round++)
    {
      for (int i = 0; i < 100; i++)
        osp_test_block (&srec[0], (uint32_t) i % 8);
      CHECK_EQ (osp_publish_now (), 0);
      long len = read_view (h, buf, &rs);
      struct view v;
      CHECK (len > 0 && view_check (buf, (size_t) len, &v) == NULL);
      if (len <= 0 || view_check (buf, (size_t) len, &v) != NULL)
        break;
      /* rounds 0 and 1: one function (the part kept); 2: two */
      uint32_t nfns = round < 2 ? 1 : 2;
      CHECK_EQ (v.nfns, nfns);
      CHECK_EQ (v.nblocks, round < 2 ? 8 : 8 + 6);
      CHECK_EQ (v.nedges, v.nblocks);
      CHECK_EQ (v.fns[0].calls, 13 * (round + 1)); /* i % 8 == 0 */
      if (v.nfns == 2)
        {
          CHECK_STR (v.strings + v.fns[1].name, "second");
          CHECK_STR (v.strings + v.fns[1].file, "second.c");
          CHECK_EQ (v.edges[13].from, 13);
        }
      if (round == 1)
        {
          osp_test_chain (&srec[1], scfg[1], "second", "second.c", 6, 1);
          __osp_register_module (OSP_ABI_VERSION, srec + 1, srec + 2);
        }
    }
  free (buf);
  munmap ((void *) h, size);
  return osp_test_failures != 0;
}

/* ---- scenario: a viewer's request seen from a signal handler --------- */

/* This process's thread count (/proc/self/status), -1 if unknown. */
static int
threads_now (void)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];
  int n = -1;
  while (f && fgets (line, sizeof line, f))
    if (sscanf (line, "Threads: %d", &n) == 1)
      break;
  if (f)
    fclose (f);
  return n;
}

static void
entries_in_handler (int sig)
{
  (void) sig;
  runtime_entries ();
}

/* A request noticed by entries that run in a signal handler must not
   start the publisher thread there (pthread_create may call malloc, which
   the signal may have interrupted: publish.c, maybe_in_handler); the next
   entries outside a handler start it. */
static int
scenario_handler (void)
{
  if (ask (segment_path ((long) getpid ())) != 0)
    {
      puts ("cannot ask for views");
      return 1;
    }
  struct sigaction sa = { .sa_handler = entries_in_handler };
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR1, &sa, NULL);
  /* Counted relative to the start: a sanitizer may have a thread of its
     own, and ThreadSanitizer starts it with the first pthread_create. */
  int before = threads_now ();
  for (int i = 0; i < 10; i++)
    raise (SIGUSR1);
  int in_handler = threads_now ();
  runtime_entries ();
  double end = osp_test_deadline (5);
  while (threads_now () <= in_handler && !osp_test_expired (end))
    osp_test_nap ();
  int after = threads_now ();
  if (before < 1 || in_handler != before || after <= in_handler)
    {
      printf ("threads: %d at first, %d after the entries in a handler "
              "(want as many), %d after those outside (want more)\n",
              before, in_handler, after);
      return 1;
    }
  return 0;
}

/* ---- scenarios: lifecycle -------------------------------------------- */

/* Print the pid, count some blocks, wait for a line (or EOF) on stdin. */
static int
scenario_life (void)
{
  printf ("%ld\n", (long) getpid ());
  fflush (stdout);
  osp_test_chain (&srec[0], scfg[0], "life", "life.c", 8, 1);
  __osp_register_module (OSP_ABI_VERSION, srec, srec + 1);
  for (int i = 0; i < 1000; i++)
    osp_test_block (&srec[0], (uint32_t) i % 8);
  /* Waiting for the line, the runtime's entries come by now and then
     (without changing the counts), as a running program's would: they
     notice a viewer's request. */
  struct pollfd in = { .fd = 0, .events = POLLIN };
  while (poll (&in, 1, 10) == 0 || (in.revents & (POLLIN | POLLHUP)) == 0)
    runtime_entries ();
  char c;
  while (read (0, &c, 1) < 0 && errno == EINTR)
    ;
  return 0;
}

/* Map the segment of PID once it is ONLINE (a file that exists may still
   be being set up), waiting up to 5 s scaled; NULL if it never is. */
static const struct osp_shm_header *
map_online (long pid, size_t *size)
{
  double end = osp_test_deadline (5);
  do
    {
      const struct osp_shm_header *h = map_segment (pid, size);
      if (h && atomic_load_explicit (&h->state, memory_order_acquire)
                   == OSP_SHM_ONLINE)
        return h;
      if (h)
        munmap ((void *) h, *size);
      runtime_entries (); /* our own segment, if ours, comes from them */
      osp_test_nap ();
    }
  while (!osp_test_expired (end));
  return NULL;
}

/* The child publishes its own segment; the parent's stays the parent's. */
static int
scenario_fork (void)
{
  osp_test_chain (&srec[0], scfg[0], "fork", "fork.c", 8, 1);
  __osp_register_module (OSP_ABI_VERSION, srec, srec + 1);
  for (int i = 0; i < 100; i++)
    osp_test_block (&srec[0], (uint32_t) i % 8);
  const struct osp_shm_header *mine = osp_publish_segment ();
  if (mine == NULL)
    {
      puts ("parent: no segment");
      return 1;
    }
  pid_t parent = getpid ();
  uint64_t parent_instance = mine->instance_id;
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      for (int i = 0; i < 100; i++)
        osp_test_block (&srec[0], (uint32_t) i % 8);
      int rc = 0;
      size_t size;
#if SANITIZED
      /* publish.c: under TSan or ASan a fork child does not publish. */
      struct timespec ts = { 0, 300000000 };
      nanosleep (&ts, NULL);
      exit (osp_publish_segment () != NULL
            || map_segment ((long) getpid (), &size) != NULL);
#endif
      const struct osp_shm_header *h = map_online ((long) getpid (), &size);
      if (h == NULL)
        {
          puts ("child: no segment of its own");
          _exit (1);
        }
      if (h->pid != getpid () || h->instance_id == parent_instance)
        {
          puts ("child: its segment is not its own");
          rc = 1;
        }
      /* (Its mapping may reuse the address the parent's had.) */
      const struct osp_shm_header *now = osp_publish_segment ();
      if (now == NULL || now->pid != getpid ())
        {
          puts ("child: still maps the parent's segment");
          rc = 1;
        }
      /* a view of the child's own, with the child's pid, once asked */
      CHECK_EQ (ask (segment_path ((long) getpid ())), 0);
      uint64_t *buf = malloc (h->buf_cap);
      struct read_stats rs = { 0 };
      long l = 0;
      double end = osp_test_deadline (5);
      while ((l = read_view (h, buf, &rs)) <= 0 && !osp_test_expired (end))
        {
          runtime_entries ();
          osp_test_nap ();
        }
      struct view v;
      if (l <= 0 || view_check (buf, (size_t) l, &v) != NULL
          || v.run.pid != getpid ())
        {
          puts ("child: no valid view of its own");
          rc = 1;
        }
      free (buf);
      munmap ((void *) h, size);
      exit (rc); /* the exit path: last view, unlink */
    }
  int status;
  waitpid (pid, &status, 0);
  int rc = !WIFEXITED (status) || WEXITSTATUS (status) != 0;
  struct stat st;
  if (stat (segment_path ((long) pid), &st) == 0)
    {
      puts ("parent: the child's segment is left behind");
      rc = 1;
    }
  if (mine->pid != parent || mine->instance_id != parent_instance
      || atomic_load (&mine->state) != OSP_SHM_ONLINE
      || stat (segment_path ((long) parent), &st) != 0)
    {
      puts ("parent: its segment changed");
      rc = 1;
    }
  /* The parent's views are still the parent's. */
  osp_publish_now ();
  uint64_t *buf = malloc (mine->buf_cap);
  struct read_stats rs = { 0 };
  long l = read_view (mine, buf, &rs);
  struct view v;
  if (l <= 0 || view_check (buf, (size_t) l, &v) != NULL
      || v.run.pid != parent)
    {
      puts ("parent: its view is not its own");
      rc = 1;
    }
  free (buf);
  puts (rc ? "fork: failed" : "fork: ok");
  return rc;
}

/* ---- lifecycle, from the outside ------------------------------------- */

struct child
{
  pid_t pid;
  int in;    /* its stdin */
  FILE *out; /* its stdout */
};

/* Run SCENARIO in a new process with OSP_OPTIONS; PRE: 1 takes its
   segment's name first with a plain file, 2 with a segment of its pid
   as an exec'ed image would leave, 3 limits its file size to 1M (as a
   full /dev/shm would: sizing the segment fails). */
static int
spawn (struct child *c, const char *scenario, const char *options, int pre,
       const char *err)
{
  int in[2], out[2];
  if (pipe (in) != 0 || pipe (out) != 0)
    return -1;
  fflush (NULL);
  c->pid = fork ();
  if (c->pid < 0)
    return -1;
  if (c->pid == 0)
    {
      dup2 (in[0], 0);
      dup2 (out[1], 1);
      close (in[1]);
      close (out[0]);
      if (err && !freopen (err, "w", stderr))
        _exit (126);
      if (pre == 3)
        {
          struct rlimit rl = { 1 << 20, 1 << 20 };
          signal (SIGXFSZ, SIG_IGN); /* EFBIG instead of the signal */
          setrlimit (RLIMIT_FSIZE, &rl);
        }
      else if (pre)
        {
          int fd = open (segment_path ((long) getpid ()),
                         O_RDWR | O_CREAT | O_EXCL, 0600);
          if (fd < 0)
            _exit (125);
          if (pre == 2)
            {
              struct osp_shm_header h;
              memset (&h, 0, sizeof h);
              memcpy (h.magic, OSP_SHM_MAGIC, sizeof h.magic);
              h.pid = getpid ();
              h.instance_id = 77;
              if (write (fd, &h, sizeof h) != (ssize_t) sizeof h)
                _exit (125);
            }
          close (fd);
        }
      setenv ("OSP_OPTIONS", osp_test_options (options), 1);
      execl ("/proc/self/exe", "osp-test", scenario, (char *) NULL);
      _exit (127);
    }
  close (in[0]);
  close (out[1]);
  c->in = in[1];
  c->out = fdopen (out[0], "r");
  return 0;
}

/* Let the child end; its exit status. */
static int
finish (struct child *c)
{
  if (write (c->in, "\n", 1) != 1)
    return -1;
  close (c->in);
  fclose (c->out);
  int status;
  while (waitpid (c->pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

static long
child_pid (struct child *c)
{
  char line[64];
  if (fgets (line, sizeof line, c->out) == NULL)
    return -1;
  return atol (line);
}

/* This process's pid namespace (inode) and start time (/proc/self/stat
   field 22), as publish.c records them. */
static uint64_t
self_pidns (void)
{
  struct stat st;
  return stat ("/proc/self/ns/pid", &st) == 0 ? (uint64_t) st.st_ino : 0;
}

static uint64_t
self_start (void)
{
  char buf[1024];
  int fd = open ("/proc/self/stat", O_RDONLY);
  ssize_t n = fd < 0 ? -1 : read (fd, buf, sizeof buf - 1);
  if (fd >= 0)
    close (fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  char *p = strrchr (buf, ')');
  for (int field = 2; p && field < 22; field++)
    {
      p = strchr (p + 1, ' ');
    }
  return p ? strtoull (p + 1, NULL, 10) : 0;
}

/* A segment file PATH with a header of this layout naming PID, NS and
   START (ONLINE, no view). */
static void
fake_segment (const char *path, long pid, uint64_t ns, uint64_t start)
{
  struct osp_shm_header h;
  memset (&h, 0, sizeof h);
  memcpy (h.magic, OSP_SHM_MAGIC, sizeof h.magic);
  h.byte_order = OSP_SHM_BYTE_ORDER;
  h.major = OSP_SHM_MAJOR;
  h.header_size = sizeof h;
  h.pid = pid;
  h.pidns = ns;
  h.proc_start = start;
  atomic_store (&h.state, OSP_SHM_ONLINE);
  int fd = open (path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  CHECK (fd >= 0 && write (fd, &h, sizeof h) == (ssize_t) sizeof h);
  if (fd >= 0)
    close (fd);
}

static void
test_lifecycle (const char *dir)
{
  /* Stale segments of dead processes (one of our pid namespace, swept;
     one of another, whose pid means nothing here, kept), segments of a
     live pid with another start time (the pid was reused: swept) and
     with its own (kept), and a name that is no pid. */
  pid_t dead = fork ();
  if (dead == 0)
    _exit (0);
  waitpid (dead, NULL, 0);
  pid_t dead2 = fork ();
  if (dead2 == 0)
    _exit (0);
  waitpid (dead2, NULL, 0);
  uint64_t ns = self_pidns (), start = self_start ();
  CHECK (ns != 0 && start != 0);
  char stale[128], foreign[128], reused[128], live[128], odd[128];
  snprintf (stale, sizeof stale, "%s", segment_path ((long) dead));
  snprintf (foreign, sizeof foreign, "%s", segment_path ((long) dead2));
  snprintf (reused, sizeof reused, "%s-1", segment_path ((long) getpid ()));
  snprintf (live, sizeof live, "%s-2", segment_path ((long) getpid ()));
  snprintf (odd, sizeof odd, "%s%s%lu-12ab", OSP_SHM_DIR, OSP_SHM_PREFIX,
            (unsigned long) geteuid ());
  fake_segment (stale, dead, ns, start);
  fake_segment (foreign, dead2, ns + 1, start);
  fake_segment (reused, getpid (), ns, start - 1);
  fake_segment (live, getpid (), ns, start);
  int fd = open (odd, O_RDWR | O_CREAT | O_TRUNC, 0600);
  close (fd);
  char err[4200];
  snprintf (err, sizeof err, "%s/err", dir);

  struct child c;
  const char *opts = "mode=blocks:publish_ms=50:report=none";
  CHECK_EQ (spawn (&c, "life", opts, 0, err), 0);
  long pid = child_pid (&c);
  CHECK (pid > 0);
  char seg[128];
  snprintf (seg, sizeof seg, "%s", segment_path (pid));
  struct stat st;
  CHECK_EQ (stat (seg, &st), 0);
  CHECK (S_ISREG (st.st_mode) && (st.st_mode & 07777) == 0600
         && st.st_uid == geteuid ());
  /* Memory for the header and the views, not the two whole buffers. */
  CHECK ((uint64_t) st.st_blocks * 512 < (1u << 20));
  CHECK (stat (stale, &st) != 0 && errno == ENOENT);   /* swept */
  CHECK (stat (reused, &st) != 0 && errno == ENOENT);  /* swept */
  CHECK_EQ (stat (foreign, &st), 0);                   /* another pidns */
  CHECK_EQ (stat (live, &st), 0);                      /* its process runs */
  CHECK_EQ (stat (odd, &st), 0);                       /* not a segment name */
  unlink (odd);
  unlink (foreign);
  unlink (live);
  if (osp_publish_segment () != NULL) /* alive: ours is not swept */
    CHECK_EQ (stat (segment_path ((long) getpid ()), &st), 0);

  size_t size = 0;
  const struct osp_shm_header *h = map_segment (pid, &size);
  CHECK (h != NULL);
  if (h != NULL)
    {
      CHECK (memcmp (h->magic, OSP_SHM_MAGIC, 8) == 0);
      CHECK_EQ (h->byte_order, OSP_SHM_BYTE_ORDER);
      CHECK_EQ (h->major, OSP_SHM_MAJOR);
      CHECK_EQ (h->header_size, sizeof *h);
      CHECK_EQ (h->segment_size, size);
      CHECK_EQ (h->pid, pid);
      CHECK_EQ (h->publish_ms, 50);
      CHECK_EQ (h->buf_cap, 4u << 20);
      CHECK (h->buf_off[0] % 64 == 0 && h->buf_off[0] >= sizeof *h
             && h->buf_off[1] == h->buf_off[0] + h->buf_cap
             && h->buf_off[1] + h->buf_cap <= size);
      CHECK (strstr (h->program, "t_publish") != NULL);
      CHECK_EQ (atomic_load (&h->state), OSP_SHM_ONLINE);
      /* No view before a viewer asks (its runtime entries come every
         10 ms); then the publisher's. */
      struct timespec ts = { 0, 200000000 };
      nanosleep (&ts, NULL);
      CHECK_EQ (atomic_load (&h->publishes), 0);
      CHECK_EQ (ask (seg), 0);
      double end = osp_test_deadline (5);
      while (atomic_load (&h->publishes) < 2 && !osp_test_expired (end))
        osp_test_nap ();
      CHECK (atomic_load (&h->publishes) >= 2);
      uint64_t *buf = malloc (h->buf_cap);
      struct read_stats rs = { 0 };
      long l = read_view (h, buf, &rs);
      struct view v;
      CHECK (l > 0 && view_check (buf, (size_t) l, &v) == NULL);
      if (l > 0 && view_check (buf, (size_t) l, &v) == NULL)
        {
          CHECK_EQ (v.run.pid, pid);
          CHECK_EQ (v.run.exited, 0);
          CHECK_EQ (v.run.instance_id, h->instance_id);
          CHECK_STR (v.strings + v.run.args, "osp-test life");
          char *given = osp_test_options (opts);
          CHECK_STR (v.strings + v.run.options, given);
          free (given);
          CHECK (strstr (v.strings + v.run.program, "t_publish") != NULL);
          CHECK_EQ (v.nfns, 1);
          CHECK_EQ (v.blocks[3].count, 125);
        }

      CHECK_EQ (finish (&c), 0);
      /* Gone from /dev/shm, yet still readable where it was mapped: the
         last view, marked exited. */
      CHECK (stat (seg, &st) != 0 && errno == ENOENT);
      CHECK_EQ (atomic_load (&h->state), OSP_SHM_EXITED);
      l = read_view (h, buf, &rs);
      CHECK (l > 0 && view_check (buf, (size_t) l, &v) == NULL);
      if (l > 0 && view_check (buf, (size_t) l, &v) == NULL)
        {
          CHECK_EQ (v.run.exited, 1);
          CHECK_EQ (v.hdr->seq, atomic_load (&h->publishes));
          CHECK_EQ (v.blocks[3].count, 125);
        }
      free (buf);
      munmap ((void *) h, size);
    }
  else
    finish (&c);
  char *e = osp_test_slurp (err);
  CHECK_STR (e, "");
  free (e);

  /* publish=off, mode=off: no segment. */
  static const char *const none[] = { "publish=off:report=none",
                                      "mode=off:report=none" };
  for (int i = 0; i < 2; i++)
    {
      CHECK_EQ (spawn (&c, "life", none[i], 0, err), 0);
      pid = child_pid (&c);
      CHECK (pid > 0 && stat (segment_path (pid), &st) != 0);
      CHECK_EQ (finish (&c), 0);
      e = osp_test_slurp (err);
      CHECK_STR (e, "");
      free (e);
    }

  /* The name is taken: one line, the program runs on; the file is left
     alone. */
  CHECK_EQ (spawn (&c, "life", "report=none", 1, err), 0);
  pid = child_pid (&c);
  CHECK (pid > 0);
  snprintf (seg, sizeof seg, "%s", segment_path (pid));
  CHECK_EQ (finish (&c), 0);
  e = osp_test_slurp (err);
  char want[512];
  snprintf (want, sizeof want,
            "osp: cannot publish (%s: File exists): the program runs and "
            "profiles as before\n", seg);
  CHECK_STR (e, want);
  free (e);
  CHECK (stat (seg, &st) == 0 && st.st_size == 0);
  unlink (seg);

  /* No room for the segment: one line, no file left, the program runs. */
  CHECK_EQ (spawn (&c, "life", "report=none", 3, err), 0);
  pid = child_pid (&c);
  CHECK (pid > 0);
  snprintf (seg, sizeof seg, "%s", segment_path (pid));
  CHECK (stat (seg, &st) != 0 && errno == ENOENT);
  CHECK_EQ (finish (&c), 0);
  e = osp_test_slurp (err);
  snprintf (want, sizeof want,
            "osp: cannot publish (%s: File too large): the program runs "
            "and profiles as before\n", seg);
  CHECK_STR (e, want);
  free (e);

  /* A segment of this pid left by the image it exec'ed from: replaced. */
  CHECK_EQ (spawn (&c, "life", "report=none", 2, err), 0);
  pid = child_pid (&c);
  h = pid > 0 ? map_segment (pid, &size) : NULL;
  CHECK (h != NULL);
  if (h)
    {
      CHECK (h->instance_id != 77 && h->segment_size == size);
      CHECK_EQ (atomic_load (&h->state), OSP_SHM_ONLINE);
      munmap ((void *) h, size);
    }
  CHECK_EQ (finish (&c), 0);
  CHECK (stat (segment_path (pid), &st) != 0);
  e = osp_test_slurp (err);
  CHECK_STR (e, "");
  free (e);
  unlink (err);
}

/* Run SCENARIO with OPTIONS; its stdout is shown, its stderr must be
   empty and its status 0.  NOLEAKS: without LeakSanitizer's exit check
   (a scenario whose fork child exits: in the child of a threaded process
   it cannot stop the threads, google/sanitizers #836, and says so). */
static void
run_scenario (const char *dir, const char *scenario, const char *options,
              int noleaks)
{
  char out[4200], err[4200];
  snprintf (out, sizeof out, "%s/out", dir);
  snprintf (err, sizeof err, "%s/err", dir);
  char *saved = getenv ("ASAN_OPTIONS") ? strdup (getenv ("ASAN_OPTIONS"))
                                        : NULL;
  if (noleaks)
    {
      char *o;
      if (asprintf (&o, "%s%sdetect_leaks=0", saved ? saved : "",
                    saved ? ":" : "") < 0)
        abort ();
      setenv ("ASAN_OPTIONS", o, 1);
      free (o);
    }
  int rc = osp_test_run (scenario, options, out, err);
  if (saved)
    setenv ("ASAN_OPTIONS", saved, 1);
  else
    unsetenv ("ASAN_OPTIONS");
  free (saved);
  char *o = osp_test_slurp (out), *e = osp_test_slurp (err);
  printf ("%s", o ? o : "");
  if (rc != 0)
    fprintf (stderr, "scenario %s (%s): exit status %d\n", scenario, options,
             rc);
  CHECK_EQ (rc, 0);
  CHECK_STR (e, "");
  free (o);
  free (e);
  unlink (out);
  unlink (err);
}

int
main (int argc, char **argv)
{
  osp_init ();
  if (argc > 1 && strcmp (argv[1], "stress") == 0)
    return scenario_stress ();
  if (argc > 1 && strcmp (argv[1], "life") == 0)
    return scenario_life ();
  if (argc > 1 && strcmp (argv[1], "fork") == 0)
    return scenario_fork ();
  if (argc > 1 && strcmp (argv[1], "handler") == 0)
    return scenario_handler ();
  if (argc > 1 && strcmp (argv[1], "modules") == 0)
    return scenario_modules ();

  test_crc32 ();
  test_view ();
  test_view_cache ();
  if (access (OSP_SHM_DIR, W_OK) != 0)
    {
      printf ("t_publish: no writable %s: the publisher is not tested\n",
              OSP_SHM_DIR);
      return osp_test_failures ? osp_test_done ("t_publish") : 77;
    }
  char *dir = osp_test_tmpdir ();
  run_scenario (dir, "stress", "mode=blocks:publish_ms=50:report=none", 0);
  run_scenario (dir, "stress",
                "mode=subpaths:interval=10:publish_ms=50:publish_bytes=256k:"
                "report=none", 0);
  run_scenario (dir, "fork", "mode=blocks:publish_ms=50:report=none", 1);
  run_scenario (dir, "handler", "mode=blocks:publish_ms=50:report=none", 0);
  run_scenario (dir, "modules", "mode=blocks:report=none", 0);
  test_lifecycle (dir);
  rmdir (dir);
  free (dir);
  return osp_test_done ("t_publish");
}

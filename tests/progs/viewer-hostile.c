/* viewer-hostile.c - hostile snapshot files for tests/safety-viewer.sh:
 * well-formed files (every CRC right, every section in place) whose
 * contents attack the readers behind the checksums.
 *
 *   viewer-hostile KIND FILE [N]
 *
 *   good        a small sound profile: two functions, subpaths, paths, a
 *               forest of two trees (the baseline the others vary)
 *   block       a block numbered past its function's blocks (block 1000
 *               of a 3-block function): merge once indexed by it
 *   stray       a block placed outside its function's range of BLOCKS
 *   chain       a forest that is one chain of N nodes (depth N - 1)
 *   wide        N forest nodes in chains of 64, a function per chain
 *   longname    one function named by N bytes of 'x', N subpaths through it
 *   escapes     names, program and arguments holding terminal escapes
 *               (clear screen, set the title, C1 CSI) and invalid UTF-8
 *   huge        every estimate, error and share 1.5e308: finite, but the
 *               sum of two is not
 *   empty       no rows at all (sorting empty arrays)
 *   zerolen     rows of no blocks (empty id runs: NULL pointers, zero sizes)
 *
 * Built with libosprt/format/viewbuild.c (which checks the layout, not the
 * meaning: exactly what a hostile writer can do) and written with
 * libosprt/format/snapfile.c, so the file is a snapshot in every byte the
 * format's checksums cover.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "snapfile.h"
#include "viewbuild.h"

static struct vbuild b;
/* huge: every estimate, error and share this big (finite, but any sum of
   two overflows) */
static double big;

static double
val (double x)
{
  return big > 0 ? big : x;
}

static void
run (const char *program, const char *args)
{
  struct osp_vrun r;
  memset (&r, 0, sizeof r);
  r.pid = 4242;
  r.start_ns = 1700000000000000000ull;
  r.program = vb_str (&b, program);
  r.args = vb_str (&b, args);
  r.options = vb_str (&b, "paths=exhaustive");
  r.mode = vb_str (&b, "subpaths");
  r.paths = vb_str (&b, "exhaustive");
  r.forest = vb_str (&b, "exhaustive");
  r.exited = 1;
  r.blocks_seen = 1000000;
  r.path_ends = 100000;
  r.path_scale = 1;
  r.forest_scale = 1;
  r.forest_k = 8;
  vb_run (&b, &r);
}

/* Function FI named NAME in FILE with NB blocks at BLOCK0 (lines 10 + k). */
static void
function (uint32_t fi, const char *name, const char *file, uint32_t block0,
          uint32_t nb)
{
  struct osp_vfn f = { .id = fi + 1, .name = vb_str (&b, name),
                       .file = vb_str (&b, file), .first_line = 10,
                       .block0 = block0, .nblocks = nb,
                       .calls = OSP_VIEW_NONE };
  vb_fn (&b, &f);
}

/* Block counts (mode=blocks) of the blocks written next; NONE: none. */
static uint64_t count = OSP_VIEW_NONE;

static void
block (uint32_t fi, uint32_t num, uint32_t line)
{
  struct osp_vblock bl = { .fn = fi, .block = num, .first_line = line,
                           .last_line = line, .count = count };
  vb_block (&b, &bl);
}

static void
subpath (const uint32_t *ids, uint32_t len, uint32_t rank, double est,
         double share)
{
  struct osp_vsubpath s = { .ids = vb_ids (&b, ids, len), .len = len,
                            .rank = rank, .count = 10, .estimate = val (est),
                            .err95 = val (est / 10), .share = val (share),
                            .threshold = 1.5, .scale = val (40),
                            .flags = OSP_VSUB_RANKED,
                            .estimator = OSP_VSUB_EST_COUNTING };
  vb_subpath (&b, &s);
}

static void
path (const uint32_t *ids, uint32_t len, uint32_t fn, uint64_t id,
      uint32_t rank, double est, double share)
{
  struct osp_vpath p = { .ids = vb_ids (&b, ids, len), .len = len,
                         .fn = fn, .id = id, .samples = 10,
                         .estimate = val (est), .err95 = 0,
                         .share = val (share),
                         .branches = 1, .rank = rank,
                         .flags = OSP_VROW_RANKED };
  vb_path (&b, &p);
}

static uint32_t
node (const uint32_t *ids, uint32_t len, uint32_t fn, uint32_t parent,
      uint32_t depth, uint64_t id, double est, double share)
{
  struct osp_vforest n = { .ids = vb_ids (&b, ids, len), .len = len,
                           .fn = fn, .parent = parent, .depth = depth,
                           .id = id, .count = (uint64_t) (est < 1e18 ? est
                                                                     : 1e18),
                           .estimate = val (est), .err95 = 0,
                           .share = val (share), .flags = OSP_VROW_RANKED };
  return vb_forest (&b, &n);
}

/* The sound profile, with function 0 named NAME0. */
static void
good (const char *name0)
{
  function (0, name0, "demo.c", 0, 3);
  function (1, "helper", "util.c", 3, 2);
  for (uint32_t k = 0; k < 3; k++)
    block (0, k, 10 + 2 * k);
  for (uint32_t k = 0; k < 2; k++)
    block (1, k, 40 + 2 * k);
  struct osp_vedge e[] = { { 0, 1, 0, 0 }, { 1, 2, 0, 0 }, { 2, 0, 0, 0 },
                           { 3, 4, 0, 0 }, { 4, OSP_VIEW_EXIT, 0, 0 } };
  for (size_t k = 0; k < sizeof e / sizeof e[0]; k++)
    vb_edge (&b, &e[k]);
  static const uint32_t s1[] = { 0, 1, 2 }, s2[] = { 1, 3, 4 }, p1[] = { 0, 1 },
                        p2[] = { 3, 4 };
  subpath (s1, 3, 1, 5000, 0.5);
  subpath (s2, 3, 2, 3000, 0.3);
  path (p1, 2, 0, 1, 1, 700, 0.7);
  path (p2, 2, 1, 0, 2, 200, 0.2);
  path (p1, 2, 0, 2, 3, 100, 0.1); /* the same edge as rank 1 */
  uint32_t r = node (p1, 2, 0, OSP_VIEW_NO_PARENT, 0, 1, 700, 0.7);
  node (p1, 2, 0, r, 1, 1, 500, 0.7);
  node (p2, 2, 1, OSP_VIEW_NO_PARENT, 0, 0, 300, 0.3);
  vb_stat_u64 (&b, "functions", 2);
  vb_stat_str (&b, "paths", "exhaustive");
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: viewer-hostile KIND FILE [N]\n");
      return 2;
    }
  const char *kind = argv[1], *file = argv[2];
  unsigned long n = argc > 3 ? strtoul (argv[3], NULL, 10) : 0;
  vb_init (&b);
  if (strcmp (kind, "good") == 0)
    {
      run ("/usr/bin/demo", "demo input");
      good ("work");
    }
  else if (strcmp (kind, "block") == 0 || strcmp (kind, "stray") == 0)
    {
      run ("/usr/bin/demo", "demo");
      int stray = kind[0] == 's';
      count = 7; /* merge.c sums these by merged block number */
      function (0, "work", "demo.c", 0, 3);
      function (1, "helper", "util.c", 3, stray ? 1 : 2);
      block (0, 0, 10);
      block (0, stray ? 1 : 1000, 12); /* the bad one */
      block (0, 2, 14);
      block (1, 0, 40);
      if (stray) /* BLOCKS[4]: of function 0, outside its [0, 3), and in
                    no function's range */
        block (0, 1, 42);
      else
        block (1, 1, 42);
      static const uint32_t s1[] = { 0, 1, 2 };
      subpath (s1, 3, 1, 5000, 0.5);
    }
  else if (strcmp (kind, "chain") == 0)
    {
      run ("/usr/bin/demo", "demo");
      function (0, "work", "demo.c", 0, 2);
      block (0, 0, 10);
      block (0, 1, 12);
      static const uint32_t p1[] = { 0, 1 };
      uint32_t parent = OSP_VIEW_NO_PARENT;
      for (unsigned long k = 0; k < n; k++)
        parent = node (p1, 2, 0, parent, (uint32_t) k, 1, 1000, 1);
    }
  else if (strcmp (kind, "wide") == 0)
    {
      /* N nodes as chains of 64 (the deepest a view may be), each chain
         in a function of its own: a big forest a reader must handle in
         time and memory linear in it */
      run ("/usr/bin/demo", "demo");
      uint32_t nf = (uint32_t) ((n + 63) / 64);
      for (uint32_t f = 0; f < nf; f++)
        {
          char name[32];
          snprintf (name, sizeof name, "f%u", f);
          function (f, name, "demo.c", 2 * f, 2);
          block (f, 0, 10);
          block (f, 1, 12);
        }
      unsigned long made = 0;
      for (uint32_t f = 0; f < nf; f++)
        {
          uint32_t ids[2] = { 2 * f, 2 * f + 1 };
          uint32_t parent = OSP_VIEW_NO_PARENT;
          for (uint32_t d = 0; d < 64 && made < n; d++, made++)
            parent = node (ids, 2, f, parent, d, 1, 1000, 1);
        }
    }
  else if (strcmp (kind, "longname") == 0)
    {
      run ("/usr/bin/demo", "demo");
      char *name = malloc (n + 1);
      if (name == NULL)
        return 99;
      memset (name, 'x', n);
      name[n] = '\0';
      function (0, name, "demo.c", 0, 2);
      block (0, 0, 10);
      block (0, 1, 12);
      static const uint32_t p1[] = { 0, 1 }, p2[] = { 1, 0 };
      for (unsigned long k = 0; k < n / 512 && k < 2000; k++)
        subpath (k & 1 ? p2 : p1, 2, (uint32_t) k + 1, 1000, 0.001);
      free (name);
    }
  else if (strcmp (kind, "escapes") == 0)
    {
      /* clear the screen, set the window title, an 8-bit CSI, a C1 CSI
         in UTF-8, a bare continuation byte */
      run ("/usr/bin/\033[2J\033]0;pwned\007demo",
           "demo \033[31mred\233K \302\233J \200");
      good ("work\033]0;title\007\033[H\033[2J");
    }
  else if (strcmp (kind, "huge") == 0)
    {
      run ("/usr/bin/demo", "demo");
      big = 1.5e308;
      good ("work");
    }
  else if (strcmp (kind, "empty") == 0)
    run ("/usr/bin/demo", "demo");
  else if (strcmp (kind, "zerolen") == 0)
    {
      /* rows of no blocks (harmless to a reader: the row shows no path) */
      run ("/usr/bin/demo", "demo");
      function (0, "work", "demo.c", 0, 1);
      block (0, 0, 10);
      subpath (NULL, 0, 1, 10, 0.1);
      subpath (NULL, 0, 2, 5, 0.05);
      path (NULL, 0, 0, 1, 1, 10, 0.5);
      path (NULL, 0, 0, 2, 2, 10, 0.5);
      uint32_t r = node (NULL, 0, 0, OSP_VIEW_NO_PARENT, 0, 1, 10, 1);
      node (NULL, 0, 0, r, 1, 2, 10, 1);
    }
  else
    {
      fprintf (stderr, "viewer-hostile: unknown kind %s\n", kind);
      return 2;
    }
  void *view;
  size_t len;
  char err[256];
  if (vb_finish (&b, 1700000001000000000ull, 1, &view, &len, err, sizeof err)
      != 0)
    {
      fprintf (stderr, "viewer-hostile: %s\n", err);
      return 99;
    }
  int e = osp_snap_write (file, view, len, OSP_SNAP_AT_EXIT, "hostile");
  if (e != 0)
    {
      fprintf (stderr, "viewer-hostile: cannot write %s: %s\n", file,
               strerror (e));
      return 99;
    }
  free (view);
  vb_free (&b);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

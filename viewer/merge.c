/* SPDX-License-Identifier: GPL-3.0-or-later */
/* merge.c - ospview --merge OUT IN...: one snapshot out of several
 * snapshots of the same program (many runs, or many processes of one
 * service: a fleet), written atomically to OUT (flag OSP_SNAP_MERGED).
 *
 * Streaming.  The inputs are read one at a time: each is loaded,
 * validated in full (the file and view checks of snap_load, then the
 * rules below), folded into an accumulator and freed before the next.
 * The accumulator holds copies of what the output needs (the functions,
 * their blocks, edges, costs and lines as their first input had them, the
 * merged rows, the statistics, the run) and, per input, one small
 * identity record.  So memory is one input plus the merged tables, not
 * the sum of the inputs.  The row tables have a cap (--merge-rows, rows
 * per section): a row that would pass it is not merged but counted, in
 * the summary and in the output (merged_rows_dropped_*), and its estimate
 * joins the section's absence bound (below), never silently lost.
 *
 * Validation.  An input is refused, before it changes anything, when it
 * cannot be read (missing, damaged: snap_load's one line), has another
 * mode than the first merged input, counts a run already merged ("Same
 * run"), or is another program or build (below).  Without --keep-going
 * the merge stops there (exit 1, OUT not written); with it, the input is
 * skipped with its one line and the rest are merged.  At the end one
 * line says what was merged, a second one what it covers and what was
 * skipped or dropped.
 *
 * Same program.  Functions are matched by (name, file).  A function in
 * several inputs must have the same blocks (number and line ranges) in
 * each, else the inputs are "not the same build of the program"; a
 * function in only some inputs (a dlopen'ed module) is kept: the merged
 * function table is the union, in the first input's order, then new ones
 * as they come.  Every input must share at least one function with the
 * first (else they are different programs) and have the same mode.  A
 * function keeps its source file's digest (FNSRC: the file's size and
 * SHA-256 as compiled) when every input that has the function records the
 * same one; inputs recording different digests for it were compiled from
 * different sources and are refused (their lines would be shown against
 * one of the two texts); when an input records none (an older view), the
 * merged function has none either, and no text of it is shown.
 *
 * Rows are matched by content inside the merged function table, never by
 * the inputs' indices: a subpath by its sequence of (function, block
 * number), a Ball-Larus path by (function, path id), a forest node by its
 * chain of (function, path id) from its root (matched top-down: a node's
 * key is its merged parent and its own (function, id)).  Then, for a
 * merged row:
 *   count, estimate   the sums over the inputs that have the row;
 *   err95             sqrt (sum of err95_i^2) over those inputs (runs are
 *                     independent, so variances add: each err95 is 1.96
 *                     sigma, and so is the root of the sum of squares),
 *                     plus, for every input i that lacks the row, a bound
 *                     B_i on what it may have hidden there (below);
 *   share             recomputed from the merged totals as the runtime
 *                     defines it (libosprt/collect/shares.c): subpaths
 *                     estimate / the larger of the run's subpaths of its
 *                     length (sum of blocks_seen - processes x (L - 1))
 *                     and the sum of the estimates of that length;
 *                     paths estimate / the estimated path ends (per
 *                     input path_samples x path_scale + path_counted, what
 *                     the runtime divides by); forest nodes estimate /
 *                     their parent's, roots estimate / the estimated
 *                     forest items (forest_items x forest_scale);
 *   rank              re-ranked like the runtime ranks (estimate.c): by
 *                     the low end of the interval max (0, est - err95),
 *                     then the estimate, then the content (deterministic).
 * The forest is written in preorder, trees and siblings hottest (largest
 * estimate) first, parents before children.
 *
 * Absence.  A row missing from input i is not proof that it never ran
 * there: a sampled section keeps only what was sampled, a hot-list keeps
 * only the hottest, the view may have been cut to fit, and the forest
 * shows only report_top trees and hides nodes below forest_prune.  So
 * when input i's section is "incomplete" (rule in section_cut below) a
 * row it lacks gets B_i = the smallest estimate in that section of input
 * i: anything hotter would have been kept.  B_i is added to err95
 * linearly, not in quadrature (it is a bound, not a standard error, and
 * adding it whole is the conservative choice); the estimate itself is not
 * moved.  A complete section (exact mode, nothing dropped or cut) has
 * B_i = 0: absent there means it did not run.  A merged input's B_i is
 * the one it recorded (merged_absent_*: the sum of its parts' bounds plus
 * what its cap dropped), since a row it lacks was lacking from every part.
 * Known limit: the forest's display pruning is relative to each tree's
 * root, so a hidden node under a very hot root can exceed the section's
 * smallest shown estimate.
 *
 * Associativity.  merge (merge (A, B), C) writes the same file, byte for
 * byte, as merge (A, B, C) when the merged values are exact in doubles
 * (exact sections: integer estimates, err95 0) and no cap drops rows:
 * every order is the inputs' order or a content order, the identity and
 * sequence number are the first input's, the time is the newest input's
 * (also the file's saved time: nothing of the merge's own clock), the
 * totals a merged input stands for are recorded in it (merged_snapshots,
 * merged_total_paths, merged_total_forest, merged_absent_*,
 * merged_instances_*).  Two limits, documented in doc/SNAPSHOT.md: sums
 * of non-integer doubles round in another order (last bits), and a row
 * present in a merged input but absent from some of its parts carries
 * its absence bound inside its err95, which a later merge then adds in
 * quadrature, not linearly (a narrower, never a wider, interval).
 *
 * Same run.  A snapshot is cumulative: a later one of a process contains
 * everything an earlier one of it counted.  So the same file twice, a
 * copy of one snapshot, or two snapshots of one process instance (the
 * same pid, start time and random instance id, which a fork child and a
 * reused pid do not share) would count that run twice; they are refused
 * unless the caller asks (--allow-same-run).  A merged snapshot records
 * the instance ids of every process it covers (merged_instances_*), so
 * merging it again with one of its parts, or with another merge sharing a
 * part, is refused too.
 *
 * Statistics: see the tables below (sum counters, largest of gauges,
 * recount what the merged rows define, keep settings only when every
 * input agrees, drop the rest) and write_merged_stats.
 *
 * Sums of estimates and errors saturate at the largest double (ospview.h)
 * and errors add through hypot, so inputs with huge finite numbers merge
 * into a snapshot that reads back, never into an infinity.
 */
#include "ospview.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "export.h"
#include "strtab.h"
#include "viewbuild.h"

enum { SEC_SUB, SEC_PATH, SEC_FOREST, NSEC };
/* the merged_* statistics' suffixes (write_merged_stats) */
static const char *const sec_stat[NSEC] = { "subpaths", "paths", "forest" };

/* Instance ids per merged_instances_K statistic: 16 hex digits and a
   space each, within a view's longest string (OSP_VIEW_STR_MAX). */
#define IDS_PER_STAT 240u

/* ---- a hash index of uint32 values -----------------------------------
 * Open addressing; the caller supplies the hash and an equality test
 * against stored values, so one index serves functions, rows and stats. */

struct hslot
{
  uint64_t h;
  uint32_t v; /* UINT32_MAX: free */
};

struct htab
{
  struct hslot *s;
  size_t cap, n;
};

typedef int (*ht_eq) (const void *ctx, uint32_t v);

/* Room for one more entry.  0, or -1 out of memory. */
static int
ht_reserve (struct htab *t)
{
  if (2 * (t->n + 1) <= t->cap)
    return 0;
  size_t cap = t->cap ? 2 * t->cap : 1024;
  struct hslot *s = malloc (cap * sizeof *s);
  if (s == NULL)
    return -1;
  for (size_t i = 0; i < cap; i++)
    s[i].v = UINT32_MAX;
  for (size_t i = 0; i < t->cap; i++)
    if (t->s[i].v != UINT32_MAX)
      {
        size_t j = ospview_hash_mix (t->s[i].h) & (cap - 1);
        while (s[j].v != UINT32_MAX)
          j = (j + 1) & (cap - 1);
        s[j] = t->s[i];
      }
  free (t->s);
  t->s = s;
  t->cap = cap;
  return 0;
}

/* The slot holding the key of hash H, or the free slot where it would go
   (after ht_reserve). */
static struct hslot *
ht_find (const struct htab *t, uint64_t h, ht_eq eq, const void *ctx)
{
  size_t j = ospview_hash_mix (h) & (t->cap - 1);
  while (t->s[j].v != UINT32_MAX && !(t->s[j].h == h && eq (ctx, t->s[j].v)))
    j = (j + 1) & (t->cap - 1);
  return &t->s[j];
}

static void
ht_put (struct htab *t, struct hslot *at, uint64_t h, uint32_t v)
{
  at->h = h;
  at->v = v;
  t->n++;
}

/* Hashes start from the process's seed (ospview_hash_seed) and slots
   are taken through ospview_hash_mix: the keys (names, ids) are the
   inputs', and a hostile input must not be able to put them all in one
   slot. */
static uint64_t
mix (uint64_t h, uint64_t x)
{
  h ^= x + ospview_hash_seed () + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdu;
}

static uint64_t
hash_str (uint64_t h, const char *s)
{
  return mix (osp_fnv1a (h, s), 0);
}

/* ---- state ----------------------------------------------------------- */

/* The input being merged: loaded, mapped, then freed. */
struct input
{
  const char *path;
  uint32_t k;         /* its place among the merged inputs (0: the first) */
  struct snapshot snap;
  uint32_t *fnmap;    /* its function -> merged function */
  uint32_t *blockmap; /* its block -> merged block */
  double bound[NSEC]; /* B_i: what a row absent here may have been */
  uint64_t *parts;    /* a merged input's merged_instances_*, else NULL */
  size_t nparts;
};

/* Who wrote a merged input: for the same-run checks and for the output's
   merged_instances_*.  A part is a process a merged input covers (only
   its instance id is known). */
struct ident
{
  uint64_t dev, ino;  /* the file; 0 0 for a part */
  int64_t pid;
  uint64_t start_ns, instance, time_ns, seq;
  const char *path;   /* the input that brought it */
  int part;           /* a part of merged input PATH (only INSTANCE known) */
  int proc;           /* stands for one process: a plain input or a part
                         (a merged input's own record is its file's) */
};

/* A merged function, copied from the first input that has it. */
struct mfn
{
  uint32_t id, block0, nblocks, first_line;
  uint32_t name, file;  /* offsets in merge.str */
  uint64_t calls;
  int no_digest;        /* an input has it without a source digest */
  int has_src;          /* src is set (its input had FNSRC) */
  struct osp_vfnsrc src; /* comp_dir: an offset in merge.str */
  double execs, work;   /* self figures (FNWORK), summed over the inputs */
  size_t edge0, nedges; /* its edges in merge.edges */
};

/* A merged block: its first input's block, cost and statement lines. */
struct mblk
{
  struct osp_vblock b;  /* fn: the merged function; count summed */
  uint32_t cost;
  uint32_t line0, nlines; /* in merge.lines */
  int has_lines;
};

/* A merged row of any section. */
struct mrow
{
  uint64_t ids;       /* its merged block indices: mids[ids, ids + len) */
  uint32_t len;
  uint32_t fn;        /* paths, forest: merged function */
  uint64_t id;        /* paths, forest: Ball-Larus id */
  uint32_t parent;    /* forest: merged row, or OSP_VIEW_NO_PARENT */
  uint32_t branches;  /* paths */
  uint32_t last;      /* the last input that added to it, + 1 */
  uint32_t seen;      /* inputs that have it */
  uint64_t count;
  double est, rss, bound_present, err; /* rss: sqrt (sum err95^2) */
};

struct rows
{
  struct mrow *r;
  size_t n, cap;
  struct htab ht;
  uint64_t dropped;   /* rows refused by the cap (input rows) */
  double dropped_est; /* their estimates, summed */
};

/* A statistic being merged (rules above merge_stats). */
struct mstat
{
  uint32_t name;        /* offset in merge.str */
  uint32_t kind;
  int rule;
  uint64_t value;       /* U64, F64 bits */
  uint32_t str;         /* STR: offset in merge.str */
  size_t inputs;        /* how many have it */
  int differ;           /* R_KEEP: some input disagrees */
};

struct merge
{
  const struct merge_opts *opt;
  struct osp_strtab str; /* every string copied out of an input */
  uint32_t nin;          /* inputs merged so far */
  const char *first;     /* the first merged input's path */
  /* the run: the first input's, totals summed */
  struct osp_vrun run;
  uint64_t time_ns, seq;
  uint32_t paths_pol, forest_pol; /* offsets in str; "mixed" if they differ */
  int forest_dropped, have_forest;
  uint32_t forest_k;
  const char *forest_ref;
  uint64_t covered;      /* snapshots covered (merged_snapshots) */
  double denom[NSEC];    /* path ends, forest items (SEC_PATH, SEC_FOREST) */
  double bound_all[NSEC];
  uint64_t left_out[NSEC];
  /* functions and their structure */
  struct mfn *fns;
  size_t nfns, capfns;
  struct htab fn_ht, id_ht;
  uint32_t next_id;
  struct mblk *blk;
  size_t nblk, capblk;
  struct osp_vedge *edges;
  size_t nedges, capedges;
  uint32_t *lines;
  size_t nlines, caplines;
  int no_costs;       /* an input has no COSTS: the merged view neither */
  int no_work;        /* an input has no FNWORK: the merged view neither */
  /* rows */
  uint32_t *mids;     /* the merged rows' blocks */
  size_t nmids, capmids;
  struct rows sec[NSEC];
  /* statistics */
  struct mstat *st;
  size_t nst, capst;
  struct htab st_ht;
  /* identities, one per merged input and per part of a merged input */
  struct ident *ids;
  size_t nids, capids;
  size_t skipped;
  /* key of the current lookup */
  const uint32_t *key_ids;
  uint32_t key_len, key_fn, key_parent;
  uint64_t key_id;
  const char *key_name, *key_file;
  int sec_now;
};

static const char *
S (const struct merge *m, uint32_t off)
{
  return m->str.buf + off;
}

static uint32_t
intern (struct merge *m, const char *s)
{
  return osp_strtab_intern (&m->str, s);
}

static int
oom (void)
{
  ospview_error ("--merge: out of memory");
  return -1;
}

static uint64_t
sat_add (uint64_t a, uint64_t b)
{
  return a + b < a ? UINT64_MAX - 1 : a + b; /* never OSP_VIEW_NONE */
}

/* An input refused: one line, "(skipped)" with --keep-going.  Returns 1
   (refused) for the caller to pass on. */
static int __attribute__ ((format (printf, 2, 3)))
refuse (const struct merge *m, const char *fmt, ...)
{
  char msg[1024];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  ospview_error ("%s%s", msg,
                 m->opt->keep_going ? " (skipped: --keep-going)" : "");
  return 1;
}

/* Function FI of V's source digest, or NULL when it has none. */
static const struct osp_vfnsrc *
fn_digest (const struct view *v, uint64_t fi)
{
  const struct osp_vfnsrc *s = view_fnsrc (v, fi);
  return s != NULL && (s->flags & OSP_VSRC_DIGEST) ? s : NULL;
}

/* ---- functions ------------------------------------------------------- */

static int
fn_eq (const void *ctx, uint32_t v)
{
  const struct merge *m = ctx;
  return strcmp (S (m, m->fns[v].name), m->key_name) == 0
         && strcmp (S (m, m->fns[v].file), m->key_file) == 0;
}

static int
id_eq (const void *ctx, uint32_t v)
{
  const struct merge *m = ctx;
  return m->fns[v].id == m->key_fn;
}

/* A function id for a new merged function: its own unless taken. */
static int
take_id (struct merge *m, uint32_t f, uint32_t want)
{
  if (ht_reserve (&m->id_ht) != 0)
    return -1;
  m->key_fn = want;
  struct hslot *at = ht_find (&m->id_ht, mix (1, want), id_eq, m);
  if (at->v != UINT32_MAX)
    {
      want = m->next_id;
      m->key_fn = want;
      at = ht_find (&m->id_ht, mix (1, want), id_eq, m);
    }
  m->fns[f].id = want;
  ht_put (&m->id_ht, at, mix (1, want), f);
  if (want >= m->next_id)
    m->next_id = want + 1;
  return 0;
}

/* The merged function named like function FI of V, or UINT32_MAX. */
static uint32_t
lookup_fn (struct merge *m, const struct view *v, uint64_t fi, uint64_t *h)
{
  const struct osp_vfn *f = view_fn (v, fi);
  m->key_name = view_str (v, f->name);
  m->key_file = view_str (v, f->file);
  *h = hash_str (hash_str (0, m->key_name), m->key_file);
  if (m->fn_ht.cap == 0)
    return UINT32_MAX;
  return ht_find (&m->fn_ht, *h, fn_eq, m)->v;
}

/* Whether input IN is the same program and build as what is merged (the
   rules at the top), changing nothing.  0, 1 refused (message printed). */
static int
check_functions (struct merge *m, const struct input *in)
{
  const struct view *v = &in->snap.view;
  uint64_t common = 0, h;
  for (uint64_t fi = 0; fi < v->nfns; fi++)
    {
      uint32_t g = lookup_fn (m, v, fi, &h);
      if (g == UINT32_MAX)
        continue;
      const struct mfn *gf = &m->fns[g];
      const struct osp_vfn *f = view_fn (v, fi);
      common++;
      if (gf->nblocks != f->nblocks)
        return refuse (m, "%s: not the same build of the program as %s: "
                       "function %s (%s) has %u blocks there, %u here",
                       in->path, m->first, S (m, gf->name), S (m, gf->file),
                       gf->nblocks, f->nblocks);
      for (uint32_t b = 0; b < f->nblocks; b++)
        {
          const struct osp_vblock *x = &m->blk[gf->block0 + b].b;
          const struct osp_vblock *y = view_block (v, f->block0 + b);
          if (x->first_line != y->first_line || x->last_line != y->last_line)
            return refuse (m, "%s: not the same build of the program as "
                           "%s: function %s (%s) block %u has lines %u-%u "
                           "there, %u-%u here", in->path, m->first,
                           S (m, gf->name), S (m, gf->file), b,
                           x->first_line, x->last_line, y->first_line,
                           y->last_line);
        }
      const struct osp_vfnsrc *y = fn_digest (v, fi);
      if (gf->has_src && (gf->src.flags & OSP_VSRC_DIGEST) && y != NULL
          && (gf->src.size != y->size
              || memcmp (gf->src.sha256, y->sha256, sizeof y->sha256) != 0))
        return refuse (m, "%s: not the same build of the program as %s: "
                       "function %s (%s) was compiled from other contents "
                       "of its source file (another SHA-256)", in->path,
                       m->first, S (m, gf->name), S (m, gf->file));
    }
  if (m->nin > 0 && common == 0)
    return refuse (m, "%s: no function in common with %s: not the same "
                   "program", in->path, m->first);
  return 0;
}

/* Function FI of input IN, new to the merge: a copy of it, its blocks,
   costs, lines and edges.  0, or -1 (message printed). */
static int
copy_function (struct merge *m, struct input *in, uint64_t fi, uint64_t h)
{
  const struct view *v = &in->snap.view;
  const struct osp_vfn *f = view_fn (v, fi);
  if (m->nfns >= UINT32_MAX - 1
      || (uint64_t) m->nblk + f->nblocks >= UINT32_MAX)
    {
      ospview_error ("%s: more functions or blocks than a view can hold",
                     in->path);
      return -1;
    }
  if (ospview_grow (&m->fns, &m->capfns, m->nfns + 1, sizeof *m->fns, 256)
      || ospview_grow (&m->blk, &m->capblk, m->nblk + f->nblocks,
                       sizeof *m->blk, 1024)
      || ht_reserve (&m->fn_ht) != 0)
    return oom ();
  uint32_t g = (uint32_t) m->nfns++;
  struct mfn *mf = &m->fns[g];
  const struct osp_vfnsrc *src = view_fnsrc (v, fi);
  *mf = (struct mfn) { .block0 = (uint32_t) m->nblk,
                       .nblocks = f->nblocks, .first_line = f->first_line,
                       .name = intern (m, view_str (v, f->name)),
                       .file = intern (m, view_str (v, f->file)),
                       .calls = OSP_VIEW_NONE,
                       .no_digest = fn_digest (v, fi) == NULL,
                       .has_src = src != NULL, .edge0 = m->nedges };
  if (src != NULL)
    {
      mf->src = *src;
      mf->src.comp_dir = intern (m, view_str (v, src->comp_dir));
    }
  /* fn_eq reads the copies: key_name and key_file are still the input's */
  ht_put (&m->fn_ht, ht_find (&m->fn_ht, h, fn_eq, m), h, g);
  if (take_id (m, g, f->id) != 0)
    return oom ();
  for (uint32_t k = 0; k < f->nblocks; k++)
    {
      const struct osp_vblock *sb = view_block (v, f->block0 + k);
      struct mblk *b = &m->blk[m->nblk++];
      *b = (struct mblk) { .b = *sb, .cost = view_cost (v, f->block0 + k) };
      b->b.fn = g;
      b->b.count = OSP_VIEW_NONE;
      uint32_t nl;
      const uint32_t *lines = view_block_lines (v, f->block0 + k, &nl);
      if (v->blines != NULL)
        {
          if (ospview_grow (&m->lines, &m->caplines, m->nlines + nl,
                            sizeof *m->lines, 1024))
            return oom ();
          b = &m->blk[m->nblk - 1];
          b->has_lines = 1;
          b->line0 = (uint32_t) m->nlines;
          b->nlines = nl;
          if (nl)
            memcpy (m->lines + m->nlines, lines, nl * sizeof *lines);
          m->nlines += nl;
        }
    }
  /* its edges (grouped by source block there, so here too: functions and
     their blocks keep their order) */
  uint32_t lo = f->block0, hi = lo + f->nblocks;
  for (uint64_t a = ex_edge_first (v, lo);
       a < v->nedges && view_edge (v, a)->from < hi; a++)
    {
      const struct osp_vedge *e = view_edge (v, a);
      if (ospview_grow (&m->edges, &m->capedges, m->nedges + 1,
                        sizeof *m->edges, 1024))
        return oom ();
      uint32_t b0 = m->fns[g].block0;
      m->edges[m->nedges++] = (struct osp_vedge) {
        .from = b0 + (e->from - lo),
        .to = e->to == OSP_VIEW_EXIT ? OSP_VIEW_EXIT : b0 + (e->to - lo),
        .flags = e->flags };
    }
  m->fns[g].nedges = m->nedges - m->fns[g].edge0;
  return 0;
}

/* Input IN's functions and blocks into the merge (checked before): its
   fnmap and blockmap, new functions copied, counts, calls and work summed
   (mode=blocks: exact counts).  0, or -1. */
static int
add_functions (struct merge *m, struct input *in)
{
  const struct view *v = &in->snap.view;
  in->fnmap = malloc ((v->nfns ? v->nfns : 1) * sizeof *in->fnmap);
  in->blockmap = malloc ((v->nblocks ? v->nblocks : 1) * sizeof (uint32_t));
  if (in->fnmap == NULL || in->blockmap == NULL)
    return oom ();
  size_t first_new = m->nfns;
  for (uint64_t fi = 0; fi < v->nfns; fi++)
    {
      uint64_t h;
      uint32_t g = lookup_fn (m, v, fi, &h);
      if (g == UINT32_MAX)
        {
          if (copy_function (m, in, fi, h) != 0)
            return -1;
          g = (uint32_t) m->nfns - 1;
        }
      else if (g >= first_new && m->fns[g].nblocks != view_fn (v, fi)->nblocks)
        {
          /* one name and file twice in one view (check_functions compared
             it with the earlier inputs only): its blocks would map out of
             the function */
          ospview_error ("%s: function %s (%s) twice, with %u and %u "
                         "blocks", in->path, S (m, m->fns[g].name),
                         S (m, m->fns[g].file), m->fns[g].nblocks,
                         view_fn (v, fi)->nblocks);
          return -1;
        }
      else if (fn_digest (v, fi) == NULL)
        m->fns[g].no_digest = 1;
      in->fnmap[fi] = g;
      struct mfn *mf = &m->fns[g];
      uint64_t c = view_fn (v, fi)->calls;
      if (c != OSP_VIEW_NONE)
        mf->calls = mf->calls == OSP_VIEW_NONE ? c : sat_add (mf->calls, c);
      /* Work adds up like executions: runs of one build, same costs. */
      const struct osp_vfnwork *w = view_fnwork (v, fi);
      if (w != NULL)
        mf->execs += w->execs, mf->work += w->work;
    }
  for (uint64_t b = 0; b < v->nblocks; b++)
    {
      const struct osp_vblock *bl = view_block (v, b);
      uint32_t g = m->fns[in->fnmap[bl->fn]].block0 + bl->block;
      in->blockmap[b] = g;
      uint64_t *cnt = &m->blk[g].b.count;
      if (bl->count != OSP_VIEW_NONE)
        *cnt = *cnt == OSP_VIEW_NONE ? bl->count : sat_add (*cnt, bl->count);
    }
  m->no_costs |= v->costs == NULL;
  m->no_work |= v->fnwork == NULL;
  return 0;
}

/* ---- rows ------------------------------------------------------------ */

static int
row_eq (const void *ctx, uint32_t v)
{
  const struct merge *m = ctx;
  const struct mrow *r = &m->sec[m->sec_now].r[v];
  if (m->sec_now == SEC_SUB) /* (no memcmp of nothing: KEY_IDS may be
                                NULL then) */
    return r->len == m->key_len
           && (m->key_len == 0
               || memcmp (m->mids + r->ids, m->key_ids,
                          m->key_len * sizeof *m->key_ids) == 0);
  return r->fn == m->key_fn && r->id == m->key_id
         && (m->sec_now == SEC_PATH || r->parent == m->key_parent);
}

/* The merged row of section S with the key set in M (added, with the
   blocks KEY_IDS, if new): its index; UINT32_MAX when the section is at
   its cap (the caller counts the drop) or out of memory (*FAILED set,
   message printed). */
static uint32_t
find_row (struct merge *m, int s, int *failed)
{
  struct rows *rs = &m->sec[s];
  m->sec_now = s;
  uint64_t h = mix ((uint64_t) s, m->key_len);
  if (s == SEC_SUB)
    for (uint32_t k = 0; k < m->key_len; k++)
      h = mix (h, m->key_ids[k]);
  else
    h = mix (mix (mix (h, m->key_fn), m->key_id), m->key_parent);
  if (ht_reserve (&rs->ht) != 0)
    return *failed = oom (), UINT32_MAX;
  struct hslot *at = ht_find (&rs->ht, h, row_eq, m);
  if (at->v != UINT32_MAX)
    return at->v;
  if (rs->n >= m->opt->max_rows)
    return UINT32_MAX;
  if (ospview_grow (&rs->r, &rs->cap, rs->n + 1, sizeof *rs->r, 256) != 0
      || ospview_grow (&m->mids, &m->capmids, m->nmids + m->key_len,
                       sizeof *m->mids, 4096)
             != 0)
    return *failed = oom (), UINT32_MAX;
  struct mrow *r = &rs->r[rs->n];
  memset (r, 0, sizeof *r);
  r->ids = m->nmids;
  r->len = m->key_len;
  r->fn = m->key_fn;
  r->id = m->key_id;
  r->parent = m->key_parent;
  if (m->key_len)
    memcpy (m->mids + m->nmids, m->key_ids, m->key_len * sizeof *m->mids);
  m->nmids += m->key_len;
  ht_put (&rs->ht, at, h, (uint32_t) rs->n);
  return (uint32_t) rs->n++;
}

/* Input IN's numbers for row X of section S (UINT32_MAX: dropped by the
   cap, counted). */
static void
add_to_row (struct merge *m, int s, uint32_t x, const struct input *in,
            uint64_t count, double est, double err)
{
  struct rows *rs = &m->sec[s];
  if (x == UINT32_MAX)
    {
      rs->dropped++;
      rs->dropped_est = ospview_sat (rs->dropped_est + est);
      return;
    }
  struct mrow *r = &rs->r[x];
  r->count = sat_add (r->count, count);
  /* saturating (ospview.h): a merge of huge finite inputs stays finite,
     so it reads back */
  r->est = ospview_sat (r->est + est);
  r->rss = ospview_sat (hypot (r->rss, err));
  if (r->last != in->k + 1) /* an input's duplicate rows count once here */
    {
      r->last = in->k + 1;
      r->seen++;
      r->bound_present = ospview_sat (r->bound_present + in->bound[s]);
    }
}

/* The blocks [ids, ids + len) of input IN as merged blocks into BUF. */
static const uint32_t *
map_ids (const struct input *in, uint64_t ids, uint32_t len, uint32_t **buf,
         size_t *cap)
{
  if (ospview_grow (buf, cap, len, sizeof **buf, 64) != 0)
    return NULL;
  for (uint32_t k = 0; k < len; k++)
    (*buf)[k] = in->blockmap[in->snap.view.ids[ids + k]];
  return *buf;
}

/* The key of a row of input IN in M: its LEN blocks at IDS (mapped
   into BUF), merged function FN (UINT32_MAX: a subpath), Ball-Larus ID
   and merged PARENT.  0, or -1 out of memory. */
static int
set_key (struct merge *m, const struct input *in, uint64_t ids, uint32_t len,
         uint32_t fn, uint64_t id, uint32_t parent, uint32_t **buf,
         size_t *cap)
{
  m->key_ids = map_ids (in, ids, len, buf, cap);
  if (len && m->key_ids == NULL)
    return -1;
  m->key_len = len;
  m->key_fn = fn;
  m->key_id = id;
  m->key_parent = parent;
  return 0;
}

/* Input IN's rows into the merged sections.  0, or -1 (out of memory). */
static int
add_rows (struct merge *m, struct input *in)
{
  const struct view *v = &in->snap.view;
  uint32_t *buf = NULL;
  size_t cap = 0;
  int failed = 0;
  uint32_t *nodemap = malloc ((v->nforest ? v->nforest : 1)
                              * sizeof *nodemap);
  if (nodemap == NULL)
    return oom ();
  for (uint64_t k = 0; k < v->nsubpaths && !failed; k++)
    {
      const struct osp_vsubpath *s = view_subpath (v, k);
      if (set_key (m, in, s->ids, s->len, UINT32_MAX, 0, OSP_VIEW_NO_PARENT,
                   &buf, &cap) != 0)
        failed = oom ();
      uint32_t x = failed ? 0 : find_row (m, SEC_SUB, &failed);
      if (!failed)
        add_to_row (m, SEC_SUB, x, in, s->count, s->estimate, s->err95);
    }
  for (uint64_t k = 0; k < v->npaths && !failed; k++)
    {
      const struct osp_vpath *p = view_path (v, k);
      if (set_key (m, in, p->ids, p->len, in->fnmap[p->fn], p->id,
                   OSP_VIEW_NO_PARENT, &buf, &cap) != 0)
        failed = oom ();
      uint32_t x = failed ? 0 : find_row (m, SEC_PATH, &failed);
      if (failed)
        break;
      add_to_row (m, SEC_PATH, x, in, p->samples, p->estimate, p->err95);
      if (x != UINT32_MAX)
        m->sec[SEC_PATH].r[x].branches = p->branches;
    }
  for (uint64_t k = 0; k < v->nforest && !m->forest_dropped && !failed; k++)
    {
      const struct osp_vforest *f = view_forest (v, k);
      /* a node whose parent the cap dropped goes with it (the view has
         parents before children) */
      uint32_t parent = f->parent == OSP_VIEW_NO_PARENT ? OSP_VIEW_NO_PARENT
                                                        : nodemap[f->parent];
      uint32_t x = UINT32_MAX;
      if (f->parent == OSP_VIEW_NO_PARENT || parent != UINT32_MAX)
        {
          if (set_key (m, in, f->ids, f->len, in->fnmap[f->fn], f->id, parent,
                       &buf, &cap) != 0)
            failed = oom ();
          x = failed ? 0 : find_row (m, SEC_FOREST, &failed);
          if (failed)
            break;
        }
      nodemap[k] = x;
      add_to_row (m, SEC_FOREST, x, in, f->count, f->estimate, f->err95);
    }
  free (buf);
  free (nodemap);
  return failed ? -1 : 0;
}

/* ---- absence bounds and totals --------------------------------------- */

static uint64_t
stat_or (const struct view *v, const char *name, uint64_t dflt)
{
  uint64_t x;
  return view_stat_u64 (v, name, &x) ? x : dflt;
}

static int
is_merged (const struct input *in)
{
  return (in->snap.hdr.flags & OSP_SNAP_MERGED) != 0;
}

/* Whether section S of view V may lack rows that ran: the rule of the
   header comment, from the RUN strings and the stats the runtime writes
   (report-subpaths.c, report-paths.c, report-forest.c). */
static int
section_cut (const struct view *v, int s)
{
  if (s == SEC_SUB)
    return strcmp (view_str (v, v->run.mode), "subpaths-exact") != 0
           || v->nsubpaths < stat_or (v, "subpaths", 0)
           || stat_or (v, "exact_dropped", 0) > 0;
  if (s == SEC_PATH)
    return strcmp (view_str (v, v->run.paths), "exhaustive") != 0
           || v->npaths < stat_or (v, "paths_distinct", 0)
           || stat_or (v, "paths_dropped", 0) > 0;
  uint64_t roots = 0;
  for (uint64_t k = 0; k < v->nforest; k++)
    roots += view_forest (v, k)->parent == OSP_VIEW_NO_PARENT;
  return strcmp (view_str (v, v->run.forest), "exhaustive") != 0
         || roots < stat_or (v, "forest_trees", 0)
         || stat_or (v, "forest_prune", 0) > 0
         || stat_or (v, "forest_rows_cut", 0) > 0
         || stat_or (v, "forest_dropped", 0) > 0
         || stat_or (v, "forest_pruned_nodes", 0) > 0
         || stat_or (v, "forest_ipf_truncated", 0) > 0;
}

/* A merged input's recorded figure merged_WHAT_SECTION, if it has one. */
static int
merged_f64 (const struct input *in, const char *what, int s, double *out)
{
  char name[64];
  snprintf (name, sizeof name, "merged_%s_%s", what, sec_stat[s]);
  return is_merged (in) && view_stat_f64 (&in->snap.view, name, out);
}

static void
set_bounds (struct input *in)
{
  const struct view *v = &in->snap.view;
  uint64_t n[NSEC] = { v->nsubpaths, v->npaths, v->nforest };
  for (int s = 0; s < NSEC; s++)
    {
      in->bound[s] = 0;
      if (merged_f64 (in, "absent", s, &in->bound[s]))
        continue; /* what its parts may have hidden: recorded */
      if (n[s] == 0 || !section_cut (v, s))
        continue;
      double lo = INFINITY;
      for (uint64_t k = 0; k < n[s]; k++)
        {
          double e = s == SEC_SUB    ? view_subpath (v, k)->estimate
                     : s == SEC_PATH ? view_path (v, k)->estimate
                                     : view_forest (v, k)->estimate;
          if (e < lo)
            lo = e;
        }
      in->bound[s] = lo;
    }
}

/* Estimated path ends (paths) or forest items (forest) of input IN: what
   its shares divide by (a merged input's: recorded). */
static double
denominator (const struct input *in, int s)
{
  const struct view *v = &in->snap.view;
  double d;
  if (merged_f64 (in, "total", s, &d))
    return d;
  uint64_t x;
  if (s == SEC_PATH)
    {
      uint64_t counted = 0; /* older snapshots lack the stat: none */
      view_stat_u64 (v, "path_counted", &counted);
      return view_stat_u64 (v, "path_samples", &x)
                 ? ospview_sat ((double) x * v->run.path_scale
                                + (double) counted)
                 : (double) v->run.path_ends;
    }
  if (view_stat_u64 (v, "forest_items", &x))
    return ospview_sat ((double) x * v->run.forest_scale);
  double sum = 0;
  for (uint64_t k = 0; k < v->nforest; k++)
    if (view_forest (v, k)->parent == OSP_VIEW_NO_PARENT)
      sum = ospview_sat (sum + view_forest (v, k)->estimate);
  return sum;
}

/* Rows of section S the stat NAME says input IN had beyond its view's
   (0 when it does not say). */
static uint64_t
left_out (const struct input *in, const char *name, int s)
{
  const struct view *v = &in->snap.view;
  uint64_t shown = s == SEC_SUB ? v->nsubpaths : s == SEC_PATH ? v->npaths : 0;
  if (s == SEC_FOREST)
    for (uint64_t k = 0; k < v->nforest; k++)
      shown += view_forest (v, k)->parent == OSP_VIEW_NO_PARENT;
  uint64_t had = stat_or (v, name, 0);
  return had > shown ? had - shown : 0;
}

/* ---- ranking and shares ---------------------------------------------- */

/* What rank_cmp's indices point into: section S of M. */
struct rsort
{
  const struct merge *m;
  int s;
};

static double
low_end (const struct mrow *r)
{
  double l = r->est - r->err;
  return l > 0 ? l : 0;
}

/* The runtime's ranking (estimate.c): low end of the interval, then the
   estimate, descending; then content, so equal inputs give equal
   output. */
static int
rank_cmp (const void *a, const void *b, void *ctx)
{
  const struct rsort *rs = ctx;
  const struct merge *m = rs->m;
  const struct mrow *x = &m->sec[rs->s].r[*(const uint32_t *) a];
  const struct mrow *y = &m->sec[rs->s].r[*(const uint32_t *) b];
  /* a subpath or path whose interval is wider than its estimate is not
     ranked: after every one that is (shares.c, estimate.c); a forest node
     keeps its place in the tree */
  int fx = rs->s != SEC_FOREST && view_too_few (x->est, x->err);
  int fy = rs->s != SEC_FOREST && view_too_few (y->est, y->err);
  if (fx != fy)
    return fx ? 1 : -1;
  if (rs->s != SEC_FOREST && low_end (x) != low_end (y))
    return low_end (x) < low_end (y) ? 1 : -1;
  if (x->est != y->est)
    return x->est < y->est ? 1 : -1;
  if (x->fn != y->fn)
    return x->fn < y->fn ? -1 : 1;
  if (x->id != y->id)
    return x->id < y->id ? -1 : 1;
  if (x->len != y->len)
    return x->len < y->len ? -1 : 1;
  for (uint32_t k = 0; k < x->len; k++)
    if (m->mids[x->ids + k] != m->mids[y->ids + k])
      return m->mids[x->ids + k] < m->mids[y->ids + k] ? -1 : 1;
  return 0;
}

/* err95 of every row of section S, and its order (malloc'ed). */
static uint32_t *
finish_section (struct merge *m, int s)
{
  struct rows *rs = &m->sec[s];
  double all = m->bound_all[s];
  for (size_t k = 0; k < rs->n; k++)
    {
      struct mrow *r = &rs->r[k];
      double absent = r->seen == m->nin ? 0 : all - r->bound_present;
      r->err = ospview_sat (r->rss + (absent > 0 ? absent : 0));
    }
  uint32_t *order = malloc ((rs->n ? rs->n : 1) * sizeof *order);
  if (order == NULL)
    return NULL;
  for (size_t k = 0; k < rs->n; k++)
    order[k] = (uint32_t) k;
  struct rsort by = { m, s };
  ospview_sort_r (order, rs->n, sizeof *order, rank_cmp, &by);
  return order;
}

/* ---- statistics -------------------------------------------------------
 * By name (the tsv report's names, libosprt/report*.c):
 *   SUM     event counters of a run: the merged run's are the sums
 *   MAX     gauges of memory and table use: the largest of the inputs
 *           (what one run needed)
 *   RECOUNT defined by the merged rows, written afresh: functions (the
 *           merged table), subpaths, paths_distinct, forest_trees (the
 *           merged rows or roots plus, per input, those it had but its
 *           view left out, so that "fewer rows than the stat" still tells
 *           a cut input), and every merged_* (write_merged_stats)
 *   any other: settings and capacities (bytes, caps, intervals, seeds,
 *           policies, modules) and every F64 (thresholds, gain, scales:
 *           per-run quantities with no merged meaning): kept when every
 *           input has it with the same kind and value, else dropped.
 */
static const char *const sum_stats[] = {
  "functions_dropped", "unregistered_hits", "threads", "records_invalid",
  "abi_mismatches", "hits_lost", "block_entries", "blocks_seen",
  "blocks_sampled", "samples", "starts", "declined", "starts_drawn", "resamples", "hotlist_offered",
  "hotlist_admitted", "hotlist_evictions", "hotlist_too_long",
  "exact_dropped", "path_ends_seen", "path_ends_estimated", "path_ticks",
  "path_samples",
  "path_counted", "forest_unseen",
  "paths_dropped", "paths_invalid", "decode_cache_hits",
  "decode_cache_misses", "forest_items", "forest_context", "forest_markers",
  "forest_bursts", "forest_hash_accesses", "forest_child_finds",
  "forest_child_scans", "forest_pruned_nodes", "forest_pruned_mass",
  "forest_prune_passes", "forest_dropped", "forest_deep", "forest_streams",
  "forest_threads_refused", "forest_resyncs", "forest_partial",
  "forest_unlabelled", "forest_invalid", "forest_shape_hits",
  "forest_shape_misses", "forest_ipf_truncated", "forest_rows_cut",
};
static const char *const max_stats[] = {
  "hotlist_entries", "hotlist_sample_size", "hotlist_bytes_used",
  "hotlist_bytes_peak", "exact_entries", "exact_bytes_used",
  "path_bytes_used", "path_bytes_peak", "path_counter_bytes",
  "path_counted_plain", "forest_nodes",
  "forest_nodes_peak", "forest_threshold", "forest_ipf_nodes",
};
static const char *const recount_stats[] = {
  "functions", "subpaths", "paths_distinct", "forest_trees",
};

enum rule { R_KEEP, R_SUM, R_MAX, R_RECOUNT };

static int
in_list (const char *name, const char *const *list, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp (name, list[i]) == 0)
      return 1;
  return 0;
}

#define IN(name, list) in_list (name, list, sizeof list / sizeof list[0])

static int
stat_eq (const void *ctx, uint32_t v)
{
  const struct merge *m = ctx;
  return strcmp (S (m, m->st[v].name), m->key_name) == 0;
}

/* View V's statistics into the merged ones (copied).  0, or -1. */
static int
merge_stats (struct merge *m, const struct view *v)
{
  for (uint64_t k = 0; k < v->nstats; k++)
    {
      const struct osp_vstat *x = view_stat (v, k);
      const char *name = view_str (v, x->name);
      m->key_name = name;
      if (ht_reserve (&m->st_ht) != 0)
        return oom ();
      uint64_t h = hash_str (0, name);
      struct hslot *at = ht_find (&m->st_ht, h, stat_eq, m);
      const char *str = x->kind == OSP_VSTAT_STR
                            ? view_str (v, (uint32_t) x->value)
                            : NULL;
      if (at->v == UINT32_MAX)
        {
          if (ospview_grow (&m->st, &m->capst, m->nst + 1, sizeof *m->st,
                            128)
              != 0)
            return oom ();
          enum rule r = IN (name, recount_stats)
                                || strncmp (name, "merged_", 7) == 0
                            ? R_RECOUNT
                        : x->kind != OSP_VSTAT_U64 ? R_KEEP
                        : IN (name, sum_stats)     ? R_SUM
                        : IN (name, max_stats)     ? R_MAX
                                                   : R_KEEP;
          m->st[m->nst] = (struct mstat) { .name = intern (m, name),
                                           .kind = x->kind, .rule = r,
                                           .value = x->value,
                                           .str = intern (m, str),
                                           .inputs = 1 };
          ht_put (&m->st_ht, at, h, (uint32_t) m->nst++);
          continue;
        }
      struct mstat *s = &m->st[at->v];
      s->inputs++;
      if (x->kind != s->kind)
        s->differ = 1;
      else if (s->rule == R_SUM)
        s->value = sat_add (s->value, x->value);
      else if (s->rule == R_MAX)
        s->value = x->value > s->value ? x->value : s->value;
      else if (s->rule == R_KEEP
               && (str ? strcmp (str, S (m, s->str)) != 0
                       : x->value != s->value))
        s->differ = 1;
    }
  return 0;
}

static int
cmp_u64 (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return x < y ? -1 : x > y;
}

/* The processes the merge covers: distinct nonzero instance ids, plus one
   per view that does not say who wrote it (instance 0).  0 out of memory
   (then the statistic says nothing). */
static uint64_t
processes (const struct merge *m)
{
  uint64_t *x = malloc ((m->nids ? m->nids : 1) * sizeof *x);
  if (x == NULL)
    return 0;
  size_t n = 0;
  uint64_t count = 0;
  for (size_t k = 0; k < m->nids; k++)
    if (m->ids[k].proc)
      {
        if (m->ids[k].instance == 0)
          count++;
        else
          x[n++] = m->ids[k].instance;
      }
  qsort (x, n, sizeof *x, cmp_u64);
  for (size_t k = 0; k < n; k++)
    count += k == 0 || x[k] != x[k - 1];
  free (x);
  return count;
}

static void
write_stats (struct vbuild *b, const struct merge *m, uint64_t roots)
{
  for (size_t k = 0; k < m->nst; k++)
    {
      const struct mstat *s = &m->st[k];
      const char *name = S (m, s->name);
      if (s->rule == R_RECOUNT)
        {
          uint64_t x;
          if (strcmp (name, "functions") == 0)
            x = m->nfns;
          else if (strcmp (name, "subpaths") == 0)
            x = m->sec[SEC_SUB].n + m->left_out[SEC_SUB];
          else if (strcmp (name, "paths_distinct") == 0)
            x = m->sec[SEC_PATH].n + m->left_out[SEC_PATH];
          else if (strcmp (name, "forest_trees") == 0)
            {
              if (m->forest_dropped)
                continue;
              x = roots + m->left_out[SEC_FOREST];
            }
          else
            continue; /* merged_*: written last */
          vb_stat_u64 (b, name, x);
          continue;
        }
      if (s->differ || (s->rule == R_KEEP && s->inputs != m->nin))
        continue;
      if (m->forest_dropped && strncmp (name, "forest", 6) == 0)
        continue;
      if (s->kind == OSP_VSTAT_STR)
        vb_stat_str (b, name, S (m, s->str));
      else if (s->kind == OSP_VSTAT_F64)
        {
          double d;
          memcpy (&d, &s->value, sizeof d);
          vb_stat_f64 (b, name, d);
        }
      else
        vb_stat_u64 (b, name, s->value);
    }
}

/* What the merge stands for, so that a later merge of it is honest
   (the header comment): the snapshots and processes it covers, per
   section what a row it lacks may have been (its inputs' bounds and what
   the cap dropped) and the rows dropped, the denominators of the path and
   forest shares, and the instance ids of its processes, IDS_PER_STAT per
   statistic. */
static void
write_merged_stats (struct vbuild *b, const struct merge *m)
{
  char name[64];
  vb_stat_u64 (b, "merged_snapshots", m->covered);
  vb_stat_u64 (b, "merged_processes", processes (m));
  for (int s = 0; s < NSEC; s++)
    {
      const struct rows *rs = &m->sec[s];
      snprintf (name, sizeof name, "merged_absent_%s", sec_stat[s]);
      vb_stat_f64 (b, name, ospview_sat (m->bound_all[s] + rs->dropped_est));
      snprintf (name, sizeof name, "merged_rows_dropped_%s", sec_stat[s]);
      vb_stat_u64 (b, name, rs->dropped);
    }
  vb_stat_f64 (b, "merged_total_paths", m->denom[SEC_PATH]);
  vb_stat_f64 (b, "merged_total_forest", m->denom[SEC_FOREST]);
  char buf[IDS_PER_STAT * 17 + 1];
  size_t len = 0, in_stat = 0, nstat = 0;
  for (size_t k = 0; k <= m->nids; k++)
    {
      int last = k == m->nids;
      const struct ident *id = last ? NULL : &m->ids[k];
      int proc = !last && id->proc;
      if (proc)
        {
          len += (size_t) snprintf (buf + len, sizeof buf - len, "%s%016" PRIx64,
                                    in_stat ? " " : "", id->instance);
          in_stat++;
        }
      if ((last && in_stat) || in_stat == IDS_PER_STAT)
        {
          snprintf (name, sizeof name, "merged_instances_%zu", nstat++);
          vb_stat_str (b, name, buf);
          len = in_stat = 0;
        }
    }
}

/* ---- writing --------------------------------------------------------- */

static double
ratio (double a, double b)
{
  return b > 0 ? ospview_sat (a / b) : 0;
}

/* A subpath length's class: its highest bit (0..31; 32 for 0). */
static unsigned
len_class (uint32_t len)
{
  return len ? 31u - (unsigned) __builtin_clz (len) : 32u;
}

static void
write_structure (struct vbuild *b, const struct merge *m)
{
  for (size_t g = 0; g < m->nfns; g++)
    {
      const struct mfn *f = &m->fns[g];
      struct osp_vfn out = { .id = f->id, .name = vb_str (b, S (m, f->name)),
                             .file = vb_str (b, S (m, f->file)),
                             .first_line = f->first_line,
                             .block0 = f->block0, .nblocks = f->nblocks,
                             .calls = f->calls };
      uint32_t at = vb_fn (b, &out);
      if (f->has_src && at != UINT32_MAX)
        {
          struct osp_vfnsrc src = f->src;
          src.comp_dir = vb_str (b, S (m, f->src.comp_dir));
          if (f->no_digest)
            src.flags = 0, src.size = 0,
            memset (src.sha256, 0, sizeof src.sha256);
          vb_fnsrc (b, at, &src);
        }
      if (!m->no_work && at != UINT32_MAX)
        vb_fnwork (b, at, &(struct osp_vfnwork) { f->execs, f->work });
    }
  for (size_t k = 0; k < m->nblk; k++)
    {
      const struct mblk *mb = &m->blk[k];
      uint32_t at = vb_block (b, &mb->b);
      if (!m->no_costs && at != UINT32_MAX)
        vb_cost (b, at, mb->cost);
      if (mb->has_lines && at != UINT32_MAX) /* (LINES is NULL while empty) */
        vb_lines (b, at, mb->nlines ? m->lines + mb->line0 : NULL,
                  mb->nlines);
    }
  for (size_t k = 0; k < m->nedges; k++)
    vb_edge (b, &m->edges[k]);
}

static uint64_t
write_rows (struct vbuild *b, struct merge *m, uint32_t *order[NSEC])
{
  uint64_t blocks_seen = b->run.blocks_seen;
  struct rows *rs = &m->sec[SEC_SUB];
  /* each length class's shares: of its windows, or of its estimates'
     sum when that is larger (the runtime's rule, shares.c) */
  double class_sum[33] = { 0 };
  for (size_t k = 0; k < rs->n; k++)
    {
      unsigned c = len_class (rs->r[k].len);
      class_sum[c] = ospview_sat (class_sum[c] + rs->r[k].est);
    }
  for (size_t k = 0; k < rs->n; k++)
    {
      const struct mrow *r = &rs->r[order[SEC_SUB][k]];
      /* each process's first L - 1 blocks start no window of length L */
      double cut = (double) m->covered * ((double) r->len - 1);
      double windows = (double) blocks_seen > cut
                           ? (double) blocks_seen - cut : 0;
      double sum = class_sum[len_class (r->len)];
      double of = windows > sum ? windows : sum;
      struct osp_vsubpath s = { .ids = vb_ids (b, m->mids + r->ids, r->len),
                                .len = r->len, .rank = (uint32_t) k + 1,
                                .count = r->count, .estimate = r->est,
                                .err95 = r->err,
                                .share = ratio (r->est, of) };
      /* a sum of several runs' entries: ranked by the sum's own interval;
         no one table's evidence (threshold, scale) describes it */
      s.flags = view_too_few (s.estimate, s.err95) ? 0 : OSP_VSUB_RANKED;
      s.estimator = OSP_VSUB_EST_UNKNOWN;
      vb_subpath (b, &s);
    }
  rs = &m->sec[SEC_PATH];
  for (size_t k = 0; k < rs->n; k++)
    {
      const struct mrow *r = &rs->r[order[SEC_PATH][k]];
      struct osp_vpath p = { .ids = vb_ids (b, m->mids + r->ids, r->len),
                             .len = r->len, .fn = r->fn, .id = r->id,
                             .samples = r->count, .estimate = r->est,
                             .err95 = r->err,
                             .share = ratio (r->est, m->denom[SEC_PATH]),
                             .branches = r->branches,
                             .rank = (uint32_t) k + 1 };
      /* ranked by the sum's own interval, as the subpaths */
      p.flags = view_too_few (p.estimate, p.err95) ? 0 : OSP_VROW_RANKED;
      vb_path (b, &p);
    }
  if (m->forest_dropped)
    return 0;

  /* The forest in preorder: children lists in rank order (first_child,
     next sibling), then a walk that needs no stack (parent links). */
  rs = &m->sec[SEC_FOREST];
  uint64_t roots = 0;
  size_t nn = rs->n;
  uint32_t *kid = malloc ((nn + 1) * 5 * sizeof *kid);
  if (kid == NULL)
    {
      b->oom = 1;
      return 0;
    }
  uint32_t *first = kid, *last = kid + nn + 1, *next = kid + 2 * (nn + 1),
           *newidx = kid + 3 * (nn + 1), *depth = kid + 4 * (nn + 1);
  const uint32_t NONE = UINT32_MAX, TOP = (uint32_t) nn; /* TOP: roots */
  for (size_t k = 0; k <= nn; k++)
    first[k] = last[k] = next[k] = NONE;
  for (size_t k = 0; k < nn; k++)
    {
      uint32_t x = order[SEC_FOREST][k];
      uint32_t p = rs->r[x].parent == OSP_VIEW_NO_PARENT ? TOP
                                                         : rs->r[x].parent;
      if (last[p] == NONE)
        first[p] = x;
      else
        next[last[p]] = x;
      last[p] = x;
    }
  uint32_t x = first[TOP];
  while (x != NONE)
    {
      const struct mrow *r = &rs->r[x];
      const struct mrow *pr = r->parent == OSP_VIEW_NO_PARENT
                                  ? NULL
                                  : &rs->r[r->parent];
      uint32_t parent = pr ? newidx[r->parent] : OSP_VIEW_NO_PARENT;
      struct osp_vforest f = {
        .ids = vb_ids (b, m->mids + r->ids, r->len), .len = r->len,
        .fn = r->fn, .parent = parent,
        .depth = pr ? depth[r->parent] + 1 : 0,
        .id = r->id, .count = r->count, .estimate = r->est, .err95 = r->err,
        .share = ratio (r->est, pr ? pr->est : m->denom[SEC_FOREST])
      };
      f.flags = view_too_few (f.estimate, f.err95) ? 0 : OSP_VROW_RANKED;
      newidx[x] = vb_forest (b, &f);
      depth[x] = f.depth;
      roots += pr == NULL;
      if (b->oom)
        break;
      /* preorder successor: first child, else the next sibling of the
         nearest node up the chain that has one */
      if (first[x] != NONE)
        x = first[x];
      else
        {
          while (x != NONE && next[x] == NONE)
            x = rs->r[x].parent == OSP_VIEW_NO_PARENT ? NONE
                                                      : rs->r[x].parent;
          x = x == NONE ? NONE : next[x];
        }
    }
  free (kid);
  return roots;
}

/* The merged snapshot, written to OUT, and the summary.  Exit status. */
static int
merge_finish (struct merge *m, const char *out)
{
  char err[512];
  if (m->str.oom)
    return -oom ();
  struct vbuild b;
  vb_init (&b);
  struct osp_vrun run = m->run;
  run.program = vb_str (&b, S (m, m->run.program));
  run.args = vb_str (&b, S (m, m->run.args));
  run.options = vb_str (&b, S (m, m->run.options));
  run.mode = vb_str (&b, S (m, m->run.mode));
  run.paths = vb_str (&b, S (m, m->paths_pol));
  run.forest = vb_str (&b, m->forest_dropped ? "" : S (m, m->forest_pol));
  run.forest_k = m->forest_dropped ? 0 : m->forest_k;
  run.path_scale = run.forest_scale = 0; /* no single scale after a merge */
  vb_run (&b, &run);
  write_structure (&b, m);

  int rc = 1;
  uint32_t *order[NSEC] = { 0 };
  for (int s = 0; s < NSEC; s++)
    if ((order[s] = finish_section (m, s)) == NULL)
      {
        oom ();
        goto done;
      }
  uint64_t roots = write_rows (&b, m, order);
  write_stats (&b, m, roots);
  write_merged_stats (&b, m);
  void *view;
  size_t len;
  if (vb_finish (&b, m->time_ns, m->seq, &view, &len, err, sizeof err) != 0)
    {
      ospview_error ("%s: %s", out, err);
      goto done;
    }
  /* What we wrote must read back: the builder's caller is us.  The file's
     saved time is the newest input's (the merge has no clock of its own:
     merging in steps writes the same file). */
  struct view check;
  if (view_parse (&check, view, len, err, sizeof err) != 0)
    ospview_error ("%s: internal error: %s", out, err);
  else if (snap_save_at (out, view, len, OSP_SNAP_MERGED, m->time_ns, err,
                         sizeof err)
           != 0)
    ospview_error ("%s", err);
  else
    {
      printf ("merged %" PRIu32 " snapshots into %s (%zu functions; rows: "
              "%zu subpaths, %zu paths, %zu forest nodes)\n",
              m->nin, out, m->nfns, vb_count_subpaths (&b),
              vb_count_paths (&b), vb_count_forest (&b));
      printf ("inputs: %" PRIu32 " merged, %zu skipped; covering %" PRIu64
              " snapshots of %" PRIu64 " processes; rows dropped at the cap "
              "of %zu per section: %" PRIu64 " subpaths, %" PRIu64
              " paths, %" PRIu64 " forest nodes\n",
              m->nin, m->skipped, m->covered, processes (m),
              m->opt->max_rows, m->sec[SEC_SUB].dropped,
              m->sec[SEC_PATH].dropped, m->sec[SEC_FOREST].dropped);
      rc = 0;
    }
  free (view);
done:
  for (int s = 0; s < NSEC; s++)
    free (order[s]);
  vb_free (&b);
  return rc;
}

/* ---- identities: one run counted twice ------------------------------- */

/* A merged input's merged_instances_* (16 hex digits each, one space
   between): *PARTS (malloc'ed, NULL when it has none).  0, 1 refused (a
   malformed list), -1 out of memory. */
static int
read_parts (const struct merge *m, struct input *in)
{
  const struct view *v = &in->snap.view;
  size_t cap = 0;
  char name[64];
  for (size_t k = 0;; k++)
    {
      snprintf (name, sizeof name, "merged_instances_%zu", k);
      const char *s = view_stat_str (v, name);
      if (s == NULL)
        return 0;
      for (;;)
        {
          uint64_t x = 0;
          int d;
          for (d = 0; d < 16; d++)
            {
              char c = s[d];
              unsigned h = c >= '0' && c <= '9'   ? (unsigned) (c - '0')
                           : c >= 'a' && c <= 'f' ? (unsigned) (c - 'a' + 10)
                                                  : 16;
              if (h == 16)
                break;
              x = x << 4 | h;
            }
          if (d < 16 || (s[16] != ' ' && s[16] != '\0'))
            return refuse (m, "%s: malformed statistic %s (not instance "
                           "ids of 16 hex digits)", in->path, name);
          if (ospview_grow (&in->parts, &cap, in->nparts + 1,
                            sizeof *in->parts, 64))
            return oom ();
          in->parts[in->nparts++] = x;
          if (s[16] == '\0')
            break;
          s += 17;
        }
    }
}

/* Whether input IN counts a run already merged (the header comment):
   0, or 1 refused (message printed). */
static int
same_run (const struct merge *m, const struct input *in,
          const struct stat *st)
{
  const struct view *v = &in->snap.view;
  for (size_t k = 0; k < m->nids; k++)
    {
      const struct ident *id = &m->ids[k];
      if (!id->part && st != NULL && id->dev == (uint64_t) st->st_dev
          && id->ino == (uint64_t) st->st_ino)
        return refuse (m, "%s: the same file as %s: merging it twice "
                       "counts its run twice (--allow-same-run to merge "
                       "anyway)", in->path, id->path);
    }
  if (in->parts != NULL)
    {
      for (size_t p = 0; p < in->nparts; p++)
        for (size_t k = 0; k < m->nids; k++)
          if (in->parts[p] != 0 && m->ids[k].proc
              && m->ids[k].instance == in->parts[p])
            return refuse (m, "%s: merges a process (instance %016" PRIx64
                           ") that %s already counts: merging it counts "
                           "that run twice (--allow-same-run to merge "
                           "anyway)", in->path, in->parts[p],
                           m->ids[k].path);
      return 0;
    }
  /* instance_id is never 0 in a runtime's view (identity.c); 0 is a view
     that does not say who wrote it, which cannot be judged */
  for (size_t k = 0; k < m->nids && v->run.instance_id != 0; k++)
    {
      const struct ident *id = &m->ids[k];
      if (!id->proc || id->instance != v->run.instance_id)
        continue;
      if (id->part)
        return refuse (m, "%s: the same process instance as one that %s "
                       "merges (pid %" PRId64 ", instance %016" PRIx64 "): "
                       "merging it counts that run twice (--allow-same-run "
                       "to merge anyway)", in->path, id->path, v->run.pid,
                       v->run.instance_id);
      if (id->pid != v->run.pid || id->start_ns != v->run.start_ns)
        continue;
      if (id->time_ns == v->hdr->time_ns && id->seq == v->hdr->seq)
        return refuse (m, "%s: the same snapshot as %s (a copy: pid %" PRId64
                       ", view #%" PRIu64 "): merging it twice counts its "
                       "run twice (--allow-same-run to merge anyway)",
                       in->path, id->path, v->run.pid, v->hdr->seq);
      return refuse (m, "%s: the same process instance as %s (pid %" PRId64
                     ", instance %016" PRIx64 "): the later snapshot "
                     "already counts the earlier one's profile "
                     "(--allow-same-run to merge anyway)", in->path,
                     id->path, v->run.pid, v->run.instance_id);
    }
  return 0;
}

/* Input IN's identity records: its file and, merged, its parts.  0, -1. */
static int
add_identity (struct merge *m, const struct input *in, const struct stat *st)
{
  const struct view *v = &in->snap.view;
  size_t n = 1 + in->nparts;
  if (ospview_grow (&m->ids, &m->capids, m->nids + n, sizeof *m->ids, 64))
    return oom ();
  struct ident *id = &m->ids[m->nids++];
  *id = (struct ident) { .dev = st ? (uint64_t) st->st_dev : 0,
                         .ino = st ? (uint64_t) st->st_ino : 0,
                         .pid = v->run.pid, .start_ns = v->run.start_ns,
                         .instance = v->run.instance_id,
                         .time_ns = v->hdr->time_ns, .seq = v->hdr->seq,
                         .path = in->path, .proc = in->parts == NULL };
  for (size_t p = 0; p < in->nparts; p++)
    m->ids[m->nids++] = (struct ident) { .instance = in->parts[p],
                                         .path = in->path, .part = 1,
                                         .proc = 1 };
  return 0;
}

/* ---- one input --------------------------------------------------------- */

/* Input IN (loaded) checked and, if accepted, merged.  0 merged, 1
   refused (message printed), -1 fatal (out of memory, too big). */
static int
merge_input (struct merge *m, struct input *in)
{
  const struct view *v = &in->snap.view;
  struct stat st;
  int have_st = stat (in->path, &st) == 0;
  int rc = is_merged (in) ? read_parts (m, in) : 0;
  if (rc != 0)
    return rc;
  if (m->nin > 0)
    {
      const char *a = S (m, m->run.mode), *b = view_str (v, v->run.mode);
      if (strcmp (a, b) != 0)
        return refuse (m, "%s: mode %s, not %s like %s: not merged",
                       in->path, b, a, m->first);
    }
  if (!m->opt->allow_same_run
      && (rc = same_run (m, in, have_st ? &st : NULL)) != 0)
    return rc;
  if ((rc = check_functions (m, in)) != 0)
    return rc;

  /* accepted: from here on it is merged */
  in->k = m->nin;
  if (m->nin == 0)
    {
      m->first = in->path;
      m->run = v->run;
      m->run.program = intern (m, view_str (v, v->run.program));
      m->run.args = intern (m, view_str (v, v->run.args));
      m->run.options = intern (m, view_str (v, v->run.options));
      m->run.mode = intern (m, view_str (v, v->run.mode));
      m->run.blocks_seen = m->run.path_ends = 0;
      m->run.exited = 1;
      m->seq = v->hdr->seq;
      m->paths_pol = intern (m, view_str (v, v->run.paths));
      m->forest_pol = intern (m, view_str (v, v->run.forest));
    }
  else
    {
      if (strcmp (S (m, m->paths_pol), view_str (v, v->run.paths)) != 0)
        m->paths_pol = intern (m, "mixed");
      if (strcmp (S (m, m->forest_pol), view_str (v, v->run.forest)) != 0)
        m->forest_pol = intern (m, "mixed");
    }
  m->run.blocks_seen = sat_add (m->run.blocks_seen, v->run.blocks_seen);
  m->run.path_ends = sat_add (m->run.path_ends, v->run.path_ends);
  m->run.exited &= v->run.exited;
  if (v->hdr->time_ns > m->time_ns)
    m->time_ns = v->hdr->time_ns;
  if (*view_str (v, v->run.forest) != '\0')
    {
      if (!m->have_forest)
        m->have_forest = 1, m->forest_k = v->run.forest_k,
        m->forest_ref = in->path;
      else if (v->run.forest_k != m->forest_k && !m->forest_dropped)
        {
          ospview_error ("note: %s: forest_k %u, not %u like %s: the merge "
                         "has no forest", in->path, v->run.forest_k,
                         m->forest_k, m->forest_ref);
          m->forest_dropped = 1;
        }
    }
  uint64_t covered = 1;
  if (is_merged (in))
    view_stat_u64 (v, "merged_snapshots", &covered);
  m->covered = sat_add (m->covered, covered ? covered : 1);
  for (int s = SEC_PATH; s < NSEC; s++)
    m->denom[s] = ospview_sat (m->denom[s] + denominator (in, s));
  static const char *const had[NSEC] = { "subpaths", "paths_distinct",
                                         "forest_trees" };
  for (int s = 0; s < NSEC; s++)
    m->left_out[s] = sat_add (m->left_out[s], left_out (in, had[s], s));
  set_bounds (in);
  for (int s = 0; s < NSEC; s++)
    m->bound_all[s] = ospview_sat (m->bound_all[s] + in->bound[s]);
  if (add_identity (m, in, have_st ? &st : NULL) != 0
      || add_functions (m, in) != 0 || add_rows (m, in) != 0
      || merge_stats (m, v) != 0)
    return -1;
  m->nin++;
  return 0;
}

/* ---- main ------------------------------------------------------------ */

static void
merge_free (struct merge *m)
{
  osp_strtab_free (&m->str);
  free (m->fns);
  free (m->fn_ht.s);
  free (m->id_ht.s);
  free (m->blk);
  free (m->edges);
  free (m->lines);
  free (m->mids);
  for (int s = 0; s < NSEC; s++)
    {
      free (m->sec[s].r);
      free (m->sec[s].ht.s);
    }
  free (m->st);
  free (m->st_ht.s);
  free (m->ids);
}

int
merge_main (const char *out, const char *const *in, size_t n,
            const struct merge_opts *opt)
{
  struct merge m;
  memset (&m, 0, sizeof m);
  m.opt = opt;
  if (n == 0 || n > UINT32_MAX - 1)
    {
      ospview_error ("--merge: no snapshots to merge");
      return 1;
    }
  /* MIDS is never NULL: rows of no blocks still point into it (MIDS +
     ids), and NULL + 0 is undefined behaviour */
  m.capmids = 4096;
  m.mids = malloc (m.capmids * sizeof *m.mids);
  if (m.mids == NULL || osp_strtab_init (&m.str) != 0)
    {
      free (m.mids);
      return oom (), 1;
    }
  char err[512];
  int rc = 0;
  for (size_t i = 0; i < n && rc >= 0; i++)
    {
      struct input input = { .path = in[i] };
      if (snap_load (&input.snap, in[i], err, sizeof err) != 0)
        rc = refuse (&m, "%s", err);
      else
        {
          rc = merge_input (&m, &input);
          snap_free (&input.snap);
        }
      free (input.fnmap);
      free (input.blockmap);
      free (input.parts);
      if (rc == 1)
        {
          m.skipped++;
          if (!opt->keep_going)
            rc = -1;
          else
            rc = 0;
        }
    }
  if (rc == 0 && m.nin == 0)
    {
      ospview_error ("--merge: none of the %zu snapshots could be merged",
                     n);
      rc = -1;
    }
  if (rc == 0)
    rc = merge_finish (&m, out);
  merge_free (&m);
  return rc == 0 ? 0 : 1;
}

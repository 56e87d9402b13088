/* SPDX-License-Identifier: GPL-3.0-or-later */
/* merge.c - ospview --merge OUT IN...: one snapshot out of several
 * snapshots of the same program (many runs, or many processes of one
 * service), written atomically to OUT (flag OSP_SNAP_MERGED).
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
 *                     length (sum of blocks_seen - inputs x (L - 1)) and
 *                     the sum of the estimates of that length;
 *                     paths estimate / sum over inputs of path_samples x
 *                     path_scale + path_counted (the estimated path ends,
 *                     which is what the runtime divides by); forest nodes estimate /
 *                     their parent's, roots estimate / sum of forest_items
 *                     x forest_scale;
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
 * B_i = 0: absent there means it did not run.  Known limit: the forest's
 * display pruning is relative to each tree's root, so a hidden node under
 * a very hot root can exceed the section's smallest shown estimate.
 *
 * Same run.  A snapshot is cumulative: a later one of a process contains
 * everything an earlier one of it counted.  So the same file twice, a
 * copy of one snapshot, or two snapshots of one process instance (the
 * same pid, start time and random instance id, which a fork child and a
 * reused pid do not share) would count that run twice; they are refused
 * unless the caller asks (--allow-same-run).  A merged snapshot carries
 * its first input's identity only, so merging it again with that input is
 * refused, with another of its inputs not (doc/SNAPSHOT.md says so).
 *
 * Statistics: see the tables below (sum counters, largest of gauges,
 * recount what the merged rows define, keep settings only when every
 * input agrees, drop the rest) and merged_snapshots.
 *
 * Bounded: at most MERGE_MAX_ROWS rows per section; more is refused.
 * Sums of estimates and errors saturate at the largest double (ospview.h)
 * and errors add through hypot, so inputs with huge finite numbers merge
 * into a snapshot that reads back, never into an infinity.
 */
#include "ospview.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "strtab.h"
#include "viewbuild.h"

/* Rows per merged section (subpaths, paths, forest): more is refused. */
#define MERGE_MAX_ROWS (1u << 20)

enum { SEC_SUB, SEC_PATH, SEC_FOREST, NSEC };
static const char *const sec_name[NSEC] = { "subpath", "path", "forest" };

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

struct input
{
  const char *path;
  struct snapshot snap;
  int loaded;
  uint32_t *fnmap;    /* its function -> merged function */
  uint32_t *blockmap; /* its block -> merged block */
  double bound[NSEC]; /* B_i: what a row absent here may have been */
};

struct mfn
{
  uint32_t src, fi;   /* the first input that has it, its index there */
  uint32_t id, block0, nblocks;
  const char *name, *file;
  uint64_t calls;
  int no_digest;      /* an input has it without a source digest */
  double execs, work; /* self figures (FNWORK), summed over the inputs */
};

/* Function FI of V's source digest, or NULL when it has none. */
static const struct osp_vfnsrc *
fn_digest (const struct view *v, uint64_t fi)
{
  const struct osp_vfnsrc *s = view_fnsrc (v, fi);
  return s != NULL && (s->flags & OSP_VSRC_DIGEST) ? s : NULL;
}

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
  double est, rss, bound_present, err, share; /* rss: sqrt (sum err95^2) */
};

struct rows
{
  struct mrow *r;
  size_t n, cap;
  struct htab ht;
};

struct merge
{
  struct input *in;
  size_t n;
  struct mfn *fns;
  size_t nfns, capfns;
  struct htab fn_ht, id_ht;
  uint32_t next_id;
  uint64_t *bcount;   /* merged block counts (mode=blocks) */
  int no_costs;       /* an input has no COSTS: the merged view neither */
  int no_work;        /* an input has no FNWORK: the merged view neither */
  uint32_t nblocks;
  uint32_t *mids;     /* the merged rows' blocks */
  size_t nmids, capmids;
  struct rows sec[NSEC];
  int forest_dropped;
  uint32_t forest_k;
  /* key of the current lookup */
  const uint32_t *key_ids;
  uint32_t key_len, key_fn, key_parent;
  uint64_t key_id;
  const char *key_name, *key_file;
  int sec_now;
};

static int
oom (void)
{
  ospview_error ("--merge: out of memory");
  return 1;
}

static uint64_t
sat_add (uint64_t a, uint64_t b)
{
  return a + b < a ? UINT64_MAX - 1 : a + b; /* never OSP_VIEW_NONE */
}

/* ---- functions ------------------------------------------------------- */

static int
fn_eq (const void *ctx, uint32_t v)
{
  const struct merge *m = ctx;
  return strcmp (m->fns[v].name, m->key_name) == 0
         && strcmp (m->fns[v].file, m->key_file) == 0;
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

/* Input I's functions into the merged table (and I's fnmap); checks the
   same build.  0, or 1 (message printed). */
static int
add_functions (struct merge *m, uint32_t i)
{
  struct input *in = &m->in[i];
  const struct view *v = &in->snap.view;
  in->fnmap = malloc ((v->nfns ? v->nfns : 1) * sizeof *in->fnmap);
  if (in->fnmap == NULL)
    return oom ();
  uint64_t common = 0;
  for (uint64_t fi = 0; fi < v->nfns; fi++)
    {
      const struct osp_vfn *f = view_fn (v, fi);
      m->key_name = view_str (v, f->name);
      m->key_file = view_str (v, f->file);
      if (ht_reserve (&m->fn_ht) != 0)
        return oom ();
      uint64_t h = hash_str (hash_str (0, m->key_name), m->key_file);
      struct hslot *at = ht_find (&m->fn_ht, h, fn_eq, m);
      if (at->v != UINT32_MAX)
        {
          const struct mfn *g = &m->fns[at->v];
          const struct view *gv = &m->in[g->src].snap.view;
          const struct osp_vfn *gf = view_fn (gv, g->fi);
          in->fnmap[fi] = at->v;
          common += g->src == 0;
          if (gf->nblocks != f->nblocks)
            {
              ospview_error ("%s: not the same build of the "
                       "program as %s: function %s (%s) has %u blocks "
                       "there, %u here", in->path, m->in[g->src].path,
                       g->name, g->file, gf->nblocks, f->nblocks);
              return 1;
            }
          for (uint32_t b = 0; b < f->nblocks; b++)
            {
              const struct osp_vblock *x = view_block (gv, gf->block0 + b);
              const struct osp_vblock *y = view_block (v, f->block0 + b);
              if (x->first_line != y->first_line
                  || x->last_line != y->last_line)
                {
                  ospview_error ("%s: not the same build of the "
                           "program as %s: function %s (%s) block %u has "
                           "lines %u-%u there, %u-%u here", in->path,
                           m->in[g->src].path, g->name, g->file, b,
                           x->first_line, x->last_line, y->first_line,
                           y->last_line);
                  return 1;
                }
            }
          const struct osp_vfnsrc *x = fn_digest (gv, g->fi);
          const struct osp_vfnsrc *y = fn_digest (v, fi);
          if (x != NULL && y != NULL
              && (x->size != y->size
                  || memcmp (x->sha256, y->sha256, sizeof x->sha256) != 0))
            {
              ospview_error ("%s: not the same build of the program as %s: "
                             "function %s (%s) was compiled from other "
                             "contents of its source file (another "
                             "SHA-256)", in->path, m->in[g->src].path,
                             g->name, g->file);
              return 1;
            }
          if (y == NULL)
            m->fns[at->v].no_digest = 1;
          continue;
        }
      if (ospview_grow (&m->fns, &m->capfns, m->nfns + 1, sizeof *m->fns,
                        256)
          != 0)
        return oom ();
      if (m->nfns >= UINT32_MAX
          || (uint64_t) m->nblocks + f->nblocks >= UINT32_MAX)
        {
          ospview_error ("%s: more functions or blocks than a "
                   "view can hold", in->path);
          return 1;
        }
      uint32_t g = (uint32_t) m->nfns++;
      m->fns[g] = (struct mfn) { .src = i, .fi = (uint32_t) fi,
                                 .block0 = m->nblocks,
                                 .nblocks = f->nblocks,
                                 .name = m->key_name, .file = m->key_file,
                                 .calls = OSP_VIEW_NONE,
                                 .no_digest = fn_digest (v, fi) == NULL };
      m->nblocks += f->nblocks;
      ht_put (&m->fn_ht, at, h, g);
      if (take_id (m, g, f->id) != 0)
        return oom ();
      in->fnmap[fi] = g;
    }
  if (i > 0 && common == 0)
    {
      ospview_error ("%s: no function in common with %s: not "
               "the same program", in->path, m->in[0].path);
      return 1;
    }
  return 0;
}

/* Input I's block -> merged block, and the block counts and calls
   (mode=blocks: exact counts, summed). */
static int
map_blocks (struct merge *m, uint32_t i)
{
  struct input *in = &m->in[i];
  const struct view *v = &in->snap.view;
  in->blockmap = malloc ((v->nblocks ? v->nblocks : 1) * sizeof (uint32_t));
  if (in->blockmap == NULL)
    return oom ();
  for (uint64_t b = 0; b < v->nblocks; b++)
    {
      const struct osp_vblock *bl = view_block (v, b);
      uint32_t g = m->fns[in->fnmap[bl->fn]].block0 + bl->block;
      in->blockmap[b] = g;
      if (bl->count != OSP_VIEW_NONE)
        m->bcount[g] = m->bcount[g] == OSP_VIEW_NONE
                           ? bl->count
                           : sat_add (m->bcount[g], bl->count);
    }
  m->no_costs |= v->costs == NULL;
  m->no_work |= v->fnwork == NULL;
  for (uint64_t fi = 0; fi < v->nfns; fi++)
    {
      uint64_t c = view_fn (v, fi)->calls;
      struct mfn *g = &m->fns[in->fnmap[fi]];
      if (c != OSP_VIEW_NONE)
        g->calls = g->calls == OSP_VIEW_NONE ? c : sat_add (g->calls, c);
      /* Work adds up like executions: runs of one build, same costs. */
      const struct osp_vfnwork *w = view_fnwork (v, fi);
      if (w != NULL)
        g->execs += w->execs, g->work += w->work;
    }
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
   blocks KEY_IDS, if new): its index, or UINT32_MAX (message printed). */
static uint32_t
find_row (struct merge *m, int s, const char *path)
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
    return oom (), UINT32_MAX;
  struct hslot *at = ht_find (&rs->ht, h, row_eq, m);
  if (at->v != UINT32_MAX)
    return at->v;
  if (rs->n >= MERGE_MAX_ROWS)
    {
      ospview_error ("%s: more than %u merged %s rows (the "
               "limit of --merge)", path, MERGE_MAX_ROWS, sec_name[s]);
      return UINT32_MAX;
    }
  if (ospview_grow (&rs->r, &rs->cap, rs->n + 1, sizeof *rs->r, 256) != 0
      || ospview_grow (&m->mids, &m->capmids, m->nmids + m->key_len,
                       sizeof *m->mids, 4096)
             != 0)
    return oom (), UINT32_MAX;
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

/* Input I's numbers for row X. */
static void
add_to_row (struct merge *m, int s, uint32_t x, uint32_t i, uint64_t count,
            double est, double err)
{
  struct mrow *r = &m->sec[s].r[x];
  r->count = sat_add (r->count, count);
  /* saturating (ospview.h): a merge of huge finite inputs stays finite,
     so it reads back */
  r->est = ospview_sat (r->est + est);
  r->rss = ospview_sat (hypot (r->rss, err));
  if (r->last != i + 1) /* an input's duplicate rows count once here */
    {
      r->last = i + 1;
      r->seen++;
      r->bound_present = ospview_sat (r->bound_present + m->in[i].bound[s]);
    }
}

/* The blocks [ids, ids + len) of input I as merged blocks into BUF. */
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

static int
add_rows (struct merge *m, uint32_t i)
{
  struct input *in = &m->in[i];
  const struct view *v = &in->snap.view;
  uint32_t *buf = NULL;
  size_t cap = 0;
  int rc = 1;
  uint32_t *nodemap = malloc ((v->nforest ? v->nforest : 1)
                              * sizeof *nodemap);
  if (nodemap == NULL)
    return oom ();
  for (uint64_t k = 0; k < v->nsubpaths; k++)
    {
      const struct osp_vsubpath *s = view_subpath (v, k);
      m->key_ids = map_ids (in, s->ids, s->len, &buf, &cap);
      if (s->len && m->key_ids == NULL)
        goto oom;
      m->key_len = s->len;
      m->key_fn = UINT32_MAX;
      m->key_id = 0;
      m->key_parent = OSP_VIEW_NO_PARENT;
      uint32_t x = find_row (m, SEC_SUB, in->path);
      if (x == UINT32_MAX)
        goto out;
      add_to_row (m, SEC_SUB, x, i, s->count, s->estimate, s->err95);
    }
  for (uint64_t k = 0; k < v->npaths; k++)
    {
      const struct osp_vpath *p = view_path (v, k);
      m->key_ids = map_ids (in, p->ids, p->len, &buf, &cap);
      if (p->len && m->key_ids == NULL)
        goto oom;
      m->key_len = p->len;
      m->key_fn = in->fnmap[p->fn];
      m->key_id = p->id;
      m->key_parent = OSP_VIEW_NO_PARENT;
      uint32_t x = find_row (m, SEC_PATH, in->path);
      if (x == UINT32_MAX)
        goto out;
      add_to_row (m, SEC_PATH, x, i, p->samples, p->estimate, p->err95);
      m->sec[SEC_PATH].r[x].branches = p->branches;
    }
  for (uint64_t k = 0; k < v->nforest && !m->forest_dropped; k++)
    {
      const struct osp_vforest *f = view_forest (v, k);
      m->key_ids = map_ids (in, f->ids, f->len, &buf, &cap);
      if (f->len && m->key_ids == NULL)
        goto oom;
      m->key_len = f->len;
      m->key_fn = in->fnmap[f->fn];
      m->key_id = f->id;
      m->key_parent = f->parent == OSP_VIEW_NO_PARENT ? OSP_VIEW_NO_PARENT
                                                      : nodemap[f->parent];
      uint32_t x = find_row (m, SEC_FOREST, in->path);
      if (x == UINT32_MAX)
        goto out;
      nodemap[k] = x;
      add_to_row (m, SEC_FOREST, x, i, f->count, f->estimate, f->err95);
    }
  rc = 0;
  goto out;
oom:
  rc = oom ();
out:
  free (buf);
  free (nodemap);
  return rc;
}

/* ---- absence bounds -------------------------------------------------- */

static uint64_t
stat_or (const struct view *v, const char *name, uint64_t dflt)
{
  uint64_t x;
  return view_stat_u64 (v, name, &x) ? x : dflt;
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

static void
set_bounds (struct input *in)
{
  const struct view *v = &in->snap.view;
  uint64_t n[NSEC] = { v->nsubpaths, v->npaths, v->nforest };
  for (int s = 0; s < NSEC; s++)
    {
      in->bound[s] = 0;
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
  double all = 0;
  for (size_t i = 0; i < m->n; i++)
    all = ospview_sat (all + m->in[i].bound[s]);
  for (size_t k = 0; k < rs->n; k++)
    {
      struct mrow *r = &rs->r[k];
      double absent = r->seen == m->n ? 0 : all - r->bound_present;
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
 *           a cut input), merged_snapshots (the inputs, a merged input
 *           counting its own merged_snapshots)
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
  "exact_dropped", "path_ends_seen", "path_ticks", "path_samples",
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
  "merged_snapshots",
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

struct mstat
{
  const char *name;
  const struct view *v; /* the first input that has it */
  uint32_t kind;
  enum rule rule;
  uint64_t value;       /* U64, F64 bits; STR: compared as strings */
  const char *str;
  size_t inputs;        /* how many have it */
  int differ;           /* R_KEEP: some input disagrees */
};

struct stats
{
  struct mstat *s;
  size_t n, cap;
  struct htab ht;
  const char *key;
};

static int
stat_eq (const void *ctx, uint32_t v)
{
  const struct stats *st = ctx;
  return strcmp (st->s[v].name, st->key) == 0;
}

static int
merge_stats (struct stats *st, const struct view *v)
{
  for (uint64_t k = 0; k < v->nstats; k++)
    {
      const struct osp_vstat *x = view_stat (v, k);
      const char *name = view_str (v, x->name);
      st->key = name;
      if (ht_reserve (&st->ht) != 0)
        return -1;
      uint64_t h = hash_str (0, name);
      struct hslot *at = ht_find (&st->ht, h, stat_eq, st);
      const char *str = x->kind == OSP_VSTAT_STR
                            ? view_str (v, (uint32_t) x->value)
                            : NULL;
      if (at->v == UINT32_MAX)
        {
          if (ospview_grow (&st->s, &st->cap, st->n + 1, sizeof *st->s, 128)
              != 0)
            return -1;
          enum rule r = IN (name, recount_stats)   ? R_RECOUNT
                        : x->kind != OSP_VSTAT_U64 ? R_KEEP
                        : IN (name, sum_stats)     ? R_SUM
                        : IN (name, max_stats)     ? R_MAX
                                                   : R_KEEP;
          st->s[st->n] = (struct mstat) { .name = name, .v = v,
                                          .kind = x->kind, .rule = r,
                                          .value = x->value, .str = str,
                                          .inputs = 1 };
          ht_put (&st->ht, at, h, (uint32_t) st->n++);
          continue;
        }
      struct mstat *s = &st->s[at->v];
      s->inputs++;
      if (x->kind != s->kind)
        s->differ = 1;
      else if (s->rule == R_SUM)
        s->value = sat_add (s->value, x->value);
      else if (s->rule == R_MAX)
        s->value = x->value > s->value ? x->value : s->value;
      else if (s->rule == R_KEEP
               && (str ? strcmp (str, s->str) != 0 : x->value != s->value))
        s->differ = 1;
    }
  return 0;
}

/* Per input: rows of section S the stat NAME says it had beyond its view's
   (0 when it does not say). */
static uint64_t
left_out (const struct merge *m, const char *name, int s)
{
  uint64_t sum = 0;
  for (size_t i = 0; i < m->n; i++)
    {
      const struct view *v = &m->in[i].snap.view;
      uint64_t shown = s == SEC_SUB    ? v->nsubpaths
                       : s == SEC_PATH ? v->npaths
                                       : 0;
      if (s == SEC_FOREST)
        for (uint64_t k = 0; k < v->nforest; k++)
          shown += view_forest (v, k)->parent == OSP_VIEW_NO_PARENT;
      uint64_t had = stat_or (v, name, 0);
      sum += had > shown ? had - shown : 0;
    }
  return sum;
}

static void
write_stats (struct vbuild *b, const struct merge *m, const struct stats *st,
             uint64_t roots)
{
  for (size_t k = 0; k < st->n; k++)
    {
      const struct mstat *s = &st->s[k];
      const char *name = s->name;
      if (s->rule == R_RECOUNT)
        {
          uint64_t x = 0;
          if (strcmp (name, "functions") == 0)
            x = m->nfns;
          else if (strcmp (name, "subpaths") == 0)
            x = m->sec[SEC_SUB].n + left_out (m, name, SEC_SUB);
          else if (strcmp (name, "paths_distinct") == 0)
            x = m->sec[SEC_PATH].n + left_out (m, name, SEC_PATH);
          else if (strcmp (name, "forest_trees") == 0)
            {
              if (m->forest_dropped)
                continue;
              x = roots + left_out (m, name, SEC_FOREST);
            }
          else
            continue; /* merged_snapshots: written last */
          vb_stat_u64 (b, name, x);
          continue;
        }
      if (s->differ || (s->rule == R_KEEP && s->inputs != m->n))
        continue;
      if (m->forest_dropped && strncmp (name, "forest", 6) == 0)
        continue;
      if (s->kind == OSP_VSTAT_STR)
        vb_stat_str (b, name, s->str);
      else if (s->kind == OSP_VSTAT_F64)
        {
          double d;
          memcpy (&d, &s->value, sizeof d);
          vb_stat_f64 (b, name, d);
        }
      else
        vb_stat_u64 (b, name, s->value);
    }
  uint64_t merged = 0;
  for (size_t i = 0; i < m->n; i++)
    {
      const struct snapshot *sn = &m->in[i].snap;
      uint64_t x = 1;
      if (sn->hdr.flags & OSP_SNAP_MERGED)
        view_stat_u64 (&sn->view, "merged_snapshots", &x);
      merged = sat_add (merged, x ? x : 1);
    }
  vb_stat_u64 (b, "merged_snapshots", merged);
}

/* ---- writing --------------------------------------------------------- */

/* A policy string: the inputs' if they agree, else "mixed". */
static const char *
policy (const struct merge *m, int forest)
{
  const struct view *v0 = &m->in[0].snap.view;
  const char *p = view_str (v0, forest ? v0->run.forest : v0->run.paths);
  for (size_t i = 1; i < m->n; i++)
    {
      const struct view *v = &m->in[i].snap.view;
      if (strcmp (p, view_str (v, forest ? v->run.forest : v->run.paths)))
        return "mixed";
    }
  return p;
}

/* Estimated path ends (paths) or forest items (forest) of input V: what
   its shares divide by. */
static double
denominator (const struct view *v, int s)
{
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
      const struct view *v = &m->in[f->src].snap.view;
      const struct osp_vfn *sf = view_fn (v, f->fi);
      struct osp_vfn out = { .id = f->id, .name = vb_str (b, f->name),
                             .file = vb_str (b, f->file),
                             .first_line = sf->first_line,
                             .block0 = f->block0, .nblocks = f->nblocks,
                             .calls = f->calls };
      uint32_t at = vb_fn (b, &out);
      const struct osp_vfnsrc *ss = view_fnsrc (v, f->fi);
      if (ss != NULL && at != UINT32_MAX)
        {
          struct osp_vfnsrc src = *ss;
          src.comp_dir = vb_str (b, view_str (v, ss->comp_dir));
          if (f->no_digest)
            src.flags = 0, src.size = 0,
            memset (src.sha256, 0, sizeof src.sha256);
          vb_fnsrc (b, at, &src);
        }
      if (!m->no_work && at != UINT32_MAX)
        vb_fnwork (b, at, &(struct osp_vfnwork) { f->execs, f->work });
    }
  for (size_t g = 0; g < m->nfns; g++)
    {
      const struct mfn *f = &m->fns[g];
      const struct view *v = &m->in[f->src].snap.view;
      const struct osp_vfn *sf = view_fn (v, f->fi);
      for (uint32_t k = 0; k < f->nblocks; k++)
        {
          const struct osp_vblock *sb = view_block (v, sf->block0 + k);
          struct osp_vblock out = { .fn = (uint32_t) g, .block = sb->block,
                                    .first_line = sb->first_line,
                                    .last_line = sb->last_line,
                                    .count = m->bcount[f->block0 + k] };
          uint32_t at = vb_block (b, &out);
          if (!m->no_costs && at != UINT32_MAX)
            vb_cost (b, at, view_cost (v, sf->block0 + k));
          uint32_t nl;
          const uint32_t *lines = view_block_lines (v, sf->block0 + k, &nl);
          if (v->blines != NULL && at != UINT32_MAX)
            vb_lines (b, at, lines, nl);
        }
    }
  /* Edges of each function from its first input (grouped by source block
     there, so here too: functions and their blocks keep their order). */
  for (size_t g = 0; g < m->nfns; g++)
    {
      const struct mfn *f = &m->fns[g];
      const struct input *in = &m->in[f->src];
      const struct view *v = &in->snap.view;
      uint32_t lo = view_fn (v, f->fi)->block0, hi = lo + f->nblocks;
      uint64_t a = 0, z = v->nedges; /* first edge from a block >= lo */
      while (a < z)
        {
          uint64_t mid = a + (z - a) / 2;
          if (view_edge (v, mid)->from < lo)
            a = mid + 1;
          else
            z = mid;
        }
      for (; a < v->nedges && view_edge (v, a)->from < hi; a++)
        {
          const struct osp_vedge *e = view_edge (v, a);
          struct osp_vedge out = { .from = in->blockmap[e->from],
                                   .to = e->to == OSP_VIEW_EXIT
                                             ? OSP_VIEW_EXIT
                                             : in->blockmap[e->to],
                                   .flags = e->flags };
          vb_edge (b, &out);
        }
    }
}

static uint64_t
write_rows (struct vbuild *b, struct merge *m, uint32_t *order[NSEC])
{
  uint64_t blocks_seen = b->run.blocks_seen;
  double path_total = 0, forest_total = 0;
  for (size_t i = 0; i < m->n; i++)
    {
      path_total = ospview_sat (path_total
                                + denominator (&m->in[i].snap.view, SEC_PATH));
      forest_total = ospview_sat (
          forest_total + denominator (&m->in[i].snap.view, SEC_FOREST));
    }
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
      double cut = (double) m->n * ((double) r->len - 1);
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
                             .share = ratio (r->est, path_total),
                             .branches = r->branches,
                             .rank = (uint32_t) k + 1 };
      /* ranked by the sum's own interval, as the subpaths */
      p.flags = view_too_few (p.estimate, p.err95) ? 0 : OSP_VROW_RANKED;
      vb_path (b, &p);
    }

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
        .share = ratio (r->est, pr ? pr->est : forest_total)
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

/* ---- main ------------------------------------------------------------ */

static void
merge_free (struct merge *m)
{
  for (size_t i = 0; i < m->n; i++)
    {
      if (m->in[i].loaded)
        snap_free (&m->in[i].snap);
      free (m->in[i].fnmap);
      free (m->in[i].blockmap);
    }
  free (m->in);
  free (m->fns);
  free (m->fn_ht.s);
  free (m->id_ht.s);
  free (m->bcount);
  free (m->mids);
  for (int s = 0; s < NSEC; s++)
    {
      free (m->sec[s].r);
      free (m->sec[s].ht.s);
    }
}

/* Everything once the inputs are loaded and checked.  Exit status. */
static int
merge_build (struct merge *m, const char *out)
{
  char err[512];
  for (uint32_t i = 0; i < m->n; i++)
    if (add_functions (m, i) != 0)
      return 1;
  m->bcount = malloc ((m->nblocks ? m->nblocks : 1) * sizeof *m->bcount);
  /* MIDS is never NULL: rows of no blocks still point into it
     (MIDS + ids), and NULL + 0 is undefined behaviour */
  m->capmids = 4096;
  m->mids = malloc (m->capmids * sizeof *m->mids);
  if (m->bcount == NULL || m->mids == NULL)
    return oom ();
  for (uint32_t k = 0; k < m->nblocks; k++)
    m->bcount[k] = OSP_VIEW_NONE;
  for (uint32_t i = 0; i < m->n; i++)
    {
      if (map_blocks (m, i) != 0)
        return 1;
      set_bounds (&m->in[i]);
      if (add_rows (m, i) != 0)
        return 1;
    }

  struct vbuild b;
  vb_init (&b);
  const struct view *v0 = &m->in[0].snap.view;
  struct osp_vrun run = v0->run;
  run.program = vb_str (&b, view_str (v0, v0->run.program));
  run.args = vb_str (&b, view_str (v0, v0->run.args));
  run.options = vb_str (&b, view_str (v0, v0->run.options));
  run.mode = vb_str (&b, view_str (v0, v0->run.mode));
  run.paths = vb_str (&b, policy (m, 0));
  run.forest = vb_str (&b, m->forest_dropped ? "" : policy (m, 1));
  run.blocks_seen = run.path_ends = 0;
  run.exited = 1;
  run.path_scale = run.forest_scale = 0; /* no single scale after a merge */
  uint64_t time_ns = 0;
  for (size_t i = 0; i < m->n; i++)
    {
      const struct view *v = &m->in[i].snap.view;
      run.blocks_seen = sat_add (run.blocks_seen, v->run.blocks_seen);
      run.path_ends = sat_add (run.path_ends, v->run.path_ends);
      run.exited &= v->run.exited;
      if (v->hdr->time_ns > time_ns)
        time_ns = v->hdr->time_ns;
    }
  run.forest_k = m->forest_dropped ? 0 : m->forest_k;
  vb_run (&b, &run);
  write_structure (&b, m);

  struct stats st = { 0 };
  int rc = 1;
  for (size_t i = 0; i < m->n; i++)
    if (merge_stats (&st, &m->in[i].snap.view) != 0)
      {
        rc = oom ();
        goto done;
      }
  uint32_t *order[NSEC] = { 0 };
  for (int s = 0; s < NSEC; s++)
    if ((order[s] = finish_section (m, s)) == NULL)
      {
        rc = oom ();
        goto done_order;
      }
  uint64_t roots = write_rows (&b, m, order);
  write_stats (&b, m, &st, roots);
  void *view;
  size_t len;
  if (vb_finish (&b, time_ns, v0->hdr->seq, &view, &len, err, sizeof err)
      != 0)
    {
      ospview_error ("%s: %s", out, err);
      goto done_order;
    }
  /* What we wrote must read back: the builder's caller is us. */
  struct view check;
  if (view_parse (&check, view, len, err, sizeof err) != 0)
    ospview_error ("%s: internal error: %s", out, err);
  else if (snap_save (out, view, len, OSP_SNAP_MERGED, err, sizeof err) != 0)
    ospview_error ("%s", err);
  else
    {
      printf ("merged %zu snapshots into %s (%zu functions; rows: %zu "
              "subpaths, %zu paths, %zu forest nodes)\n",
              m->n, out, m->nfns, vb_count_subpaths (&b),
              vb_count_paths (&b), vb_count_forest (&b));
      rc = 0;
    }
  free (view);
done_order:
  for (int s = 0; s < NSEC; s++)
    free (order[s]);
done:
  free (st.s);
  free (st.ht.s);
  vb_free (&b);
  return rc;
}

/* Whether inputs I and J are one run counted twice (see "Same run" at
   the top).  0, or 1 with the one-line message printed. */
static int
same_run (const struct merge *m, size_t i, size_t j)
{
  const struct input *a = &m->in[i], *b = &m->in[j];
  const struct view *va = &a->snap.view, *vb = &b->snap.view;
  struct stat sa, sb;
  if (stat (a->path, &sa) == 0 && stat (b->path, &sb) == 0
      && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
    {
      ospview_error ("%s: the same file as %s: merging it twice counts "
                     "its run twice (--allow-same-run to merge anyway)",
                     b->path, a->path);
      return 1;
    }
  /* instance_id is never 0 in a runtime's view (identity.c); 0 is a view
     that does not say who wrote it, which cannot be judged */
  if (va->run.instance_id == 0 || va->run.instance_id != vb->run.instance_id
      || va->run.pid != vb->run.pid || va->run.start_ns != vb->run.start_ns)
    return 0;
  if (va->hdr->time_ns == vb->hdr->time_ns && va->hdr->seq == vb->hdr->seq)
    ospview_error ("%s: the same snapshot as %s (a copy: pid %" PRId64
                   ", view #%" PRIu64 "): merging it twice counts its run "
                   "twice (--allow-same-run to merge anyway)",
                   b->path, a->path, vb->run.pid, vb->hdr->seq);
  else
    ospview_error ("%s: the same process instance as %s (pid %" PRId64
                   ", instance %016" PRIx64 "): the later snapshot "
                   "already counts the earlier one's profile "
                   "(--allow-same-run to merge anyway)",
                   b->path, a->path, vb->run.pid, vb->run.instance_id);
  return 1;
}

int
merge_main (const char *out, const char *const *in, size_t n,
            int allow_same_run)
{
  struct merge m;
  memset (&m, 0, sizeof m);
  if (n == 0 || n > UINT32_MAX - 1)
    {
      ospview_error ("--merge: no snapshots to merge");
      return 1;
    }
  m.in = calloc (n, sizeof *m.in);
  if (m.in == NULL)
    return oom ();
  m.n = n;
  char err[512];
  int rc = 1;
  for (size_t i = 0; i < n; i++)
    {
      m.in[i].path = in[i];
      if (snap_load (&m.in[i].snap, in[i], err, sizeof err) != 0)
        {
          ospview_error ("%s", err);
          goto out;
        }
      m.in[i].loaded = 1;
    }
  if (!allow_same_run)
    for (size_t j = 1; j < n; j++)
      for (size_t i = 0; i < j; i++)
        if (same_run (&m, i, j))
          goto out;
  const struct view *v0 = &m.in[0].snap.view;
  size_t kref = n; /* the first input with a forest */
  for (size_t i = 0; i < n; i++)
    {
      const struct view *v = &m.in[i].snap.view;
      const char *a = view_str (v0, v0->run.mode);
      const char *b = view_str (v, v->run.mode);
      if (strcmp (a, b) != 0)
        {
          ospview_error ("%s: mode %s, not %s like %s: not "
                   "merged", in[i], b, a, in[0]);
          goto out;
        }
      if (*view_str (v, v->run.forest) == '\0')
        continue;
      if (kref == n)
        kref = i;
      const struct view *vk = &m.in[kref].snap.view;
      if (v->run.forest_k != vk->run.forest_k && !m.forest_dropped)
        {
          ospview_error ("note: %s: forest_k %u, not %u like "
                   "%s: the merge has no forest", in[i], v->run.forest_k,
                   vk->run.forest_k, in[kref]);
          m.forest_dropped = 1;
        }
    }
  m.forest_k = kref < n ? m.in[kref].snap.view.run.forest_k : 0;
  rc = merge_build (&m, out);
out:
  merge_free (&m);
  return rc;
}

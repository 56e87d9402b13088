/* SPDX-License-Identifier: MIT */
/* viewwrite.c - a profile as a view: the self-contained, position-
 * independent bytes of include/osp/view.h that the publisher (publish.c)
 * puts into shared memory and ospview reads, decodes and saves.
 *
 * A pure function of a struct osp_profile (report.c took it at one
 * moment) and of what publish.c knows about the process: no lock, no
 * global state, so the publisher calls it on its own thread with no
 * runtime lock held, and tests call it on hand-made profiles.
 *
 * The view carries the same data as the tsv report, in binary:
 *   STRINGS  every name: function names and files, the run's strings, the
 *            statistics' names and string values; each once (a small
 *            open-addressing hash), offset 0 the empty string
 *   RUN      the process and its settings
 *   FUNCS, BLOCKS  every registered function and every block of it with
 *            its lines (and counts in mode=blocks), so that the rows'
 *            block lists decode without the binary
 *   IDS      the rows' blocks as indices into BLOCKS, one run per row
 *   SUBPATHS, PATHS, FOREST  the profile's rows in report order: the
 *            row sections follow the section table (osp_sections, report.c:
 *            its order, its `shown' gate); a section not shown has no rows
 *   STATS    osp_report_stats: the tsv report's stat rows, same names,
 *            plus forest_rows_age_ms when the forest's rows are older
 *            than the view (live views only: a report builds them now),
 *            same order, values as integers, doubles or strings
 *   EDGES    every function's successor lists (the plugin's CFG), so that
 *            a snapshot can draw a function's graph (ospview --dot)
 *   FNSRC    per function: its source file's size and SHA-256 as the
 *            plugin recorded them, and the compile's directory, so that
 *            ospview shows a file's text only when it is the one compiled
 *   COSTS, FNWORK  every block's estimated cost, and every function's self
 *            executions and work (report-work.c: the report's `work' rows)
 * Every section starts 8-aligned; its CRC-32 covers its count x elem_size
 * bytes (not the padding after it).
 *
 * Fitting CAP.  Everything but the rows is needed to decode anything, so
 * it must fit (else nothing is written: the publisher says publish_bytes
 * is too small).  When the rows do not fit too, every row section is cut
 * to its first T rows with T as large as fits (one number for the three
 * sections: each screen of the viewer keeps its hottest rows), and the
 * forest further back to the start of a tree when that keeps any row, so
 * that no tree is shown half; a cut forest is still a preorder prefix,
 * every parent before its children.  *TRUNCATED tells.
 *
 * A subpath with a block id of no function in the profile's registry
 * snapshot (a module registered after the snapshot was taken) cannot be
 * written as BLOCKS indices; it is left out (the tsv shows it as "?").
 *
 * The part the registered functions alone make - FUNCS, BLOCKS, EDGES,
 * FNSRC, COSTS, BLINES, LINES and their strings - comes from a part
 * (viewcache.c): the caller's cache's when it is for these functions,
 * else one made for this view (and kept in the cache, if any).
 * What the profile's moment makes is written here every time.
 */
#define _GNU_SOURCE
#include "output/output.h"

#include <stdlib.h>
#include <string.h>

#include "format/grow.h"
#include "format/strtab.h"
#include "format/crc32.h"
#include "format/viewemit.h"
#include "osp/view.h"
#include "output/viewcache.h"

/* ---- statistics ------------------------------------------------------ */

struct statlist
{
  struct osp_vstat *v;
  size_t n, cap;
  struct osp_strtab *strings;
  int oom;
};

static void
stat_sink (void *arg, const char *name, enum osp_stat_kind kind, uint64_t u,
           double f, const char *s)
{
  struct statlist *l = arg;
  if (l->oom)
    return;
  if (osp_grow (&l->v, &l->cap, l->n + 1, sizeof *l->v, 128) != 0)
    {
      l->oom = 1;
      return;
    }
  struct osp_vstat *st = &l->v[l->n++];
  memset (st, 0, sizeof *st);
  st->name = osp_strtab_intern (l->strings, name);
  if (kind == OSP_STAT_U)
    {
      st->kind = OSP_VSTAT_U64;
      st->value = u;
    }
  else if (kind == OSP_STAT_F)
    {
      st->kind = OSP_VSTAT_F64;
      memcpy (&st->value, &f, sizeof f);
    }
  else
    {
      st->kind = OSP_VSTAT_STR;
      st->value = osp_strtab_intern (l->strings, s);
    }
}

/* ---- layout ---------------------------------------------------------- */

struct plan;

/* How the rows of one section of osp_sections go into a view: its row
   section (include/osp/view.h), what it plans, cuts and writes. */
struct rowkind
{
  uint32_t vs;   /* OSP_VS_SUBPATHS, ... */
  uint32_t elem; /* bytes of one row */
  /* The rows that can be written and their ids' prefix sums.  0 or -1. */
  int (*plan) (struct plan *pl, uint32_t *n, uint64_t *ids);
  uint64_t (*max_ids) (const struct osp_profile *p); /* rows + 1 */
  /* The rows kept when cut to K (NULL: K). */
  uint32_t (*keep) (const struct plan *pl, uint32_t k);
  /* The first N rows' blocks as BLOCKS indices, into OUT. */
  void (*ids) (const struct plan *pl, uint32_t n, uint32_t *out);
  /* The row section of the first N rows, their ids from BASE in IDS. */
  void (*write) (struct osp_vemit *o, const struct plan *pl, uint32_t n,
                 const uint64_t *ids, uint64_t base);
};

/* One row section of the view, in osp_sections order. */
struct rowset
{
  const struct rowkind *kind;
  uint32_t n;    /* rows that can be written (0 when not shown) */
  uint64_t *ids; /* [k]: ids of the first k rows */
};

/* The sections every view has besides the row sections: STRINGS, RUN,
   FUNCS, BLOCKS, EDGES, FNSRC, COSTS, FNWORK, STATS, IDS, BLINES,
   LINES. */
#define NFIXED 12
/* At most one row section per row kind (rowkinds, below). */
#define NROWSETS 3

/* Everything the writing pass needs, computed first. */
struct plan
{
  const struct osp_profile *p;
  const struct osp_view_part *part; /* the functions' sections */
  struct osp_view_part *own;        /* PART when made for this view */
  struct osp_strtab strings;        /* a copy of PART's, and the stats' */
  struct statlist stats;
  struct rowset rows[NROWSETS];
  unsigned nrows;
  /* The subpaths with known blocks (indices into p->subpaths.subs) and
     their blocks as BLOCKS indices. */
  uint32_t *subrows;
  uint32_t *subblocks;
  uint64_t fixed; /* bytes of everything but IDS and the rows */
};

static void
plan_free (struct plan *pl)
{
  osp_view_part_free (pl->own);
  osp_strtab_free (&pl->strings);
  free (pl->stats.v);
  free (pl->subrows);
  free (pl->subblocks);
  for (unsigned i = 0; i < pl->nrows; i++)
    free (pl->rows[i].ids);
}

/* Block index in BLOCKS of global block id GID, or UINT32_MAX. */
static uint32_t
block_index (const struct plan *pl, uint32_t gid)
{
  if (pl->part->gid_is_index) /* the registry's profiles */
    return gid < pl->part->nblocks ? gid : UINT32_MAX;
  uint32_t b = 0;
  uint32_t fi = osp_fn_index_of_block (pl->p->fns, pl->p->nfns, gid, &b);
  return fi == UINT32_MAX ? UINT32_MAX : pl->part->block0[fi] + b;
}

/* ---- rows ------------------------------------------------------------ */

/* Subpaths: those whose blocks all have a BLOCKS index. */
static uint64_t
subpaths_max_ids (const struct osp_profile *p)
{
  return (uint64_t) p->subpaths.nsubs + 1;
}

static int
subpaths_plan (struct plan *pl, uint32_t *n, uint64_t *ids)
{
  const struct osp_profile *p = pl->p;
  size_t words = 0;
  for (uint32_t r = 0; r < p->subpaths.nsubs; r++)
    words += p->subpaths.subs[r].len;
  pl->subrows = malloc ((p->subpaths.nsubs ? p->subpaths.nsubs : 1)
                        * sizeof *pl->subrows);
  pl->subblocks = malloc ((words ? words : 1) * sizeof *pl->subblocks);
  if (pl->subrows == NULL || pl->subblocks == NULL)
    return -1;
  for (uint32_t r = 0; r < p->subpaths.nsubs; r++)
    {
      const struct osp_subpath *s = &p->subpaths.subs[r];
      uint32_t *out = pl->subblocks + ids[*n];
      uint32_t k = 0;
      while (k < s->len && (out[k] = block_index (pl, s->blocks[k]))
                               != UINT32_MAX)
        k++;
      if (k < s->len)
        continue;
      pl->subrows[*n] = r;
      ids[*n + 1] = ids[*n] + s->len;
      (*n)++;
    }
  return 0;
}

static void
subpaths_ids (const struct plan *pl, uint32_t n, uint32_t *out)
{
  /* The kept subpaths' blocks are already BLOCKS indices, in row order. */
  uint64_t words = 0;
  for (uint32_t k = 0; k < n; k++)
    words += pl->p->subpaths.subs[pl->subrows[k]].len;
  if (words)
    memcpy (out, pl->subblocks, words * sizeof *out);
}

static void
subpaths_write (struct osp_vemit *o, const struct plan *pl, uint32_t n,
                const uint64_t *ids, uint64_t base)
{
  struct osp_vsubpath *sv = (struct osp_vsubpath *) osp_vemit_section (
      o, OSP_VS_SUBPATHS, sizeof *sv, n);
  for (uint32_t k = 0; k < n; k++)
    {
      const struct osp_subpath *s = &pl->p->subpaths.subs[pl->subrows[k]];
      struct osp_vsubpath v;
      memset (&v, 0, sizeof v);
      v.ids = base + ids[k];
      v.len = s->len;
      v.rank = pl->subrows[k] + 1;
      v.count = s->count;
      v.estimate = s->estimate;
      v.err95 = s->err95;
      v.share = s->share;
      v.threshold = s->kind == OSP_EST_EXACT ? 1 : s->threshold;
      v.scale = s->scale;
      v.error = s->kind == OSP_EST_SPACE_SAVING ? s->error : 0;
      v.flags = osp_subpath_few (s) ? 0 : OSP_VSUB_RANKED;
      v.estimator = s->kind == OSP_EST_EXACT          ? OSP_VSUB_EST_EXACT
                    : s->kind == OSP_EST_COUNTING     ? OSP_VSUB_EST_COUNTING
                    : s->kind == OSP_EST_SPACE_SAVING ? OSP_VSUB_EST_SPACE_SAVING
                                                      : OSP_VSUB_EST_CONCISE;
      memcpy (&sv[k], &v, sizeof v);
    }
  osp_vemit_end (o);
}

/* Ball-Larus paths: every row. */
static uint64_t
paths_max_ids (const struct osp_profile *p)
{
  return (uint64_t) p->paths.nrows + 1;
}

static int
paths_plan (struct plan *pl, uint32_t *n, uint64_t *ids)
{
  *n = pl->p->paths.nrows;
  for (uint32_t r = 0; r < *n; r++)
    ids[r + 1] = ids[r] + pl->p->paths.rows[r].nsteps;
  return 0;
}

static void
paths_ids (const struct plan *pl, uint32_t n, uint32_t *out)
{
  uint64_t at = 0;
  for (uint32_t r = 0; r < n; r++)
    {
      const struct osp_path_row *row = &pl->p->paths.rows[r];
      for (uint32_t j = 0; j < row->nsteps; j++)
        out[at++] = pl->part->block0[row->fi] + row->steps[j].block;
    }
}

static void
paths_write (struct osp_vemit *o, const struct plan *pl, uint32_t n,
             const uint64_t *ids, uint64_t base)
{
  struct osp_vpath *pv = (struct osp_vpath *) osp_vemit_section (
      o, OSP_VS_PATHS, sizeof *pv, n);
  for (uint32_t r = 0; r < n; r++)
    {
      const struct osp_path_row *row = &pl->p->paths.rows[r];
      struct osp_vpath v;
      memset (&v, 0, sizeof v);
      v.ids = base + ids[r];
      v.len = row->nsteps;
      v.fn = row->fi;
      v.id = row->id;
      v.samples = row->samples;
      v.estimate = row->estimate;
      v.err95 = row->err95;
      v.share = row->share;
      v.branches = row->branches;
      v.rank = r + 1;
      /* the tsv report's rank `-' (report-paths.c), every policy's */
      v.flags = osp_few (row->estimate, row->err95) ? 0 : OSP_VROW_RANKED;
      memcpy (&pv[r], &v, sizeof v);
    }
  osp_vemit_end (o);
}

/* The prefix forest: every row, cut at the start of a tree. */
static uint64_t
forest_max_ids (const struct osp_profile *p)
{
  return (uint64_t) p->forest.nrows + 1;
}

static int
forest_plan (struct plan *pl, uint32_t *n, uint64_t *ids)
{
  *n = pl->p->forest.nrows;
  for (uint32_t r = 0; r < *n; r++)
    ids[r + 1] = ids[r] + pl->p->forest.rows[r].nsteps;
  return 0;
}

/* The forest rows kept when cut to K: back to the start of a tree when
   that keeps any row. */
static uint32_t
forest_keep (const struct plan *pl, uint32_t k)
{
  if (k >= pl->p->forest.nrows)
    return pl->p->forest.nrows;
  for (uint32_t r = k; r > 0; r--)
    if (pl->p->forest.rows[r].parent == UINT32_MAX)
      return r;
  return k;
}

static void
forest_ids (const struct plan *pl, uint32_t n, uint32_t *out)
{
  uint64_t at = 0;
  for (uint32_t r = 0; r < n; r++)
    {
      const struct osp_forest_row *row = &pl->p->forest.rows[r];
      for (uint32_t j = 0; j < row->nsteps; j++)
        out[at++] = pl->part->block0[row->fi] + row->steps[j].block;
    }
}

static void
forest_write (struct osp_vemit *o, const struct plan *pl, uint32_t n,
              const uint64_t *ids, uint64_t base)
{
  struct osp_vforest *fv = (struct osp_vforest *) osp_vemit_section (
      o, OSP_VS_FOREST, sizeof *fv, n);
  for (uint32_t r = 0; r < n; r++)
    {
      const struct osp_forest_row *row = &pl->p->forest.rows[r];
      struct osp_vforest v;
      memset (&v, 0, sizeof v);
      v.ids = base + ids[r];
      v.len = row->nsteps;
      v.fn = row->fi;
      v.parent = row->parent == UINT32_MAX ? OSP_VIEW_NO_PARENT : row->parent;
      v.depth = row->depth;
      v.id = row->id;
      v.count = row->count;
      v.estimate = row->estimate;
      v.err95 = row->err95;
      v.share = row->share / 100.0; /* the profile keeps it in % */
      /* the tsv report's ranked field (report-forest.c) */
      v.flags = osp_few (row->estimate, row->err95) ? 0 : OSP_VROW_RANKED;
      memcpy (&fv[r], &v, sizeof v);
    }
  osp_vemit_end (o);
}

static const struct rowkind rowkinds[] = {
  { OSP_VS_SUBPATHS, sizeof (struct osp_vsubpath), subpaths_plan,
    subpaths_max_ids, NULL, subpaths_ids, subpaths_write },
  { OSP_VS_PATHS, sizeof (struct osp_vpath), paths_plan, paths_max_ids,
    NULL, paths_ids, paths_write },
  { OSP_VS_FOREST, sizeof (struct osp_vforest), forest_plan,
    forest_max_ids, forest_keep, forest_ids, forest_write },
};

/* The row kind of view section VS (osp_section.view), or NULL. */
static const struct rowkind *
rowkind_of (uint32_t vs)
{
  for (size_t i = 0; i < sizeof rowkinds / sizeof rowkinds[0]; i++)
    if (vs != 0 && rowkinds[i].vs == vs)
      return &rowkinds[i];
  return NULL;
}

static int
plan_make (struct plan *pl, const struct osp_profile *p,
           const struct osp_view_run *run, struct osp_view_cache *cache)
{
  memset (pl, 0, sizeof *pl);
  pl->p = p;
  pl->stats.strings = &pl->strings;
  const char *runstr[OSP_VIEW_RUN_STRINGS];
  osp_view_run_strings (p, run, runstr);
  pl->part = cache != NULL ? cache->part : NULL;
  if (pl->part == NULL || !osp_view_part_fits (pl->part, p, runstr))
    {
      /* A module registered (or no part yet): the kept one is of no use. */
      if (cache != NULL)
        osp_view_cache_clear (cache);
      pl->part = pl->own = osp_view_part_make (p, runstr);
      if (pl->own == NULL)
        return -1;
    }
  /* The statistics' strings come after the part's. */
  if (osp_strtab_copy (&pl->strings, &pl->part->strings) != 0)
    return -1;
  struct osp_stat_out so = { .fn = stat_sink, .arg = &pl->stats };
  osp_report_stats (&so, p, run->opts);
  /* A live view's forest rows may be older than the rest (pathforest.c,
     "Live views on a budget"): say by how much, so the viewer can. */
  if (p->forest.shown && p->forest.rows_age_ns)
    osp_stat_u (&so, "forest_rows_age_ms", p->forest.rows_age_ns / 1000000);
  if (pl->strings.oom || pl->stats.oom)
    return -1;

  /* The row sections: those of the section table, in its order; a
     section not shown has none of its rows. */
  for (unsigned i = 0; i < osp_nsections; i++)
    {
      const struct rowkind *kind = rowkind_of (osp_sections[i].view);
      if (kind == NULL)
        continue;
      if (pl->nrows == NROWSETS)
        return -1;
      struct rowset *rs = &pl->rows[pl->nrows++];
      rs->kind = kind;
      int shown = osp_sections[i].shown (p);
      rs->ids = malloc ((shown ? kind->max_ids (p) : 1) * sizeof *rs->ids);
      if (rs->ids == NULL)
        return -1;
      rs->ids[0] = 0;
      if (shown && kind->plan (pl, &rs->n, rs->ids) != 0)
        return -1;
    }

  pl->fixed = osp_view_head_size (NFIXED + pl->nrows)
              + osp_view_align8 (pl->strings.len) + sizeof (struct osp_vrun)
              + pl->part->body
              + (uint64_t) p->nfns * sizeof (struct osp_vfnwork)
              + pl->stats.n * sizeof (struct osp_vstat);
  return 0;
}

/* Rows kept per row section. */
struct cut
{
  uint32_t n[NROWSETS];
};

static struct cut
cut_at (const struct plan *pl, uint64_t t)
{
  struct cut c;
  for (unsigned i = 0; i < pl->nrows; i++)
    {
      const struct rowset *rs = &pl->rows[i];
      c.n[i] = t < rs->n ? (uint32_t) t : rs->n;
      if (rs->kind->keep != NULL)
        c.n[i] = rs->kind->keep (pl, c.n[i]);
    }
  return c;
}

static uint64_t
ids_of (const struct plan *pl, struct cut c)
{
  uint64_t ids = 0;
  for (unsigned i = 0; i < pl->nrows; i++)
    ids += pl->rows[i].ids[c.n[i]];
  return ids;
}

static uint64_t
size_of (const struct plan *pl, struct cut c)
{
  uint64_t size = pl->fixed + osp_view_align8 (ids_of (pl, c)
                                               * sizeof (uint32_t));
  for (unsigned i = 0; i < pl->nrows; i++)
    size += (uint64_t) c.n[i] * pl->rows[i].kind->elem;
  return size;
}

/* ---- writing --------------------------------------------------------- */

static void
write_run (struct osp_vemit *o, const struct plan *pl,
           const struct osp_view_run *run)
{
  const struct osp_profile *p = pl->p;
  struct osp_vrun r;
  memset (&r, 0, sizeof r);
  r.pid = run->pid;
  r.start_ns = run->start_ns;
  r.instance_id = run->instance_id;
  r.program = pl->part->run_str[0];
  r.args = pl->part->run_str[1];
  r.options = pl->part->run_str[2];
  r.mode = pl->part->run_str[3];
  r.paths = pl->part->run_str[4];
  r.forest = pl->part->run_str[5];
  r.exited = run->exited ? 1 : 0;
  if (p->mode == OSP_MODE_BLOCKS)
    {
      for (uint32_t i = 0; i < p->nfns; i++)
        for (uint32_t b = 0; b < p->fns[i]->nblocks; b++)
          if (osp_block_counted (p->fns[i], b))
            r.blocks_seen += p->counts[i][b];
    }
  else
    r.blocks_seen = p->subpaths.walk[OSP_W_BLOCKS_SEEN];
  r.path_ends = p->paths.ends_seen;
  r.path_scale = p->paths.scale;
  r.forest_scale = p->forest.scale;
  r.forest_k = p->forest.k;
  memcpy (osp_vemit_section (o, OSP_VS_RUN, sizeof r, 1), &r, sizeof r);
  osp_vemit_end (o);
}

/* The part's sections, copied with their CRCs; in mode=blocks FUNCS'
   calls and BLOCKS' counts written into the copies, whose CRCs are then
   computed. */
static void
copy_part (struct osp_vemit *o, const struct plan *pl)
{
  const struct osp_profile *p = pl->p;
  int counts = p->mode == OSP_MODE_BLOCKS;
  for (unsigned k = 0; k < OSP_VIEW_PART_SECTIONS; k++)
    {
      const struct osp_view_section *s = &pl->part->toc[k];
      char *at = osp_vemit_section (o, s->kind, s->elem_size, s->count);
      if (s->count)
        memcpy (at, pl->part->view + s->offset, s->count * s->elem_size);
      if (counts && s->kind == OSP_VS_FUNCS)
        {
          struct osp_vfn *fv = (struct osp_vfn *) at;
          for (uint32_t i = 0; i < p->nfns; i++)
            if (p->fns[i]->nblocks && osp_block_counted (p->fns[i], 0))
              fv[i].calls = p->counts[i][0];
          osp_vemit_end (o);
        }
      else if (counts && s->kind == OSP_VS_BLOCKS)
        {
          struct osp_vblock *bv = (struct osp_vblock *) at;
          for (uint32_t i = 0; i < p->nfns; i++)
            for (uint32_t b = 0; b < p->fns[i]->nblocks; b++)
              if (osp_block_counted (p->fns[i], b))
                bv[pl->part->block0[i] + b].count = p->counts[i][b];
          osp_vemit_end (o);
        }
      else
        osp_vemit_end_crc (o, s->crc32);
    }
}

/* Every function's self executions and work (report-work.c). */
static void
write_fnwork (struct osp_vemit *o, const struct plan *pl)
{
  const struct osp_profile *p = pl->p;
  /* Out of memory: every function's figures 0 (the view stays valid). */
  size_t m = p->nfns ? p->nfns : 1;
  double *execs = calloc (m, sizeof *execs), *work = calloc (m, sizeof *work);
  if (execs != NULL && work != NULL)
    osp_fn_work (p, execs, work);
  struct osp_vfnwork *wv = (struct osp_vfnwork *) osp_vemit_section (
      o, OSP_VS_FNWORK, sizeof *wv, p->nfns);
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      struct osp_vfnwork v = { 0, 0 };
      if (execs != NULL && work != NULL)
        v = (struct osp_vfnwork) { execs[i], work[i] };
      memcpy (&wv[i], &v, sizeof v);
    }
  osp_vemit_end (o);
  free (execs);
  free (work);
}

/* IDS, then the row sections cut as C says. */
static void
write_rows (struct osp_vemit *o, const struct plan *pl, struct cut c)
{
  uint32_t *ids = (uint32_t *) osp_vemit_section (o, OSP_VS_IDS, sizeof *ids,
                                                  ids_of (pl, c));
  uint64_t at = 0;
  for (unsigned i = 0; i < pl->nrows; i++)
    {
      pl->rows[i].kind->ids (pl, c.n[i], ids + at);
      at += pl->rows[i].ids[c.n[i]];
    }
  osp_vemit_end (o);

  uint64_t base = 0;
  for (unsigned i = 0; i < pl->nrows; i++)
    {
      pl->rows[i].kind->write (o, pl, c.n[i], pl->rows[i].ids, base);
      base += pl->rows[i].ids[c.n[i]];
    }
}

/* A part made for this view goes into CACHE (if any) for the next. */
static void
keep_part (struct plan *pl, struct osp_view_cache *cache)
{
  if (cache != NULL && pl->own != NULL)
    {
      osp_view_cache_keep (cache, pl->own);
      pl->own = NULL;
    }
}

size_t
osp_view_write (void *buf, size_t cap, const struct osp_profile *p,
                const struct osp_view_run *run, uint64_t seq, int *truncated,
                struct osp_view_cache *cache)
{
  *truncated = 0;
  struct plan pl;
  if (plan_make (&pl, p, run, cache) != 0)
    {
      plan_free (&pl);
      return 0;
    }
  uint64_t tmax = 0;
  for (unsigned i = 0; i < pl.nrows; i++)
    if (pl.rows[i].n > tmax)
      tmax = pl.rows[i].n;
  struct cut c = cut_at (&pl, tmax);
  if (size_of (&pl, c) > cap)
    {
      /* The largest T that fits (size_of grows with T). */
      uint64_t lo = 0, hi = tmax;
      while (lo < hi)
        {
          uint64_t mid = lo + (hi - lo + 1) / 2;
          if (size_of (&pl, cut_at (&pl, mid)) <= cap)
            lo = mid;
          else
            hi = mid - 1;
        }
      c = cut_at (&pl, lo);
      *truncated = 1;
    }
  uint64_t size = size_of (&pl, c);
  if (size > cap)
    {
      /* Not even the functions fit.  The part is kept all the same: the
         snapshot tries again with a larger buffer (snapshot.c), and a
         publisher whose buffer is too small does not make it again for
         every view it cannot publish. */
      keep_part (&pl, cache);
      plan_free (&pl);
      return 0;
    }

  struct osp_vemit o;
  osp_vemit_begin (&o, buf, size, NFIXED + pl.nrows, run->time_ns, seq);
  /* STRINGS: the part's, checksummed once, then the statistics'. */
  memcpy (osp_vemit_section (&o, OSP_VS_STRINGS, 1, pl.strings.len),
          pl.strings.buf, pl.strings.len);
  size_t kept = pl.part->strings.len;
  osp_vemit_end_crc (&o, osp_crc32 (pl.part->strings_crc,
                                    pl.strings.buf + kept,
                                    pl.strings.len - kept));
  write_run (&o, &pl, run);
  copy_part (&o, &pl);
  write_fnwork (&o, &pl);
  char *stats = osp_vemit_section (&o, OSP_VS_STATS, sizeof (struct osp_vstat),
                               pl.stats.n);
  if (pl.stats.n)
    memcpy (stats, pl.stats.v, pl.stats.n * sizeof (struct osp_vstat));
  osp_vemit_end (&o);
  write_rows (&o, &pl, c);
  keep_part (&pl, cache);
  plan_free (&pl);
  return o.at == size ? (size_t) size : 0;
}

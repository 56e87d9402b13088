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
 *   SUBPATHS, PATHS, FOREST  the profile's rows in report order
 *   STATS    osp_report_stats: the tsv report's stat rows, same names,
 *            same order, values as integers, doubles or strings
 *   EDGES    every function's successor lists (the plugin's CFG), so that
 *            a snapshot can draw a function's graph (ospview --dot)
 *   FNSRC    per function: its source file's size and SHA-256 as the
 *            plugin recorded them, and the compile's directory, so that
 *            ospview shows a file's text only when it is the one compiled
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
 */
#define _GNU_SOURCE
#include "output/output.h"

#include <stdlib.h>
#include <string.h>

#include "format/strtab.h"
#include "format/viewbuild.h"
#include "osp/view.h"

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
  if (l->n == l->cap)
    {
      size_t cap = l->cap ? 2 * l->cap : 128;
      struct osp_vstat *v = realloc (l->v, cap * sizeof *v);
      if (v == NULL)
        {
          l->oom = 1;
          return;
        }
      l->v = v;
      l->cap = cap;
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

/* Everything the writing pass needs, computed first. */
struct plan
{
  const struct osp_profile *p;
  struct osp_strtab strings;
  struct statlist stats;
  uint32_t *fname, *ffile, *fdir, *block0; /* per function */
  uint64_t nblocks, nedges;
  /* Rows that can be written: the subpaths with known blocks (indices
     into p->subpaths.subs), and per section the prefix sums of ids. */
  uint32_t *subrows, nsub;
  uint32_t *subblocks; /* the kept subpaths' blocks as BLOCKS indices */
  uint64_t *subids, *pathids, *forestids; /* [k]: ids of the first k rows */
  uint32_t npath, nforest;
  uint64_t fixed; /* bytes of everything but IDS and the rows */
  /* RUN's strings: program, args, options, mode, paths, forest. */
  uint32_t run_str[6];
};

#define NSECTIONS 11

static void
plan_free (struct plan *pl)
{
  osp_strtab_free (&pl->strings);
  free (pl->stats.v);
  free (pl->fname);
  free (pl->ffile);
  free (pl->fdir);
  free (pl->block0);
  free (pl->subrows);
  free (pl->subblocks);
  free (pl->subids);
  free (pl->pathids);
  free (pl->forestids);
}

/* Block index in BLOCKS of global block id GID, or UINT32_MAX. */
static uint32_t
block_index (const struct plan *pl, uint32_t gid)
{
  uint32_t b = 0;
  uint32_t fi = osp_fn_index_of_block (pl->p->fns, pl->p->nfns, gid, &b);
  return fi == UINT32_MAX ? UINT32_MAX : pl->block0[fi] + b;
}

static int
plan_make (struct plan *pl, const struct osp_profile *p,
           const struct osp_view_run *run)
{
  memset (pl, 0, sizeof *pl);
  pl->p = p;
  pl->stats.strings = &pl->strings;
  size_t nf = p->nfns ? p->nfns : 1;
  pl->fname = malloc (nf * sizeof *pl->fname);
  pl->ffile = malloc (nf * sizeof *pl->ffile);
  pl->fdir = malloc (nf * sizeof *pl->fdir);
  pl->block0 = malloc (nf * sizeof *pl->block0);
  pl->subrows = malloc ((p->subpaths.nsubs ? p->subpaths.nsubs : 1)
                       * sizeof *pl->subrows);
  pl->subids = malloc (((size_t) p->subpaths.nsubs + 1) * sizeof *pl->subids);
  pl->pathids = malloc (((size_t) p->paths.nrows + 1) * sizeof *pl->pathids);
  pl->forestids
      = malloc (((size_t) p->forest.nrows + 1) * sizeof *pl->forestids);
  if (!pl->fname || !pl->ffile || !pl->fdir || !pl->block0 || !pl->subrows
      || !pl->subids
      || !pl->pathids || !pl->forestids)
    return -1;

  /* Offset 0 is the empty string. */
  if (osp_strtab_init (&pl->strings) != 0)
    return -1;
  pl->run_str[0] = osp_strtab_intern (&pl->strings, run->program);
  pl->run_str[1] = osp_strtab_intern (&pl->strings, run->args);
  pl->run_str[2] = osp_strtab_intern (&pl->strings, run->options);
  pl->run_str[3] = osp_strtab_intern (&pl->strings, osp_mode_name (p->mode));
  if (p->paths.shown)
    pl->run_str[4]
        = osp_strtab_intern (&pl->strings,
                             osp_path_policy_name (run->opts->paths));
  if (p->forest.shown)
    pl->run_str[5] = osp_strtab_intern (&pl->strings,
                                 osp_forest_policy_name (p->forest.policy));
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      pl->fname[i] = osp_strtab_intern (&pl->strings, p->fns[i]->name);
      pl->ffile[i] = osp_strtab_intern (&pl->strings, p->fns[i]->file);
      pl->fdir[i] = osp_strtab_intern (&pl->strings, p->fns[i]->comp_dir);
      pl->block0[i] = (uint32_t) pl->nblocks;
      pl->nblocks += p->fns[i]->nblocks;
      for (uint32_t b = 0; b < p->fns[i]->nblocks; b++)
        pl->nedges += p->fns[i]->blocks[b].nsucc;
    }
  if (pl->nblocks > UINT32_MAX)
    return -1;
  struct osp_stat_out so = { .fn = stat_sink, .arg = &pl->stats };
  osp_report_stats (&so, p, run->opts);
  if (pl->strings.oom || pl->stats.oom)
    return -1;

  size_t words = 0;
  for (uint32_t r = 0; r < p->subpaths.nsubs; r++)
    words += p->subpaths.subs[r].len;
  pl->subblocks = malloc ((words ? words : 1) * sizeof *pl->subblocks);
  if (pl->subblocks == NULL)
    return -1;
  pl->subids[0] = 0;
  for (uint32_t r = 0; r < p->subpaths.nsubs; r++)
    {
      const struct osp_subpath *s = &p->subpaths.subs[r];
      uint32_t *out = pl->subblocks + pl->subids[pl->nsub];
      uint32_t k = 0;
      while (k < s->len && (out[k] = block_index (pl, s->blocks[k]))
                               != UINT32_MAX)
        k++;
      if (k < s->len)
        continue;
      pl->subrows[pl->nsub] = r;
      pl->subids[pl->nsub + 1] = pl->subids[pl->nsub] + s->len;
      pl->nsub++;
    }
  pl->npath = p->paths.nrows;
  pl->pathids[0] = 0;
  for (uint32_t r = 0; r < pl->npath; r++)
    pl->pathids[r + 1] = pl->pathids[r] + p->paths.rows[r].nsteps;
  pl->nforest = p->forest.nrows;
  pl->forestids[0] = 0;
  for (uint32_t r = 0; r < pl->nforest; r++)
    pl->forestids[r + 1] = pl->forestids[r] + p->forest.rows[r].nsteps;

  pl->fixed = osp_view_head_size (NSECTIONS)
              + osp_view_align8 (pl->strings.len) + sizeof (struct osp_vrun)
              + (uint64_t) p->nfns * sizeof (struct osp_vfn)
              + (uint64_t) p->nfns * sizeof (struct osp_vfnsrc)
              + pl->nblocks * sizeof (struct osp_vblock)
              + pl->nedges * sizeof (struct osp_vedge)
              + pl->stats.n * sizeof (struct osp_vstat);
  return 0;
}

/* The forest rows kept when cut to K: back to the start of a tree when
   that keeps any row. */
static uint32_t
forest_keep (const struct plan *pl, uint32_t k)
{
  if (k >= pl->nforest)
    return pl->nforest;
  for (uint32_t r = k; r > 0; r--)
    if (pl->p->forest.rows[r].parent == UINT32_MAX)
      return r;
  return k;
}

struct cut
{
  uint32_t nsub, npath, nforest;
};

static struct cut
cut_at (const struct plan *pl, uint64_t t)
{
  struct cut c;
  c.nsub = t < pl->nsub ? (uint32_t) t : pl->nsub;
  c.npath = t < pl->npath ? (uint32_t) t : pl->npath;
  c.nforest = forest_keep (pl, t < pl->nforest ? (uint32_t) t : pl->nforest);
  return c;
}

static uint64_t
size_of (const struct plan *pl, struct cut c)
{
  uint64_t ids = pl->subids[c.nsub] + pl->pathids[c.npath]
                 + pl->forestids[c.nforest];
  return pl->fixed + osp_view_align8 (ids * sizeof (uint32_t))
         + (uint64_t) c.nsub * sizeof (struct osp_vsubpath)
         + (uint64_t) c.npath * sizeof (struct osp_vpath)
         + (uint64_t) c.nforest * sizeof (struct osp_vforest);
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
  r.program = pl->run_str[0];
  r.args = pl->run_str[1];
  r.options = pl->run_str[2];
  r.mode = pl->run_str[3];
  r.paths = pl->run_str[4];
  r.forest = pl->run_str[5];
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

static void
write_functions (struct osp_vemit *o, const struct plan *pl)
{
  const struct osp_profile *p = pl->p;
  int counts = p->mode == OSP_MODE_BLOCKS;
  struct osp_vfn *fv = (struct osp_vfn *) osp_vemit_section (
      o, OSP_VS_FUNCS, sizeof *fv, p->nfns);
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      const struct osp_fn *f = p->fns[i];
      struct osp_vfn v;
      memset (&v, 0, sizeof v);
      v.id = f->id;
      v.name = pl->fname[i];
      v.file = pl->ffile[i];
      v.first_line = f->first_line;
      v.block0 = pl->block0[i];
      v.nblocks = f->nblocks;
      v.calls = counts && f->nblocks && osp_block_counted (f, 0)
                    ? p->counts[i][0]
                    : OSP_VIEW_NONE;
      memcpy (&fv[i], &v, sizeof v);
    }
  osp_vemit_end (o);

  struct osp_vblock *bv = (struct osp_vblock *) osp_vemit_section (
      o, OSP_VS_BLOCKS, sizeof *bv, pl->nblocks);
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      const struct osp_fn *f = p->fns[i];
      for (uint32_t b = 0; b < f->nblocks; b++)
        {
          struct osp_vblock v;
          memset (&v, 0, sizeof v);
          v.fn = i;
          v.block = b;
          v.first_line = f->blocks[b].line_first;
          v.last_line = f->blocks[b].line_last;
          v.count = counts && osp_block_counted (f, b) ? p->counts[i][b]
                                                       : OSP_VIEW_NONE;
          memcpy (&bv[pl->block0[i] + b], &v, sizeof v);
        }
    }
  osp_vemit_end (o);

  struct osp_vedge *ev = (struct osp_vedge *) osp_vemit_section (
      o, OSP_VS_EDGES, sizeof *ev, pl->nedges);
  uint64_t n = 0;
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      const struct osp_fn *f = p->fns[i];
      for (uint32_t b = 0; b < f->nblocks; b++)
        for (uint32_t s = 0; s < f->blocks[b].nsucc; s++)
          {
            const struct osp_edge *e = &f->edges[f->blocks[b].succ + s];
            struct osp_vedge v;
            memset (&v, 0, sizeof v);
            v.from = pl->block0[i] + b;
            v.to = e->dst < f->nblocks ? pl->block0[i] + e->dst
                                       : OSP_VIEW_EXIT;
            v.flags = e->flags;
            memcpy (&ev[n++], &v, sizeof v);
          }
    }
  osp_vemit_end (o);

  struct osp_vfnsrc *sv = (struct osp_vfnsrc *) osp_vemit_section (
      o, OSP_VS_FNSRC, sizeof *sv, p->nfns);
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      const struct osp_fn *f = p->fns[i];
      struct osp_vfnsrc v;
      memset (&v, 0, sizeof v);
      v.comp_dir = pl->fdir[i];
      if (f->has_sha256)
        {
          v.flags = OSP_VSRC_DIGEST;
          v.size = f->file_size;
          memcpy (v.sha256, f->file_sha256, sizeof v.sha256);
        }
      memcpy (&sv[i], &v, sizeof v);
    }
  osp_vemit_end (o);
}

/* IDS, then the three row sections cut as C says. */
static void
write_rows (struct osp_vemit *o, const struct plan *pl, struct cut c)
{
  const struct osp_profile *p = pl->p;
  uint64_t nids = pl->subids[c.nsub] + pl->pathids[c.npath]
                  + pl->forestids[c.nforest];
  uint32_t *ids = (uint32_t *) osp_vemit_section (o, OSP_VS_IDS, sizeof *ids,
                                              nids);
  uint64_t at = pl->subids[c.nsub];
  if (at)
    memcpy (ids, pl->subblocks, at * sizeof *ids);
  for (uint32_t r = 0; r < c.npath; r++)
    {
      const struct osp_path_row *row = &p->paths.rows[r];
      for (uint32_t j = 0; j < row->nsteps; j++)
        ids[at++] = pl->block0[row->fi] + row->steps[j].block;
    }
  for (uint32_t r = 0; r < c.nforest; r++)
    {
      const struct osp_forest_row *row = &p->forest.rows[r];
      for (uint32_t j = 0; j < row->nsteps; j++)
        ids[at++] = pl->block0[row->fi] + row->steps[j].block;
    }
  osp_vemit_end (o);

  uint64_t base = 0;
  struct osp_vsubpath *sv = (struct osp_vsubpath *) osp_vemit_section (
      o, OSP_VS_SUBPATHS, sizeof *sv, c.nsub);
  for (uint32_t k = 0; k < c.nsub; k++)
    {
      const struct osp_subpath *s = &p->subpaths.subs[pl->subrows[k]];
      struct osp_vsubpath v;
      memset (&v, 0, sizeof v);
      v.ids = base + pl->subids[k];
      v.len = s->len;
      v.rank = pl->subrows[k] + 1;
      v.count = s->count;
      v.estimate = s->estimate;
      v.err95 = s->err95;
      v.share = s->share;
      memcpy (&sv[k], &v, sizeof v);
    }
  osp_vemit_end (o);

  base += pl->subids[c.nsub];
  struct osp_vpath *pv = (struct osp_vpath *) osp_vemit_section (
      o, OSP_VS_PATHS, sizeof *pv, c.npath);
  for (uint32_t r = 0; r < c.npath; r++)
    {
      const struct osp_path_row *row = &p->paths.rows[r];
      struct osp_vpath v;
      memset (&v, 0, sizeof v);
      v.ids = base + pl->pathids[r];
      v.len = row->nsteps;
      v.fn = row->fi;
      v.id = row->id;
      v.samples = row->samples;
      v.estimate = row->estimate;
      v.err95 = row->err95;
      v.share = row->share;
      v.branches = row->branches;
      v.rank = r + 1;
      memcpy (&pv[r], &v, sizeof v);
    }
  osp_vemit_end (o);

  base += pl->pathids[c.npath];
  struct osp_vforest *fv = (struct osp_vforest *) osp_vemit_section (
      o, OSP_VS_FOREST, sizeof *fv, c.nforest);
  for (uint32_t r = 0; r < c.nforest; r++)
    {
      const struct osp_forest_row *row = &p->forest.rows[r];
      struct osp_vforest v;
      memset (&v, 0, sizeof v);
      v.ids = base + pl->forestids[r];
      v.len = row->nsteps;
      v.fn = row->fi;
      v.parent = row->parent == UINT32_MAX ? OSP_VIEW_NO_PARENT : row->parent;
      v.depth = row->depth;
      v.id = row->id;
      v.count = row->count;
      v.estimate = row->estimate;
      v.err95 = row->err95;
      v.share = row->share / 100.0; /* the profile keeps it in % */
      memcpy (&fv[r], &v, sizeof v);
    }
  osp_vemit_end (o);
}

size_t
osp_view_write (void *buf, size_t cap, const struct osp_profile *p,
                const struct osp_view_run *run, uint64_t seq, int *truncated)
{
  *truncated = 0;
  struct plan pl;
  if (plan_make (&pl, p, run) != 0)
    {
      plan_free (&pl);
      return 0;
    }
  uint64_t tmax = pl.nsub;
  if (pl.npath > tmax)
    tmax = pl.npath;
  if (pl.nforest > tmax)
    tmax = pl.nforest;
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
      plan_free (&pl);
      return 0;
    }

  struct osp_vemit o;
  osp_vemit_begin (&o, buf, size, NSECTIONS, run->time_ns, seq);
  memcpy (osp_vemit_section (&o, OSP_VS_STRINGS, 1, pl.strings.len),
          pl.strings.buf, pl.strings.len);
  osp_vemit_end (&o);
  write_run (&o, &pl, run);
  write_functions (&o, &pl);
  char *stats = osp_vemit_section (&o, OSP_VS_STATS, sizeof (struct osp_vstat),
                               pl.stats.n);
  if (pl.stats.n)
    memcpy (stats, pl.stats.v, pl.stats.n * sizeof (struct osp_vstat));
  osp_vemit_end (&o);
  write_rows (&o, &pl, c);
  plan_free (&pl);
  return o.at == size ? (size_t) size : 0;
}

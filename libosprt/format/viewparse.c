/* SPDX-License-Identifier: MIT */
/* viewparse.c - validating a profile view (include/osp/view.h) and giving it a
 * C shape (struct view) for the screens.
 *
 * Why everything is checked: a view comes from another process through
 * shared memory (or from a file), so it may be cut short, torn, written by
 * another version, or hostile.  view_parse checks every byte the viewer
 * will use - header, section table, section bounds and checksums, every
 * string offset, every index and id run, every block's place in its
 * function (merge.c, the exports and the screens' keys name a block by
 * its function and number), the forest's shape - with arithmetic that
 * cannot overflow, and refuses the whole view with one line naming the
 * first problem.  After it returns 0 the screens, --merge, --diff and the
 * exports index the arrays without further checks; nothing of a refused
 * view is used.  This is the one place a view is validated.
 *
 * Caps (osp/view.h): strings of at most OSP_VIEW_STR_MAX bytes and forest
 * depth at most OSP_VIEW_MAX_DEPTH, what the runtime can write.  Without
 * them a 1 MB function name made every row 1 MB (2 GB for 2,000 rows) and
 * a 20,000-node chain made --diff's chain texts quadratic (8 GB); with
 * them every reader's time and memory are linear in the view.
 *
 * Forward compatibility as view.h says: a newer minor may add section
 * kinds (skipped unseen, their checksums not even computed) and grow
 * elements at their end (we stride by the writer's elem_size and read only
 * the fields we know).
 */
#include "viewparse.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "crc32.h"
#include "errmsg.h"

static int fail (char *err, size_t errlen, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));

static int
fail (char *err, size_t errlen, const char *fmt, ...)
{
  if (err != NULL && errlen > 0)
    {
      int n = snprintf (err, errlen, "bad view: ");
      va_list ap;
      va_start (ap, fmt);
      if (n > 0 && (size_t) n < errlen)
        vsnprintf (err + n, errlen - (size_t) n, fmt, ap);
      va_end (ap);
      /* Names from the view are untrusted: the message stays one line. */
      for (char *c = err; *c; c++)
        if ((unsigned char) *c < ' ' || *c == 0x7f)
          *c = '?';
    }
  return -1;
}

/* What this reader knows of each section kind. */
struct kind_info
{
  const char *name;
  uint32_t min_elem;  /* the element size this reader reads */
  int exact;          /* elem_size must equal min_elem (bytes, ids) */
};

static const struct kind_info kinds[] = {
  [OSP_VS_STRINGS] = { "STRINGS", 1, 1 },
  [OSP_VS_RUN] = { "RUN", sizeof (struct osp_vrun), 0 },
  [OSP_VS_FUNCS] = { "FUNCS", sizeof (struct osp_vfn), 0 },
  [OSP_VS_BLOCKS] = { "BLOCKS", sizeof (struct osp_vblock), 0 },
  [OSP_VS_IDS] = { "IDS", sizeof (uint32_t), 1 },
  /* minor 4 grew it; an older view's shorter element is still read
     (view_subpath_ranked, view_subpath_evidence) */
  [OSP_VS_SUBPATHS] = { "SUBPATHS", OSP_VSUBPATH_SIZE_1_3, 0 },
  /* minor 5 grew them by the ranked flag (view_path_ranked,
     view_forest_ranked) */
  [OSP_VS_PATHS] = { "PATHS", OSP_VPATH_SIZE_1_4, 0 },
  [OSP_VS_FOREST] = { "FOREST", OSP_VFOREST_SIZE_1_4, 0 },
  [OSP_VS_STATS] = { "STATS", sizeof (struct osp_vstat), 0 },
  [OSP_VS_EDGES] = { "EDGES", sizeof (struct osp_vedge), 0 },
  [OSP_VS_FNSRC] = { "FNSRC", sizeof (struct osp_vfnsrc), 0 },
  [OSP_VS_COSTS] = { "COSTS", sizeof (uint32_t), 1 },
  [OSP_VS_FNWORK] = { "FNWORK", sizeof (struct osp_vfnwork), 0 },
  [OSP_VS_BLINES] = { "BLINES", sizeof (struct osp_vblines), 0 },
  [OSP_VS_LINES] = { "LINES", sizeof (uint32_t), 1 },
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

/* ---- accessors ------------------------------------------------------- */

/* Element I of a section (NULL past its end), striding by the writer's
   element size. */
#define ACCESSOR(type, name, arr, n, size)                                   \
  const struct type *name (const struct view *v, uint64_t i)                \
  {                                                                          \
    return i < v->n ? (const void *) ((const char *) v->arr + i * v->size)  \
                    : NULL;                                                  \
  }

ACCESSOR (osp_vfn, view_fn, fns, nfns, fn_size)
ACCESSOR (osp_vblock, view_block, blocks, nblocks, block_size)
ACCESSOR (osp_vsubpath, view_subpath, subpaths, nsubpaths, subpath_size)
ACCESSOR (osp_vpath, view_path, paths, npaths, path_size)
ACCESSOR (osp_vforest, view_forest, forest, nforest, forest_size)
ACCESSOR (osp_vstat, view_stat, stats, nstats, stat_size)
ACCESSOR (osp_vedge, view_edge, edges, nedges, edge_size)
ACCESSOR (osp_vfnsrc, view_fnsrc, fnsrc, nfnsrc, fnsrc_size)
ACCESSOR (osp_vfnwork, view_fnwork, fnwork, nfnwork, fnwork_size)
ACCESSOR (osp_vblines, view_blines, blines, nblines, blines_size)

const uint32_t *
view_block_lines (const struct view *v, uint64_t block, uint32_t *n)
{
  const struct osp_vblines *l = view_blines (v, block);
  *n = l != NULL ? l->n : 0;
  return *n > 0 ? v->lines + l->at : NULL;
}

_Static_assert (offsetof (struct osp_vsubpath, threshold)
                    == OSP_VSUBPATH_SIZE_1_3,
                "osp_vsubpath: minor 4's fields follow minor 3's element");

/* Whether element I of SUBPATHS has the minor-4 fields (up to FIELD's
   end): a view of minor 3 or older has not. */
#define SUB_HAS(v, field)                                                    \
  ((v)->subpath_size >= offsetof (struct osp_vsubpath, field)               \
                            + sizeof ((struct osp_vsubpath *) 0)->field)

int
view_subpath_ranked (const struct view *v, uint64_t i)
{
  const struct osp_vsubpath *s = view_subpath (v, i);
  if (s == NULL)
    return 0;
  if (SUB_HAS (v, flags))
    return (s->flags & OSP_VSUB_RANKED) != 0;
  return !view_too_few (s->estimate, s->err95);
}

_Static_assert (offsetof (struct osp_vpath, flags) == OSP_VPATH_SIZE_1_4,
                "osp_vpath: minor 5's flags follow minor 4's element");
_Static_assert (offsetof (struct osp_vforest, flags) == OSP_VFOREST_SIZE_1_4,
                "osp_vforest: minor 5's flags follow minor 4's element");

/* Whether a row of STRIDE bytes has the flags that end at TYPE's flags. */
#define HAS_FLAGS(stride, type)                                              \
  ((stride) >= offsetof (struct type, flags) + sizeof (uint32_t))

int
view_path_ranked (const struct view *v, uint64_t i)
{
  const struct osp_vpath *p = view_path (v, i);
  if (p == NULL)
    return 0;
  if (HAS_FLAGS (v->path_size, osp_vpath))
    return (p->flags & OSP_VROW_RANKED) != 0;
  /* before minor 5 ospview ranked every paths=timer row */
  return strcmp (view_str (v, v->run.paths), "timer") == 0
         || !view_too_few (p->estimate, p->err95);
}

int
view_forest_ranked (const struct view *v, uint64_t i)
{
  const struct osp_vforest *n = view_forest (v, i);
  if (n == NULL)
    return 0;
  if (HAS_FLAGS (v->forest_size, osp_vforest))
    return (n->flags & OSP_VROW_RANKED) != 0;
  return !view_too_few (n->estimate, n->err95);
}

int
view_subpath_evidence (const struct view *v, uint64_t i,
                       struct view_evidence *out)
{
  const struct osp_vsubpath *s = view_subpath (v, i);
  memset (out, 0, sizeof *out);
  if (s == NULL || !SUB_HAS (v, estimator))
    return 0;
  out->count = s->count;
  out->threshold = s->threshold;
  out->scale = s->scale;
  out->error = s->error;
  out->estimator = s->estimator;
  return s->estimator != OSP_VSUB_EST_UNKNOWN;
}

uint32_t
view_cost (const struct view *v, uint64_t block)
{
  return v->costs != NULL && block < v->ncosts ? v->costs[block] : 1;
}

double
view_run_cost (const struct view *v, uint64_t ids, uint32_t len)
{
  double c = 0;
  for (uint32_t k = 0; k < len; k++)
    c += view_cost (v, v->ids[ids + k]);
  return c;
}

const char *
view_str (const struct view *v, uint32_t off)
{
  return off < v->nstrings ? v->strings + off : "";
}

/* ---- checks ---------------------------------------------------------- */

/* A string reference: inside STRINGS and terminated there, i.e. at or
   before its last NUL (LAST_NUL); 0 is always the empty string. */
struct strcheck
{
  uint64_t n, last_nul;
  int any_nul;
};

static int
str_ok (const struct strcheck *sc, uint64_t off)
{
  if (off == 0 && sc->n == 0)
    return 1;
  return sc->any_nul && off <= sc->last_nul;
}

/* An id run [ids, ids + len) inside IDS (an empty run is harmless: the
   row shows no blocks). */
static int
run_ok (const struct view *v, uint64_t ids, uint32_t len)
{
  return ids <= v->nids && len <= v->nids - ids;
}

static int
num_ok (double x)
{
  return isfinite (x) && x >= 0.0;
}

/* The blocks of an id run all belong to function FN. */
static int
run_of_fn (const struct view *v, uint64_t ids, uint32_t len, uint32_t fn,
           uint64_t *bad)
{
  for (uint32_t k = 0; k < len; k++)
    if (view_block (v, v->ids[ids + k])->fn != fn)
      {
        *bad = v->ids[ids + k];
        return 0;
      }
  return 1;
}

static int
check_run (const struct view *v, const struct strcheck *sc, char *err,
           size_t errlen)
{
  const struct osp_vrun *r = &v->run;
  const uint32_t strs[] = { r->program, r->args, r->options,
                            r->mode, r->paths, r->forest };
  static const char *const names[]
      = { "program", "args", "options", "mode", "paths", "forest" };
  for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
    if (!str_ok (sc, strs[i]))
      return fail (err, errlen, "RUN: %s string at %u is not inside STRINGS",
                   names[i], strs[i]);
  if (r->exited > 1)
    return fail (err, errlen, "RUN: exited is %u (not 0 or 1)", r->exited);
  if (!num_ok (r->path_scale) || !num_ok (r->forest_scale))
    return fail (err, errlen, "RUN: path or forest scale not a number >= 0");
  return 0;
}

static int
check_fns (const struct view *v, const struct strcheck *sc, char *err,
           size_t errlen)
{
  for (uint64_t i = 0; i < v->nfns; i++)
    {
      const struct osp_vfn *f = view_fn (v, i);
      if (!str_ok (sc, f->name) || !str_ok (sc, f->file))
        return fail (err, errlen,
                     "function %llu: its %s (at %u) is not a NUL-terminated "
                     "string inside STRINGS (%llu bytes)",
                     (unsigned long long) i,
                     str_ok (sc, f->name) ? "file" : "name",
                     str_ok (sc, f->name) ? f->file : f->name,
                     (unsigned long long) sc->n);
      if (f->block0 > v->nblocks || f->nblocks > v->nblocks - f->block0)
        return fail (err, errlen,
                     "function %llu: blocks [%u, +%u) past the %llu blocks",
                     (unsigned long long) i, f->block0, f->nblocks,
                     (unsigned long long) v->nblocks);
      for (uint32_t b = 0; b < f->nblocks; b++)
        {
          const struct osp_vblock *bl = view_block (v, (uint64_t) f->block0
                                                           + b);
          if (bl->fn != i)
            return fail (err, errlen,
                         "function %llu: its block %u names another function",
                         (unsigned long long) i, f->block0 + b);
          /* merge.c, the keys of screens.c and the exports name a block
             by (function, number): the number is its place */
          if (bl->block != b)
            return fail (err, errlen,
                         "block %llu: numbered %u, but it is block %u of its "
                         "function %llu", (unsigned long long) f->block0 + b,
                         bl->block, b, (unsigned long long) i);
        }
    }
  /* Every block inside its own function's range: with the loop above, the
     ranges then partition BLOCKS and BLOCKS[x] is block x - block0 of
     function fn for every x. */
  for (uint64_t i = 0; i < v->nblocks; i++)
    {
      const struct osp_vblock *bl = view_block (v, i);
      if (bl->fn >= v->nfns)
        return fail (err, errlen,
                     "block %llu: function %u out of range (%llu)",
                     (unsigned long long) i, bl->fn,
                     (unsigned long long) v->nfns);
      const struct osp_vfn *f = view_fn (v, bl->fn);
      if (i < f->block0 || i - f->block0 >= f->nblocks)
        return fail (err, errlen,
                     "block %llu: of function %u, outside its blocks "
                     "[%u, +%u)", (unsigned long long) i, bl->fn, f->block0,
                     f->nblocks);
    }
  for (uint64_t i = 0; i < v->nedges; i++)
    {
      const struct osp_vedge *e = view_edge (v, i);
      if (e->from >= v->nblocks
          || (e->to != OSP_VIEW_EXIT && e->to >= v->nblocks))
        return fail (err, errlen, "edge %llu: %u -> %u past the %llu blocks",
                     (unsigned long long) i, e->from, e->to,
                     (unsigned long long) v->nblocks);
      if (e->to != OSP_VIEW_EXIT
          && view_block (v, e->to)->fn != view_block (v, e->from)->fn)
        return fail (err, errlen, "edge %llu: %u -> %u joins two functions",
                     (unsigned long long) i, e->from, e->to);
      if (i > 0 && view_edge (v, i - 1)->from > e->from)
        return fail (err, errlen, "edge %llu: not grouped by source block",
                     (unsigned long long) i);
    }
  for (uint64_t i = 0; i < v->nids; i++)
    if (v->ids[i] >= v->nblocks)
      return fail (err, errlen, "IDS[%llu] = %u, past the %llu blocks",
                   (unsigned long long) i, v->ids[i],
                   (unsigned long long) v->nblocks);
  return 0;
}

/* FNSRC: one per function, if any (older views have none: no source
   text), its strings inside STRINGS.  Flags other than OSP_VSRC_DIGEST
   (a newer minor's) are ignored. */
static int
check_fnsrc (const struct view *v, const struct strcheck *sc, char *err,
             size_t errlen)
{
  if (v->fnsrc != NULL && v->nfnsrc != v->nfns)
    return fail (err, errlen, "FNSRC has %llu elements for %llu functions",
                 (unsigned long long) v->nfnsrc,
                 (unsigned long long) v->nfns);
  for (uint64_t i = 0; i < v->nfnsrc; i++)
    {
      const struct osp_vfnsrc *s = view_fnsrc (v, i);
      if (!str_ok (sc, s->comp_dir))
        return fail (err, errlen, "function %llu: its directory (at %u) is "
                     "not a string inside STRINGS", (unsigned long long) i,
                     s->comp_dir);
    }
  return 0;
}

/* COSTS: one per block.  FNWORK: one per function, finite and not
   negative (shares are divided by their sums). */
static int
check_costs (const struct view *v, char *err, size_t errlen)
{
  if (v->costs != NULL && v->ncosts != v->nblocks)
    return fail (err, errlen, "COSTS has %llu elements for %llu blocks",
                 (unsigned long long) v->ncosts,
                 (unsigned long long) v->nblocks);
  if (v->fnwork != NULL && v->nfnwork != v->nfns)
    return fail (err, errlen, "FNWORK has %llu elements for %llu functions",
                 (unsigned long long) v->nfnwork,
                 (unsigned long long) v->nfns);
  for (uint64_t i = 0; i < v->nfnwork; i++)
    {
      const struct osp_vfnwork *w = view_fnwork (v, i);
      if (!isfinite (w->execs) || !isfinite (w->work) || w->execs < 0
          || w->work < 0)
        return fail (err, errlen, "function %llu: its executions or work "
                     "is negative or not a number",
                     (unsigned long long) i);
    }
  return 0;
}

/* BLINES: one per block, each run inside LINES, ascending, from the
   block's first line to its last; the runs together at most LINES long
   (so a reader's walk over every block's lines is linear in the view). */
static int
check_lines (const struct view *v, char *err, size_t errlen)
{
  if ((v->blines == NULL) != (v->lines == NULL))
    return fail (err, errlen, "BLINES without LINES or LINES without "
                 "BLINES");
  if (v->blines != NULL && v->nblines != v->nblocks)
    return fail (err, errlen, "BLINES has %llu elements for %llu blocks",
                 (unsigned long long) v->nblines,
                 (unsigned long long) v->nblocks);
  uint64_t total = 0;
  for (uint64_t i = 0; i < v->nblines; i++)
    {
      const struct osp_vblines *l = view_blines (v, i);
      const struct osp_vblock *b = view_block (v, i);
      if (l->n == 0)
        continue;
      total += l->n;
      if (l->n < 2 || (uint64_t) l->at + l->n > v->nlines
          || total > v->nlines)
        return fail (err, errlen, "block %llu: its lines (%u at %u) are "
                     "not inside LINES", (unsigned long long) i, l->n,
                     l->at);
      const uint32_t *w = v->lines + l->at;
      if (w[0] != b->first_line || w[l->n - 1] != b->last_line)
        return fail (err, errlen, "block %llu: its lines do not run from "
                     "its first line to its last", (unsigned long long) i);
      for (uint32_t k = 1; k < l->n; k++)
        if (w[k] <= w[k - 1])
          return fail (err, errlen, "block %llu: its lines are not "
                       "ascending", (unsigned long long) i);
    }
  return 0;
}

/* Rows may share id runs, but a view whose rows reference far more ids
   than it holds is refused rather than walked for minutes. */
static int
check_work (const struct view *v, char *err, size_t errlen)
{
  uint64_t total = 0;
  for (uint64_t i = 0; i < v->nsubpaths; i++)
    total += view_subpath (v, i)->len;
  for (uint64_t i = 0; i < v->npaths; i++)
    total += view_path (v, i)->len;
  for (uint64_t i = 0; i < v->nforest; i++)
    total += view_forest (v, i)->len;
  uint64_t bound = 64 * v->nids > (1u << 22) ? 64 * v->nids : (1u << 22);
  if (total > bound)
    return fail (err, errlen, "its rows reference %llu block ids in all, "
                 "more than 64 times the %llu in IDS",
                 (unsigned long long) total, (unsigned long long) v->nids);
  return 0;
}

static int
check_rows (const struct view *v, char *err, size_t errlen)
{
  uint32_t prev = 0;
  for (uint64_t i = 0; i < v->nsubpaths; i++)
    {
      const struct osp_vsubpath *s = view_subpath (v, i);
      if (!run_ok (v, s->ids, s->len))
        return fail (err, errlen,
                     "subpath %llu: blocks [%llu, +%u) not inside the %llu "
                     "IDS",
                     (unsigned long long) i + 1, (unsigned long long) s->ids,
                     s->len, (unsigned long long) v->nids);
      if (s->rank < 1 || s->rank < prev)
        return fail (err, errlen, "subpath %llu: rank %u out of order",
                     (unsigned long long) i + 1, s->rank);
      prev = s->rank;
      if (!num_ok (s->estimate) || !num_ok (s->err95) || !num_ok (s->share))
        return fail (err, errlen, "subpath %llu: estimate, error or share "
                     "not a number >= 0", (unsigned long long) i + 1);
      if (SUB_HAS (v, scale) && (!num_ok (s->threshold) || !num_ok (s->scale)))
        return fail (err, errlen, "subpath %llu: threshold or scale not a "
                     "number >= 0", (unsigned long long) i + 1);
    }
  prev = 0;
  for (uint64_t i = 0; i < v->npaths; i++)
    {
      const struct osp_vpath *p = view_path (v, i);
      uint64_t bad;
      if (!run_ok (v, p->ids, p->len))
        return fail (err, errlen,
                     "path %llu: blocks [%llu, +%u) not inside the %llu IDS",
                     (unsigned long long) i + 1, (unsigned long long) p->ids,
                     p->len, (unsigned long long) v->nids);
      if (p->fn >= v->nfns)
        return fail (err, errlen, "path %llu: function %u out of range",
                     (unsigned long long) i + 1, p->fn);
      if (!run_of_fn (v, p->ids, p->len, p->fn, &bad))
        return fail (err, errlen, "path %llu: block %llu is not of its "
                     "function %u", (unsigned long long) i + 1,
                     (unsigned long long) bad, p->fn);
      if (p->rank < 1 || p->rank < prev)
        return fail (err, errlen, "path %llu: rank %u out of order",
                     (unsigned long long) i + 1, p->rank);
      prev = p->rank;
      if (!num_ok (p->estimate) || !num_ok (p->err95) || !num_ok (p->share))
        return fail (err, errlen, "path %llu: estimate, error or share not "
                     "a number >= 0", (unsigned long long) i + 1);
    }
  for (uint64_t i = 0; i < v->nforest; i++)
    {
      const struct osp_vforest *n = view_forest (v, i);
      uint64_t bad;
      if (!run_ok (v, n->ids, n->len))
        return fail (err, errlen,
                     "forest node %llu: blocks [%llu, +%u) not inside the "
                     "%llu IDS",
                     (unsigned long long) i, (unsigned long long) n->ids,
                     n->len, (unsigned long long) v->nids);
      if (n->fn >= v->nfns)
        return fail (err, errlen, "forest node %llu: function %u out of "
                     "range", (unsigned long long) i, n->fn);
      if (!run_of_fn (v, n->ids, n->len, n->fn, &bad))
        return fail (err, errlen, "forest node %llu: block %llu is not of "
                     "its function %u", (unsigned long long) i,
                     (unsigned long long) bad, n->fn);
      if (n->parent == OSP_VIEW_NO_PARENT)
        {
          if (n->depth != 0)
            return fail (err, errlen, "forest node %llu: a root at depth %u",
                         (unsigned long long) i, n->depth);
        }
      else
        {
          if (n->parent >= i)
            return fail (err, errlen, "forest node %llu: its parent %u does "
                         "not come before it", (unsigned long long) i,
                         n->parent);
          const struct osp_vforest *p = view_forest (v, n->parent);
          if (p->depth >= OSP_VIEW_MAX_DEPTH)
            return fail (err, errlen, "forest node %llu: deeper than %u "
                         "(the runtime's forest_k is at most %u)",
                         (unsigned long long) i, OSP_VIEW_MAX_DEPTH,
                         OSP_VIEW_MAX_DEPTH + 1);
          if (n->depth != p->depth + 1)
            return fail (err, errlen, "forest node %llu: depth %u under a "
                         "parent at depth %u", (unsigned long long) i,
                         n->depth, p->depth);
          if (n->fn != p->fn)
            return fail (err, errlen, "forest node %llu: function %u under "
                         "a parent of function %u", (unsigned long long) i,
                         n->fn, p->fn);
        }
      if (!num_ok (n->estimate) || !num_ok (n->err95) || !num_ok (n->share))
        return fail (err, errlen, "forest node %llu: estimate, error or "
                     "share not a number >= 0", (unsigned long long) i);
    }
  return 0;
}

static int
check_stats (const struct view *v, const struct strcheck *sc, char *err,
             size_t errlen)
{
  for (uint64_t i = 0; i < v->nstats; i++)
    {
      const struct osp_vstat *s = view_stat (v, i);
      if (!str_ok (sc, s->name))
        return fail (err, errlen, "stat %llu: name at %u is not a string "
                     "inside STRINGS", (unsigned long long) i, s->name);
      if (s->kind > OSP_VSTAT_STR)
        return fail (err, errlen, "stat %llu (%s): unknown kind %u",
                     (unsigned long long) i, view_str (v, s->name), s->kind);
      if (s->kind == OSP_VSTAT_STR
          && (s->value > UINT32_MAX || !str_ok (sc, s->value)))
        return fail (err, errlen, "stat %llu (%s): value at %llu is not a "
                     "string inside STRINGS", (unsigned long long) i,
                     view_str (v, s->name), (unsigned long long) s->value);
    }
  return 0;
}

/* ---- the header and the section table -------------------------------- */

int
view_parse (struct view *v, const void *buf, size_t len, char *err,
            size_t errlen)
{
  memset (v, 0, sizeof *v);
  const unsigned char *base = buf;
  const struct osp_view_header *h = buf;
  if (((uintptr_t) buf & 7) != 0)
    return fail (err, errlen, "buffer not 8-byte aligned");
  if (len < sizeof h->magic)
    return fail (err, errlen, "only %zu bytes: not an osp view", len);
  if (memcmp (h->magic, OSP_VIEW_MAGIC, 8) != 0)
    return fail (err, errlen, "not an osp view (bad magic)");
  if (len < sizeof *h)
    return fail (err, errlen, "truncated: %zu bytes, shorter than its header",
                 len);
  if (h->byte_order != OSP_VIEW_BYTE_ORDER)
    return fail (err, errlen, "%s",
                 h->byte_order == __builtin_bswap32 (OSP_VIEW_BYTE_ORDER)
                     ? "written with the other byte order"
                     : "bad byte-order mark");
  if (h->major != OSP_VIEW_MAJOR)
    return fail (err, errlen, "format version %u.%u, this ospview reads %u.x",
                 (unsigned) h->major, (unsigned) h->minor,
                 (unsigned) OSP_VIEW_MAJOR);
  if (h->size > len)
    return fail (err, errlen, "truncated: %zu bytes, header says %llu", len,
                 (unsigned long long) h->size);
  uint64_t size = h->size;
  if (h->header_size < sizeof *h || h->header_size > size
      || h->header_size % 8 != 0)
    return fail (err, errlen, "header size %u out of range", h->header_size);
  uint64_t room = (size - h->header_size) / sizeof (struct osp_view_section);
  if (h->nsections > room)
    return fail (err, errlen, "%u sections, but the table has room for %llu "
                 "in %llu bytes", h->nsections, (unsigned long long) room,
                 (unsigned long long) size);
  const struct osp_view_section *sec
      = (const void *) (base + h->header_size);
  uint64_t table_end = h->header_size
                       + (uint64_t) h->nsections * sizeof *sec;

  const struct osp_view_section *found[NKINDS] = { 0 };
  for (uint32_t i = 0; i < h->nsections; i++)
    {
      const struct osp_view_section *s = &sec[i];
      if (s->kind == 0 || s->kind >= NKINDS)
        continue; /* unknown kind (a newer minor): skipped */
      const struct kind_info *k = &kinds[s->kind];
      if (found[s->kind] != NULL)
        return fail (err, errlen, "two %s sections", k->name);
      found[s->kind] = s;
      if (k->exact ? s->elem_size != k->min_elem
                   : s->elem_size < k->min_elem || s->elem_size % 8 != 0)
        return fail (err, errlen,
                     "section %s: elements of %u bytes (this ospview reads "
                     "%s%u%s)",
                     k->name, s->elem_size, k->exact ? "" : "at least ",
                     k->min_elem, k->exact ? "" : ", a multiple of 8");
      if (s->offset % 8 != 0)
        return fail (err, errlen, "section %s at offset %llu is not 8-byte "
                     "aligned", k->name, (unsigned long long) s->offset);
      if (s->offset < table_end || s->offset > size
          || s->count > (size - s->offset) / s->elem_size)
        return fail (err, errlen,
                     "section %s (offset %llu, %llu x %u bytes) lies outside "
                     "the view's %llu bytes after its header and table",
                     k->name, (unsigned long long) s->offset,
                     (unsigned long long) s->count, s->elem_size,
                     (unsigned long long) size);
      size_t bytes = (size_t) (s->count * s->elem_size);
      uint32_t crc = osp_crc32 (0, base + s->offset, bytes);
      if (crc != s->crc32)
        return fail (err, errlen, "section %s: bad CRC (stored 0x%08x, "
                     "computed 0x%08x)", k->name, s->crc32, crc);
    }

  v->hdr = h;
  struct strcheck sc = { 0, 0, 0 };
  if (found[OSP_VS_STRINGS])
    {
      const struct osp_view_section *s = found[OSP_VS_STRINGS];
      v->strings = (const char *) base + s->offset;
      v->nstrings = s->count;
      sc.n = s->count;
      for (uint64_t i = s->count; i-- > 0;)
        if (v->strings[i] == '\0')
          {
            sc.last_nul = i;
            sc.any_nul = 1;
            break;
          }
      if (s->count > 0 && v->strings[0] != '\0')
        {
          memset (v, 0, sizeof *v);
          return fail (err, errlen, "STRINGS does not start with the empty "
                       "string");
        }
      /* No run of more than OSP_VIEW_STR_MAX bytes without a NUL: then no
         string at any offset is longer (one pass, whatever refers to
         what). */
      uint64_t run = 0;
      for (uint64_t i = 0; i < s->count; i++)
        {
          run = v->strings[i] == '\0' ? 0 : run + 1;
          if (run > OSP_VIEW_STR_MAX)
            {
              memset (v, 0, sizeof *v);
              return fail (err, errlen, "STRINGS: a string at offset %llu "
                           "is longer than %u bytes (names, files and "
                           "arguments are at most that)",
                           (unsigned long long) (i + 1 - run),
                           OSP_VIEW_STR_MAX);
            }
        }
    }
  if (found[OSP_VS_RUN])
    {
      const struct osp_view_section *s = found[OSP_VS_RUN];
      if (s->count != 1)
        {
          memset (v, 0, sizeof *v);
          return fail (err, errlen, "RUN has %llu elements, not 1",
                       (unsigned long long) s->count);
        }
      memcpy (&v->run, base + s->offset, sizeof v->run);
    }
#define TAKE(kind, ptr, n, size)                                             \
  do                                                                         \
    {                                                                        \
      const struct osp_view_section *s_ = found[kind];                       \
      if (s_ != NULL)                                                        \
        {                                                                    \
          v->ptr = (const void *) (base + s_->offset);                       \
          v->n = s_->count;                                                  \
          v->size = s_->elem_size;                                           \
        }                                                                    \
    }                                                                        \
  while (0)
  TAKE (OSP_VS_FUNCS, fns, nfns, fn_size);
  TAKE (OSP_VS_BLOCKS, blocks, nblocks, block_size);
  if (found[OSP_VS_IDS] != NULL)
    {
      v->ids = (const void *) (base + found[OSP_VS_IDS]->offset);
      v->nids = found[OSP_VS_IDS]->count;
    }
  TAKE (OSP_VS_SUBPATHS, subpaths, nsubpaths, subpath_size);
  TAKE (OSP_VS_PATHS, paths, npaths, path_size);
  TAKE (OSP_VS_FOREST, forest, nforest, forest_size);
  TAKE (OSP_VS_STATS, stats, nstats, stat_size);
  TAKE (OSP_VS_EDGES, edges, nedges, edge_size);
  TAKE (OSP_VS_FNSRC, fnsrc, nfnsrc, fnsrc_size);
  TAKE (OSP_VS_FNWORK, fnwork, nfnwork, fnwork_size);
  TAKE (OSP_VS_BLINES, blines, nblines, blines_size);
  if (found[OSP_VS_LINES] != NULL)
    {
      v->lines = (const void *) (base + found[OSP_VS_LINES]->offset);
      v->nlines = found[OSP_VS_LINES]->count;
    }
  if (found[OSP_VS_COSTS] != NULL)
    {
      v->costs = (const void *) (base + found[OSP_VS_COSTS]->offset);
      v->ncosts = found[OSP_VS_COSTS]->count;
    }
#undef TAKE
  if (v->nfns > UINT32_MAX || v->nblocks >= UINT32_MAX
      || v->nforest >= OSP_VIEW_NO_PARENT)
    {
      memset (v, 0, sizeof *v);
      return fail (err, errlen, "more functions, blocks or forest nodes "
                   "than 32-bit indices can name");
    }

  int rc = check_run (v, &sc, err, errlen);
  if (rc == 0)
    rc = check_fns (v, &sc, err, errlen);
  if (rc == 0)
    rc = check_fnsrc (v, &sc, err, errlen);
  if (rc == 0)
    rc = check_costs (v, err, errlen);
  if (rc == 0)
    rc = check_lines (v, err, errlen);
  if (rc == 0)
    rc = check_work (v, err, errlen);
  if (rc == 0)
    rc = check_rows (v, err, errlen);
  if (rc == 0)
    rc = check_stats (v, &sc, err, errlen);
  if (rc != 0)
    {
      memset (v, 0, sizeof *v);
      return -1;
    }
  return 0;
}

/* ---- lookups --------------------------------------------------------- */

const struct osp_vstat *
view_stat_named (const struct view *v, const char *name)
{
  for (uint64_t i = 0; i < v->nstats; i++)
    if (strcmp (view_str (v, view_stat (v, i)->name), name) == 0)
      return view_stat (v, i);
  return NULL;
}

int
view_stat_u64 (const struct view *v, const char *name, uint64_t *out)
{
  const struct osp_vstat *s = view_stat_named (v, name);
  if (s == NULL)
    return 0;
  if (s->kind == OSP_VSTAT_U64)
    *out = s->value;
  else if (s->kind == OSP_VSTAT_F64)
    {
      double d;
      memcpy (&d, &s->value, sizeof d);
      if (!(d >= 0 && d < 1.8e19))
        return 0;
      *out = (uint64_t) d;
    }
  else
    return 0;
  return 1;
}

int
view_stat_f64 (const struct view *v, const char *name, double *out)
{
  const struct osp_vstat *s = view_stat_named (v, name);
  if (s == NULL)
    return 0;
  if (s->kind == OSP_VSTAT_F64)
    memcpy (out, &s->value, sizeof *out);
  else if (s->kind == OSP_VSTAT_U64)
    *out = (double) s->value;
  else
    return 0;
  return 1;
}

const char *
view_stat_str (const struct view *v, const char *name)
{
  for (uint64_t i = 0; i < v->nstats; i++)
    {
      const struct osp_vstat *s = view_stat (v, i);
      if (s->kind == OSP_VSTAT_STR
          && strcmp (view_str (v, s->name), name) == 0)
        return view_str (v, (uint32_t) s->value);
    }
  return NULL;
}

/* ---- snapshot files --------------------------------------------------- */

/* Every field, in the order include/osp/snapshot.h lists them: a
   snapshot comes from disk, perhaps damaged or hostile. */
int
osp_snap_check (const void *bytes, uint64_t len, struct osp_snap_header *h,
                char *err, size_t errlen)
{
  const char *file = bytes;
  if (len < 8 || memcmp (file, OSP_SNAP_MAGIC, 8) != 0)
    return osp_errf (err, errlen, "not an osp snapshot (bad magic number)");
  if (len < sizeof *h)
    return osp_errf (err, errlen, "truncated: %llu bytes, shorter than the "
                     "%zu-byte header", (unsigned long long) len, sizeof *h);
  memcpy (h, file, sizeof *h);
  if (h->byte_order != OSP_SNAP_BYTE_ORDER)
    return osp_errf (err, errlen, "written with another byte order "
                     "(0x%08x)", h->byte_order);
  if (h->major != OSP_SNAP_MAJOR)
    return osp_errf (err, errlen, "format version %u.%u, this ospview reads "
                     "%u.x", h->major, h->minor, OSP_SNAP_MAJOR);
  if (h->header_size < sizeof *h || h->header_size > len)
    return osp_errf (err, errlen, "header size %u out of range (%zu..%llu)",
                     h->header_size, sizeof *h, (unsigned long long) len);
  /* The CRC covers the writer's whole header, its crc field zeroed. */
  uint32_t want = h->header_crc32;
  uint32_t zero = 0;
  size_t at = offsetof (struct osp_snap_header, header_crc32);
  uint32_t crc = osp_crc32 (0, file, at);
  crc = osp_crc32 (crc, &zero, sizeof zero);
  crc = osp_crc32 (crc, file + at + sizeof zero,
                   h->header_size - at - sizeof zero);
  if (crc != want)
    return osp_errf (err, errlen, "header checksum mismatch (corrupted)");
  if (h->view_offset % 8 != 0 || h->view_offset < h->header_size
      || h->view_offset > len)
    return osp_errf (err, errlen, "view offset %llu out of range",
                     (unsigned long long) h->view_offset);
  if (h->view_size != len - h->view_offset)
    return osp_errf (err, errlen, "truncated or extended: the view should be "
                     "%llu bytes, the file holds %llu after the header",
                     (unsigned long long) h->view_size,
                     (unsigned long long) (len - h->view_offset));
  if (osp_crc32 (0, file + h->view_offset, h->view_size) != h->view_crc32)
    return osp_errf (err, errlen, "view checksum mismatch (corrupted)");
  h->writer[sizeof h->writer - 1] = '\0';
  return 0;
}

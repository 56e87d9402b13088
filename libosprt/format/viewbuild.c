/* SPDX-License-Identifier: MIT */
/* viewbuild.c - a profile view built from parts (viewbuild.h).
 *
 * Elements are appended to growable arrays; nothing is laid out until
 * vb_finish, which writes the sections in the order the runtime's
 * viewwrite.c does: STRINGS, RUN, FUNCS, BLOCKS, EDGES, FNSRC, STATS, IDS,
 * SUBPATHS, PATHS, FOREST, through the same emitter (viewemit.c: each
 * section 8-aligned with zeroed padding after it and the CRC-32 of its
 * count x elem_size bytes).  Elements are written at their C size (all of
 * view.h's structures are multiples of 8 bytes, as view_parse wants).
 */
#include "viewbuild.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "grow.h"
#include "strtab.h"

void
vb_init (struct vbuild *b)
{
  memset (b, 0, sizeof *b);
  if (osp_strtab_init (&b->strings) != 0)
    b->oom = 1;
}

void
vb_free (struct vbuild *b)
{
  osp_strtab_free (&b->strings);
  struct vb_array *arrs[] = { &b->fns,      &b->blocks, &b->edges,
                              &b->ids,      &b->subpaths, &b->paths,
                              &b->forest,   &b->stats, &b->fnsrc,
                              &b->costs,    &b->fnwork, &b->blines,
                              &b->lines };
  for (size_t i = 0; i < sizeof arrs / sizeof arrs[0]; i++)
    free (arrs[i]->p);
  memset (b, 0, sizeof *b);
}

/* Room for one more element of ELEM bytes in A: its address, or NULL
   (out of memory, now sticky). */
static void *
push (struct vbuild *b, struct vb_array *a, size_t elem)
{
  if (b->oom)
    return NULL;
  if (osp_grow (&a->p, &a->cap, a->n + 1, elem, 64) != 0)
    {
      b->oom = 1;
      return NULL;
    }
  return (char *) a->p + a->n++ * elem;
}

/* ---- strings --------------------------------------------------------- */

uint32_t
vb_str (struct vbuild *b, const char *s)
{
  if (b->oom)
    return 0;
  uint32_t off = osp_strtab_intern (&b->strings, s);
  if (b->strings.oom)
    b->oom = 1;
  return off;
}

/* ---- elements -------------------------------------------------------- */

void
vb_run (struct vbuild *b, const struct osp_vrun *r)
{
  b->run = *r;
}

#define APPEND(arr, type, elem, fail)                                        \
  do                                                                         \
    {                                                                        \
      type *at_ = push (b, &b->arr, sizeof (type));                          \
      if (at_ == NULL)                                                       \
        return fail;                                                         \
      *at_ = *(elem);                                                        \
    }                                                                        \
  while (0)

uint32_t
vb_fn (struct vbuild *b, const struct osp_vfn *f)
{
  APPEND (fns, struct osp_vfn, f, UINT32_MAX);
  return (uint32_t) (b->fns.n - 1);
}

/* FNSRC at least N long, the new ones "no digest". */
static void
fnsrc_grow (struct vbuild *b, size_t n)
{
  static const struct osp_vfnsrc none;
  while (b->fnsrc.n < n)
    APPEND (fnsrc, struct osp_vfnsrc, &none, );
}

void
vb_fnsrc (struct vbuild *b, uint32_t fn, const struct osp_vfnsrc *s)
{
  fnsrc_grow (b, (size_t) fn + 1);
  if (!b->oom)
    ((struct osp_vfnsrc *) b->fnsrc.p)[fn] = *s;
}

/* COSTS at least N long, the new ones 1; FNWORK likewise, the new 0. */
static void
costs_grow (struct vbuild *b, size_t n)
{
  static const uint32_t one = 1;
  while (b->costs.n < n)
    APPEND (costs, uint32_t, &one, );
}

static void
fnwork_grow (struct vbuild *b, size_t n)
{
  static const struct osp_vfnwork none;
  while (b->fnwork.n < n)
    APPEND (fnwork, struct osp_vfnwork, &none, );
}

void
vb_cost (struct vbuild *b, uint32_t block, uint32_t cost)
{
  costs_grow (b, (size_t) block + 1);
  if (!b->oom)
    ((uint32_t *) b->costs.p)[block] = cost;
}

void
vb_fnwork (struct vbuild *b, uint32_t fn, const struct osp_vfnwork *w)
{
  fnwork_grow (b, (size_t) fn + 1);
  if (!b->oom)
    ((struct osp_vfnwork *) b->fnwork.p)[fn] = *w;
}

/* BLINES at least N long, the new ones "every line of the range". */
static void
blines_grow (struct vbuild *b, size_t n)
{
  static const struct osp_vblines range;
  while (b->blines.n < n)
    APPEND (blines, struct osp_vblines, &range, );
}

void
vb_lines (struct vbuild *b, uint32_t block, const uint32_t *lines,
          uint32_t n)
{
  blines_grow (b, (size_t) block + 1);
  if (b->oom || n == 0)
    return;
  if (b->lines.n + n > UINT32_MAX)
    {
      b->oom = 1; /* vb_finish says so: no 32-bit index names them */
      return;
    }
  struct osp_vblines l = { (uint32_t) b->lines.n, n };
  for (uint32_t k = 0; k < n; k++)
    APPEND (lines, uint32_t, &lines[k], );
  ((struct osp_vblines *) b->blines.p)[block] = l;
}

uint32_t
vb_block (struct vbuild *b, const struct osp_vblock *bl)
{
  APPEND (blocks, struct osp_vblock, bl, UINT32_MAX);
  return (uint32_t) (b->blocks.n - 1);
}

void
vb_edge (struct vbuild *b, const struct osp_vedge *e)
{
  APPEND (edges, struct osp_vedge, e, );
}

uint64_t
vb_ids (struct vbuild *b, const uint32_t *ids, uint32_t len)
{
  uint64_t first = b->ids.n;
  for (uint32_t k = 0; k < len; k++)
    APPEND (ids, uint32_t, &ids[k], UINT64_MAX);
  return first;
}

void
vb_subpath (struct vbuild *b, const struct osp_vsubpath *s)
{
  APPEND (subpaths, struct osp_vsubpath, s, );
}

void
vb_path (struct vbuild *b, const struct osp_vpath *p)
{
  APPEND (paths, struct osp_vpath, p, );
}

uint32_t
vb_forest (struct vbuild *b, const struct osp_vforest *n)
{
  APPEND (forest, struct osp_vforest, n, UINT32_MAX);
  return (uint32_t) (b->forest.n - 1);
}

static void
stat_add (struct vbuild *b, const char *name, uint32_t kind, uint64_t value)
{
  struct osp_vstat st;
  memset (&st, 0, sizeof st);
  st.name = vb_str (b, name);
  st.kind = kind;
  st.value = value;
  APPEND (stats, struct osp_vstat, &st, );
}

void
vb_stat_u64 (struct vbuild *b, const char *name, uint64_t value)
{
  stat_add (b, name, OSP_VSTAT_U64, value);
}

void
vb_stat_f64 (struct vbuild *b, const char *name, double value)
{
  uint64_t bits;
  memcpy (&bits, &value, sizeof bits);
  stat_add (b, name, OSP_VSTAT_F64, bits);
}

void
vb_stat_str (struct vbuild *b, const char *name, const char *value)
{
  stat_add (b, name, OSP_VSTAT_STR, vb_str (b, value));
}

size_t
vb_count_subpaths (const struct vbuild *b)
{
  return b->subpaths.n;
}

size_t
vb_count_paths (const struct vbuild *b)
{
  return b->paths.n;
}

size_t
vb_count_forest (const struct vbuild *b)
{
  return b->forest.n;
}

/* ---- layout (viewemit.c) --------------------------------------------- */

#define NSECTIONS 15

int
vb_finish (struct vbuild *b, uint64_t time_ns, uint64_t seq, void **out,
           size_t *len, char *err, size_t errlen)
{
  *out = NULL;
  *len = 0;
  if (b->oom)
    return osp_errf (err, errlen, "out of memory building the view");
  if (b->fns.n > UINT32_MAX || b->blocks.n >= UINT32_MAX
      || b->forest.n >= OSP_VIEW_NO_PARENT)
    return osp_errf (err, errlen, "more functions, blocks or forest nodes than "
                     "32-bit indices can name");
  fnsrc_grow (b, b->fns.n);
  /* Set at all: one per block / function (a merged view whose inputs
     all had them); else left out. */
  int costs = b->costs.n > 0, fnwork = b->fnwork.n > 0,
      lines = b->blines.n > 0;
  if (costs)
    costs_grow (b, b->blocks.n);
  if (fnwork)
    fnwork_grow (b, b->fns.n);
  if (lines)
    blines_grow (b, b->blocks.n);
  if (b->oom)
    return osp_errf (err, errlen, "out of memory building the view");
  struct
  {
    uint32_t kind, elem;
    const void *data;
    uint64_t count;
    int off; /* a section left out */
  } sec[NSECTIONS] = {
    { OSP_VS_STRINGS, 1, b->strings.buf, b->strings.len, 0 },
    { OSP_VS_RUN, sizeof (struct osp_vrun), &b->run, 1, 0 },
    { OSP_VS_FUNCS, sizeof (struct osp_vfn), b->fns.p, b->fns.n, 0 },
    { OSP_VS_BLOCKS, sizeof (struct osp_vblock), b->blocks.p, b->blocks.n, 0 },
    { OSP_VS_EDGES, sizeof (struct osp_vedge), b->edges.p, b->edges.n, 0 },
    { OSP_VS_FNSRC, sizeof (struct osp_vfnsrc), b->fnsrc.p, b->fns.n, 0 },
    { OSP_VS_STATS, sizeof (struct osp_vstat), b->stats.p, b->stats.n, 0 },
    { OSP_VS_IDS, sizeof (uint32_t), b->ids.p, b->ids.n, 0 },
    { OSP_VS_SUBPATHS, sizeof (struct osp_vsubpath), b->subpaths.p,
      b->subpaths.n, 0 },
    { OSP_VS_PATHS, sizeof (struct osp_vpath), b->paths.p, b->paths.n, 0 },
    { OSP_VS_FOREST, sizeof (struct osp_vforest), b->forest.p,
      b->forest.n, 0 },
    { OSP_VS_COSTS, sizeof (uint32_t), b->costs.p, b->blocks.n, !costs },
    { OSP_VS_FNWORK, sizeof (struct osp_vfnwork), b->fnwork.p, b->fns.n,
      !fnwork },
    { OSP_VS_BLINES, sizeof (struct osp_vblines), b->blines.p, b->blocks.n,
      !lines },
    { OSP_VS_LINES, sizeof (uint32_t), b->lines.p, b->lines.n, !lines },
  };
  int nsec = 0;
  for (int i = 0; i < NSECTIONS; i++)
    if (!sec[i].off)
      sec[nsec++] = sec[i];
  uint64_t size = osp_view_head_size ((uint32_t) nsec);
  for (int i = 0; i < nsec; i++)
    size += osp_view_align8 (sec[i].count * sec[i].elem);
  if (size > SIZE_MAX / 2)
    return osp_errf (err, errlen, "view of %llu bytes is too large",
                     (unsigned long long) size);
  char *base = malloc ((size_t) size); /* aligned for any type */
  if (base == NULL)
    return osp_errf (err, errlen, "out of memory for a view of %llu bytes",
                     (unsigned long long) size);
  struct osp_vemit e;
  osp_vemit_begin (&e, base, size, (uint32_t) nsec, time_ns, seq);
  for (int i = 0; i < nsec; i++)
    {
      void *at = osp_vemit_section (&e, sec[i].kind, sec[i].elem,
                                    sec[i].count);
      if (sec[i].count)
        memcpy (at, sec[i].data, (size_t) (sec[i].count * sec[i].elem));
      osp_vemit_end (&e);
    }
  *out = base;
  *len = (size_t) size;
  return 0;
}

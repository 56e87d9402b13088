/* SPDX-License-Identifier: MIT */
/* viewcache.c - the part of a view that the registered functions alone
 * make, built once and kept from one live view to the next.
 *
 * Why.  A live view (publish.c) is built a few times a second, and most
 * of its bytes do not change between two views: FUNCS, BLOCKS, EDGES,
 * FNSRC, COSTS, BLINES and LINES (include/osp/view.h), and in STRINGS the
 * functions' names, files and directories, are made of the registered
 * functions alone, which never change once registered (registry.c: a
 * copy owned by the runtime, never freed); only FUNCS' calls and BLOCKS'
 * counts of mode=blocks do.  Serialising and checksumming them every
 * time made a view's cost follow the program's size rather than what
 * changed.  A part (viewcache.h) is them made once: the sections laid
 * out as a view of their own (viewemit.h), each with its CRC-32, which
 * viewwrite.c copies into every view section by section (recomputing
 * the CRC of FUNCS and BLOCKS only in mode=blocks, after writing their
 * counts); the string table as it stands after RUN's strings and the
 * functions', with its CRC (viewwrite.c interns the statistics' strings
 * into a copy and continues the CRC over them); each function's first
 * BLOCKS index.  What stays dynamic: RUN, FNWORK, STATS, IDS and the
 * row sections, and the profile's take.
 *
 * The same bytes.  A view written with a kept part is byte for byte the
 * one written from scratch: viewwrite.c makes a part for every view it
 * writes without one, so both go through the same code, and a part is
 * used only for the views it was made for (osp_view_part_fits): the same
 * functions (pointers, in order) and the same RUN strings (interned
 * first, so their offsets are in the part).  A module that registers (a
 * dlopen) adds functions - the registry only appends - so the next view
 * makes a new part: the registry's function count is its generation.
 * Comparing the list costs a word per function, nothing next to
 * serialising its blocks.
 *
 * Memory.  A part holds about the bytes of its sections in a view, plus
 * the string table's hash.  A cache keeps one part, and only after a
 * view made with it fitted the view buffer (viewwrite.c), so it never
 * holds more than about a view; its memory is counted in the address
 * space budget (base.h osp_reserve), and a part the budget has no room
 * for is not kept (each view then makes its own, as without a cache).
 */
#define _GNU_SOURCE
#include "output/viewcache.h"

#include <stdlib.h>
#include <string.h>

#include "format/crc32.h"
#include "format/viewemit.h"

void
osp_view_run_strings (const struct osp_profile *p,
                      const struct osp_view_run *run,
                      const char *out[OSP_VIEW_RUN_STRINGS])
{
  out[0] = run->program;
  out[1] = run->args;
  out[2] = run->options;
  out[3] = osp_mode_name (p->mode);
  out[4] = p->paths.shown ? osp_path_policy_name (run->opts->paths) : NULL;
  out[5] = p->forest.shown ? osp_forest_policy_name (p->forest.policy)
                           : NULL;
}

/* RS's strings, each NUL-terminated, one after the other (NULL as "");
   its length in *LEN.  NULL out of memory. */
static char *
run_key (const char *const *rs, size_t *len)
{
  size_t n = 0;
  for (int i = 0; i < OSP_VIEW_RUN_STRINGS; i++)
    n += (rs[i] ? strlen (rs[i]) : 0) + 1;
  char *key = malloc (n), *at = key;
  if (key == NULL)
    return NULL;
  for (int i = 0; i < OSP_VIEW_RUN_STRINGS; i++)
    {
      size_t k = rs[i] ? strlen (rs[i]) : 0;
      if (k)
        memcpy (at, rs[i], k);
      at[k] = '\0';
      at += k + 1;
    }
  *len = n;
  return key;
}

void
osp_view_part_free (struct osp_view_part *part)
{
  if (part == NULL)
    return;
  free (part->fns);
  free (part->run);
  osp_strtab_free (&part->strings);
  free (part->block0);
  free (part->view);
  free (part);
}

int
osp_view_part_fits (const struct osp_view_part *part,
                    const struct osp_profile *p, const char *const *rs)
{
  if (part->nfns != p->nfns
      || (p->nfns && memcmp (part->fns, p->fns, p->nfns * sizeof *p->fns)))
    return 0;
  const char *key = part->run;
  for (int i = 0; i < OSP_VIEW_RUN_STRINGS; i++)
    {
      const char *s = rs[i] ? rs[i] : "";
      if (strcmp (key, s) != 0)
        return 0;
      key += strlen (key) + 1;
    }
  return 1;
}

/* The seven sections, counts left out (OSP_VIEW_NONE). */
static void
write_sections (struct osp_vemit *o, const struct osp_profile *p,
                const struct osp_view_part *part, const uint32_t *fname,
                const uint32_t *ffile, const uint32_t *fdir, uint64_t nedges,
                uint64_t nlines)
{
  struct osp_vfn *fv = (struct osp_vfn *) osp_vemit_section (
      o, OSP_VS_FUNCS, sizeof *fv, p->nfns);
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      const struct osp_fn *f = p->fns[i];
      struct osp_vfn v;
      memset (&v, 0, sizeof v);
      v.id = f->id;
      v.name = fname[i];
      v.file = ffile[i];
      v.first_line = f->first_line;
      v.block0 = part->block0[i];
      v.nblocks = f->nblocks;
      v.calls = OSP_VIEW_NONE;
      memcpy (&fv[i], &v, sizeof v);
    }
  osp_vemit_end (o);

  struct osp_vblock *bv = (struct osp_vblock *) osp_vemit_section (
      o, OSP_VS_BLOCKS, sizeof *bv, part->nblocks);
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
          v.count = OSP_VIEW_NONE;
          memcpy (&bv[part->block0[i] + b], &v, sizeof v);
        }
    }
  osp_vemit_end (o);

  struct osp_vedge *ev = (struct osp_vedge *) osp_vemit_section (
      o, OSP_VS_EDGES, sizeof *ev, nedges);
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
            v.from = part->block0[i] + b;
            v.to = e->dst < f->nblocks ? part->block0[i] + e->dst
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
      v.comp_dir = fdir[i];
      if (f->has_sha256)
        {
          v.flags = OSP_VSRC_DIGEST;
          v.size = f->file_size;
          memcpy (v.sha256, f->file_sha256, sizeof v.sha256);
        }
      memcpy (&sv[i], &v, sizeof v);
    }
  osp_vemit_end (o);

  uint32_t *cv = (uint32_t *) osp_vemit_section (o, OSP_VS_COSTS,
                                                 sizeof *cv, part->nblocks);
  for (uint32_t i = 0; i < p->nfns; i++)
    for (uint32_t b = 0; b < p->fns[i]->nblocks; b++)
      cv[part->block0[i] + b] = p->fns[i]->blocks[b].cost;
  osp_vemit_end (o);

  /* Statement lines: each block's run of the pool, the pool. */
  struct osp_vblines *lv = (struct osp_vblines *) osp_vemit_section (
      o, OSP_VS_BLINES, sizeof *lv, part->nblocks);
  uint32_t at = 0;
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      const struct osp_fn *f = p->fns[i];
      for (uint32_t b = 0; b < f->nblocks; b++)
        {
          struct osp_vblines v = { 0, f->blocks[b].nlines };
          if (v.n > 0)
            v.at = at + f->blocks[b].lines;
          memcpy (&lv[part->block0[i] + b], &v, sizeof v);
        }
      at += f->nlines;
    }
  osp_vemit_end (o);
  uint32_t *lp = (uint32_t *) osp_vemit_section (o, OSP_VS_LINES,
                                                 sizeof *lp, nlines);
  at = 0;
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      if (p->fns[i]->nlines)
        memcpy (lp + at, p->fns[i]->lines,
                p->fns[i]->nlines * sizeof *lp);
      at += p->fns[i]->nlines;
    }
  osp_vemit_end (o);
}

/* The strings, BLOCKS indices and sections of PART (its key set). */
static int
part_fill (struct osp_view_part *part, const struct osp_profile *p,
           const char *const *rs)
{
  size_t nf = p->nfns ? p->nfns : 1;
  uint32_t *fname = malloc (nf * sizeof *fname);
  uint32_t *ffile = malloc (nf * sizeof *ffile);
  uint32_t *fdir = malloc (nf * sizeof *fdir);
  part->block0 = malloc (nf * sizeof *part->block0);
  int rc = -1;
  if (!fname || !ffile || !fdir || !part->block0
      || osp_strtab_init (&part->strings) != 0)
    goto out;
  /* Offset 0 is the empty string; RUN's strings first. */
  for (int i = 0; i < OSP_VIEW_RUN_STRINGS; i++)
    part->run_str[i] = osp_strtab_intern (&part->strings, rs[i]);
  uint64_t nedges = 0, nlines = 0;
  part->gid_is_index = 1;
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      const struct osp_fn *f = p->fns[i];
      fname[i] = osp_strtab_intern (&part->strings, f->name);
      /* A unit's functions share their file's and directory's strings
         (registry.c): the previous function's offsets, without hashing. */
      const struct osp_fn *prev = i ? p->fns[i - 1] : NULL;
      ffile[i] = prev && prev->file == f->file
                     ? ffile[i - 1]
                     : osp_strtab_intern (&part->strings, f->file);
      fdir[i] = prev && prev->comp_dir == f->comp_dir
                    ? fdir[i - 1]
                    : osp_strtab_intern (&part->strings, f->comp_dir);
      part->block0[i] = (uint32_t) part->nblocks;
      if (f->block_base != part->block0[i])
        part->gid_is_index = 0;
      part->nblocks += f->nblocks;
      nlines += f->nlines;
      for (uint32_t b = 0; b < f->nblocks; b++)
        nedges += f->blocks[b].nsucc;
    }
  if (part->strings.oom || part->nblocks > UINT32_MAX || nlines > UINT32_MAX)
    goto out;
  part->strings_crc = osp_crc32 (0, part->strings.buf, part->strings.len);

  uint64_t head = osp_view_head_size (OSP_VIEW_PART_SECTIONS);
  part->body = (uint64_t) p->nfns * sizeof (struct osp_vfn)
               + part->nblocks * sizeof (struct osp_vblock)
               + nedges * sizeof (struct osp_vedge)
               + (uint64_t) p->nfns * sizeof (struct osp_vfnsrc)
               + osp_view_align8 (part->nblocks * sizeof (uint32_t))
               + part->nblocks * sizeof (struct osp_vblines)
               + osp_view_align8 (nlines * sizeof (uint32_t));
  if (head + part->body > SIZE_MAX
      || (part->view = malloc ((size_t) (head + part->body))) == NULL)
    goto out;
  struct osp_vemit o;
  osp_vemit_begin (&o, part->view, head + part->body, OSP_VIEW_PART_SECTIONS,
                   0, 0);
  write_sections (&o, p, part, fname, ffile, fdir, nedges, nlines);
  if (o.at != head + part->body)
    goto out;
  part->toc = o.toc;
  part->bytes = (size_t) (head + part->body) + part->strings.cap
                + part->strings.nslots * sizeof *part->strings.slots
                + nf * (sizeof *part->block0 + sizeof *part->fns)
                + part->run_len;
  rc = 0;
out:
  free (fname);
  free (ffile);
  free (fdir);
  return rc;
}

struct osp_view_part *
osp_view_part_make (const struct osp_profile *p, const char *const *rs)
{
  struct osp_view_part *part = calloc (1, sizeof *part);
  if (part == NULL)
    return NULL;
  part->nfns = p->nfns;
  part->fns = malloc ((p->nfns ? p->nfns : 1) * sizeof *part->fns);
  part->run = run_key (rs, &part->run_len);
  if (part->fns == NULL || part->run == NULL || part_fill (part, p, rs) != 0)
    {
      osp_view_part_free (part);
      return NULL;
    }
  if (p->nfns)
    memcpy (part->fns, p->fns, p->nfns * sizeof *p->fns);
  return part;
}

void
osp_view_cache_keep (struct osp_view_cache *cache, struct osp_view_part *part)
{
  osp_view_cache_clear (cache);
  if (osp_reserve (part->bytes) != 0)
    {
      osp_view_part_free (part); /* ulimit -v: no room to keep it */
      return;
    }
  cache->part = part;
}

void
osp_view_cache_clear (struct osp_view_cache *cache)
{
  if (cache->part == NULL)
    return;
  osp_unreserve (cache->part->bytes);
  osp_view_part_free (cache->part);
  cache->part = NULL;
}

/* SPDX-License-Identifier: MIT */
/* viewbuild.h - building a profile view (include/osp/view.h) from parts.
 *
 * The runtime writes views from its own profile (libosprt/output/viewwrite.c,
 * through the emitter of viewemit.h, which the builder shares); the
 * viewer makes new ones out of old ones (ospview --merge, and whatever
 * else wants to write a snapshot that is not a copy).  The builder is in
 * libospformat-read.la with the reader, which ospview and the tests link
 * and the runtime does not (libosprt/format/local.mk).  A builder collects
 * the elements section by section, in any order, with the caller's
 * indices (a function's index is the order it was added, a block's
 * likewise, IDS runs are returned by vb_ids), then vb_finish lays them
 * out as one malloc'ed, 8-aligned view: header, a table of all eleven
 * sections, each section 8-aligned with its CRC-32, the strings interned
 * once each with offset 0 the empty string.
 *
 * The builder checks what is cheap to get wrong in the layout (32-bit
 * indices, string offsets), not the meaning: the caller must add a view
 * that view_parse would accept (blocks grouped by function, edges by
 * source block, ranks ascending, the forest in preorder).  Out of memory
 * is sticky: every call after it does nothing and vb_finish fails.
 */
#ifndef VIEWBUILD_H
#define VIEWBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "osp/view.h"
#include "strtab.h"
#include "viewemit.h"

/* A growable array of fixed-size elements (private to viewbuild.c). */
struct vb_array
{
  void *p;
  size_t n, cap;
};

struct vbuild
{
  struct osp_strtab strings; /* STRINGS (strtab.c) */
  struct osp_vrun run;
  struct vb_array fns, blocks, edges, ids, subpaths, paths, forest, stats;
  struct vb_array fnsrc; /* FNSRC, as far as set (the rest: no digest) */
  /* COSTS and FNWORK, as far as set; written only when something was set
     (the rest: cost 1, no work), else the view has neither section */
  struct vb_array costs, fnwork;
  /* BLINES and LINES: written when a block's lines were set (the rest:
     every line of their range) */
  struct vb_array blines, lines;
  int oom;
};

void vb_init (struct vbuild *b);
void vb_free (struct vbuild *b);

/* The STRINGS offset of S, added if new; 0 for NULL and "" (and out of
   memory). */
uint32_t vb_str (struct vbuild *b, const char *s);

/* RUN (its string fields already vb_str offsets); zeroed until set. */
void vb_run (struct vbuild *b, const struct osp_vrun *r);

/* Append one element; the return value is its index in the section
   (UINT32_MAX / UINT64_MAX when out of memory). */
uint32_t vb_fn (struct vbuild *b, const struct osp_vfn *f);
/* Function FN's source digest and directory (its comp_dir a vb_str
   offset); a function never given one has none (no text is shown). */
void vb_fnsrc (struct vbuild *b, uint32_t fn, const struct osp_vfnsrc *s);
uint32_t vb_block (struct vbuild *b, const struct osp_vblock *bl);
/* Block BLOCK's estimated cost (COSTS), function FN's self figures
   (FNWORK); a view given neither has neither section (view layout 1.2's
   meaning: every block weighs 1, no per-function work). */
void vb_cost (struct vbuild *b, uint32_t block, uint32_t cost);
void vb_fnwork (struct vbuild *b, uint32_t fn, const struct osp_vfnwork *w);
/* Block BLOCK's N statement lines (ascending, from its first line to its
   last; view_block_lines); N 0 or never set: every line of its range. */
void vb_lines (struct vbuild *b, uint32_t block, const uint32_t *lines,
               uint32_t n);
void vb_edge (struct vbuild *b, const struct osp_vedge *e);
/* The LEN block indices at IDS as a new run: the index of its first
   element in IDS (for the rows' `ids' field). */
uint64_t vb_ids (struct vbuild *b, const uint32_t *ids, uint32_t len);
void vb_subpath (struct vbuild *b, const struct osp_vsubpath *s);
void vb_path (struct vbuild *b, const struct osp_vpath *p);
uint32_t vb_forest (struct vbuild *b, const struct osp_vforest *n);
void vb_stat_u64 (struct vbuild *b, const char *name, uint64_t value);
void vb_stat_f64 (struct vbuild *b, const char *name, double value);
void vb_stat_str (struct vbuild *b, const char *name, const char *value);

/* Elements added so far. */
size_t vb_count_subpaths (const struct vbuild *b);
size_t vb_count_paths (const struct vbuild *b);
size_t vb_count_forest (const struct vbuild *b);

/* Lay the view out into *OUT (malloc'ed, 8-aligned; free it) of *LEN
   bytes, with header time TIME_NS and sequence number SEQ.  0, or -1 with
   a one-line ERR (out of memory, more than 32-bit indices can name).  The
   builder stays valid (and must still be freed). */
int vb_finish (struct vbuild *b, uint64_t time_ns, uint64_t seq,
               void **out, size_t *len, char *err, size_t errlen);

#endif

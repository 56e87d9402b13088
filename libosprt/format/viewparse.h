/* SPDX-License-Identifier: MIT */
/* viewparse.h - a profile view (include/osp/view.h) validated and given a
 * C shape (viewparse.c): the one validation every reader of a view uses
 * (ospview's screens, --merge, --diff and exports, the fuzz target, the
 * runtime's unit tests); and the check of a snapshot file's header
 * (include/osp/snapshot.h) before its view is parsed.  The reader of the
 * view format library (libosprt/format/, libospformat-read.la), which
 * ospview and the tests link and the runtime does not.
 */
#ifndef OSP_VIEWPARSE_H
#define OSP_VIEWPARSE_H

#include <stddef.h>
#include <stdint.h>

#include "osp/snapshot.h"
#include "osp/view.h"

/* A validated view: pointers into the caller's copy of the bytes. */
struct view
{
  const struct osp_view_header *hdr;
  const char *strings;
  uint64_t nstrings; /* bytes */
  struct osp_vrun run; /* zeroed when absent */
  const struct osp_vfn *fns;
  uint64_t nfns;
  const struct osp_vblock *blocks;
  uint64_t nblocks;
  const uint32_t *ids;
  uint64_t nids;
  const struct osp_vsubpath *subpaths;
  uint64_t nsubpaths;
  const struct osp_vpath *paths;
  uint64_t npaths;
  const struct osp_vforest *forest;
  uint64_t nforest;
  const struct osp_vstat *stats;
  uint64_t nstats;
  const struct osp_vedge *edges; /* grouped by source block */
  uint64_t nedges;
  const struct osp_vfnsrc *fnsrc; /* NULL, or one per function */
  uint64_t nfnsrc;
  const uint32_t *costs; /* NULL (minor < 3), or one per block */
  uint64_t ncosts;
  const struct osp_vfnwork *fnwork; /* NULL (minor < 3), or one per function */
  uint64_t nfnwork;
  const struct osp_vblines *blines; /* NULL (minor < 4), or one per block */
  uint64_t nblines;
  const uint32_t *lines; /* their statement lines (NULL with blines) */
  uint64_t nlines;
  /* element strides as written (>= the sizes above) */
  uint32_t fn_size, block_size, subpath_size, path_size, forest_size,
      stat_size, edge_size, fnsrc_size, fnwork_size, blines_size;
};

/* Validate the LEN bytes at BUF (8-byte aligned) as a view and fill V.
   0, or -1 with a one-line ERR naming the problem.  Nothing of BUF is
   trusted before this returns 0. */
int view_parse (struct view *v, const void *buf, size_t len, char *err,
                size_t errlen);
/* Element I of a section, striding by its element size. */
const struct osp_vfn *view_fn (const struct view *v, uint64_t i);
/* Function I's source digest, NULL when the view has none. */
const struct osp_vfnsrc *view_fnsrc (const struct view *v, uint64_t i);
const struct osp_vblock *view_block (const struct view *v, uint64_t i);
const struct osp_vsubpath *view_subpath (const struct view *v, uint64_t i);
const struct osp_vpath *view_path (const struct view *v, uint64_t i);
const struct osp_vforest *view_forest (const struct view *v, uint64_t i);
const struct osp_vstat *view_stat (const struct view *v, uint64_t i);
const struct osp_vedge *view_edge (const struct view *v, uint64_t i);
/* The one rule of "too few samples to rank" (libosprt/collect/shares.c,
   osp_subpath_few): the 95% interval wider than the estimate, so that it
   reaches below zero.  For rows whose view does not say (subpaths of views
   before minor 4, paths and forest nodes before minor 5, merged rows). */
static inline int
view_too_few (double estimate, double err95)
{
  return err95 > estimate;
}
/* Whether subpath I is ranked: the runtime's flag (minor 4), else
   !view_too_few. */
int view_subpath_ranked (const struct view *v, uint64_t i);
/* Whether path I and forest node I are ranked: the runtime's flag (minor
   5), else the rule ospview applied before: !view_too_few, and every row
   of paths=timer ranked. */
int view_path_ranked (const struct view *v, uint64_t i);
int view_forest_ranked (const struct view *v, uint64_t i);
/* What subpath I's estimate rests on (osp/view.h, minor 4): 1 and *OUT
   filled, or 0 (an older view, or an estimator not known: *OUT zeroed). */
struct view_evidence
{
  uint64_t count;       /* c */
  double threshold;     /* tau */
  double scale;         /* 1 / (q P(L)) */
  uint64_t error;       /* Space-Saving's inherited over-count */
  uint32_t estimator;   /* enum osp_vsub_estimator */
};
int view_subpath_evidence (const struct view *v, uint64_t i,
                           struct view_evidence *out);
/* Function I's self executions and work, NULL when the view has none. */
const struct osp_vfnwork *view_fnwork (const struct view *v, uint64_t i);
/* Block BLOCK's statement lines: *N of them, ascending, at the pointer
   returned; NULL (*N 0) when they are every line of its range
   first_line .. last_line (a view without BLINES: minor < 4). */
const uint32_t *view_block_lines (const struct view *v, uint64_t block,
                                  uint32_t *n);
/* Block BLOCK's estimated cost (1 in a view without COSTS), and the sum
   over the id run [IDS, IDS + LEN): one execution's work of a row. */
uint32_t view_cost (const struct view *v, uint64_t block);
double view_run_cost (const struct view *v, uint64_t ids, uint32_t len);
/* String at OFF (validated by view_parse). */
const char *view_str (const struct view *v, uint32_t off);
/* The STATS row NAME as a number (U64 or F64) or a string: 1 and *OUT if
   present with a fitting kind, else 0 (NULL for the string). */
/* The first STATS row named NAME, or NULL. */
const struct osp_vstat *view_stat_named (const struct view *v,
                                         const char *name);
int view_stat_u64 (const struct view *v, const char *name, uint64_t *out);
int view_stat_f64 (const struct view *v, const char *name, double *out);
const char *view_stat_str (const struct view *v, const char *name);

/* Check the header of the snapshot file of LEN bytes at BYTES and its
   view's checksum; *H its copy (the writer's name NUL-terminated).  0, or
   -1 with a one-line ERR naming the problem (not a snapshot, another
   version, truncated, a checksum mismatch, ...).  The view itself is
   view_parse's. */
int osp_snap_check (const void *bytes, uint64_t len,
                    struct osp_snap_header *h, char *err, size_t errlen);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* export.h - the contract between the files of ospview's exports.
 *
 *   export.c           export_main (ospview.h): reads the view, picks the
 *                      export; the helpers below
 *   export-json.c      --json
 *   export-dot.c       --dot=FUNCTION
 *   export-annotate.c  --annotate[=FILE]
 *   export-pprof.c     --pprof=FILE (with pbwrite.c, the protobuf and gzip
 *                      bytes)
 *   export-folded.c    --folded[=work]
 *
 * Internal to those four files; the rest of the viewer knows only
 * export_main.  Each export gets a view that view_parse accepted (every
 * reference in it checked) and writes to stdout; what it cannot do (an
 * unknown name, out of memory) is one stderr line "ospview: ..." and exit
 * status 1.  The helpers here are the ones at least
 * two exports need, so that the three agree on what a name looks like
 * when printed, which file a FILE argument means and how the hot rows'
 * shares are summed.  Everything else stays static in its file.
 */
#ifndef EXPORT_H
#define EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ospview.h"

/* ---- the exports (export_main calls one) ------------------------------ */

/* The whole view as one JSON document.  S for the "source" object (a
   snapshot's header, or a live process's state).  Exit status. */
int export_json (const struct source *s, const struct view *v);
/* ARG (NAME or NAME@FILE)'s control-flow graph in DOT.  Exit status. */
int export_dot (const struct view *v, const char *arg);
/* The source files with their lines' shares; WANT: one file, or NULL for
   every file with a covered line.  Exit status. */
int export_annotate (const struct view *v, const char *want);

/* The rows of SCREENS (a bit per enum scr_screen: subpaths, paths,
   forest) as pprof samples into the file PATH ("-": stdout).  S for the
   program, pid and times.  Exit status. */
int export_pprof (const struct source *s, const struct view *v,
                  const char *path, unsigned screens);
/* The same rows as folded stacks on stdout, one line each, the count
   their executions or, ARG "work", their work.  Exit status. */
int export_folded (const struct view *v, const char *arg, unsigned screens);

/* ---- strings: valid UTF-8 out, whatever came in ------------------------ */

/* Names, file names and arguments come from the profiled program and may
   hold any bytes; each output format has its own escaping but all must
   stay valid UTF-8, so one walker does all three (bad bytes become
   U+FFFD). */
enum ex_esc
{
  EX_PLAIN,  /* messages, headers: control characters as '?' */
  EX_DOT,    /* inside a DOT "string": also '"' and '\' escaped */
  EX_JSON    /* inside a JSON string (no quotes around): \n, \t, \uXXXX */
};
void ex_put (FILE *f, const char *s, enum ex_esc esc);

/* The part of PATH after its last '/' (PATH when it ends with one). */
const char *ex_base_name (const char *path);

/* Whether the view's file PATH is the one the user named as WANT:
   exactly (MODE 0), by a suffix at a '/' (1), by the base name (2).
   --dot=NAME@FILE and --annotate=FILE take the same file names this way. */
int ex_file_match (const char *path, const char *want, int mode);

/* ---- the view --------------------------------------------------------- */

/* A count is "not known" when it is OSP_VIEW_NONE (null in JSON, left out
   of the DOT labels). */
static inline int
ex_known (uint64_t x)
{
  return x != OSP_VIEW_NONE;
}

/* Block B's last line: its first when the view's is before it.  A block's
   lines are [first_line, ex_last_line] when first_line is not 0 (JSON's
   "lines", annotate's ranges). */
static inline uint32_t
ex_last_line (const struct osp_vblock *b)
{
  return b->last_line > b->first_line ? b->last_line : b->first_line;
}

/* Function FI's name. */
const char *ex_fn_name (const struct view *v, uint32_t fi);

/* The first edge out of block index B or later (EDGES are grouped by
   source block, in BLOCKS order): JSON lists a function's edges, DOT
   draws them. */
uint64_t ex_edge_first (const struct view *v, uint32_t b);

/* *P (*CAP elements of SIZE bytes) grown to at least NEED elements,
   doubling.  0, or -1 out of memory (*P unchanged). */
int ex_grow (void **p, size_t *cap, size_t need, size_t size);

/* ---- share sums --------------------------------------------------------- */

/* A hot row whose share DOT sums per edge and block and annotate per
   line.  The sums count a row once per edge, block or line it passes, so
   the callers merge a row's repeats themselves (a loop's subpath passes a
   block twice). */
struct ex_row
{
  uint64_t ids;      /* its blocks: v->ids[ids], ... v->ids[ids + len - 1] */
  uint32_t len;
  double share;      /* of the blocks seen (subpath), of the path ends */
  double estimate;   /* its estimated executions */
  int is_path;       /* a Ball-Larus path, else a hot subpath */
  uint32_t fn;       /* a path's function; UINT32_MAX for a subpath */
};

/* FN (CTX, row) for every hot subpath, then every Ball-Larus path, in the
   view's order.  Stops at the first nonzero return and returns it; 0. */
int ex_rows (const struct view *v, int (*fn) (void *, const struct ex_row *),
             void *ctx);

/* ---- rows as stacks (--pprof, --folded) ------------------------------ */

/* The most frames a stack holds: a forest node's stack is its ancestors'
   blocks and its own, which a hostile view can make as deep as its whole
   forest; past this the root end is left out (ex_sample.truncated). */
#define EX_STACK_MAX 4096

/* A hot subpath, Ball-Larus path or forest node as a stack of blocks. */
struct ex_sample
{
  enum scr_screen profile; /* SCR_SUBPATHS, SCR_PATHS or SCR_FOREST */
  uint64_t index;          /* its element in the view's section */
  const uint32_t *stack;   /* block indices (into BLOCKS), root first: a
                              forest node's ancestors' blocks, then its
                              own */
  uint32_t n;              /* frames in STACK */
  int truncated;           /* frames left out at the root (EX_STACK_MAX) */
  uint32_t len;            /* the row's own blocks */
  uint32_t depth;          /* a forest node's depth; else 0 */
  double execs;            /* its executions (paths=timer: samples) */
  double err95;            /* their 95% half-width (0 when exact) */
  double cost;             /* one execution's work: its own blocks' costs
                              summed (view_run_cost), as --json's work */
  const char *value;       /* what EXECS is: "exact", "estimate" or
                              "samples" (paths=timer: relative only) */
};

/* X rounded to the nearest integer for the formats that take integers
   (pprof's int64 values, folded counts); NaN and negatives are 0. */
static inline int64_t
ex_int (double x)
{
  if (!(x > 0))
    return 0;
  if (x >= 9.2e18)
    return INT64_MAX;
  return (int64_t) (x + 0.5);
}

/* FN (CTX, sample) for every row of SCREENS, subpaths, then paths, then
   the forest in preorder.  Stops at the first nonzero return and returns
   it; -1 out of memory; 0. */
int ex_samples (const struct view *v, unsigned screens,
                int (*fn) (void *, const struct ex_sample *), void *ctx);

#endif

/* SPDX-License-Identifier: MIT */
/* viewcache.h - the part of a view that the registered functions alone
 * make (viewcache.c), which the view writer (viewwrite.c) makes once and
 * the publisher keeps from one view to the next (struct osp_view_cache,
 * output.h).
 */
#ifndef OSP_VIEWCACHE_H
#define OSP_VIEWCACHE_H

#include "output/output.h"

#include "format/strtab.h"
#include "osp/view.h"

/* RUN's strings, the first a view interns: program, args, options, mode,
   paths policy, forest policy ("" or NULL when not shown). */
#define OSP_VIEW_RUN_STRINGS 6

/* The sections of a part, in view order. */
#define OSP_VIEW_PART_SECTIONS 7

struct osp_view_part
{
  /* What it was made of (osp_view_part_fits). */
  struct osp_fn **fns; /* a copy of the profile's list */
  uint32_t nfns;
  char *run;           /* RUN's strings, each NUL-terminated */
  size_t run_len;
  /* STRINGS as far as the part goes: "", RUN's strings, every function's
     name, file and directory; and its CRC-32.  A view interns the rest
     (its statistics) into a copy. */
  struct osp_strtab strings;
  uint32_t strings_crc;
  uint32_t run_str[OSP_VIEW_RUN_STRINGS]; /* their offsets */
  uint32_t *block0;    /* per function: its first block in BLOCKS */
  uint64_t nblocks;
  /* Every function's block_base is its block0: a global block id (a
     subpath's) is its BLOCKS index, no search needed. */
  int gid_is_index;
  /* FUNCS, BLOCKS, EDGES, FNSRC, COSTS, BLINES and LINES laid out as a
     view of their own (viewemit.h), without counts (FUNCS' calls and
     BLOCKS' count OSP_VIEW_NONE): TOC gives each one's place, size and
     CRC; BODY is their bytes with padding, what they take in a view. */
  char *view;
  const struct osp_view_section *toc;
  uint64_t body;
  size_t bytes;        /* the memory it holds, for the budget */
};

/* RUN's strings of a view of P with RUN, into OUT. */
void osp_view_run_strings (const struct osp_profile *p,
                           const struct osp_view_run *run,
                           const char *out[OSP_VIEW_RUN_STRINGS]);
/* The part of the views of P whose RUN strings are RS, or NULL (out of
   memory, or more than 2^32 - 1 blocks or lines). */
struct osp_view_part *osp_view_part_make (const struct osp_profile *p,
                                          const char *const *rs);
/* Whether PART is the part of the views of P with RUN strings RS: made of
   the same functions (pointers, in order: a registered function never
   changes) and the same strings. */
int osp_view_part_fits (const struct osp_view_part *part,
                        const struct osp_profile *p, const char *const *rs);
void osp_view_part_free (struct osp_view_part *part);

/* CACHE keeps PART (which it then owns), in place of what it kept; or
   frees PART when the address space budget has no room for it. */
void osp_view_cache_keep (struct osp_view_cache *cache,
                          struct osp_view_part *part);

#endif

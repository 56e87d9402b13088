/* SPDX-License-Identifier: MIT */
/* viewemit.h - the layout every writer of a profile view
 * (include/osp/view.h) shares (viewemit.c): the runtime's viewwrite.c,
 * which sizes its view first and writes it into the publisher's buffer,
 * and the builder's vb_finish (viewbuild.c) lay a view out through these:
 * the header, the table of sections, each section 8-aligned with its
 * CRC-32 over count x elem_size bytes and zeroed padding after it.  In
 * libospformat.la, which the runtime links.
 */
#ifndef OSP_VIEWEMIT_H
#define OSP_VIEWEMIT_H

#include <stdint.h>

#include "osp/view.h"

static inline uint64_t
osp_view_align8 (uint64_t x)
{
  return (x + 7) & ~(uint64_t) 7;
}

/* The bytes before the first section: header and a table of N sections. */
static inline uint64_t
osp_view_head_size (uint32_t nsections)
{
  return osp_view_align8 (sizeof (struct osp_view_header))
         + (uint64_t) nsections * sizeof (struct osp_view_section);
}

struct osp_vemit
{
  char *base;
  uint64_t at; /* next free byte, 8-aligned */
  struct osp_view_section *toc;
  uint32_t nsections;
};

/* Start the view of SIZE bytes at BUF (8-aligned, room for SIZE): its
   header (NSECTIONS, TIME_NS, SEQ) and the room of its section table. */
void osp_vemit_begin (struct osp_vemit *e, void *buf, uint64_t size,
                      uint32_t nsections, uint64_t time_ns, uint64_t seq);
/* Start the next section, KIND of COUNT elements of ELEM bytes: where to
   write them. */
void *osp_vemit_section (struct osp_vemit *e, uint32_t kind, uint32_t elem,
                         uint64_t count);
/* The section just written: its CRC, its padding zeroed, the next offset
   (E->at, the view's size after the last). */
void osp_vemit_end (struct osp_vemit *e);
/* The same when the section's CRC is known: its bytes are a copy of a
   section checksummed before (the publisher's cache, viewcache.c). */
void osp_vemit_end_crc (struct osp_vemit *e, uint32_t crc);

#endif

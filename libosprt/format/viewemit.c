/* SPDX-License-Identifier: MIT */
/* viewemit.c - the layout every writer of a view shares (viewemit.h). */
#include "viewemit.h"

#include <string.h>

#include "crc32.h"

void
osp_vemit_begin (struct osp_vemit *e, void *buf, uint64_t size,
                 uint32_t nsections, uint64_t time_ns, uint64_t seq)
{
  struct osp_view_header h;
  memset (&h, 0, sizeof h);
  memcpy (h.magic, OSP_VIEW_MAGIC, sizeof h.magic);
  h.byte_order = OSP_VIEW_BYTE_ORDER;
  h.major = OSP_VIEW_MAJOR;
  h.minor = OSP_VIEW_MINOR;
  h.header_size = sizeof h;
  h.nsections = nsections;
  h.size = size;
  h.time_ns = time_ns;
  h.seq = seq;
  e->base = buf;
  memcpy (e->base, &h, sizeof h);
  e->at = osp_view_align8 (sizeof h);
  memset (e->base + sizeof h, 0, e->at - sizeof h);
  e->toc = (struct osp_view_section *) (e->base + e->at);
  e->nsections = 0;
  e->at = osp_view_head_size (nsections);
}

void *
osp_vemit_section (struct osp_vemit *e, uint32_t kind, uint32_t elem,
                   uint64_t count)
{
  struct osp_view_section *s = &e->toc[e->nsections++];
  memset (s, 0, sizeof *s);
  s->kind = kind;
  s->elem_size = elem;
  s->offset = e->at;
  s->count = count;
  return e->base + e->at;
}

void
osp_vemit_end (struct osp_vemit *e)
{
  const struct osp_view_section *s = &e->toc[e->nsections - 1];
  osp_vemit_end_crc (e, osp_crc32 (0, e->base + s->offset,
                                   (size_t) (s->count * s->elem_size)));
}

void
osp_vemit_end_crc (struct osp_vemit *e, uint32_t crc)
{
  struct osp_view_section *s = &e->toc[e->nsections - 1];
  uint64_t n = s->count * s->elem_size;
  s->crc32 = crc;
  uint64_t end = s->offset + n;
  memset (e->base + end, 0, osp_view_align8 (end) - end);
  e->at = osp_view_align8 (end);
}

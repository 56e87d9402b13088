/* SPDX-License-Identifier: MIT */
/* strtab.h - the STRINGS section of a view (include/osp/view.h) being
 * built: each string stored once, found again by a small open-addressing
 * hash.  strtab.c is shared by the runtime's view writer (viewwrite.c) and
 * the view builder (viewbuild.c: ospview --merge, the tests). */
#ifndef OSP_STRTAB_H
#define OSP_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct osp_strtab
{
  char *buf;       /* the section's bytes: buf[0] is the empty string */
  size_t len, cap;
  uint32_t *slots; /* offset + 1 of a string, 0 = free */
  size_t nslots, used;
  int oom;         /* sticky: an allocation failed */
};

/* An empty table holding only "" at offset 0.  0, or -1 out of memory. */
int osp_strtab_init (struct osp_strtab *t);
void osp_strtab_free (struct osp_strtab *t);
/* DST becomes a copy of SRC (not out of memory), in the very state SRC is
   in: interning into the copy gives the offsets and bytes interning into
   SRC would.  0, or -1 out of memory (DST then empty). */
int osp_strtab_copy (struct osp_strtab *dst, const struct osp_strtab *src);
/* The offset of S in T (added if new); 0 for NULL, "" or out of memory
   (T->oom then says so). */
uint32_t osp_strtab_intern (struct osp_strtab *t, const char *s);

/* FNV-1a over the bytes of S, continuing from H (a fresh hash: H =
   OSP_FNV_BASIS).  The one string hash of the view format's readers and
   writers; callers that need it spread over a table finish it their own
   way (ospview_hash_mix). */
#define OSP_FNV_BASIS 0xcbf29ce484222325u
#define OSP_FNV_PRIME 0x100000001b3u
static inline uint64_t
osp_fnv1a (uint64_t h, const char *s)
{
  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * OSP_FNV_PRIME;
  return h;
}

#endif

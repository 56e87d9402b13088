/* SPDX-License-Identifier: MIT */
/* strtab.c - the STRINGS section of a view being built (strtab.h).
 *
 * Why a hash: a view names every function and file, and the statistics,
 * and the same file appears once per function; storing each string once
 * keeps views small, and the lookup must stay cheap for programs with tens
 * of thousands of functions (the publisher builds a view a few times a
 * second).  Linear probing over a power-of-two table kept at most half
 * full; FNV-1a as the hash.
 */
#include "strtab.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

static uint64_t
str_hash (const char *s)
{
  return osp_fnv1a (OSP_FNV_BASIS, s);
}

static int
grow_slots (struct osp_strtab *t)
{
  size_t n = t->nslots ? 2 * t->nslots : 256;
  uint32_t *slots = calloc (n, sizeof *slots);
  if (slots == NULL)
    return -1;
  for (size_t i = 0; i < t->nslots; i++)
    if (t->slots[i])
      {
        size_t j = str_hash (t->buf + t->slots[i] - 1) & (n - 1);
        while (slots[j])
          j = (j + 1) & (n - 1);
        slots[j] = t->slots[i];
      }
  free (t->slots);
  t->slots = slots;
  t->nslots = n;
  return 0;
}

int
osp_strtab_init (struct osp_strtab *t)
{
  memset (t, 0, sizeof *t);
  t->buf = calloc (1, 4096);
  if (t->buf == NULL)
    {
      t->oom = 1;
      return -1;
    }
  t->len = 1;
  t->cap = 4096;
  return 0;
}

void
osp_strtab_free (struct osp_strtab *t)
{
  free (t->buf);
  free (t->slots);
  memset (t, 0, sizeof *t);
}

int
osp_strtab_copy (struct osp_strtab *dst, const struct osp_strtab *src)
{
  memset (dst, 0, sizeof *dst);
  if (src->oom || src->buf == NULL)
    return -1;
  dst->buf = malloc (src->cap);
  dst->slots = malloc ((src->nslots ? src->nslots : 1) * sizeof *dst->slots);
  if (dst->buf == NULL || dst->slots == NULL)
    {
      osp_strtab_free (dst);
      dst->oom = 1;
      return -1;
    }
  memcpy (dst->buf, src->buf, src->len);
  if (src->nslots)
    memcpy (dst->slots, src->slots, src->nslots * sizeof *dst->slots);
  dst->len = src->len;
  dst->cap = src->cap;
  dst->nslots = src->nslots;
  dst->used = src->used;
  return 0;
}

uint32_t
osp_strtab_intern (struct osp_strtab *t, const char *s)
{
  if (s == NULL || *s == '\0' || t->oom || t->buf == NULL)
    return 0;
  if (2 * (t->used + 1) > t->nslots && grow_slots (t) != 0)
    {
      t->oom = 1;
      return 0;
    }
  size_t j = str_hash (s) & (t->nslots - 1);
  while (t->slots[j])
    {
      if (strcmp (t->buf + t->slots[j] - 1, s) == 0)
        return t->slots[j] - 1;
      j = (j + 1) & (t->nslots - 1);
    }
  size_t n = strlen (s) + 1;
  if (t->len + n > UINT32_MAX - 1)
    {
      t->oom = 1;
      return 0;
    }
  if (osp_grow (&t->buf, &t->cap, t->len + n, 1, 4096) != 0)
    {
      t->oom = 1;
      return 0;
    }
  uint32_t off = (uint32_t) t->len;
  memcpy (t->buf + off, s, n);
  t->len += n;
  t->slots[j] = off + 1;
  t->used++;
  return off;
}

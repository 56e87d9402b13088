/* tests/progs/merge-dump.c - print the rows of a snapshot file by content, for
   tests/viewer-merge.sh: a reader of osp/snapshot.h and osp/view.h of its own (it shares no
   code with ospview, so the test does not check the merge with the merge's own reading).
   It trusts the file (the test gives it files ospview or the runtime wrote; no checks).

   Usage: merge-dump FILE.  One tab-separated line per row:
     sub    KEY  count  estimate  err95  share  rank   KEY: name@file#block,... per block
     path   KEY  samples estimate err95  share  rank   KEY: name@file:pathid
     forest KEY  count  estimate  err95  share  depth  KEY: the chain "root > ... > node" of
                                                       path keys
     run    blocks_seen  path_ends  exited  nfunctions
     stat   NAME  VALUE                                  (u64, %.17g, or the string)
   Numbers: integers, doubles as %.17g (exact). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osp/snapshot.h"
#include "osp/view.h"

static const char *base;       /* the view */
static const char *strs;
static const struct osp_view_section *sec[16];

static const void *elem (int kind, uint64_t i)
{
  return base + sec[kind]->offset + i * sec[kind]->elem_size;
}

static uint64_t count (int kind)
{
  return sec[kind] ? sec[kind]->count : 0;
}

static const uint32_t *ids (void)
{
  return (const uint32_t *) (base + sec[OSP_VS_IDS]->offset);
}

static void fn_name (uint32_t fn)
{
  const struct osp_vfn *f = elem (OSP_VS_FUNCS, fn);
  printf ("%s@%s", strs + f->name, strs + f->file);
}

static void path_key (uint32_t fn, uint64_t id)
{
  fn_name (fn);
  printf (":%llu", (unsigned long long) id);
}

static void forest_key (uint32_t n)
{
  const struct osp_vforest *f = elem (OSP_VS_FOREST, n);
  if (f->parent != OSP_VIEW_NO_PARENT)
    {
      forest_key (f->parent);
      fputs (" > ", stdout);
    }
  path_key (f->fn, f->id);
}

int main (int argc, char **argv)
{
  if (argc != 2)
    return 2;
  FILE *fp = fopen (argv[1], "rb");
  if (fp == NULL)
    return 1;
  static char buf[64 << 20] __attribute__ ((aligned (16)));
  size_t len = fread (buf, 1, sizeof buf, fp);
  fclose (fp);
  const struct osp_snap_header *sh = (const void *) buf;
  if (len < sizeof *sh || memcmp (sh->magic, OSP_SNAP_MAGIC, 8) != 0)
    return 1;
  base = buf + sh->view_offset;
  const struct osp_view_header *h = (const void *) base;
  const struct osp_view_section *t = (const void *) (base + h->header_size);
  for (uint32_t i = 0; i < h->nsections; i++)
    if (t[i].kind < 16)
      sec[t[i].kind] = &t[i];
  strs = base + sec[OSP_VS_STRINGS]->offset;
  const struct osp_vrun *r = elem (OSP_VS_RUN, 0);
  printf ("run\t%llu\t%llu\t%u\t%llu\n", (unsigned long long) r->blocks_seen,
          (unsigned long long) r->path_ends, r->exited,
          (unsigned long long) count (OSP_VS_FUNCS));
  for (uint64_t i = 0; i < count (OSP_VS_SUBPATHS); i++)
    {
      const struct osp_vsubpath *s = elem (OSP_VS_SUBPATHS, i);
      printf ("sub\t");
      for (uint32_t k = 0; k < s->len; k++)
        {
          const struct osp_vblock *b = elem (OSP_VS_BLOCKS, ids ()[s->ids + k]);
          if (k)
            putchar (',');
          fn_name (b->fn);
          printf ("#%u", b->block);
        }
      printf ("\t%llu\t%.17g\t%.17g\t%.17g\t%u\n", (unsigned long long) s->count,
              s->estimate, s->err95, s->share, s->rank);
    }
  for (uint64_t i = 0; i < count (OSP_VS_PATHS); i++)
    {
      const struct osp_vpath *p = elem (OSP_VS_PATHS, i);
      printf ("path\t");
      path_key (p->fn, p->id);
      printf ("\t%llu\t%.17g\t%.17g\t%.17g\t%u\n", (unsigned long long) p->samples,
              p->estimate, p->err95, p->share, p->rank);
    }
  for (uint64_t i = 0; i < count (OSP_VS_FOREST); i++)
    {
      const struct osp_vforest *f = elem (OSP_VS_FOREST, i);
      printf ("forest\t");
      forest_key ((uint32_t) i);
      printf ("\t%llu\t%.17g\t%.17g\t%.17g\t%u\n", (unsigned long long) f->count,
              f->estimate, f->err95, f->share, f->depth);
    }
  for (uint64_t i = 0; i < count (OSP_VS_STATS); i++)
    {
      const struct osp_vstat *st = elem (OSP_VS_STATS, i);
      double d;
      memcpy (&d, &st->value, sizeof d);
      if (st->kind == OSP_VSTAT_U64)
        printf ("stat\t%s\t%llu\n", strs + st->name, (unsigned long long) st->value);
      else if (st->kind == OSP_VSTAT_F64)
        printf ("stat\t%s\t%.17g\n", strs + st->name, d);
      else
        printf ("stat\t%s\t%s\n", strs + st->name, strs + st->value);
    }
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

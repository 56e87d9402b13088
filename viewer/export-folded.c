/* SPDX-License-Identifier: GPL-3.0-or-later */
/* export-folded.c - ospview --folded[=work]: the view's rows as folded
 * stacks, the text flamegraph.pl, speedscope, inferno and others read.
 *
 *   subpaths;main (demo.c:40);lookup (demo.c:12);lookup (demo.c:14) 120000
 *
 * One line per hot subpath, Ball-Larus path and forest node (ex_samples,
 * export.c): the profile's name, then one frame per block from the first
 * (the root) to the last (the leaf), `function (file:line)` with the
 * block's first line and the function's file as compiled, then a space
 * and the row's executions rounded to an integer (speedscope reads only
 * integers), or with --folded=work its work (executions x its blocks'
 * costs, as --json's work).  A forest node's stack is its ancestors'
 * blocks and then its own, so the forest's flame graph is the forest.
 *
 * Why the profile's name as the first frame: the three profiles overlap
 * (a subpath and its extensions, a forest node and its children, a path
 * and the subpaths along it), so one flame graph of all of them would
 * add unlike things; under their own root each is its own tower, and
 * --screen=paths (or grep) keeps one.  Within one profile rows overlap
 * too: a frame's width is the sum of the rows through it, as wide as
 * the text says.  Names come from the profiled program: written as
 * valid UTF-8 without control characters (ex_put, EX_PLAIN), and `;`,
 * the frame separator, as `:`.
 */
#define _GNU_SOURCE
#include "export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct folded
{
  const struct view *v;
  char **frame; /* per block: its frame text, made when first needed */
  int work;
};

/* Block B's frame, "function (file:line)", cleaned; NULL out of memory. */
static const char *
frame_of (struct folded *f, uint32_t b)
{
  if (f->frame[b])
    return f->frame[b];
  const struct view *v = f->v;
  const struct osp_vblock *bl = view_block (v, b);
  const struct osp_vfn *fn = view_fn (v, bl->fn);
  char *text = NULL;
  size_t n = 0;
  FILE *m = open_memstream (&text, &n);
  if (m == NULL)
    return NULL;
  ex_put (m, view_str (v, fn->name), EX_PLAIN);
  fputs (" (", m);
  ex_put (m, view_str (v, fn->file), EX_PLAIN);
  fprintf (m, ":%u)", bl->first_line);
  if (fclose (m) != 0 || text == NULL)
    {
      free (text);
      return NULL;
    }
  for (char *c = text; *c; c++)
    if (*c == ';')
      *c = ':';
  return f->frame[b] = text;
}

static int
line (void *ctx, const struct ex_sample *x)
{
  struct folded *f = ctx;
  fputs (scr_screen_name (x->profile), stdout);
  if (x->truncated)
    fputs (";[root end left out]", stdout);
  for (uint32_t k = 0; k < x->n; k++)
    {
      const char *fr = frame_of (f, x->stack[k]);
      if (fr == NULL)
        return -1;
      putchar (';');
      fputs (fr, stdout);
    }
  printf (" %lld\n",
          (long long) ex_int (f->work ? x->execs * x->cost : x->execs));
  return 0;
}

int
export_folded (const struct view *v, const char *arg, unsigned screens)
{
  struct folded f = { v, NULL, 0 };
  if (arg && strcmp (arg, "work") == 0)
    f.work = 1;
  else if (arg && strcmp (arg, "execs") != 0)
    {
      ospview_error ("--folded=%s: count executions (--folded, "
                     "--folded=execs) or work (--folded=work)", arg);
      return 1;
    }
  if (f.work && v->costs == NULL)
    {
      ospview_error ("--folded=work: this view has no block costs (written "
                     "before view format 1.3); --folded counts executions");
      return 1;
    }
  f.frame = calloc (v->nblocks ? v->nblocks : 1, sizeof *f.frame);
  int rc = f.frame ? ex_samples (v, screens, line, &f) : -1;
  for (uint64_t b = 0; f.frame && b < v->nblocks; b++)
    free (f.frame[b]);
  free (f.frame);
  if (rc != 0)
    ospview_error ("out of memory");
  return rc ? 1 : 0;
}

/* SPDX-License-Identifier: MIT */
/* report-blocks.c - the block-count report of mode=blocks, text and tsv
 * (doc/CONTRACTS.md): the hottest functions and blocks with file:line.
 * A plain function of a struct osp_profile (profile.c takes it, report.c sends
 * the result to its destination).  The path and forest sections, and
 * every section's stats, follow in the order of report.c's section
 * table.
 */
#define _GNU_SOURCE
#include "output/output.h"

#include <stdlib.h>
#include <string.h>

/* Entries of all counted blocks of function I. */
static uint64_t
fn_entries (const struct osp_profile *p, uint32_t i)
{
  uint64_t s = 0;
  for (uint32_t b = 0; b < p->fns[i]->nblocks; b++)
    if (osp_block_counted (p->fns[i], b))
      s += p->counts[i][b];
  return s;
}

static uint64_t
total_entries (const struct osp_profile *p)
{
  uint64_t s = 0;
  for (uint32_t i = 0; i < p->nfns; i++)
    s += fn_entries (p, i);
  return s;
}


/* ---- tsv ------------------------------------------------------------- */

int
osp_format_blocks_tsv (FILE *out, const struct osp_profile *p,
                       const struct osp_options *o)
{
  size_t ngids;
  unsigned char *on_path = osp_report_used_blocks (p, &ngids);
  if (on_path == NULL)
    return -1;
  osp_report_tsv_header (out, p, o, "blocks");
  for (uint32_t m = 0; m < p->nmods; m++)
    fprintf (out, "module\t%u\t%u\n", m, p->mods[m].nfunctions);
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      const struct osp_fn *f = p->fns[i];
      fprintf (out, "function\t%u\t%s\t%s\t%u\t", f->id, f->name, f->file,
               f->first_line);
      if (osp_block_counted (f, 0))
        fprintf (out, "%llu", (unsigned long long) p->counts[i][0]);
      else
        fputc ('-', out);
      fprintf (out, "\t%llu\n", (unsigned long long) fn_entries (p, i));
    }
  /* A row for every block with a count, every hooked function's block
     that could not get a hook (count -), and every block on a path or
     forest row (so those rows decode without the binary). */
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      const struct osp_fn *f = p->fns[i];
      for (uint32_t b = 0; b < f->nblocks; b++)
        {
          int counted = osp_block_counted (f, b);
          if (!on_path[f->block_base + b]
              && (counted ? p->counts[i][b] == 0
                          : !(f->flags & OSP_FN_BLOCK_HOOKS)))
            continue;
          fprintf (out, "block\t%u\t%u\t%s\t%s\t%u\t%u\t", f->id, b, f->name,
                   f->file, f->blocks[b].line_first, f->blocks[b].line_last);
          if (counted)
            fprintf (out, "%llu\n", (unsigned long long) p->counts[i][b]);
          else
            fputs ("-\n", out);
        }
    }
  free (on_path);
  return 0;
}

void
osp_format_blocks_stats (const struct osp_stat_out *out,
                         const struct osp_profile *p,
                         const struct osp_options *o)
{
  (void) o;
  const struct
  {
    const char *name;
    uint64_t value;
  } stats[] = {
    { "modules", p->modules },
    { "functions", p->nfns },
    { "functions_dropped", p->functions_dropped },
    { "block_entries", total_entries (p) },
    { "unregistered_hits", p->unregistered_hits },
    { "threads", p->threads },
    { "records_invalid", p->records_invalid },
    { "abi_mismatches", p->abi_mismatches },
    { "hits_lost", p->hits_lost },
  };
  for (size_t s = 0; s < sizeof stats / sizeof stats[0]; s++)
    osp_stat_u (out, stats[s].name, stats[s].value);
}

/* ---- text ------------------------------------------------------------ */

struct row
{
  uint32_t fn, block; /* index into the profile; block unused for functions */
  uint64_t count;
};

static int
by_count (const void *a, const void *b)
{
  const struct row *x = a, *y = b;
  if (x->count != y->count)
    return x->count < y->count ? 1 : -1;
  if (x->fn != y->fn)
    return x->fn < y->fn ? -1 : 1;
  return x->block < y->block ? -1 : x->block > y->block;
}

/* Width of the function-name column over the first N ROWS (capped: a
   C++-length name then just pushes its own line's location right). */
static int
name_width (const struct osp_profile *p, const struct row *rows, size_t n)
{
  size_t w = 8;
  for (size_t r = 0; r < n; r++)
    {
      size_t len = strlen (p->fns[rows[r].fn]->name);
      if (len > w)
        w = len;
    }
  return (int) (w > 40 ? 40 : w);
}

int
osp_format_blocks_text (FILE *out, const struct osp_profile *p,
             const struct osp_options *o)
{
  uint64_t total = total_entries (p);
  osp_report_header (out, p, o, "blocks", (long long) total);

  size_t nblocks = 0;
  for (uint32_t i = 0; i < p->nfns; i++)
    for (uint32_t b = 0; b < p->fns[i]->nblocks; b++)
      nblocks += osp_block_counted (p->fns[i], b) && p->counts[i][b] != 0;
  struct row *fr = malloc ((p->nfns ? p->nfns : 1) * sizeof *fr);
  struct row *br = malloc ((nblocks ? nblocks : 1) * sizeof *br);
  if (fr == NULL || br == NULL)
    {
      free (fr);
      free (br);
      return -1;
    }
  size_t nb = 0;
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      fr[i] = (struct row) { i, 0, fn_entries (p, i) };
      for (uint32_t b = 0; b < p->fns[i]->nblocks; b++)
        if (osp_block_counted (p->fns[i], b) && p->counts[i][b] != 0)
          br[nb++] = (struct row) { i, b, p->counts[i][b] };
    }
  qsort (fr, p->nfns, sizeof *fr, by_count);
  qsort (br, nb, sizeof *br, by_count);

  char loc[OSP_PATH_MAX + 64];
  size_t top = p->nfns < o->report_top ? p->nfns : o->report_top;
  int w = name_width (p, fr, top);
  fprintf (out, "\nhottest functions (%s of %s):\n", OSP_G (top),
           OSP_G (p->nfns));
  fprintf (out, "%14s %16s %7s  %-*s  %s\n", "calls", "block entries",
           "share", w, "function", "location");
  for (size_t r = 0; r < top; r++)
    {
      const struct osp_fn *f = p->fns[fr[r].fn];
      char calls[OSP_GROUPED_SIZE] = "-";
      if (osp_block_counted (f, 0))
        osp_grouped_u (calls, p->counts[fr[r].fn][0]);
      osp_location (loc, sizeof loc, f, f->first_line, f->first_line);
      int col = fprintf (out, "%14s %16s %6.2f%%  %-*s", calls,
                         OSP_G (fr[r].count), osp_share (fr[r].count, total),
                         w, f->name);
      osp_text_field (out, col, 8, loc);
    }
  osp_report_more (out, top, p->nfns, "row");

  top = nb < o->report_top ? nb : o->report_top;
  w = name_width (p, br, top);
  fprintf (out, "\nhottest blocks (%s of %s counted):\n", OSP_G (top),
           OSP_G (nb));
  fprintf (out, "%14s %7s  %-*s  %s\n", "count", "share", w, "function",
           "location");
  for (size_t r = 0; r < top; r++)
    {
      const struct osp_fn *f = p->fns[br[r].fn];
      const struct osp_block *bl = &f->blocks[br[r].block];
      osp_location (loc, sizeof loc, f, bl->line_first, bl->line_last);
      int col = fprintf (out, "%14s %6.2f%%  %-*s", OSP_G (br[r].count),
                         osp_share (br[r].count, total), w, f->name);
      osp_text_field (out, col, 8, loc);
    }
  osp_report_more (out, top, nb, "row");
  free (fr);
  free (br);
  return 0;
}

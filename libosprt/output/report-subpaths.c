/* SPDX-License-Identifier: MIT */
/* report-subpaths.c - the subpath report of mode=subpaths and
 * mode=subpaths-exact, text and tsv (doc/CONTRACTS.md).
 *
 * Both modes share one form, so that a sampled and an exact report of the
 * same program compare line by line.  Subpaths are sequences of global
 * block ids, decoded here through the registry snapshot into compact steps:
 * consecutive blocks of one function whose lines continue each other are
 * shown as one file:first-last, and the function name only when it changes.
 * The Ball-Larus path report (report-paths.c) prints its paths with the
 * same code (osp_print_blocks, osp_print_block_ids).
 */
#define _GNU_SOURCE
#include "output/output.h"
#include "format/steps.h"
#include "format/workshare.h"

#include <stdlib.h>
#include <string.h>


/* ---- subpaths: decoding ---------------------------------------------- */

int
osp_subpath_mode (const struct osp_profile *p)
{
  return p->mode == OSP_MODE_SUBPATHS || p->mode == OSP_MODE_SUBPATHS_EXACT;
}

/* The blocks GIDS as steps (steps.h, the rule ospview's rows share). */
static size_t
steps_of (const struct osp_profile *p, const uint32_t *gids, uint32_t len,
          struct osp_step *out)
{
  size_t n = 0;
  for (uint32_t i = 0; i < len; i++)
    {
      uint32_t b = 0;
      uint32_t fi = osp_fn_index_of_block (p->fns, p->nfns, gids[i], &b);
      uint32_t lf = 0, ll = 0;
      if (fi != UINT32_MAX)
        {
          lf = p->fns[fi]->blocks[b].line_first;
          ll = p->fns[fi]->blocks[b].line_last;
        }
      n = osp_steps_add (out, n, fi, lf, ll, gids[i]);
    }
  return n;
}

static void
print_step (FILE *out, const struct osp_profile *p, const struct osp_step *st,
            uint32_t *shown_fi)
{
  if (st->fi == UINT32_MAX)
    {
      fprintf (out, "?#%u", st->id);
      *shown_fi = UINT32_MAX;
      return;
    }
  const struct osp_fn *f = p->fns[st->fi];
  if (st->fi != *shown_fi)
    fprintf (out, "%s() ", f->name);
  *shown_fi = st->fi;
  if (st->first == 0)
    fprintf (out, "%s", f->file);
  else if (st->last == st->first)
    fprintf (out, "%s:%u", f->file, st->first);
  else
    fprintf (out, "%s:%u-%u", f->file, st->first, st->last);
}

int
osp_print_blocks (FILE *out, const struct osp_profile *p,
                  const uint32_t *gids, uint32_t len, int col, int indent)
{
  struct osp_step *buf = malloc ((len ? len : 1) * sizeof *buf);
  char *text = NULL;
  size_t textlen = 0;
  FILE *row = buf ? open_memstream (&text, &textlen) : NULL;
  if (row == NULL)
    {
      free (buf);
      return -1;
    }
  /* the whole path first: where it goes depends on its length */
  FILE *final = out;
  out = row;
  size_t n = steps_of (p, gids, len, buf);
  uint32_t shown = UINT32_MAX - 1;
  for (size_t i = 0; i < n; i++)
    {
      size_t skip = osp_steps_omitted (n, i);
      if (skip > 0)
        {
          fprintf (out, " -> ... (%zu steps omitted) ...", skip);
          i += skip - 1;
          shown = UINT32_MAX - 1; /* name the function again after it */
          continue;
        }
      if (i)
        fputs (" -> ", out);
      print_step (out, p, &buf[i], &shown);
    }
  free (buf);
  if (fclose (row) != 0)
    {
      free (text);
      return -1;
    }
  osp_text_field (final, col, indent, text);
  free (text);
  return 0;
}

void
osp_print_block_ids (FILE *out, const struct osp_profile *p,
                     const uint32_t *gids, uint32_t len)
{
  for (uint32_t k = 0; k < len; k++)
    {
      uint32_t b = 0;
      uint32_t fi = osp_fn_index_of_block (p->fns, p->nfns, gids[k], &b);
      if (fi == UINT32_MAX)
        fprintf (out, "%s?:%u", k ? "," : "", gids[k]);
      else
        fprintf (out, "%s%u:%u", k ? "," : "", p->fns[fi]->id, b);
    }
}

/* ---- subpaths: tsv --------------------------------------------------- */

static double
gain (const struct osp_subpaths_part *sp)
{
  return sp->hl.entries ? (double) sp->hl.sample_size / (double) sp->hl.entries
                        : 0.0;
}

int
osp_format_subpaths_tsv (FILE *out, const struct osp_profile *p,
                     const struct osp_options *o)
{
  const struct osp_subpaths_part *sp = &p->subpaths;
  osp_report_tsv_header (out, p, o, osp_mode_name (p->mode));
  for (uint32_t m = 0; m < p->nmods; m++)
    fprintf (out, "module\t%u\t%u\n", m, p->mods[m].nfunctions);
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      const struct osp_fn *f = p->fns[i];
      fprintf (out, "function\t%u\t%s\t%s\t%u\t-\t-\n", f->id, f->name,
               f->file, f->first_line);
    }
  /* A block row for every block on a reported subpath, path or forest
     row, so that the fid:block lists decode to lines without the binary. */
  size_t nblocks;
  unsigned char *used = osp_report_used_blocks (p, &nblocks);
  if (used == NULL)
    return -1;
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      const struct osp_fn *f = p->fns[i];
      for (uint32_t b = 0; b < f->nblocks; b++)
        if (used[f->block_base + b])
          fprintf (out, "block\t%u\t%u\t%s\t%s\t%u\t%u\t-\n", f->id, b,
                   f->name, f->file, f->blocks[b].line_first,
                   f->blocks[b].line_last);
    }
  free (used);

  struct osp_work_unit units[32], paths, forest;
  osp_work_units (p, units, &paths, &forest);
  for (uint32_t r = 0; r < sp->nsubs; r++)
    {
      const struct osp_subpath *s = &sp->subs[r];
      /* an entry too uncertain to rank (collect/shares.c): rank `-' */
      char rank[16] = "-";
      if (!osp_subpath_few (s))
        snprintf (rank, sizeof rank, "%u", r + 1);
      fprintf (out, "subpath\t%s\t%u\t%.3f\t%.3f\t%llu\t%.9g\t", rank,
               s->len, s->estimate, s->err95, (unsigned long long) s->count,
               s->share);
      osp_print_block_ids (out, p, s->blocks, s->len);
      double cost = osp_gids_cost (p, s->blocks, s->len);
      const struct osp_work_unit *u = &units[osp_work_class (s->len)];
      osp_print_work_fields (out, s->estimate * cost, s->err95 * cost,
                             osp_work_share (u, s->estimate * cost));
      fputc ('\n', out);
    }
  return 0;
}

void
osp_format_subpaths_stats (const struct osp_stat_out *out,
                           const struct osp_profile *p,
                           const struct osp_options *o)
{
  const struct osp_subpaths_part *sp = &p->subpaths;
  osp_stat_u (out, "modules", p->modules);
  osp_stat_u (out, "functions", p->nfns);
  osp_stat_u (out, "functions_dropped", p->functions_dropped);
  osp_stat_u (out, "unregistered_hits", p->unregistered_hits);
  osp_stat_u (out, "threads", p->threads);
  osp_stat_u (out, "records_invalid", p->records_invalid);
  osp_stat_u (out, "abi_mismatches", p->abi_mismatches);
  osp_stat_u (out, "hits_lost", p->hits_lost);
  osp_stat_u (out, "blocks_seen", sp->walk[OSP_W_BLOCKS_SEEN]);
  osp_stat_u (out, "blocks_sampled", sp->walk[OSP_W_BLOCKS_SAMPLED]);
  osp_stat_u (out, "samples", sp->walk[OSP_W_SAMPLES]);
  osp_stat_u (out, "starts", sp->walk[OSP_W_STARTS]);
  osp_stat_u (out, "declined", sp->walk[OSP_W_DECLINED]);
  osp_stat_u (out, "starts_drawn", sp->walk[OSP_W_DRAWN]);
  osp_stat_u (out, "subpaths", sp->nsubs);
  osp_stat_u (out, "min_length", o->min_length);
  if (p->mode == OSP_MODE_SUBPATHS)
    {
      osp_stat_u (out, "max_length", o->max_length);
      osp_stat_s (out, "length_bias",
                  osp_option_value_name ("length_bias", (int) o->length_bias));
      osp_stat_u (out, "interval", o->interval);
      osp_stat_u (out, "stretch", sp->stretch);
      osp_stat_u (out, "gain_limit", o->gain);
      osp_stat_f (out, "threshold", sp->hl.threshold);
      osp_stat_u (out, "resamples", sp->hl.resamples);
      osp_stat_f (out, "gain", gain (sp));
      osp_stat_u (out, "hotlist_entries", sp->hl.entries);
      osp_stat_u (out, "hotlist_sample_size", sp->hl.sample_size);
      osp_stat_u (out, "hotlist_offered", sp->hl.offered);
      osp_stat_u (out, "hotlist_admitted", sp->hl.admitted);
      osp_stat_u (out, "hotlist_evictions", sp->hl.evictions);
      osp_stat_u (out, "hotlist_too_long", sp->hl.too_long);
      osp_stat_u (out, "hotlist_bytes_used", sp->hl.mem_used);
      osp_stat_u (out, "hotlist_bytes_peak", sp->hl.mem_peak);
      osp_stat_u (out, "hotlist_bytes", sp->hl.mem_bytes);
      osp_stat_s (out, "policy",
                  osp_option_value_name ("policy", (int) o->policy));
      osp_stat_s (out, "encoding",
                  osp_option_value_name ("encoding", (int) o->encoding));
      osp_stat_u (out, "seed", p->seed);
      osp_stat_u (out, "strata", sp->nstrata);
      for (uint32_t i = 0; i < sp->nstrata; i++)
        {
          char name[40];
          snprintf (name, sizeof name, "threshold_%u-%u",
                    sp->strata[i].min_len, sp->strata[i].max_len);
          osp_stat_f (out, name, sp->strata[i].threshold);
        }
    }
  else
    {
      osp_stat_u (out, "max_length", o->exact_max);
      osp_stat_u (out, "exact_entries", sp->exact_entries);
      osp_stat_u (out, "exact_dropped", sp->exact_dropped);
      osp_stat_u (out, "exact_bytes_used", sp->exact_bytes_used);
      osp_stat_u (out, "exact_bytes", o->exact_bytes);
    }
}

/* ---- subpaths: text -------------------------------------------------- */

/* A threshold (a bound on counts) into BUF (OSP_GROUPED_SIZE bytes):
   grouped like the counts once it has five digits, else with its six
   significant digits. */
static const char *
threshold (char *buf, double t)
{
  if (t >= 1e4)
    return osp_grouped_f (buf, t);
  snprintf (buf, OSP_GROUPED_SIZE, "%.6g", t);
  return buf;
}

/* What the text list adds up: per length class, the listed rows' shares
   of count and of work, and whether the class has a row listed. */
struct listed
{
  double count[32], work[32];
  unsigned char shown[32];
};

/* One row of the text list, RANK 0 for an unranked one ("-"); its shares
   are added to L's of its length class (UNITS: format/workshare.h). */
static int
print_subpath_row (FILE *out, const struct osp_profile *p,
                   const struct osp_subpath *s, size_t rank, int exact,
                   const struct osp_work_unit *units, struct listed *l)
{
  char err[OSP_GROUPED_SIZE + 8] = "", rk[24] = "-";
  if (!exact)
    snprintf (err, sizeof err, "+/- %s", OSP_G (s->err95));
  if (rank)
    snprintf (rk, sizeof rk, "%zu", rank);
  unsigned c = osp_subpath_class (s->len);
  double work = s->estimate * osp_gids_cost (p, s->blocks, s->len);
  double wshare = osp_work_share (&units[c], work);
  int col = fprintf (out, "%5s %14s %12s %6.2f%% %16s %6.2f%% %5u", rk,
                     OSP_G (s->estimate), err, 100.0 * s->share, OSP_G (work),
                     100.0 * wshare, s->len);
  l->count[c] += s->share;
  l->work[c] += wshare;
  l->shown[c] = 1;
  return osp_print_blocks (out, p, s->blocks, s->len, col, 8);
}

int
osp_format_subpaths_text (FILE *out, const struct osp_profile *p,
                      const struct osp_options *o)
{
  const struct osp_subpaths_part *sp = &p->subpaths;
  const uint64_t *w = sp->walk;
  int exact = p->mode == OSP_MODE_SUBPATHS_EXACT;
  osp_report_header (out, p, o, osp_mode_name (p->mode), -1);

  if (exact)
    {
      fprintf (out, "subpaths: exact\n");
      osp_text_line (out,
                     "  blocks seen %s, subpaths counted %s, distinct %s, "
                     "not counted (table full) %s",
                     OSP_G (w[OSP_W_BLOCKS_SEEN]), OSP_G (w[OSP_W_SAMPLES]),
                     OSP_G (sp->exact_entries), OSP_G (sp->exact_dropped));
      osp_text_line (out, "  table memory %s used of %s bytes; lengths %u..%u",
                     OSP_G (sp->exact_bytes_used), OSP_G (o->exact_bytes),
                     o->min_length, o->exact_max);
      if (sp->exact_dropped)
        fprintf (out, "osp: the exact table was full: raise exact_bytes\n");
    }
  else
    {
      fprintf (out, "subpaths: sampled (estimates with 95%% intervals)\n");
      osp_text_line (out,
                     "  blocks seen %s, blocks sampled %s, samples %s "
                     "(started %s, declined at the start %s; %s drawn)",
                     OSP_G (w[OSP_W_BLOCKS_SEEN]),
                     OSP_G (w[OSP_W_BLOCKS_SAMPLED]),
                     OSP_G (w[OSP_W_SAMPLES]), OSP_G (w[OSP_W_STARTS]),
                     OSP_G (w[OSP_W_DECLINED]), OSP_G (w[OSP_W_DRAWN]));
      osp_text_line (out,
                     "  hot-list: %s entries, sample size %s, gain %.2f, "
                     "largest threshold %s, resamples %s, evictions %s",
                     OSP_G (sp->hl.entries), OSP_G (sp->hl.sample_size),
                     gain (sp), threshold ((char[OSP_GROUPED_SIZE]){ 0 }, sp->hl.threshold),
                     OSP_G (sp->hl.resamples), OSP_G (sp->hl.evictions));
      struct osp_para pa;
      FILE *l = osp_para_open (&pa, out);
      fprintf (l, "  thresholds by length (%u tables):", sp->nstrata);
      for (uint32_t i = 0; i < sp->nstrata; i++)
        {
          const struct osp_stratum *st = &sp->strata[i];
          if (st->min_len == st->max_len)
            fprintf (l, " %u:%.3g", st->min_len, st->threshold);
          else
            fprintf (l, " %u-%u:%.3g", st->min_len, st->max_len,
                     st->threshold);
        }
      osp_para_close (&pa);
      osp_text_line (out,
                     "  hot-list memory %s used, %s peak, %s bound; "
                     "policy %s, encoding %s",
                     OSP_G (sp->hl.mem_used), OSP_G (sp->hl.mem_peak),
                     OSP_G (sp->hl.mem_bytes),
                     osp_option_value_name ("policy", (int) o->policy),
                     osp_option_value_name ("encoding", (int) o->encoding));
      osp_text_line (out,
                     "  interval %u (skips now x%u: what every table would "
                     "decline is not drawn), gain limit %u, lengths %u..%u, "
                     "bias %s, seed=%llu", /* as OSP_OPTIONS takes it */
                     o->interval, sp->stretch, o->gain, o->min_length,
                     o->max_length,
                     osp_option_value_name ("length_bias",
                                            (int) o->length_bias),
                     (unsigned long long) p->seed);
    }

  /* The ranked rows, then the entries too uncertain to rank (shares.c
     puts them last), then what the listed rows leave to the rest of each
     length class: shares are within a class. */
  uint32_t ranked = 0;
  while (ranked < sp->nsubs && !osp_subpath_few (&sp->subs[ranked]))
    ranked++;
  size_t top = ranked < o->report_top ? ranked : o->report_top;
  fprintf (out, "\nhottest subpaths (%s of %s):\n", OSP_G (top),
           OSP_G (ranked));
  fprintf (out, "%5s %14s %12s %7s %16s %7s %5s  %s\n", "rank", "estimate",
           exact ? "" : "+/- 95%", "share", "work", "work%", "len", "path");
  struct osp_work_unit units[32], paths, forest;
  osp_work_units (p, units, &paths, &forest);
  struct listed ls;
  memset (&ls, 0, sizeof ls);
  for (size_t r = 0; r < top; r++)
    if (print_subpath_row (out, p, &sp->subs[r], r + 1, exact, units, &ls)
        != 0)
      return -1;
  osp_report_more (out, top, ranked, "row");
  uint32_t few = sp->nsubs - ranked;
  if (few > 0)
    {
      size_t ftop = few < o->report_top ? few : o->report_top;
      fputc ('\n', out);
      osp_text_line (out,
                     "too few samples to rank (%s of %s: the 95%% interval "
                     "is wider than the estimate):",
                     OSP_G (ftop), OSP_G (few));
      for (size_t r = 0; r < ftop; r++)
        if (print_subpath_row (out, p, &sp->subs[ranked + r], 0, exact,
                               units, &ls)
            != 0)
          return -1;
      osp_report_more (out, ftop, few, "row");
    }
  /* Work shares are of the same class (format/workshare.h), so the
     report's one order (by the interval of the count) is not mixed with
     an order of raw work, in which longer rows weigh more. */
  for (int by_work = 0; by_work < 2; by_work++)
    {
      int any = 0;
      struct osp_para pa;
      FILE *l = NULL;
      for (unsigned c = 0; c < 32; c++)
        if (ls.shown[c])
          {
            double pct = 100.0 * (by_work ? ls.work[c] : ls.count[c]);
            if (pct > 100.0) /* rounding only: a class adds up to <= 1 */
              pct = 100.0;
            if (!any)
              {
                if (!by_work)
                  fputc ('\n', out);
                l = osp_para_open (&pa, out);
              }
            fprintf (l, "%s len %u: listed %.2f%% + other %.2f%%",
                     any ? ","
                     : by_work ? "work shares are of the work of the subpaths "
                           "of the same length:"
                         : "shares are of the subpaths of the same length:",
                     1u << c, pct, 100.0 - pct);
            any = 1;
          }
      if (any)
        osp_para_close (&pa);
    }
  return 0;
}


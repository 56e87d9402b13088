/* SPDX-License-Identifier: GPL-3.0-or-later */
/* recent.c - recent mode: what the program did lately, not since it started.
 *
 * Why: every figure a view carries is cumulative, so once a program has
 * run for a while a change of phase moves the screens by a few percent at
 * most and the old phase stays on top.  perf top answers this with an
 * exponential decay of its sample counts; osp's estimates are not counts
 * that can be decayed (a sampled estimate is a count scaled by the
 * sampler's thresholds, and its interval does not decay with it), so
 * recent mode subtracts instead: the viewer keeps a few earlier views of
 * the process (struct recent, at most RECENT_SLOTS copies spread over the
 * window) and shows, for each row, its estimate in the newest view minus
 * its estimate in the one about WINDOW seconds older, as a count and per
 * second.  Rows are matched by content, with the matching --diff uses
 * (diff.c, diff_views), so a row keeps its identity however the ranking
 * moves.
 *
 * Honest intervals.  A subpath's estimate rests on its hot-list count c,
 * and since view minor 4 the view says what turns c into the estimate
 * (its table's threshold tau, the occurrences one offer stands for s =
 * 1 / (q P(L)), the estimator, Space-Saving's inherited over-count;
 * libosprt/collect/estimate.c).  An entry that stayed in its table counts
 * every later offer (Space-Saving and counting samples; concise samples:
 * each with probability 1/tau), so the evidence of the interval is the
 * growth of its count: window_delta takes the offers in the interval
 * (Space-Saving: c' - c; counting samples: O = (c' + tau' - 1) - (c +
 * tau - 1)) as a count of Poisson noise (1.96 sqrt (O)), adds for
 * counting samples what the rise of the threshold adds to the entry's
 * unknown first offers (sqrt (g'^2 - g^2), estimate.c's g), and scales
 * both by the interval's own s (from the interval's blocks and starts);
 * doc/ACCURACY.md, "Recent intervals".  A sampled Ball-Larus path
 * (paths=counter) is its samples times path_scale, so its samples taken
 * in between are its evidence (window_path_delta).  The cumulative errors
 * grow with the run (their Poisson term is sqrt of every offer so far), so
 * their difference, sqrt (a^2 + b^2) of the two 95% half-widths, was far
 * wider on a long run than what the interval's own samples allow.  That
 * bound is still the fallback where the evidence is not known: rows of
 * older views, forest nodes and functions, a key that adds several rows
 * up, an entry whose count fell with its threshold unchanged, or whose
 * Space-Saving over-count changed (it left the table and came back: its
 * count is a new one).
 *
 * A row whose delta is within its error is marked '~' and listed after
 * the rows whose work is established, whatever the sort; a row's delta may
 * then be negative (an estimate can move down).  A row new in the list
 * (not in the older view) is counted from 0: below the hot-list's
 * threshold its earlier count was small but not known, which the error
 * does not cover; it is marked '+'.  Rows that left the list cannot be
 * measured and are only counted in the title.
 */
#define _GNU_SOURCE
#include "ospview.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
recent_init (struct recent *r, double window)
{
  memset (r, 0, sizeof *r);
  r->window = window > 0 ? window : RECENT_WINDOW;
}

static void
drop_oldest (struct recent *r)
{
  free (r->slot[0].buf);
  memmove (&r->slot[0], &r->slot[1], (size_t) (r->n - 1) * sizeof r->slot[0]);
  r->n--;
  memset (&r->slot[r->n], 0, sizeof r->slot[r->n]);
}

void
recent_free (struct recent *r)
{
  while (r->n > 0)
    drop_oldest (r);
}

static double
secs (uint64_t later, uint64_t earlier)
{
  return later > earlier ? (double) (later - earlier) / 1e9 : 0.0;
}

static int
same_process (const struct view *a, const struct view *b)
{
  return a->run.pid == b->run.pid && a->run.start_ns == b->run.start_ns
         && a->run.instance_id == b->run.instance_id;
}

int
recent_push (struct recent *r, const struct view *cur)
{
  if (r->n > 0 && !same_process (&r->slot[r->n - 1].view, cur))
    recent_free (r);
  if (r->n > 0)
    {
      const struct view *last = &r->slot[r->n - 1].view;
      /* the slots are spread over the window: a view closer than this
         to the last kept adds nothing a later one will not */
      double gap = r->window / (RECENT_SLOTS - 2);
      if (cur->hdr->seq == last->hdr->seq
          || secs (cur->hdr->time_ns, last->hdr->time_ns) < gap)
        return 0;
    }
  /* slots no base will be chosen from again: a newer one is old enough */
  while (r->n >= 2
         && secs (cur->hdr->time_ns, r->slot[1].view.hdr->time_ns)
                >= r->window)
    drop_oldest (r);
  if (r->n == RECENT_SLOTS)
    drop_oldest (r);
  size_t len = (size_t) cur->hdr->size;
  void *copy = aligned_alloc (16, (len + 15) & ~(size_t) 15);
  if (copy == NULL)
    return -1;
  memcpy (copy, cur->hdr, len);
  struct recent_slot *s = &r->slot[r->n];
  char err[160];
  if (view_parse (&s->view, copy, len, err, sizeof err) != 0)
    {
      free (copy); /* cannot happen: CUR was parsed from the same bytes */
      return -1;
    }
  s->buf = copy;
  r->n++;
  return 0;
}

const struct view *
recent_base (const struct recent *r, const struct view *cur)
{
  const struct view *base = NULL;
  for (int i = 0; i < r->n; i++)
    {
      const struct view *v = &r->slot[i].view;
      if (!same_process (v, cur) || v->hdr->time_ns >= cur->hdr->time_ns)
        break;
      if (base == NULL
          || secs (cur->hdr->time_ns, v->hdr->time_ns) >= r->window)
        base = v;
    }
  return base;
}

/* Seconds as "5.0s", "2m05s", "1.2e+09s" (status lines are short; a
   hostile view's times may be centuries apart). */
static const char *
span (char *buf, size_t n, double s)
{
  if (s < 60)
    snprintf (buf, n, "%.1fs", s);
  else if (s < 1e9)
    {
      unsigned long long x = (unsigned long long) s;
      snprintf (buf, n, "%llum%02llus", x / 60, x % 60);
    }
  else
    snprintf (buf, n, "%.3gs", s);
  return buf;
}

static double
interval (const struct view *old, const struct view *new)
{
  return secs (new->hdr->time_ns, old ? old->hdr->time_ns
                                      : new->run.start_ns);
}

const char *
recent_label (const struct recent *r, const struct view *cur, char *buf,
              size_t n)
{
  char d[32];
  const struct view *base = recent_base (r, cur);
  snprintf (buf, n, "recent %s%s", span (d, sizeof d, interval (base, cur)),
            base ? "" : " (since start)");
  return buf;
}

/* ---- the table ----------------------------------------------------------- */

struct rrow
{
  size_t pair;           /* in the matching */
  struct diff_pair p;
  double delta, err;     /* NEW - OLD estimate; combined 95% error */
  int within, fresh;     /* '~', '+' */
};

struct rsort
{
  enum scr_sort key;
  int rev;
};

static int
rrow_cmp (const void *pa, const void *pb, void *ctx)
{
  const struct rsort *rs = ctx;
  const struct rrow *a = pa, *b = pb;
  /* established work first, whatever the sort */
  if (a->within != b->within)
    return a->within - b->within;
  int c = 0;
  double x, y;
  if (rs->key == SORT_NAME)
    c = strcmp (a->p.brief, b->p.brief);
  else
    {
      x = rs->key == SORT_LENGTH ? a->p.len : a->delta;
      y = rs->key == SORT_LENGTH ? b->p.len : b->delta;
      if (x != y)
        c = x > y ? -1 : 1;
    }
  if (rs->rev)
    c = -c;
  if (c == 0)
    c = a->p.key < b->p.key ? -1 : a->p.key > b->p.key;
  return c;
}

/* The denominator of screen S's shares in V (0: none): the cumulative
   screens' own (a forest node's estimate counts path ends, like a root's
   share of all of them in --diff). */
static double
total (const struct view *v, enum scr_screen s, const struct diff *d)
{
  if (v == NULL)
    return 0;
  switch (s)
    {
    case SCR_SUBPATHS:
      return (double) v->run.blocks_seen;
    case SCR_PATHS:
    case SCR_FOREST:
      return (double) v->run.path_ends;
    default:
      return strcmp (diff_basis (d), "paths") == 0
                 ? (double) v->run.path_ends
                 : (double) v->run.blocks_seen;
    }
}

static const char *const what_rows[SCR_NSCREENS]
    = { "subpaths", "Ball-Larus paths", "forest nodes", "functions" };

/* The upper side of the unknown offers before an entry got into a table
   of threshold TAU, above their mean tau - 1 (estimate.c: its 97.5%
   quantile ln 0.025 / ln (1 - 1/tau), minus the mean). */
static double
first_offers_g (double tau)
{
  if (!(tau > 1))
    return 0;
  return log (0.025) / log1p (-1 / tau) - (tau - 1);
}

/* Occurrences one offer stands for over the interval between OLD and NEW:
   1 / (q P(L)) with q the interval's starts over its blocks.  Each view's
   s = 1 / (q P) and its blocks B give its starts times P, B / s, so that
   the interval's s is its blocks over the growth of B / s (P cancels);
   NEW's own s when nothing ran. */
static double
window_scale (const struct view *old, const struct view *new, double s0,
              double s1)
{
  double b0 = (double) old->run.blocks_seen, b1 = (double) new->run.blocks_seen;
  if (s0 > 0 && b1 > b0)
    {
      double starts = b1 / s1 - b0 / s0; /* times P(L) */
      if (starts > 0)
        return (b1 - b0) / starts;
    }
  return s1;
}

/* The delta of subpath pair P over the interval from the evidence of its
   two entries (the header comment): 1 with *DELTA and *ERR, 0 when the
   views do not tell (the caller keeps the cumulative difference). */
static int
window_delta (const struct view *old, const struct view *new,
              const struct diff_pair *p, double *delta, double *err)
{
  struct view_evidence a, b;
  if (old == NULL || p->at[0] == DIFF_NO_AT || p->at[1] == DIFF_NO_AT
      || !view_subpath_evidence (old, p->at[0], &a)
      || !view_subpath_evidence (new, p->at[1], &b)
      || a.estimator != b.estimator)
    return 0;
  if (b.estimator == OSP_VSUB_EST_EXACT)
    {
      *delta = (double) b.count - (double) a.count;
      *err = 0;
      return 1;
    }
  /* thresholds only rise; a count that fell with the threshold unchanged
     is a new entry's */
  if (!(b.scale > 0 && a.scale > 0) || b.threshold < a.threshold
      || (b.count < a.count && b.threshold == a.threshold))
    return 0;
  double s = window_scale (old, new, a.scale, b.scale);
  double dc = (double) b.count - (double) a.count;
  if (b.estimator == OSP_VSUB_EST_COUNTING)
    {
      double offers = dc + (b.threshold - a.threshold);
      if (offers < 0)
        offers = 0;
      double g0 = first_offers_g (a.threshold);
      double g1 = first_offers_g (b.threshold);
      double g2 = g1 * g1 - g0 * g0;
      *delta = ospview_sat (offers * s);
      *err = ospview_sat (sqrt (1.96 * 1.96 * offers + (g2 > 0 ? g2 : 0))
                          * s);
      return 1;
    }
  /* Space-Saving: an entry that kept its place kept its inherited
     over-count, and counts every offer since; one whose over-count
     changed was replaced and came back */
  if (b.estimator == OSP_VSUB_EST_SPACE_SAVING && b.error == a.error
      && dc >= 0)
    {
      *delta = ospview_sat (dc * b.threshold * s);
      *err = ospview_sat (1.96 * sqrt (dc) * b.threshold * s);
      return 1;
    }
  if (b.estimator == OSP_VSUB_EST_CONCISE && b.threshold == a.threshold
      && dc >= 0)
    {
      *delta = ospview_sat (dc * b.threshold * s);
      *err = ospview_sat (1.96 * sqrt (dc) * b.threshold * s);
      return 1;
    }
  return 0;
}

/* The same for Ball-Larus path pair P under paths=counter: a sampled
   row's estimate is its samples times the view's path_scale (estimate.c),
   each path end sampled independently, so the samples taken in between
   are the interval's evidence.  0 when the views do not tell (another
   policy or scale, a row read from its function's counters: err95 0). */
static int
window_path_delta (const struct view *old, const struct view *new,
                   const struct diff_pair *p, double *delta, double *err)
{
  if (old == NULL || p->at[0] == DIFF_NO_AT || p->at[1] == DIFF_NO_AT
      || strcmp (view_str (old, old->run.paths), "counter") != 0
      || strcmp (view_str (new, new->run.paths), "counter") != 0
      || !(new->run.path_scale > 0)
      || old->run.path_scale != new->run.path_scale)
    return 0;
  const struct osp_vpath *a = view_path (old, p->at[0]);
  const struct osp_vpath *b = view_path (new, p->at[1]);
  if (!(a->err95 > 0 && b->err95 > 0) || b->samples < a->samples)
    return 0;
  double ds = (double) (b->samples - a->samples);
  *delta = ospview_sat (ds * new->run.path_scale);
  *err = ospview_sat (1.96 * sqrt (ds) * new->run.path_scale);
  return 1;
}

static int
table (struct scr_table *t, const struct diff *d, const struct view *old,
       const struct view *new, enum scr_screen s, const struct scr_opts *o,
       const char *what, int pairs)
{
  memset (t, 0, sizeof *t);
  size_t np = diff_npairs (d, s), m = 0, left = 0, within = 0;
  struct rrow *rows = calloc (np ? np : 1, sizeof *rows);
  if (rows == NULL)
    return -1;
  double dt = interval (old, new);
  for (size_t i = 0; i < np; i++)
    {
      struct rrow *w = &rows[m];
      diff_pair (d, s, i, &w->p);
      if (!w->p.have[1])
        {
          left++; /* gone from the list: nothing to measure */
          continue;
        }
      if (!diff_pair_matches (d, s, i, o->filter))
        continue;
      w->pair = i;
      int known = s == SCR_SUBPATHS
                      ? window_delta (old, new, &w->p, &w->delta, &w->err)
                  : s == SCR_PATHS
                      ? window_path_delta (old, new, &w->p, &w->delta,
                                           &w->err)
                      : 0;
      if (!known)
        {
          w->delta = ospview_sat (w->p.est[1] - w->p.est[0]);
          w->err = ospview_sat (hypot (w->p.err[0], w->p.err[1]));
        }
      w->within = fabs (w->delta) <= w->err;
      w->fresh = old != NULL && !w->p.have[0];
      within += (size_t) w->within;
      m++;
    }
  struct rsort rs = { o->sort == SORT_NAME || o->sort == SORT_LENGTH
                          ? o->sort
                          : SORT_RANK,
                      o->reverse };
  ospview_sort_r (rows, m, sizeof *rows, rrow_cmp, &rs);

  double den = ospview_sat (total (new, s, d) - total (old, s, d));
  char dts[32];
  span (dts, sizeof dts, dt);
  int rc = -1;
  if (scr_set_str (&t->header, "  %14s %14s %14s %7s %5s  %s", "in interval",
           "+/- 95%", "per second", "share", "len",
           s == SCR_FUNCTIONS ? "function" : "path")
      != 0)
    goto out;
  t->path_col = strlen (t->header) - (s == SCR_FUNCTIONS ? 8 : 4);
  t->total = np - left;
  for (size_t i = 0; i < m; i++)
    {
      if (o->top && t->n >= o->top)
        break;
      const struct rrow *w = &rows[i];
      char a[OSPVIEW_NUM], b[OSPVIEW_NUM], c[OSPVIEW_NUM], e[OSPVIEW_NUM + 8],
          len[16] = "";
      double rate = dt > 0 ? ospview_sat (w->delta / dt) : 0;
      if (w->err > 0)
        snprintf (e, sizeof e, "+/- %s", ospview_num (c, sizeof c, w->err, 0));
      else
        snprintf (e, sizeof e, "exact");
      if (s != SCR_FUNCTIONS)
        snprintf (len, sizeof len, "%u", w->p.len);
      char sh[OSPVIEW_NUM];
      if (den > 0)
        ospview_pct (sh, sizeof sh, w->delta / den, 2);
      else
        snprintf (sh, sizeof sh, "-");
      char *text = NULL;
      if (scr_set_str (&text, "%c %14s %14s %14s %7s %5s  %s",
               w->within ? '~' : w->fresh ? '+' : ' ',
               ospview_num (a, sizeof a, w->delta, 0), e,
               ospview_num (b, sizeof b, rate, 1), sh, len, w->p.brief)
          != 0)
        goto out;
      if (ospview_grow (&t->rows, &t->cap, t->n + 1, sizeof *t->rows, 64)
          != 0)
        {
          free (text);
          goto out;
        }
      struct scr_row *r = &t->rows[t->n++];
      memset (r, 0, sizeof *r);
      r->text = text;
      r->key = w->p.key;
      r->index = pairs ? (uint64_t) w->pair : w->p.index;
    }
  char gone[64] = "";
  if (left)
    snprintf (gone, sizeof gone, "; %zu left the list", left);
  if (scr_set_str (&t->title, "%s %s %s (%zu of %zu; %zu within error ~%s)",
           what_rows[s], what, dts, t->n, m, within, gone)
      != 0)
    goto out;
  if (t->n == 0
      && scr_set_str (&t->note, "%s",
              np == 0 ? "no rows in this interval"
                      : "no row matches the filter")
             != 0)
    goto out;
  rc = 0;
out:
  free (rows);
  if (rc != 0)
    scr_table_free (t);
  return rc;
}

int
recent_table (struct scr_table *t, const struct diff *d,
              const struct view *old, const struct view *new,
              enum scr_screen s, const struct scr_opts *o, const char *what)
{
  return table (t, d, old, new, s, o, what, 0);
}

int
recent_table_pairs (struct scr_table *t, const struct diff *d,
                    const struct view *old, const struct view *new,
                    enum scr_screen s, const struct scr_opts *o,
                    const char *what)
{
  return table (t, d, old, new, s, o, what, 1);
}

int
recent_build (struct scr_table *t, const struct view *old,
              const struct view *new, enum scr_screen s,
              const struct scr_opts *o, const char *what)
{
  struct diff *d = diff_views (old, new, 1u << s);
  if (d == NULL)
    {
      memset (t, 0, sizeof *t);
      return -1;
    }
  int rc = recent_table (t, d, old, new, s, o, what);
  diff_release (d);
  return rc;
}

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
 * Honest intervals: the delta of two sampled estimates is uncertain by
 * both their errors.  The 95% half-widths are combined in quadrature,
 * sqrt (a^2 + b^2): conservative, since both estimates rest on the older
 * samples (the true error of the difference is smaller when the two are
 * positively correlated).  A row whose delta is within that error is
 * marked '~' and listed after the rows whose work is established, whatever
 * the sort; a row's delta may then be negative (an estimate can move
 * down).  A row new in the list (not in the older view) is counted from 0:
 * below the hot-list's threshold its earlier count was small but not
 * known, which the error does not cover; it is marked '+'.  Rows that left
 * the list cannot be measured and are only counted in the title.
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
      w->delta = ospview_sat (w->p.est[1] - w->p.est[0]);
      w->err = ospview_sat (hypot (w->p.err[0], w->p.err[1]));
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
  if (scr_set_str (&t->header, "  %14s %14s %12s %7s %5s  %s", "in interval",
           "per second", "+/- 95%", "share", "len",
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
        snprintf (e, sizeof e, "+/- %s",
                  ospview_num (c, sizeof c,
                               dt > 0 ? ospview_sat (w->err / dt) : 0, 0));
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
      if (scr_set_str (&text, "%c %14s %14s %12s %7s %5s  %s",
               w->within ? '~' : w->fresh ? '+' : ' ',
               ospview_num (a, sizeof a, w->delta, 0),
               ospview_num (b, sizeof b, rate, 1), e, sh, len, w->p.brief)
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

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tui.c - ospview's terminal UI (ncursesw): windows, drawing, the loop.
 *
 * Why it looks like this:
 *   - Everything shown comes from screens.c and status.c as rows of text
 *     (the batch output prints the same rows), and every key goes through
 *     the table of keys.c; this file keeps the data, the layout and the
 *     drawing.
 *   - Data: each tick copies the newest view into the spare of two
 *     buffers and validates it; only a good view replaces the shown one,
 *     so a torn or bad read leaves the last good view on screen with the
 *     reason in the bottom bar.  When the program ends, the segment stays
 *     mapped: the last (exit) view stays, marked EXITED.
 *   - Selection by identity: every row carries a key stable across views
 *     (screens.c).  After a refresh the cursor goes back to the row with
 *     the same key however the ranking moved (varnishstat and htop do the
 *     same); the list scrolls only when that row would leave the screen
 *     (keeping the row on its screen line instead would scroll the top
 *     rows away as soon as the selected row climbs).  Each screen keeps
 *     its own cursor, sort and open forest nodes.
 *   - Timing: wtimeout is the time to the next tick (or to the end of a
 *     message), so keys answer at once and reads happen on schedule, never
 *     a busy loop.  Resizing is ncurses' own SIGWINCH handling: KEY_RESIZE
 *     rebuilds the windows (no handler of ours).  SIGINT, SIGTERM and
 *     SIGHUP end the loop and restore the terminal.
 *   - Drawing: four windows (status lines; the screen tabs, title, header
 *     and rows; the detail pane; the bottom bar), each redrawn whole and
 *     sent with wnoutrefresh, then one doupdate.  A terminal under
 *     MIN_COLS x MIN_LINES gets one line saying so.  Colour only when the
 *     terminal has it and NO_COLOR is unset; everything important is also
 *     said in text (PAUSED, EXITED, the '>' of the selected row), so the
 *     UI works in monochrome and in `tmux capture-pane'.
 *   - Text is drawn through one function that decodes the locale's
 *     multibyte characters, counts columns with wcwidth, expands tabs and
 *     shows anything unprintable as '?': names and source lines come from
 *     the program and are not trusted to be printable.
 *   - The detail pane shows the selected row's blocks as steps
 *     (fn() file:first-last, consecutive lines merged as in the rows) and,
 *     when the file can be read from the current directory or by its
 *     absolute path, the source lines themselves (a few files cached).
 *   - A table provider (tui.h; ospview --diff) takes the place of the
 *     source: the tables, status lines and detail lines come from it,
 *     built once and rebuilt only when a choice changes (no ticks).  The
 *     rest (keys, cursor, layout, drawing) is the same code: the few
 *     places that differ test t->prov.
 */
#define _GNU_SOURCE
#include "tui.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#define MIN_COLS 40
#define MIN_LINES 8
#define TOAST_S 1.5
#define OPEN_DEPTH 1           /* forest: roots start open */
#define STEP_LINES 12          /* source lines shown per step at most */
#define OUT_MAX 1024           /* widest line drawn */
#define DEAD_ERRS 100          /* immediate ERRs in a row: no terminal */

enum { P_BAR = 1, P_TAG, P_HEAD }; /* colour pairs */

static volatile sig_atomic_t got_signal;

static void
on_signal (int sig)
{
  got_signal = sig;
}

static double
mono (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* ---- text ---------------------------------------------------------------- */

/* Draw S at W's cursor: its columns [SKIP, SKIP + WIDTH).  Returns the
   columns drawn. */
static int
put_text (WINDOW *w, const char *s, size_t skip, int width)
{
  wchar_t out[OUT_MAX];
  int n = 0, used = 0;
  size_t col = 0, left = strlen (s);
  mbstate_t st;
  memset (&st, 0, sizeof st);
  if (width > OUT_MAX - 8)
    width = OUT_MAX - 8;
  while (left > 0 && used < width)
    {
      wchar_t wc;
      size_t k = mbrtowc (&wc, s, left, &st);
      int cw, reps = 1;
      if (k == (size_t) -1 || k == (size_t) -2 || k == 0)
        {
          wc = L'?';
          k = 1;
          cw = 1;
          memset (&st, 0, sizeof st);
        }
      else if (wc == L'\t')
        {
          wc = L' ';
          reps = 8 - (int) (col % 8);
          cw = 1;
        }
      else if ((cw = wcwidth (wc)) < 0)
        {
          wc = L'?';
          cw = 1;
        }
      s += k;
      left -= k;
      for (int r = 0; r < reps && used < width; r++)
        {
          if (col + (size_t) cw <= skip)
            {
              col += (size_t) cw;
              continue;
            }
          if (col < skip || used + cw > width)
            { /* a wide character cut by an edge: blanks */
              int vis = (int) (col + (size_t) cw - (col < skip ? skip : col));
              for (; vis > 0 && used < width; vis--, used++)
                out[n++] = L' ';
              col += (size_t) cw;
              continue;
            }
          if (cw == 0 && n == 0)
            continue; /* a combining mark with nothing to combine with */
          out[n++] = wc;
          used += cw;
          col += (size_t) cw;
        }
    }
  if (n > 0)
    waddnwstr (w, out, n);
  return used;
}

/* Line Y of W: clear it and draw S from column X, clipped to the window. */
static void
put_line (WINDOW *w, int y, int x, const char *s, size_t skip)
{
  int h, wd;
  getmaxyx (w, h, wd);
  if (y < 0 || y >= h || x >= wd)
    return;
  wmove (w, y, x);
  put_text (w, s, skip, wd - x);
}

/* The first N bytes of S (N < 256), for a row's number columns. */
static const char *
prefix (char *buf, size_t cap, const char *s, size_t n)
{
  if (n >= cap)
    n = cap - 1;
  size_t l = strnlen (s, n);
  memcpy (buf, s, l);
  buf[l] = '\0';
  return buf;
}

void
tui_toast (struct tui *t, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (t->toast, sizeof t->toast, fmt, ap);
  va_end (ap);
  t->toast_until = mono () + TOAST_S;
}

/* ---- the data ------------------------------------------------------------ */

/* Copy the newest view out; keep it if it validates. */
static void
read_view (struct tui *t)
{
  int spare = 1 - t->cur;
  char err[256];
  long len = source_read (t->source, &t->buf[spare], &t->cap[spare], err,
                       sizeof err);
  if (len < 0)
    {
      snprintf (t->problem, sizeof t->problem, "cannot read a view: %s", err);
      return;
    }
  t->problem[0] = '\0';
  if (len == 0)
    return; /* nothing published yet */
  struct view v;
  if (view_parse (&v, t->buf[spare], (size_t) len, err, sizeof err) != 0)
    {
      snprintf (t->problem, sizeof t->problem, "bad view: %s", err);
      return;
    }
  t->view = v;
  t->have_view = 1;
  t->cur = spare;
  /* kept in cumulative mode too: R then shows a recent window at once */
  if (recent_push (&t->recent, &t->view) != 0)
    tui_toast (t, "out of memory: recent mode covers a longer time");
}

static void
build_status (struct tui *t)
{
  scr_table_free (&t->status);
  if (scr_status (&t->status, t->have_view ? &t->view : NULL, &t->live) != 0)
    memset (&t->status, 0, sizeof t->status);
}

/* Paused: the view stays, the liveness (uptime, heartbeat, exited) moves.
   A provider's tables do not change: its status once, no next tick. */
static void
tick (struct tui *t)
{
  if (t->prov)
    {
      scr_table_free (&t->status);
      if (t->prov->status (t->prov->ctx, &t->status) != 0)
        memset (&t->status, 0, sizeof t->status);
      tui_rebuild (t);
      t->next_tick = mono () + 24 * 3600.0;
      return;
    }
  if (!t->paused)
    read_view (t);
  source_live (t->source, &t->live);
  t->live.problem = t->problem;
  if (t->source->kind == SRC_LIVE)
    {
      snprintf (t->window, sizeof t->window, "cumulative");
      if (t->recent_on && t->have_view)
        recent_label (&t->recent, &t->view, t->window, sizeof t->window);
      t->live.window = t->window;
    }
  build_status (t);
  if (!t->paused)
    tui_rebuild (t);
  t->next_tick = mono () + t->delay;
}

void
tui_save (struct tui *t, const char *path)
{
  char err[TUI_PATH_MAX + 128];
  if (!t->have_view)
    tui_toast (t, "nothing to save yet: no view was read");
  else if (snap_save (path, t->buf[t->cur], (size_t) t->view.hdr->size,
                      OSP_SNAP_VIEWER, err, sizeof err)
           != 0)
    tui_toast (t, "%s", err);
  else
    tui_toast (t, "saved %s (view #%llu)", path,
               (unsigned long long) t->view.hdr->seq);
}

void
tui_tick_now (struct tui *t)
{
  t->next_tick = 0;
}

/* ---- rows and the cursor ------------------------------------------------- */

static int
list_rows (const struct tui *t)
{
  return t->list_h > 0 ? t->list_h : 1;
}

/* Keep the selected row inside the rows shown, the last page full. */
static void
clamp_top (const struct tui *t, struct tui_cursor *c)
{
  size_t h = (size_t) list_rows (t), n = t->table.n;
  if (c->top + h > n)
    c->top = n > h ? n - h : 0;
  if (c->sel < c->top)
    c->top = c->sel;
  if (c->sel >= c->top + h)
    c->top = c->sel - h + 1;
}

/* A row the user selected is found again by its key; the list keeps its
   scroll position unless the row left the rows shown.  Until the user
   moves the cursor off the first row (KEYED), it stays on the first row
   whatever that is now: following the row that happened to be first
   would carry the cursor, and the scroll, away from the top as soon as
   another row overtook it. */
static void
restore_selection (struct tui *t, struct tui_cursor *c)
{
  size_t n = t->table.n;
  if (n == 0 || !c->keyed)
    {
      c->sel = c->top = 0;
      return;
    }
  size_t i;
  for (i = 0; i < n && t->table.rows[i].key != c->key; i++)
    ;
  if (i < n)
    c->sel = i;
  else if (c->sel >= n)
    c->sel = n - 1;
  clamp_top (t, c);
  c->key = t->table.rows[c->sel].key;
}

void
tui_rebuild (struct tui *t)
{
  struct tui_cursor *c = &t->cursor[t->screen];
  scr_table_free (&t->table);
  if (!t->have_view && !t->prov)
    return;
  struct scr_opts so;
  memset (&so, 0, sizeof so);
  so.filter = t->filter[0] ? t->filter : NULL;
  so.sort = c->sort;
  so.reverse = c->reverse;
  so.full_paths = t->full_paths;
  so.open_depth = OPEN_DEPTH;
  so.toggled = &c->toggled;
  int rc = t->prov ? t->prov->build (t->prov->ctx, t->screen, &so, &t->table)
           : t->recent_on
               ? recent_build (&t->table, recent_base (&t->recent, &t->view),
                               &t->view, t->screen, &so, "in the last")
               : scr_build (&t->table, &t->view, t->screen, &so);
  if (rc != 0)
    {
      memset (&t->table, 0, sizeof t->table);
      tui_toast (t, "out of memory");
      return;
    }
  restore_selection (t, c);
}

void
tui_select (struct tui *t, long row)
{
  struct tui_cursor *c = &t->cursor[t->screen];
  if (t->table.n == 0)
    return;
  if (row < 0)
    row = 0;
  if ((size_t) row >= t->table.n)
    row = (long) t->table.n - 1;
  if ((size_t) row != c->sel)
    t->detail_top = 0;
  c->sel = (size_t) row;
  c->key = t->table.rows[c->sel].key;
  c->keyed = row > 0; /* back on the first row: it stays on top */
  clamp_top (t, c);
}

int
tui_sort_ok (const struct tui *t, enum scr_sort k)
{
  return t->prov ? t->prov->sort_ok (t->screen, k)
                 : scr_sort_ok (t->screen, k);
}

const char *
tui_sort_name (const struct tui *t, enum scr_sort k)
{
  return t->prov ? t->prov->sort_name (k) : scr_sort_name (k);
}

int
tui_page (const struct tui *t)
{
  return list_rows (t) > 1 ? list_rows (t) - 1 : 1;
}

/* ---- source files -------------------------------------------------------- */

static void
src_free (struct tui_src *s)
{
  free (s->path);
  free (s->dir);
  free (s->text);
  free (s->line);
  memset (s, 0, sizeof *s);
}

/* PATH's text, compiled in S->dir, only when it is the file compiled
   (srctext.c). */
static int
src_load_text (struct tui_src *s, const char *path)
{
  size_t len;
  s->text = src_find (path, s->dir, &s->want, &len, s->why, sizeof s->why);
  return s->text != NULL ? 0 : -1;
}

static void
src_index_lines (struct tui_src *s)
{
  size_t n = 1;
  for (const char *p = s->text; *p; p++)
    n += *p == '\n';
  s->line = malloc (n * sizeof *s->line);
  if (s->line == NULL)
    {
      free (s->text);
      s->text = NULL;
      snprintf (s->why, sizeof s->why, "out of memory");
      return;
    }
  s->nlines = 0;
  s->line[s->nlines++] = 0;
  for (size_t i = 0; s->text[i]; i++)
    if (s->text[i] == '\n' && s->text[i + 1])
      s->line[s->nlines++] = i + 1;
}

/* The cached file PATH with the contents WANT (read now if it is not
   cached: the least recently used entry makes room). */
static struct tui_src *
src_get (struct tui *t, const char *path, const char *dir,
         const struct osp_vfnsrc *want)
{
  struct tui_src *lru = &t->src[0];
  for (int i = 0; i < TUI_NSRC; i++)
    {
      struct tui_src *s = &t->src[i];
      if (s->path && strcmp (s->path, path) == 0 && s->dir
          && strcmp (s->dir, dir) == 0
          && s->want.flags == want->flags && s->want.size == want->size
          && memcmp (s->want.sha256, want->sha256, sizeof want->sha256) == 0)
        {
          s->used = ++t->src_clock;
          return s;
        }
      if (s->used < lru->used)
        lru = s;
    }
  src_free (lru);
  lru->path = strdup (path);
  lru->dir = strdup (dir);
  if (lru->path == NULL || lru->dir == NULL)
    {
      src_free (lru);
      return NULL;
    }
  lru->used = ++t->src_clock;
  lru->want = *want;
  if (src_load_text (lru, path) == 0)
    src_index_lines (lru);
  return lru;
}

/* Line L (1-based) of S into BUF without its newline; NULL if absent. */
static const char *
src_line (const struct tui_src *s, uint32_t l, char *buf, size_t cap)
{
  if (s == NULL || s->text == NULL || l == 0 || l > s->nlines)
    return NULL;
  const char *p = s->text + s->line[l - 1];
  size_t n = strcspn (p, "\r\n");
  if (n >= cap)
    n = cap - 1;
  memcpy (buf, p, n);
  buf[n] = '\0';
  return buf;
}

/* ---- the detail pane's lines --------------------------------------------- */

struct dline
{
  char *s;
  int head; /* a step or title line */
};

struct dlines
{
  struct dline *v;
  size_t n, cap;
};

static void dl_add (struct dlines *d, int head, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));

static void
dl_add (struct dlines *d, int head, const char *fmt, ...)
{
  if (ospview_grow (&d->v, &d->cap, d->n + 1, sizeof *d->v, 32) != 0)
    return;
  va_list ap;
  va_start (ap, fmt);
  char *s = NULL;
  int k = vasprintf (&s, fmt, ap);
  va_end (ap);
  if (k < 0)
    return;
  d->v[d->n].s = s;
  d->v[d->n++].head = head;
}

static void
dl_free (struct dlines *d)
{
  for (size_t i = 0; i < d->n; i++)
    free (d->v[i].s);
  free (d->v);
  memset (d, 0, sizeof *d);
}

/* The statement lines of the N blocks BLOCKS of F (at most MAX of them)
   with their text, or why there is none (said once per file and pane:
   *WARNED). */
static void
dl_source (struct tui *t, struct dlines *d, const struct osp_vfn *f,
           const uint32_t *blocks, size_t n, size_t max,
           const struct tui_src **warned)
{
  const char *path = view_str (&t->view, f->file);
  uint32_t lines[STEP_LINES];
  int more;
  if (max > STEP_LINES)
    max = STEP_LINES;
  size_t nl = src_lines_of (&t->view, blocks, n, lines, max, &more);
  if (nl == 0 || *path == '\0')
    return;
  /* F's index, for its digest (a view strides FUNCS by fn_size) */
  uint32_t fi = (uint32_t) (((const char *) f - (const char *) t->view.fns)
                            / t->view.fn_size);
  struct osp_vfnsrc want;
  src_want (&t->view, &fi, 1, &want);
  struct tui_src *s = src_get (t, path, src_comp_dir (&t->view, fi), &want);
  if (s == NULL || s->text == NULL)
    {
      if (s != NULL && *warned != s)
        dl_add (d, 0, "        (source not shown: %s)", s->why);
      *warned = s;
      return;
    }
  char buf[OUT_MAX];
  for (size_t i = 0; i < nl; i++)
    {
      const char *text = src_line (s, lines[i], buf, sizeof buf);
      if (text == NULL)
        {
          dl_add (d, 0, "%7u  (past the end of %s)", lines[i], path);
          return;
        }
      dl_add (d, 0, "%7u  %s", lines[i], text);
    }
  if (more && max == STEP_LINES)
    dl_add (d, 0, "        ... more lines");
}

struct dstep
{
  uint32_t fi, first, last;
  uint32_t at, n; /* its blocks: v->ids[at, at + n) of the row's */
};

/* The blocks IDS[at, at + len) as steps, each with its source lines
   (consecutive blocks of a function whose lines continue each other are
   one step, as in the rows). */
static void
dl_path (struct tui *t, struct dlines *d, uint64_t at, uint32_t len)
{
  const struct view *v = &t->view;
  const struct tui_src *warned = NULL;
  struct dstep st = { UINT32_MAX, 0, 0, 0, 0 };
  for (uint32_t i = 0; i <= len; i++)
    {
      const struct osp_vblock *b
          = i < len ? view_block (v, v->ids[at + i]) : NULL;
      if (b != NULL && b->fn == st.fi
          && (b->first_line == 0
              || (st.first != 0 && b->first_line >= st.first
                  && b->first_line <= st.last + 1)))
        {
          if (b->last_line > st.last)
            st.last = b->last_line;
          st.n++;
          continue;
        }
      if (st.fi != UINT32_MAX)
        {
          const struct osp_vfn *f = view_fn (v, st.fi);
          const char *file = view_str (v, f->file);
          if (st.first == 0)
            dl_add (d, 1, "%s() %s (no line)", view_str (v, f->name), file);
          else if (st.last == st.first)
            dl_add (d, 1, "%s() %s:%u", view_str (v, f->name), file,
                    st.first);
          else
            dl_add (d, 1, "%s() %s:%u-%u", view_str (v, f->name), file,
                    st.first, st.last);
          dl_source (t, d, f, v->ids + at + st.at, st.n, STEP_LINES,
                     &warned);
        }
      if (b == NULL)
        break;
      st.at = i;
      st.n = 1;
      st.fi = b->fn;
      st.first = b->first_line;
      st.last = b->last_line > b->first_line ? b->last_line : b->first_line;
    }
}

/* A function: its blocks with their lines, counts and first source line. */
static void
dl_function (struct tui *t, struct dlines *d, const struct osp_vfn *f)
{
  const struct view *v = &t->view;
  const struct tui_src *warned = NULL;
  dl_add (d, 1, "%s() %s:%u  %u blocks", view_str (v, f->name),
          view_str (v, f->file), f->first_line, f->nblocks);
  for (uint32_t i = 0; i < f->nblocks && f->block0 + i < v->nblocks; i++)
    {
      const struct osp_vblock *b = view_block (v, f->block0 + i);
      char cnt[32] = "";
      if (b->count != OSP_VIEW_NONE)
        snprintf (cnt, sizeof cnt, "  entered %llu",
                  (unsigned long long) b->count);
      /* its statement lines (a range in an older view), or none */
      uint32_t bi = f->block0 + i, lines[6];
      int more;
      size_t nl = src_lines_of (v, &bi, 1, lines, 6, &more);
      char where[96] = "(no line)";
      size_t w = 0;
      for (size_t k = 0; k < nl && w < sizeof where; k++)
        {
          int m = snprintf (where + w, sizeof where - w, "%s%u",
                            k ? ", " : nl > 1 || more ? "lines " : "line ",
                            lines[k]);
          w += m > 0 ? (size_t) m : 0;
        }
      if (more && w < sizeof where)
        snprintf (where + w, sizeof where - w, ", ...");
      if (v->blines == NULL && b->first_line != 0
          && b->last_line > b->first_line)
        snprintf (where, sizeof where, "lines %u-%u", b->first_line,
                  b->last_line);
      dl_add (d, 1, "block %u  %s%s", b->block, where, cnt);
      dl_source (t, d, f, &bi, 1, 1, &warned);
    }
}

static void
dl_sink (void *d, int head, const char *line)
{
  dl_add (d, head, "%s", line);
}

#define RANKED_SIZE 96
/* A row's ranked state for its title line into BUF: "ranked R" ("ranked"
   for RANK 0: a forest node, which keeps its tree's order), or why it is
   not (libosprt/collect/shares.c). */
static void
ranked_text (char *buf, size_t size, int ranked, uint32_t rank)
{
  if (!ranked)
    snprintf (buf, size, "not ranked (too few samples: its 95%% interval is "
              "wider than its estimate)");
  else if (rank == 0)
    snprintf (buf, size, "ranked");
  else
    snprintf (buf, size, "ranked %u", rank);
}

static void
detail_lines (struct tui *t, struct dlines *d)
{
  const struct view *v = &t->view;
  if ((!t->have_view && !t->prov) || t->table.n == 0)
    return;
  const struct scr_row *r = &t->table.rows[t->cursor[t->screen].sel];
  if (t->prov)
    {
      t->prov->detail (t->prov->ctx, t->screen, r, dl_sink, d);
      return;
    }
  switch (t->screen)
    {
    case SCR_SUBPATHS:
      {
        const struct osp_vsubpath *s = view_subpath (v, r->index);
        char rk[RANKED_SIZE];
        ranked_text (rk, sizeof rk, view_subpath_ranked (v, r->index),
                     s->rank);
        dl_add (d, 1, "subpath %s: %u blocks", rk, s->len);
        dl_path (t, d, s->ids, s->len);
      }
      break;
    case SCR_PATHS:
      {
        const struct osp_vpath *p = view_path (v, r->index);
        char rk[RANKED_SIZE];
        ranked_text (rk, sizeof rk, view_path_ranked (v, r->index), p->rank);
        dl_add (d, 1, "Ball-Larus path %llu of %s(), %s: %u blocks, %u "
                "branches", (unsigned long long) p->id,
                view_str (v, view_fn (v, p->fn)->name), rk, p->len,
                p->branches);
        dl_path (t, d, p->ids, p->len);
      }
      break;
    case SCR_FOREST:
      {
        const struct osp_vforest *f = view_forest (v, r->index);
        char rk[RANKED_SIZE];
        ranked_text (rk, sizeof rk, view_forest_ranked (v, r->index), 0);
        dl_add (d, 1, "forest node at depth %u, %s: path %llu of %s(), %u "
                "blocks", f->depth, rk, (unsigned long long) f->id,
                view_str (v, view_fn (v, f->fn)->name), f->len);
        dl_path (t, d, f->ids, f->len);
      }
      break;
    default:
      dl_function (t, d, view_fn (v, r->index));
    }
}

/* ---- the windows --------------------------------------------------------- */

static void
drop_windows (struct tui *t)
{
  WINDOW **w[] = { &t->w_status, &t->w_list, &t->w_detail, &t->w_bar };
  for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
    if (*w[i])
      {
        delwin (*w[i]);
        *w[i] = NULL;
      }
}

static int
status_height (const struct tui *t)
{
  return t->lines >= 16 ? 3 : 1;
}

static int
detail_height (const struct tui *t)
{
  if (!t->detail || t->lines < 20)
    return 0;
  int h = t->lines / 3;
  return h > 16 ? 16 : h;
}

void
tui_layout (struct tui *t)
{
  drop_windows (t);
  getmaxyx (stdscr, t->lines, t->cols);
  t->too_small = t->lines < MIN_LINES || t->cols < MIN_COLS;
  if (t->too_small)
    {
      t->list_h = 1;
      t->w_bar = newwin (0, 0, 0, 0);
    }
  else
    {
      int sh = status_height (t), dh = detail_height (t);
      int lh = t->lines - sh - dh - 1;
      t->w_status = newwin (sh, t->cols, 0, 0);
      t->w_list = newwin (lh, t->cols, sh, 0);
      if (dh > 0)
        t->w_detail = newwin (dh, t->cols, sh + lh, 0);
      t->w_bar = newwin (1, t->cols, t->lines - 1, 0);
      t->list_h = lh - 2; /* the tabs and the header */
    }
  if (t->w_bar == NULL
      || (!t->too_small
          && (t->w_status == NULL || t->w_list == NULL
              || (detail_height (t) > 0 && t->w_detail == NULL))))
    {
      t->quit = 1; /* out of memory: nothing can be drawn */
      return;
    }
  keypad (t->w_bar, TRUE);
  clamp_top (t, &t->cursor[t->screen]);
}

static void
on (WINDOW *w, const struct tui *t, int pair, attr_t mono_attr)
{
  if (t->color)
    wattrset (w, COLOR_PAIR (pair) | (pair == P_TAG ? A_BOLD : 0));
  else
    wattrset (w, mono_attr);
}

/* Line Y of W as a bar: the bar's colours (or reverse video) over the
   whole width, the cursor at its start. */
static void
bar_fill (const struct tui *t, WINDOW *w, int y)
{
  wmove (w, y, 0);
  wclrtoeol (w);
  if (t->color)
    mvwchgat (w, y, 0, -1, A_NORMAL, P_BAR, NULL);
  else
    mvwchgat (w, y, 0, -1, A_REVERSE, 0, NULL);
  wmove (w, y, 0);
}

/* ---- drawing ------------------------------------------------------------- */

static void
draw_status (struct tui *t)
{
  WINDOW *w = t->w_status;
  werase (w);
  int h = getmaxy (w);
  for (int i = 0; i < h && (size_t) i < t->status.n; i++)
    put_line (w, i, 0, t->status.rows[i].text, 0);
}

/* The tabs, the table's title, the sort: one bar. */
static void
draw_tabs (struct tui *t)
{
  WINDOW *w = t->w_list;
  bar_fill (t, w, 0);
  on (w, t, P_BAR, A_REVERSE);
  int x = 0;
  char buf[600];
  for (int s = 0; s < SCR_NSCREENS && x < t->cols; s++)
    {
      int here = s == (int) t->screen;
      snprintf (buf, sizeof buf, here ? "[%d %s]" : " %d %s ", s + 1,
                scr_screen_name ((enum scr_screen) s));
      if (here)
        wattron (w, A_BOLD);
      x += put_text (w, buf, 0, t->cols - x);
      if (here)
        wattroff (w, A_BOLD);
    }
  const struct tui_cursor *c = &t->cursor[t->screen];
  snprintf (buf, sizeof buf, "  %s  sort %s%s",
            t->table.title ? t->table.title
            : t->have_view || t->prov ? ""
            : t->problem[0]           ? "no view to show"
                                      : "waiting for the first view",
            tui_sort_name (t, c->sort), c->reverse ? " reversed" : "");
  put_text (w, buf, 0, t->cols - x);
  wattrset (w, A_NORMAL);
}

/* ---- narrow terminals ---------------------------------------------------- */

/* Why: the path (or function) column is the only one that names code, and
   it comes last; a narrow terminal would show the numbers and cut it off.
   Below this many columns for it, the number columns are abbreviated
   (120000 -> 120K) and the minor ones dropped until it has them. */
#define NARROW_PATH 30

/* How much a number column matters when room is short (higher stays
   longer); the column sorted by always stays. */
static int
column_rank (const char *label, size_t n)
{
  static const struct { const char *name; int rank; } ranks[] = {
    { "work", 10 }, { "estimate", 9 }, { "share", 8 }, { "execs", 8 },
    { "rank", 6 }, { "calls", 5 }, { "subpaths", 4 }, { "paths", 4 },
    { "len", 3 }, { "branches", 2 },
  };
  if (n >= 3 && strncmp (label, "+/-", 3) == 0)
    return 1;
  for (size_t i = 0; i < sizeof ranks / sizeof ranks[0]; i++)
    if (strlen (ranks[i].name) == n && strncmp (label, ranks[i].name, n) == 0)
      return ranks[i].rank;
  return 5;
}

/* S[FROM, TO) without its blanks, a whole number of 5 digits or more (also
   after "+/- ") abbreviated to 3 figures and K, M, G, T. */
static void
cell (char *out, size_t cap, const char *s, size_t from, size_t to)
{
  size_t len = strlen (s);
  if (to > len)
    to = len;
  while (from < to && s[from] == ' ')
    from++;
  while (to > from && s[to - 1] == ' ')
    to--;
  if (from >= to)
    {
      out[0] = '\0';
      return;
    }
  size_t pre = to - from > 4 && strncmp (s + from, "+/- ", 4) == 0 ? 4 : 0;
  size_t d = from + pre;
  while (d < to && s[d] >= '0' && s[d] <= '9')
    d++;
  if (d != to || to - from - pre < 5)
    {
      snprintf (out, cap, "%.*s", (int) (to - from), s + from);
      return;
    }
  double v = strtod (s + from + pre, NULL);
  const char *unit = "KMGT";
  v /= 1000.0;
  while (v >= 999.5 && unit[1])
    {
      v /= 1000.0;
      unit++;
    }
  snprintf (out, cap, "%.*s%.*f%c", (int) pre, s + from, v < 9.95 ? 1 : 0,
            v, *unit);
}

/* The number columns of TB: FROM[k], TO[k] for up to MAX of them, found
   as the gutters blank in the header and every row (the numbers are
   right-aligned under their titles).  Their number. */
static int
find_columns (const struct scr_table *tb, size_t *from, size_t *to, int max)
{
  size_t pc = tb->path_col;
  if (tb->header == NULL || pc == 0 || pc >= 256)
    return 0;
  char blank[256];
  memset (blank, 1, pc);
  for (size_t r = 0; r <= tb->n; r++)
    {
      const char *s = r == 0 ? tb->header : tb->rows[r - 1].text;
      for (size_t i = 0; i < pc && s[i]; i++)
        if (s[i] != ' ')
          blank[i] = 0;
    }
  int n = 0;
  for (size_t i = 0; i < pc && n < max;)
    {
      while (i < pc && blank[i])
        i++;
      if (i >= pc)
        break;
      from[n] = i;
      while (i < pc && !blank[i])
        i++;
      to[n++] = i;
    }
  return n;
}

/* Whether the screen's column titled like sort key K has rows and no
   value in any ("-" or blank: calls outside mode=blocks). */
static int
column_empty (const struct tui *t, enum scr_sort k)
{
  const struct scr_table *tb = &t->table;
  size_t from[16], to[16];
  int n = find_columns (tb, from, to, 16);
  const char *name = tui_sort_name (t, k);
  char buf[64];
  for (int i = 0; i < n; i++)
    {
      cell (buf, sizeof buf, tb->header, from[i], to[i]);
      if (strcmp (buf, name) != 0)
        continue;
      for (size_t r = 0; r < tb->n; r++)
        {
          cell (buf, sizeof buf, tb->rows[r].text, from[i], to[i]);
          if (buf[0] != '\0' && strcmp (buf, "-") != 0)
            return 0;
        }
      return tb->n > 0;
    }
  return 0;
}

int
tui_sort_offered (const struct tui *t, enum scr_sort k)
{
  return tui_sort_ok (t, k) && !column_empty (t, k);
}

/* Plan the number columns for this width: none (t->narrow.n = 0) when
   the path column has room; else the columns (found as the gutters blank
   in the header and every row, the numbers being right-aligned), the
   least important dropped until the rest, abbreviated, fit. */
static void
plan_columns (struct tui *t)
{
  struct tui_narrow *nw = &t->narrow;
  const struct scr_table *tb = &t->table;
  size_t pc = tb->path_col;
  int want = t->cols >= 2 * NARROW_PATH ? NARROW_PATH : t->cols / 2;
  nw->n = 0;
  if ((int) pc + 1 + want <= t->cols)
    return;
  struct { size_t from, to; int width, rank; } c[16];
  size_t from[16], to[16];
  int n = find_columns (tb, from, to, 16);
  for (int k = 0; k < n; k++)
    {
      c[k].from = from[k];
      c[k].to = to[k];
    }
  const char *hd = tb->header;
  const char *sorted = tui_sort_name (t, t->cursor[t->screen].sort);
  for (int k = 0; k < n; k++)
    {
      char buf[64];
      cell (buf, sizeof buf, hd, c[k].from, c[k].to);
      size_t l = strlen (buf);
      c[k].rank = strcmp (buf, sorted) == 0 ? 100 : column_rank (buf, l);
      c[k].width = (int) l;
      for (size_t r = 0; r < tb->n; r++)
        {
          cell (buf, sizeof buf, tb->rows[r].text, c[k].from, c[k].to);
          if ((int) strlen (buf) > c[k].width)
            c[k].width = (int) strlen (buf);
        }
    }
  int room = t->cols - 1 - want, used = 0;
  for (int k = 0; k < n; k++)
    used += c[k].width + 1;
  while (used > room && n > 0)
    {
      int low = 0;
      for (int k = 1; k < n; k++)
        if (c[k].rank < c[low].rank)
          low = k;
      used -= c[low].width + 1;
      memmove (&c[low], &c[low + 1], (size_t) (n - low - 1) * sizeof c[0]);
      n--;
    }
  for (int k = 0; k < n; k++)
    {
      nw->col[k].from = c[k].from;
      nw->col[k].to = c[k].to;
      nw->col[k].width = c[k].width;
    }
  nw->n = n;
  if (n == 0)
    nw->n = -1; /* no number fits: the path column alone */
}

/* The number columns of S as the plan shows them (or as built). */
static const char *
numbers (const struct tui *t, char *buf, size_t cap, const char *s)
{
  const struct tui_narrow *nw = &t->narrow;
  if (nw->n == 0)
    return prefix (buf, cap, s, t->table.path_col);
  size_t k = 0;
  buf[0] = '\0';
  for (int i = 0; i < nw->n && k + 1 < cap; i++)
    {
      char c[64];
      cell (c, sizeof c, s, nw->col[i].from, nw->col[i].to);
      k += (size_t) snprintf (buf + k, cap - k, "%*s ", nw->col[i].width, c);
    }
  if (k < cap && k > 0)
    snprintf (buf + k, cap - k, " ");
  return buf;
}

static void
draw_row (struct tui *t, int y, const struct scr_row *r, int selected)
{
  WINDOW *w = t->w_list;
  char num[256];
  size_t pc = t->table.path_col;
  wmove (w, y, 0);
  waddch (w, selected ? '>' : ' ');
  int x = 1 + put_text (w, numbers (t, num, sizeof num, r->text), 0,
                        t->cols - 1);
  if (strlen (r->text) > pc && x < t->cols)
    put_text (w, r->text + pc, t->hscroll, t->cols - x);
  if (selected)
    mvwchgat (w, y, 0, -1, A_REVERSE, 0, NULL);
}

static void
draw_list (struct tui *t)
{
  WINDOW *w = t->w_list;
  const struct tui_cursor *c = &t->cursor[t->screen];
  werase (w);
  draw_tabs (t);
  plan_columns (t);
  char num[256];
  if (t->table.header)
    {
      on (w, t, P_HEAD, A_BOLD);
      wmove (w, 1, 1);
      int x = 1 + put_text (w, numbers (t, num, sizeof num, t->table.header),
                            0, t->cols - 1);
      if (strlen (t->table.header) > t->table.path_col && x < t->cols)
        put_text (w, t->table.header + t->table.path_col, t->hscroll,
                  t->cols - x);
      wattrset (w, A_NORMAL);
    }
  if (t->table.n == 0)
    {
      char note[400];
      snprintf (note, sizeof note, "  (%s)",
                t->table.note ? t->table.note
                : !t->have_view && !t->prov
                    ? (t->problem[0]    ? t->problem /* e.g. a writer stuck
                                                        mid-write: as -b says */
                       : t->live.waiting ? t->live.waiting
                                         : "no profile published yet")
                : t->filter[0]  ? "no row matches the filter"
                                : "nothing to show");
      put_line (w, 2, 0, note, 0);
      return;
    }
  for (int i = 0; i < t->list_h && c->top + (size_t) i < t->table.n; i++)
    draw_row (t, 2 + i, &t->table.rows[c->top + (size_t) i],
              c->top + (size_t) i == c->sel);
}

static void
draw_detail (struct tui *t)
{
  WINDOW *w = t->w_detail;
  werase (w);
  int h = getmaxy (w);
  struct dlines d = { 0 };
  detail_lines (t, &d);
  size_t room = h > 1 ? (size_t) h - 1 : 0;
  if (t->detail_top + room > d.n)
    t->detail_top = d.n > room ? d.n - room : 0;
  bar_fill (t, w, 0);
  on (w, t, P_BAR, A_REVERSE);
  char title[160];
  snprintf (title, sizeof title, " detail: %zu-%zu of %zu lines ([ ] scroll, "
            "d hide)", d.n ? t->detail_top + 1 : 0,
            t->detail_top + room < d.n ? t->detail_top + room : d.n, d.n);
  put_line (w, 0, 0, title, 0);
  wattrset (w, A_NORMAL);
  for (size_t i = 0; i < room && t->detail_top + i < d.n; i++)
    {
      const struct dline *l = &d.v[t->detail_top + i];
      if (l->head)
        on (w, t, P_HEAD, A_BOLD);
      put_line (w, 1 + (int) i, 1, l->s, 0);
      wattrset (w, A_NORMAL);
    }
  dl_free (&d);
}

/* A tag in the bar (PAUSED, EXITED): stands out in colour and without. */
static int
draw_tag (struct tui *t, const char *tag)
{
  on (t->w_bar, t, P_TAG, A_BOLD | A_UNDERLINE);
  int x = put_text (t->w_bar, tag, 0, t->cols - getcurx (t->w_bar));
  wattrset (t->w_bar, A_NORMAL);
  waddch (t->w_bar, ' ');
  return x + 1;
}

static void
bar_text (struct tui *t, char *buf, size_t n)
{
  const struct tui_cursor *c = &t->cursor[t->screen];
  int k = 0;
  if (t->prompt)
    k = snprintf (buf, n, "filter: %s_   (Enter keeps it, Esc cancels)",
                  t->filter);
  else if (t->save_prompt)
    k = snprintf (buf, n, "save snapshot as: %s_   (Enter saves, Esc "
                  "cancels)", t->save_path);
  else if (t->toast[0] && mono () < t->toast_until)
    k = snprintf (buf, n, "%s", t->toast);
  else if (t->problem[0])
    k = snprintf (buf, n, "%s", t->problem);
  else
    {
      k = snprintf (buf, n, "row %zu/%zu", t->table.n ? c->sel + 1 : 0,
                    t->table.n);
      if (t->filter[0])
        k += snprintf (buf + k, n - (size_t) k, "  filter \"%s\"", t->filter);
      if (t->hscroll)
        k += snprintf (buf + k, n - (size_t) k, "  column +%zu", t->hscroll);
      if (!t->prov)
        k += snprintf (buf + k, n - (size_t) k, "  every %.1fs", t->delay);
      k += snprintf (buf + k, n - (size_t) k,
                     "   ? help  / filter  Tab screens  q quit");
    }
  (void) k;
}

static void
draw_bar (struct tui *t)
{
  WINDOW *w = t->w_bar;
  werase (w);
  wmove (w, 0, 0);
  if (t->paused)
    draw_tag (t, "PAUSED");
  if (t->prov)
    draw_tag (t, t->prov->tag);
  else if (t->live.snapshot)
    draw_tag (t, "SNAPSHOT");
  else if (scr_exited (&t->live))
    draw_tag (t, "EXITED");
  char buf[TUI_PATH_MAX + 400];
  bar_text (t, buf, sizeof buf);
  put_text (w, buf, 0, t->cols - getcurx (w));
}

static void
draw_help (struct tui *t)
{
  int top = status_height (t), h = t->lines - top - 1;
  WINDOW *w = newwin (h, t->cols, top, 0);
  if (w == NULL)
    return;
  size_t n = keys_help_lines ();
  if (t->help_top + (size_t) h > n)
    t->help_top = n > (size_t) h ? n - (size_t) h : 0;
  char line[256];
  for (int i = 0; i < h && keys_help_line (t, t->help_top + (size_t) i, line,
                                           sizeof line); i++)
    {
      if (t->help_top + (size_t) i == 0)
        wattrset (w, A_BOLD);
      put_line (w, i, 2, line, 0);
      wattrset (w, A_NORMAL);
    }
  wnoutrefresh (w);
  delwin (w);
}

/* Short lines, so that they fit where the rest does not. */
static void
draw_too_small (struct tui *t)
{
  char size[64];
  snprintf (size, sizeof size, "%dx%d, need %dx%d", t->cols, t->lines,
            MIN_COLS, MIN_LINES);
  const char *msg[] = { "ospview:", "terminal too small", size, "q quits" };
  werase (t->w_bar);
  for (int i = 0; i < 4; i++)
    put_line (t->w_bar, i, 0, msg[i], 0);
  wnoutrefresh (t->w_bar);
}

static void
send (WINDOW *w)
{
  if (w)
    {
      touchwin (w);
      wnoutrefresh (w);
    }
}

static void
draw (struct tui *t)
{
  if (t->too_small)
    draw_too_small (t);
  else
    {
      draw_status (t);
      draw_list (t);
      if (t->w_detail)
        draw_detail (t);
      draw_bar (t);
      send (t->w_status);
      send (t->w_list);
      send (t->w_detail);
      send (t->w_bar);
      if (t->help)
        draw_help (t);
    }
  doupdate ();
}

/* ---- the terminal -------------------------------------------------------- */

static void
catch_signals (void)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal; /* no SA_RESTART: getch returns */
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
  sigaction (SIGHUP, &sa, NULL);
}

static void
start_colors (struct tui *t)
{
  const char *nc = getenv ("NO_COLOR");
  t->color = has_colors () && (nc == NULL || *nc == '\0');
  if (!t->color)
    return;
  start_color ();
  use_default_colors ();
  init_pair (P_BAR, COLOR_BLACK, COLOR_CYAN);
  init_pair (P_TAG, COLOR_WHITE, COLOR_RED);
  init_pair (P_HEAD, COLOR_YELLOW, -1);
}

/* Whether the terminal newterm set up can address the cursor ("cup").
   Why: ncurses accepts a terminal without it (TERM=dumb, a printer) and
   then draws every line of the UI on one line; such a terminal is refused
   as an unknown TERM is.  Checked before anything is drawn. */
static int
can_address (void)
{
  const char *cup = tigetstr ((char *) "cup");
  return cup != NULL && cup != (const char *) -1;
}

static SCREEN *
term_start (struct tui *t)
{
  if (!isatty (STDIN_FILENO) || !isatty (STDOUT_FILENO))
    {
      fprintf (stderr, "ospview: the interactive mode needs a terminal; "
               "use -b N for text\n");
      return NULL;
    }
  setlocale (LC_ALL, "");
  const char *term = getenv ("TERM");
  catch_signals ();
  SCREEN *sc = newterm (NULL, stdout, stdin);
  if (sc == NULL)
    {
      fprintf (stderr, "ospview: cannot drive the terminal (TERM=%s); use -b "
               "N for text\n", term ? term : "unset");
      return NULL;
    }
  if (!can_address ())
    {
      endwin ();
      delscreen (sc);
      fprintf (stderr, "ospview: cannot drive the terminal (TERM=%s: no "
               "cursor addressing); use -b N for text\n",
               term ? term : "unset");
      return NULL;
    }
  cbreak ();
  noecho ();
  nonl ();
  curs_set (0);
  set_escdelay (25);
  start_colors (t);
  return sc;
}

/* ---- the loop ------------------------------------------------------------ */

static int
next_timeout_ms (const struct tui *t)
{
  double now = mono (), until = t->next_tick;
  if (t->toast[0] && t->toast_until > now && t->toast_until < until)
    until = t->toast_until;
  double ms = (until - now) * 1000.0 + 1.0;
  return ms < 0 ? 0 : ms > 60000 ? 60000 : (int) ms;
}

static void
handle_key (struct tui *t, int ch)
{
  if (ch == KEY_RESIZE)
    tui_layout (t);
  else if (t->prompt)
    keys_prompt (t, ch);
  else if (t->save_prompt)
    keys_save_prompt (t, ch);
  else if (t->help)
    keys_help (t, ch);
  else if (!keys_dispatch (t, ch))
    tui_toast (t, "unbound key: press ? for the keys");
}

/* Wait for a key until the next tick; 0 when the terminal is gone. */
static int
wait_key (struct tui *t, int *errs)
{
  int ms = next_timeout_ms (t);
  double t0 = mono ();
  wtimeout (t->w_bar, ms);
  int ch = wgetch (t->w_bar);
  if (ch != ERR)
    {
      *errs = 0;
      handle_key (t, ch);
    }
  else if (ms > 20 && (mono () - t0) * 1000.0 < ms / 2 && !got_signal)
    return ++*errs < DEAD_ERRS;
  return 1;
}

static void
init_state (struct tui *t, const struct source *s,
            const struct tui_provider *p, const struct ospview_opts *o)
{
  memset (t, 0, sizeof *t);
  t->source = s;
  t->prov = p;
  t->delay = o->delay < 0.1 ? 0.1 : o->delay;
  t->detail = 1;
  for (int i = 0; i < SCR_NSCREENS; i++)
    {
      int ok = p ? p->sort_ok ((enum scr_screen) i, o->sort)
                 : scr_sort_ok ((enum scr_screen) i, o->sort);
      t->cursor[i].sort = ok ? o->sort : SORT_RANK;
      t->cursor[i].reverse = o->reverse;
    }
  for (int i = 0; i < SCR_NSCREENS; i++)
    if (o->screens >> i & 1)
      {
        t->screen = (enum scr_screen) i;
        break;
      }
  if (o->filter)
    snprintf (t->filter, sizeof t->filter, "%s", o->filter);
  recent_init (&t->recent, o->recent);
  t->recent_on = o->recent > 0 && s != NULL && s->kind == SRC_LIVE;
}

static void
free_state (struct tui *t)
{
  drop_windows (t);
  scr_table_free (&t->table);
  scr_table_free (&t->status);
  for (int i = 0; i < SCR_NSCREENS; i++)
    scr_keyset_free (&t->cursor[i].toggled);
  for (int i = 0; i < TUI_NSRC; i++)
    src_free (&t->src[i]);
  free (t->buf[0]);
  free (t->buf[1]);
  recent_free (&t->recent);
}

/* The UI over the source S or the provider P. */
static int
run (const struct source *s, const struct tui_provider *p,
     const struct ospview_opts *o)
{
  static struct tui t;
  init_state (&t, s, p, o);
  SCREEN *sc = term_start (&t);
  if (sc == NULL)
    return 1;
  tui_layout (&t);
  tick (&t);
  int errs = 0, alive = 1;
  while (!t.quit && !got_signal && alive)
    {
      if (mono () >= t.next_tick)
        tick (&t);
      draw (&t);
      alive = wait_key (&t, &errs);
    }
  endwin ();
  delscreen (sc);
  free_state (&t);
  if (!alive)
    {
      fprintf (stderr, "ospview: lost the terminal\n");
      return 1;
    }
  return got_signal ? 128 + got_signal : 0;
}

int
ospview_tui (const struct source *s, const struct ospview_opts *o)
{
  return run (s, NULL, o);
}

int
tui_run_tables (const struct tui_provider *p, const struct ospview_opts *o)
{
  return run (NULL, p, o);
}

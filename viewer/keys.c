/* SPDX-License-Identifier: GPL-3.0-or-later */
/* keys.c - the key table of ospview's terminal UI: the one place a key is
 * bound.
 *
 * Why a table: a help screen written by hand drifts away from the code
 * that handles the keys (varnishstat generates its help from its bindings
 * for the same reason).  Each entry here is {the keys, the name the help
 * shows, a description, a handler}; the help overlay (keys_help_line) and
 * `ospview --keys' (ospview_keys) print the same table, so the tests can
 * compare them.  The conventions are those of top, htop, perf top and
 * varnishstat (doc/osp.md lists the keys; shared notes section 4.3).
 *
 * The handlers change the UI's choices (struct tui, tui.h) and ask tui.c
 * to rebuild or redraw; they never touch the terminal themselves.  The
 * filter prompt and the help overlay are modes with their own small key
 * handling (keys_prompt, keys_help): there every printable key is text or
 * closes the overlay, so they cannot go through the table.
 *
 * `s' saves the view on screen (paused or not: what the user sees) as a
 * snapshot file; its name is asked in a prompt like the filter's, with a
 * default that names the program, the pid and the time.
 *
 * Over a table provider (ospview --diff, tui.h) the same table applies:
 * the sort keys are the provider's, Enter shows or hides the detail pane
 * on every screen (a diff's forest is a list), and the keys about
 * refreshing and saving (p, + -, s) say that they do not apply.
 */
#define _GNU_SOURCE
#include "tui.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define CTRL(c) ((c) & 0x1f)
#define KEY_ESC 27
#define HSTEP 16      /* columns Left/Right scroll */
#define DETAIL_STEP 3 /* lines [ and ] scroll the detail pane */

struct binding
{
  int keys[6];        /* 0-terminated */
  const char *name;   /* as the help shows it */
  const char *desc;
  void (*run) (struct tui *t, int ch);
};

/* ---- handlers ------------------------------------------------------------ */

static struct tui_cursor *
cur (struct tui *t)
{
  return &t->cursor[t->screen];
}

/* The keys about a live view: 1 (and a message) over a provider. */
static int
static_tables (struct tui *t)
{
  if (t->prov)
    tui_toast (t, "not here: these tables do not refresh and are not a "
               "view to save");
  return t->prov != NULL;
}

static void
do_quit (struct tui *t, int ch)
{
  (void) ch;
  t->quit = 1;
}

static void
do_help (struct tui *t, int ch)
{
  (void) ch;
  t->help = 1;
  t->help_top = 0;
}

static void
do_up (struct tui *t, int ch)
{
  (void) ch;
  tui_select (t, (long) cur (t)->sel - 1);
}

static void
do_down (struct tui *t, int ch)
{
  (void) ch;
  tui_select (t, (long) cur (t)->sel + 1);
}

static void
do_page_up (struct tui *t, int ch)
{
  (void) ch;
  tui_select (t, (long) cur (t)->sel - tui_page (t));
}

static void
do_page_down (struct tui *t, int ch)
{
  (void) ch;
  tui_select (t, (long) cur (t)->sel + tui_page (t));
}

static void
do_first (struct tui *t, int ch)
{
  (void) ch;
  tui_select (t, 0);
}

static void
do_last (struct tui *t, int ch)
{
  (void) ch;
  tui_select (t, (long) t->table.n - 1);
}

/* The widest path column of the rows: how far Right may scroll. */
static size_t
widest_path (const struct tui *t)
{
  size_t w = 0;
  for (size_t i = 0; i < t->table.n; i++)
    {
      size_t l = strlen (t->table.rows[i].text);
      if (l > t->table.path_col && l - t->table.path_col > w)
        w = l - t->table.path_col;
    }
  return w;
}

static void
do_sideways (struct tui *t, int ch)
{
  if (ch == KEY_LEFT)
    t->hscroll = t->hscroll > HSTEP ? t->hscroll - HSTEP : 0;
  else if (t->hscroll + HSTEP < widest_path (t))
    t->hscroll += HSTEP;
}

static void
set_screen (struct tui *t, int s)
{
  t->screen = (enum scr_screen) ((s + SCR_NSCREENS) % SCR_NSCREENS);
  t->hscroll = 0;
  t->detail_top = 0;
  tui_rebuild (t);
}

static void
do_next_screen (struct tui *t, int ch)
{
  set_screen (t, (int) t->screen + (ch == KEY_BTAB ? -1 : 1));
}

static void
do_screen_n (struct tui *t, int ch)
{
  set_screen (t, ch - '1');
}

static void
toggle_detail (struct tui *t)
{
  t->detail = !t->detail;
  t->detail_top = 0;
  tui_layout (t);
}

static void
do_enter (struct tui *t, int ch)
{
  (void) ch;
  struct tui_cursor *c = cur (t);
  /* the subpaths screen: Enter opens a fold (screens.c), else the detail */
  int fold = t->screen == SCR_SUBPATHS && !t->prov && t->table.n > 0
             && t->table.rows[c->sel].has_children;
  if ((t->screen != SCR_FOREST && !fold) || t->prov)
    {
      toggle_detail (t);
      return;
    }
  if (t->table.n == 0)
    return;
  const struct scr_row *r = &t->table.rows[c->sel];
  if (!r->has_children)
    tui_toast (t, "this node has no children");
  else if (t->filter[0])
    tui_toast (t, "while filtering, every matching node is open");
  else if (scr_keyset_toggle (&c->toggled, r->key) != 0)
    tui_toast (t, "out of memory");
  else
    tui_rebuild (t);
}

static void
do_detail (struct tui *t, int ch)
{
  (void) ch;
  toggle_detail (t);
}

static void
do_detail_scroll (struct tui *t, int ch)
{
  if (ch == '[')
    t->detail_top = t->detail_top > DETAIL_STEP ? t->detail_top - DETAIL_STEP
                                                : 0;
  else
    t->detail_top += DETAIL_STEP; /* tui.c clamps it when drawing */
}

static void
do_filter (struct tui *t, int ch)
{
  (void) ch;
  memcpy (t->saved_filter, t->filter, sizeof t->filter);
  t->prompt = 1;
}

/* osp-PROGRAM-PID-YYYYmmdd-HHMMSS.ospsnap in the current directory. */
static void
do_save (struct tui *t, int ch)
{
  (void) ch;
  if (static_tables (t))
    return;
  if (!t->have_view)
    {
      tui_toast (t, "nothing to save yet: no view was read");
      return;
    }
  const char *prog = view_str (&t->view, t->view.run.program);
  const char *base = strrchr (prog, '/') ? strrchr (prog, '/') + 1 : prog;
  char name[64];
  size_t n = 0;
  for (const char *c = base; *c && n + 1 < sizeof name; c++)
    name[n++] = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')
                        || (*c >= '0' && *c <= '9') || *c == '-'
                        || *c == '_' || *c == '.'
                    ? *c
                    : '_';
  name[n] = '\0';
  char stamp[32] = "";
  time_t now = time (NULL);
  struct tm tm;
  if (localtime_r (&now, &tm))
    strftime (stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  snprintf (t->save_path, sizeof t->save_path, "osp-%s-%lld-%s%s",
            n ? name : "program", (long long) t->view.run.pid, stamp,
            OSP_SNAP_SUFFIX);
  t->save_prompt = 1;
}

static void
do_clear_filter (struct tui *t, int ch)
{
  (void) ch;
  if (!t->filter[0])
    return;
  t->filter[0] = '\0';
  tui_rebuild (t);
  tui_toast (t, "filter cleared");
}

/* The next sort key (DIR +1 or -1) the current screen allows and has
   values for: sorting by a column of dashes would change nothing. */
static void
do_sort (struct tui *t, int ch)
{
  struct tui_cursor *c = cur (t);
  int dir = ch == '<' ? -1 : 1;
  int k = (int) c->sort;
  for (int i = 0; i < SORT_NKEYS; i++)
    {
      k = (k + dir + SORT_NKEYS) % SORT_NKEYS;
      if (tui_sort_offered (t, (enum scr_sort) k))
        break;
    }
  c->sort = (enum scr_sort) k;
  tui_rebuild (t);
  tui_toast (t, "sorted by %s%s", tui_sort_name (t, c->sort),
             c->reverse ? ", reversed" : "");
}

static void
do_reverse (struct tui *t, int ch)
{
  (void) ch;
  struct tui_cursor *c = cur (t);
  c->reverse = !c->reverse;
  tui_rebuild (t);
  tui_toast (t, "sorted by %s%s", tui_sort_name (t, c->sort),
             c->reverse ? ", reversed" : "");
}

static void
do_full (struct tui *t, int ch)
{
  (void) ch;
  t->full_paths = !t->full_paths;
  tui_rebuild (t);
  tui_toast (t, t->full_paths ? "whole paths" : "long paths shortened");
}

static void
do_pause (struct tui *t, int ch)
{
  (void) ch;
  if (static_tables (t))
    return;
  t->paused = !t->paused;
  if (!t->paused)
    tui_tick_now (t);
}

/* The interval steps: 0.1 s below 1 s, 0.5 s up to 5 s, then 1 s. */
static double
delay_step (double d, int up)
{
  if (up ? d < 1.0 - 1e-9 : d <= 1.0 + 1e-9)
    return 0.1;
  if (up ? d < 5.0 - 1e-9 : d <= 5.0 + 1e-9)
    return 0.5;
  return 1.0;
}

static void
do_delay (struct tui *t, int ch)
{
  if (static_tables (t))
    return;
  int up = ch == '+';
  double d = t->delay + (up ? 1 : -1) * delay_step (t->delay, up);
  if (d < 0.1)
    d = 0.1;
  if (d > 60.0)
    d = 60.0;
  t->delay = (double) (long) (d * 10.0 + 0.5) / 10.0;
  tui_toast (t, "refresh every %.1f s", t->delay);
  tui_tick_now (t);
}

/* Recent mode (recent.c): the views kept meanwhile make the first
   refresh after the switch already a recent one.  Over a diff of one
   process: what ran between the snapshots, or the comparison. */
static void
do_recent (struct tui *t, int ch)
{
  (void) ch;
  const char *what;
  if (t->prov && t->prov->toggle
      && (what = t->prov->toggle (t->prov->ctx)) != NULL)
    {
      tui_rebuild (t);
      tui_toast (t, "%s", what);
      return;
    }
  if (static_tables (t))
    return;
  if (t->source->kind != SRC_LIVE)
    {
      tui_toast (t, "a snapshot is one view: recent mode needs a live "
                 "process (ospview -p PID)");
      return;
    }
  t->recent_on = !t->recent_on;
  tui_tick_now (t);
  if (t->recent_on)
    tui_toast (t, "recent: rates over the last %.1f s, ~ within error",
               t->recent.window);
  else
    tui_toast (t, "cumulative: since the program started");
}

static void
do_redraw (struct tui *t, int ch)
{
  (void) ch;
  clearok (curscr, TRUE);
  tui_layout (t);
}

/* ---- the table ----------------------------------------------------------- */

static const struct binding bindings[] = {
  { { 'q', 'Q', KEY_F (10) }, "q F10", "quit", do_quit },
  { { '?', 'h', KEY_F (1) }, "? h F1",
    "this help (generated from the key table)", do_help },
  { { KEY_UP, 'k' }, "Up k", "select the row above", do_up },
  { { KEY_DOWN, 'j' }, "Down j", "select the row below", do_down },
  { { KEY_PPAGE, 'b', CTRL ('b') }, "PgUp b ^B", "a page up", do_page_up },
  { { KEY_NPAGE, ' ', CTRL ('f') }, "PgDn Spc ^F", "a page down",
    do_page_down },
  { { KEY_HOME, 'g' }, "Home g", "the first row", do_first },
  { { KEY_END, 'G' }, "End G", "the last row", do_last },
  { { KEY_LEFT, KEY_RIGHT }, "Left Right", "scroll the paths sideways",
    do_sideways },
  { { '\t', KEY_BTAB }, "Tab S-Tab",
    "next / previous screen: subpaths, paths, forest, functions",
    do_next_screen },
  { { '1', '2', '3', '4' }, "1 2 3 4", "that screen", do_screen_n },
  { { '\r', '\n', KEY_ENTER }, "Enter",
    "forest: open or close the node; other screens: as d", do_enter },
  { { 'd' }, "d", "show or hide the detail pane (blocks and source lines)",
    do_detail },
  { { '[', ']' }, "[ ]", "scroll the detail pane up / down", do_detail_scroll },
  { { '/' }, "/", "filter: rows containing the text (Enter keeps, Esc cancels)",
    do_filter },
  { { KEY_ESC }, "Esc", "clear the filter", do_clear_filter },
  { { '<', '>' }, "< >",
    "sort by the previous / next column (work by default: count x block "
    "cost)",
    do_sort },
  { { 'r', 'I' }, "r I", "reverse the sort", do_reverse },
  { { 'f' }, "f", "whole paths or shortened (... N steps omitted ...)",
    do_full },
  { { 'p', 'Z' }, "p Z", "pause or resume the updates (PAUSED)", do_pause },
  { { '+', '-' }, "+ -",
    "refresh less / more often (0.1 s to 60 s; -d sets the start)", do_delay },
  { { 'R' }, "R",
    "recent (rates over the last seconds) or cumulative; a --diff: between "
    "or compared",
    do_recent },
  { { CTRL ('l') }, "^L", "redraw the screen", do_redraw },
  { { 's' }, "s",
    "save the view on screen as a snapshot file (asks for its name)",
    do_save },
};

#define NBINDINGS (sizeof bindings / sizeof bindings[0])

int
keys_dispatch (struct tui *t, int ch)
{
  for (size_t i = 0; i < NBINDINGS; i++)
    for (const int *k = bindings[i].keys; *k; k++)
      if (*k == ch)
        {
          bindings[i].run (t, ch);
          return 1;
        }
  return 0;
}

/* ---- the filter prompt and the help overlay ------------------------------ */

static void
prompt_backspace (char *s)
{
  size_t n = strlen (s);
  /* a whole UTF-8 character: its continuation bytes, then its lead */
  while (n > 0 && ((unsigned char) s[n - 1] & 0xc0) == 0x80)
    n--;
  if (n > 0)
    n--;
  s[n] = '\0';
}

/* Line editing shared by the prompts: 1 if CH changed LINE (SIZE bytes). */
static int
edit_line (char *line, size_t size, int ch)
{
  size_t n = strlen (line);
  if (ch == KEY_BACKSPACE || ch == 127 || ch == CTRL ('h'))
    prompt_backspace (line);
  else if (ch == CTRL ('u'))
    line[0] = '\0';
  else if (ch >= ' ' && ch < 256 && ch != 127 && n + 1 < size)
    {
      line[n] = (char) ch;
      line[n + 1] = '\0';
    }
  else
    return 0;
  return 1;
}

void
keys_prompt (struct tui *t, int ch)
{
  if (ch == '\r' || ch == '\n' || ch == KEY_ENTER)
    t->prompt = 0;
  else if (ch == KEY_ESC)
    {
      memcpy (t->filter, t->saved_filter, sizeof t->filter);
      t->prompt = 0;
    }
  else if (!edit_line (t->filter, sizeof t->filter, ch))
    return;
  tui_rebuild (t); /* the filter applies as it is typed */
}

void
keys_save_prompt (struct tui *t, int ch)
{
  if (ch == '\r' || ch == '\n' || ch == KEY_ENTER)
    {
      t->save_prompt = 0;
      if (t->save_path[0])
        tui_save (t, t->save_path);
      else
        tui_toast (t, "not saved: no file name");
    }
  else if (ch == KEY_ESC)
    {
      t->save_prompt = 0;
      tui_toast (t, "not saved");
    }
  else
    edit_line (t->save_path, sizeof t->save_path, ch);
}

void
keys_help (struct tui *t, int ch)
{
  size_t n = keys_help_lines ();
  if (ch == KEY_UP || ch == 'k')
    t->help_top = t->help_top ? t->help_top - 1 : 0;
  else if (ch == KEY_DOWN || ch == 'j')
    t->help_top = t->help_top + 1 < n ? t->help_top + 1 : t->help_top;
  else
    t->help = 0;
}

/* The help: a title, a line per binding, a closing hint. */
#define HELP_HEAD 2

size_t
keys_help_lines (void)
{
  return HELP_HEAD + NBINDINGS + 3;
}

/* The sort keys `<' `>' go through on this screen, and those left out
   because their column has no value in this view. */
static void
sort_line (const struct tui *t, char *buf, size_t n)
{
  size_t k = (size_t) snprintf (buf, n, "%-12s", "sort keys");
  const char *sep = " ";
  for (int pass = 0; pass < 2; pass++)
    for (int s = 0; s < SORT_NKEYS && k < n; s++)
      {
        if (!tui_sort_ok (t, (enum scr_sort) s)
            || tui_sort_offered (t, (enum scr_sort) s) != (pass == 0))
          continue;
        k += (size_t) snprintf (buf + k, n - k, "%s%s%s", sep,
                                tui_sort_name (t, (enum scr_sort) s),
                                pass ? " (no values here)" : "");
        sep = ", ";
      }
}

static void
binding_line (const struct binding *b, char *buf, size_t n)
{
  snprintf (buf, n, "%-12s %s", b->name, b->desc);
}

int
keys_help_line (const struct tui *t, size_t i, char *buf, size_t n)
{
  if (i == 0)
    snprintf (buf, n, "ospview keys");
  else if (i < HELP_HEAD || i == HELP_HEAD + NBINDINGS + 1)
    snprintf (buf, n, "%s", "");
  else if (i < HELP_HEAD + NBINDINGS)
    binding_line (&bindings[i - HELP_HEAD], buf, n);
  else if (i == HELP_HEAD + NBINDINGS)
    sort_line (t, buf, n);
  else if (i == HELP_HEAD + NBINDINGS + 2)
    snprintf (buf, n, "Up/Down scroll this help; any other key closes it");
  else
    return 0;
  return 1;
}

int
ospview_keys (void)
{
  char line[256];
  for (size_t i = 0; i < NBINDINGS; i++)
    {
      binding_line (&bindings[i], line, sizeof line);
      printf ("%s\n", line);
    }
  return fflush (stdout) != 0 || ferror (stdout) ? 1 : 0;
}

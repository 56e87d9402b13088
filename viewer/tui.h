/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tui.h - the contract between tui.c and keys.c, private to the terminal UI.
 *
 * Why two files: what a key does and the help that describes it must never
 * drift apart, so every binding lives in one table (keys.c: keys, the name
 * the help shows, a description, a handler) and the help overlay and
 * `ospview --keys' are printed from that table.  The handlers only change
 * the choices below (screen, sort, filter, pause, ...) and call the few
 * tui_* functions; everything about the terminal, the data and drawing
 * stays in tui.c.  So this header is the UI's state and nothing else.
 */
#ifndef OSPVIEW_TUI_H
#define OSPVIEW_TUI_H

#include "ospview.h"
#include "provider.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1 /* the wide-character API of ncursesw */
#endif
#include <curses.h>

#define TUI_PATH_MAX 1024
#define TUI_NSRC 8

/* One screen's own choices: they survive switching screens. */
struct tui_cursor
{
  uint64_t key;            /* the selected row's identity (scr_row.key) */
  int keyed;               /* KEY is meaningful */
  size_t sel, top;         /* selected row, first row shown */
  enum scr_sort sort;
  int reverse;
  struct scr_keyset toggled; /* forest: nodes opened or closed by hand */
};

/* A source file read for the detail pane (a few are cached). */
struct tui_src
{
  char *path;
  char *dir;               /* the directory it was compiled in */
  char *text;              /* the file, NUL-terminated; NULL: unreadable */
  size_t *line;            /* offsets of the line starts */
  size_t nlines;
  char why[512];           /* why it could not be read (srctext.c) */
  struct osp_vfnsrc want;  /* the contents it must have (srctext.c) */
  unsigned long used;      /* for the LRU choice */
};

struct tui
{
  const struct source *source; /* what is shown: live or a file */
  const struct tui_provider *prov; /* or static tables (NULL: SOURCE) */
  /* the data: two view buffers (a failed read keeps the last good view) */
  void *buf[2];
  size_t cap[2];
  int cur;                 /* buf[cur] holds VIEW */
  int have_view;
  struct view view;
  char problem[320];       /* the last read's error, "" when it worked */
  struct scr_live live;
  struct scr_table status; /* scr_status lines */
  struct scr_table table;  /* the current screen */
  /* the choices */
  enum scr_screen screen;
  struct tui_cursor cursor[SCR_NSCREENS];
  char filter[TUI_FILTER_MAX];
  int full_paths;
  int detail;              /* show the detail pane (when there is room) */
  size_t detail_top;       /* its first line shown */
  size_t hscroll;          /* columns of the path column scrolled away */
  /* a narrow terminal: the number columns kept, abbreviated (tui.c,
     plan_columns); n == 0: the rows as built */
  struct tui_narrow
  {
    int n;
    struct { size_t from, to; int width; } col[16];
  } narrow;
  int paused;
  double delay;            /* seconds between reads */
  int recent_on;           /* recent mode (R): rates over a window */
  struct recent recent;    /* the earlier views it compares with */
  char window[64];         /* the status line's "cumulative" or "recent" */
  /* modes */
  int help;                /* the help overlay is up */
  size_t help_top;
  int prompt;              /* editing the filter after `/' */
  char saved_filter[TUI_FILTER_MAX]; /* restored by Esc */
  int save_prompt;         /* editing the snapshot's file name after `s' */
  char save_path[TUI_PATH_MAX];
  int quit;
  /* timing (CLOCK_MONOTONIC seconds) */
  double next_tick;
  double toast_until;
  char toast[400];
  /* the terminal */
  int lines, cols;
  int too_small;
  int color;
  int list_h;              /* rows of the list (without title and header) */
  WINDOW *w_status, *w_list, *w_detail, *w_bar;
  struct tui_src src[TUI_NSRC];
  unsigned long src_clock;
};

/* ---- tui.c, for the key handlers ----------------------------------------- */

/* Rebuild the current screen's rows from the current view, keeping the
   selected row (by its key) where it was on the screen. */
void tui_rebuild (struct tui *t);
/* Move the selection to row ROW (clamped to the rows there are). */
void tui_select (struct tui *t, long row);
/* The rows one page moves. */
int tui_page (const struct tui *t);
/* Recreate the windows for the terminal's size (the loop redraws). */
void tui_layout (struct tui *t);
/* Read a new view now (and then every delay seconds). */
void tui_tick_now (struct tui *t);
/* Save the view on screen as snapshot file PATH; says how in a toast. */
void tui_save (struct tui *t, const char *path);
/* The sort keys of the current screen, and the name of one (the
   provider's when there is one, else screens.c's). */
int tui_sort_ok (const struct tui *t, enum scr_sort k);
/* tui_sort_ok, and its column has values on the screen (the `<' `>' keys
   and the help offer only those). */
int tui_sort_offered (const struct tui *t, enum scr_sort k);
const char *tui_sort_name (const struct tui *t, enum scr_sort k);
/* A message in the bottom bar for a moment. */
void tui_toast (struct tui *t, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3)));

/* ---- keys.c -------------------------------------------------------------- */

/* Do what key CH is bound to in the list (not in the prompt or the help).
   1 if it is bound, else 0. */
int keys_dispatch (struct tui *t, int ch);
/* A key while the filter prompt is up. */
void keys_prompt (struct tui *t, int ch);
/* A key while the snapshot file name prompt is up. */
void keys_save_prompt (struct tui *t, int ch);
/* A key while the help is up: scroll it, or close it. */
void keys_help (struct tui *t, int ch);
/* The help text: line I (0-based) of it into BUF; 0 past the last line. */
int keys_help_line (const struct tui *t, size_t i, char *buf, size_t n);
size_t keys_help_lines (void);
/* Print the key table as text on stdout (ospview --keys; also declared
   in ospview.h for ospview.c).  Exit status. */
int ospview_keys (void);

#endif

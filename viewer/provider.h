/* SPDX-License-Identifier: GPL-3.0-or-later */
/* provider.h - a table provider: what ospview --diff hands the terminal UI.
 *
 * Kept apart from tui.h so that a provider (diff.c) needs no curses header:
 * its text output must build and run without the terminal library's
 * declarations in scope, and only tui.c draws.
 */
#ifndef OSPVIEW_PROVIDER_H
#define OSPVIEW_PROVIDER_H

#include "ospview.h"

/* The longest filter the UI keeps; a provider's titles quote at most this
   much of it. */
#define TUI_FILTER_MAX 256

/* ---- a table provider ------------------------------------------------------
 * What the UI shows is normally a source's live view (ospview_tui).  A
 * provider replaces it with a static set of tables (ospview --diff): the
 * UI then asks the provider for a screen's table (with the filter, sort,
 * reverse and whole-path choices; all rows), for the status lines (once)
 * and for the detail pane's lines of the selected row; there are no
 * refreshes (p, + - and s say so).  The navigation, screens, filter,
 * sort, help and drawing are the same code as the live mode's. */

/* Adds one detail line (HEAD: a step or title line, drawn bold). */
typedef void (*tui_detail_fn) (void *sink, int head, const char *line);

struct tui_provider
{
  void *ctx;
  /* Fill T (zeroed first) with screen S: 0, or -1 out of memory. */
  int (*build) (void *ctx, enum scr_screen s, const struct scr_opts *o,
                struct scr_table *t);
  /* The status lines (up to 3) into T's rows: 0, or -1. */
  int (*status) (void *ctx, struct scr_table *t);
  /* The detail pane of row R of screen S's table, line by line. */
  void (*detail) (void *ctx, enum scr_screen s, const struct scr_row *r,
                  tui_detail_fn add, void *sink);
  /* The sort keys the provider's screens take, and how the UI names one. */
  int (*sort_ok) (enum scr_screen s, enum scr_sort k);
  const char *(*sort_name) (enum scr_sort k);
  const char *tag;       /* in the bottom bar, like SNAPSHOT ("DIFF") */
  /* R: switch to the provider's other kind of tables (a diff of one
     process: what ran between the snapshots, or the comparison of
     shares); NULL, or returning NULL: there is none.  Else what the
     tables now are, for a message. */
  const char *(*toggle) (void *ctx);
};

/* The UI over P's tables (O: the first screen, filter, sort, reverse).
   Exit status (0; 1 without a terminal; 128 + a signal). */
int tui_run_tables (const struct tui_provider *p,
                    const struct ospview_opts *o);

#endif

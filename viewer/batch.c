/* SPDX-License-Identifier: GPL-3.0-or-later */
/* batch.c - ospview -b N: the screens as plain text, N refreshes.
 *
 * Why: scripts and tests need the viewer's output without a terminal, and
 * it is the simplest check that the screens say what the UI will show
 * (both draw the rows of screens.c).  Each refresh copies the newest view
 * out of the segment, validates it, and prints the status lines and the
 * chosen screens; refreshes after the first are introduced by a line
 * "--- refresh N ---".  A refresh that cannot read or validate the view
 * says why on stderr and the next one tries again; the exit status is 1
 * if any refresh failed.  --recent: the screens are recent.c's rates over
 * the window instead of the cumulative estimates (the first refresh: since
 * the process started).  Once the process has exited (or for a snapshot
 * file) the refresh that printed its final view is the last: -b N stops
 * early rather than print the same view again.
 */
#define _GNU_SOURCE
#include "ospview.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void
pause_for (double seconds)
{
  if (!(seconds > 0))
    return;
  struct timespec ts;
  ts.tv_sec = (time_t) seconds;
  ts.tv_nsec = (long) ((seconds - (double) ts.tv_sec) * 1e9);
  while (nanosleep (&ts, &ts) != 0 && errno == EINTR)
    ;
}

/* A line of text from a view: names, the program and its arguments are
   the profiled program's, so through the sanitiser (ospview_puts). */
static void
line (const char *s)
{
  ospview_puts (stdout, s ? s : "");
  putchar ('\n');
}

static void
print_table (const struct scr_table *t)
{
  putchar ('\n');
  line (t->title);
  if (t->n == 0 && t->note)
    {
      fputs ("  (", stdout);
      ospview_puts (stdout, t->note);
      fputs (")\n", stdout);
      return;
    }
  line (t->header);
  for (size_t i = 0; i < t->n; i++)
    line (t->rows[i].text);
}

/* One refresh: 0, or 1 if the view could not be read or used.  *FINAL:
   the view read is the last there will be (a snapshot file, or a process
   known to have exited before the read: its exit view is published before
   the state says so). */
static int
refresh (const struct source *s, const struct ospview_opts *o, void **buf,
         size_t *cap, struct recent *rec, int *final)
{
  char err[512];
  struct scr_live live, after;
  source_live (s, &live);
  long len = source_read (s, buf, cap, err, sizeof err);
  source_live (s, &after);
  if (scr_exited (&after) != NULL && scr_exited (&live) == NULL)
    {
      /* it exited during the read: read again, so that the view printed
         with "exited" is the exit view and is printed once */
      len = source_read (s, buf, cap, err, sizeof err);
      source_live (s, &after);
    }
  live = after;
  *final = len >= 0 && scr_exited (&live) != NULL;
  if (len < 0)
    {
      ospview_error ("%s", err);
      return 1;
    }
  struct view v;
  int have = 0;
  if (len > 0)
    {
      if (view_parse (&v, *buf, (size_t) len, err, sizeof err) != 0)
        {
          ospview_error ("%s: %s", source_name (s), err);
          return 1;
        }
      have = 1;
    }
  char label[64] = "cumulative";
  const struct view *base = NULL;
  if (have && rec != NULL)
    {
      if (recent_push (rec, &v) != 0)
        ospview_error ("out of memory: recent mode covers a longer time");
      base = recent_base (rec, &v);
      recent_label (rec, &v, label, sizeof label);
    }
  if (s->kind == SRC_LIVE)
    live.window = label;
  struct scr_table t;
  if (scr_status (&t, have ? &v : NULL, &live) != 0)
    {
      ospview_error ("out of memory");
      return 1;
    }
  for (size_t i = 0; i < t.n; i++)
    line (t.rows[i].text);
  scr_table_free (&t);
  if (!have)
    return 0;

  struct scr_opts so;
  memset (&so, 0, sizeof so);
  so.filter = o->filter;
  so.sort = o->sort;
  so.reverse = o->reverse;
  so.top = o->top;
  so.open_depth = UINT32_MAX; /* batch: the whole forest */
  for (int scr = 0; scr < SCR_NSCREENS; scr++)
    {
      if (!(o->screens >> scr & 1))
        continue;
      if (rec != NULL ? recent_build (&t, base, &v, (enum scr_screen) scr,
                                      &so, "in the last")
                            != 0
                      : scr_build (&t, &v, (enum scr_screen) scr, &so) != 0)
        {
          ospview_error ("out of memory");
          return 1;
        }
      print_table (&t);
      /* the first row's code, as the UI's detail pane shows it */
      if (rec == NULL && t.n > 0
          && (scr == SCR_PATHS || scr == SCR_SUBPATHS))
        {
          uint64_t at = t.rows[0].index;
          const struct osp_vpath *p
              = scr == SCR_PATHS ? view_path (&v, at) : NULL;
          const struct osp_vsubpath *sp
              = scr == SCR_SUBPATHS ? view_subpath (&v, at) : NULL;
          if (p != NULL || sp != NULL)
            {
              printf ("\nsource of the first row:\n");
              src_print_blocks (stdout, &v, p ? p->ids : sp->ids,
                                p ? p->len : sp->len);
            }
        }
      scr_table_free (&t);
    }
  return 0;
}

int
batch_run (const struct source *s, const struct ospview_opts *o)
{
  void *buf = NULL;
  size_t cap = 0;
  int rc = 0;
  struct recent rec;
  recent_init (&rec, o->recent);
  int final = 0;
  /* a process that has exited (or a file) shows nothing new: its view is
     printed once, not once per remaining refresh */
  for (long i = 1; i <= o->count && !final; i++)
    {
      if (i > 1)
        {
          pause_for (o->delay);
          printf ("\n--- refresh %ld ---\n", i);
        }
      rc |= refresh (s, o, &buf, &cap,
                     o->recent > 0 && s->kind == SRC_LIVE ? &rec : NULL,
                     &final);
      if (fflush (stdout) != 0 || ferror (stdout))
        {
          /* a closed pipe (ospview -b 100 | head): stop quietly */
          rc = 1;
          break;
        }
    }
  recent_free (&rec);
  free (buf);
  return rc;
}

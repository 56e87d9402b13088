/* SPDX-License-Identifier: GPL-3.0-or-later */
/* status.c - the status lines above every screen.
 *
 * Why: estimates mean little without what they were estimated from, and a
 * live viewer must say plainly when the data stopped being live.  So the
 * lines give the process (program, pid, uptime), whether it still runs
 * ("exited" once the runtime said so or the pid is gone; a heartbeat that
 * has not moved for a while is flagged), how old the view is, and the
 * totals and bounds behind the screens: blocks seen and samples of the
 * subpath hot-list with its threshold and memory, path ends and the path
 * table, the forest's nodes.  Only what the view carries is shown (STATS
 * names are the tsv report's stat names, doc/CONTRACTS.md).
 */
#define _GNU_SOURCE
#include "ospview.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A heartbeat older than this says the writer stopped publishing. */
#define STALE_NS 5000000000ull

/* 1234567 -> "1.23M" (SI), small numbers as they are. */
static const char *
count (char *buf, size_t n, uint64_t x)
{
  static const char units[] = "KMGTPE";
  if (x < 10000)
    {
      snprintf (buf, n, "%llu", (unsigned long long) x);
      return buf;
    }
  double d = (double) x;
  int u = -1;
  while (d >= 1000.0 && u < 5)
    {
      d /= 1000.0;
      u++;
    }
  snprintf (buf, n, d < 10 ? "%.2f%c" : d < 100 ? "%.1f%c" : "%.0f%c", d,
            units[u]);
  return buf;
}

/* Bytes in binary units: "64K", "1.5M". */
static const char *
bytes (char *buf, size_t n, uint64_t x)
{
  static const char units[] = "KMGTPE";
  if (x < 1024)
    {
      snprintf (buf, n, "%lluB", (unsigned long long) x);
      return buf;
    }
  double d = (double) x;
  int u = -1;
  while (d >= 1024.0 && u < 5)
    {
      d /= 1024.0;
      u++;
    }
  snprintf (buf, n, d < 10 && d != (int) d ? "%.1f%c" : "%.0f%c", d,
            units[u]);
  return buf;
}

/* Seconds as "12.3s", "4m05s", "2h03m", "3d04h". */
static const char *
duration (char *buf, size_t n, uint64_t ns)
{
  uint64_t s = ns / 1000000000u;
  if (s < 60)
    snprintf (buf, n, "%.1fs", (double) ns / 1e9);
  else if (s < 3600)
    snprintf (buf, n, "%llum%02llus", (unsigned long long) (s / 60),
              (unsigned long long) (s % 60));
  else if (s < 86400)
    snprintf (buf, n, "%lluh%02llum", (unsigned long long) (s / 3600),
              (unsigned long long) (s / 60 % 60));
  else
    snprintf (buf, n, "%llud%02lluh", (unsigned long long) (s / 86400),
              (unsigned long long) (s / 3600 % 24));
  return buf;
}

static uint64_t
since (uint64_t now, uint64_t then)
{
  return now > then ? now - then : 0;
}

const char *
scr_exited (const struct scr_live *l)
{
  if (l->snapshot != NULL)
    return "snapshot";
  return l->state == OSP_SHM_EXITED || !l->alive ? "exited" : NULL;
}

static int
add_line (struct scr_table *t, char *s)
{
  if (s == NULL)
    return -1;
  if (ospview_grow (&t->rows, &t->cap, t->n + 1, sizeof *t->rows, 4) != 0)
    {
      free (s);
      return -1;
    }
  memset (&t->rows[t->n], 0, sizeof t->rows[t->n]);
  t->rows[t->n++].text = s;
  return 0;
}

/* A line assembled piece by piece (fixed room: status lines are short). */
struct line
{
  char s[1024];
  size_t n;
};

static void put (struct line *b, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3)));

static void
put (struct line *b, const char *fmt, ...)
{
  if (b->n >= sizeof b->s - 1)
    return;
  va_list ap;
  va_start (ap, fmt);
  int k = vsnprintf (b->s + b->n, sizeof b->s - b->n, fmt, ap);
  va_end (ap);
  if (k > 0)
    b->n += (size_t) k < sizeof b->s - b->n ? (size_t) k
                                            : sizeof b->s - 1 - b->n;
}

static int
stat_u (const struct view *v, const char *name, uint64_t *x)
{
  return v != NULL && view_stat_u64 (v, name, x);
}

/* CLOCK_REALTIME nanoseconds as local "2026-11-22 17:06:01". */
static const char *
when (char *buf, size_t n, uint64_t ns)
{
  time_t t = (time_t) (ns / 1000000000u);
  struct tm tm;
  if (localtime_r (&t, &tm) == NULL
      || strftime (buf, n, "%Y-%m-%d %H:%M:%S", &tm) == 0)
    snprintf (buf, n, "?");
  return buf;
}

/* Line 1 of a snapshot file: what it holds, from when, made how. */
static void
who_file (struct line *b, const struct view *v, const struct scr_live *l)
{
  char d1[32], d2[32];
  put (b, "snapshot %s: %s  pid %ld", l->snapshot,
       l->program && *l->program ? l->program : "?", l->pid);
  uint64_t taken = v->hdr->time_ns;
  if (taken > l->start_ns && l->start_ns != 0)
    put (b, "  ran %s", duration (d1, sizeof d1, taken - l->start_ns));
  put (b, "  taken %s%s", when (d2, sizeof d2, taken),
       v->run.exited ? " at exit" : "");
  if (!v->run.exited && v->hdr->seq != 0)
    put (b, "  view #%llu", (unsigned long long) v->hdr->seq);
  uint64_t merged;
  if ((l->snap_flags & OSP_SNAP_MERGED)
      && view_stat_u64 (v, "merged_snapshots", &merged))
    put (b, "  merged from %llu snapshots", (unsigned long long) merged);
}

/* Line 1: who, since when, alive or not, how fresh the data is. */
static void
who (struct line *b, const struct view *v, const struct scr_live *l)
{
  char d1[32], d2[32];
  if (l->snapshot != NULL && v != NULL)
    {
      who_file (b, v, l);
      return;
    }
  put (b, "%s  pid %ld", l->program && *l->program ? l->program : "?",
       l->pid);
  const char *ex = scr_exited (l);
  if (ex)
    {
      uint64_t end = l->heartbeat_ns > l->start_ns ? l->heartbeat_ns
                                                   : l->start_ns;
      put (b, "  ran %s  %s", duration (d1, sizeof d1, end - l->start_ns),
           l->state == OSP_SHM_EXITED ? "exited"
                                      : "exited (died: no exit view)");
    }
  else
    {
      put (b, "  up %s  running",
           duration (d1, sizeof d1, since (l->now_ns, l->start_ns)));
      uint64_t age = since (l->now_ns, l->heartbeat_ns);
      if (l->publishes == 0)
        ; /* no publisher yet: no heartbeat to speak of */
      else if (l->heartbeat_ns == 0)
        put (b, "  no heartbeat yet");
      else
        put (b, "  heartbeat %s ago%s", duration (d2, sizeof d2, age),
             age > STALE_NS ? " (stalled?)" : "");
    }
  if (v != NULL)
    {
      put (b, "  view #%llu", (unsigned long long) v->hdr->seq);
      if (v->run.exited)
        put (b, " (at exit)");
      else if (!ex)
        put (b, " %s old",
             duration (d1, sizeof d1, since (l->now_ns, v->hdr->time_ns)));
    }
  else if (l->problem != NULL && l->problem[0] != '\0')
    put (b, "  no view: %s", l->problem); /* as -b says it */
  else if (l->waiting != NULL)
    put (b, "  %s", l->waiting);
  else
    put (b, "  no profile published yet");
  if (l->truncated)
    put (b, "  %llu views cut to fit", (unsigned long long) l->truncated);
  if (l->window != NULL)
    put (b, "  %s", l->window);
}

/* Line 2: the mode's totals, threshold and memory. */
static void
mode_line (struct line *b, const struct view *v)
{
  char c1[32], c2[32], c3[32];
  const char *mode = view_str (v, v->run.mode);
  uint64_t x, y;
  double th;
  put (b, "mode %s:", *mode ? mode : "?");
  if (strcmp (mode, "blocks") == 0)
    put (b, " block entries %s",
         count (c1, sizeof c1, v->run.blocks_seen));
  else
    {
      put (b, " blocks seen %s", count (c1, sizeof c1, v->run.blocks_seen));
      if (stat_u (v, "samples", &x))
        put (b, ", samples %s", count (c1, sizeof c1, x));
      if (view_stat_f64 (v, "threshold", &th))
        put (b, ", threshold %.3g", th);
      if (stat_u (v, "resamples", &x))
        put (b, " (resamples %s)", count (c1, sizeof c1, x));
      if (stat_u (v, "hotlist_bytes_used", &x)
          && stat_u (v, "hotlist_bytes", &y))
        put (b, ", hot-list memory %s of %s", bytes (c2, sizeof c2, x),
             bytes (c3, sizeof c3, y));
      if (stat_u (v, "exact_bytes_used", &x) && stat_u (v, "exact_bytes", &y))
        put (b, ", exact table %s of %s", bytes (c2, sizeof c2, x),
             bytes (c3, sizeof c3, y));
      if (stat_u (v, "exact_dropped", &x) && x)
        put (b, ", %s not counted (table full)", count (c1, sizeof c1, x));
    }
  if (stat_u (v, "threads", &x))
    put (b, "; threads %s", count (c1, sizeof c1, x));
  if (stat_u (v, "functions", &x))
    put (b, ", functions %s", count (c1, sizeof c1, x));
}

/* Line 3: Ball-Larus paths and the forest, when profiled. */
static int
paths_line (struct line *b, const struct view *v)
{
  char c1[32], c2[32], c3[32];
  uint64_t x, y;
  const char *paths = view_str (v, v->run.paths);
  const char *forest = view_str (v, v->run.forest);
  int any = 0;
  if (*paths && strcmp (paths, "off") != 0)
    {
      any = 1;
      /* With one countdown (the default build) the path ends of shared
         functions are estimated, not counted (doc/osp.md). */
      int estimated = stat_u (v, "path_ends_estimated", &x) && x > 0;
      put (b, "paths %s: path ends %s%s", paths, estimated ? "~" : "",
           count (c1, sizeof c1, v->run.path_ends));
      if (stat_u (v, "path_samples", &x))
        put (b, ", samples %s", count (c1, sizeof c1, x));
      if (stat_u (v, "paths_distinct", &x))
        put (b, ", distinct %s", count (c1, sizeof c1, x));
      if (stat_u (v, "paths_dropped", &x) && x)
        put (b, ", dropped %s", count (c1, sizeof c1, x));
      if (stat_u (v, "path_bytes_used", &x) && stat_u (v, "path_bytes", &y))
        put (b, ", table %s of %s", bytes (c2, sizeof c2, x),
             bytes (c3, sizeof c3, y));
    }
  if (*forest && strcmp (forest, "off") != 0)
    {
      put (b, "%sforest %s k=%u", any ? "; " : "", forest, v->run.forest_k);
      any = 1;
      if (stat_u (v, "forest_items", &x))
        put (b, ": path ends counted %s", count (c1, sizeof c1, x));
      if (stat_u (v, "forest_nodes", &x) && stat_u (v, "forest_nodes_cap", &y))
        put (b, ", nodes %s of %s", count (c2, sizeof c2, x),
             count (c3, sizeof c3, y));
      if (stat_u (v, "forest_pruned_mass", &x) && x)
        put (b, ", lost to pruning %s", count (c1, sizeof c1, x));
      /* The runtime rebuilds a big forest's rows less often than it
         publishes (pathforest.c): their age, when they are older. */
      if (stat_u (v, "forest_rows_age_ms", &x) && x)
        put (b, ", rows %.1f s old", (double) x / 1000.0);
    }
  return any;
}

int
scr_status (struct scr_table *t, const struct view *v,
            const struct scr_live *l)
{
  memset (t, 0, sizeof *t);
  struct line b = { .n = 0 };
  b.s[0] = '\0';
  who (&b, v, l);
  if (add_line (t, strdup (b.s)) != 0)
    goto oom;
  if (v != NULL)
    {
      b.n = 0;
      b.s[0] = '\0';
      mode_line (&b, v);
      if (add_line (t, strdup (b.s)) != 0)
        goto oom;
      b.n = 0;
      b.s[0] = '\0';
      if (paths_line (&b, v) && add_line (t, strdup (b.s)) != 0)
        goto oom;
    }
  t->total = t->n;
  return 0;
oom:
  scr_table_free (t);
  return -1;
}

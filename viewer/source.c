/* SPDX-License-Identifier: GPL-3.0-or-later */
/* source.c - what the viewer shows: a live process's segment or a
 * snapshot file, behind one interface.
 *
 * Why: the screens, the batch output and the terminal UI only need "the
 * newest view" and "what to say about where it came from".  A live
 * source copies the newest view out of the segment at each refresh
 * (segment.c); a file source was read and validated once at open
 * (snapshot.c) and hands out the same view every time, so `ospview FILE'
 * has exactly the screens and keys of a live process.
 */
#define _GNU_SOURCE
#include "ospview.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

int
source_attach (struct source *s, pid_t pid, const char *segment, char *err,
               size_t errlen)
{
  memset (s, 0, sizeof *s);
  s->kind = SRC_LIVE;
  if (segment)
    return seg_attach_path (&s->seg, segment, err, errlen); /* a file: as is */
  int rc = seg_attach (&s->seg, pid, err, errlen);
  if (rc == 0)
    seg_request (&s->seg);
  return rc;
}

void
source_wait_first (const struct source *s)
{
  const struct seg *g = &s->seg;
  if (s->kind != SRC_LIVE || g->asked <= 0)
    return;
  /* Two publish periods and a second: a program that runs instrumented
     code publishes well within that; one blocked in a system call does
     not, and the caller then says what it waits for. */
  uint64_t ms = g->fixed.publish_ms < 60000 ? g->fixed.publish_ms : 60000;
  uint64_t limit = 2 * ms * 1000000u + 1000000000u;
  uint64_t t0 = now_ns ();
  while (atomic_load_explicit (&g->hdr->publishes, memory_order_relaxed) == 0
         && atomic_load_explicit (&g->hdr->state, memory_order_acquire)
                == OSP_SHM_ONLINE
         && now_ns () - t0 < limit && seg_running (g))
    {
      struct timespec ts = { 0, 10000000 };
      nanosleep (&ts, NULL);
    }
}

int
source_open_file (struct source *s, const char *path, char *err,
                  size_t errlen)
{
  memset (s, 0, sizeof *s);
  s->kind = SRC_FILE;
  s->path = path;
  return snap_load (&s->snap, path, err, errlen);
}

void
source_close (struct source *s)
{
  if (s->kind == SRC_LIVE)
    seg_detach (&s->seg);
  else
    snap_free (&s->snap);
}

const char *
source_name (const struct source *s)
{
  return s->kind == SRC_LIVE ? s->seg.path : s->path;
}

long
source_read (const struct source *s, void **buf, size_t *cap, char *err,
             size_t errlen)
{
  if (s->kind == SRC_LIVE)
    return seg_read (&s->seg, buf, cap, err, errlen);
  if (ospview_grow (buf, cap, s->snap.len, 1, 4096) != 0)
    {
      snprintf (err, errlen, "out of memory");
      return -1;
    }
  memcpy (*buf, s->snap.view_bytes, s->snap.len);
  return (long) s->snap.len;
}

void
source_live (const struct source *s, struct scr_live *l)
{
  memset (l, 0, sizeof *l);
  l->now_ns = now_ns ();
  if (s->kind == SRC_FILE)
    {
      const struct view *v = &s->snap.view;
      l->snapshot = s->path;
      l->snap_flags = s->snap.hdr.flags;
      l->saved_ns = s->snap.hdr.saved_ns;
      l->program = view_str (v, v->run.program);
      l->pid = (long) v->run.pid;
      l->start_ns = v->run.start_ns;
      l->state = OSP_SHM_EXITED;
      l->heartbeat_ns = v->hdr->time_ns;
      l->publishes = v->hdr->seq;
      return;
    }
  const struct seg *g = &s->seg;
  l->program = g->fixed.program;
  l->pid = (long) g->fixed.pid;
  l->start_ns = g->fixed.start_ns;
  l->state = atomic_load_explicit (&g->hdr->state, memory_order_acquire);
  l->alive = seg_running (g);
  l->heartbeat_ns
      = atomic_load_explicit (&g->hdr->heartbeat_ns, memory_order_relaxed);
  l->publishes
      = atomic_load_explicit (&g->hdr->publishes, memory_order_relaxed);
  l->truncated
      = atomic_load_explicit (&g->hdr->truncated, memory_order_relaxed);
  if (l->publishes == 0 && l->state == OSP_SHM_ONLINE && l->alive)
    l->waiting = g->asked > 0
                     ? "no view yet: waiting for the program to run "
                       "instrumented code (it publishes once asked)"
                 : g->asked < 0 ? g->ask_err
                                : NULL;
}

/* SPDX-License-Identifier: MIT */
/* snapshot.c - snapshot files written by the runtime (OSP_OPTIONS
 * snapshot=FILE, snapshot_signal=SIG, snapshot_bytes; the format is
 * include/osp/snapshot.h).
 *
 * A snapshot is the view the publisher would publish (viewwrite.c) as a
 * file, so ospview opens it with the same screens as a live process.  It
 * is written at exit (from the exit report's profile, so the two agree)
 * and, with snapshot_signal, by online.c's thread each time the signal
 * arrives; the template's %p and %h are expanded then (a fork child writes
 * its own file), and each write replaces the file atomically, so the file
 * always holds the newest complete snapshot.
 *
 * Why the buffer grows: the publisher's view buffer is fixed (shared
 * memory), but a snapshot should hold every row.  The view is written
 * into 1 MiB, then doubled while it is cut, up to snapshot_bytes; a view
 * still cut there is written cut (the rows kept are the hottest) with one
 * warning.  Any failure is one stderr line; the program is unaffected.
 *
 * With report=line (the default) the exit snapshot is announced by one
 * stderr line naming it and the command that opens it, the name relative
 * to the directory the program started in (where the user's shell is),
 * quoted for a shell when it needs quoting.
 */
#define _GNU_SOURCE
#include "output/output.h"
#include "format/snapfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIRST_CAP ((size_t) 1 << 20)

/* PATH as the user would type it from DIR: relative when it is in DIR,
   in single quotes when a shell would split or expand it. */
static void
shell_name (char *out, size_t size, const char *path, const char *dir)
{
  size_t d = strlen (dir);
  if (d > 0 && dir[d - 1] == '/')
    d--; /* "/" as "" */
  if (dir[0] != '\0' && strncmp (path, dir, d) == 0 && path[d] == '/'
      && path[d + 1] != '\0')
    path += d + 1;
  int plain = strspn (path, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuv"
                            "wxyz0123456789._/+,-")
              == strlen (path);
  if (plain || strchr (path, '\'') != NULL)
    snprintf (out, size, "%s", path); /* a ' in it: shown as it is */
  else
    snprintf (out, size, "'%s'", path);
}

/* The exit line of report=line. */
static void
announce (const char *path, const struct osp_options *o)
{
  char name[OSP_PATH_MAX + 3];
  shell_name (name, sizeof name, path, o->start_dir);
  osp_warn ("osp: profile in %s (view: ospview %s; no line: "
            "OSP_OPTIONS=report=none)", name, name);
}

void
osp_snapshot_default_rule (struct osp_options *o, int fork_child)
{
  /* A fork child writing the same name would replace the parent's file,
     and each would say so on stderr (snapshot=...%p... gives each its
     own); a program linked with libosprt but not instrumented has
     nothing to show. */
  int owner = !fork_child && osp_registry_count () > 0;
  if (!o->snapshot_set && !owner)
    o->snapshot_path[0] = '\0';
}

int
osp_snapshot_write (const struct osp_profile *p, const struct osp_options *o,
                    int exited, uint32_t flags)
{
  if (o->snapshot_path[0] == '\0' || p == NULL)
    return 0;
  char path[OSP_PATH_MAX], host[256] = "unknown";
  gethostname (host, sizeof host - 1);
  host[sizeof host - 1] = '\0';
  if (osp_expand_path (path, sizeof path, o->snapshot_path, (long) getpid (),
                       host)
      != 0)
    {
      osp_warn ("osp: cannot write the snapshot: path too long: %s",
                o->snapshot_path);
      return -1;
    }

  /* The exit profile was taken before the exit report was written: a
     report skipped since (fd 2 no longer the start-up one) must still be
     counted in the snapshot that tells of it.  A shallow copy: the view
     writer only reads. */
  struct osp_profile q = *p;
  q.output_skipped = atomic_load_explicit (&osp_stats.output_skipped,
                                           memory_order_relaxed);
  p = &q;

  struct osp_view_run run;
  osp_identity_run (&run, exited);
  size_t cap = FIRST_CAP < o->snapshot_bytes ? FIRST_CAP
                                             : (size_t) o->snapshot_bytes;
  void *buf = NULL;
  size_t n = 0;
  int truncated = 0;
  /* The functions' part of the view, made by the first try and used by
     the larger ones (SQLite's: 2.5 MB, three tries, each made it and
     checksummed it). */
  struct osp_view_cache cache = { NULL };
  for (;;)
    {
      free (buf);
      buf = malloc (cap);
      if (buf == NULL)
        break;
      n = osp_view_write (buf, cap, p, &run, 0, &truncated, &cache);
      if ((n != 0 && !truncated) || cap >= o->snapshot_bytes)
        break;
      cap = 2 * cap < o->snapshot_bytes ? 2 * cap
                                        : (size_t) o->snapshot_bytes;
    }
  osp_view_cache_clear (&cache);
  if (buf == NULL || n == 0)
    {
      osp_warn ("osp: cannot write the snapshot %s: %s", path,
                buf == NULL ? "out of memory"
                            : "the functions and blocks do not fit "
                              "snapshot_bytes (or out of memory)");
      free (buf);
      return -1;
    }
  if (truncated)
    osp_warn ("osp: snapshot %s: rows cut to fit snapshot_bytes=%llu",
              path, (unsigned long long) o->snapshot_bytes);
  int err = osp_snap_write_mode (path, buf, n, flags, "libosprt",
                                 o->file_mode);
  free (buf);
  if (err != 0)
    {
      osp_warn ("osp: cannot write the snapshot %s: %s", path,
                osp_file_strerror (err));
      return -1;
    }
  if (exited && o->report == OSP_REPORT_LINE)
    announce (path, o);
  else if (o->verbose)
    osp_warn ("osp: snapshot written to %s", path);
  return 0;
}

int
osp_snapshot_emit (const struct osp_options *o)
{
  if (o->snapshot_path[0] == '\0')
    return 0;
  struct osp_profile p;
  if (osp_profile_take (&p) != 0)
    {
      osp_warn ("osp: cannot write the snapshot: out of memory");
      return -1;
    }
  int rc = osp_snapshot_write (&p, o, 0, OSP_SNAP_SIGNAL);
  osp_profile_free (&p);
  return rc;
}

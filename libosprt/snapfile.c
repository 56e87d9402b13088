/* snapfile.c - writing files whole, and snapshot files (osp/snapshot.h).
 *
 * Why one module for both: a snapshot is a header and a view written as
 * one file that must never be seen half-written, which is exactly how a
 * report file is written too; the runtime (report.c, snapshot.c) and
 * ospview (saving, merging) share this file so that there is one writer
 * of the format.  It uses nothing of the runtime but crc32.c.
 *
 * Atomicity: mkstemp in the destination's directory (a rename within one
 * file system is atomic), write, close, rename.  No fsync: a snapshot is
 * a convenience copy of a profile, and a crash of the machine right after
 * the rename loses at most that file - never the old one's readability.
 */
#define _GNU_SOURCE
#include "snapfile.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "crc32.h"

int
osp_write_all (int fd, const void *buf, size_t len)
{
  sigset_t pipe_set, old, pending;
  sigemptyset (&pipe_set);
  sigaddset (&pipe_set, SIGPIPE);
  sigpending (&pending);
  int was_pending = sigismember (&pending, SIGPIPE);
  pthread_sigmask (SIG_BLOCK, &pipe_set, &old);

  const char *p = buf;
  int err = 0;
  while (len > 0)
    {
      ssize_t n = write (fd, p, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          err = n < 0 ? errno : EIO;
          break;
        }
      p += n;
      len -= (size_t) n;
    }
  if (err == EPIPE && !was_pending)
    {
      struct timespec zero = { 0, 0 };
      sigtimedwait (&pipe_set, NULL, &zero);
    }
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  return err;
}

int
osp_file_replace (const char *path, const void *const *buf,
                  const size_t *len, int n)
{
  char tmp[PATH_MAX + 16];
  if (snprintf (tmp, sizeof tmp, "%s.XXXXXX", path) >= (int) sizeof tmp)
    return ENAMETOOLONG;
  int fd = mkstemp (tmp);
  if (fd < 0)
    return errno;
  /* mkstemp makes 0600; the result is an ordinary file (0666 & ~umask). */
  mode_t mask = umask (0);
  umask (mask);
  fchmod (fd, 0666 & ~mask);
  int err = 0;
  for (int i = 0; i < n && err == 0; i++)
    err = osp_write_all (fd, buf[i], len[i]);
  if (close (fd) != 0 && err == 0)
    err = errno;
  if (err == 0 && rename (tmp, path) != 0)
    err = errno;
  if (err != 0)
    unlink (tmp);
  return err;
}

void
osp_snap_header (struct osp_snap_header *h, const void *view, uint64_t len,
                 uint32_t flags, const char *writer)
{
  memset (h, 0, sizeof *h);
  memcpy (h->magic, OSP_SNAP_MAGIC, sizeof h->magic);
  h->byte_order = OSP_SNAP_BYTE_ORDER;
  h->major = OSP_SNAP_MAJOR;
  h->minor = OSP_SNAP_MINOR;
  h->header_size = sizeof *h;
  h->view_offset = (sizeof *h + 7) & ~(uint64_t) 7;
  h->view_size = len;
  h->view_crc32 = osp_crc32 (0, view, (size_t) len);
  h->flags = flags;
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  h->saved_ns = (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
  snprintf (h->writer, sizeof h->writer, "%s", writer);
  h->header_crc32 = osp_crc32 (0, h, sizeof *h);
}

int
osp_snap_write (const char *path, const void *view, uint64_t len,
                uint32_t flags, const char *writer)
{
  struct osp_snap_header h;
  osp_snap_header (&h, view, len, flags, writer);
  static const char pad[8];
  const void *buf[] = { &h, pad, view };
  size_t lens[] = { sizeof h, (size_t) (h.view_offset - sizeof h),
                    (size_t) len };
  return osp_file_replace (path, buf, lens, 3);
}

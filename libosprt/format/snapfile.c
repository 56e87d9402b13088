/* SPDX-License-Identifier: MIT */
/* snapfile.c - writing files whole, and snapshot files (osp/snapshot.h).
 *
 * Why one module for both: a snapshot is a header and a view written as
 * one file that must never be seen half-written, which is exactly how a
 * report file is written too; the runtime (report.c, snapshot.c) and
 * ospview (saving, merging) share this file so that there is one writer
 * of the format.  Its one reader's check (osp_snap_check, ospview's
 * snapshot.c) is the reader's (viewparse.c), which the runtime does not
 * link.  It uses nothing of the runtime but crc32.c.
 *
 * Atomicity: a new temporary file in the destination's directory (a
 * rename within one file system is atomic), write, close, rename.  Both
 * are made relative to one descriptor of that directory, so a component
 * of the path swapped for a symbolic link meanwhile cannot split them.
 *
 * Safety (doc/osp.md, "Privileges and the files osp writes"): the file
 * gets mode 0600 unless the caller asks for another, whatever the umask;
 * it is never written through a symbolic link (O_EXCL creation, then a
 * rename, which replaces the name itself), and a symbolic link owned by
 * another user at the destination is refused, not replaced (ELOOP).
 * A name that is not a regular file (/dev/null, a FIFO, a terminal) is
 * written into, not replaced: it belongs to the user (write_through).
 * No fsync: a snapshot is
 * a convenience copy of a profile, and a crash of the machine right after
 * the rename loses at most that file - never the old one's readability.
 */
#define _GNU_SOURCE
#include "snapfile.h"

#include "osp/view.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdatomic.h>
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

/* The directory part of PATH into DIR (".", "/" or PATH up to its last
   '/'), and its last component; NULL when PATH ends in '/' or is too long. */
static const char *
split_path (const char *path, char *dir, size_t size)
{
  const char *slash = strrchr (path, '/');
  const char *base = slash ? slash + 1 : path;
  size_t n = slash ? (size_t) (slash - path) : 0;
  if (*base == '\0' || n + 2 > size)
    return NULL;
  if (slash == NULL)
    strcpy (dir, ".");
  else if (n == 0)
    strcpy (dir, "/");
  else
    {
      memcpy (dir, path, n);
      dir[n] = '\0';
    }
  return base;
}

/* A new temporary file "BASE.osp-XXXXXXXX" in DFD, created like mkstemp
   (O_EXCL, so never through anything already there) but relative to the
   directory descriptor, so that it and the rename that follows happen in
   the same directory whatever the path's components are changed to
   meanwhile.  The descriptor, or -1 (errno set). */
static int
create_temp (int dfd, const char *base, char *tmp, size_t size)
{
  static atomic_uint counter;
  for (int attempt = 0; attempt < 100; attempt++)
    {
      struct timespec ts;
      clock_gettime (CLOCK_REALTIME, &ts);
      unsigned r = (unsigned) ts.tv_nsec * 2654435761u
                   ^ (unsigned) getpid () * 40503u
                   ^ atomic_fetch_add (&counter, 1) * 2246822519u;
      if (snprintf (tmp, size, "%s.osp-%08x", base, r) >= (int) size)
        {
          errno = ENAMETOOLONG;
          return -1;
        }
      int fd = openat (dfd, tmp,
                       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
                           | O_NOCTTY,
                       0600);
      if (fd >= 0 || errno != EEXIST)
        return fd;
    }
  errno = EEXIST;
  return -1;
}

/* PATH names something that is not a regular file (a device such as
   /dev/null, a FIFO, a terminal): it is the user's, not a file of ours to
   replace, so the buffers are written into it, never renamed over it (a
   rename as root would turn /dev/null into a regular file).  O_NONBLOCK
   only for the open, so a FIFO nobody reads fails (ENXIO) instead of
   hanging the program at exit.  0 or an errno. */
static int
write_through (int dfd, const char *base, const struct stat *want,
               const void *const *buf, const size_t *len, int n)
{
  if (S_ISDIR (want->st_mode))
    return EISDIR;
  int fd = openat (dfd, base, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return errno;
  struct stat st;
  int err = 0;
  if (fstat (fd, &st) != 0)
    err = errno;
  else if (S_ISREG (st.st_mode) || st.st_dev != want->st_dev
           || st.st_ino != want->st_ino)
    err = EAGAIN; /* the name changed under us: write nothing */
  int fl = err ? -1 : fcntl (fd, F_GETFL);
  if (err == 0 && (fl < 0 || fcntl (fd, F_SETFL, fl & ~O_NONBLOCK) != 0))
    err = errno;
  for (int i = 0; i < n && err == 0; i++)
    err = osp_write_all (fd, buf[i], len[i]);
  if (close (fd) != 0 && err == 0)
    err = errno;
  return err;
}

int
osp_file_replace_mode (const char *path, const void *const *buf,
                       const size_t *len, int n, unsigned mode)
{
  char dir[PATH_MAX], tmp[NAME_MAX + 1];
  const char *base = split_path (path, dir, sizeof dir);
  if (base == NULL)
    return *path && path[strlen (path) - 1] == '/' ? EISDIR : ENAMETOOLONG;
  int dfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    return errno;
  /* The rename below replaces whatever name is there and never writes
     through it; but a symbolic link of another user there is a trap laid
     for us (a /tmp race against a privileged writer), not a file of ours
     to replace. */
  struct stat st, target;
  int err = 0;
  if (fstatat (dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0)
    {
      if (S_ISLNK (st.st_mode) && st.st_uid != geteuid ())
        err = ELOOP;
      else if (fstatat (dfd, base, &target, 0) == 0
               && !S_ISREG (target.st_mode))
        {
          err = write_through (dfd, base, &target, buf, len, n);
          close (dfd);
          return err;
        }
    }
  int fd = err ? -1 : create_temp (dfd, base, tmp, sizeof tmp);
  if (err == 0 && fd < 0)
    err = errno;
  /* The mode exactly as asked, whatever the umask (0600 unless asked
     otherwise), so a profile is never readable by others by accident. */
  if (err == 0 && fchmod (fd, (mode_t) mode & 07777) != 0)
    err = errno;
  for (int i = 0; i < n && err == 0; i++)
    err = osp_write_all (fd, buf[i], len[i]);
  if (fd >= 0 && close (fd) != 0 && err == 0)
    err = errno;
  if (err == 0 && renameat (dfd, tmp, dfd, base) != 0)
    err = errno;
  if (err != 0 && fd >= 0)
    unlinkat (dfd, tmp, 0);
  close (dfd);
  return err;
}

int
osp_file_replace (const char *path, const void *const *buf,
                  const size_t *len, int n)
{
  return osp_file_replace_mode (path, buf, len, n, 0600);
}

const char *
osp_file_strerror (int err)
{
  if (err == ELOOP)
    return "it is a symbolic link owned by another user";
  return strerror (err);
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
  /* Read through, whoever made the view: a reader skips the sections it
     does not know without checking their CRCs, so those of a view from
     elsewhere may be anything.  With crc32.c's carry-less folding this
     costs what combining the sections' CRCs did (SQLite's 2.4 MB view:
     1.1M instructions). */
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
  return osp_snap_write_mode (path, view, len, flags, writer, 0600);
}

int
osp_snap_write_mode (const char *path, const void *view, uint64_t len,
                     uint32_t flags, const char *writer, unsigned mode)
{
  struct osp_snap_header h;
  osp_snap_header (&h, view, len, flags, writer);
  static const char pad[8];
  const void *buf[] = { &h, pad, view };
  size_t lens[] = { sizeof h, (size_t) (h.view_offset - sizeof h),
                    (size_t) len };
  return osp_file_replace_mode (path, buf, lens, 3, mode);
}

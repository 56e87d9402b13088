/* SPDX-License-Identifier: GPL-3.0-or-later */
/* snapshot.c - reading and saving snapshot files (include/osp/snapshot.h).
 *
 * Why it is strict: a snapshot comes from disk, perhaps from another
 * machine, perhaps damaged or hostile.  Every field of the header is
 * checked (osp_snap_check, libosprt/format/snapfile.c, beside the code
 * that writes it) before the view is handed to view_parse (which checks
 * the rest); each refusal is one line naming the problem, and the caller
 * prefixes the file's name.
 * The whole file is read into memory (at most OSP_SNAP_MAX_BYTES), so a
 * file changing while it is read cannot make the checks and the use see
 * different bytes.
 */
#define _GNU_SOURCE
#ifdef HAVE_CONFIG_H
#include "osp-config.h"
#endif
#include "ospview.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crc32.h"
#include "errmsg.h"
#include "snapfile.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "?"
#endif


/* The whole of FD (a regular file of SIZE bytes) into a fresh buffer. */
static char *
slurp (int fd, uint64_t size, char *err, size_t errlen)
{
  char *buf = aligned_alloc (16, (size + 15) & ~(uint64_t) 15);
  if (buf == NULL)
    {
      osp_errf (err, errlen, "out of memory for %llu bytes",
                (unsigned long long) size);
      return NULL;
    }
  uint64_t n = 0;
  while (n < size)
    {
      ssize_t r = read (fd, buf + n, size - n);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        {
          osp_errf (err, errlen, r < 0 ? "read failed: %s"
                    : "file shrank while being read%s",
                    r < 0 ? strerror (errno) : "");
          free (buf);
          return NULL;
        }
      n += (uint64_t) r;
    }
  return buf;
}

int
snap_parse (struct snapshot *s, char *file, uint64_t len, char *err,
            size_t errlen)
{
  memset (s, 0, sizeof *s);
  if (osp_snap_check (file, len, &s->hdr, err, errlen) != 0)
    return -1;
  s->file = file;
  s->view_bytes = file + s->hdr.view_offset;
  s->len = s->hdr.view_size;
  if (view_parse (&s->view, s->view_bytes, s->len, err, errlen) != 0)
    {
      memset (s, 0, sizeof *s);
      return -1;
    }
  return 0;
}

int
snap_load (struct snapshot *s, const char *path, char *err, size_t errlen)
{
  char why[400];
  memset (s, 0, sizeof *s);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      osp_errf (err, errlen, "%s: %s", path, strerror (errno));
      return -1;
    }
  struct stat st;
  char *file = NULL;
  if (fstat (fd, &st) != 0)
    osp_errf (why, sizeof why, "%s", strerror (errno));
  else if (!S_ISREG (st.st_mode))
    osp_errf (why, sizeof why, "not a regular file");
  else if ((uint64_t) st.st_size > OSP_SNAP_MAX_BYTES)
    osp_errf (why, sizeof why, "%llu bytes, more than a snapshot can be",
              (unsigned long long) st.st_size);
  else
    file = slurp (fd, (uint64_t) st.st_size, why, sizeof why);
  close (fd);
  if (file == NULL
      || snap_parse (s, file, (uint64_t) st.st_size, why, sizeof why) != 0)
    {
      free (file);
      osp_errf (err, errlen, "%s: %s", path, why);
      return -1;
    }
  return 0;
}

void
snap_free (struct snapshot *s)
{
  free (s->file);
  memset (s, 0, sizeof *s);
}

int
snap_save (const char *path, const void *view, size_t len, uint32_t flags,
           char *err, size_t errlen)
{
  int e = osp_snap_write (path, view, len, flags, "ospview " PACKAGE_VERSION);
  if (e != 0)
    return osp_errf (err, errlen, "cannot write %s: %s", path, strerror (e));
  return 0;
}

int
snap_save_at (const char *path, const void *view, size_t len, uint32_t flags,
              uint64_t saved_ns, char *err, size_t errlen)
{
  struct osp_snap_header h;
  osp_snap_header (&h, view, len, flags, "ospview " PACKAGE_VERSION);
  h.saved_ns = saved_ns;
  h.header_crc32 = 0;
  h.header_crc32 = osp_crc32 (0, &h, sizeof h);
  static const char pad[8];
  const void *buf[] = { &h, pad, view };
  size_t lens[] = { sizeof h, (size_t) (h.view_offset - sizeof h), len };
  int e = osp_file_replace (path, buf, lens, 3);
  if (e != 0)
    return osp_errf (err, errlen, "cannot write %s: %s", path,
                     osp_file_strerror (e));
  return 0;
}

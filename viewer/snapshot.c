/* snapshot.c - reading and saving snapshot files (include/osp/snapshot.h).
 *
 * Why it is strict: a snapshot comes from disk, perhaps from another
 * machine, perhaps damaged or hostile.  Every field of the header is
 * checked, in the order the format's header comment lists, before the
 * view is handed to view_parse (which checks the rest); each refusal is
 * one line naming the problem, and the caller prefixes the file's name.
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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crc32.h"
#include "snapfile.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "?"
#endif

static int
fail (char *err, size_t errlen, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));

static int
fail (char *err, size_t errlen, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (err, errlen, fmt, ap);
  va_end (ap);
  return -1;
}

/* The whole of FD (a regular file of SIZE bytes) into a fresh buffer. */
static char *
slurp (int fd, uint64_t size, char *err, size_t errlen)
{
  char *buf = aligned_alloc (16, (size + 15) & ~(uint64_t) 15);
  if (buf == NULL)
    {
      fail (err, errlen, "out of memory for %llu bytes",
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
          fail (err, errlen, r < 0 ? "read failed: %s"
                                   : "file shrank while being read%s",
                r < 0 ? strerror (errno) : "");
          free (buf);
          return NULL;
        }
      n += (uint64_t) r;
    }
  return buf;
}

/* The header's checks on the LEN bytes at FILE. */
static int
check_header (const char *file, uint64_t len, struct osp_snap_header *h,
              char *err, size_t errlen)
{
  if (len < 8 || memcmp (file, OSP_SNAP_MAGIC, 8) != 0)
    return fail (err, errlen, "not an osp snapshot (bad magic number)");
  if (len < sizeof *h)
    return fail (err, errlen, "truncated: %llu bytes, shorter than the "
                 "%zu-byte header", (unsigned long long) len, sizeof *h);
  memcpy (h, file, sizeof *h);
  if (h->byte_order != OSP_SNAP_BYTE_ORDER)
    return fail (err, errlen, "written with another byte order "
                 "(0x%08x)", h->byte_order);
  if (h->major != OSP_SNAP_MAJOR)
    return fail (err, errlen, "format version %u.%u, this ospview reads "
                 "%u.x", h->major, h->minor, OSP_SNAP_MAJOR);
  if (h->header_size < sizeof *h || h->header_size > len)
    return fail (err, errlen, "header size %u out of range (%zu..%llu)",
                 h->header_size, sizeof *h, (unsigned long long) len);
  /* The CRC covers the writer's whole header, its crc field zeroed. */
  uint32_t want = h->header_crc32;
  uint32_t zero = 0;
  size_t at = offsetof (struct osp_snap_header, header_crc32);
  uint32_t crc = osp_crc32 (0, file, at);
  crc = osp_crc32 (crc, &zero, sizeof zero);
  crc = osp_crc32 (crc, file + at + sizeof zero,
                   h->header_size - at - sizeof zero);
  if (crc != want)
    return fail (err, errlen, "header checksum mismatch (corrupted)");
  if (h->view_offset % 8 != 0 || h->view_offset < h->header_size
      || h->view_offset > len)
    return fail (err, errlen, "view offset %llu out of range",
                 (unsigned long long) h->view_offset);
  if (h->view_size != len - h->view_offset)
    return fail (err, errlen, "truncated or extended: the view should be "
                 "%llu bytes, the file holds %llu after the header",
                 (unsigned long long) h->view_size,
                 (unsigned long long) (len - h->view_offset));
  if (osp_crc32 (0, file + h->view_offset, h->view_size) != h->view_crc32)
    return fail (err, errlen, "view checksum mismatch (corrupted)");
  h->writer[sizeof h->writer - 1] = '\0';
  return 0;
}

int
snap_parse (struct snapshot *s, char *file, uint64_t len, char *err,
            size_t errlen)
{
  memset (s, 0, sizeof *s);
  if (check_header (file, len, &s->hdr, err, errlen) != 0)
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
      fail (err, errlen, "%s: %s", path, strerror (errno));
      return -1;
    }
  struct stat st;
  char *file = NULL;
  if (fstat (fd, &st) != 0)
    fail (why, sizeof why, "%s", strerror (errno));
  else if (!S_ISREG (st.st_mode))
    fail (why, sizeof why, "not a regular file");
  else if ((uint64_t) st.st_size > OSP_SNAP_MAX_BYTES)
    fail (why, sizeof why, "%llu bytes, more than a snapshot can be",
          (unsigned long long) st.st_size);
  else
    file = slurp (fd, (uint64_t) st.st_size, why, sizeof why);
  close (fd);
  if (file == NULL
      || snap_parse (s, file, (uint64_t) st.st_size, why, sizeof why) != 0)
    {
      free (file);
      fail (err, errlen, "%s: %s", path, why);
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
    return fail (err, errlen, "cannot write %s: %s", path, strerror (e));
  return 0;
}

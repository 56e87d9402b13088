/* SPDX-License-Identifier: GPL-3.0-or-later */
/* srctext.c - a source file's text, shown only when it is the file that
 * was compiled.
 *
 * Why: a view names its source files, and a view may come from anyone (a
 * snapshot is a file; a segment is written by the profiled process).  If
 * ospview printed whatever path a view names, `ospview --annotate' run as
 * root on a crafted snapshot would print /etc/shadow.  So the plugin
 * records the size and SHA-256 of each source file as it compiled it
 * (include/osp/abi.h), the view carries them (FNSRC, include/osp/view.h),
 * and every place that shows source text gets it from here: the file is
 * read once into memory, at most SRC_TEXT_MAX bytes and only when it is a
 * regular file of the recorded size (nothing else is even opened), and
 * its bytes are handed out only when exactly those bytes hash to the
 * recorded digest.  Anything else - no digest in
 * the view (an older view, a file the plugin could not read), another
 * size, another digest, not a regular file, unreadable - is the one answer
 * "source changed or not found", with no detail: the reason (the file
 * exists, its size) would itself tell something about a file that is not
 * the source.
 */
#define _GNU_SOURCE
#include "ospview.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sha256.h"

int
src_want (const struct view *v, const uint32_t *fns, size_t n,
          struct osp_vfnsrc *out)
{
  memset (out, 0, sizeof *out);
  if (n == 0)
    return 0;
  for (size_t i = 0; i < n; i++)
    {
      const struct osp_vfnsrc *s = view_fnsrc (v, fns[i]);
      if (s == NULL || !(s->flags & OSP_VSRC_DIGEST))
        return 0;
      if (i == 0)
        *out = *s;
      else if (s->size != out->size
               || memcmp (s->sha256, out->sha256, sizeof s->sha256) != 0)
        return 0; /* two contents under one name: neither is shown */
    }
  return 1;
}

char *
src_text_load (const char *path, const struct osp_vfnsrc *want, size_t *len)
{
  *len = 0;
  if (want == NULL || !(want->flags & OSP_VSRC_DIGEST)
      || want->size > SRC_TEXT_MAX || path == NULL || *path == '\0')
    return NULL;
  /* Only a regular file is opened: opening a device has effects of its
     own (a watchdog, a tape's rewind), whatever is read after.  The
     fstat after the open checks it is still that file. */
  struct stat before, sb;
  if (stat (path, &before) != 0 || !S_ISREG (before.st_mode)
      || (uint64_t) before.st_size != want->size)
    return NULL;
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    return NULL;
  if (fstat (fd, &sb) != 0 || !S_ISREG (sb.st_mode)
      || sb.st_dev != before.st_dev || sb.st_ino != before.st_ino
      || (uint64_t) sb.st_size != want->size)
    {
      close (fd);
      return NULL;
    }
  size_t size = (size_t) want->size, got = 0;
  /* one byte more than expected: a file that grew since fstat is seen */
  char *buf = malloc (size + 1);
  while (buf != NULL && got <= size)
    {
      ssize_t k = read (fd, buf + got, size + 1 - got);
      if (k <= 0)
        break;
      got += (size_t) k;
    }
  close (fd);
  unsigned char sum[OSP_SHA256_BYTES];
  if (buf != NULL && got == size)
    osp_sha256 (buf, size, sum);
  if (buf == NULL || got != size
      || memcmp (sum, want->sha256, sizeof sum) != 0)
    {
      free (buf);
      return NULL;
    }
  buf[size] = '\0';
  *len = size;
  return buf;
}

/* SPDX-License-Identifier: MIT */
/* snapfile.h - files written whole or not at all, and snapshot files
 * (include/osp/snapshot.h): written by the runtime (reports, snapshot=)
 * and ospview (s, --save, --merge), read and checked by ospview
 * (osp_snap_check, viewparse.h). */
#ifndef OSP_SNAPFILE_H
#define OSP_SNAPFILE_H

#include <stddef.h>
#include <stdint.h>

#include "osp/snapshot.h"

/* write(2) all of BUF to FD; SIGPIPE is blocked meanwhile and one this
   write raised is discarded (a closed pipe must not kill the profiled
   program).  0 or an errno value. */
int osp_write_all (int fd, const void *buf, size_t len);

/* Replace PATH by the concatenation of the N pieces (BUF[i], LEN[i]):
   written to a temporary file in PATH's directory, mode MODE exactly
   (not masked by the umask), then renamed over PATH, so a reader sees the
   old file or the new one, never a part.  A symbolic link of another
   user at PATH is refused with ELOOP (osp_file_strerror explains it).
   0 or an errno value (the temporary file is removed). */
int osp_file_replace_mode (const char *path, const void *const *buf,
                           const size_t *len, int n, unsigned mode);

/* osp_file_replace_mode with mode 0600. */
int osp_file_replace (const char *path, const void *const *buf,
                      const size_t *len, int n);

/* strerror, but naming the foreign symbolic link for ELOOP. */
const char *osp_file_strerror (int err);

/* The header of a snapshot of the LEN view bytes at VIEW. */
void osp_snap_header (struct osp_snap_header *h, const void *view,
                      uint64_t len, uint32_t flags, const char *writer);

/* Write a view as snapshot file PATH (osp_file_replace, mode 0600).  0 or
   an errno value. */
int osp_snap_write (const char *path, const void *view, uint64_t len,
                    uint32_t flags, const char *writer);

/* The same with file mode MODE (osp_file_replace_mode). */
int osp_snap_write_mode (const char *path, const void *view, uint64_t len,
                         uint32_t flags, const char *writer, unsigned mode);

#endif

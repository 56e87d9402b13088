/* SPDX-License-Identifier: MIT */
/* warn.c - messages, the process-wide statistics, the runtime's phase.
 *
 * Every line osp writes to stderr (and every report to stdout) goes
 * through osp_output_write, which writes only while the fd is still the
 * file it was at start-up: a daemon that closed fd 2 and opened its own
 * file there never gets osp's lines in its data.
 */
#define _GNU_SOURCE
#include "base/base.h"
#include "format/snapfile.h"

#include <errno.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

struct osp_stats osp_stats;
atomic_int osp_phase = OSP_PHASE_NEW;
_Atomic (const _Atomic uint32_t *) osp_entry_watch;
void (*osp_entry_work) (void);

int
osp_running (void)
{
  int ph = atomic_load_explicit (&osp_phase, memory_order_acquire);
  return ph == OSP_PHASE_RUNNING || ph == OSP_PHASE_REPORTING;
}

void
osp_warn (const char *fmt, ...)
{
  char buf[1024];
  va_list ap;
  va_start (ap, fmt);
  int n = vsnprintf (buf, sizeof buf - 1, fmt, ap);
  va_end (ap);
  if (n < 0)
    return;
  if ((size_t) n > sizeof buf - 2)
    n = sizeof buf - 2;
  buf[n++] = '\n';
  /* Only while fd 2 is the stderr of start-up (below). */
  osp_output_write (STDERR_FILENO, buf, (size_t) n);
}

/* fds 1 and 2 as they were at start-up.  A program may close them and
   open its own files there (a daemon does); writing "stderr" then would
   put osp's lines into the program's data.  So every write osp makes to
   fd 1 or 2 (messages, reports) first checks that the fd still is the
   same file (device and inode), and is skipped, and counted, otherwise.
   A fd closed at start-up is never written: whatever gets that number
   later is the program's.  (A program thread swapping the fd between the
   check and the write is a window this cannot close; no fd osp keeps open
   could, without keeping a fd under the program.) */
static struct
{
  int valid;
  dev_t dev;
  ino_t ino;
} std_fd[3];

void
osp_output_init (void)
{
  for (int fd = 1; fd <= 2; fd++)
    {
      struct stat st;
      std_fd[fd].valid = fstat (fd, &st) == 0;
      if (std_fd[fd].valid)
        {
          std_fd[fd].dev = st.st_dev;
          std_fd[fd].ino = st.st_ino;
        }
    }
}

int
osp_output_write (int fd, const void *buf, size_t len)
{
  struct stat st;
  if (fd < 1 || fd > 2 || !std_fd[fd].valid || fstat (fd, &st) != 0
      || st.st_dev != std_fd[fd].dev || st.st_ino != std_fd[fd].ino)
    {
      atomic_fetch_add_explicit (&osp_stats.output_skipped, 1,
                                 memory_order_relaxed);
      return EBADF;
    }
  return osp_write_all (fd, buf, len);
}


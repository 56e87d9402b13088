/* SPDX-License-Identifier: MIT */
/* osp/shm.h - the shared-memory segment a profiled process publishes into
 * and ospview reads (layout version OSP_SHM_MAJOR.OSP_SHM_MINOR).
 *
 * One POSIX shared-memory object per process, mode 0600, created O_CREAT|
 * O_EXCL by the runtime (libosprt/output/publish.c), named
 *     "/osp-<euid>-<pid>"           (the file /dev/shm/osp-<euid>-<pid>)
 * with <pid> as the process sees itself.  /dev/shm is shared by processes
 * of different pid namespaces (containers, unshare --pid), where the same
 * number names different processes: so the header records the inode of
 * the writer's pid namespace and the process's start time in clock ticks
 * since boot (/proc/PID/stat field 22: it survives exec and tells a
 * reused pid apart), and when that name is held by a segment of another
 * pid namespace the writer takes
 *     "/osp-<euid>-<pid>-<pidns>"   (<pidns>: the inode of /proc/self/ns/pid)
 * instead.  A reader looking for pid P of namespace N takes the first
 * name whose header says N (or says nothing: an older writer).
 *
 * Size: the object has its whole size (ftruncate), but only the header's
 * page is reserved at creation (posix_fallocate: a full /dev/shm fails
 * there); each view buffer's pages are reserved by the writer before it
 * first writes them (again posix_fallocate: a full /dev/shm is an error,
 * never a SIGBUS), so a segment costs what its views take, not
 * 2 * buf_cap.  A reader copies only the len[b] bytes a writer wrote.
 *
 * Lifetime: unlinked at normal exit by the process that created it; a
 * forked child publishes under its own pid; segments of processes that
 * are provably gone (the header says the sweeper's pid namespace, and
 * the pid is free, or taken by a process with another start time) are
 * swept by the next runtime of the same user that starts and by the
 * parent of forked children (at its runtime entries after forks, and at
 * its exit); no other segment is ever removed.
 *
 *   [0, header_size)                      struct osp_shm_header
 *   [buf_off[0], buf_off[0] + buf_cap)    view buffer 0 (osp/view.h)
 *   [buf_off[1], buf_off[1] + buf_cap)    view buffer 1
 *
 * Attaching (minor 1): a runtime publishes only once a viewer has asked
 * for views, so that a process nobody watches has no publisher thread.
 * A viewer attaching to a live process whose segment has minor >= 1 and
 * no view yet (publishes == 0) stores a nonzero value into `attach',
 * the one header word a reader writes (it needs the file open read-write:
 * the owner or root); the runtime notices it at its next runtime entry
 * and starts publishing: the first view follows within a publish period
 * of the program's next instrumented code.  A writer of minor 0 ignores
 * the word (it was padding) and publishes from start-up; a reader of
 * minor 0 never writes it.
 *
 * Publishing (one writer, the runtime's publisher thread; any number of
 * readers; nobody ever waits for anybody): the writer fills the buffer that
 * `current' does not name, bracketed by its sequence number:
 *     seq[b] += 1 (odd: being written), release fence
 *     write the view, len[b] = its size
 *     seq[b] += 1 (even), release store
 *     current = b, release store
 * A reader:
 *     b = current (acquire); s1 = seq[b] (acquire); odd -> retry
 *     l = len[b]; check l <= buf_cap; copy the buffer out
 *     acquire fence; s2 = seq[b]; s1 != s2 -> retry
 * and gives up after a bounded number of retries (the writer rewrites a
 * buffer only every other publish, so a reader that copies faster than a
 * publish period always succeeds).  The copy is then validated as any
 * untrusted view (osp/view.h).
 *
 * The header's fixed fields never change after state becomes ONLINE; the
 * atomics are written only by the writer, except `attach'.  A reader
 * validates magic,
 * byte_order, major, header_size, segment_size against the object's real
 * size, and the buffers lying inside it, before trusting any offset.
 */
#ifndef OSP_SHM_H
#define OSP_SHM_H

#include <stdint.h>

#define OSP_SHM_MAGIC "OSPSHM\000\001" /* 8 bytes */
#define OSP_SHM_MAJOR 2u
#define OSP_SHM_MINOR 1u
#define OSP_SHM_BYTE_ORDER 0x01020304u
/* Object names: OSP_SHM_PREFIX "<uid>-<pid>" or "<uid>-<pid>-<pidns>"
   (shm_open), files in /dev/shm. */
#define OSP_SHM_PREFIX "/osp-"
#define OSP_SHM_DIR "/dev/shm"

enum osp_shm_state
{
  OSP_SHM_INIT = 0,   /* being set up: not to be read yet */
  OSP_SHM_ONLINE = 1, /* the process runs and publishes */
  OSP_SHM_EXITED = 2  /* the process has ended; the last view stays */
};

#ifdef __cplusplus
#define OSP_SHM_ATOMIC(t) t
#else
#define OSP_SHM_ATOMIC(t) _Atomic t
#endif

struct osp_shm_header
{
  char magic[8];           /* OSP_SHM_MAGIC */
  uint32_t byte_order;     /* OSP_SHM_BYTE_ORDER as stored by the writer */
  uint16_t major, minor;
  uint32_t header_size;    /* sizeof (struct osp_shm_header) of the writer */
  uint32_t publish_ms;     /* the writer's period between views */
  uint64_t segment_size;   /* bytes of the whole object */
  uint64_t instance_id;    /* random per runtime start */
  int64_t pid;             /* as the process sees itself (its pid namespace) */
  uint64_t start_ns;       /* CLOCK_REALTIME at runtime start-up */
  uint64_t pidns;          /* inode of the process's pid namespace (0:
                              unknown: no /proc) */
  uint64_t proc_start;     /* its start, clock ticks since boot (/proc/PID/
                              stat field 22; 0: unknown) */
  uint64_t buf_off[2];     /* view buffers, 64-aligned */
  uint64_t buf_cap;        /* bytes of each buffer */
  char program[256];       /* the executable's name (NUL-terminated) */
  OSP_SHM_ATOMIC (uint32_t) state;       /* enum osp_shm_state */
  OSP_SHM_ATOMIC (uint32_t) attach;      /* minor >= 1: written by viewers,
                                            nonzero once one asked for views
                                            (Attaching, above); 0 before
                                            (minor 0: padding, always 0) */
  OSP_SHM_ATOMIC (uint64_t) heartbeat_ns; /* CLOCK_REALTIME, each publish */
  OSP_SHM_ATOMIC (uint64_t) current;      /* buffer with the newest view */
  OSP_SHM_ATOMIC (uint64_t) seq[2];       /* odd while buffer i is written */
  OSP_SHM_ATOMIC (uint64_t) len[2];       /* bytes of buffer i's view */
  OSP_SHM_ATOMIC (uint64_t) publishes;    /* views written */
  OSP_SHM_ATOMIC (uint64_t) truncated;    /* views cut to fit buf_cap */
  OSP_SHM_ATOMIC (uint64_t) publish_ns;   /* time spent publishing, total */
};

#endif

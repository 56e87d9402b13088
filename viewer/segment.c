/* SPDX-License-Identifier: GPL-3.0-or-later */
/* segment.c - finding, attaching to and reading the shared-memory segments
 * that profiled processes publish (include/osp/shm.h).
 *
 * Why so careful: the segment is written by another process, which may be
 * an older or newer osp, may die at any moment, or may not be osp at all
 * (any file of ours in /dev/shm with a matching name).  So:
 *   - the header is first read with pread into a private copy and checked
 *     field by field (magic, byte order, major version, sizes, the two
 *     view buffers inside the object) before anything is mapped, and the
 *     offsets used later come from that copy, never again from the shared
 *     page (the writer could change them under us);
 *   - the file is opened O_NOFOLLOW and must be a regular file of ours;
 *   - the view is copied out under the writer's seqlock (shm.h's reader
 *     protocol) with a bounded number of retries, and the copy is then
 *     validated like any untrusted input (view.c);
 *   - the file may be truncated at any moment (by its writer, its owner,
 *     anyone who can write it), and touching a mapped page past the new
 *     end is a SIGBUS: a handler of ours (bus_handler) maps zero pages over
 *     the rest of an attached segment and marks it lost, so the access
 *     reads zeros and seg_read reports the truncation (one line) instead
 *     of the viewer dying.
 * Who may read a segment: its owner, and root or a holder of
 * CAP_SYS_PTRACE, who may read the process's memory anyway (ptrace's
 * rule); the file's mode (0600) refuses everybody else.  A pid names a
 * process in a pid namespace (shm.h): seg_attach finds the namespace and
 * the pid the process has in it under /proc/PID, so a process in a
 * container is found from outside it, and a segment whose header names
 * another namespace is never taken for the pid's.  Alive means: the pid
 * exists, is not a zombie (killed but not yet reaped), and has the start
 * time the header recorded.
 * The one write: a runtime of layout 2.1 publishes only once a viewer
 * asked (shm.h, `attach'), so that a process nobody watches has no
 * thread of osp's.  seg_request, for a process attached by pid that runs
 * and has published nothing yet, stores 1 there with pwrite through a
 * descriptor of its own opened O_WRONLY (the same file: device and inode
 * checked; the mapping stays read-only); one that cannot (not the owner)
 * says so and reads on.  -l and --segment FILE never write.
 * Every failure is one line naming the file and the problem.
 */
#define _GNU_SOURCE
#include "ospview.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* seg_read: tries before giving up, and the pause between two tries.  A
   publish rewrites a given buffer only every other period (>= tens of
   ms), so 16 tries 1 ms apart fail only when the writer is stuck mid-write
   (it died there) or publishes absurdly fast. */
#define READ_TRIES 16
#ifndef READ_PAUSE_NS /* the fuzz build sets 0: no time to wait there */
#define READ_PAUSE_NS 1000000L
#endif

static void
seterr (char *err, size_t errlen, const char *fmt, ...)
{
  if (err == NULL || errlen == 0)
    return;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (err, errlen, fmt, ap);
  va_end (ap);
}

/* ---- processes ------------------------------------------------------- */

/* Whether we may read any user's segment: root, or CAP_SYS_PTRACE in our
   effective set (/proc/self/status CapEff, bit 19). */
static int
privileged (void)
{
  if (geteuid () == 0)
    return 1;
  FILE *f = fopen ("/proc/self/status", "re");
  if (f == NULL)
    return 0;
  char line[256];
  unsigned long long caps = 0;
  while (fgets (line, sizeof line, f))
    if (sscanf (line, "CapEff: %llx", &caps) == 1)
      break;
  fclose (f);
  return (caps >> 19) & 1;
}

/* The inode of PID's pid namespace ("self" if 0), 0 if unknown. */
static uint64_t
pidns_of (pid_t pid)
{
  char file[64];
  if (pid == 0)
    snprintf (file, sizeof file, "/proc/self/ns/pid");
  else
    snprintf (file, sizeof file, "/proc/%ld/ns/pid", (long) pid);
  struct stat st;
  return stat (file, &st) == 0 ? (uint64_t) st.st_ino : 0;
}

/* From /proc/PID/stat: the state letter and the start time (field 22,
   clock ticks since boot).  0, or -1 if the process is not there. */
static int
proc_stat (pid_t pid, char *state, uint64_t *start)
{
  char file[64], buf[1024];
  snprintf (file, sizeof file, "/proc/%ld/stat", (long) pid);
  int fd = open (file, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  ssize_t n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return -1;
  buf[n] = '\0';
  /* The command name (field 2) is in parentheses and may hold anything:
     count the fields from its last ')'. */
  char *p = strrchr (buf, ')');
  if (p == NULL || p[1] != ' ')
    return -1;
  p += 2;
  *state = *p;
  *start = 0;
  for (int field = 3; field < 22 && p; field++)
    {
      p = strchr (p, ' ');
      if (p)
        p++;
    }
  if (p)
    *start = strtoull (p, NULL, 10);
  return 0;
}

/* PID's pid as it sees itself (the last NSpid of /proc/PID/status), PID
   itself when that cannot be read. */
static pid_t
inner_pid (pid_t pid)
{
  char file[64], line[256];
  snprintf (file, sizeof file, "/proc/%ld/status", (long) pid);
  FILE *f = fopen (file, "re");
  if (f == NULL)
    return pid;
  pid_t inner = pid;
  while (fgets (line, sizeof line, f))
    if (strncmp (line, "NSpid:", 6) == 0)
      {
        char *p = line + 6, *end;
        for (;;)
          {
            long v = strtol (p, &end, 10);
            if (end == p)
              break;
            if (v > 0 && (long) (pid_t) v == v)
              inner = (pid_t) v;
            p = end;
          }
        break;
      }
  fclose (f);
  return inner;
}

/* Whether the process of header H (pid, start time), of our pid
   namespace, still runs: it exists (EPERM: another user's, it exists),
   is no zombie, and, when both are known, has the recorded start time. */
static int
header_alive (const struct osp_shm_header *h)
{
  if (h->pid <= 0 || h->pid > INT32_MAX)
    return 0;
  pid_t pid = (pid_t) h->pid;
  if (!seg_alive (pid))
    return 0;
  char state;
  uint64_t start;
  if (proc_stat (pid, &state, &start) != 0)
    return 1; /* no /proc: kill's answer is all we have */
  return h->major < 2 || h->proc_start == 0 || start == 0
         || start == h->proc_start;
}

/* ---- SIGBUS: a segment truncated under us ----------------------------- */

/* The attached mappings (a viewer attaches one at a time, -l one after
   another; a few slots spare). */
#define MAPS 8
static void *volatile map_addr[MAPS];
static volatile size_t map_len[MAPS];
static volatile sig_atomic_t map_lost[MAPS];

/* A fault inside an attached mapping: the file shrank under it.  Zero
   pages over the whole mapping (mmap is a plain system call, safe here),
   marked lost; the faulting access is retried and reads zeros.  Anywhere
   else: a real bug, the default action. */
static void
bus_handler (int sig, siginfo_t *si, void *ctx)
{
  (void) ctx;
  char *a = si->si_addr;
  for (int i = 0; i < MAPS; i++)
    {
      char *m = map_addr[i];
      if (m != NULL && a >= m && a < m + map_len[i])
        {
          if (mmap (m, map_len[i], PROT_READ,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
              != MAP_FAILED)
            {
              map_lost[i] = 1;
              return;
            }
          break;
        }
    }
  signal (sig, SIG_DFL);
}

static int
map_register (void *m, size_t len)
{
  static int installed;
  if (!installed)
    {
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_sigaction = bus_handler;
      sa.sa_flags = SA_SIGINFO | SA_NODEFER;
      sigemptyset (&sa.sa_mask);
      if (sigaction (SIGBUS, &sa, NULL) != 0)
        return -1;
      installed = 1;
    }
  for (int i = 0; i < MAPS; i++)
    if (map_addr[i] == NULL)
      {
        map_len[i] = len;
        map_lost[i] = 0;
        map_addr[i] = m;
        return 0;
      }
  return -1;
}

static void
map_unregister (void *m)
{
  for (int i = 0; i < MAPS; i++)
    if (map_addr[i] == m)
      {
        map_addr[i] = NULL;
        map_len[i] = 0;
      }
}

/* After a loss: map the file FD again over M (LEN bytes) when it has its
   size back (a writer that truncated and rewrote it); 0 then, else -1. */
static int
map_recover (void *m, size_t len, int fd)
{
  struct stat st;
  for (int i = 0; i < MAPS; i++)
    if (map_addr[i] == m && map_lost[i])
      {
        if (fstat (fd, &st) != 0 || (uint64_t) st.st_size < len
            || mmap (m, len, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0)
                   == MAP_FAILED)
          return -1;
        map_lost[i] = 0;
        return 0;
      }
  return 0;
}

/* Whether the mapping at M was lost to a truncation. */
static int
map_was_lost (const void *m)
{
  for (int i = 0; i < MAPS; i++)
    if (map_addr[i] == m)
      return map_lost[i] != 0;
  return 0;
}

/* Check the private copy H of the first N bytes of an object of SIZE bytes
   (N = min (SIZE, sizeof *H)).  0, or -1 with ERR. */
static int
check_header (const struct osp_shm_header *h, size_t n, uint64_t size,
              const char *path, char *err, size_t errlen)
{
  if (n < sizeof h->magic)
    {
      seterr (err, errlen, "%s: not an osp segment (only %llu bytes)", path,
              (unsigned long long) size);
      return -1;
    }
  if (memcmp (h->magic, OSP_SHM_MAGIC, sizeof h->magic) != 0)
    {
      seterr (err, errlen, "%s: not an osp segment (bad magic)", path);
      return -1;
    }
  /* The writer fills the header, then sets the state ONLINE, last: before
     that nothing in it is meant to be read. */
  if (n == sizeof *h
      && atomic_load_explicit (&h->state, memory_order_relaxed)
             == OSP_SHM_INIT)
    {
      seterr (err, errlen, "%s: still being set up by its process (try "
              "again)", path);
      return -1;
    }
  if (n < offsetof (struct osp_shm_header, segment_size)
              + sizeof h->segment_size)
    {
      seterr (err, errlen,
              "%s: truncated: %llu bytes, shorter than the segment header",
              path, (unsigned long long) size);
      return -1;
    }
  if (h->byte_order != OSP_SHM_BYTE_ORDER)
    {
      if (h->byte_order == __builtin_bswap32 (OSP_SHM_BYTE_ORDER))
        seterr (err, errlen,
                "%s: written with the other byte order (another machine?)",
                path);
      else
        seterr (err, errlen, "%s: bad byte-order mark 0x%08x", path,
                (unsigned) h->byte_order);
      return -1;
    }
  if (h->major != OSP_SHM_MAJOR)
    {
      seterr (err, errlen, "%s: layout version %u.%u, this ospview reads %u.x",
              path, (unsigned) h->major, (unsigned) h->minor,
              (unsigned) OSP_SHM_MAJOR);
      return -1;
    }
  if (size < h->segment_size)
    {
      seterr (err, errlen, "%s: truncated: %llu bytes, header says %llu", path,
              (unsigned long long) size,
              (unsigned long long) h->segment_size);
      return -1;
    }
  if (size != h->segment_size)
    {
      seterr (err, errlen, "%s: %llu bytes, but the header says %llu", path,
              (unsigned long long) size,
              (unsigned long long) h->segment_size);
      return -1;
    }
  if (h->header_size < sizeof *h || h->header_size > size)
    {
      seterr (err, errlen,
              "%s: header size %u out of range (at least %zu, at most the "
              "segment's %llu bytes)",
              path, (unsigned) h->header_size, sizeof *h,
              (unsigned long long) size);
      return -1;
    }
  /* The header is complete from here on (n == sizeof *h). */
  if (h->buf_cap == 0 || h->buf_cap > size)
    {
      seterr (err, errlen, "%s: view buffer capacity %llu out of range", path,
              (unsigned long long) h->buf_cap);
      return -1;
    }
  for (int i = 0; i < 2; i++)
    {
      uint64_t off = h->buf_off[i];
      if (off < h->header_size || off > size - h->buf_cap)
        {
          seterr (err, errlen,
                  "%s: view buffer %d (offset %llu, %llu bytes) lies outside "
                  "the segment (%llu bytes after a %u-byte header)",
                  path, i, (unsigned long long) off,
                  (unsigned long long) h->buf_cap, (unsigned long long) size,
                  (unsigned) h->header_size);
          return -1;
        }
      if (off % 64 != 0)
        {
          seterr (err, errlen,
                  "%s: view buffer %d at offset %llu is not 64-byte aligned",
                  path, i, (unsigned long long) off);
          return -1;
        }
    }
  uint64_t lo = h->buf_off[0] < h->buf_off[1] ? h->buf_off[0] : h->buf_off[1];
  uint64_t hi = h->buf_off[0] < h->buf_off[1] ? h->buf_off[1] : h->buf_off[0];
  if (hi - lo < h->buf_cap)
    {
      seterr (err, errlen, "%s: the two view buffers overlap", path);
      return -1;
    }
  if (memchr (h->program, '\0', sizeof h->program) == NULL)
    {
      seterr (err, errlen, "%s: program name not NUL-terminated", path);
      return -1;
    }
  return 0;
}

int
seg_attach_path (struct seg *s, const char *path, char *err, size_t errlen)
{
  memset (s, 0, sizeof *s);
  s->fd = -1;
  /* O_NONBLOCK: a FIFO of that name (anyone can make one in /dev/shm)
     must be refused below, not wait for a writer forever. */
  int fd = open (path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    {
      if (errno == ELOOP)
        seterr (err, errlen, "%s: is a symbolic link (refused)", path);
      else
        seterr (err, errlen, "%s: %s", path, strerror (errno));
      return -1;
    }
  struct stat st;
  if (fstat (fd, &st) != 0)
    {
      seterr (err, errlen, "%s: %s", path, strerror (errno));
      close (fd);
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      seterr (err, errlen, "%s: not a regular file", path);
      close (fd);
      return -1;
    }
  uint64_t size = (uint64_t) st.st_size;
  /* Only now is the size known: a file that shrinks from here on is the
     SIGBUS handler's (above). */
  struct osp_shm_header h;
  memset (&h, 0, sizeof h);
  size_t want = size < sizeof h ? (size_t) size : sizeof h;
  ssize_t got = pread (fd, &h, want, 0);
  if (got < 0)
    {
      seterr (err, errlen, "%s: %s", path, strerror (errno));
      close (fd);
      return -1;
    }
  if (check_header (&h, (size_t) got, size, path, err, errlen) != 0)
    {
      close (fd);
      return -1;
    }
  if (size > SIZE_MAX)
    {
      seterr (err, errlen, "%s: too big to map", path);
      close (fd);
      return -1;
    }
  void *map = mmap (NULL, (size_t) size, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED)
    {
      seterr (err, errlen, "%s: cannot map it: %s", path, strerror (errno));
      close (fd);
      return -1;
    }
  if (map_register (map, (size_t) size) != 0)
    {
      seterr (err, errlen, "%s: too many segments attached", path);
      munmap (map, (size_t) size);
      close (fd);
      return -1;
    }
  s->fd = fd;
  s->map = map;
  s->size = (size_t) size;
  s->pid = (pid_t) h.pid;
  s->hdr = map;
  s->fixed = h;
  snprintf (s->path, sizeof s->path, "%s", path);
  return 0;
}

/* Try the segment file PATH for the process of pid IPID in pid namespace
   NS (0: unknown).  1 attached, 0 not this process's segment (*WHY says
   why, when it exists), -1 failed with ERR. */
static int
try_name (struct seg *s, const char *path, pid_t ipid, uint64_t ns, int priv,
          char *why, size_t whylen, char *err, size_t errlen)
{
  struct stat st;
  if (lstat (path, &st) != 0)
    {
      if (errno == ENOENT)
        return 0;
      seterr (err, errlen, "%s: %s", path, strerror (errno));
      return -1;
    }
  if (st.st_uid != geteuid () && !priv)
    {
      seterr (err, errlen, "%s: not owned by you (uid %lu): refused", path,
              (unsigned long) st.st_uid);
      return -1;
    }
  if (seg_attach_path (s, path, err, errlen) != 0)
    return -1;
  const struct osp_shm_header *h = &s->fixed;
  if (h->major >= 2 && h->pidns != 0 && ns != 0 && h->pidns != ns)
    {
      /* Same number, another pid namespace: not this process. */
      seterr (why, whylen, "%s is a process of another pid namespace's",
              path);
      seg_detach (s);
      return 0;
    }
  if (h->pid != (int64_t) ipid)
    {
      seterr (err, errlen, "%s: the header names pid %lld, not %ld", path,
              (long long) h->pid, (long) ipid);
      seg_detach (s);
      return -1;
    }
  return 1;
}

int
seg_attach (struct seg *s, pid_t pid, char *err, size_t errlen)
{
  memset (s, 0, sizeof *s);
  s->fd = -1;
  /* The process as it sees itself: in a pid namespace of its own (a
     container) its pid and namespace are not ours. */
  uint64_t ns = pidns_of (pid);
  pid_t ipid = ns != 0 ? inner_pid (pid) : pid;
  if (ns == 0)
    ns = pidns_of (0);
  int priv = privileged ();
  /* Whose: ours; root also looks under the process's owner. */
  unsigned long uids[2] = { (unsigned long) geteuid (), 0 };
  int nuids = 1;
  char file[64];
  struct stat pst;
  snprintf (file, sizeof file, "/proc/%ld", (long) pid);
  if (priv && stat (file, &pst) == 0 && pst.st_uid != geteuid ())
    uids[nuids++] = (unsigned long) pst.st_uid;
  char why[256] = "";
  for (int u = 0; u < nuids; u++)
    for (int form = 0; form < 2; form++)
      {
        char path[128];
        if (form == 0)
          snprintf (path, sizeof path, "%s%s%lu-%ld", OSP_SHM_DIR,
                    OSP_SHM_PREFIX, uids[u], (long) ipid);
        else if (ns != 0)
          snprintf (path, sizeof path, "%s%s%lu-%ld-%llu", OSP_SHM_DIR,
                    OSP_SHM_PREFIX, uids[u], (long) ipid,
                    (unsigned long long) ns);
        else
          continue;
        int r = try_name (s, path, ipid, ns, priv, why, sizeof why, err,
                          errlen);
        if (r != 0)
          {
            if (r > 0)
              s->pid = pid;
            return r > 0 ? 0 : -1;
          }
      }
  if (!priv && stat (file, &pst) == 0 && pst.st_uid != geteuid ())
    seterr (err, errlen, "pid %ld runs as another user (uid %lu): only that "
            "user or root may read its profile (refused)", (long) pid,
            (unsigned long) pst.st_uid);
  else
    seterr (err, errlen, "no osp segment for pid %ld%s%s%s", (long) pid,
            seg_alive (pid) ? " (is it built with osp and running as you?)"
                            : " (no such process)",
            *why ? ": " : "", why);
  memset (s, 0, sizeof *s);
  s->fd = -1;
  return -1;
}

void
seg_detach (struct seg *s)
{
  if (s->map != NULL)
    {
      map_unregister (s->map);
      munmap (s->map, s->size);
    }
  if (s->fd >= 0)
    close (s->fd);
  memset (s, 0, sizeof *s);
  s->fd = -1;
}

/* Copy N bytes out of the shared buffer with relaxed atomic loads: the
   writer may be storing into it at the same time (the seqlock tells
   afterwards whether it did), and plain loads of racing data would be
   undefined behaviour.  SRC is 64-aligned (checked at attach). */
static void
copy_racy (void *dst, const void *src, size_t n)
{
  const _Atomic uint64_t *w = src;
  unsigned char *d = dst;
  size_t words = n / 8;
  for (size_t i = 0; i < words; i++)
    {
      uint64_t x = atomic_load_explicit (&w[i], memory_order_relaxed);
      memcpy (d + 8 * i, &x, 8);
    }
  const volatile unsigned char *tail
      = (const volatile unsigned char *) src + 8 * words;
  for (size_t i = 0; i < n % 8; i++)
    d[8 * words + i] = tail[i];
}

long
seg_read (const struct seg *s, void **buf, size_t *cap, char *err,
          size_t errlen)
{
  const struct osp_shm_header *h = s->hdr;
  /* The fixed fields as validated at attach: the shared copy is not
     trusted to stay the same. */
  const struct osp_shm_header *f = &s->fixed;
  struct stat st;
  if (map_recover (s->map, s->size, s->fd) != 0)
    {
      seterr (err, errlen, "%s: the segment was truncated while being read",
              s->path);
      return -1;
    }
  if (fstat (s->fd, &st) == 0 && (uint64_t) st.st_size < s->size)
    {
      seterr (err, errlen, "%s: the segment shrank to %llu bytes", s->path,
              (unsigned long long) st.st_size);
      return -1;
    }
  for (int t = 0; t < READ_TRIES && !map_was_lost (s->map); t++)
    {
      if (t > 0 && READ_PAUSE_NS > 0)
        {
          struct timespec ts = { 0, READ_PAUSE_NS };
          nanosleep (&ts, NULL);
        }
      uint32_t state = atomic_load_explicit (&h->state, memory_order_acquire);
      if (state == OSP_SHM_INIT)
        return 0;
      uint64_t b = atomic_load_explicit (&h->current, memory_order_acquire);
      if (b > 1)
        {
          seterr (err, errlen, "%s: bad current buffer %llu", s->path,
                  (unsigned long long) b);
          return -1;
        }
      uint64_t s1 = atomic_load_explicit (&h->seq[b], memory_order_acquire);
      if (s1 & 1)
        continue;
      if (s1 == 0)
        return 0; /* never written: nothing published yet */
      uint64_t l = atomic_load_explicit (&h->len[b], memory_order_relaxed);
      if (l > f->buf_cap)
        {
          atomic_thread_fence (memory_order_acquire);
          if (atomic_load_explicit (&h->seq[b], memory_order_relaxed) != s1)
            continue;
          seterr (err, errlen,
                  "%s: view length %llu exceeds the buffer's %llu bytes",
                  s->path, (unsigned long long) l,
                  (unsigned long long) f->buf_cap);
          return -1;
        }
      if (l > LONG_MAX)
        {
          seterr (err, errlen, "%s: view too big", s->path);
          return -1;
        }
      /* at least one byte, so that *buf is never NULL on success */
      if (ospview_grow (buf, cap, l > 0 ? (size_t) l : 1, 1, 4096) != 0)
        {
          seterr (err, errlen, "out of memory for a %llu-byte view",
                  (unsigned long long) l);
          return -1;
        }
      copy_racy (*buf, (const char *) s->map + f->buf_off[b], (size_t) l);
      atomic_thread_fence (memory_order_acquire);
      uint64_t s2 = atomic_load_explicit (&h->seq[b], memory_order_relaxed);
      if (map_was_lost (s->map))
        break;
      if (s1 != s2)
        continue;
      return (long) l;
    }
  if (map_was_lost (s->map))
    {
      seterr (err, errlen, "%s: the segment was truncated while being read",
              s->path);
      return -1;
    }
  seterr (err, errlen, "%s: the segment kept changing while being read",
          s->path);
  return -1;
}

/* ---- listing --------------------------------------------------------- */

/* From NAME = "osp-<uid>-<pid>" or "osp-<uid>-<pid>-<pidns>": the uid and
   the pid (0), or -1. */
static int
parse_name (const char *name, unsigned long *uid, long *pid)
{
  const char *p = name;
  size_t plen = strlen (&OSP_SHM_PREFIX[1]);
  if (strncmp (p, &OSP_SHM_PREFIX[1], plen) != 0)
    return -1;
  p += plen;
  unsigned long long v[3];
  int n = 0;
  while (n < 3)
    {
      if (*p < '0' || *p > '9' || (n > 0 && *p == '0'))
        return -1;
      unsigned long long x = 0;
      for (; *p >= '0' && *p <= '9'; p++)
        {
          if (x > (ULLONG_MAX - 9) / 10)
            return -1;
          x = x * 10 + (unsigned) (*p - '0');
        }
      v[n++] = x;
      if (*p == '\0')
        break;
      if (*p++ != '-')
        return -1;
    }
  if (*p != '\0' || n < 2 || v[0] > ULONG_MAX || v[1] > INT32_MAX)
    return -1;
  *uid = (unsigned long) v[0];
  *pid = (long) v[1];
  return 0;
}

int
seg_alive (pid_t pid)
{
  /* EPERM: the process exists but is not ours (pid reuse): alive. */
  if (kill (pid, 0) != 0 && errno != EPERM)
    return 0;
  /* A zombie (killed, not yet reaped) runs no more. */
  char state;
  uint64_t start;
  return proc_stat (pid, &state, &start) != 0
         || (state != 'Z' && state != 'X');
}

int
seg_running (const struct seg *s)
{
  const struct osp_shm_header *h = &s->fixed;
  if (s->pid > 0 && (int64_t) s->pid != h->pid)
    {
      /* Attached through /proc from another pid namespace: the pid we
         see, with the start time the header recorded (ticks since boot
         are the same in every namespace). */
      if (!seg_alive (s->pid))
        return 0;
      char state;
      uint64_t start;
      return proc_stat (s->pid, &state, &start) != 0 || h->proc_start == 0
             || start == h->proc_start;
    }
  uint64_t ns = pidns_of (0);
  if (h->major >= 2 && h->pidns != 0 && ns != 0 && h->pidns != ns)
    return 1; /* its pid means another process here: not known */
  return header_alive (h);
}

static int
by_newest (const void *a, const void *b)
{
  const struct seg_info *x = a, *y = b;
  if (x->start_ns != y->start_ns)
    return x->start_ns > y->start_ns ? -1 : 1;
  return x->pid > y->pid ? -1 : x->pid < y->pid;
}

int
seg_list (struct seg_info *out, int max, char *err, size_t errlen)
{
  DIR *d = opendir (OSP_SHM_DIR);
  if (d == NULL)
    {
      seterr (err, errlen, "%s: %s", OSP_SHM_DIR, strerror (errno));
      return -1;
    }
  /* Root (or CAP_SYS_PTRACE) lists everyone's, like ps. */
  int priv = privileged ();
  uint64_t ns = pidns_of (0);
  struct seg_info *all = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir (d)) != NULL)
    {
      unsigned long uid;
      long pid;
      if (parse_name (e->d_name, &uid, &pid) != 0
          || (uid != (unsigned long) geteuid () && !priv))
        continue;
      struct stat st;
      if (fstatat (dirfd (d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0
          || !S_ISREG (st.st_mode) || st.st_uid != uid)
        continue;
      char path[sizeof OSP_SHM_DIR + 256 + 2];
      snprintf (path, sizeof path, "%s/%s", OSP_SHM_DIR, e->d_name);
      struct seg s;
      if (seg_attach_path (&s, path, NULL, 0) != 0)
        continue; /* not (yet) a valid segment: not attachable */
      if (s.fixed.pid != pid)
        {
          seg_detach (&s);
          continue;
        }
      struct seg_info in;
      memset (&in, 0, sizeof in);
      in.pid = (pid_t) pid;
      in.state = atomic_load_explicit (&s.hdr->state, memory_order_acquire);
      /* Of another pid namespace, its pid means another process here:
         whether it runs is not known; its header's word is taken. */
      if (s.fixed.major >= 2 && s.fixed.pidns != 0 && ns != 0
          && s.fixed.pidns != ns)
        in.alive = 1;
      else
        in.alive = header_alive (&s.fixed);
      memcpy (in.program, s.fixed.program, sizeof in.program);
      in.start_ns = s.fixed.start_ns;
      in.heartbeat_ns
          = atomic_load_explicit (&s.hdr->heartbeat_ns, memory_order_relaxed);
      in.publishes
          = atomic_load_explicit (&s.hdr->publishes, memory_order_relaxed);
      seg_detach (&s);
      if (in.state == OSP_SHM_INIT)
        continue;
      if (ospview_grow (&all, &cap, n + 1, sizeof *all, 16) != 0)
        {
          free (all);
          closedir (d);
          seterr (err, errlen, "out of memory");
          return -1;
        }
      all[n++] = in;
    }
  closedir (d);
  if (n > 1)
    qsort (all, n, sizeof *all, by_newest);
  for (size_t i = 0; i < n && (int) i < max; i++)
    out[i] = all[i];
  free (all);
  return n > INT_MAX ? INT_MAX : (int) n;
}

/* ---- asking for views ------------------------------------------------ */

void
seg_request (struct seg *s)
{
  const struct osp_shm_header *h = s->hdr;
  /* A writer of minor 0 publishes from its start; one that has published
     was asked already (or is of a version that needs no asking); a
     process gone, or exited, publishes nothing more. */
  if (s->fixed.minor < 1
      || atomic_load_explicit (&h->publishes, memory_order_relaxed) != 0
      || atomic_load_explicit (&h->attach, memory_order_relaxed) != 0)
    {
      s->asked = 1;
      return;
    }
  if (atomic_load_explicit (&h->state, memory_order_acquire) != OSP_SHM_ONLINE
      || !seg_running (s))
    return;
  /* The one store a reader makes: through a descriptor of our own opened
     for writing (the mapping stays read-only), of the very file attached
     (not a file put under its name since), and never past its end. */
  int fd = open (s->path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  int err = fd < 0 ? errno : 0;
  struct stat a, b;
  if (err == 0
      && (fstat (fd, &a) != 0 || fstat (s->fd, &b) != 0
          || a.st_dev != b.st_dev || a.st_ino != b.st_ino
          || (uint64_t) a.st_size < s->fixed.header_size))
    err = ESTALE;
  uint32_t one = 1;
  if (err == 0
      && pwrite (fd, &one, sizeof one,
                 (off_t) offsetof (struct osp_shm_header, attach))
             != (ssize_t) sizeof one)
    err = errno ? errno : EIO;
  if (fd >= 0)
    close (fd);
  s->asked = err == 0 ? 1 : -1;
  if (err != 0)
    seterr (s->ask_err, sizeof s->ask_err,
            "no view: cannot ask the process to publish (opening %s for "
            "writing: %s); watching read-only", s->path, strerror (err));
}

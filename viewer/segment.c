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
 *     validated like any untrusted input (view.c).
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

/* The path of PID's segment for the effective user. */
static void
seg_path (char *out, size_t n, pid_t pid)
{
  snprintf (out, n, "%s%s%lu-%ld", OSP_SHM_DIR, OSP_SHM_PREFIX,
            (unsigned long) geteuid (), (long) pid);
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
  int fd = open (path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
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
  s->fd = fd;
  s->map = map;
  s->size = (size_t) size;
  s->pid = (pid_t) h.pid;
  s->hdr = map;
  s->fixed = h;
  snprintf (s->path, sizeof s->path, "%s", path);
  return 0;
}

int
seg_attach (struct seg *s, pid_t pid, char *err, size_t errlen)
{
  char path[128];
  seg_path (path, sizeof path, pid);
  struct stat st;
  if (lstat (path, &st) != 0)
    {
      if (errno == ENOENT)
        seterr (err, errlen, "no osp segment for pid %ld%s", (long) pid,
                kill (pid, 0) == 0 || errno == EPERM
                    ? " (is it built with osp and running as you?)"
                    : " (no such process)");
      else
        seterr (err, errlen, "%s: %s", path, strerror (errno));
      memset (s, 0, sizeof *s);
      s->fd = -1;
      return -1;
    }
  if (st.st_uid != geteuid ())
    {
      seterr (err, errlen, "%s: not owned by you (uid %lu): refused", path,
              (unsigned long) st.st_uid);
      memset (s, 0, sizeof *s);
      s->fd = -1;
      return -1;
    }
  if (seg_attach_path (s, path, err, errlen) != 0)
    return -1;
  if (s->fixed.pid != (int64_t) pid)
    {
      seterr (err, errlen, "%s: the header names pid %lld, not %ld", path,
              (long long) s->fixed.pid, (long) pid);
      seg_detach (s);
      return -1;
    }
  return 0;
}

void
seg_detach (struct seg *s)
{
  if (s->map != NULL)
    munmap (s->map, s->size);
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
  if (fstat (s->fd, &st) == 0 && (uint64_t) st.st_size < s->size)
    {
      seterr (err, errlen, "%s: the segment shrank to %llu bytes", s->path,
              (unsigned long long) st.st_size);
      return -1;
    }
  for (int t = 0; t < READ_TRIES; t++)
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
      if (*cap < l || *buf == NULL)
        {
          size_t ncap = l < 4096 ? 4096 : (size_t) l;
          void *nb = realloc (*buf, ncap);
          if (nb == NULL)
            {
              seterr (err, errlen, "out of memory for a %llu-byte view",
                      (unsigned long long) l);
              return -1;
            }
          *buf = nb;
          *cap = ncap;
        }
      copy_racy (*buf, (const char *) s->map + f->buf_off[b], (size_t) l);
      atomic_thread_fence (memory_order_acquire);
      uint64_t s2 = atomic_load_explicit (&h->seq[b], memory_order_relaxed);
      if (s1 != s2)
        continue;
      return (long) l;
    }
  seterr (err, errlen, "%s: the segment kept changing while being read",
          s->path);
  return -1;
}

/* ---- listing --------------------------------------------------------- */

/* PID from NAME = "osp-<uid>-<pid>" of user UID, or -1. */
static long
name_pid (const char *name, unsigned long uid)
{
  char want[64];
  snprintf (want, sizeof want, "%s%lu-", &OSP_SHM_PREFIX[1], uid);
  size_t n = strlen (want);
  if (strncmp (name, want, n) != 0)
    return -1;
  const char *p = name + n;
  if (*p < '1' || *p > '9')
    return -1;
  long pid = 0;
  for (; *p; p++)
    {
      if (*p < '0' || *p > '9' || pid > (LONG_MAX - 9) / 10)
        return -1;
      pid = pid * 10 + (*p - '0');
    }
  if ((long) (pid_t) pid != pid)
    return -1;
  return pid;
}

int
seg_alive (pid_t pid)
{
  /* EPERM: the process exists but is not ours (pid reuse): alive. */
  return kill (pid, 0) == 0 || errno == EPERM;
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
  unsigned long uid = (unsigned long) geteuid ();
  struct seg_info *all = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir (d)) != NULL)
    {
      long pid = name_pid (e->d_name, uid);
      if (pid < 0)
        continue;
      struct stat st;
      if (fstatat (dirfd (d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0
          || !S_ISREG (st.st_mode) || st.st_uid != geteuid ())
        continue;
      struct seg s;
      if (seg_attach (&s, (pid_t) pid, NULL, 0) != 0)
        continue; /* not (yet) a valid segment: not attachable */
      struct seg_info in;
      memset (&in, 0, sizeof in);
      in.pid = (pid_t) pid;
      in.state = atomic_load_explicit (&s.hdr->state, memory_order_acquire);
      in.alive = seg_alive (in.pid);
      memcpy (in.program, s.fixed.program, sizeof in.program);
      in.start_ns = s.fixed.start_ns;
      in.heartbeat_ns
          = atomic_load_explicit (&s.hdr->heartbeat_ns, memory_order_relaxed);
      seg_detach (&s);
      if (in.state == OSP_SHM_INIT)
        continue;
      if (n == cap)
        {
          size_t ncap = cap ? 2 * cap : 16;
          struct seg_info *na = realloc (all, ncap * sizeof *na);
          if (na == NULL)
            {
              free (all);
              closedir (d);
              seterr (err, errlen, "out of memory");
              return -1;
            }
          all = na;
          cap = ncap;
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

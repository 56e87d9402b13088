/* SPDX-License-Identifier: MIT */
/* publish.c - live views: the profile published into shared memory a few
 * times a second for ospview (OSP_OPTIONS publish=on|off, publish_ms,
 * publish_bytes; the layout is include/osp/shm.h, the view
 * include/osp/view.h).
 *
 * The segment.  One file per process, OSP_SHM_DIR "/osp-<euid>-<pid>"
 * (the POSIX shared-memory object of that name: glibc's shm_open is
 * open(2) in /dev/shm, which is called directly here, with O_NOFOLLOW,
 * and so needs no librt).  /dev/shm is shared across pid namespaces,
 * where two processes may both be pid 7: the header records our pid
 * namespace and start time, and when the name is held by a segment of
 * another pid namespace, ours is "/osp-<euid>-<pid>-<pidns>" (shm.h).
 * It is created O_EXCL mode 0600, sized with ftruncate (no memory yet),
 * its header's page reserved with posix_fallocate; each view buffer's
 * pages are reserved (reserve) before the writer first writes them, by
 * reopening the name and checking it is still the same file (the program
 * may have closed every descriptor).  So a full /dev/shm is one line,
 * never a SIGBUS, and a segment costs the views it holds (a few KB for a
 * small program), not publish_bytes twice: 8 MB by default, which a
 * forked child that ended with _exit used to leave behind, allocated.
 * The header is filled, then its state set ONLINE with a release store,
 * last.
 *
 * The sweep.  A crashed or killed program, or a fork child that ended
 * with _exit, cannot unlink its own segment.  So the runtime removes the
 * segments of this user whose process is provably gone (classify): the
 * header says our pid namespace (another namespace's pids mean nothing
 * here: left alone), and its pid is free (kill (pid, 0) fails with
 * ESRCH) or taken by a process whose start time (/proc/PID/stat) is not
 * the one the header recorded (the pid was reused).  A file without
 * osp's magic is not provably a segment and is left alone too.  The
 * sweep runs at start-up, in a process that has forked (at most once a
 * second, after forks and for as long as the last sweep found segments of
 * live children of ours: from its runtime entries, or its publisher
 * thread once it has one), and at the exit of a process that has forked:
 * a parent reclaims its children's leftovers.  It allocates nothing (it
 * may run from a runtime entry inside a signal handler that interrupted
 * malloc): getdents64 into a static buffer, not opendir.  When our
 * name is taken, a segment of ours left by the image this process
 * exec'ed from (osp's magic, our pid namespace, pid and start time: exec
 * keeps all three), or of a process provably gone, is replaced; a segment
 * of another pid namespace makes us take the name with our namespace;
 * anything else makes publishing fail.
 *
 * Attaching: no thread until a viewer asks.  A thread makes the process
 * multithreaded (Threads: 2), and what needs a single-threaded process -
 * unshare (CLONE_NEWUSER), setns into a user namespace - then fails with
 * EINVAL where the plain build succeeds.  So start-up makes the segment
 * (ospview -l lists the process, the name is reserved) but no thread.  A
 * viewer that attaches stores a nonzero value into the header's `attach'
 * word (shm.h, minor 1).  The program's own threads notice it in the
 * runtime's entries, after the generated code's countdown ran out
 * (runtime.c's block hook and path end bodies; the paths=timer thread's
 * tick too): osp_entry_poll (base.h) is one relaxed load of
 * osp_entry_watch, which rewatch points at the `attach' word while the
 * segment waits for a viewer, at `due' while something time-gated is
 * pending here (a fork child's segment, the sweep of children's
 * leftovers: the slow part then looks at the clock every 256th entry of
 * a thread), and NULL otherwise (publishing off or failed, exited, or
 * the thread asked for).  The slow part (osp_publish_poll_slow) takes the
 * lock with trylock (a publish or a fork under way: next time), with the
 * asynchronous signals held until it is done, and decides once
 * (thread_asked) to start the thread, which it then does itself: the
 * entry holds no runtime lock there, the thread starts with every signal
 * blocked (osp_start_thread) and runs no instrumented code.  A vfork
 * child (our memory, another pid) does nothing there.  glibc's
 * pthread_create allocates (the thread's TLS vector), so an entry that
 * may run in a signal handler, which may have interrupted malloc, leaves
 * the start to a later entry (maybe_in_handler; doc/osp.md, Threads).
 *
 * Publishing.  The runtime thread (osp_start_thread: every signal
 * blocked, osp_in_runtime set, it runs no instrumented code;
 * start_publisher waits until it runs, so that a fork right after never
 * copies a thread half set up - under ASan that left the child's
 * allocator lock held forever) publishes at once (a viewer is waiting),
 * then every
 * publish_ms, takes a profile exactly as a report does (osp_profile_take,
 * which holds the runtime's locks only while it copies), serialises it
 * into a private buffer (viewwrite.c, no lock; the sections the
 * registered functions alone make are kept from one view to the next,
 * viewcache.c, and made again after a module registers), and copies that
 * into the view buffer readers are not directed to, under the seqlock of
 * shm.h:
 *     seq[b] odd (relaxed), release fence, the bytes, len[b],
 *     seq[b] even (release), current = b (release).
 * The bytes are copied with relaxed 8-byte atomic stores: in C11 a
 * seqlock's payload must be atomic on both sides (a reader's copy races
 * with the writer by design, and is thrown away when seq changed), and on
 * x86-64 or arm64 these are plain stores.  Readers are never waited for:
 * with two buffers a reader that copies within a publish period always
 * gets a whole view.  Then heartbeat, publishes, truncated, publish_ns.
 *
 * osp_publish_lock serialises the writers (the thread, the exit path, a
 * test's osp_publish_now) and the segment's lifecycle; it comes before
 * every runtime lock (a publish takes a profile under it), and fork's
 * prepare handler takes it first, so a fork waits for a publish under way
 * to end.
 *
 * Exit.  The exit path (runtime.c) hands over the profile of the exit
 * report: it becomes the last view (run.exited = 1), the state becomes
 * EXITED, and the name is unlinked - by the process that created it
 * only.  A viewer already attached keeps its mapping, so it goes on
 * showing the last view marked exited.  A process that dies without
 * exiting leaves its segment ONLINE; the viewer sees the pid gone, and the
 * next runtime of the same user sweeps it.
 *
 * fork.  The child inherits the parent's MAP_SHARED mapping: writing it
 * would corrupt the parent's views and break the single-writer seqlock.
 * So the child unmaps it (never unlinks it) and starts no thread: its
 * runtime entries create its own segment publish_ms after the fork
 * (child_pending), and its thread starts on a viewer's request as in any
 * process.  A child that execs or exits at once (system(), popen())
 * costs neither a thread nor a segment; one that runs no instrumented
 * code after publish_ms has no segment until it does.  (Under
 * ThreadSanitizer or AddressSanitizer, which cannot start a thread in the
 * child of a multithreaded fork, a fork child does not publish.)
 *
 * Options that need a thread by design keep theirs, from start-up:
 * paths=timer (pathsample.c) and report_signal / snapshot_signal
 * (online.c).
 *
 * Failures (no /dev/shm, full, name taken, no thread, no memory, no room
 * in the address space budget under `ulimit -v': thread.c) are one
 * stderr line, "osp: cannot publish (...): the program runs and profiles
 * as before", and publishing off for the process; nothing else changes.
 */
#define _GNU_SOURCE
#include "output/output.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "osp/shm.h"

#if ATOMIC_LLONG_LOCK_FREE != 2
#error "the shared-memory header needs lock-free 64-bit atomics"
#endif

/* The sanitizers cannot start a thread in the child of a multithreaded
   fork, and a process that was ever watched is multithreaded: TSan dies
   ("starting new threads after multi-threaded fork is not supported"),
   ASan deadlocks when a parent thread held its allocator or thread
   registry lock at the fork (glibc resets its own).  In a build with
   either, a fork child does not publish. */
#if defined __SANITIZE_THREAD__ || defined __SANITIZE_ADDRESS__
#define FORK_CHILD_PUBLISHES 0
#elif defined __has_feature
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define FORK_CHILD_PUBLISHES 0
#endif
#endif
#ifndef FORK_CHILD_PUBLISHES
#define FORK_CHILD_PUBLISHES 1
#endif

static pthread_mutex_t osp_publish_lock = PTHREAD_MUTEX_INITIALIZER;

/* Immutable after osp_publish_init (inherited by a fork child). */
static int enabled;            /* publishing was set up at start-up */
static uint32_t period_ms;
static uint64_t cap;           /* bytes of each view buffer */

/* Under osp_publish_lock. */
static struct osp_shm_header *hdr; /* the mapping, or NULL */
static size_t map_size;
static char path[96];              /* OSP_SHM_DIR "/osp-<euid>-..." */
static dev_t seg_dev;              /* the file we created (reserve) */
static ino_t seg_ino;
static uint64_t reserved[2];       /* bytes of each buffer reserved */
static uint64_t forks;             /* forks made by this process */
static uint64_t swept_forks;       /* `forks' at the last sweep */
static uint64_t swept_ns;          /* CLOCK_MONOTONIC of the last sweep */
static int children_left;          /* segments of live children then */
static pid_t creator;              /* the pid that created the segment */
static pid_t owner;                /* the process this state is for */
static void *scratch;              /* cap bytes: the view being written */
static struct osp_view_cache vcache; /* what views keep (viewcache.c) */
static int failed;                 /* publishing is off for this process */
static int exited;                 /* the last view is out */
static int warned_size;            /* "does not fit" said once */
static int thread_up;              /* the publisher thread has started */
static pthread_cond_t thread_up_cond = PTHREAD_COND_INITIALIZER;
static int thread_asked;           /* starting it was decided (once) */
static int child_pending;          /* a fork child's segment is still due */
static uint64_t child_since_ns;    /* CLOCK_MONOTONIC of that fork */
static sigset_t start_mask;        /* osp_init's thread's signal mask */

/* What a runtime entry looks at, osp_entry_watch (base.h): NULL when
   publishing needs nothing from the program's threads (off, failed,
   exited, or the thread runs), the segment's `attach' word while it
   waits for a viewer, or `due' while something time-gated is pending
   (a fork child's segment, the sweep of children's leftovers).  Written
   under osp_publish_lock (rewatch); the segment it points into is never
   unmapped while other threads run (only in a fork child). */
static const _Atomic uint32_t due = 1;

/* ---- helpers --------------------------------------------------------- */

static uint64_t
clock_ns (clockid_t id)
{
  struct timespec ts;
  clock_gettime (id, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static uint64_t
round64 (uint64_t x)
{
  return (x + 63) & ~(uint64_t) 63;
}

static void
cannot (const char *what, int err)
{
  osp_warn ("osp: cannot publish (%s: %s): the program runs and profiles "
            "as before", what, strerror (err));
}

/* ---- the segment ----------------------------------------------------- */

/* The inode of this process's pid namespace, 0 if unknown (no /proc). */
static uint64_t
self_pidns (void)
{
  struct stat st;
  return stat ("/proc/self/ns/pid", &st) == 0 ? (uint64_t) st.st_ino : 0;
}

/* The start time of process PID ("self" if 0) in clock ticks since boot,
   /proc/PID/stat field 22, and (PPID not NULL) its parent, field 4; 0 if
   unknown.  The command name (field 2) is in parentheses and may hold
   anything: the fields after it are counted from its last ')'. */
static uint64_t
proc_start (pid_t pid, pid_t *ppid)
{
  /* Static: only ever under osp_publish_lock, and a runtime entry that
     sweeps (osp_publish_poll_slow) may run deep in the program's stack. */
  static char buf[1024];
  char file[48];
  if (ppid != NULL)
    *ppid = 0;
  if (pid == 0)
    snprintf (file, sizeof file, "/proc/self/stat");
  else
    snprintf (file, sizeof file, "/proc/%ld/stat", (long) pid);
  int fd = open (file, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  ssize_t n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  char *p = strrchr (buf, ')');
  if (p == NULL || p[1] != ' ')
    return 0;
  /* p + 2 is field 3 (state); field 22 is 19 fields further. */
  p += 2;
  for (int field = 3; field < 22; field++)
    {
      p = strchr (p, ' ');
      if (p == NULL)
        return 0;
      p++;
      if (field == 3 && ppid != NULL)
        *ppid = (pid_t) strtol (p, NULL, 10);
    }
  return strtoull (p, NULL, 10);
}

/* NAME's pid if it is a segment name of user UID ("osp-<uid>-<pid>" or
   "osp-<uid>-<pid>-<pidns>"), else 0. */
static pid_t
name_pid (const char *name, unsigned long uid)
{
  char prefix[32];
  int plen = snprintf (prefix, sizeof prefix, "%s%lu-", OSP_SHM_PREFIX + 1,
                       uid);
  if (strncmp (name, prefix, (size_t) plen) != 0)
    return 0;
  const char *digits = name + plen;
  char *end;
  errno = 0;
  unsigned long long pid = strtoull (digits, &end, 10);
  if (*digits < '1' || *digits > '9' || errno != 0 || pid > INT32_MAX)
    return 0;
  if (*end == '-')
    {
      const char *ns = end + 1;
      if (*ns < '1' || *ns > '9')
        return 0;
      strtoull (ns, &end, 10);
    }
  return *end == '\0' ? (pid_t) pid : 0;
}

/* What the segment file NAME in directory DIR (AT_FDCWD: NAME is a path)
   is to us. */
enum seg_kind
{
  SEG_OTHER,    /* not a segment of ours (not a file, not ours, not osp) */
  SEG_ALIVE,    /* a segment of a process that may run */
  SEG_CHILD,    /* the same, of a child of ours (it may end with _exit) */
  SEG_GONE,     /* of our pid namespace, its process provably gone */
  SEG_EXEC,     /* this very process's, left by the image it exec'ed */
  SEG_FOREIGN   /* a segment of another pid namespace */
};

static enum seg_kind
classify (int dir, const char *name, uint64_t ns, uint64_t started)
{
  /* O_NONBLOCK: a FIFO under our name (anyone may make one in /dev/shm)
     must not stop the program until someone writes it. */
  int fd = openat (dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return SEG_OTHER;
  struct stat st;
  static struct osp_shm_header h; /* under the lock, as proc_start's */
  int ours = fstat (fd, &st) == 0 && S_ISREG (st.st_mode)
             && st.st_uid == geteuid ()
             && pread (fd, &h, sizeof h, 0) == (ssize_t) sizeof h
             && memcmp (h.magic, OSP_SHM_MAGIC, sizeof h.magic) == 0;
  close (fd);
  if (!ours || h.pid <= 0 || h.pid > INT32_MAX)
    return SEG_OTHER;
  /* An older layout records neither namespace nor start time: its pid
     is all there is to go by. */
  int v2 = h.major >= 2;
  if (v2 && h.pidns != 0 && ns != 0 && h.pidns != ns)
    return SEG_FOREIGN;
  pid_t pid = (pid_t) h.pid;
  if (pid == getpid ())
    {
      if (!v2 || (h.proc_start == started && started != 0))
        return SEG_EXEC;
      /* Our pid, another start: its process was an earlier holder. */
      return h.proc_start != 0 && started != 0 ? SEG_GONE : SEG_ALIVE;
    }
  if (kill (pid, 0) != 0 && errno == ESRCH)
    return SEG_GONE;
  /* The pid is taken: gone only if by another process. */
  pid_t parent;
  uint64_t now = proc_start (pid, &parent);
  if (v2 && h.proc_start != 0 && now != 0 && now != h.proc_start)
    return SEG_GONE;
  return parent == getpid () ? SEG_CHILD : SEG_ALIVE;
}

/* Remove the segments of this user whose process is provably gone.
   Under the lock.  It may run from a runtime entry of a program thread
   (osp_publish_poll_slow), perhaps inside a signal handler that
   interrupted malloc: so the directory is read with getdents64 into a
   static buffer (opendir allocates), and nothing here allocates. */
static void
sweep_stale (void)
{
  swept_forks = forks;
  swept_ns = clock_ns (CLOCK_MONOTONIC);
  int dir = open (OSP_SHM_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0)
    return;
  static union
  {
    char bytes[4096];
    uint64_t align;
  } buf;
  struct entry /* the kernel's struct linux_dirent64 */
  {
    uint64_t ino;
    int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[];
  };
  uint64_t ns = self_pidns ();
  int children = 0;
  long n;
  while ((n = syscall (SYS_getdents64, dir, buf.bytes, sizeof buf.bytes))
         > 0)
    for (long at = 0; at < n;)
      {
        const struct entry *e = (const void *) (buf.bytes + at);
        at += e->reclen;
        if (name_pid (e->name, (unsigned long) geteuid ()) != 0)
          switch (classify (dir, e->name, ns, 0))
            {
            case SEG_GONE:
              unlinkat (dir, e->name, 0);
              break;
            case SEG_CHILD:
              children++;
              break;
            default:
              break;
            }
      }
  close (dir);
  children_left = children;
}

/* Reserve the first N bytes of view buffer B before they are written
   (the file is sparse: a page first touched on a full /dev/shm would be
   a SIGBUS).  Reopens the name, which must still be the file created.
   Under the lock.  0, or -1 after one line (publishing is then off). */
static int
reserve (int b, uint64_t n)
{
  if (n <= reserved[b])
    return 0;
  /* Grow geometrically: a view that grows by a few bytes a publish does
     not reopen the file every time. */
  uint64_t want = reserved[b] * 2 > n ? reserved[b] * 2 : n;
  want = (want + 4095) & ~(uint64_t) 4095;
  if (want > cap)
    want = cap;
  int fd = open (path, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  int err = fd < 0 ? errno : 0;
  struct stat st;
  if (err == 0 && (fstat (fd, &st) != 0 || st.st_dev != seg_dev
                   || st.st_ino != seg_ino))
    err = ESTALE; /* removed or replaced under us */
  if (err == 0)
    err = posix_fallocate (fd, (off_t) hdr->buf_off[b], (off_t) want);
  if (fd >= 0)
    close (fd);
  if (err != 0)
    {
      cannot (path, err);
      failed = 1;
      unlink (path); /* no stale views under our name */
      return -1;
    }
  reserved[b] = want;
  return 0;
}

/* Create, size, map and fill this process's segment.  Under the lock.
   0, or -1 after one line (publishing is then off). */
static int
create_segment (void)
{
  pid_t pid = getpid ();
  uint64_t ns = self_pidns ();
  uint64_t started = proc_start (0, NULL);
  snprintf (path, sizeof path, "%s%s%lu-%ld", OSP_SHM_DIR, OSP_SHM_PREFIX,
            (unsigned long) geteuid (), (long) pid);
  int fd = -1, open_err = 0;
  for (int attempt = 0; fd < 0; attempt++)
    {
      fd = open (path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                 0600);
      open_err = errno;
      if (fd >= 0 || open_err != EEXIST || attempt >= 2)
        break;
      enum seg_kind k = classify (AT_FDCWD, path, ns, started);
      if (k == SEG_EXEC || k == SEG_GONE)
        unlink (path);
      else if (k == SEG_FOREIGN && attempt == 0 && ns != 0)
        snprintf (path, sizeof path, "%s%s%lu-%ld-%llu", OSP_SHM_DIR,
                  OSP_SHM_PREFIX, (unsigned long) geteuid (), (long) pid,
                  (unsigned long long) ns);
      else
        break;
    }
  if (fd < 0)
    {
      cannot (path, open_err);
      failed = 1;
      return -1;
    }
  uint64_t off0 = round64 (sizeof (struct osp_shm_header));
  uint64_t size = off0 + 2 * cap;
  int err = 0;
  struct stat st;
  if (fchmod (fd, 0600) != 0 || fstat (fd, &st) != 0)
    err = errno;
  /* The whole size, but memory for the header only (reserve does the
     buffers). */
  if (err == 0 && ftruncate (fd, (off_t) size) != 0)
    err = errno;
  if (err == 0)
    err = posix_fallocate (fd, 0, (off_t) off0);
  void *m = MAP_FAILED;
  if (err == 0 && osp_reserve (size) != 0) /* ulimit -v: thread.c's budget */
    err = ENOMEM;
  else if (err == 0)
    {
      m = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (m == MAP_FAILED)
        {
          err = errno;
          osp_unreserve (size);
        }
    }
  close (fd);
  if (err != 0)
    {
      unlink (path);
      cannot (path, err);
      failed = 1;
      return -1;
    }
  seg_dev = st.st_dev;
  seg_ino = st.st_ino;
  reserved[0] = reserved[1] = 0;

  struct osp_shm_header *h = m;
  creator = pid;
  struct osp_view_run run;
  osp_identity_run (&run, 0);
  memcpy (h->magic, OSP_SHM_MAGIC, sizeof h->magic);
  h->byte_order = OSP_SHM_BYTE_ORDER;
  h->major = OSP_SHM_MAJOR;
  h->minor = OSP_SHM_MINOR;
  h->header_size = sizeof *h;
  h->publish_ms = period_ms;
  h->segment_size = size;
  h->instance_id = run.instance_id;
  h->pid = pid;
  h->start_ns = run.start_ns;
  h->pidns = ns;
  h->proc_start = started;
  h->buf_off[0] = off0;
  h->buf_off[1] = off0 + cap;
  h->buf_cap = cap;
  /* The path, or its last component when the path is too long. */
  const char *name = run.program;
  if (strlen (name) >= sizeof h->program && strrchr (name, '/'))
    name = strrchr (name, '/') + 1;
  size_t len = strnlen (name, sizeof h->program - 1);
  memcpy (h->program, name, len);
  h->program[len] = '\0';
  atomic_store_explicit (&h->heartbeat_ns, run.start_ns,
                         memory_order_relaxed);
  atomic_store_explicit (&h->state, OSP_SHM_ONLINE, memory_order_release);
  hdr = h;
  map_size = size;
  return 0;
}

/* ---- publishing ------------------------------------------------------ */

/* N bytes (a multiple of 8) from SRC to the view buffer DST, each word a
   relaxed atomic store (the seqlock's payload, see the top). */
static void
copy_out (void *dst, const void *src, size_t n)
{
  uint64_t *d = dst;
  const uint64_t *s = src;
  for (size_t i = 0; i < n / 8; i++)
    __atomic_store_n (&d[i], s[i], __ATOMIC_RELAXED);
}

/* One view of P (NULL: take one now) into the buffer readers are not
   directed to.  Under the lock, with a segment.  0 or -1. */
static int
publish_locked (const struct osp_profile *p, int last)
{
  if (failed)
    return -1;
  uint64_t t0 = clock_ns (CLOCK_MONOTONIC);
  struct osp_profile own;
  if (p == NULL)
    {
      if (osp_profile_take_live (&own) != 0)
        return -1;
      p = &own;
    }
  struct osp_view_run run;
  osp_identity_run (&run, last);
  uint64_t seq = atomic_load_explicit (&hdr->publishes, memory_order_relaxed)
                 + 1;
  int truncated = 0;
  size_t n = osp_view_write (scratch, cap, p, &run, seq, &truncated, &vcache);
  if (p == &own)
    osp_profile_free (&own);
  atomic_store_explicit (&hdr->heartbeat_ns, clock_ns (CLOCK_REALTIME),
                         memory_order_relaxed);
  if (n == 0)
    {
      if (!warned_size)
        osp_warn ("osp: publish: the functions and blocks of this program "
                  "do not fit publish_bytes=%llu (or out of memory): no "
                  "view is published; raise publish_bytes",
                  (unsigned long long) cap);
      warned_size = 1;
      return -1;
    }

  /* The seqlock of osp/shm.h; only this (locked) writer stores. */
  uint64_t b = 1 - atomic_load_explicit (&hdr->current, memory_order_relaxed);
  if (reserve ((int) b, n) != 0)
    return -1;
  uint64_t s = atomic_load_explicit (&hdr->seq[b], memory_order_relaxed);
  atomic_store_explicit (&hdr->seq[b], s + 1, memory_order_relaxed);
  atomic_thread_fence (memory_order_release);
  copy_out ((char *) hdr + hdr->buf_off[b], scratch, n);
  atomic_store_explicit (&hdr->len[b], n, memory_order_relaxed);
  atomic_store_explicit (&hdr->seq[b], s + 2, memory_order_release);
  atomic_store_explicit (&hdr->current, b, memory_order_release);

  atomic_store_explicit (&hdr->publishes, seq, memory_order_relaxed);
  if (truncated)
    atomic_fetch_add_explicit (&hdr->truncated, 1, memory_order_relaxed);
  atomic_fetch_add_explicit (&hdr->publish_ns,
                             clock_ns (CLOCK_MONOTONIC) - t0,
                             memory_order_relaxed);
  return 0;
}

/* Whether the leftovers of children may be waiting to be swept: this
   process forked since the last sweep, or that sweep found segments of
   live children (which may end with _exit). */
static int
sweep_due (void)
{
  return forks != swept_forks || children_left;
}

/* Point osp_entry_watch at what the program's runtime entries must look
   at now (see its comment).  Under the lock. */
static void
rewatch (void)
{
  const _Atomic uint32_t *w = NULL;
  if (enabled && !failed && !exited && !thread_asked)
    {
      if (child_pending || sweep_due ())
        w = &due;
      else if (hdr != NULL)
        w = &hdr->attach;
    }
  atomic_store_explicit (&osp_entry_watch, w, memory_order_relaxed);
}

static void *
publisher_main (void *arg)
{
  (void) arg;
  osp_in_runtime = 1; /* runs no instrumented code; never counted */
  pthread_mutex_lock (&osp_publish_lock);
  thread_up = 1;
  pthread_cond_signal (&thread_up_cond);
  pthread_mutex_unlock (&osp_publish_lock);
  struct timespec next, now;
  clock_gettime (CLOCK_MONOTONIC, &next);
  for (;;)
    {
      /* The first view at once: a viewer is waiting for it. */
      pthread_mutex_lock (&osp_publish_lock);
      /* Children that ended with _exit left their segments: reclaim them
         soon, at most once a second however often this process forks. */
      if (sweep_due () && clock_ns (CLOCK_MONOTONIC) - swept_ns >= 1000000000u)
        sweep_stale ();
      int stop = failed || exited || hdr == NULL;
      if (!stop && osp_running ())
        publish_locked (NULL, 0);
      pthread_mutex_unlock (&osp_publish_lock);
      if (stop)
        return NULL;
      osp_timespec_add_ms (&next, period_ms);
      while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL)
             == EINTR)
        ;
      /* Fell behind (a stopped process, a busy machine): go on from now
         rather than publish in a burst. */
      clock_gettime (CLOCK_MONOTONIC, &now);
      if (now.tv_sec > next.tv_sec
          || (now.tv_sec == next.tv_sec && now.tv_nsec > next.tv_nsec))
        next = now;
    }
}

/* Start the publisher thread and wait until it runs, so that a fork that
   follows never copies a thread still being set up (its stack, its TLS,
   a sanitizer's bookkeeping: locks the child could never take).  0 or
   -1. */
static int
start_publisher (void)
{
  pthread_mutex_lock (&osp_publish_lock);
  thread_up = 0;
  pthread_mutex_unlock (&osp_publish_lock);
  if (osp_start_thread (publisher_main, NULL) != 0)
    return -1;
  pthread_mutex_lock (&osp_publish_lock);
  while (!thread_up)
    pthread_cond_wait (&thread_up_cond, &osp_publish_lock);
  pthread_mutex_unlock (&osp_publish_lock);
  return 0;
}

/* ---- entry points ---------------------------------------------------- */

int
osp_publish_init (const struct osp_options *o)
{
  if (!o->publish || o->mode == OSP_MODE_OFF)
    return 0;
  period_ms = o->publish_ms;
  cap = round64 (o->publish_bytes);
  pthread_mutex_lock (&osp_publish_lock);
  osp_entry_work = osp_publish_poll_slow; /* before any rewatch */
  pthread_sigmask (SIG_SETMASK, NULL, &start_mask);
  owner = getpid ();
  /* The view buffer is counted in the address space budget too, for as
     long as the process lives (it is never freed). */
  scratch = NULL;
  if (osp_reserve (cap) == 0 && (scratch = malloc (cap)) == NULL)
    osp_unreserve (cap);
  if (scratch == NULL)
    {
      cannot ("view buffer", ENOMEM);
      failed = 1;
    }
  else
    {
      sweep_stale ();
      if (create_segment () == 0)
        enabled = 1;
    }
  /* No thread yet: the first viewer's request starts it
     (osp_publish_poll_slow). */
  rewatch ();
  pthread_mutex_unlock (&osp_publish_lock);
  return 0;
}

/* Whether this thread may be running a signal handler now, told from its
   signal mask: a handler runs with its signal blocked (and its sa_mask),
   so a signal that has a handler and is blocked now but was not when the
   runtime started means the entry may have come from a handler - perhaps
   one that interrupted malloc, which pthread_create calls.  Then the
   thread is not started from here; a later entry starts it.  A signal
   blocked without a handler (signalfd, sigwait) does not count; a handler
   installed with SA_NODEFER and an empty sa_mask cannot be told.  The
   runtime's own threads (every signal blocked, pinned) are never in one.
   CUR is the thread's mask before the poll held the signals.

   Asked only while a viewer's request waits (osp_publish_poll_slow), but
   then at every poll until the thread starts, so the answer "no handler"
   is kept per thread: a thread that blocks every signal (a worker
   started so) would otherwise ask sigaction about each of them, NSIG
   system calls a poll.  The kept answer serves while the same signals
   are blocked that were then, for at most CALM_NS: entering a handler
   blocks its signal, which was not blocked when it was delivered, so a
   thread that polled in between has another set.  A signal found
   handled ends the scan at once and is not kept (the start waits). */
#define CALM_NS 100000000u /* 100 ms */
static OSP_TLS sigset_t calm_set;
static OSP_TLS uint64_t calm_ns;
static OSP_TLS int calm_valid;

static int
maybe_in_handler (const sigset_t *cur)
{
  if (osp_in_runtime == OSP_RUNTIME_PINNED)
    return 0;
  sigset_t cand;
  sigemptyset (&cand);
  int n = 0;
  for (int sig = 1; sig < NSIG; sig++)
    if (sigismember (cur, sig) == 1 && sigismember (&start_mask, sig) != 1)
      {
        sigaddset (&cand, sig);
        n++;
      }
  if (n == 0)
    return 0;
  uint64_t now = clock_ns (CLOCK_MONOTONIC);
  if (calm_valid && now - calm_ns < CALM_NS
      && memcmp (&cand, &calm_set, sizeof cand) == 0)
    return 0;
  for (int sig = 1; sig < NSIG; sig++)
    if (sigismember (&cand, sig) == 1)
      {
        struct sigaction sa;
        if (sigaction (sig, NULL, &sa) != 0)
          continue;
        if ((sa.sa_flags & SA_SIGINFO) ? sa.sa_sigaction != NULL
                                       : (sa.sa_handler != SIG_DFL
                                          && sa.sa_handler != SIG_IGN))
          {
            calm_valid = 0;
            return 1;
          }
      }
  calm_set = cand;
  calm_ns = now;
  calm_valid = 1;
  return 0;
}

void
osp_publish_poll_slow (void)
{
  /* With only time-gated work pending (`due'), look at the clock once
     every 256 entries of a thread, not at each. */
  static OSP_TLS uint32_t entries;
  if (atomic_load_explicit (&osp_entry_watch, memory_order_relaxed) == &due
      && (++entries & 255) != 1)
    return;
  /* The mask maybe_in_handler reads, before osp_signals_hold changes
     it; a failure counts as in a handler. */
  sigset_t mask;
  int mask_ok = pthread_sigmask (SIG_SETMASK, NULL, &mask) == 0;
  /* Signals held until the thread runs: a handler that leaves by longjmp
     must not abandon the lock, nor a thread half started. */
  osp_signals_hold ();
  if (pthread_mutex_trylock (&osp_publish_lock) != 0)
    {
      osp_signals_release (); /* a publish or a fork under way: later */
      return;
    }
  int start = 0;
  /* A vfork child (our memory, another pid) must do nothing here. */
  if (enabled && !failed && !exited && !thread_asked && owner == getpid ())
    {
      uint64_t now = clock_ns (CLOCK_MONOTONIC);
      if (sweep_due () && now - swept_ns >= 1000000000u)
        sweep_stale ();
      /* A fork child's segment, publish_ms after the fork: a child that
         execs or exits before costs none. */
      if (child_pending && hdr == NULL
          && now - child_since_ns >= (uint64_t) period_ms * 1000000u)
        {
          child_pending = 0;
          create_segment (); /* failing: one line, publishing off */
        }
      if (hdr != NULL && !failed && osp_running ()
          && atomic_load_explicit (&hdr->attach, memory_order_relaxed) != 0
          && mask_ok && !maybe_in_handler (&mask))
        start = thread_asked = 1;
      rewatch ();
    }
  pthread_mutex_unlock (&osp_publish_lock);
  /* pthread_create here: this thread holds no runtime lock (the entries
     poll before or after their work), every signal is blocked in the new
     thread (osp_start_thread), and it runs no instrumented code. */
  if (start && start_publisher () != 0)
    {
      pthread_mutex_lock (&osp_publish_lock);
      failed = 1;
      unlink (path); /* no viewer waits for views that never come */
      rewatch ();
      pthread_mutex_unlock (&osp_publish_lock);
      cannot ("publisher thread", EAGAIN);
    }
  osp_signals_release ();
}

/* A viewer wants views: it stored `attach' (before it waits for views,
   so one attaching while the program ends gets the exit view or the
   exited state), the publisher thread was started, or views were
   published.  Under the lock, with a segment. */
static int
viewer_wants_locked (void)
{
  return thread_asked
         || atomic_load_explicit (&hdr->attach, memory_order_relaxed) != 0
         || atomic_load_explicit (&hdr->publishes, memory_order_relaxed) != 0;
}

int
osp_publish_active (void)
{
  pthread_mutex_lock (&osp_publish_lock);
  int active = hdr != NULL && !exited && !failed && viewer_wants_locked ();
  pthread_mutex_unlock (&osp_publish_lock);
  return active;
}

int
osp_publish_now (void)
{
  pthread_mutex_lock (&osp_publish_lock);
  int rc = hdr != NULL && !exited ? publish_locked (NULL, 0) : -1;
  pthread_mutex_unlock (&osp_publish_lock);
  return rc;
}

const void *
osp_publish_segment (void)
{
  pthread_mutex_lock (&osp_publish_lock);
  const void *h = hdr;
  pthread_mutex_unlock (&osp_publish_lock);
  return h;
}

void
osp_publish_exit (const struct osp_profile *p)
{
  /* A vfork child exiting through exit() shares our memory: it must not
     even set `exited'. */
  pthread_mutex_lock (&osp_publish_lock);
  if (owner == getpid ())
    {
      if (hdr != NULL && !exited && creator == owner)
        {
          /* The exit view only for a viewer: at exit nobody else reads
             it (the segment is unlinked below), and a view costs a few
             publishes (SQLite's speedtest1: 22M instructions). */
          if (p != NULL && viewer_wants_locked ())
            publish_locked (p, 1);
          atomic_store_explicit (&hdr->state, OSP_SHM_EXITED,
                                 memory_order_release);
          unlink (path);
        }
      /* The leftovers of children that ended with _exit since the last
         sweep. */
      if (enabled && sweep_due ())
        sweep_stale ();
      exited = 1; /* no segment, no thread from now on */
      rewatch ();
    }
  pthread_mutex_unlock (&osp_publish_lock);
}

void
osp_publish_fork_prepare (void)
{
  pthread_mutex_lock (&osp_publish_lock);
  /* Until the child has moved off the parent's mapping (fork_child),
     nothing may read through the watch there: the child's paths=timer
     thread starts before that.  In the parent this only skips a few
     polls. */
  atomic_store_explicit (&osp_entry_watch, NULL, memory_order_relaxed);
}

void
osp_publish_fork_release (void)
{
  forks++; /* the parent's side: it has children to reclaim after */
  if (owner == getpid ())
    rewatch (); /* the parent; the child's comes in fork_child */
  pthread_mutex_unlock (&osp_publish_lock);
}

void
osp_publish_fork_child (void)
{
  /* Nobody waits on it in the parent once its thread is up; a fresh one
     all the same, as for every lock the child inherits. */
  pthread_cond_init (&thread_up_cond, NULL);
  pthread_mutex_lock (&osp_publish_lock);
  /* Only this thread exists: nothing reads the watch while it moves off
     the parent's mapping. */
  atomic_store_explicit (&osp_entry_watch, NULL, memory_order_relaxed);
  if (hdr != NULL)
    {
      munmap (hdr, map_size);
      osp_unreserve (map_size);
    }
  hdr = NULL;
  creator = 0;
  owner = getpid ();
  warned_size = 0;
  forks = swept_forks = 0;
  children_left = 0;
  thread_asked = 0;
  thread_up = 0;
  /* No thread: the child's segment is made from its runtime entries
     publish_ms from now, and its thread on a viewer's request. */
  child_pending = enabled && !failed && !exited && FORK_CHILD_PUBLISHES;
  child_since_ns = clock_ns (CLOCK_MONOTONIC);
  rewatch ();
  pthread_mutex_unlock (&osp_publish_lock);
}

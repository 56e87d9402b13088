/* viewer-writer.c - a stand-in for the runtime's publisher, for the viewer
 * tests (tests/viewer-batch.sh, tests/viewer-fuzz.sh).
 *
 * Why: ospview must be tested on segments and views it did not write, in
 * every way they can be broken, and without depending on what a real
 * profiled program happens to sample.  This program writes them by hand,
 * following include/osp/shm.h and include/osp/view.h to the letter: its
 * own segment and seqlock, its own demo profile in nine sections in an
 * order of its own (no EDGES or FNSRC, subpath rows of view minor 3 and
 * path and forest rows of minor 4, as an older writer), laid out
 * through the view format library's section emitter (libosprt/format/
 * viewbuild.h, the one the runtime writes with; its CRC-32 is checked
 * against zlib's check values by t_publish) and then damaged by hand:
 *
 *   viewer-writer live SECONDS [PERIOD_MS [STOPFILE]]
 *       publish a growing profile into /dev/shm/osp-<uid>-<pid> like the
 *       runtime (seqlock, two buffers, heartbeat) for SECONDS, or until
 *       STOPFILE exists (then SECONDS only caps the run of a test that
 *       died: the test creates STOPFILE when done, however long the
 *       loaded machine made it take), then the exit view, state EXITED,
 *       unlink, exit
 *   viewer-writer segment FILE [DEFECT]
 *       write one segment file with a view in it, or with DEFECT (below)
 *   viewer-writer view FILE [VARIANT]
 *       write a bare view (a fuzzing seed); VARIANT: full (default),
 *       exact (exhaustive numbers, no subpaths), empty (header only)
 *
 * The demo profile: main() demo.c, work() demo.c, helper() util.c; three
 * hot subpaths and a long one, three Ball-Larus paths, a forest of two
 * trees; counts grow with the publish number.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "osp/shm.h"
#include "osp/view.h"

#include "crc32.h"
#include "viewbuild.h"

static uint64_t
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static void
die (const char *what)
{
  fprintf (stderr, "viewer-writer: %s: %s\n", what, strerror (errno));
  exit (99);
}

/* ---- building a view ------------------------------------------------- */

/* The next section, KIND of COUNT elements of ESIZE bytes at P. */
static void
vb_section (struct osp_vemit *v, size_t cap, uint32_t kind, uint32_t esize,
            const void *p, uint64_t count)
{
  if (v->at + esize * count + 8 > cap)
    {
      fprintf (stderr, "viewer-writer: view too big\n");
      exit (99);
    }
  memcpy (osp_vemit_section (v, kind, esize, count), p, esize * count);
  osp_vemit_end (v);
}

/* Strings: "\0" then each added string. */
static char strs[4096];
static uint32_t nstrs = 1;

static uint32_t
str (const char *s)
{
  uint32_t at = nstrs;
  size_t n = strlen (s) + 1;
  memcpy (strs + nstrs, s, n);
  nstrs += (uint32_t) n;
  return at;
}

/* The demo program: functions and their blocks' lines. */
static const struct
{
  const char *name, *file;
  uint32_t line, nb;
  uint32_t lines[8][2];
} demo_fns[] = {
  { "main", "demo.c", 5, 4, { { 5, 6 }, { 7, 7 }, { 8, 9 }, { 10, 10 } } },
  { "work", "demo.c", 20, 6,
    { { 20, 21 }, { 22, 22 }, { 23, 23 }, { 24, 26 }, { 27, 27 },
      { 28, 28 } } },
  { "helper", "util.c", 3, 3, { { 3, 4 }, { 5, 5 }, { 6, 6 } } },
};
#define MAIN(b) (0 + (b))
#define WORK(b) (4 + (b))
#define HELPER(b) (10 + (b))

struct ids
{
  uint32_t v[256];
  uint32_t n;
};

static uint64_t
run (struct ids *ids, const uint32_t *b, uint32_t n)
{
  uint64_t at = ids->n;
  memcpy (ids->v + ids->n, b, n * sizeof *b);
  ids->n += n;
  return at;
}

enum variant { V_FULL, V_EXACT, V_EMPTY };

/* The view of publish number K into BUF (room CAP); its size. */
static size_t
make_view (unsigned char *buf, size_t cap, uint64_t k, int exited,
           enum variant var, int64_t pid, uint64_t start)
{
  memset (buf, 0, cap);
  nstrs = 1;
  strs[0] = 0;
  struct osp_vemit v;
  if (var == V_EMPTY)
    {
      osp_vemit_begin (&v, buf, sizeof (struct osp_view_header), 0,
                       now_ns (), k);
      return sizeof (struct osp_view_header);
    }
  /* the header and a table of 9 sections; the size is known at the end */
  osp_vemit_begin (&v, buf, 0, 9, now_ns (), k);
  int exact = var == V_EXACT;

  struct osp_vrun r;
  memset (&r, 0, sizeof r);
  r.pid = pid;
  r.start_ns = start;
  r.instance_id = 0x1234;
  r.program = str ("/tmp/viewer-demo");
  r.args = str ("viewer-demo --fast");
  r.options = str ("");
  r.mode = str (exact ? "blocks" : "subpaths");
  r.paths = str (exact ? "exhaustive" : "counter");
  r.forest = str (exact ? "exhaustive" : "burst");
  r.exited = (uint32_t) exited;
  r.blocks_seen = 1000000 * k;
  r.path_ends = 250000 * k;
  r.path_scale = 1000;
  r.forest_scale = 64;
  r.forest_k = 8;

  struct osp_vfn fns[3];
  struct osp_vblock blocks[13];
  uint32_t nb = 0;
  for (uint32_t f = 0; f < 3; f++)
    {
      fns[f] = (struct osp_vfn) { 100 + f, str (demo_fns[f].name),
                                  str (demo_fns[f].file), demo_fns[f].line,
                                  nb, demo_fns[f].nb,
                                  exact ? 1000 * k * (f + 1) : OSP_VIEW_NONE };
      for (uint32_t b = 0; b < demo_fns[f].nb; b++)
        blocks[nb++] = (struct osp_vblock) {
          f, b, demo_fns[f].lines[b][0], demo_fns[f].lines[b][1],
          exact ? 1000 * k : OSP_VIEW_NONE
        };
    }

  struct ids ids = { { 0 }, 0 };
  static const uint32_t s1[] = { WORK (1), WORK (2), WORK (3), HELPER (0),
                                 HELPER (1) };
  static const uint32_t s2[] = { WORK (3), WORK (4), WORK (1) };
  static const uint32_t s3[] = { MAIN (1), MAIN (2), WORK (0) };
  uint32_t s4[40];
  for (uint32_t i = 0; i < 40; i++)
    s4[i] = i % 2 ? HELPER (i % 3) : WORK (i % 6);
  struct osp_vsubpath subs[4];
  const uint32_t *sb[] = { s1, s2, s3, s4 };
  const uint32_t sl[] = { 5, 3, 3, 40 };
  for (uint32_t i = 0; i < 4; i++)
    {
      double est = (double) (40000 >> i) * (double) k;
      subs[i] = (struct osp_vsubpath) { run (&ids, sb[i], sl[i]), sl[i],
                                        i + 1, 40u >> i, est,
                                        exact ? 0 : est / 10,
                                        est / (1000000.0 * (double) k) };
    }
  static const uint32_t p1[] = { WORK (1), WORK (2), WORK (3) };
  static const uint32_t p2[] = { WORK (1), WORK (4), WORK (5) };
  static const uint32_t p3[] = { HELPER (0), HELPER (1), HELPER (2) };
  struct osp_vpath paths[3];
  const uint32_t *pb[] = { p1, p2, p3 };
  const uint32_t pfn[] = { 1, 1, 2 }, pid_[] = { 5, 2, 0 };
  uint64_t pids[3];
  for (uint32_t i = 0; i < 3; i++)
    {
      double est = (double) (120000 >> i) * (double) k;
      pids[i] = run (&ids, pb[i], 3);
      paths[i] = (struct osp_vpath) { pids[i], 3, pfn[i], pid_[i],
                                      (120u >> i) * k, est,
                                      exact ? 0 : est / 20,
                                      est / (250000.0 * (double) k),
                                      2 - (i == 2), i + 1 };
    }
  /* forest: work p1 { p1 { p2 }, p2 }, helper p3 */
  struct osp_vforest forest[5];
  const struct
  {
    int path;
    uint32_t parent, depth;
    uint64_t count;
  } fr[] = { { 0, OSP_VIEW_NO_PARENT, 0, 900 }, { 0, 0, 1, 600 },
             { 1, 1, 2, 300 }, { 1, 0, 1, 250 },
             { 2, OSP_VIEW_NO_PARENT, 0, 400 } };
  for (uint32_t i = 0; i < 5; i++)
    {
      uint64_t c = fr[i].count * k;
      double pc = fr[i].parent == OSP_VIEW_NO_PARENT
                      ? 2000.0 * (double) k
                      : (double) fr[fr[i].parent].count * (double) k;
      forest[i] = (struct osp_vforest) {
        pids[fr[i].path], 3, pfn[fr[i].path], fr[i].parent, fr[i].depth,
        pid_[fr[i].path], c, exact ? (double) c : 64.0 * (double) c,
        exact ? 0 : 8.0 * (double) c, (double) c / pc
      };
    }
  struct osp_vstat stats[12];
  uint32_t ns = 0;
#define STAT_U(n, x)                                                         \
  stats[ns++] = (struct osp_vstat) { str (n), OSP_VSTAT_U64, (uint64_t) (x) }
  STAT_U ("samples", 1000 * k);
  {
    double th = 2.5;
    uint64_t bits;
    memcpy (&bits, &th, 8);
    stats[ns++] = (struct osp_vstat) { str ("threshold"), OSP_VSTAT_F64, bits };
  }
  STAT_U ("hotlist_bytes_used", 40000);
  STAT_U ("hotlist_bytes", 65536);
  STAT_U ("path_samples", 250 * k);
  STAT_U ("paths_distinct", 3);
  STAT_U ("path_bytes_used", 12000);
  STAT_U ("path_bytes", 4194304);
  STAT_U ("forest_items", 2000 * k);
  STAT_U ("forest_nodes", 5);
  STAT_U ("forest_nodes_cap", 8192);
  stats[ns++] = (struct osp_vstat) { str ("policy"), OSP_VSTAT_STR,
                                     str ("concise") };

  vb_section (&v, cap, OSP_VS_STRINGS, 1, strs, nstrs);
  vb_section (&v, cap, OSP_VS_RUN, sizeof r, &r, 1);
  vb_section (&v, cap, OSP_VS_FUNCS, sizeof fns[0], fns, 3);
  vb_section (&v, cap, OSP_VS_BLOCKS, sizeof blocks[0], blocks, nb);
  vb_section (&v, cap, OSP_VS_IDS, 4, ids.v, ids.n);
  /* as a writer of view minor 3: subpaths without the ranked flag and the
     evidence (osp/view.h), which a reader derives or does without */
  unsigned char subs13[4][OSP_VSUBPATH_SIZE_1_3];
  for (uint32_t i = 0; i < 4; i++)
    memcpy (subs13[i], &subs[i], OSP_VSUBPATH_SIZE_1_3);
  vb_section (&v, cap, OSP_VS_SUBPATHS, OSP_VSUBPATH_SIZE_1_3, subs13,
              exact ? 0 : 4);
  /* and paths and forest nodes as minor 4 wrote them: without the ranked
     flag, which a reader derives */
  unsigned char paths14[3][OSP_VPATH_SIZE_1_4];
  for (uint32_t i = 0; i < 3; i++)
    memcpy (paths14[i], &paths[i], OSP_VPATH_SIZE_1_4);
  vb_section (&v, cap, OSP_VS_PATHS, OSP_VPATH_SIZE_1_4, paths14, 3);
  unsigned char forest14[5][OSP_VFOREST_SIZE_1_4];
  for (uint32_t i = 0; i < 5; i++)
    memcpy (forest14[i], &forest[i], OSP_VFOREST_SIZE_1_4);
  vb_section (&v, cap, OSP_VS_FOREST, OSP_VFOREST_SIZE_1_4, forest14, 5);
  vb_section (&v, cap, OSP_VS_STATS, sizeof stats[0], stats, ns);
  ((struct osp_view_header *) (void *) buf)->size = v.at;
  return v.at;
}

/* ---- view defects (the section's CRC recomputed unless said) ---------- */

static struct osp_view_section *
section (unsigned char *view, uint32_t kind)
{
  struct osp_view_header *h = (void *) view;
  struct osp_view_section *s = (void *) (view + h->header_size);
  for (uint32_t i = 0; i < h->nsections; i++)
    if (s[i].kind == kind)
      return &s[i];
  return NULL;
}

static void
recrc (unsigned char *view, struct osp_view_section *s)
{
  s->crc32 = osp_crc32 (0, view + s->offset, s->count * s->elem_size);
}

/* Apply DEFECT to the view; 0 if it is not a view defect. */
static int
view_defect (unsigned char *view, size_t *len, const char *d)
{
  struct osp_view_header *h = (void *) view;
  if (strcmp (d, "view-magic") == 0)
    view[0] = 'X';
  else if (strcmp (d, "view-major") == 0)
    h->major = 2;
  else if (strcmp (d, "view-size") == 0)
    h->size += 4096;
  else if (strcmp (d, "bad-crc") == 0)
    {
      struct osp_view_section *s = section (view, OSP_VS_PATHS);
      view[s->offset + 20] ^= 0x40; /* flipped; CRC left as it was */
    }
  else if (strcmp (d, "string-unterminated") == 0)
    {
      /* the last string loses its NUL; a function is renamed to it */
      struct osp_view_section *s = section (view, OSP_VS_STRINGS);
      struct osp_view_section *f = section (view, OSP_VS_FUNCS);
      view[s->offset + s->count - 1] = 'x';
      uint32_t at = (uint32_t) s->count - 3;
      memcpy (view + f->offset + offsetof (struct osp_vfn, name), &at, 4);
      recrc (view, s);
      recrc (view, f);
    }
  else if (strcmp (d, "stat-newline") == 0)
    {
      /* a stat's name with a newline in it (a hostile writer), and a kind
         no reader knows: the refusal names the stat and stays one line */
      struct osp_view_section *s = section (view, OSP_VS_STRINGS);
      struct osp_view_section *t = section (view, OSP_VS_STATS);
      struct osp_vstat st;
      memcpy (&st, view + t->offset, sizeof st);
      view[s->offset + st.name] = '\n';
      st.kind = 77;
      memcpy (view + t->offset, &st, sizeof st);
      recrc (view, s);
      recrc (view, t);
    }
  else if (strcmp (d, "string-range") == 0)
    {
      struct osp_view_section *f = section (view, OSP_VS_FUNCS);
      uint32_t at = 100000;
      memcpy (view + f->offset + offsetof (struct osp_vfn, file), &at, 4);
      recrc (view, f);
    }
  else if (strcmp (d, "index") == 0)
    {
      struct osp_view_section *s = section (view, OSP_VS_IDS);
      uint32_t bad = 13; /* blocks are 0..12 */
      memcpy (view + s->offset + 4 * 2, &bad, 4);
      recrc (view, s);
    }
  else if (strcmp (d, "run") == 0)
    {
      struct osp_view_section *s = section (view, OSP_VS_SUBPATHS);
      uint64_t at = 1000;
      memcpy (view + s->offset + offsetof (struct osp_vsubpath, ids), &at, 8);
      recrc (view, s);
    }
  else if (strcmp (d, "parent") == 0)
    {
      struct osp_view_section *s = section (view, OSP_VS_FOREST);
      uint32_t p = 3; /* node 1's parent after it */
      memcpy (view + s->offset + s->elem_size
                  + offsetof (struct osp_vforest, parent),
              &p, 4);
      recrc (view, s);
    }
  else if (strcmp (d, "depth") == 0)
    {
      struct osp_view_section *s = section (view, OSP_VS_FOREST);
      uint32_t dd = 5;
      memcpy (view + s->offset + 2 * s->elem_size
                  + offsetof (struct osp_vforest, depth),
              &dd, 4);
      recrc (view, s);
    }
  else if (strcmp (d, "section-outside") == 0)
    section (view, OSP_VS_STATS)->offset = h->size + 64;
  else if (strcmp (d, "elem-small") == 0)
    section (view, OSP_VS_PATHS)->elem_size = 8;
  else if (strcmp (d, "two-strings") == 0)
    section (view, OSP_VS_STATS)->kind = OSP_VS_STRINGS;
  else if (strcmp (d, "unknown-kind") == 0)
    {
      /* not a defect: an unknown section kind is skipped */
      struct osp_view_section *s = section (view, OSP_VS_STATS);
      s->kind = 77;
      s->crc32 ^= 1; /* not checked either */
    }
  else
    return 0;
  (void) len;
  return 1;
}

/* ---- segments -------------------------------------------------------- */

/* Room for a view: the live segment's buffers; a segment file's are
   smaller (the demo view is about 2.3K), so that fuzzing copies less. */
#define BUF_CAP (64 * 1024)
#define FILE_BUF_CAP 4096
static size_t buf_cap = BUF_CAP;

static size_t
seg_size (void)
{
  size_t hs = (sizeof (struct osp_shm_header) + 63) / 64 * 64;
  return hs + 2 * buf_cap;
}

static void
init_header (struct osp_shm_header *h, int64_t pid, uint64_t start)
{
  memset (h, 0, sizeof *h);
  memcpy (h->magic, OSP_SHM_MAGIC, 8);
  h->byte_order = OSP_SHM_BYTE_ORDER;
  h->major = OSP_SHM_MAJOR;
  h->minor = OSP_SHM_MINOR;
  h->header_size = sizeof *h;
  h->publish_ms = 100;
  h->segment_size = seg_size ();
  h->instance_id = 0x1234;
  h->pid = pid;
  h->start_ns = start;
  size_t hs = (sizeof *h + 63) / 64 * 64;
  h->buf_off[0] = hs;
  h->buf_off[1] = hs + buf_cap;
  h->buf_cap = buf_cap;
  snprintf (h->program, sizeof h->program, "viewer-demo");
}

/* The writer's side of shm.h's protocol. */
static void
publish (unsigned char *map, const unsigned char *view, size_t len)
{
  struct osp_shm_header *h = (void *) map;
  uint64_t b = 1 - atomic_load_explicit (&h->current, memory_order_relaxed);
  uint64_t s = atomic_load_explicit (&h->seq[b], memory_order_relaxed);
  atomic_store_explicit (&h->seq[b], s + 1, memory_order_relaxed);
  atomic_thread_fence (memory_order_release);
  memcpy (map + h->buf_off[b], view, len);
  atomic_store_explicit (&h->len[b], len, memory_order_relaxed);
  atomic_store_explicit (&h->seq[b], s + 2, memory_order_release);
  atomic_store_explicit (&h->current, b, memory_order_release);
  atomic_store_explicit (&h->heartbeat_ns, now_ns (), memory_order_relaxed);
  atomic_fetch_add_explicit (&h->publishes, 1, memory_order_relaxed);
}

static int
live (double seconds, long period_ms, const char *stop)
{
  char path[128];
  snprintf (path, sizeof path, "%s%s%lu-%ld", OSP_SHM_DIR, OSP_SHM_PREFIX,
            (unsigned long) geteuid (), (long) getpid ());
  int fd = open (path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
  if (fd < 0)
    die (path);
  size_t size = seg_size ();
  if (posix_fallocate (fd, 0, (off_t) size) != 0)
    die ("posix_fallocate");
  unsigned char *map = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
                             fd, 0);
  if (map == MAP_FAILED)
    die ("mmap");
  uint64_t start = now_ns ();
  struct osp_shm_header h;
  init_header (&h, getpid (), start);
  memcpy (map, &h, sizeof h);
  static unsigned char view[BUF_CAP];
  uint64_t k = 1;
  publish (map, view, make_view (view, sizeof view, k, 0, V_FULL, getpid (),
                                 start));
  struct osp_shm_header *sh = (void *) map;
  atomic_store_explicit (&sh->state, OSP_SHM_ONLINE, memory_order_release);
  printf ("%ld\n", (long) getpid ());
  fflush (stdout);
  while ((double) (now_ns () - start) / 1e9 < seconds
         && !(stop && access (stop, F_OK) == 0))
    {
      struct timespec ts = { period_ms / 1000, period_ms % 1000 * 1000000 };
      nanosleep (&ts, NULL);
      k++;
      publish (map, view, make_view (view, sizeof view, k, 0, V_FULL,
                                     getpid (), start));
    }
  publish (map, view, make_view (view, sizeof view, k + 1, 1, V_FULL,
                                 getpid (), start));
  atomic_store_explicit (&sh->state, OSP_SHM_EXITED, memory_order_release);
  unlink (path);
  munmap (map, size);
  close (fd);
  return 0;
}

/* Write a segment file with one published view (publish number 3) and
   apply DEFECT. */
static int
segment_file (const char *path, const char *defect)
{
  buf_cap = FILE_BUF_CAP;
  size_t size = seg_size ();
  unsigned char *map = calloc (1, size);
  static unsigned char view[BUF_CAP];
  if (map == NULL)
    die ("calloc");
  struct osp_shm_header h;
  /* pid 0x7ffffff0: no such process, and the state says ONLINE: a writer
     that died (unless DEFECT is "exited") */
  int exited = strcmp (defect, "exited") == 0;
  init_header (&h, 0x7ffffff0, now_ns () - 5000000000ull);
  memcpy (map, &h, sizeof h);
  size_t len = make_view (view, sizeof view, 3, exited, V_FULL, h.pid,
                          h.start_ns);
  int vd = view_defect (view, &len, defect);
  publish (map, view, len);
  struct osp_shm_header *sh = (void *) map;
  atomic_store_explicit (&sh->state, exited ? OSP_SHM_EXITED : OSP_SHM_ONLINE,
                         memory_order_relaxed);
  size_t out = size;
  if (vd || exited || strcmp (defect, "ok") == 0)
    ;
  else if (strcmp (defect, "bad-magic") == 0)
    memcpy (sh->magic, "NOTOSP\0\1", 8);
  else if (strcmp (defect, "major") == 0)
    sh->major = OSP_SHM_MAJOR + 1;
  else if (strcmp (defect, "byte-order") == 0)
    sh->byte_order = 0x04030201;
  else if (strcmp (defect, "truncated") == 0)
    out = 100;
  else if (strcmp (defect, "tiny") == 0)
    out = 5;
  else if (strcmp (defect, "size") == 0)
    sh->segment_size = size - 64;
  else if (strcmp (defect, "bufoff") == 0)
    sh->buf_off[1] = size;
  else if (strcmp (defect, "bufoff-wrap") == 0)
    sh->buf_off[1] = UINT64_MAX - 63;
  else if (strcmp (defect, "overlap") == 0)
    sh->buf_off[1] = sh->buf_off[0] + 64;
  else if (strcmp (defect, "len-cap") == 0)
    atomic_store_explicit (&sh->len[1], buf_cap + 1, memory_order_relaxed);
  else if (strcmp (defect, "torn") == 0)
    atomic_store_explicit (&sh->seq[1], 3, memory_order_relaxed);
  else if (strcmp (defect, "current") == 0)
    atomic_store_explicit (&sh->current, 7, memory_order_relaxed);
  else if (strcmp (defect, "unpublished") == 0)
    {
      atomic_store_explicit (&sh->seq[1], 0, memory_order_relaxed);
      atomic_store_explicit (&sh->current, 0, memory_order_relaxed);
    }
  else if (strcmp (defect, "init") == 0)
    atomic_store_explicit (&sh->state, OSP_SHM_INIT, memory_order_relaxed);
  else if (strcmp (defect, "program") == 0)
    memset (sh->program, 'x', sizeof sh->program);
  else
    {
      fprintf (stderr, "viewer-writer: unknown defect '%s'\n", defect);
      return 99;
    }
  FILE *f = fopen (path, "wb");
  if (f == NULL || fwrite (map, 1, out, f) != out || fclose (f) != 0)
    die (path);
  free (map);
  return 0;
}

static int
view_file (const char *path, const char *variant)
{
  static unsigned char view[BUF_CAP];
  enum variant var = strcmp (variant, "exact") == 0   ? V_EXACT
                     : strcmp (variant, "empty") == 0 ? V_EMPTY
                                                      : V_FULL;
  size_t len = make_view (view, sizeof view, 7, 0, var, 4242, now_ns ());
  FILE *f = fopen (path, "wb");
  if (f == NULL || fwrite (view, 1, len, f) != len || fclose (f) != 0)
    die (path);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc >= 3 && strcmp (argv[1], "live") == 0)
    return live (atof (argv[2]), argc > 3 ? atol (argv[3]) : 100,
                 argc > 4 ? argv[4] : NULL);
  if (argc >= 3 && strcmp (argv[1], "segment") == 0)
    return segment_file (argv[2], argc > 3 ? argv[3] : "ok");
  if (argc >= 3 && strcmp (argv[1], "view") == 0)
    return view_file (argv[2], argc > 3 ? argv[3] : "full");
  fprintf (stderr, "usage: viewer-writer live SECONDS [PERIOD_MS] | segment "
           "FILE [DEFECT] | view FILE [VARIANT]\n");
  return 99;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */

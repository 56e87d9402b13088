/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ospview.h - internal contracts between the files of the viewer.
 *
 *   segment.c  finding (-l), attaching to and copying views out of the
 *              shared-memory segments of profiled processes (osp/shm.h)
 *   snapshot.c reading (validating) and saving snapshot files
 *              (osp/snapshot.h)
 *   source.c   a live segment or a snapshot file behind one interface
 *   screens.c  the screens as rows of text: hot subpaths, Ball-Larus paths,
 *              the prefix forest, functions; filtering and sorting; used by
 *              both the batch output and the terminal UI
 *   status.c   the status lines above the screens (process, liveness,
 *              the totals behind the estimates)
 *   batch.c    -b: print the screens as text, N refreshes
 *   export.c   --json, --dot=FUNCTION, --annotate, --pprof, --folded: a
 *              view exported; reading it and the helpers the exports
 *              share (export.h)
 *   export-json.c, export-dot.c, export-annotate.c, export-pprof.c,
 *   export-folded.c  one export each (pbwrite.c: protobuf and gzip bytes)
 *   text.c     the one sanitiser of text out (ospview_puts, ex_put,
 *              ospview_error) and the one rule for numbers (ospview_num)
 *   diff.c     --diff OLD NEW: two snapshots compared by content
 *   recent.c   recent mode: rates over a window, from two views of one
 *              process matched as diff.c matches them
 *   merge.c    --merge OUT IN...: snapshots of one program merged
 *   tui.c      the ncurses UI: windows, drawing, the key loop (live views,
 *              snapshots, and the tables of a diff)
 *   keys.c     the key table (the one place a key is bound; the help
 *              screen is generated from it)
 *   ospview.c  command line, main
 * The view format itself - validating a view and giving it a C shape
 * (viewparse.h), building one (viewbuild.h), the checksums, string
 * tables and snapshot files - is libosprt/format/, the library the runtime
 * and the tests link too.
 */
#ifndef OSPVIEW_H
#define OSPVIEW_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>

#include "osp/shm.h"
#include "osp/snapshot.h"
#include "osp/view.h"
#include "grow.h"
#include "viewparse.h"

/* ---- segment.c ------------------------------------------------------- */

/* One segment found in OSP_SHM_DIR for this user. */
struct seg_info
{
  pid_t pid;
  int alive;             /* the process exists */
  uint32_t state;        /* enum osp_shm_state, as last read */
  char program[256];
  uint64_t start_ns, heartbeat_ns;
  uint64_t publishes;    /* views written (0: no viewer asked yet) */
};

/* The segments of the calling user (up to MAX, newest pid first).  Returns
   how many were found (may exceed MAX), or -1 with ERR set. */
int seg_list (struct seg_info *out, int max, char *err, size_t errlen);

struct seg
{
  int fd;
  void *map;
  size_t size;
  pid_t pid; /* the process as seen here (seg_attach), else the header's */
  const struct osp_shm_header *hdr; /* validated */
  /* Added by segment.c: the header as validated at attach (a private
     copy; its offsets and sizes are the ones used, the shared page's fixed
     fields are not trusted to stay put), and the file's path for
     messages. */
  struct osp_shm_header fixed;
  char path[256];
  /* seg_request: 1 when it asked the process for views (or they come
     anyway), -1 when it could not, with the reason in ask_err; 0 before. */
  int asked;
  char ask_err[160];
};

/* Attach to the segment of PID (read-only).  0, or -1 with a one-line ERR
   naming the problem (no such segment, not osp's, another version, ...). */
int seg_attach (struct seg *s, pid_t pid, char *err, size_t errlen);
/* Attach to a segment file given by path (tests, fuzzing). */
int seg_attach_path (struct seg *s, const char *path, char *err,
                     size_t errlen);
void seg_detach (struct seg *s);
/* A live process's runtime (shm.h minor >= 1) publishes only once a
   viewer asked: if S's process runs and has published nothing yet, ask
   (one store into the header's `attach' word, through a descriptor of
   the same file opened for writing).  Sets s->asked. */
void seg_request (struct seg *s);
/* Copy the newest view into *BUF (malloc'ed, grown as needed; *CAP its
   size).  Returns the view's length, 0 when no view was published yet, or
   -1 with ERR (torn after the retries, length out of range, ...). */
long seg_read (const struct seg *s, void **buf, size_t *cap, char *err,
               size_t errlen);
/* Whether PID exists (kill (pid, 0); EPERM counts as alive) and is no
   zombie. */
int seg_alive (pid_t pid);
/* Whether the process of attached segment S still runs: its pid (as seen
   here) exists, is no zombie and has the start time the header recorded;
   1 when that cannot be known (a segment of another pid namespace given
   by path). */
int seg_running (const struct seg *s);

/* ---- hashing (text.c) ---------------------------------------------- */

/* A random 64-bit seed, the same for the whole process, for the readers'
   hash tables (diff.c, merge.c): the names and ids they hash come from
   the view, so with a fixed seed a hostile view could make every key
   land in one slot (quadratic work); with this one it cannot know where
   keys land.  Nothing hash-ordered is ever output. */
uint64_t ospview_hash_seed (void);
/* A 64-bit hash made good in its low bits (splitmix64's finaliser), for
   slot = ospview_hash_mix (h) & (cap - 1). */
static inline uint64_t
ospview_hash_mix (uint64_t z)
{
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* ---- srctext.c ------------------------------------------------------- */

/* The largest source file whose text is shown. */
#define SRC_TEXT_MAX (16u << 20)

/* The digest the N functions FNS (indices into V's FUNCS) agree their
   file had: 1 with *OUT, or 0 when any has none or two differ. */
int src_want (const struct view *v, const uint32_t *fns, size_t n,
              struct osp_vfnsrc *out);
/* PATH's bytes (malloc'ed, NUL-appended, *LEN of them) when they are
   exactly what WANT records - size and SHA-256 of what was read, at most
   SRC_TEXT_MAX bytes - else NULL. */
char *src_text_load (const char *path, const struct osp_vfnsrc *want,
                     size_t *len);
/* FILE's text as it was compiled in COMP_DIR (the view's FNSRC) with the
   contents WANT, looked for by --source-map, --source-dir, in COMP_DIR
   and from here (srctext.c); NULL with WHY, one line: "FILE: changed
   since it was compiled", "FILE: not found in DIRS", "FILE: no checksum
   recorded ...". */
char *src_find (const char *file, const char *comp_dir,
                const struct osp_vfnsrc *want, size_t *len, char *why,
                size_t whylen);
/* --source-dir DIR and --source-map OLD=NEW (kept: ARG is not copied);
   0, or -1 (a map without '=' or with an empty side, out of memory). */
int src_add_dir (const char *dir);
int src_add_map (const char *arg);
/* The statement lines of the N blocks BLOCKS (indices into V's BLOCKS),
   ascending and distinct, the first MAX of them into OUT (*MORE: there
   are more); a block of a view without statement lines gives the lines
   of its range.  How many were written. */
size_t src_lines_of (const struct view *v, const uint32_t *blocks, size_t n,
                     uint32_t *out, size_t max, int *more);
/* The blocks V->ids[IDS, IDS + LEN) as steps (consecutive blocks of one
   function), each with its statement lines' text (or one line saying why
   not), to O: the source of a row in batch mode. */
void src_print_blocks (FILE *o, const struct view *v, uint64_t ids,
                       uint32_t len);
/* The recorded compilation directory of function FI ("" unknown). */
const char *src_comp_dir (const struct view *v, uint32_t fi);

/* ---- snapshot.c ------------------------------------------------------ */

/* A snapshot file read into memory and validated. */
struct snapshot
{
  char *file;             /* the whole file (malloc'ed, 16-aligned) */
  struct osp_snap_header hdr;
  const void *view_bytes; /* inside FILE, 8-aligned */
  size_t len;
  struct view view;       /* validated */
};

/* Read and validate the snapshot file PATH.  0, or -1 with a one-line ERR
   "PATH: problem" (not a snapshot, another version, truncated, a checksum
   mismatch, a bad view, ...). */
int snap_load (struct snapshot *s, const char *path, char *err,
               size_t errlen);
/* Validate the LEN bytes at FILE (16-aligned, owned by S on success) as a
   snapshot.  0, or -1 with ERR (no file name).  For the fuzzer. */
int snap_parse (struct snapshot *s, char *file, uint64_t len, char *err,
                size_t errlen);
void snap_free (struct snapshot *s);
/* Save the LEN view bytes at VIEW as snapshot file PATH (written to a
   temporary file and renamed).  0, or -1 with ERR. */
int snap_save (const char *path, const void *view, size_t len,
               uint32_t flags, char *err, size_t errlen);
/* snap_save with the header's saved time SAVED_NS instead of the clock
   (ospview --merge: a merge writes the same bytes whenever it runs). */
int snap_save_at (const char *path, const void *view, size_t len,
                  uint32_t flags, uint64_t saved_ns, char *err,
                  size_t errlen);

/* ---- source.c -------------------------------------------------------- */

enum src_kind { SRC_LIVE, SRC_FILE };

struct source
{
  enum src_kind kind;
  struct seg seg;        /* SRC_LIVE */
  struct snapshot snap;  /* SRC_FILE */
  const char *path;      /* SRC_FILE: as given */
};

/* A live process: PID's segment, asking its process for views if it
   publishes none yet (seg_request); or the segment file SEGMENT if not
   NULL, read as it is (never written).  0, or -1 with ERR. */
int source_attach (struct source *s, pid_t pid, const char *segment,
                   char *err, size_t errlen);
/* A live process asked for views at attach (seg_request) that has none
   yet: wait a moment (two publish periods and a second at most) for the
   first, for the one-shot outputs (batch, exports, --save). */
void source_wait_first (const struct source *s);
/* A snapshot file.  0, or -1 with ERR naming the file. */
int source_open_file (struct source *s, const char *path, char *err,
                      size_t errlen);
void source_close (struct source *s);
/* The segment's or the file's path, for messages. */
const char *source_name (const struct source *s);
/* The newest view into *BUF (grown as needed): its length, 0 when none was
   published yet, or -1 with ERR. */
long source_read (const struct source *s, void **buf, size_t *cap,
                  char *err, size_t errlen);

/* ---- screens.c ------------------------------------------------------- */

/* The screens, in Tab order. */
enum scr_screen
{
  SCR_SUBPATHS,  /* hot subpaths (mode=subpaths, subpaths-exact) */
  SCR_PATHS,     /* hot Ball-Larus paths */
  SCR_FOREST,    /* the prefix forest (k-BLPP) as an indented tree */
  SCR_FUNCTIONS, /* functions: self work and executions, calls, hot rows */
  SCR_NSCREENS
};

/* Sort keys.  SORT_RANK is the view's own order (the runtime's ranking;
   the forest's preorder; functions: by hot rows).  Not every key applies
   to every screen (scr_sort_ok); descending for numbers, ascending for
   names, REVERSE flips. */
enum scr_sort
{
  SORT_RANK,
  SORT_WORK,     /* estimated work: the count x its blocks' costs (the
                    default; functions: self work) */
  SORT_EXECS,    /* functions: self block executions */
  SORT_ESTIMATE, /* estimate (forest: count or estimate; functions: calls) */
  SORT_SHARE,
  SORT_LENGTH,   /* blocks */
  SORT_BRANCHES, /* paths */
  SORT_CALLS,    /* functions */
  SORT_NAME,     /* the row's path text or function name */
  SORT_NKEYS
};

const char *scr_screen_name (enum scr_screen s); /* "subpaths", ... */
int scr_screen_by_name (const char *name);        /* -1 if unknown */
/* *DST = a new string printed from FMT (the old one freed); -1 when out
   of memory, *DST unchanged.  The screens' and the recent tables' one
   formatter of titles, headers and notes. (screens.c) */
int scr_set_str (char **dst, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3)));
const char *scr_sort_name (enum scr_sort k);      /* "rank", ... */
int scr_sort_by_name (const char *name);          /* -1 if unknown */
int scr_sort_ok (enum scr_screen s, enum scr_sort k);

/* A set of row keys (the forest nodes whose expansion the user toggled),
   kept by the caller across refreshes: keys are stable for one process. */
struct scr_keyset
{
  uint64_t *keys; /* sorted */
  size_t n, cap;
};
int scr_keyset_has (const struct scr_keyset *set, uint64_t key);
/* Add KEY if absent, remove it if present.  0, or -1 out of memory. */
int scr_keyset_toggle (struct scr_keyset *set, uint64_t key);
void scr_keyset_free (struct scr_keyset *set);

struct scr_opts
{
  const char *filter;    /* keep rows whose text contains it (NULL: all);
                            forest: matches and their ancestors, opened */
  enum scr_sort sort;    /* a key scr_sort_ok allows, else SORT_RANK */
  int reverse;
  int full_paths;        /* 0: a long path shows its first 8 and last 5
                            steps around "...", like the text report */
  size_t top;            /* at most this many rows (0: all) */
  uint32_t open_depth;   /* forest: nodes shallower than this start open */
  const struct scr_keyset *toggled; /* forest: nodes open/closed unlike
                            open_depth says (NULL: none) */
};

struct scr_row
{
  char *text;            /* the whole row, no newline */
  uint64_t key;          /* identity across refreshes (selection, folds) */
  uint64_t index;        /* its element in the view's section */
  uint32_t depth;        /* forest: the node's depth, else 0 */
  unsigned char has_children, expanded; /* forest */
};

struct scr_table
{
  char *title;           /* e.g. "hottest subpaths (20 of 57)" */
  char *header;          /* the column titles, aligned with the rows */
  char *note;            /* why the table is empty, or NULL */
  size_t path_col;       /* where the path (or name) column starts */
  struct scr_row *rows;
  size_t n, cap;
  size_t total;          /* rows before the filter and TOP */
};

/* The blocks [ids, ids + len) of V as the rows show them: "fn() file:lines
   -> ...", consecutive blocks of one function with continuing lines as
   one step; FULL = 0 shortens a long path like the text report.  Content
   only (names and lines, no ids): equal for the same path in two builds.
   malloc'ed, NULL when out of memory. */
char *scr_path_text (const struct view *v, uint64_t ids, uint32_t len,
                     int full);

/* Fill T (zeroed or freed before) with screen S of V.  0, or -1 out of
   memory (T is then freed). */
int scr_build (struct scr_table *t, const struct view *v, enum scr_screen s,
               const struct scr_opts *o);
void scr_table_free (struct scr_table *t);

/* ---- status.c -------------------------------------------------------- */

/* What the status lines say about the process besides the view. */
struct scr_live
{
  const char *program;   /* the segment header's program name */
  long pid;
  uint64_t start_ns;     /* CLOCK_REALTIME of the runtime's start */
  uint32_t state;        /* enum osp_shm_state */
  int alive;             /* the pid exists */
  uint64_t heartbeat_ns; /* the writer's last publish (REALTIME) */
  uint64_t now_ns;       /* CLOCK_REALTIME now */
  uint64_t publishes;    /* views written so far */
  uint64_t truncated;    /* views the writer had to cut */
  const char *snapshot;  /* a snapshot file: its path (NULL: live) */
  uint32_t snap_flags;   /* its enum osp_snap_flags */
  uint64_t saved_ns;     /* when it was written (REALTIME) */
  const char *problem;   /* why no view could be read, or NULL */
  const char *waiting;   /* live, no view yet: what for, or NULL */
  const char *window;    /* live: "cumulative" or "recent 5.0s" (recent.c;
                            NULL: not said) */
};

/* The status lines (2 or 3) into T->rows: program, pid, uptime, state,
   heartbeat age; the counts behind the estimates (blocks seen, samples,
   path ends), thresholds and memory.  V may be NULL (no view yet).
   0, or -1 out of memory. */
int scr_status (struct scr_table *t, const struct view *v,
                const struct scr_live *l);
/* "snapshot" for a file, "exited" when the state says so or the pid is
   gone, else NULL (live). */
const char *scr_exited (const struct scr_live *l);

/* ---- export.c -------------------------------------------------------- */

enum export_kind { EXPORT_JSON, EXPORT_DOT, EXPORT_ANNOTATE, EXPORT_PPROF,
                   EXPORT_FOLDED };

/* ospview --json | --dot=FUNCTION | --annotate[=FILE] on the source's
   newest view, to stdout.  ARG: the function (DOT), the source file or
   NULL for all (ANNOTATE).  Exit status (1 with one stderr line when the
   view cannot be read or ARG names nothing in it). */
int export_main (const struct source *s, enum export_kind kind,
                 const char *arg);
/* The same for the exports of rows, of the screens SCREENS (a bit per
   enum scr_screen; the functions screen has no rows for them): --pprof
   (ARG: the output file, "-" stdout) and --folded (ARG: NULL or "execs"
   for executions, "work").  The other kinds ignore SCREENS. */
int export_rows_main (const struct source *s, enum export_kind kind,
                      const char *arg, unsigned screens);

/* ---- diff.c ---------------------------------------------------------- */

struct ospview_opts;

/* ospview --diff OLD NEW: O->count > 0 (-b) or stdout not a terminal:
   text for scripts; else the terminal UI.  FAIL_ABOVE >= 0: exit status 3
   when some path's share grew by more than that many percentage points.
   Exit status: 0, 1 (a file cannot be read; one stderr line), 3. */
int diff_main (const char *old_path, const char *new_path,
               const struct ospview_opts *o, double fail_above);

/* The matching --diff uses (rows by content: the path text, the function
   and file), for the views of one live process (recent.c): screens SCREENS
   (a bit per enum scr_screen) of OLD and NEW matched.  OLD may be NULL
   (nothing before: every row only in NEW).  The views must outlive the
   result.  NULL out of memory. */
struct diff *diff_views (const struct view *old, const struct view *new_,
                         unsigned screens);
void diff_release (struct diff *d);
/* One matched row: its identity (as scr_row.key), its element in NEW's
   section (OLD's when only there), NEW's shortened text, and each side's
   estimate and 95% error (HAVE[k] 0: not in that view). */
struct diff_pair
{
  uint64_t key, index;
  const char *brief;
  uint32_t len;
  int have[2];
  double est[2], err[2];
  /* each side's element in its view (SUBPATHS, PATHS, ...), or
     DIFF_NO_AT: absent, or several rows of one key added up */
  uint64_t at[2];
};
#define DIFF_NO_AT UINT64_MAX
size_t diff_npairs (const struct diff *d, enum scr_screen s);
void diff_pair (const struct diff *d, enum scr_screen s, size_t i,
                struct diff_pair *p);
/* Whether row I's whole text contains FILTER (NULL or "": yes). */
int diff_pair_matches (const struct diff *d, enum scr_screen s, size_t i,
                       const char *filter);
/* What the functions screen added up: "paths" or "subpaths". */
const char *diff_basis (const struct diff *d);

/* ---- recent.c -------------------------------------------------------- */

/* Recent mode: what the program did over the last WINDOW seconds rather
   than since it started, from the difference of two published views of
   one process (the newest and one about WINDOW older, kept here). */
#define RECENT_SLOTS 8
#define RECENT_WINDOW 5.0 /* seconds, the default */
struct recent_slot
{
  void *buf;             /* a copy of a view (8-aligned), NULL: free */
  struct view view;      /* parsed from BUF */
};
struct recent
{
  double window;         /* seconds */
  struct recent_slot slot[RECENT_SLOTS]; /* oldest first */
  int n;
};
void recent_init (struct recent *r, double window);
void recent_free (struct recent *r);
/* Keep CUR (a view just read and parsed) as a future base if it is far
   enough from the last one kept: the slots then span the window.  A view
   of another process (another instance) empties them first.  0, or -1 out
   of memory (nothing kept; recent mode then covers a longer time). */
int recent_push (struct recent *r, const struct view *cur);
/* The base CUR is compared with: the newest kept view at least WINDOW
   older, else the oldest one older than CUR; NULL: none (the process's
   start, all counts 0). */
const struct view *recent_base (const struct recent *r,
                                const struct view *cur);
/* "recent 5.0s" (the time actually covered) into BUF. */
const char *recent_label (const struct recent *r, const struct view *cur,
                          char *buf, size_t n);
/* Screen S as rates over the time between OLD (NULL: the process's start)
   and NEW: each row's estimate in NEW minus OLD's, with its 95% error
   (a subpath's from the samples taken in between, when the views carry
   its evidence; else the two errors combined; recent.c), and per second;
   rows within it marked '~'.  Rows keep their
   keys (content) and NEW's index, so the UI's cursor and detail pane work
   as on the cumulative screens.  WHAT names the interval in the title.
   0, or -1 out of memory (T freed). */
int recent_build (struct scr_table *t, const struct view *old,
                  const struct view *new_, enum scr_screen s,
                  const struct scr_opts *o, const char *what);
/* The same over a matching already made (diff.c's between-snapshots
   tables). */
int recent_table (struct scr_table *t, const struct diff *d,
                  const struct view *old, const struct view *new_,
                  enum scr_screen s, const struct scr_opts *o,
                  const char *what);
/* PAIRS != 0: rows carry their index in D's matching (diff_npairs), as
   diff.c's own tables do, instead of NEW's element. */
int recent_table_pairs (struct scr_table *t, const struct diff *d,
                        const struct view *old, const struct view *new_,
                        enum scr_screen s, const struct scr_opts *o,
                        const char *what);

/* ---- merge.c --------------------------------------------------------- */

struct merge_opts
{
  int allow_same_run; /* merge one run counted twice anyway */
  int keep_going;     /* skip a refused input (one line) instead of failing */
  size_t max_rows;    /* rows per merged section; more are counted, dropped */
};

/* The default of --merge-rows. */
#define MERGE_ROWS_DEFAULT ((size_t) 1 << 20)

/* ospview --merge OUT IN...: one snapshot of the N inputs (the same
   program), read one at a time, estimates combined; written atomically to
   OUT.  Inputs of one run (the same file, a copy, one process instance)
   are refused unless OPT->allow_same_run; a refused input stops the merge
   unless OPT->keep_going.  Exit status (1 with one stderr line naming the
   file and the problem). */
int merge_main (const char *out, const char *const *in, size_t n,
                const struct merge_opts *opt);

/* Write S to F as text and nothing else: the one sanitiser of every text
   output (batch screens, --diff text, messages, exports in plain form;
   the UI draws through its own, tui.c's put_text): invalid UTF-8 as
   U+FFFD, control characters (C0 with tab and newline, DEL, C1) as '?',
   so that no name, program or argument from a view can move the cursor,
   clear the screen or set the terminal's title.  (text.c) */
void ospview_puts (FILE *f, const char *s);

/* Numbers.  A view's doubles are finite and >= 0 (viewparse.c), but a hostile
   one may hold 1e300: arithmetic on them saturates (ospview_sat after a
   sum or product, hypot for errors in quadrature), so that no infinity or
   NaN reaches a table, a sort, a DOT attribute or a merged snapshot; and
   every number is printed by one rule (ospview_num): fixed-point with
   PREC decimals below 1e12, else scientific with three significant digits
   ("1.00e+300"): at most 16 characters, whatever the view holds.
   (text.c, like the sanitiser below) */
double ospview_sat (double x);          /* to [-DBL_MAX, DBL_MAX]; NaN 0 */
#define OSPVIEW_NUM 32                  /* room for any ospview_num */
const char *ospview_num (char *buf, size_t n, double x, int prec);
/* FRACTION as a percentage: ospview_num (100 x FRACTION) and "%". */
const char *ospview_pct (char *buf, size_t n, double fraction, int prec);

/* The one way the viewer sorts and searches: qsort and bsearch, but
   nothing at all for an empty array (its pointer may be NULL, and
   qsort (NULL, 0) or bsearch over NULL is undefined behaviour that UBSan
   reports). */
static inline void
ospview_sort (void *base, size_t n, size_t size,
              int (*cmp) (const void *, const void *))
{
  if (n > 1)
    qsort (base, n, size, cmp);
}

/* The same for a comparator that needs more than the two elements (a sort
   key, the array its indices point into): CTX is handed to every CMP
   call, so that state travels with the sort instead of through file-level
   globals.  Stable (equal elements keep their order), so the order is the
   same on every libc, and glibc's qsort's, tie for tie. (text.c) */
void ospview_sort_r (void *base, size_t n, size_t size,
                     int (*cmp) (const void *, const void *, void *),
                     void *ctx);

/* The one growth rule of the viewer's arrays, the view format's
   (osp_grow, grow.h): *(T **) PP, an array of *CAP elements of SIZE
   bytes, grown to hold at least NEED, its capacity doubling from FIRST.
   0, or -1 out of memory or when the size would overflow (the array and
   *CAP unchanged). */
static inline int
ospview_grow (void *pp, size_t *cap, size_t need, size_t size, size_t first)
{
  return osp_grow (pp, cap, need, size, first);
}

static inline void *
ospview_search (const void *key, const void *base, size_t n, size_t size,
                int (*cmp) (const void *, const void *))
{
  return n > 0 ? bsearch (key, base, n, size, cmp) : NULL;
}

/* ---- batch.c, tui.c, ospview.c --------------------------------------- */

/* "ospview: MESSAGE" on stderr, one line: through ospview_puts (names in
   a view are not trusted).  (text.c) */
void ospview_error (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

struct ospview_opts
{
  long count;            /* -b N: refreshes (batch mode when > 0) */
  double delay;          /* -d: seconds between refreshes */
  unsigned screens;      /* --screen: a bit per enum scr_screen */
  size_t top;            /* --top: rows per screen (0: all) */
  const char *filter;    /* --filter */
  enum scr_sort sort;    /* --sort */
  int reverse;
  double recent;         /* --recent[=SECONDS]: start in recent mode over
                            that window (0: cumulative) */
};

/* What the status lines say about the source besides its view: the
   segment's liveness, or the snapshot file (source.c). */
void source_live (const struct source *s, struct scr_live *l);

/* Print the screens O selects as text, O->count times.  Exit status. */
int batch_run (const struct source *s, const struct ospview_opts *o);
/* The interactive UI.  Exit status. */
int ospview_tui (const struct source *s, const struct ospview_opts *o);
/* ospview --keys: the UI's key table as text (keys.c; also in tui.h). */
int ospview_keys (void);


#endif

/* SPDX-License-Identifier: MIT */
/* output.h - libosprt's outputs: everything written from a profile.
 *
 *   report.c          reports: choosing the format, destinations
 *   report-blocks.c   the block-count report (mode=blocks), text and tsv
 *   report-subpaths.c the subpath report (subpath modes), text and tsv, and
 *                     the block-sequence printing the path report shares
 *   report-paths.c    the path and edge sections appended to either report
 *   report-forest.c   the prefix-forest section appended to either report
 *   report-work.c     functions by self work and executions, every mode
 *   text.c            what the text sections share: counts with digits
 *                     grouped, lines within OSP_TEXT_COLUMNS
 *   viewwrite.c       a profile as a view (include/osp/view.h), built with
 *                     the view format library (libosprt/format/)
 *   viewcache.c       the part of a view the registered functions alone
 *                     make, kept from one live view to the next
 *   publish.c         the shared-memory segment (include/osp/shm.h): views
 *                     published by a runtime thread started on a viewer's
 *                     request, lifecycle, fork
 *   identity.c        what a view says about the process
 *   snapshot.c        snapshot files (include/osp/snapshot.h)
 *   online.c          the report of osp_report() (include/osp/osp.h; its
 *                     entry point is runtime.c's) and report_signal
 *
 * Uses profile/ and below; reads a profile, never a collector.
 */
#ifndef OSP_OUTPUT_H
#define OSP_OUTPUT_H

#include "profile/profile.h"

/* ---- report.c -------------------------------------------------------- */

/* Write P to OUT in the format of O (text or tsv).  Returns 0 or -1. */
int osp_report_format (FILE *out, const struct osp_profile *p,
                       const struct osp_options *o);
/* Take a profile and send it where O says; problems get one stderr line.
   Returns 0, or -1 if no report was written. */
int osp_report_emit (const struct osp_options *o);
/* The same with profile P already taken (NULL: taking it failed, which is
   the out-of-memory line unless O's report is none). */
int osp_report_write (const struct osp_options *o,
                      const struct osp_profile *p);
/* Every statistic of P in report order: each shown section's (the
   section table's), then output_skipped when some output was skipped.
   The tsv report ends with it; the view's STATS are the same. */
void osp_report_stats (const struct osp_stat_out *out,
                       const struct osp_profile *p,
                       const struct osp_options *o);
/* "file:first-last" of lines FIRST..LAST of F into BUF (F's first line
   when FIRST is 0; just the file when that is 0 too). */
void osp_location (char *buf, size_t size, const struct osp_fn *f,
                   uint32_t first, uint32_t last);
/* The first line of a text report; BLOCK_ENTRIES < 0 leaves it out. */
void osp_report_header (FILE *out, const struct osp_profile *p,
                        const struct osp_options *o, const char *mode,
                        long long block_entries);
/* The first line of a tsv report ("# osp-report 1 mode=M[ paths=P]"). */
void osp_report_tsv_header (FILE *out, const struct osp_profile *p,
                            const struct osp_options *o, const char *mode);
/* A calloc'ed flag per global block id: the blocks on a reported subpath
   or path, which get a `block' row so that the tsv decodes without the
   binary.  *NBLOCKS gets the number of ids.  NULL if out of memory. */
unsigned char *osp_report_used_blocks (const struct osp_profile *p,
                                       size_t *nblocks);

/* After a table that shows SHOWN of its TOTAL rows (report_top; WHAT
   names them: "row", or "tree" for the forest, whose cut is by trees),
   the line saying how many were left out and how to see them; nothing
   when none were. */
void osp_report_more (FILE *out, size_t shown, size_t total,
                      const char *what);

/* ---- text.c ---------------------------------------------------------- */

/* The width the text report fits (doc/osp.md, "The exit report"). */
#define OSP_TEXT_COLUMNS 100
/* Room for a grouped number ("-" and 21 digits with their commas). */
#define OSP_GROUPED_SIZE 40
/* V as the text report prints a count or an estimate (a double rounded
   as %.0f): five digits or more grouped by commas ("1,234,567"), into
   BUF (OSP_GROUPED_SIZE bytes).  Returns BUF. */
const char *osp_grouped_u (char *buf, uint64_t v);
const char *osp_grouped_f (char *buf, double v);
/* The same for a value of any type, in a buffer that lives until the end
   of the enclosing block: printf ("%14s", OSP_G (count)). */
#define OSP_G(v)                                                             \
  _Generic ((v), double: osp_grouped_f, float: osp_grouped_f,                \
            default: osp_grouped_u) ((char[OSP_GROUPED_SIZE]){ 0 }, (v))

/* A row's last field (its path) two spaces after the COL columns of the
   row written so far when it fits in OSP_TEXT_COLUMNS; otherwise on the
   lines below, each indented by INDENT, broken at spaces.  Ends the
   line. */
void osp_text_field (FILE *out, int col, int indent, const char *field);
/* A line of prose written piece by piece: osp_para_open returns the FILE
   to write it to (no newline at its end); osp_para_close writes it to OUT
   broken at spaces into lines of at most OSP_TEXT_COLUMNS, the later ones
   indented 4 past the first's indentation.  (Out of memory: the line
   unbroken.) */
struct osp_para
{
  FILE *out, *mem;
  char *buf;
  size_t len;
};
FILE *osp_para_open (struct osp_para *pa, FILE *out);
void osp_para_close (struct osp_para *pa);
/* A line of prose in one printf (FMT without the newline). */
void osp_text_line (FILE *out, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3)));

/* ---- report.c: the section table ------------------------------------ */

/* A part of every output of a profile: the mode's (blocks or subpaths),
   the paths', the forest's.  SHOWN says whether P shows it at all (the
   only gate: a section's functions do not check it again); TSV writes
   its rows (the mode's first: the report's first line and the rows of
   blocks), TEXT its text part, STATS its statistics (osp_report_stats:
   the tsv's stat rows, the view's STATS); VIEW is the view section of
   its rows (include/osp/view.h), 0 when it has none (blocks: the counts
   are in FUNCS and BLOCKS): the view writer takes the row sections in
   table order (viewwrite.c).  The functions return 0 or -1 (out of
   memory). */
struct osp_section
{
  const char *name;
  uint32_t view;
  int (*shown) (const struct osp_profile *p);
  int (*tsv) (FILE *out, const struct osp_profile *p,
              const struct osp_options *o);
  int (*text) (FILE *out, const struct osp_profile *p,
               const struct osp_options *o);
  void (*stats) (const struct osp_stat_out *out, const struct osp_profile *p,
                 const struct osp_options *o);
};
/* In report order. */
extern const struct osp_section osp_sections[];
extern const unsigned osp_nsections;

/* ---- report-blocks.c, report-subpaths.c ------------------------------ */

/* The mode sections (osp_sections), plain functions of a profile; the
   tsv writes the first line and the mode's rows, not the stats.
   Return 0 or -1 (out of memory). */
int osp_format_blocks_tsv (FILE *out, const struct osp_profile *p,
                           const struct osp_options *o);
int osp_format_blocks_text (FILE *out, const struct osp_profile *p,
                            const struct osp_options *o);
/* The mode's own statistics (the first part of osp_report_stats). */
void osp_format_blocks_stats (const struct osp_stat_out *out,
                              const struct osp_profile *p,
                              const struct osp_options *o);
void osp_format_subpaths_stats (const struct osp_stat_out *out,
                                const struct osp_profile *p,
                                const struct osp_options *o);
int osp_subpath_mode (const struct osp_profile *p);
int osp_format_subpaths_tsv (FILE *out, const struct osp_profile *p,
                             const struct osp_options *o);
int osp_format_subpaths_text (FILE *out, const struct osp_profile *p,
                              const struct osp_options *o);
/* Shared with report-paths.c: the blocks GIDS[0..LEN) (global ids) as
   "fid:block,fid:block,..." (tsv), and decoded to "name() file:first-last
   -> ..." (text) as the last field of a row COL columns wide, ending the
   line (osp_text_field: below the row, indented INDENT, when it does not
   fit).  The latter returns 0 or -1 (out of memory). */
void osp_print_block_ids (FILE *out, const struct osp_profile *p,
                          const uint32_t *gids, uint32_t len);
int osp_print_blocks (FILE *out, const struct osp_profile *p,
                      const uint32_t *gids, uint32_t len, int col,
                      int indent);

/* ---- report-paths.c -------------------------------------------------- */

/* The path sections (shown when P->paths.shown): the `path' and `edge'
   rows, the path `stat' rows (tsv), the text section. */
int osp_format_paths_tsv (FILE *out, const struct osp_profile *p,
                          const struct osp_options *o);
void osp_format_paths_stats (const struct osp_stat_out *out,
                             const struct osp_profile *p,
                             const struct osp_options *o);
int osp_format_paths_text (FILE *out, const struct osp_profile *p,
                           const struct osp_options *o);

/* ---- report-forest.c ------------------------------------------------- */

/* The forest section (shown when P->forest.shown): the `forest' rows
   and forest `stat' rows (tsv), the text section. */
int osp_format_forest_tsv (FILE *out, const struct osp_profile *p,
                           const struct osp_options *o);
void osp_format_forest_stats (const struct osp_stat_out *out,
                              const struct osp_profile *p,
                              const struct osp_options *o);
int osp_format_forest_text (FILE *out, const struct osp_profile *p,
                            const struct osp_options *o);

/* ---- report-work.c -------------------------------------------------- */

/* Each function's self executions and work (executions x block cost) into
   EXECS[i] and WORK[i] for fns[i]: from block counts in mode=blocks, else
   from the path estimates; 0 for a function with neither.  Returns 0. */
int osp_fn_work (const struct osp_profile *p, double *execs, double *work);
/* Rows by work (format/workshare.h has the shares): the summed estimated
   cost of the blocks GIDS[0..LEN) (global ids; an id of no function
   weighs 0), and of the N path steps STEPS of fns[FI]. */
double osp_gids_cost (const struct osp_profile *p, const uint32_t *gids,
                      uint32_t len);
double osp_steps_cost (const struct osp_profile *p, uint32_t fi,
                       const struct osp_path_step *steps, uint32_t n);
/* The work share units of P's rows: UNITS[c] the subpaths of length
   class c (32 of them), *PATHS every path row, *FOREST the forest's
   roots (their shares are of every path end counted). */
struct osp_work_unit;
void osp_work_units (const struct osp_profile *p, struct osp_work_unit *units,
                     struct osp_work_unit *paths,
                     struct osp_work_unit *forest);
/* A row's work, its 95% half-width and work share into a tsv row: the
   fields after its blocks ("\t%.3f\t%.3f\t%.9g"). */
void osp_print_work_fields (FILE *out, double work, double err95,
                            double share);

/* The work section (osp_sections): shown in mode=blocks and wherever paths
   are; `work' rows (tsv), "functions by self work" (text), no stats. */
int osp_work_shown (const struct osp_profile *p);
int osp_format_work_tsv (FILE *out, const struct osp_profile *p,
                         const struct osp_options *o);
int osp_format_work_text (FILE *out, const struct osp_profile *p,
                          const struct osp_options *o);
void osp_format_work_stats (const struct osp_stat_out *out,
                            const struct osp_profile *p,
                            const struct osp_options *o);

/* ---- viewwrite.c ----------------------------------------------------- */

/* What a view says about the process besides its profile (publish.c
   fills it; strings may be NULL for ""). */
struct osp_view_run
{
  int64_t pid;
  uint64_t start_ns;    /* CLOCK_REALTIME at runtime start (or fork) */
  uint64_t instance_id; /* random per runtime start (or fork) */
  uint64_t time_ns;     /* CLOCK_REALTIME when the profile was taken */
  const char *program;  /* /proc/self/exe */
  const char *args;     /* the command line, spaces between arguments */
  const char *options;  /* OSP_OPTIONS as given */
  const struct osp_options *opts; /* the options in force */
  int exited;           /* the last view, taken at exit */
};

/* What the views of one process keep from one to the next (viewcache.c):
   the sections the registered functions alone make, serialised and
   checksummed once; made again when a module registers.  Zeroed: empty.
   The publisher keeps one (publish.c). */
struct osp_view_part;
struct osp_view_cache
{
  struct osp_view_part *part; /* NULL: nothing kept */
};
/* Free what CACHE keeps (it is then empty). */
void osp_view_cache_clear (struct osp_view_cache *cache);

/* Serialise P as a view (include/osp/view.h) into the CAP bytes at BUF
   (8-aligned), with view number SEQ.  When the rows do not all fit, the
   subpath, path and forest sections keep their first rows only (the
   forest whole trees where it can) and *TRUNCATED is set.  Returns the
   view's size, or 0 if even a view without rows does not fit or memory
   ran out.  CACHE (NULL: none) is used and updated: the bytes are the
   same with or without one.  No lock, no global state (its scratch is
   malloc'ed); the caller serialises the uses of one CACHE. */
size_t osp_view_write (void *buf, size_t cap, const struct osp_profile *p,
                       const struct osp_view_run *run, uint64_t seq,
                       int *truncated, struct osp_view_cache *cache);

/* ---- publish.c ------------------------------------------------------- */

/* publish=on, mode != off: sweep the stale segments of this user and
   create this process's segment (once, from osp_init, after every other
   module); no thread: that waits for a viewer (osp_publish_poll).  A
   failure is one stderr line and publishing off; the program runs and
   profiles as before.  Returns 0. */
int osp_publish_init (const struct osp_options *o);
/* A viewer's request (shm.h, `attach'), a fork child's segment and the
   sweep of children's leftovers are the runtime entries' work
   (osp_entry_poll, base.h), which osp_publish_init hands to
   osp_publish_poll_slow: it starts the publisher thread, once, makes a
   fork child's segment, sweeps. */
void osp_publish_poll_slow (void);
/* Whether a segment is being published and a viewer wants its views (the
   exit path takes a profile for the exit view even with report=none and
   snapshot=none; osp_publish_exit publishes it on the same condition). */
int osp_publish_active (void);
/* At exit, after the last profile P was taken (NULL: none could be):
   publish it as the last view (run.exited = 1), set the state EXITED,
   unlink the name (only in the process that created it).  A reader that
   is attached keeps its mapping and sees the last view. */
void osp_publish_exit (const struct osp_profile *p);
/* Publish one view now (the publisher thread; tests).  0, or -1 when
   nothing is published. */
int osp_publish_now (void);
/* Tests: this process's mapping of its segment (struct osp_shm_header),
   or NULL. */
const void *osp_publish_segment (void);
/* fork: prepare takes the publisher's lock (before every runtime lock),
   release drops it (the parent's handler and the end of the child's);
   the child, after every lock is released, leaves the parent's segment
   alone (unmaps it); its own segment is made by its runtime entries
   publish_ms later, its thread on a viewer's request. */
void osp_publish_fork_prepare (void);
void osp_publish_fork_release (void);
void osp_publish_fork_child (void);

/* ---- identity.c ------------------------------------------------------ */

/* Read the executable, command line and OSP_OPTIONS, draw the instance id
   (osp_init, before any runtime thread). */
void osp_identity_init (void);
/* A fork child: its own pid, instance id and start time. */
void osp_identity_fork_child (void);
/* RUN for a view taken now (EXITED: the last one, at exit). */
void osp_identity_run (struct osp_view_run *run, int exited);

/* ---- snapshot.c ------------------------------------------------------ */

/* With O->snapshot_path set: write P as a snapshot file (osp/snapshot.h)
   with FLAGS (enum osp_snap_flags); EXITED marks the view as the last.
   0, or -1 after one stderr line. */
int osp_snapshot_write (const struct osp_profile *p,
                        const struct osp_options *o, int exited,
                        uint32_t flags);
/* Take a profile now and write it (snapshot_signal).  0 or -1. */
int osp_snapshot_emit (const struct osp_options *o);
/* The one rule of the default snapshot (snapshot= not given; doc/osp.md,
   "The profile file"): it belongs to the first process with something
   profiled.  Clears O's snapshot path when this process is not that one:
   FORK_CHILD 1 in a fork child (never), 0 at exit (when some function
   registered).  A snapshot= the user gave is kept. */
void osp_snapshot_default_rule (struct osp_options *o, int fork_child);

/* ---- online.c -------------------------------------------------------- */

/* Install the report_signal and snapshot_signal handlers and start their
   thread (if either is set). */
int osp_online_init (const struct osp_options *o);
/* Emit a report now from this (program) thread (osp_report, runtime.c);
   PATH NULL = O's destination.  Returns 0 or -1. */
int osp_report_now (const char *path);

#endif /* OSP_OUTPUT_H */

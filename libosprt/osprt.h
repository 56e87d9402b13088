/* osprt.h - internal contracts between the files of libosprt.
 *
 * libosprt is linked into every program built with osp.so.  Generated code
 * calls three symbols (include/osp/abi.h); everything else is hidden (the
 * library is compiled with -fvisibility=hidden) and described here, one
 * section per file:
 *
 *   options.c     OSP_OPTIONS parsing                 -> struct osp_options
 *   registry.c    modules, functions, record checks   -> struct osp_fn
 *   thread.c      per-thread state, TLS, exit, fork   -> struct osp_thread
 *   blockcount.c  exact block-entry counters          -> per-thread tables
 *   report.c      the exit report (text, tsv)
 *   runtime.c     init, shutdown, the ABI entry points
 *
 * Locks, always taken in this order (fork's prepare handler takes both):
 *   osp_registry_lock  registration; the module table; the function list.
 *   osp_threads_lock   the list of live thread states; the merged totals.
 * Hooks take no lock except on a thread's first hook (to link its state).
 *
 * Reentrancy: every runtime path that can run on a program thread sets the
 * per-thread flag osp_in_runtime first; a hook that finds it set (a signal
 * handler running instrumented code while the runtime is busy on the same
 * thread) only re-arms __osp_skip and returns, so it can never deadlock on a
 * lock its own thread holds nor see a half-updated table.
 */
#ifndef OSPRT_H
#define OSPRT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "osp/abi.h"

#define OSP_EXPORT __attribute__ ((visibility ("default")))
#define OSP_TLS __attribute__ ((tls_model ("initial-exec"))) __thread

/* ---- options.c ------------------------------------------------------- */

enum osp_mode { OSP_MODE_BLOCKS, OSP_MODE_OFF };
enum osp_report_kind { OSP_REPORT_NONE, OSP_REPORT_STDERR, OSP_REPORT_STDOUT,
                       OSP_REPORT_FILE };
enum osp_report_format { OSP_FORMAT_TEXT, OSP_FORMAT_TSV };

#define OSP_PATH_MAX 4096

struct osp_options
{
  enum osp_mode mode;
  enum osp_report_kind report;
  /* Template for OSP_REPORT_FILE, %p %h %% still unexpanded (expanded at
     report time, so a forked child gets its own pid); made absolute at
     parse time so a chdir() by the program does not move the report. */
  char report_path[OSP_PATH_MAX];
  enum osp_report_format report_format;
  uint32_t report_top;
  uint32_t max_functions;
  int verbose;
};

void osp_options_defaults (struct osp_options *o);
/* Parse SPEC ("key=value:key=value", may be NULL) into O, writing one line
   per problem to ERR (may be NULL).  Returns the number of problems; a key
   with a problem keeps its previous value. */
int osp_options_parse (struct osp_options *o, const char *spec, FILE *err);
/* Expand %p %h %% of TMPL into OUT.  Returns 0, or -1 if OUT is too small. */
int osp_expand_path (char *out, size_t size, const char *tmpl, long pid,
                     const char *host);

/* ---- registry.c ------------------------------------------------------ */

struct osp_block
{
  uint32_t line_first, line_last, flags;
  uint32_t nsucc, succ; /* succ: index of the first edge in osp_fn.edges */
};

struct osp_edge
{
  uint32_t dst, flags;
};

/* A registered function: a copy owned by the runtime (the record's module
   may be dlclose'd).  Immutable after registration except `totals'. */
struct osp_fn
{
  uint32_t id;     /* index + 1, as written into the record */
  uint32_t module; /* index into the module table */
  uint32_t flags, nblocks, nedges;
  uint32_t first_line; /* first known line, 0 if none */
  const struct osp_fn_record *rec; /* identity only: never dereferenced */
  char *name, *file;
  struct osp_block *blocks;
  struct osp_edge *edges;
  uint64_t *totals; /* blockcount.c: merged counts, under osp_threads_lock */
};

struct osp_module
{
  uintptr_t start, stop; /* the section range it registers with */
  uint32_t nfunctions;
};

/* What the runtime writes into the id of a valid record it could not take
   (over max_functions); real ids never exceed max_functions <= 2^24. */
#define OSP_ID_DROPPED UINT32_MAX

/* Process-wide statistics; relaxed atomics (rarely written). */
struct osp_stats
{
  atomic_uint_fast64_t modules, functions, functions_dropped;
  atomic_uint_fast64_t records_invalid;
  atomic_uint_fast64_t abi_mismatches; /* records of another ABI */
  atomic_uint_fast64_t unregistered_hits, hits_lost, threads;
};
extern struct osp_stats osp_stats;

extern pthread_mutex_t osp_registry_lock;

/* Size the tables for MAX_FUNCTIONS (once, from osp_init).  Returns 0 or -1. */
int osp_registry_init (uint32_t max_functions, int verbose);
/* __osp_register_module after init. */
void osp_registry_add (uint32_t abi, struct osp_fn_record *start,
                       struct osp_fn_record *stop);
/* NULL if R is a well-formed record of this ABI, else why not. */
const char *osp_record_check (const struct osp_fn_record *r);
/* The function registered for REC, or NULL.  Lock-free (hook path). */
struct osp_fn *osp_fn_of_record (const struct osp_fn_record *rec);
/* The function with id ID (1-based), or NULL.  Lock-free. */
struct osp_fn *osp_fn_by_id (uint32_t id);
/* Copy the function pointers (id order) and the modules, under the registry
   lock.  Caller frees both arrays.  Returns 0 or -1 (out of memory). */
int osp_registry_snapshot (struct osp_fn ***fns, uint32_t *nfns,
                           struct osp_module **mods, uint32_t *nmods);
/* Number of registered functions (ids 1..n are valid). */
uint32_t osp_registry_count (void);

/* ---- thread.c -------------------------------------------------------- */

/* Bump allocator over mmap'ed chunks: zeroed memory and no malloc, so a
   thread's first hook inside a signal handler that interrupted malloc
   cannot deadlock in the allocator. */
struct osp_arena
{
  struct osp_map *maps;
  char *cur;
  size_t left;
};

typedef _Atomic uint64_t osp_counter;

struct osp_thread
{
  struct osp_thread *next, *prev; /* osp_threads list, under its lock */
  struct osp_arena arena;
  /* blockcount.c: dir[id >> OSP_DIR_SHIFT][id & OSP_DIR_MASK] -> counters
     of function id+1, nblocks words.  Written by the owner only (release),
     read by the reporter under osp_threads_lock (acquire). */
  osp_counter *_Atomic *_Atomic *dir;
};

#define OSP_DIR_SHIFT 10
#define OSP_DIR_CHUNK (1u << OSP_DIR_SHIFT)
#define OSP_DIR_MASK (OSP_DIR_CHUNK - 1)

extern pthread_mutex_t osp_threads_lock;
extern struct osp_thread *osp_threads; /* list head, under osp_threads_lock */
extern OSP_TLS unsigned char osp_in_runtime;

/* Create the thread key and the fork handlers (once, from osp_init). */
int osp_threads_init (uint32_t max_functions);
/* The calling thread's state, created on first use; NULL when none can be
   had (the thread's state was already released at its exit, or no memory).
   Call with osp_in_runtime set. */
struct osp_thread *osp_thread_self (void);
/* Zeroed memory from T's arena (NULL if out of memory). */
void *osp_arena_alloc (struct osp_arena *a, size_t size);

/* ---- blockcount.c ---------------------------------------------------- */

/* Count one entry of block B of FN on thread T (B < FN->nblocks). */
void osp_blocks_hit (struct osp_thread *t, const struct osp_fn *fn,
                     uint32_t b);
/* Add T's counters into the functions' totals.  Under osp_threads_lock. */
void osp_blocks_merge (struct osp_thread *t);
/* Fill COUNTS[i] (FNS[i]->nblocks words each) with totals plus every live
   thread's counters.  Takes osp_threads_lock.  Returns 0 or -1. */
int osp_blocks_snapshot (struct osp_fn **fns, uint32_t nfns,
                         uint64_t **counts);
/* Forget every count (fork child).  Under both locks. */
void osp_blocks_reset (void);

/* ---- report.c -------------------------------------------------------- */

/* Everything a report shows, taken at one moment. */
struct osp_profile
{
  struct osp_fn **fns;
  uint64_t **counts; /* counts[i][b]: block b of fns[i] */
  uint64_t *words;   /* the memory of all counts[i] */
  uint32_t nfns;
  struct osp_module *mods;
  uint32_t nmods;
  uint64_t modules, functions, functions_dropped, records_invalid;
  uint64_t abi_mismatches, unregistered_hits, hits_lost, threads;
  long pid;
};

/* Take a profile of the running process.  Returns 0 or -1. */
int osp_profile_take (struct osp_profile *p);
void osp_profile_free (struct osp_profile *p);
/* Write P to OUT in the format of O (text or tsv).  Returns 0 or -1. */
int osp_report_format (FILE *out, const struct osp_profile *p,
                       const struct osp_options *o);
/* Take a profile and send it where O says; problems get one stderr line. */
void osp_report_emit (const struct osp_options *o);

/* ---- runtime.c ------------------------------------------------------- */

extern struct osp_options osp_opts;
/* Initialise once (pthread_once); safe from any constructor. */
void osp_init (void);
/* Print one "osp: ..." line to stderr with write(2) (no stdio locks). */
void osp_warn (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

#endif /* OSPRT_H */

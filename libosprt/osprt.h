/* osprt.h - internal contracts between the files of libosprt.
 *
 * libosprt is linked into every program built with osp.so.  Generated code
 * uses five symbols (include/osp/abi.h); everything else is hidden (the
 * library is compiled with -fvisibility=hidden) and described here, one
 * section per file:
 *
 *   options.c     OSP_OPTIONS parsing                 -> struct osp_options
 *   registry.c    modules, functions, record checks,  -> struct osp_fn
 *                 global block ids
 *   thread.c      per-thread state, TLS, exit, fork   -> struct osp_thread
 *   blockcount.c  mode=blocks: exact block counters   -> per-thread tables
 *   sampler.c     mode=subpaths: skip/length sampling -> per-thread sampler,
 *                 the walk counters, the hot-list's strata (hotlist.h),
 *                 the open sample's cursor the hooks append through
 *                 (sampler.h, shared with trampoline.S)
 *   hotlist.c     the hot-list itself (hotlist.h)
 *   subexact.c    mode=subpaths-exact: every subpath  -> the exact table
 *   estimate.c    length distribution, estimates and intervals (pure math)
 *   paths.c       Ball-Larus paths of a function: P-DAG, decode, encode,
 *                 branches, the verify_paths check (pure, no locks)
 *   pathsample.c  when a path end is sampled: paths=counter|timer|
 *                 exhaustive|off, the countdown, the timer thread
 *   pathprof.c    the bounded path table with decoded steps, the edge
 *                 profile derived from sampled paths, per-thread batches
 *   forest.c      k-BLPP's k-slab forest (bounded, pruned) and the k-IPF
 *                 (its own header, forest.h; no locks)
 *   pathforest.c  the prefix forest fed online: per-thread streams of path
 *                 ids (bursts or every path end), activations, the k-IPF
 *                 of all threads for a report
 *   report.c      reports: taking a profile, choosing the format, destinations
 *   report-blocks.c   the block-count report (mode=blocks), text and tsv
 *   report-subpaths.c the subpath report (subpath modes), text and tsv, and
 *                 the block-sequence printing the path report shares
 *   report-paths.c    the path and edge sections appended to either report
 *   report-forest.c   the prefix-forest section appended to either report
 *   format/       the view format library (libospformat.la, shared with
 *                 ospview and the tests): CRC-32, string tables,
 *                 snapshot files, validating and building views
 *   viewwrite.c   a profile as a view (include/osp/view.h)
 *   publish.c     the shared-memory segment (include/osp/shm.h): views
 *                 published by a runtime thread started on a viewer's
 *                 request, lifecycle, fork
 *   online.c      osp_report() (include/osp/osp.h) and report_signal
 *   runtime.c     init, shutdown, the ABI entry points
 *   trampoline.S  x86-64: the entry points preserving every register
 *
 * Locks, always taken in this order (fork's prepare handler takes all):
 *   osp_publish_lock   the shared-memory segment and its publishing
 *                      (publish.c): a publish takes a profile under it.
 *   osp_registry_lock  registration; the module table; the function list.
 *   osp_threads_lock   the list of live thread states; the merged totals;
 *                      the path timer thread's tick (pathsample.c).
 *   osp_hot_lock       every call into the hot-list (sampler flushes, the
 *                      reporter), so a fork never inherits its mutex held.
 *   osp_exact_lock     the exact subpath table (subexact.c).
 *   osp_path_lock      the path table, the path edge counters and their
 *                      statistics (pathprof.c).
 *   osp_forest_lock    the list of forest streams (pathforest.c); then
 *   a stream's lock    its k-SF, frames and pending items (one thread's;
 *                      a report holds them all, in list order).
 * Only fork's prepare handler (all), a publish (osp_publish_lock, then
 * what taking a profile takes) and the path report (osp_threads_lock,
 * then osp_path_lock, to count live threads' pending path samples) hold
 * more than one.
 * Hooks take no lock except on a thread's first hook (to link its state)
 * and when a thread's queue of finished samples (or exact batch, or path
 * batch) is flushed: osp_hot_lock or osp_path_lock with trylock while the
 * queue has room, blocking only when it is full (bounded).
 *
 * Every lock is taken with osp_lock/osp_trylock (thread.c), which block
 * the asynchronous signals while the thread holds any runtime lock: a
 * signal handler that leaves by longjmp (siglongjmp out of a SIGALRM
 * handler, the usual timeout) can never abandon a held lock.  At exit the
 * destructor waits for the locks with a deadline (osp_locks_probe) and
 * reports the profile as lost rather than wait for ever.
 *
 * Reentrancy: every runtime path that can run on a program thread sets the
 * per-thread flag osp_in_runtime first; a hook or path end that finds it
 * set (a signal handler running instrumented code while the runtime is
 * busy on the same thread) only re-arms __osp_skip (__osp_path_countdown)
 * and returns, so it can never deadlock on a lock its own thread holds nor
 * see a half-updated table.  A hook frame that a handler left by longjmp
 * left the flag set: the next hook on the thread above that frame's stack
 * pointer sees it is gone and recovers (runtime.c).
 */
#ifndef OSPRT_H
#define OSPRT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "osp/abi.h"
#include "forest.h"
#include "hotlist.h"

#define OSP_EXPORT __attribute__ ((visibility ("default")))
#define OSP_TLS __attribute__ ((tls_model ("initial-exec"))) __thread

/* ---- options.c ------------------------------------------------------- */

enum osp_mode { OSP_MODE_SUBPATHS, OSP_MODE_SUBPATHS_EXACT, OSP_MODE_BLOCKS,
                OSP_MODE_OFF };
enum osp_bias { OSP_BIAS_GEOMETRIC, OSP_BIAS_UNIFORM, OSP_BIAS_LONG };
enum osp_report_kind { OSP_REPORT_NONE, OSP_REPORT_STDERR, OSP_REPORT_STDOUT,
                       OSP_REPORT_FILE };
enum osp_report_format { OSP_FORMAT_TEXT, OSP_FORMAT_TSV };
/* paths=: when a Ball-Larus path end is sampled (pathsample.c). */
enum osp_path_policy { OSP_PATHS_COUNTER, OSP_PATHS_TIMER,
                       OSP_PATHS_EXHAUSTIVE, OSP_PATHS_OFF };

/* forest=: which path ends feed the prefix forest (pathforest.c). */
enum osp_forest_policy { OSP_FOREST_BURST, OSP_FOREST_EXHAUSTIVE,
                         OSP_FOREST_OFF };

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
  /* Subpath modes (doc/CONTRACTS.md). */
  uint32_t interval;              /* mean skip f (before stretching) */
  uint32_t gain;                  /* hot-list's max_gain G (0: none) */
  uint32_t min_length, max_length; /* powers of two, 2..65536 */
  enum osp_bias length_bias;
  uint64_t hotlist_bytes;
  enum hl_policy policy;
  enum hl_encoding encoding;
  uint64_t seed;
  int seed_set;                   /* 0: draw a random seed at start-up */
  uint32_t exact_max;             /* power of two, min_length..65536 */
  uint64_t exact_bytes;
  int report_signal;              /* 0 = none, else a signal number */
  /* Ball-Larus path samples (doc/CONTRACTS.md), every mode but off. */
  enum osp_path_policy paths;
  uint32_t path_interval;         /* counter: mean path ends per sample */
  uint32_t path_gain;             /* counter: samples per distinct path
                                     before the interval doubles (0: never) */
  uint32_t path_samples;          /* timer: SAMPLES, samples per tick */
  uint32_t path_stride;           /* timer: STRIDE */
  uint32_t path_period;           /* timer: milliseconds between ticks */
  uint64_t path_bytes;            /* path table bound, everything included */
  int verify_paths;               /* check every numbering at registration */
  /* The prefix forest (k-BLPP, doc/CONTRACTS.md), every mode but off. */
  enum osp_forest_policy forest;
  int forest_set;                 /* forest= was given */
  uint32_t forest_k;              /* n-grams of up to k paths, 1..64 */
  uint32_t forest_burst;          /* burst: path ends per burst */
  uint32_t forest_interval;       /* burst: mean path ends between bursts */
  uint64_t forest_bytes;          /* one thread's k-SF bound */
  uint32_t forest_threads;        /* threads that get a k-SF */
  uint32_t forest_prune;          /* report: nodes below this % of the root */
  /* Live views in shared memory (publish.c, doc/CONTRACTS.md), every mode
     but off. */
  int publish;                    /* publish=on (1) or off (0) */
  uint32_t publish_ms;            /* milliseconds between views */
  uint64_t publish_bytes;         /* bytes of each of the two view buffers */
  /* Snapshot files (snapshot.c, include/osp/snapshot.h), every mode but
     off: at exit and on snapshot_signal when snapshot_path is set. */
  char snapshot_path[OSP_PATH_MAX]; /* template like report_path; "" none */
  int snapshot_signal;            /* 0 = none, else a signal number */
  uint64_t snapshot_bytes;        /* the largest view a snapshot holds */
  /* The mode of the report and snapshot files (snapfile.c): 0600 unless
     file_mode= says otherwise; never masked by the umask. */
  uint32_t file_mode;
};

/* The name of report_signal's or snapshot_signal's SIG as OSP_OPTIONS
   spells it ("USR2"), or "none". */
const char *osp_signal_name (int sig);
/* The name of policy P as written in OSP_OPTIONS and reports. */
const char *osp_path_policy_name (enum osp_path_policy p);
const char *osp_forest_policy_name (enum osp_forest_policy p);
const char *osp_mode_name (enum osp_mode m);
/* The name of VALUE of key KEY as written in OSP_OPTIONS ("xor" for
   encoding HL_ENC_XOR): the options table's, "?" if it has none. */
const char *osp_option_value_name (const char *key, int value);

void osp_options_defaults (struct osp_options *o);
/* Every key as a markdown table (key, accepted values, default), in the
   order of the messages; t_options checks doc/osp.md's table against it. */
void osp_options_table (FILE *out);
/* BYTES as the options write sizes: "64K", "4G", "1000". */
const char *osp_options_size_text (char *buf, size_t n, uint64_t bytes);
/* Parse SPEC ("key=value:key=value", may be NULL) into O, writing one line
   per problem to ERR (may be NULL).  Returns the number of problems; a key
   with a problem keeps its previous value. */
int osp_options_parse (struct osp_options *o, const char *spec, FILE *err);
/* O from the environment at start-up: OSP_OPTIONS parsed into O, its
   problems written as osp_warn lines; in a privileged process (AT_SECURE:
   setuid, setgid, file capabilities) OSP_OPTIONS is ignored instead and
   nothing leaves the process (report=none, publish=off), with one notice
   line when OSP_OPTIONS holds verbose=1. */
void osp_options_from_env (struct osp_options *o);
/* OSP_OPTIONS as this process obeys it: "" in a privileged process. */
const char *osp_options_env (void);
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
   may be dlclose'd).  Immutable after registration except `totals' and
   `path_edges'. */
struct osp_fn
{
  uint32_t id;     /* index + 1, as written into the record */
  uint32_t module; /* index into the module table */
  uint32_t flags, nblocks, nedges;
  uint32_t first_line; /* first known line, 0 if none */
  const struct osp_fn_record *rec; /* identity only: never read after
                                      registration (which writes its id
                                      and, with counters, its `counts') */
  char *name, *file;
  /* The bytes of `file` as compiled (abi.h): ospview shows its text only
     when the file on disk matches.  comp_dir: the compile's directory. */
  char *comp_dir;
  uint64_t file_size;
  int has_sha256;
  uint8_t file_sha256[32];
  struct osp_block *blocks;
  struct osp_edge *edges;
  uint64_t *totals; /* blockcount.c: merged counts, under osp_threads_lock */
  /* Global id of block 0: the sum of nblocks of functions 1..id-1, so
     that block b of this function is block_base + b in subpaths. */
  uint32_t block_base;
  /* paths.c: the P-DAG of a function with OSP_FN_PATH_PROBES, made by
     osp_paths_prepare; without probes npaths = 0 and the pointers NULL. */
  uint64_t npaths;
  uint64_t *pathw;    /* the record's paths words (osp_path_words) */
  uint64_t *numpaths; /* NumPaths (b): P-DAG paths from b to EXIT, saturated */
  uint32_t *starts;   /* the start blocks by increasing start value */
  uint32_t nstarts;
  /* pathprof.c: one counter per successor slot (nedges words), the edge
     profile derived from sampled paths; made on the function's first
     sample.  Read and written under osp_path_lock only. */
  uint64_t *path_edges;
  /* The npaths counters that the generated code adds to, for a function
     with OSP_FN_PATH_COUNTS (without it both are NULL).  COUNTS is where
     they are read: the module's array (the record's `counts') until
     __osp_release_module copies them into KEPT (allocated at
     registration, so that the copy cannot fail) and points COUNTS there.
     Read COUNTS only between osp_counters_hold and osp_counters_done. */
  uint64_t *counts;
  uint64_t *kept;
};

/* The paths words of block B of F (F has probes): [0] the start value,
   [1] the end value, [2 + s] the value of successor s (abi.h). */
static inline const uint64_t *
osp_path_words (const struct osp_fn *f, uint32_t b)
{
  return f->pathw + 2 * (size_t) b + f->blocks[b].succ;
}

struct osp_module
{
  uintptr_t start, stop; /* the section range it registers with */
  uint32_t nfunctions;
  uint32_t counted; /* functions whose counts are still in the module */
};

/* The most paths of a function with inline counters (the plugin's cap). */
#define OSP_COUNTED_PATHS_MAX ((uint64_t) 1 << 24)

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
  atomic_uint_fast64_t path_ticks; /* paths=timer: ticks delivered */
  atomic_uint_fast64_t counter_bytes; /* inline path counters kept */
  /* Messages and reports not written because fd 2 (or fd 1) is no longer
     the file it was at start-up (osp_output_write). */
  atomic_uint_fast64_t output_skipped;
};
extern struct osp_stats osp_stats;

extern pthread_mutex_t osp_registry_lock;

/* Size the tables for MAX_FUNCTIONS (once, from osp_init).  Returns 0 or -1. */
int osp_registry_init (uint32_t max_functions, int verbose);
/* __osp_register_module after init. */
void osp_registry_add (uint32_t abi, struct osp_fn_record *start,
                       struct osp_fn_record *stop);
/* __osp_release_module: copy the counters of the functions registered
   from [START, STOP) into their osp_fn (once; repeats are ignored). */
void osp_registry_release (struct osp_fn_record *start,
                           struct osp_fn_record *stop);
/* Around every read of an osp_fn's counts: a release (the module's
   destructor, before a dlclose unmaps it) waits for the reader. */
void osp_counters_hold (void);
void osp_counters_done (void);
/* NULL if R is a well-formed record of this ABI, else why not (the cfg,
   and the paths words when R has OSP_FN_PATH_PROBES). */
const char *osp_record_check (const struct osp_fn_record *r);
/* osp_fn_by_id, osp_fn_of_record: below, inline (every hook asks). */
/* Copy the function pointers (id order) and the modules, under the registry
   lock.  Caller frees both arrays.  Returns 0 or -1 (out of memory). */
int osp_registry_snapshot (struct osp_fn ***fns, uint32_t *nfns,
                           struct osp_module **mods, uint32_t *nmods);
/* Number of registered functions (ids 1..n are valid). */
uint32_t osp_registry_count (void);
/* The function holding global block GID and the block's index in it, or
   NULL.  Lock-free (binary search over the published ids). */
struct osp_fn *osp_fn_of_block (uint32_t gid, uint32_t *block);
/* The same over a snapshot FNS[0..N) in id order (report time): the
   index into FNS, or UINT32_MAX if GID is in no function. */
uint32_t osp_fn_index_of_block (struct osp_fn *const *fns, uint32_t n,
                                uint32_t gid, uint32_t *block);

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

/* The walk counters of the subpath modes (sampler.c) and the path ends
   seen (pathsample.c), per thread and merged.  Owner writes with relaxed
   load+store, readers load. */
enum osp_walk_counter
{
  OSP_W_BLOCKS_SEEN,     /* every block that passed on the thread */
  OSP_W_BLOCKS_SAMPLED,  /* blocks appended to a sample (exact: all) */
  OSP_W_STARTS,          /* samples begun (a start drawn with a skip
                            stretched by W counts W, sampler.c) */
  OSP_W_DECLINED,        /* of those, turned away by the hot-list's coin
                            at their first block (sampler.c) */
  OSP_W_DRAWN,           /* starts as drawn (each counts 1) */
  OSP_W_SAMPLES,         /* samples finished (exact: subpaths counted) */
  OSP_W_PATH_ENDS,       /* path ends passed (paths=counter, exhaustive) */
  OSP_W_N
};

struct osp_thread
{
  struct osp_thread *next, *prev; /* osp_threads list, under its lock */
  struct osp_arena arena;
  /* blockcount.c: dir[id >> OSP_DIR_SHIFT][id & OSP_DIR_MASK] -> counters
     of function id+1, nblocks words.  Written by the owner only (release),
     read by the reporter under osp_threads_lock (acquire). */
  osp_counter *_Atomic *_Atomic *dir;
  uint32_t index;                  /* creation order (per-thread seeds) */
  struct osp_sampler *sampler;     /* sampler.c, made on first use */
  struct osp_exact_thread *exact;  /* subexact.c, made on first use */
  osp_counter walk[OSP_W_N];       /* sampler.c / subexact.c / pathsample.c */
  struct osp_path_thread *pathsample; /* pathsample.c, made on first use */
  /* pathprof.c, made on first use (release store: the reporter reads
     other threads' batches). */
  struct osp_path_batch *_Atomic pathbatch;
  /* paths=timer: this thread's __osp_path_countdown (its TLS, recorded
     when the state is made), the pending-tick flag, and the next stride
     (the timer thread's, under osp_threads_lock). */
  uint32_t *path_countdown;
  atomic_uint path_tick;
  uint32_t path_stride_next;
  /* pathforest.c: this thread's stream, made on its first item (NULL
     also when refused: forest_refused says so). */
  struct osp_kstream *kstream;
  int forest_refused;
};

#define OSP_DIR_SHIFT 10
#define OSP_DIR_CHUNK (1u << OSP_DIR_SHIFT)
#define OSP_DIR_MASK (OSP_DIR_CHUNK - 1)

/* registry.c's function directory: ids 1..osp_nfns, chunks of
   OSP_DIR_CHUNK published with release stores, never freed or moved. */
extern _Atomic (struct osp_fn *_Atomic *) *osp_fn_dir;
extern atomic_uint osp_nfns;

/* The function with id ID (1-based), or NULL.  Lock-free. */
static inline struct osp_fn *
osp_fn_by_id (uint32_t id)
{
  if (id == 0 || id > atomic_load_explicit (&osp_nfns, memory_order_acquire))
    return NULL;
  uint32_t i = id - 1;
  struct osp_fn *_Atomic *chunk
      = atomic_load_explicit (&osp_fn_dir[i >> OSP_DIR_SHIFT],
                              memory_order_acquire);
  return atomic_load_explicit (&chunk[i & OSP_DIR_MASK],
                               memory_order_acquire);
}

/* The function registered for REC, or NULL.  Lock-free (hook path). */
static inline struct osp_fn *
osp_fn_of_record (const struct osp_fn_record *rec)
{
  uint32_t id = __atomic_load_n (&rec->id, __ATOMIC_ACQUIRE);
  struct osp_fn *f = osp_fn_by_id (id);
  /* A foreign id (a stale or forged record) must not count for another
     function. */
  return (f != NULL && f->rec == rec) ? f : NULL;
}

/* Add BY to T's walk counter C (T's own thread only): a relaxed load and
   store, not a read-modify-write, since only the owner writes it. */
static inline void
osp_walk_bump (struct osp_thread *t, enum osp_walk_counter c, uint64_t by)
{
  uint64_t v = atomic_load_explicit (&t->walk[c], memory_order_relaxed);
  atomic_store_explicit (&t->walk[c], v + by, memory_order_relaxed);
}

extern pthread_mutex_t osp_threads_lock;
extern struct osp_thread *osp_threads; /* list head, under osp_threads_lock */
/* Nonzero while the runtime is active on this thread (Reentrancy, above):
   a hook, a path end and the cursor's append (sampler.h, trampoline.S)
   store their stack pointer, which tells a frame that a signal handler
   left by longjmp from a live one (runtime.c, osp_runtime_abandoned);
   every other runtime path stores OSP_RUNTIME_PINNED, never taken for
   abandoned. */
extern OSP_TLS uintptr_t osp_in_runtime;
#define OSP_RUNTIME_PINNED 1
/* The stack mark of a call from generated code, which the runtime's entry
   (runtime.c, enter) stores in osp_in_runtime and compares with it: the
   stack pointer at the entry point's entry, so that a hook from where an
   abandoned one was finds the mark equal, not above, whichever path each
   took.  An x86-64 trampoline passes it to the C function it calls as the
   fifth argument, and its cursor append stores the same %rsp; the
   exported C entry points (plain calls) use their own stack pointer. */

/* Enter the runtime from a call of the program into it other than a hook
   (osp_report), whose stack mark is HERE: 1 with osp_in_runtime = HERE
   when the runtime was not active on this thread, or the frame that set
   the flag was abandoned (a signal handler left it by longjmp: the
   thread is recovered first, runtime.c), so that such a jump never
   leaves the thread's hooks off for good; 0 when a live runtime frame
   of this thread is under way.  After 1, osp_in_runtime = 0 at the end. */
int osp_runtime_enter (uintptr_t here);

/* The stack pointer, or near enough: an address in the caller's frame. */
static inline __attribute__ ((always_inline)) uintptr_t
osp_stack_mark (void)
{
#if defined __x86_64__
  uintptr_t sp;
  __asm__ volatile ("movq %%rsp, %0" : "=r" (sp));
  return sp;
#else
  return (uintptr_t) __builtin_frame_address (0);
#endif
}

/* Runtime locks and signals: every runtime lock is taken through these,
   which block the asynchronous signals for as long as the thread holds
   any (nested: only the outermost pays two pthread_sigmask), so no
   signal handler can run, and so none can leave by longjmp, while a
   runtime lock is held.  osp_trylock returns 0 when it took the lock.
   osp_signals_hold/release alone keep a short update of thread-local
   state (the arena, a thread's first state) whole the same way. */
void osp_signals_hold (void);
void osp_signals_release (void);
void osp_lock (pthread_mutex_t *m);
int osp_trylock (pthread_mutex_t *m);
void osp_unlock (pthread_mutex_t *m);
/* At exit: wait at most MS milliseconds for each global runtime lock to
   be free (all of them, in order, one deadline).  0 if every one was;
   else -1 and *WHICH names the first that was not. */
int osp_locks_probe (uint32_t ms, const char **which);
/* On the calling thread, whose runtime frame a signal handler left by
   longjmp (runtime.c): put its per-thread state back in a state the next
   hook can use - the open sample, the queued samples and the exact batch
   are dropped (their blocks are lost). */
void osp_thread_recover (void);

/* Create the thread key and the fork handlers (once, from osp_init). */
int osp_threads_init (uint32_t max_functions);
/* The calling thread's state, created on first use; NULL when none can be
   had (the thread's state was already released at its exit, or no memory).
   Call with osp_in_runtime set.  Inline: every hook of a sample asks. */
extern OSP_TLS struct osp_thread *osp_thread_cur; /* thread.c's, or NULL */
struct osp_thread *osp_thread_make (void);
static inline struct osp_thread *
osp_thread_self (void)
{
  struct osp_thread *t = osp_thread_cur;
  return t != NULL ? t : osp_thread_make ();
}
/* The calling thread's state if it has one (never creates). */
struct osp_thread *osp_thread_peek (void);
/* Zeroed memory from T's arena (NULL if out of memory). */
void *osp_arena_alloc (struct osp_arena *a, size_t size);
/* The bounded tables (pathprof.c, subexact.c): one anonymous mapping of
   *BYTES, MAP_NORESERVE so that pages cost only once touched, that starts
   with an index of *NSLOTS uint32 slots - the largest power of two whose
   double still fits in *BYTES / 8, so that it stays at most half full -
   followed by the table's pool.  Under an address space limit it may be
   smaller (halved down to OSP_MIN_TABLE_BYTES: *BYTES says, and one line
   names WHAT).  NULL if even that cannot be had. */
#define OSP_MIN_TABLE_BYTES ((size_t) 64 * 1024)
uint32_t *osp_map_table (const char *what, size_t *bytes, uint64_t *nslots);
/* The address space budget of the runtime's optional reservations under
   `ulimit -v' (thread.c): 0 if BYTES more fit in it (they are then
   counted), -1 if not; osp_unreserve gives them back. */
int osp_reserve (size_t bytes);
void osp_unreserve (size_t bytes);
/* Start a detached runtime thread running FN (ARG) with every signal
   blocked, so it never runs the program's handlers nor takes a signal
   meant for the program.  Returns 0 or -1. */
int osp_start_thread (void *(*fn) (void *), void *arg);
/* TS + MS milliseconds (the runtime threads' absolute wake-up times). */
void osp_timespec_add_ms (struct timespec *ts, uint32_t ms);
/* On T's own thread, with osp_in_runtime set: account for what T's
   samplers consumed so far and hand its queued samples and batches over
   (the reporter's own thread before a report, and thread exit). */
void osp_thread_settle (struct osp_thread *t);

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

/* ---- sampler.c ------------------------------------------------------- */

extern pthread_mutex_t osp_hot_lock; /* the hot-list's tables (strata) */
extern _Atomic uint64_t osp_seed; /* the seed in use (printed in reports) */

/* Choose the seed, build the length table, create the hot-list (mode=
   subpaths).  Once, from osp_init.  Returns 0 or -1. */
int osp_sampler_init (const struct osp_options *o);
/* The hook in mode=subpaths: BLOCK of FN passed on thread T (BLOCK <
   FN->nblocks).  Sets __osp_skip (1 while collecting, else the next skip)
   and, while collecting, the cursor through which the hooks append the
   sample's next blocks of FN themselves (sampler.h). */
void osp_sampler_hit (struct osp_thread *t, const struct osp_fn *fn,
                      uint32_t block);
/* On T's own thread: count the blocks of the current skip consumed so
   far, and hand the queued samples to the hot-list. */
void osp_sampler_sync (struct osp_thread *t);
/* On T's own thread, after a runtime frame was abandoned (runtime.c):
   drop the open sample and the queued samples, close the cursor. */
void osp_sampler_recover (struct osp_thread *t);
/* T's walk counters into the merged totals.  Under osp_threads_lock. */
void osp_walk_merge (struct osp_thread *t);
/* Merged totals plus every live thread's counters.  Takes the lock. */
void osp_walk_totals (uint64_t out[OSP_W_N]);
/* Fork child, under every lock: empty hot-list, zero totals, new seed. */
void osp_sampler_reset (void);
/* Pure draws, for tests: RNG is a xoshiro256** state (4 words). */
uint32_t osp_draw_skip (uint64_t rng[4]);
uint32_t osp_draw_length (uint64_t rng[4]);
void osp_rng_seed (uint64_t rng[4], uint64_t seed, uint64_t stream);
uint64_t osp_rng_next (uint64_t rng[4]);
/* K >= 1 with P(K = k) = p (1-p)^(k-1), LOG_KEEP = ln (1 - p) (0: K = 1),
   saturated at UINT32_MAX.  osp_draw_skip is this with p = 1/interval. */
uint32_t osp_draw_geometric (uint64_t rng[4], double log_keep);
/* Binomial (N, 1/2): how many of N samples a coin flip each keeps. */
uint64_t osp_draw_half (uint64_t rng[4], uint64_t n);
/* Calling thread's sample in progress: want = 0 when skipping.  Tests. */
void osp_sampler_state (uint32_t *want, uint32_t *have);

/* ---- subexact.c ------------------------------------------------------ */

extern pthread_mutex_t osp_exact_lock;

/* Reserve the table (mode=subpaths-exact).  Returns 0 or -1. */
int osp_exact_init (const struct osp_options *o);
/* The hook in mode=subpaths-exact (every block). */
void osp_exact_hit (struct osp_thread *t, uint32_t gid);
/* On T's own thread: count T's pending blocks into the table. */
void osp_exact_sync (struct osp_thread *t);
/* The same for the exact batch: drop its blocks and its history. */
void osp_exact_recover (struct osp_thread *t);
/* Fork child, under every lock: forget every count. */
void osp_exact_reset (void);

/* ---- estimate.c ------------------------------------------------------ */

/* Natural log, ln (1 - p), square root: without libm (estimate.c). */
double osp_ln (double x);
double osp_ln1m (double p);
double osp_sqrt (double x);

/* P(L): the probability that a sample has length LEN under O's bias
   (0 if LEN is not a sampled length). */
double osp_length_prob (const struct osp_options *o, uint32_t len);

/* One reported subpath (sampled or exact). */
struct osp_subpath
{
  uint32_t len;
  const uint32_t *blocks; /* global block ids */
  uint64_t count;         /* hot-list count (exact: the count) */
  uint64_t error;         /* space-saving over-estimation bound */
  double threshold;       /* of its hot-list table (1 when exact) */
  double estimate, err95, share;
};

/* Subpath lengths are 2^1 .. 2^16: at most 16 exponents (one slot spare). */
#define OSP_NEXP_MAX 17

/* One table of the stratified hot-list (sampler.c), as reported. */
struct osp_stratum
{
  uint32_t min_len, max_len;
  double threshold;
  uint64_t entries;
};

enum osp_est_kind { OSP_EST_CONCISE, OSP_EST_SPACE_SAVING, OSP_EST_EXACT };
/* Fill S's estimate, err95 and share from its count/error and the run's
   statistics (see estimate.c for the formulas). */
void osp_estimate (struct osp_subpath *s, const struct osp_options *o,
                   double threshold, uint64_t blocks_seen, uint64_t starts,
                   enum osp_est_kind kind);
/* qsort order: low end of the 95% interval max (0, estimate - err95)
   descending, then estimate descending, then length, then block ids. */
int osp_subpath_cmp (const void *a, const void *b);

/* Ball-Larus path estimates (paths=counter: N = samples x path_interval,
   err95 = 1.96 sqrt (samples) x path_interval; exhaustive: N = count,
   err95 = 0; timer: N = samples, err95 = 1.96 sqrt (samples), not a
   count; a row read from counters: N = count, err95 = 0): SCALE is
   path_interval, or 1.  The share (N / the sum of every row's N) is the
   caller's. */
struct osp_path_row;
void osp_path_estimate (struct osp_path_row *r, enum osp_path_policy policy,
                        double scale);
/* qsort order of path rows: low end of the 95% interval descending, then
   estimate descending, then function id, then path id. */
int osp_path_row_cmp (const void *a, const void *b);

/* ---- paths.c --------------------------------------------------------- */

/* One step of a Ball-Larus path: its block and the out-edge it leaves by,
   a successor index of the block, or OSP_STEP_END for the block's end
   slot (a block without normal successors: the path ends in it). */
#define OSP_STEP_END UINT32_MAX
struct osp_path_step
{
  uint32_t block, succ;
};

/* Build F's P-DAG from record R (registration, R already passed
   osp_record_check): copy the values, compute NumPaths in reverse
   topological order, sort the starts.  NULL, or why the record cannot be
   used (the P-DAG has a cycle; out of memory).  No-op without probes. */
const char *osp_paths_prepare (struct osp_fn *f,
                               const struct osp_fn_record *r);
void osp_paths_free (struct osp_fn *f);
/* Greedy reconstruction (PEP 3.3, BL96) of path ID of F into OUT (room for
   F->nblocks steps).  Returns the number of steps, 0 if ID is no path. */
uint32_t osp_path_decode (const struct osp_fn *f, uint64_t id,
                          struct osp_path_step *out);
/* Whether path ID of F is the first of an activation (*ENTRY: it starts
   at block 0, which only the function entry reaches) and whether it is
   the last (*LEAVES: it ends by returning or in an end slot - a noreturn
   call; a path ending at a loop header or a cut does not).  0, or -1 if
   ID is no path (decoding without keeping the steps). */
int osp_path_shape (const struct osp_fn *f, uint64_t id, int *entry,
                    int *leaves);
/* The id of the path STEPS[0..N) (the sum of its values), or
   OSP_PATH_NONE if the steps are not a ROOT -> EXIT path of F's P-DAG. */
uint64_t osp_path_encode (const struct osp_fn *f,
                          const struct osp_path_step *steps, uint32_t n);
/* CFG edges of the path that leave a block with two or more normal
   successors: the branch decisions of PEP 6.3's branch flow. */
uint32_t osp_path_branches (const struct osp_fn *f,
                            const struct osp_path_step *steps, uint32_t n);
/* Normal (not abnormal, not EH) successors of block B. */
uint32_t osp_block_normal_succs (const struct osp_fn *f, uint32_t b);
/* verify_paths=1: check F's numbering (enumerate every path when npaths
   <= OSP_VERIFY_ENUM_MAX, else round-trip OSP_VERIFY_SAMPLES ids), one
   stderr line if it is broken.  Returns 0, or -1 if broken.  Under
   osp_registry_lock (the totals are the registry's). */
#define OSP_VERIFY_ENUM_MAX 100000u
#define OSP_VERIFY_SAMPLES 10000u
int osp_paths_verify (const struct osp_fn *f);
/* The totals so far; and their one summary line on stderr. */
struct osp_verify_totals
{
  uint64_t functions, enumerated, round_trips, errors;
};
void osp_paths_verify_totals (struct osp_verify_totals *out);
void osp_paths_verify_summary (void);

/* ---- pathsample.c ---------------------------------------------------- */

/* Draw parameters; paths=timer starts the timer thread (mode != off).
   Returns 0 or -1 (a timer thread that cannot start is one stderr line,
   not a failure). */
int osp_pathsample_init (const struct osp_options *o);
/* __osp_path_end on T's thread, path ID of record REC: count the path
   ends consumed, take the sample if the policy says so, re-arm. */
void osp_pathsample_end (struct osp_thread *t, struct osp_fn_record *rec,
                         uint64_t id);
/* On T's own thread: count the path ends of the current countdown consumed
   so far; hand T's batch to the table. */
void osp_pathsample_sync (struct osp_thread *t);
/* Fork child, after every lock is released: restart the timer thread. */
void osp_pathsample_fork_child (void);
/* The countdown of a thread that samples no path ends (paths=off, the
   runtime off, disabled or done, no thread state). */
#define OSP_PATH_HUGE UINT32_MAX

/* ---- pathprof.c ------------------------------------------------------ */

extern pthread_mutex_t osp_path_lock;

/* Reserve the table (path_bytes) unless paths=off or mode=off.  0 or -1. */
int osp_pathprof_init (const struct osp_options *o);
/* Whether FN counts its paths inline and has no sample checks
   (instrument=counts alone; functions without loops, which the plugin
   counts instead of checking): none of its path ends reaches the runtime
   or the forest. */
static inline int
osp_fn_counts_only (const struct osp_fn *fn)
{
  return (fn->flags & OSP_FN_PATH_COUNTS) && !(fn->flags & OSP_FN_PATH_CHECKS);
}
/* Whether FN's paths come from its inline counters: exhaustively, where
   every path end counts, for every function with counters (instrument=
   counts); under paths=counter for those that have no sample checks
   (instrument=counts alone, and functions without loops, which the plugin
   counts instead of checking): their rows are exact among estimates.
   The timer's samples are not counts, so it reports neither.  Sampled
   path ends of a counted function go to no table. */
static inline int
osp_paths_counted (const struct osp_fn *fn, enum osp_path_policy policy)
{
  return (fn->flags & OSP_FN_PATH_COUNTS)
         && (policy == OSP_PATHS_EXHAUSTIVE
             || (policy == OSP_PATHS_COUNTER && osp_fn_counts_only (fn)));
}
/* A sample of path ID of FN on T's thread: into T's batch, flushed to the
   table when full (a trylock once a quarter full). */
void osp_pathprof_record (struct osp_thread *t, struct osp_fn *fn,
                          uint64_t id, uint32_t gen);
/* paths=counter: the generation of the sampling rate (pathprof.c's gain
   limit; read without the lock), and the mean interval at generation G. */
uint32_t osp_pathprof_gen (void);
double osp_pathprof_interval (uint32_t g);
/* On T's own thread: hand T's batch to the table now.  (A report also
   takes every other live thread's pending samples, pathprof.c.) */
void osp_pathprof_sync (struct osp_thread *t);
/* Fork child, under every lock: forget every sample. */
void osp_pathprof_reset (void);

/* ---- pathforest.c ---------------------------------------------------- */

/* Labels of the k-SF: (function id << OSP_FOREST_ID_BITS) | path id. */
#define OSP_FOREST_ID_BITS 40
/* Activations a thread's stream keeps suspended at most. */
#define OSP_FOREST_FRAMES 64

extern pthread_mutex_t osp_forest_lock;
struct osp_profile;
struct osp_forest_profile;

/* Remember the policy (mode != off, forest != off).  0. */
int osp_forest_init (const struct osp_options *o);
/* Whether path ends feed the forest (the countdown policy needs it). */
enum osp_forest_policy osp_forest_policy (void);
/* Path ID of FN ended on T's thread (osp_in_runtime set); BURST_START: the
   first path end of a new burst (the thread's earlier activations are
   forgotten).  Lock-free unless T's queue is full. */
void osp_forest_item (struct osp_thread *t, const struct osp_fn *fn,
                      uint64_t id, int burst_start);
/* On T's own thread: hand T's queued items to its k-SF. */
void osp_forest_sync (struct osp_thread *t);
/* fork child: drop every stream (the parent's threads are gone). */
void osp_forest_reset (void);
/* Fill P->forest: the k-IPF of every stream (pending items included),
   pruned as O says.  Returns 0 or -1. */
int osp_forest_collect (struct osp_profile *p, const struct osp_options *o);
void osp_forest_profile_free (struct osp_forest_profile *f);

/* ---- report.c -------------------------------------------------------- */

/* One reported Ball-Larus path. */
struct osp_path_row
{
  uint32_t fi;       /* index into osp_profile.fns */
  uint32_t nsteps;
  uint64_t id, samples;
  const struct osp_path_step *steps;
  uint32_t branches;
  int exact;         /* read from the function's counters */
  double estimate, err95, share;
};

/* The path part of a profile (pathprof.c collects it). */
struct osp_path_profile
{
  int shown;               /* paths != off and some function has probes */
  uint32_t functions;      /* registered functions with path probes */
  struct osp_path_row *rows; /* sorted by osp_path_row_cmp */
  uint32_t nrows;
  struct osp_path_step *step_words; /* the memory of all rows' steps */
  uint64_t **edges;        /* edges[i]: fns[i]'s nedges counts, or NULL */
  uint64_t *edge_words;
  double scale;            /* estimate of one sample (the interval or 1) */
  uint32_t raises;         /* counter: times the interval doubled */
  enum osp_path_policy policy;
  uint64_t ends_seen, samples, distinct, dropped, invalid;
  uint64_t counted;        /* path ends counted exactly in sampled rows */
  uint32_t counted_plain;  /* functions read from counters added to
                              without atomics (counts-update=single) */
  uint64_t threads;        /* threads that ran instrumented code */
  uint64_t bytes_used, bytes_peak, bytes_bound, cache_hits, cache_misses;
  uint64_t ticks;
  uint64_t counter_bytes;  /* inline path counters (instrument=counts) */
};

/* What one unit of edges[I] stands for: 1 when fns[I]'s edges come from
   its counters, else the samples' scale. */
static inline double
osp_path_edge_scale (const struct osp_path_profile *pp,
                     const struct osp_fn *fn)
{
  return osp_paths_counted (fn, pp->policy) ? 1 : pp->scale;
}

/* One node of the reported k-IPF (pathforest.c collects it): the n-gram
   of the BL paths on its root path, the last of which is (fi, id). */
struct osp_forest_row
{
  uint32_t parent;   /* row index of the parent; UINT32_MAX for a root */
  uint32_t depth;    /* 0 for a root: the n-gram has depth + 1 paths */
  uint32_t fi;       /* index into osp_profile.fns */
  uint32_t nsteps;
  uint64_t id, count; /* count: occurrences counted (exhaustive: all) */
  const struct osp_path_step *steps;
  double estimate, err95;
  double share;      /* % of the parent's count; roots: of all items */
};

/* The forest part of a profile. */
struct osp_forest_profile
{
  int shown;                   /* forest != off and some path probes */
  enum osp_forest_policy policy;
  uint32_t k, burst, warmup, interval, prune, frames;
  double scale;                /* estimate of one count (1: exhaustive) */
  struct osp_forest_row *rows; /* the shown trees, each in preorder,
                                  siblings by count; trees by count */
  uint32_t nrows;
  struct osp_path_step *step_words;
  uint64_t trees;              /* trees in the k-IPF (distinct paths) */
  uint64_t ipf_nodes, ipf_truncated, rows_cut;
  struct osp_forest_stats sum; /* forest.c's statistics, all streams */
  uint64_t bursts, streams, refused, resyncs, partial, unlabelled, invalid;
  uint64_t shape_hits, shape_misses, bytes_bound;
  uint64_t unseen;             /* path ends counted inline by functions
                                  without checks: never forest items */
};

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
  uint64_t output_skipped;
  long pid;
  /* Subpath modes (empty in mode=blocks). */
  enum osp_mode mode;
  uint64_t walk[OSP_W_N];
  struct osp_subpath *subs; /* sorted by osp_subpath_cmp */
  uint32_t nsubs;
  uint32_t *sub_words;      /* the memory of all subs[i].blocks */
  struct hl_stats hl;       /* mode=subpaths: sums over the strata */
  struct osp_stratum strata[OSP_NEXP_MAX];
  uint32_t nstrata;
  uint32_t stretch;         /* mode=subpaths: skips drawn now at mean
                               interval x stretch (sampler.c's W) */
  uint64_t exact_entries, exact_dropped, exact_bytes_used;
  uint64_t seed;
  struct osp_path_profile paths; /* every mode */
  struct osp_forest_profile forest; /* every mode */
  int live; /* for a live view: the forest builds only report_top trees */
};

/* Take a profile of the running process.  Returns 0 or -1. */
int osp_profile_take (struct osp_profile *p);
/* The same for a live view (the publisher): the prefix forest's k-IPF is
   built for the report_top trees shown only (osp_ipf_build_top), so the
   rows are those of osp_profile_take but forest_trees counts only the
   trees whose root counted and forest_ipf_nodes the nodes built. */
int osp_profile_take_live (struct osp_profile *p);
void osp_profile_free (struct osp_profile *p);
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
/* Remember what fds 1 and 2 are (device, inode) at start-up, first thing
   in osp_init. */
void osp_output_init (void);
/* Write LEN bytes of BUF to FD (1 or 2) only if FD is still the file it
   was at start-up; else count it in osp_stats.output_skipped.  0, or an
   errno value (EBADF when skipped). */
int osp_output_write (int fd, const void *buf, size_t len);
/* Append the subpaths of the current mode to P (sampler.c: the hot-list,
   subexact.c: the table), with estimates, sorted.  Returns 0 or -1. */
int osp_sampler_collect (struct osp_profile *p, const struct osp_options *o);
int osp_exact_collect (struct osp_profile *p, const struct osp_options *o);
/* Fill P->paths from the path table (any mode).  Returns 0 or -1. */
int osp_pathprof_collect (struct osp_profile *p, const struct osp_options *o);
/* Shared by the formats: whether block B of F has a count (F has block
   hooks and B is not OSP_BB_NO_HOOK), and 100 * X / TOTAL (0 when TOTAL
   is 0). */
int osp_block_counted (const struct osp_fn *f, uint32_t b);
double osp_share (uint64_t x, uint64_t total);
/* Where the statistics of a profile go: the tsv report's `stat' rows
   (FILE set), or one call of FN per statistic (the view's STATS,
   viewwrite.c), so that both carry the same names, values and order. */
enum osp_stat_kind { OSP_STAT_U, OSP_STAT_F, OSP_STAT_S };
struct osp_stat_out
{
  FILE *file;
  void (*fn) (void *arg, const char *name, enum osp_stat_kind kind,
              uint64_t u, double f, const char *s);
  void *arg;
};
/* One statistic: an integer, a string, a number (tsv: %.6g). */
void osp_stat_u (const struct osp_stat_out *out, const char *name,
                 uint64_t v);
void osp_stat_s (const struct osp_stat_out *out, const char *name,
                 const char *v);
void osp_stat_f (const struct osp_stat_out *out, const char *name,
                 double v);
/* Every statistic of P in report order: the mode's
   (osp_format_blocks_stats or osp_format_subpaths_stats), the paths'
   (when shown), the forest's (when shown).  The tsv formatters end with
   it. */
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

/* ---- report-blocks.c, report-subpaths.c ------------------------------ */

/* The formats of osp_report_format, plain functions of a profile.
   Return 0 or -1 (out of memory). */
int osp_format_blocks_tsv (FILE *out, const struct osp_profile *p,
                           const struct osp_options *o);
int osp_format_blocks_text (FILE *out, const struct osp_profile *p,
                            const struct osp_options *o);
/* The mode's own statistics (the first part of osp_report_stats). */
void osp_format_blocks_stats (const struct osp_stat_out *out,
                              const struct osp_profile *p);
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
   -> ..." (text).  The latter returns 0 or -1 (out of memory). */
void osp_print_block_ids (FILE *out, const struct osp_profile *p,
                          const uint32_t *gids, uint32_t len);
int osp_print_blocks (FILE *out, const struct osp_profile *p,
                      const uint32_t *gids, uint32_t len);

/* ---- report-paths.c -------------------------------------------------- */

/* The path sections, appended to every report when P->paths.shown: the
   `path' and `edge' rows, the path `stat' rows (tsv), the text section. */
int osp_format_paths_tsv (FILE *out, const struct osp_profile *p);
void osp_format_paths_stats (const struct osp_stat_out *out,
                             const struct osp_profile *p,
                             const struct osp_options *o);
int osp_format_paths_text (FILE *out, const struct osp_profile *p,
                           const struct osp_options *o);

/* ---- report-forest.c ------------------------------------------------- */

/* The forest section, appended to every report when P->forest.shown:
   the `forest' rows and forest `stat' rows (tsv), the text section. */
int osp_format_forest_tsv (FILE *out, const struct osp_profile *p);
void osp_format_forest_stats (const struct osp_stat_out *out,
                              const struct osp_profile *p);
int osp_format_forest_text (FILE *out, const struct osp_profile *p,
                            const struct osp_options *o);

/* ---- crc32.c --------------------------------------------------------- */

/* osp_crc32 (crc32.h): CRC-32 as zlib's; shared with ospview. */

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

/* Serialise P as a view (include/osp/view.h) into the CAP bytes at BUF
   (8-aligned), with view number SEQ.  When the rows do not all fit, the
   subpath, path and forest sections keep their first rows only (the
   forest whole trees where it can) and *TRUNCATED is set.  Returns the
   view's size, or 0 if even a view without rows does not fit or memory
   ran out.  Pure: no lock, no global state (its scratch is malloc'ed). */
size_t osp_view_write (void *buf, size_t cap, const struct osp_profile *p,
                       const struct osp_view_run *run, uint64_t seq,
                       int *truncated);

/* ---- publish.c ------------------------------------------------------- */

/* publish=on, mode != off: sweep the stale segments of this user and
   create this process's segment (once, from osp_init, after every other
   module); no thread: that waits for a viewer (osp_publish_poll).  A
   failure is one stderr line and publishing off; the program runs and
   profiles as before.  Returns 0. */
int osp_publish_init (const struct osp_options *o);
/* A viewer's request (shm.h, `attach'), a fork child's segment and the
   sweep of children's leftovers are noticed by the runtime's entries
   (runtime.c's block hook and path end bodies, after the fast path's
   countdown ran out; the paths=timer thread): one relaxed load of
   osp_publish_watch, NULL for as long as nothing is pending, and while
   the segment waits for a viewer one more of its `attach' word.  The
   slow part (publish.c) starts the publisher thread, once.  Call with no
   runtime lock held. */
extern _Atomic (const _Atomic uint32_t *) osp_publish_watch;
void osp_publish_poll_slow (void);
static inline void
osp_publish_poll (void)
{
  const _Atomic uint32_t *w
      = atomic_load_explicit (&osp_publish_watch, memory_order_relaxed);
  if (__builtin_expect (w != NULL, 0)
      && __builtin_expect (atomic_load_explicit (w, memory_order_relaxed)
                               != 0,
                           0))
    osp_publish_poll_slow ();
}
/* Whether a segment is being published (the exit path takes a profile
   for it even with report=none). */
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

/* ---- online.c -------------------------------------------------------- */

/* Install the report_signal and snapshot_signal handlers and start their
   thread (if either is set). */
int osp_online_init (const struct osp_options *o);
/* Emit a report now from this (program) thread; PATH NULL = O's
   destination.  Returns 0 or -1. */
int osp_report_now (const char *path);

/* ---- runtime.c ------------------------------------------------------- */

extern struct osp_options osp_opts;
/* Initialise once (pthread_once); safe from any constructor. */
void osp_init (void);
/* __osp_block_hook when the open sample's cursor (sampler.h) cannot take
   the block: what the x86-64 trampolines call after trying the cursor
   themselves (MARK: below). */
void osp_block_hook_runtime (struct osp_fn_record *rec, uint32_t block,
                             uint64_t unused3, uint64_t unused4,
                             uintptr_t mark);
/* What the other x86-64 trampolines call: __osp_path_end, __osp_path_ends
   and __osp_block_hooks with the trampoline's stack mark (MARK, always
   the fifth argument, %r8). */
void osp_path_end_tramp (struct osp_fn_record *rec, uint64_t path,
                         uint64_t unused3, uint64_t unused4, uintptr_t mark);
void osp_path_ends_tramp (struct osp_fn_record *rec, uint64_t path,
                          uint64_t n, uint64_t c_tail, uintptr_t mark);
void osp_block_hooks_tramp (struct osp_fn_record *rec, const uint32_t *chain,
                            uint64_t n, uint64_t c_tail, uintptr_t mark);
/* Whether the runtime is counting (not disabled, not done). */
int osp_running (void);
/* Print one "osp: ..." line to stderr with write(2) (no stdio locks),
   through osp_output_write. */
void osp_warn (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

#endif /* OSPRT_H */

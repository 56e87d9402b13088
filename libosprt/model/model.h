/* SPDX-License-Identifier: MIT */
/* model.h - libosprt's model layer: what a run profiles.
 *
 * The options (model/options.c: OSP_OPTIONS, struct osp_options), the
 * registry of modules and functions with their blocks, edges and record
 * checks (registry.c), and the Ball-Larus numbering of a function's paths:
 * the P-DAG, decoding, encoding, verify_paths (paths.c, pure).  Uses
 * base/ only; doc/HACKING.md has the map.
 */
#ifndef OSP_MODEL_H
#define OSP_MODEL_H

#include "base/base.h"
#include "model/hlenums.h"
#include "osp/abi.h"

/* ---- options.c --------------------------------------------------------- */

enum osp_mode { OSP_MODE_SUBPATHS, OSP_MODE_SUBPATHS_EXACT, OSP_MODE_BLOCKS,
                OSP_MODE_OFF };
enum osp_bias { OSP_BIAS_GEOMETRIC, OSP_BIAS_UNIFORM, OSP_BIAS_LONG };
/* OSP_REPORT_LINE, the default: no report, one stderr line at exit naming
   the snapshot written (snapshot.c); an on-demand report (report_signal,
   osp_report (NULL)) goes to stderr. */
enum osp_report_kind { OSP_REPORT_NONE, OSP_REPORT_STDERR, OSP_REPORT_STDOUT,
                       OSP_REPORT_FILE, OSP_REPORT_LINE };
enum osp_report_format { OSP_FORMAT_TEXT, OSP_FORMAT_TSV };
/* paths=: when a Ball-Larus path end is sampled (pathsample.c). */
enum osp_path_policy { OSP_PATHS_COUNTER, OSP_PATHS_TIMER,
                       OSP_PATHS_EXHAUSTIVE, OSP_PATHS_OFF };

/* forest=: which path ends feed the prefix forest (pathforest.c). */
enum osp_forest_policy { OSP_FOREST_BURST, OSP_FOREST_EXHAUSTIVE,
                         OSP_FOREST_OFF };

#define OSP_PATH_MAX 4096
/* The largest report_top (rows per section of a report). */
#define OSP_REPORT_TOP_MAX 100000

/* The snapshot written at exit unless snapshot= says otherwise: named
   after the program (%e), in the directory it started in (doc/osp.md,
   "The profile file"). */
#define OSP_SNAPSHOT_DEFAULT "%e.ospsnap"

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
  int snapshot_set;               /* snapshot= was given (else the default:
                                     the first process with something
                                     profiled, osp_snapshot_default_rule) */
  /* The working directory at start-up ("" unknown), where relative
     templates are anchored; the exit line names files relative to it. */
  char start_dir[OSP_PATH_MAX];
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
   nothing leaves the process (report=none, publish=off, snapshot=none;
   otherwise the default snapshot is anchored at start_dir), with one notice
   line when OSP_OPTIONS holds verbose=1. */
void osp_options_from_env (struct osp_options *o);
/* OSP_OPTIONS as this process obeys it: "" in a privileged process. */
const char *osp_options_env (void);
/* Expand %p %h %e %% of TMPL into OUT (%e: the program's name as it was
   started, osp_program_name).  Returns 0, or -1 if OUT is too small. */
int osp_expand_path (char *out, size_t size, const char *tmpl, long pid,
                     const char *host);
/* The last component of argv[0] ("demo" for ./demo), or "program" when
   that is empty, "." or "..". */
const char *osp_program_name (void);

/* The options in force: runtime.c fills them at start-up (registry.c
   holds them).  Hidden: the hooks read them as they read a variable of
   their own file (no GOT load), as when runtime.c defined them. */
extern struct osp_options osp_opts __attribute__ ((visibility ("hidden")));

/* ---- registry.c ------------------------------------------------------ */

struct osp_block
{
  uint32_t line_first, line_last, flags;
  uint32_t nsucc, succ; /* succ: index of the first edge in osp_fn.edges */
  uint32_t cost;        /* the plugin's estimated cost (abi.h `costs'), 1
                           for a record without costs */
  /* Its statement lines (abi.h `lines'): osp_fn.lines[lines ..
     lines + nlines) when nlines > 0, else every line of line_first ..
     line_last. */
  uint32_t lines, nlines;
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
  uint32_t *lines;  /* the blocks' statement lines (osp_block.lines) */
  uint32_t nlines;
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

/* The estimated work of one run of the N blocks IDS of F (their cost sum). */
static inline uint64_t
osp_blocks_cost (const struct osp_fn *f, const uint32_t *ids, uint32_t n)
{
  uint64_t c = 0;
  for (uint32_t i = 0; i < n; i++)
    if (ids[i] < f->nblocks)
      c += f->blocks[ids[i]].cost;
  return c;
}

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

#define OSP_DIR_SHIFT 10
#define OSP_DIR_CHUNK (1u << OSP_DIR_SHIFT)
#define OSP_DIR_MASK (OSP_DIR_CHUNK - 1)

/* registry.c's function directory: ids 1..osp_nfns, chunks of
   OSP_DIR_CHUNK published with release stores, never freed or moved. */
extern _Atomic (struct osp_fn *_Atomic *) *osp_fn_dir;
extern atomic_uint osp_nfns;
/* Set (once, never cleared) when a function with OSP_FN_PATH_SHARED is
   registered: from then on the subpath sampler's skips are the clock of
   the shared path checks too (collect/sampler.c).  Without such a record
   nothing changes, draw for draw. */
extern atomic_int osp_paths_shared;

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

/* ---- path counters (the plugin's instrument=counts) --------------------- */

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
/* The collectors' side of registry.c's warning about functions whose path
   ends nothing samples: whether path ends feed a prefix forest
   (collect/pathforest.c says so at its init). */
void osp_registry_forest_fed (int fed);

#endif /* OSP_MODEL_H */

/* SPDX-License-Identifier: MIT */
/* registry.c - modules and functions: finding, checking and copying records.
 *
 * Every instrumented translation unit's constructor passes its module's
 * whole osp_fns section [start, stop), so the same range arrives once per
 * TU.  The record's `id' word says whether it is already registered, which
 * makes repeats idempotent, and a range whose first registered record
 * still holds its id is not walked again (scan_done): the repeats cost
 * nothing.
 *
 * A valid record over max_functions gets the runtime-owned sentinel
 * OSP_ID_DROPPED in its id, so the repeats of its module's registration do
 * not count it again; hooks treat it as "not registered".  Rejected records
 * (malformed, another ABI) are left untouched and counted only on the
 * first scan of their module's range.
 *
 * Inline path counters stay where the generated code adds to them, in the
 * module: a function's `counts' points there until the module's destructor
 * (__osp_release_module, once per translation unit with counters) copies
 * them into the runtime's memory, allocated at registration so that the
 * copy cannot fail, and points `counts' there, before a dlclose unmaps
 * them.  Readers hold the registry lock (osp_counters_hold), so a release
 * never switches the array under one.
 *
 * The plugin packs a record's arrays (OSP_FN_PACKED, osp/pack.h); they
 * are unpacked into words here, checked and copied, and the words freed.
 *
 * Records are not trusted: a record is used only if its packed arrays
 * unpack exactly, its cfg decodes
 * exactly (every count and successor bounds-checked) under this runtime's
 * ABI, and, with path probes, its P-DAG words fit the cfg (one start and
 * one end word per block, one word per successor, every value below
 * npaths, start values exactly on the OSP_BB_PATH_START blocks) and form
 * an acyclic P-DAG (paths.c).  A record whose cfg is wrong may be junk in
 * padding and is reported only with verbose=1; one whose cfg is right but
 * whose path words are wrong is a real function from a mismatched plugin,
 * so it always gets one stderr line naming it.  Either way the function is
 * ignored and counted in records_invalid.  What passes is copied (name,
 * file, its size and SHA-256 and the compile's directory, decoded cfg,
 * block costs, path words) because the module may be dlclose'd while
 * the report still needs them; afterwards the record's address is only
 * compared, never read again, except its id.  (Pointers themselves cannot
 * be checked: a record whose name or cfg pointer is wild would fault here,
 * as it would in any reader.)
 *
 * Records of another ABI version are recognised by their first two words
 * alone (abi.h keeps magic and abi_version at the same offsets in every
 * version), so a shorter record of an older ABI is still refused, with
 * one line per process, never misread.
 *
 * verify_paths=1 checks each new function's numbering here (paths.c),
 * under the registry lock, once per function.
 *
 * Hooks find a function without a lock: ids index a two-level directory
 * whose top level is sized once for max_functions and whose chunks and
 * entries are published with release stores, so nothing ever moves.
 *
 * Global block ids (the subpath modes): function id i gets block_base =
 * the sum of nblocks of ids 1..i-1, so a subpath is a sequence of uint32
 * ids and block_base grows with the id.  Decoding a global id is a binary
 * search over the ids, lock-free like the rest (a function is published
 * with its block_base already set).  A function whose blocks would take
 * the total past 2^32 - 1 is dropped like one over max_functions.
 */
#define _GNU_SOURCE
#include "model/model.h"
#include "format/grow.h"
#include "osp/pack.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

pthread_mutex_t osp_registry_lock = PTHREAD_MUTEX_INITIALIZER;
struct osp_options osp_opts; /* runtime.c fills it at start-up */
/* Whether path ends feed a prefix forest (pathforest.c's init says). */
static atomic_int forest_fed;

static uint32_t max_fns;
static int verbose;
_Atomic (struct osp_fn *_Atomic *) *osp_fn_dir; /* [max_fns / CHUNK] */
atomic_uint osp_nfns;                             /* ids 1..osp_nfns used */
atomic_int osp_paths_shared; /* a function with OSP_FN_PATH_SHARED registered */
static uint64_t nblocks_total; /* global ids in use; under the lock */
/* Under osp_registry_lock.  At most one module per registered function,
   so the table is bounded by max_functions too. */
static struct osp_module *mods;
static uint32_t nmods;
static size_t mods_cap;
static int abi_warned;

/* Longest name or file kept; longer strings are cut. */
#define OSP_STR_MAX 4096

int
osp_registry_init (uint32_t max_functions, int verbose_flag)
{
  max_fns = max_functions;
  verbose = verbose_flag;
  size_t ndir = (max_functions + OSP_DIR_CHUNK - 1) / OSP_DIR_CHUNK;
  osp_fn_dir = calloc (ndir, sizeof *osp_fn_dir);
  return osp_fn_dir ? 0 : -1;
}

/* The cfg words of R (the header too).  NULL or why not. */
static const char *
check_cfg (const struct osp_fn_record *r)
{
  if (r->magic != OSP_FN_MAGIC)
    return "bad magic";
  if (r->abi_version != OSP_ABI_VERSION)
    return "other ABI version";
  if (r->nblocks == 0)
    return "no blocks";
  if (r->cfg == NULL)
    return "no cfg";
  /* Each block takes at least 4 words: reject before walking. */
  if ((uint64_t) r->nblocks * 4 > r->cfg_len)
    return "cfg shorter than its blocks";
  uint64_t pos = 0;
  for (uint32_t b = 0; b < r->nblocks; b++)
    {
      if (r->cfg_len - pos < 4)
        return "cfg truncated in a block header";
      uint32_t nsucc = r->cfg[pos + 3];
      pos += 4;
      if ((uint64_t) nsucc * 2 > r->cfg_len - pos)
        return "cfg truncated in a successor list";
      for (uint32_t s = 0; s < nsucc; s++)
        {
          uint32_t dst = r->cfg[pos + 2 * s];
          if (dst >= r->nblocks && dst != OSP_BLOCK_EXIT)
            return "successor out of range";
        }
      pos += 2 * (uint64_t) nsucc;
    }
  if (pos != r->cfg_len)
    return "cfg longer than its blocks";
  return NULL;
}

/* The paths words of R, whose cfg is known good.  NULL or why not. */
static const char *
check_paths (const struct osp_fn_record *r)
{
  if (!(r->flags & OSP_FN_PATH_PROBES))
    return r->paths != NULL || r->npaths != 0 || r->counts != NULL
                   || (r->flags & (OSP_FN_PATH_CHECKS | OSP_FN_PATH_COUNTS
                                   | OSP_FN_PATH_SHARED))
               ? "paths words, checks or counters without OSP_FN_PATH_PROBES"
               : NULL;
  if ((r->flags & OSP_FN_COUNTS_ATOMIC) && !(r->flags & OSP_FN_PATH_COUNTS))
    return "atomic counters without OSP_FN_PATH_COUNTS";
  if ((r->flags & OSP_FN_PATH_SHARED)
      && (r->flags & (OSP_FN_BLOCK_HOOKS | OSP_FN_PATH_CHECKS))
             != (OSP_FN_BLOCK_HOOKS | OSP_FN_PATH_CHECKS))
    return "shared path checks without block hooks and path checks";
  if ((r->flags & OSP_FN_PATH_COUNTS) && r->counts == NULL)
    return "path counters without a counts array";
  if (!(r->flags & OSP_FN_PATH_COUNTS) && r->counts != NULL)
    return "a counts array without OSP_FN_PATH_COUNTS";
  if ((r->flags & OSP_FN_PATH_COUNTS) && r->npaths > OSP_COUNTED_PATHS_MAX)
    return "path counters for more than 2^24 paths";
  if (r->paths == NULL)
    return "path probes without paths words";
  if (r->npaths == 0)
    return "path probes with npaths 0";
  uint64_t nsucc_total = (r->cfg_len - 4 * (uint64_t) r->nblocks) / 2;
  if (r->paths_len != 2 * (uint64_t) r->nblocks + nsucc_total)
    return "paths_len is not 2 * nblocks + successors";
  const uint32_t *w = r->cfg;
  const uint64_t *v = r->paths;
  for (uint32_t b = 0; b < r->nblocks; b++)
    {
      uint32_t flags = w[2], nsucc = w[3];
      int start = (flags & OSP_BB_PATH_START) != 0;
      if (start != (v[0] != OSP_PATH_NONE))
        return start ? "a path start without a start value"
                     : "a start value on a block that starts no path";
      for (uint32_t k = 0; k < 2 + nsucc; k++)
        if (v[k] != OSP_PATH_NONE && v[k] >= r->npaths)
          return "a path value not below npaths";
      w += 4 + 2 * (size_t) nsucc;
      v += 2 + (size_t) nsucc;
    }
  return NULL;
}

/* The statement-line words of R (abi.h `lines'), whose cfg is known
   good: each block's lines inside its range, ascending.  NULL or why. */
static const char *
check_lines (const struct osp_fn_record *r)
{
  if (r->lines == NULL)
    return r->lines_len != 0 ? "lines_len without lines" : NULL;
  const uint32_t *w = r->cfg;
  uint64_t pos = 0;
  for (uint32_t b = 0; b < r->nblocks; b++)
    {
      uint32_t first = w[0], last = w[1];
      w += 4 + 2 * (size_t) w[3];
      if (pos >= r->lines_len)
        return "lines shorter than its blocks";
      uint32_t n = r->lines[pos++];
      if (n == 0)
        continue;
      if (n < 2 || n > r->lines_len - pos)
        return "a block's line count out of range";
      if (r->lines[pos] != first || r->lines[pos + n - 1] != last)
        return "a block's lines do not span its range";
      for (uint32_t k = 1; k < n; k++)
        if (r->lines[pos + k] <= r->lines[pos + k - 1])
          return "a block's lines not ascending";
      pos += n;
    }
  return pos != r->lines_len ? "lines longer than its blocks" : NULL;
}

/* The packed array IN of LEN bytes unpacked into OUT64 or OUT32 (room for
   CAP words): the words, or -1 (bytes without an array, too). */
static int64_t
unpack_array (const void *in, size_t len, uint64_t *out64, uint32_t *out32,
              size_t cap)
{
  if (in == NULL)
    return len == 0 ? 0 : -1;
  return osp_unpack_words (in, len, out64, out32, cap);
}

/* Memory for unpacked words, kept from one record to the next: a malloc
   and a free a record were a tenth of the registration's instructions. */
struct words
{
  void *buf;
  size_t cap;
};

/* R's words: *U = *R, with a packed record's arrays unpacked into W
   (valid until its next use; free W->buf after the last).  NULL or why
   not. */
static const char *
unpack_record (const struct osp_fn_record *r, struct osp_fn_record *u,
               struct words *w)
{
  *u = *r;
  if (!(r->flags & OSP_FN_PACKED))
    return r->costs_len != 0 ? "costs_len without packed arrays" : NULL;
  if (r->cfg == NULL)
    return "no cfg";
  /* Every packed word takes a byte at least, so the bytes bound the
     words (osp/pack.h). */
  size_t ncfg = r->cfg_len, npath = r->paths_len, nlines = r->lines_len;
  size_t bytes = (ncfg + nlines + (size_t) r->nblocks) * sizeof (uint32_t)
                 + npath * sizeof (uint64_t);
  if (bytes > w->cap)
    {
      size_t cap = bytes > 2 * w->cap ? bytes : 2 * w->cap;
      void *b = malloc (cap);
      if (b == NULL)
        return "out of memory";
      free (w->buf);
      w->buf = b;
      w->cap = cap;
    }
  char *m = w->buf;
  uint64_t *paths = (uint64_t *) m;
  uint32_t *cfg = (uint32_t *) (paths + npath), *costs = cfg + ncfg;
  uint32_t *lines = costs + r->nblocks;
  int64_t n = osp_unpack_cfg ((const uint8_t *) r->cfg, ncfg, r->nblocks, cfg,
                              ncfg);
  int64_t np = unpack_array (r->paths, npath, paths, NULL, npath);
  int64_t nc = unpack_array (r->costs, r->costs_len, NULL, costs, r->nblocks);
  int64_t nl = unpack_array (r->lines, nlines, NULL, lines, nlines);
  const char *why = NULL;
  if (n < 0)
    why = "packed cfg does not unpack";
  else if (np < 0)
    why = "packed path values do not unpack";
  else if (nc < 0 || (r->costs != NULL && nc != r->nblocks))
    why = "packed costs are not one a block";
  else if (nl < 0)
    why = "packed lines do not unpack";
  u->cfg = cfg;
  u->cfg_len = (uint32_t) n;
  u->paths = r->paths ? paths : NULL;
  u->paths_len = (uint32_t) np;
  u->costs = r->costs ? costs : NULL;
  u->lines = r->lines ? lines : NULL;
  u->lines_len = (uint32_t) nl;
  u->flags &= ~(uint32_t) OSP_FN_PACKED;
  u->costs_len = 0;
  return why;
}

/* The checks of the unpacked record U, in order. */
static const char *
check_record (const struct osp_fn_record *u)
{
  const char *why = check_cfg (u);
  if (why == NULL)
    why = check_paths (u);
  return why ? why : check_lines (u);
}

const char *
osp_record_check (const struct osp_fn_record *r)
{
  struct osp_fn_record u;
  struct words words = { NULL, 0 };
  const char *why = unpack_record (r, &u, &words);
  if (why == NULL)
    why = check_record (&u);
  free (words.buf);
  return why;
}

/* S as the registry keeps it: cut at OSP_STR_MAX, control characters
   replaced so a name can never break a report line or a tsv field; into
   OUT (room for string_len (S) + 1), S NULL as "?". */
static size_t
string_len (const char *s)
{
  return strnlen (s ? s : "?", OSP_STR_MAX);
}

static void
string_into (char *out, const char *s)
{
  s = s ? s : "?";
  size_t n = string_len (s);
  for (size_t i = 0; i < n; i++)
    out[i] = ((unsigned char) s[i] < 0x20 || s[i] == 0x7f) ? '?' : s[i];
  out[n] = '\0';
}

/* The registry's copy of a file name (KIND 0) or directory (1).  The
   functions of a translation unit all name the same ones, so a copy
   serves them all: a small cache for each kind, indexed by the string's
   address and checked by its bytes (a module loaded where another was
   may have other text there).  The copies are never freed, as the
   functions that use them. */
#define SHARED_WAYS 16
static struct
{
  const char *at;
  char *copy;
} shared[2][SHARED_WAYS];

static char *
shared_string (const char *s, int kind)
{
  /* Fibonacci hashing: the high bits of the product mix every bit of the
     address (a unit's file name and directory may lie 16 bytes apart). */
  uint64_t h = (uint64_t) (uintptr_t) s * UINT64_C (0x9e3779b97f4a7c15);
  unsigned i = (unsigned) ((h >> 32) % SHARED_WAYS);
  char *c = shared[kind][i].copy;
  if (c != NULL && shared[kind][i].at == s && s != NULL
      && strncmp (s, c, OSP_STR_MAX) == 0)
    return c;
  c = malloc (string_len (s) + 1);
  if (c == NULL)
    return NULL;
  string_into (c, s);
  shared[kind][i].at = s;
  shared[kind][i].copy = c;
  return c;
}

/* Its paths' arrays (paths.c) and F: the rest is in F's allocation. */
static void
free_fn (struct osp_fn *f)
{
  if (f == NULL)
    return;
  osp_paths_free (f);
  free (f);
}

/* The offset of N elements of SIZE aligned to ALIGN (a power of two) in
   an allocation whose first *AT bytes are taken; *AT moves past them, to
   SIZE_MAX when the sum overflows. */
static size_t
carve (size_t *at, size_t n, size_t size, size_t align)
{
  size_t o = (*at + align - 1) & ~(align - 1);
  if (*at == SIZE_MAX || o < *at || (size && n > (SIZE_MAX - o) / size))
    {
      *at = SIZE_MAX;
      return 0;
    }
  *at = o + n * size;
  return o;
}

/* Decode the record REC, U its unpacked and checked words, into a new
   osp_fn, or NULL.  A P-DAG that cannot be used sets *WHY (and returns
   NULL).  One allocation holds the function, its arrays and its name:
   one calloc a function instead of eight. */
static struct osp_fn *
copy_fn (const struct osp_fn_record *rec, const struct osp_fn_record *r,
         const char **why)
{
  *why = NULL;
  size_t nedges = (r->cfg_len - 4 * (size_t) r->nblocks) / 2;
  size_t nlines = r->lines != NULL && r->lines_len > r->nblocks
                      ? r->lines_len - r->nblocks
                      : 0;
  int counted = (r->flags & OSP_FN_PATH_COUNTS) != 0;
  size_t nkept = counted ? (r->npaths ? r->npaths : 1) : 0;
  size_t at = sizeof (struct osp_fn);
  size_t o_blocks = carve (&at, r->nblocks, sizeof (struct osp_block),
                           _Alignof (struct osp_block));
  size_t o_edges = carve (&at, nedges ? nedges : 1, sizeof (struct osp_edge),
                          _Alignof (struct osp_edge));
  size_t o_totals = carve (&at, r->nblocks, sizeof (uint64_t),
                           _Alignof (uint64_t));
  size_t o_kept = carve (&at, nkept, sizeof (uint64_t), _Alignof (uint64_t));
  size_t o_lines = carve (&at, nlines, sizeof (uint32_t),
                          _Alignof (uint32_t));
  size_t o_name = carve (&at, string_len (r->name) + 1, 1, 1);
  char *m = at == SIZE_MAX ? NULL : calloc (1, at);
  if (m == NULL)
    return NULL;
  struct osp_fn *f = (struct osp_fn *) m;
  f->rec = rec;
  f->flags = r->flags;
  f->nblocks = r->nblocks;
  f->nedges = (uint32_t) nedges;
  f->name = m + o_name;
  string_into (f->name, r->name);
  f->file = shared_string (r->file, 0);
  f->comp_dir = shared_string (r->comp_dir ? r->comp_dir : "", 1);
  f->file_size = r->file_size;
  if (r->file_sha256 != NULL)
    {
      memcpy (f->file_sha256, r->file_sha256, sizeof f->file_sha256);
      f->has_sha256 = 1;
    }
  f->blocks = (struct osp_block *) (m + o_blocks);
  f->edges = (struct osp_edge *) (m + o_edges);
  f->totals = (uint64_t *) (m + o_totals);
  f->nlines = (uint32_t) nlines;
  f->lines = nlines ? (uint32_t *) (m + o_lines) : NULL;
  f->kept = counted ? (uint64_t *) (m + o_kept) : NULL;
  if (!f->file || !f->comp_dir)
    {
      free_fn (f);
      return NULL;
    }
  const uint32_t *w = r->cfg;
  const uint32_t *lw = r->lines;
  uint32_t e = 0, nl = 0;
  for (uint32_t b = 0; b < r->nblocks; b++)
    {
      struct osp_block *bl = &f->blocks[b];
      /* the record's pool without its per-block counts (check_lines) */
      bl->lines = nl;
      bl->nlines = lw ? *lw++ : 0;
      for (uint32_t k = 0; k < bl->nlines; k++)
        f->lines[nl++] = *lw++;
      bl->line_first = w[0];
      bl->line_last = w[1];
      bl->flags = w[2];
      bl->nsucc = w[3];
      bl->succ = e;
      bl->cost = r->costs ? r->costs[b] : 1;
      w += 4;
      for (uint32_t s = 0; s < bl->nsucc; s++, w += 2, e++)
        {
          f->edges[e].dst = w[0];
          f->edges[e].flags = w[1];
        }
      if (bl->line_first != 0
          && (f->first_line == 0 || bl->line_first < f->first_line))
        f->first_line = bl->line_first;
    }
  /* The entry block's line is the function's; inlined code may put other
     blocks before it in the file, so the smallest line is only a fallback. */
  if (f->blocks[0].line_first != 0)
    f->first_line = f->blocks[0].line_first;
  const char *pwhy = osp_paths_prepare (f, r);
  if (pwhy != NULL)
    {
      free_fn (f);
      if (strcmp (pwhy, "out of memory") != 0)
        *why = pwhy;
      return NULL;
    }
  return f;
}

/* The module registering [START, STOP), created if new; -1 if no memory. */
static int
module_index (uintptr_t start, uintptr_t stop)
{
  for (uint32_t i = 0; i < nmods; i++)
    if (mods[i].start == start && mods[i].stop == stop)
      return (int) i;
  if (osp_grow (&mods, &mods_cap, (size_t) nmods + 1, sizeof *mods, 16) != 0)
    return -1;
  mods[nmods] = (struct osp_module) { start, stop, 0, 0 };
  return (int) nmods++;
}

/* Read F's counters where the generated code adds to them: in R's module
   (the array its `counts' points to) until the module is released. */
static void
read_counters_in_module (struct osp_fn *f, struct osp_fn_record *r)
{
  f->counts = r->counts;
  mods[f->module].counted++;
  atomic_fetch_add_explicit (&osp_stats.counter_bytes,
                             f->npaths * sizeof *f->kept,
                             memory_order_relaxed);
}

/* Once per process: functions that count their paths inline but have
   no sample checks, ANY of them, LOOPY one with loops (more than one
   path start: instrument=counts alone; the plugin also counts small
   functions without loops instead of checking them, pathprof.c).
   paths=timer reports none of their paths (its samples are not counts),
   and the prefix forest sees none of LOOPY's iterations; a function
   without loops runs one path a call, no loss to the forest. */
static void
warn_uncheckable (const struct osp_fn *any, const struct osp_fn *loopy)
{
  static atomic_int warned;
  int timer = osp_opts.paths == OSP_PATHS_TIMER;
  int forest = loopy != NULL && atomic_load (&forest_fed);
  if ((!timer && !forest) || atomic_exchange (&warned, 1))
    return;
  if (forest)
    osp_warn ("osp: %s (and any other function built with instrument=counts "
              "alone) has path counters but no sample checks: the prefix "
              "forest never sees its paths%s", loopy->name,
              timer ? ", and paths=timer does not report them" : "");
  else
    osp_warn ("osp: %s (and any other function without loops, or built "
              "with instrument=counts alone) has path counters but no "
              "sample checks: paths=timer does not report its paths",
              any->name);
}

void
osp_registry_forest_fed (int fed)
{
  atomic_store (&forest_fed, fed);
}

/* Publish F as function number n+1 and write its id into the record. */
static void
publish (struct osp_fn *f, struct osp_fn_record *r)
{
  if (f->kept != NULL)
    read_counters_in_module (f, r);
  uint32_t i = atomic_load_explicit (&osp_nfns, memory_order_relaxed);
  uint32_t d = i >> OSP_DIR_SHIFT;
  struct osp_fn *_Atomic *chunk
      = atomic_load_explicit (&osp_fn_dir[d], memory_order_relaxed);
  f->id = i + 1;
  f->block_base = (uint32_t) nblocks_total;
  nblocks_total += f->nblocks;
  atomic_store_explicit (&chunk[i & OSP_DIR_MASK], f, memory_order_release);
  atomic_store_explicit (&osp_nfns, i + 1, memory_order_release);
  /* Before its id: its code may call __osp_path_end_shared only once
     the record is registered, and the sampler's clock must know it by
     then (collect/sampler.c). */
  if (f->flags & OSP_FN_PATH_SHARED)
    atomic_store_explicit (&osp_paths_shared, 1, memory_order_release);
  __atomic_store_n (&r->id, f->id, __ATOMIC_RELEASE);
}

/* Room for one more function: within max_functions and its chunk exists. */
static int
have_room (void)
{
  uint32_t i = atomic_load_explicit (&osp_nfns, memory_order_relaxed);
  if (i >= max_fns)
    return 0;
  uint32_t d = i >> OSP_DIR_SHIFT;
  if (atomic_load_explicit (&osp_fn_dir[d], memory_order_relaxed) == NULL)
    {
      struct osp_fn *_Atomic *chunk = calloc (OSP_DIR_CHUNK, sizeof *chunk);
      if (chunk == NULL)
        return 0;
      atomic_store_explicit (&osp_fn_dir[d], chunk, memory_order_release);
    }
  return 1;
}

static const char *
module_name (const void *addr)
{
  Dl_info info;
  if (dladdr (addr, &info) && info.dli_fname && *info.dli_fname)
    return info.dli_fname;
  return "a module";
}

/* The ranges scanned so far, so that the records a range rejects are
   counted once, not once per translation unit, and so that a range whose
   records are all registered is not walked again: every translation unit
   of a module registers the module's whole section (Lua's 32 walked its
   1158 records 32 times).  MARK is the first record the scan gave an id
   (or dropped), with that id: while it still holds it, the module is the
   one scanned (a module loaded later where another was has its records'
   ids at 0 again) and the walk would find nothing new.  Bounded: past
   SCANNED_MAX distinct ranges, rejects may count again and the ranges are
   walked again. */
#define SCANNED_MAX 256
static struct
{
  uintptr_t start, stop;
  struct osp_fn_record *mark;
  uint32_t mark_id;
} scanned[SCANNED_MAX];
static unsigned nscanned;

/* The entry of [START, STOP), made if new (*FIRST: it is), or NULL when
   the table is full. */
static int
scan_entry (uintptr_t start, uintptr_t stop, int *first)
{
  *first = 0;
  for (unsigned i = 0; i < nscanned; i++)
    if (scanned[i].start == start && scanned[i].stop == stop)
      return (int) i;
  *first = 1;
  if (nscanned == SCANNED_MAX)
    return -1;
  scanned[nscanned].start = start;
  scanned[nscanned].stop = stop;
  scanned[nscanned].mark = NULL;
  return (int) nscanned++;
}

/* Whether the scan of entry I would find nothing new (see scanned). */
static int
scan_done (int i)
{
  return i >= 0 && scanned[i].mark != NULL
         && __atomic_load_n (&scanned[i].mark->id, __ATOMIC_RELAXED)
                == scanned[i].mark_id;
}

/* One line per process: the cause is the same for every record. */
static void
warn_abi (uint32_t abi, const void *where)
{
  if (abi_warned)
    return;
  abi_warned = 1;
  osp_warn ("osp: %s was built for osp ABI %u but this runtime is ABI %u; "
            "that module runs unprofiled",
            module_name (where), abi, OSP_ABI_VERSION);
}

/* One line for a real record (its cfg is good) that cannot be used. */
static void
warn_unusable (const struct osp_fn_record *r, const char *why)
{
  char name[128];
  snprintf (name, sizeof name, "%s", r->name ? r->name : "?");
  for (char *c = name; *c; c++)
    if ((unsigned char) *c < 0x20 || *c == 0x7f)
      *c = '?';
  osp_warn ("osp: ignoring the record of %s in %s: %s; that function runs "
            "unprofiled", name, module_name (r), why);
}

void
osp_registry_add (uint32_t abi, struct osp_fn_record *start,
                  struct osp_fn_record *stop)
{
  const size_t align = _Alignof (struct osp_fn_record);
  /* Enough of a record to recognise one of another ABI version. */
  const size_t head = offsetof (struct osp_fn_record, id);
  uintptr_t p = ((uintptr_t) start + align - 1) & ~(uintptr_t) (align - 1);
  uintptr_t end = (uintptr_t) stop;

  osp_lock (&osp_registry_lock);
  if (start == NULL || end < (uintptr_t) start)
    {
      osp_unlock (&osp_registry_lock);
      return;
    }
  if (abi != OSP_ABI_VERSION)
    warn_abi (abi, start);
  int first_scan;
  int scan = scan_entry ((uintptr_t) start, end, &first_scan);
  if (scan_done (scan))
    {
      osp_unlock (&osp_registry_lock);
      return;
    }
  struct osp_fn_record *mark = NULL;
  struct words words = { NULL, 0 };
  int mod = -1;
  uint32_t added = 0, invalid = 0, dropped = 0, mismatched = 0;
  const struct osp_fn *uncheckable = NULL, *loopy = NULL;
  while (p <= end && end - p >= head)
    {
      struct osp_fn_record *r = (struct osp_fn_record *) p;
      if (r->magic != OSP_FN_MAGIC)
        {
          p += align;
          continue;
        }
      /* Nothing is written into a record that fails here: a stray magic
         word in padding must not make us scribble over a real record. */
      if (abi != OSP_ABI_VERSION || r->abi_version != OSP_ABI_VERSION)
        {
          warn_abi (abi != OSP_ABI_VERSION ? abi : r->abi_version, r);
          mismatched++;
          p += align;
          continue;
        }
      if (end - p < sizeof *r)
        break; /* a record of this ABI cut by the section's end */
      if (osp_fn_of_record (r) != NULL)
        {
          /* registered by an earlier call, here: its module's every
             translation unit registers the whole section again */
          mark = mark ? mark : r;
          p += sizeof *r;
          continue;
        }
      struct osp_fn_record u;
      const char *why = unpack_record (r, &u, &words);
      if (why == NULL)
        why = check_cfg (&u);
      if (why != NULL)
        {
          if (verbose && first_scan)
            osp_warn ("osp: ignoring a malformed record at %p in %s: %s",
                      (void *) r, module_name (r), why);
          invalid++;
          p += align;
          continue;
        }
      if ((why = check_paths (&u)) != NULL
          || (why = check_lines (&u)) != NULL)
        {
          if (first_scan)
            warn_unusable (r, why);
          invalid++;
          p += align;
          continue;
        }
      p += sizeof *r;
      if (__atomic_load_n (&r->id, __ATOMIC_RELAXED) != 0)
        {
          mark = mark ? mark : r;
          continue; /* dropped by an earlier call */
        }
      /* The module entry is made with its first function, so the table
         never holds more modules than functions. */
      struct osp_fn *f = NULL;
      if (have_room () && nblocks_total + r->nblocks < UINT32_MAX)
        f = copy_fn (r, &u, &why);
      if (why != NULL) /* its P-DAG cannot be used: malformed */
        {
          if (first_scan)
            warn_unusable (r, why);
          invalid++;
          continue;
        }
      if (f != NULL && mod < 0)
        mod = module_index ((uintptr_t) start, end);
      if (f == NULL || mod < 0)
        {
          free_fn (f);
          __atomic_store_n (&r->id, OSP_ID_DROPPED, __ATOMIC_RELAXED);
          mark = mark ? mark : r;
          dropped++;
          continue;
        }
      f->module = (uint32_t) mod;
      mods[mod].nfunctions++;
      if (mods[mod].nfunctions == 1)
        atomic_fetch_add_explicit (&osp_stats.modules, 1,
                                   memory_order_relaxed);
      publish (f, r);
      mark = mark ? mark : r;
      added++;
      if (osp_fn_counts_only (f))
        {
          uncheckable = uncheckable ? uncheckable : f;
          if (f->nstarts > 1 && loopy == NULL)
            loopy = f;
        }
      if (osp_opts.verify_paths && f->npaths != 0)
        osp_paths_verify (f);
    }
  free (words.buf);
  if (scan >= 0 && mark != NULL)
    {
      scanned[scan].mark = mark;
      scanned[scan].mark_id = __atomic_load_n (&mark->id, __ATOMIC_RELAXED);
    }
  atomic_fetch_add_explicit (&osp_stats.functions, added,
                             memory_order_relaxed);
  atomic_fetch_add_explicit (&osp_stats.functions_dropped, dropped,
                             memory_order_relaxed);
  if (first_scan)
    {
      atomic_fetch_add_explicit (&osp_stats.records_invalid, invalid,
                                 memory_order_relaxed);
      atomic_fetch_add_explicit (&osp_stats.abi_mismatches, mismatched,
                                 memory_order_relaxed);
    }
  osp_unlock (&osp_registry_lock);

  if (uncheckable != NULL)
    warn_uncheckable (uncheckable, loopy);
  if (verbose && (added || dropped || (first_scan && invalid)))
    osp_warn ("osp: %s: %u functions registered, %u malformed records "
              "ignored, %u dropped (max_functions)",
              module_name (start), added, invalid, dropped);
}

struct osp_fn *
osp_fn_of_block (uint32_t gid, uint32_t *block)
{
  uint32_t lo = 1, hi = atomic_load_explicit (&osp_nfns, memory_order_acquire);
  if (hi == 0)
    return NULL;
  while (lo < hi) /* last id whose block_base <= gid */
    {
      uint32_t mid = lo + (hi - lo + 1) / 2;
      if (osp_fn_by_id (mid)->block_base <= gid)
        lo = mid;
      else
        hi = mid - 1;
    }
  struct osp_fn *f = osp_fn_by_id (lo);
  if (gid < f->block_base || gid - f->block_base >= f->nblocks)
    return NULL;
  *block = gid - f->block_base;
  return f;
}

uint32_t
osp_fn_index_of_block (struct osp_fn *const *fns, uint32_t n, uint32_t gid,
                       uint32_t *block)
{
  uint32_t lo = 0, hi = n;
  while (lo < hi) /* first index whose block_base > gid */
    {
      uint32_t mid = lo + (hi - lo) / 2;
      if (fns[mid]->block_base <= gid)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || gid - fns[lo - 1]->block_base >= fns[lo - 1]->nblocks)
    return UINT32_MAX;
  *block = gid - fns[lo - 1]->block_base;
  return lo - 1;
}

uint32_t
osp_registry_count (void)
{
  return atomic_load_explicit (&osp_nfns, memory_order_acquire);
}

void
osp_registry_release (struct osp_fn_record *start, struct osp_fn_record *stop)
{
  uintptr_t lo = (uintptr_t) start, hi = (uintptr_t) stop;
  osp_lock (&osp_registry_lock);
  uint32_t m = 0;
  while (m < nmods && (mods[m].start != lo || mods[m].stop != hi))
    m++;
  if (m < nmods && mods[m].counted > 0)
    {
      uint32_t n = atomic_load_explicit (&osp_nfns, memory_order_relaxed);
      for (uint32_t id = 1; id <= n; id++)
        {
          struct osp_fn *f = osp_fn_by_id (id);
          if (f->module != m || f->counts == f->kept)
            continue;
          for (uint64_t i = 0; i < f->npaths; i++)
            f->kept[i] = __atomic_load_n (&f->counts[i], __ATOMIC_RELAXED);
          f->counts = f->kept;
        }
      mods[m].counted = 0;
    }
  osp_unlock (&osp_registry_lock);
}

/* Readers of counts hold the registry lock, which a release takes. */
void
osp_counters_hold (void)
{
  osp_lock (&osp_registry_lock);
}

void
osp_counters_done (void)
{
  osp_unlock (&osp_registry_lock);
}

int
osp_registry_snapshot (struct osp_fn ***fns_out, uint32_t *nfns_out,
                       struct osp_module **mods_out, uint32_t *nmods_out)
{
  osp_lock (&osp_registry_lock);
  uint32_t n = atomic_load_explicit (&osp_nfns, memory_order_relaxed);
  struct osp_fn **fns = malloc ((n ? n : 1) * sizeof *fns);
  struct osp_module *m = malloc ((nmods ? nmods : 1) * sizeof *m);
  if (fns == NULL || m == NULL)
    {
      osp_unlock (&osp_registry_lock);
      free (fns);
      free (m);
      return -1;
    }
  for (uint32_t i = 0; i < n; i++)
    fns[i] = osp_fn_by_id (i + 1);
  if (nmods)
    memcpy (m, mods, nmods * sizeof *m);
  *nmods_out = nmods;
  osp_unlock (&osp_registry_lock);
  *fns_out = fns;
  *nfns_out = n;
  *mods_out = m;
  return 0;
}

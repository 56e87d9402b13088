/* SPDX-License-Identifier: MIT */
/* osp/view.h - a profile view: everything a report shows, in one
 * self-contained, position-independent block of bytes.
 *
 * The runtime's publisher writes a view into the shared-memory segment
 * (osp/shm.h) a few times a second; ospview reads it, and a snapshot file is
 * a view on disk.  So the view must decode without the binary, the source or
 * the process: function names, files and block line ranges travel with it.
 *
 * Layout (all offsets are byte offsets from the start of the view, never
 * pointers; all integers little-endian, doubles IEEE 754 binary64; every
 * structure is naturally aligned and every section starts 8-byte aligned):
 *
 *   struct osp_view_header
 *   struct osp_view_section[nsections]        the table of contents
 *   sections, in any order                    each: count elements of
 *                                             elem_size bytes, with a CRC-32
 *
 * A reader must check, before using anything: the magic, byte_order,
 * version (major must match; a newer minor may add sections or grow
 * elements at their end), header_size, that the section table and every
 * section lie inside `size', that elem_size is at least the size the reader
 * knows (it reads only the fields it knows, striding by elem_size), the
 * CRC of every section it uses, and every reference inside a section
 * (string offsets inside STRINGS and NUL-terminated there, block indices
 * below the BLOCKS count, every block inside its function's range and
 * numbered by its place there, id runs inside IDS, parents before
 * children), and the limits below (string length, forest depth).
 * Unknown section kinds are skipped.  A view that fails a check is refused
 * with one message naming the problem; nothing in it is trusted.
 *
 * Sections (at most one of each kind):
 *   STRINGS  bytes; a string is the offset of its first byte in the section
 *            (NUL-terminated); offset 0 is the empty string
 *   RUN      one struct osp_vrun: the process, the options, the totals
 *   FUNCS    struct osp_vfn per registered function
 *   BLOCKS   struct osp_vblock per block of every function, functions in
 *            FUNCS order (a function's blocks are [block0, block0+nblocks),
 *            block k of them numbered k)
 *   IDS      uint32 block indices (into BLOCKS): the blocks of subpaths,
 *            paths and forest nodes, each a run [ids, ids + len)
 *   SUBPATHS struct osp_vsubpath per hot subpath, ranked (rank 1 first);
 *            minor 4 grew the element by the runtime's ranked flag and
 *            each entry's evidence (its table's threshold, the scale of
 *            one offer, the estimator); elements of older views are
 *            OSP_VSUBPATH_SIZE_1_3 bytes and a reader accepts them
 *   PATHS    struct osp_vpath per Ball-Larus path, ranked; minor 5 grew
 *            the element by the runtime's ranked flag (elements of older
 *            views are OSP_VPATH_SIZE_1_4 bytes and a reader accepts them)
 *   FOREST   struct osp_vforest per prefix-forest node, in preorder (trees
 *            hottest first, children hottest first; a parent before its
 *            children), as the report shows them; minor 5 grew the element
 *            by the runtime's ranked flag (older: OSP_VFOREST_SIZE_1_4)
 *   STATS    struct osp_vstat per statistic, in report order
 *   EDGES    struct osp_vedge per control-flow edge of every function (the
 *            plugin's successor lists: normal, abnormal and EH edges),
 *            grouped by source block in BLOCKS order (minor 1; a view
 *            without it simply has no edges to draw)
 *   FNSRC    struct osp_vfnsrc per function, in FUNCS order: the size and
 *            SHA-256 of its source file as compiled and the compile's
 *            directory (minor 2).  ospview shows a file's text only when
 *            the file on disk has that size and digest; a view without
 *            FNSRC (or a function without a digest) shows no source text
 *   COSTS    uint32 per block, in BLOCKS order: the plugin's estimated cost
 *            of one execution of the block (osp/abi.h `costs') (minor 3).
 *            A row's work is its estimate times the sum of its blocks'
 *            costs; a view without COSTS weighs every block 1
 *   FNWORK   struct osp_vfnwork per function, in FUNCS order: its own
 *            blocks' executions and work over the whole run (minor 3); a
 *            view without it has no per-function work
 *   BLINES   struct osp_vblines per block, in BLOCKS order: where its
 *            statement lines are in LINES (minor 4)
 *   LINES    uint32 source lines: each block's statement lines that are
 *            not simply every line of its range, ascending (minor 4).  A
 *            view without BLINES takes every line of a block's range
 *            (ospview --annotate then also covers the comments and
 *            `#if 0' lines inside it)
 */
#ifndef OSP_VIEW_H
#define OSP_VIEW_H

#include <stdint.h>

#define OSP_VIEW_MAGIC "OSPVIEW\001" /* 8 bytes, no NUL needed */
#define OSP_VIEW_MAJOR 1u
#define OSP_VIEW_MINOR 5u
#define OSP_VIEW_BYTE_ORDER 0x01020304u

/* "Not known" for counts and lines; "none" for parents. */
#define OSP_VIEW_NONE UINT64_MAX
#define OSP_VIEW_NO_PARENT UINT32_MAX
/* An edge's destination "the function's exit". */
#define OSP_VIEW_EXIT UINT32_MAX

/* Limits a reader enforces (a view past them is refused, whatever its
   checksums say): no string longer than OSP_VIEW_STR_MAX bytes before its
   NUL (the runtime cuts names, files, the program, its arguments and
   OSP_OPTIONS at 4096 bytes), and no forest node deeper than
   OSP_VIEW_MAX_DEPTH (the runtime's forest_k is at most 64, so its deepest
   node is at depth 63).  They keep every reader's time and memory linear
   in the view: a row's text repeats its functions' names, and a forest
   node's diff key and chain text repeat its ancestors'. */
#define OSP_VIEW_STR_MAX 4096u
#define OSP_VIEW_MAX_DEPTH 63u

enum osp_view_kind
{
  OSP_VS_STRINGS = 1,
  OSP_VS_RUN = 2,
  OSP_VS_FUNCS = 3,
  OSP_VS_BLOCKS = 4,
  OSP_VS_IDS = 5,
  OSP_VS_SUBPATHS = 6,
  OSP_VS_PATHS = 7,
  OSP_VS_FOREST = 8,
  OSP_VS_STATS = 9,
  OSP_VS_EDGES = 10,
  OSP_VS_FNSRC = 11,
  OSP_VS_COSTS = 12,
  OSP_VS_FNWORK = 13,
  OSP_VS_BLINES = 14,
  OSP_VS_LINES = 15
};

struct osp_view_header
{
  char magic[8];        /* OSP_VIEW_MAGIC */
  uint32_t byte_order;  /* OSP_VIEW_BYTE_ORDER as the writer stored it */
  uint16_t major, minor;
  uint32_t header_size; /* sizeof (struct osp_view_header) of the writer */
  uint32_t nsections;   /* entries in the table after the header */
  uint64_t size;        /* bytes of the whole view */
  uint64_t time_ns;     /* CLOCK_REALTIME when the profile was taken */
  uint64_t seq;         /* the writer's view number (publishes so far) */
};

struct osp_view_section
{
  uint32_t kind;      /* enum osp_view_kind */
  uint32_t elem_size; /* bytes per element (1 for STRINGS) */
  uint64_t offset;    /* from the view's start, 8-aligned */
  uint64_t count;     /* elements */
  uint32_t crc32;     /* CRC-32 (IEEE, as zlib's crc32) of the count x
                         elem_size bytes */
  uint32_t reserved;  /* 0 */
};

/* The process and how it is profiled (strings are STRINGS offsets). */
struct osp_vrun
{
  int64_t pid;
  uint64_t start_ns;    /* CLOCK_REALTIME at runtime start-up */
  uint64_t instance_id; /* random per runtime start (tells PID reuse apart) */
  uint32_t program;     /* the executable's path (/proc/self/exe) */
  uint32_t args;        /* the command line, arguments separated by spaces */
  uint32_t options;     /* OSP_OPTIONS as given ("" if unset) */
  uint32_t mode;        /* "subpaths", "subpaths-exact", "blocks", "off" */
  uint32_t paths;       /* path policy, or "" when no path section */
  uint32_t forest;      /* forest policy, or "" when no forest */
  uint32_t exited;      /* 1: taken at exit (the last view) */
  uint32_t pad;
  uint64_t blocks_seen; /* subpath modes: blocks passed (a length-L
                           subpath share's denominator is blocks_seen -
                           L + 1, or its class's sum); mode=blocks:
                           entries */
  uint64_t path_ends;   /* Ball-Larus path ends passed */
  double path_scale;    /* estimate of one path sample */
  double forest_scale;  /* estimate of one forest count */
  uint32_t forest_k;
  uint32_t pad2;
};

struct osp_vfn
{
  uint32_t id;          /* the runtime's function id (fid of tsv reports) */
  uint32_t name;        /* string */
  uint32_t file;        /* string */
  uint32_t first_line;
  uint32_t block0;      /* its first block in BLOCKS */
  uint32_t nblocks;
  uint64_t calls;       /* entries of block 0, or OSP_VIEW_NONE */
};

struct osp_vblock
{
  uint32_t fn;          /* index into FUNCS */
  uint32_t block;       /* the block's number in its function */
  uint32_t first_line, last_line; /* 0: no line */
  uint64_t count;       /* entries (mode=blocks), or OSP_VIEW_NONE */
};

/* The fields after `share' came with minor 4: a view of minor 3 or older
   has elements of OSP_VSUBPATH_SIZE_1_3 bytes, so a reader must not touch
   them through a pointer to such an element (viewparse.h's
   view_subpath_ranked and view_subpath_evidence do it for it). */
struct osp_vsubpath
{
  uint64_t ids;         /* index of its first block in IDS */
  uint32_t len;         /* blocks */
  uint32_t rank;
  uint64_t count;       /* hot-list count c (exact: the count) */
  /* share: a fraction of the subpaths of its length (doc/osp.md); an
     entry with err95 > estimate has too few samples to rank and comes
     after the ranked ones (libosprt/collect/shares.c) */
  double estimate, err95, share;
  /* minor 4: what the estimate rests on (libosprt/collect/estimate.c), so
     that a reader can tell the evidence gathered between two views of
     one process (ospview's recent mode, doc/ACCURACY.md) */
  double threshold;     /* tau of its hot-list table (1 when exact) */
  double scale;         /* occurrences one offer stands for: 1 / (q P(L));
                           0 when exact or not known */
  uint64_t error;       /* Space-Saving: the over-count it took over when
                           it got in (its count's part that is not its
                           own); 0 for the other estimators */
  uint32_t flags;       /* OSP_VSUB_RANKED */
  uint32_t estimator;   /* enum osp_vsub_estimator */
};

/* Bytes of an osp_vsubpath up to `share': the element of minor 0 to 3. */
#define OSP_VSUBPATH_SIZE_1_3 48u

/* osp_vsubpath.flags */
#define OSP_VSUB_RANKED 1u /* ranked among the hot (the runtime's rule,
                              shares.c); else rank `-' in the tsv report */
/* osp_vpath.flags and osp_vforest.flags (minor 5): the same bit, the tsv
   report's rank `-' of a path and `ranked' 0 of a forest node */
#define OSP_VROW_RANKED OSP_VSUB_RANKED

/* How an entry's estimate was made from its count (estimate.c): N = ... */
enum osp_vsub_estimator
{
  OSP_VSUB_EST_UNKNOWN = 0,  /* (a merged view's rows, a newer writer's) */
  OSP_VSUB_EST_CONCISE = 1,  /* c tau scale */
  OSP_VSUB_EST_SPACE_SAVING = 2, /* (c - error/2) tau scale */
  OSP_VSUB_EST_EXACT = 3,    /* c */
  OSP_VSUB_EST_COUNTING = 4  /* (c + tau - 1) scale */
};

/* The fields after `rank' came with minor 5 (OSP_VPATH_SIZE_1_4: the
   element before; viewparse.h's view_path_ranked reads either). */
struct osp_vpath
{
  uint64_t ids;         /* its blocks in IDS */
  uint32_t len;
  uint32_t fn;          /* index into FUNCS */
  uint64_t id;          /* the Ball-Larus path id */
  uint64_t samples;
  double estimate, err95, share;
  uint32_t branches;
  uint32_t rank;
  uint32_t flags;       /* minor 5: OSP_VROW_RANKED */
  uint32_t pad;
};

/* Bytes of an osp_vpath up to `rank': the element of minor 0 to 4. */
#define OSP_VPATH_SIZE_1_4 64u

struct osp_vforest
{
  uint64_t ids;         /* the node's own path's blocks in IDS */
  uint32_t len;
  uint32_t fn;          /* index into FUNCS */
  uint32_t parent;      /* index into FOREST, or OSP_VIEW_NO_PARENT */
  uint32_t depth;       /* 0 for a root */
  uint64_t id;          /* the node's Ball-Larus path id */
  uint64_t count;
  double estimate, err95, share; /* share: a fraction of the parent's */
  uint32_t flags;       /* minor 5: OSP_VROW_RANKED (a node too uncertain
                           to rank keeps its place in the preorder) */
  uint32_t pad;
};

/* Bytes of an osp_vforest up to `share': the element of minor 0 to 4. */
#define OSP_VFOREST_SIZE_1_4 64u

struct osp_vedge
{
  uint32_t from;        /* source block, index into BLOCKS */
  uint32_t to;          /* destination block of the same function (index
                           into BLOCKS), or OSP_VIEW_EXIT */
  uint32_t flags;       /* enum osp_edge_flags of osp/abi.h (back, abnormal,
                           EH, fallthru, true, false) */
  uint32_t pad;
};

/* osp_vfnsrc.flags */
#define OSP_VSRC_DIGEST 1u /* size and sha256 are known (else: the plugin
                              could not read the file, show no text) */

struct osp_vfnsrc
{
  uint32_t comp_dir;    /* string: the compile's working directory, the
                           one a relative `file' is relative to ("") */
  uint32_t flags;       /* OSP_VSRC_DIGEST, or 0 */
  uint64_t size;        /* bytes of the file as compiled */
  uint8_t sha256[32];   /* their SHA-256 */
};

/* A block's statement lines (osp/abi.h `lines'): LINES[at, at + n),
   ascending, the first being its first_line and the last its last_line,
   when n > 0; every line of first_line .. last_line when n is 0 (none
   when first_line is 0). */
struct osp_vblines
{
  uint32_t at;          /* index into LINES */
  uint32_t n;           /* 0, or at least 2 */
};

/* A function's self figures: the executions of its blocks and their work
   (executions x cost), both estimates: from the exact block counts when
   the view's mode is blocks, else from the Ball-Larus path estimates (each
   path's estimate times its blocks and their costs), 0 when the function
   has neither.  Shares are of the sums over FNWORK. */
struct osp_vfnwork
{
  double execs;         /* block executions */
  double work;          /* sum over its blocks of executions x cost */
};

enum osp_vstat_kind { OSP_VSTAT_U64 = 0, OSP_VSTAT_F64 = 1, OSP_VSTAT_STR = 2 };

struct osp_vstat
{
  uint32_t name;        /* string: the tsv report's stat name */
  uint32_t kind;        /* enum osp_vstat_kind */
  uint64_t value;       /* U64; F64 as its bits; STR a string offset */
};

#endif

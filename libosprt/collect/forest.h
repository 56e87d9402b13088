/* SPDX-License-Identifier: MIT */
/* forest.h - the prefix-forest module (forest.c): k-BLPP's k-slab forest
 * (k-SF) built online from a stream of 64-bit labels, in a bounded node
 * pool with on-the-fly pruning of cold subtrees, and the k-Iterations Path
 * Forest (k-IPF: the prefix forest of every n-gram, n <= k, that contains
 * no marker) derived from one or several k-SFs on demand.
 *
 * Reference: D'Elia, Demetrescu, "Ball-Larus path profiling across
 * multiple loop iterations" (k-BLPP), Definitions 2-3, Figure 6
 * (process_bl_path_id) and Figure 7 (make_k_ipf, join_subtree); see
 * forest.c for the algorithm and the pruning guarantee.
 *
 * The runtime (pathforest.c) keeps one osp_kslab + osp_forest_pool per
 * thread, packs (function id, Ball-Larus path id) into a label, and keeps
 * one cursor per routine activation on the k-SF's frame stack (enter at a
 * routine's first path, leave at its last), so that the n-grams are runs
 * of consecutive paths of one activation, not of the thread's interleaved
 * stream.  Nothing here locks: the caller serialises the pushes and the
 * k-IPF builds of one k-SF (a build only reads it).
 */
#ifndef OSP_FOREST_H
#define OSP_FOREST_H

#include <stddef.h>
#include <stdint.h>

/* The reserved label: "routine entry" (the paper's `*').  No n-gram
   crosses it; it is never stored. */
#define OSP_FOREST_MARKER UINT64_MAX
/* Largest k accepted (the k-SF is at most 2k-2 levels deep). */
#define OSP_FOREST_KMAX 64

/* A k-SF node: first-child/next-sibling (paper section 3.3), indices into
   the pool (0 = none).  A root has no siblings, so its `sib' links it in
   its hash bucket instead; a free node's `sib' links the free list.
   `count' is an END count: how many stream items were counted at this
   node (each item is counted at exactly one node, see forest.c). */
struct osp_fnode
{
  uint64_t label;
  uint64_t count;
  uint32_t child;
  uint32_t sib;
};

struct osp_kslab;

/* The position of one stream piece in the k-SF (Figure 6's n, tau, beta),
   one per routine activation.  top/bot's whole root paths are kept so
   that pruning can spare them (pinning) without parent pointers.  A
   cursor is OSP_KCURSOR_BYTES (k) long: path[] holds top's root path
   (levels 0..k-2) at [0, k) and bot's (levels 0..2k-3) at [k, 3k). */
struct osp_kcursor
{
  uint64_t n;        /* items since the marker */
  uint64_t tag;      /* the caller's (which activation this is) */
  uint32_t top, bot; /* current nodes, 0 = none (or lost, see forest.c) */
  uint16_t phase;    /* items since the last chunk boundary, 0..k-2 */
  uint16_t top_depth, bot_depth, pad;
  uint32_t path[];
};
#define OSP_KCURSOR_BYTES(k) \
  ((sizeof (struct osp_kcursor) + 12 * (size_t) (k) + 7) & ~(size_t) 7)

/* The node budget of one stream.  Everything lives in one buffer of
   `bytes' (one mmap, or the caller's): the root hash buckets and the
   node array; nothing is allocated afterwards. */
struct osp_forest_pool
{
  struct osp_fnode *nodes; /* nodes[0] unused (index 0 = none) */
  uint32_t cap;            /* node slots, including slot 0 */
  uint32_t bump;           /* slots ever handed out (next fresh slot) */
  uint32_t free_head;      /* free list through `sib' */
  uint32_t used, peak;     /* live nodes, most ever live */
  uint32_t *buckets;       /* root hash: heads of chains through `sib' */
  unsigned bucket_bits;
  void *map;               /* our mapping, or NULL (caller's buffer) */
  size_t bytes;            /* the budget (mapping or buffer length) */
  struct osp_kslab *owner; /* the one stream using the pool */
  /* Pruning (forest.c): the current coldness threshold, and what was
     removed so far. */
  uint64_t threshold;
  uint64_t pruned_nodes, pruned_mass, prune_passes, prunes;
  uint64_t mass; /* sum of the live nodes' counts */
};

/* The k-SF builder of one stream: the pool and a stack of cursors (frames)
   of which the top one is current. */
struct osp_kslab
{
  struct osp_forest_pool *pool;
  unsigned k;
  struct osp_kcursor *cur; /* frames[depth - 1] */
  unsigned char *frames;   /* nframes cursors of frame_bytes */
  size_t frame_bytes;
  unsigned depth, nframes; /* 1 <= depth <= nframes */
  uint64_t over;           /* refused enters not left yet (on the top) */
  uint64_t items, context, markers, hash_accesses, child_finds, child_scans;
  uint64_t dropped, deep;
};

struct osp_forest_stats
{
  uint64_t items;         /* labels counted (markers excluded) */
  uint64_t context;       /* labels pushed as context only (not counted) */
  uint64_t markers;       /* markers, activations entered included */
  uint64_t deep;          /* activations entered with every frame in use */
  uint64_t hash_accesses; /* root lookups (every k-1 items after a marker) */
  uint64_t child_finds;   /* child lookups (lines 13 and 21 of Figure 6) */
  uint64_t child_scans;   /* siblings examined by those lookups */
  uint64_t nodes_used, nodes_peak, nodes_cap;
  uint64_t pruned_nodes, pruned_mass, prune_passes, prunes;
  uint64_t dropped;       /* items that found no node even after pruning */
  uint64_t threshold;     /* current prune threshold (0: never pruned) */
  uint64_t mass;          /* counts still held: items = mass+pruned+dropped */
};

/* BUF == NULL: map BYTES privately (MAP_NORESERVE).  Otherwise use the
   caller's BUF (8-byte aligned) of BYTES.  -1 if BYTES is too small for
   a few nodes or the mapping fails. */
int osp_forest_pool_init (struct osp_forest_pool *p, void *buf, size_t bytes);
/* The same for a BUF known to be zero already (a fresh anonymous mapping):
   its pages are then only touched as nodes are made. */
int osp_forest_pool_init_zeroed (struct osp_forest_pool *p, void *buf,
                                 size_t bytes);
void osp_forest_pool_destroy (struct osp_forest_pool *p);
/* The part of the budget the geometry uses (<= bytes). */
size_t osp_forest_pool_footprint (const struct osp_forest_pool *p);

/* 1 <= K <= OSP_FOREST_KMAX; POOL must be empty and unowned; FRAMES
   holds NFRAMES >= 1 cursors of OSP_KCURSOR_BYTES (K) (8-byte aligned).
   -1 else.  The stream starts with one fresh cursor. */
int osp_kslab_init (struct osp_kslab *s, struct osp_forest_pool *pool,
                    unsigned k, void *frames, unsigned nframes);
/* One stream item on the current cursor: a label (counted), or
   OSP_FOREST_MARKER (the cursor starts a new piece). */
void osp_kslab_push (struct osp_kslab *s, uint64_t item);
/* A label that only extends the current piece (context): its nodes are
   made but nothing is counted, so no n-gram ending at it is reported. */
void osp_kslab_context (struct osp_kslab *s, uint64_t item);
/* A routine activation begins: a fresh cursor tagged TAG above the
   current one (which is suspended, and still pinned).  With every frame
   in use the current cursor is restarted instead (counted in `deep', and
   in `over' until the matching leave, which then restarts it again rather
   than resume the frame below: that belongs to an older activation).
   Returns 0, or -1 in that case. */
int osp_kslab_enter (struct osp_kslab *s, uint64_t tag);
/* The current activation ends: back to the suspended cursor below; the
   bottom frame is restarted instead (a fresh piece). */
void osp_kslab_leave (struct osp_kslab *s);
/* Forget every activation: one fresh cursor (tag 0) on the bottom frame. */
void osp_kslab_reset (struct osp_kslab *s);
/* Frame I (0 = bottom, depth - 1 = current). */
static inline struct osp_kcursor *
osp_kslab_frame (const struct osp_kslab *s, unsigned i)
{
  return (struct osp_kcursor *) (s->frames + (size_t) i * s->frame_bytes);
}
void osp_kslab_stats (const struct osp_kslab *s, struct osp_forest_stats *st);

/* ---- the k-IPF (Figure 7) ---- */

struct osp_ipf_node
{
  uint64_t label;
  uint64_t count; /* occurrences of the n-gram root..this node */
  uint32_t child, sib;
  uint32_t hnext; /* roots only, while building: hash chain */
  uint32_t pad;
};

/* The output: node 0 is the paper's dummy root, its children are the
   trees (one per label); every sibling list is sorted by count, highest
   first (equal counts by label). */
struct osp_ipf
{
  struct osp_ipf_node *nodes;
  uint32_t cap, used; /* used includes the dummy root */
  uint32_t *buckets;
  unsigned bucket_bits;
  unsigned depth;     /* n-grams up to this length */
  void *map;
  size_t bytes;
  uint64_t truncated; /* nodes the budget could not hold (then -1) */
  const uint64_t *only; /* osp_ipf_build_top: the trees built (sorted) */
  size_t nonly;
  uint32_t ranked;    /* osp_ipf_build_top when it left trees out: the
                         trees whose root counted (else 0) */
};

int osp_ipf_init (struct osp_ipf *f, void *buf, size_t bytes);
void osp_ipf_destroy (struct osp_ipf *f);
/* Replace F's contents with the DEPTH-IPF of the N streams KS (merged:
   counts add up).  DEPTH 0 means the smallest k among KS; a larger DEPTH
   is clamped to it.  Only reads the k-SFs (callable at any moment of the
   streams).  0, or -1 if F's budget was too small (F then holds a
   prefix-closed part of the result: every node present has its exact
   count, some subtrees are missing; see `truncated'). */
int osp_ipf_build (struct osp_ipf *f, const struct osp_kslab *const *ks,
                   unsigned n, unsigned depth);
/* The same, but only the TOP trees whose roots count most (equal counts:
   the smaller label) are built: a 1-IPF first ranks the labels, then
   only their trees are joined.  Those trees are exactly osp_ipf_build's
   first TOP trees; the others are absent.  When at most TOP roots have a
   count, the whole forest is built.  For live views (a publish shows
   report_top trees): joining is most of a k-IPF's cost, the ranking
   pass one root lookup per k-SF node. */
int osp_ipf_build_top (struct osp_ipf *f, const struct osp_kslab *const *ks,
                       unsigned n, unsigned depth, uint32_t top);

#endif

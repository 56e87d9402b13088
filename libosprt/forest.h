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
 * Not yet wired into the runtime: the caller (a later pathsample.c change)
 * will keep one osp_kslab + osp_forest_pool per stream (thread or
 * activation) and pack (function index, Ball-Larus path id) into a label.
 * Nothing here locks: a pool and its stream belong to one thread; building
 * a k-IPF only reads the k-SFs, so it may run while the owner is paused.
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

/* The k-SF builder of one stream (Figure 6's state).  top/bot are the
   paper's tau (upper part, levels 0..k-2) and beta (lower part, levels
   k-1..2k-3); their whole root paths are kept so that pruning can spare
   them (pinning) without parent pointers. */
struct osp_kslab
{
  struct osp_forest_pool *pool;
  unsigned k;
  unsigned phase;  /* items since the last chunk boundary, 0..k-2 */
  uint64_t n;      /* items since the last marker */
  uint32_t top, bot; /* current nodes, 0 = none (or lost, see forest.c) */
  unsigned top_depth, bot_depth;
  uint32_t top_path[OSP_FOREST_KMAX];
  uint32_t bot_path[2 * OSP_FOREST_KMAX];
  uint64_t items, markers, hash_accesses, child_finds, child_scans, dropped;
};

struct osp_forest_stats
{
  uint64_t items;         /* labels pushed (markers excluded) */
  uint64_t markers;
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
void osp_forest_pool_destroy (struct osp_forest_pool *p);
/* The part of the budget the geometry uses (<= bytes). */
size_t osp_forest_pool_footprint (const struct osp_forest_pool *p);

/* 1 <= K <= OSP_FOREST_KMAX; POOL must be empty and unowned.  -1 else. */
int osp_kslab_init (struct osp_kslab *s, struct osp_forest_pool *pool,
                    unsigned k);
/* One stream item: a label, or OSP_FOREST_MARKER at routine entry. */
void osp_kslab_push (struct osp_kslab *s, uint64_t item);
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

#endif

/* SPDX-License-Identifier: MIT */
/* forest.c - k-BLPP's k-slab forest with bounded memory, and the k-IPF.
 *
 * Reference: D'Elia, Demetrescu, "Ball-Larus path profiling across
 * multiple loop iterations" (k-BLPP): Definition 2 (k-IPF), Definition 3
 * (k-SF), Figure 6 (process_bl_path_id), Figure 7 (make_k_ipf and
 * join_subtree), section 4 (the eclipse worst case: many sibling scans;
 * the out-of-memory runs; "prune cold nodes on-the-fly", left open).
 *
 * The k-SF (osp_kslab_push = Figure 6).  The stream is split at markers
 * and each piece cut into chunks of k-1 items.  Chunk c's items form a
 * path from a root (the chunk's first label, found in the root hash: the
 * only hash access, once per k-1 items) through the UPPER part (levels
 * 0..k-2, pointer `top', the paper's tau); the items of chunk c+1 are also
 * appended below the last node of chunk c, in the LOWER part (levels
 * k-1..2k-3, pointer `bot', beta).  So an item touches at most two nodes
 * (one child lookup each).  Each item is COUNTED at exactly one of them:
 * at `bot' when it exists (the item is at least k-1 after the marker),
 * else at `top' (the first chunk).  That node's root path is the stream
 * window ending at the item, min(k, n+1) labels long at least (n = items
 * since the marker), so every n-gram (n <= k) ending at the item lies on
 * it and is counted once by Figure 7.  k = 1 has no chunks: every item is
 * a root, counted there (plain Ball-Larus counts).
 *
 * Activations (an extension: the paper splits one thread stream at routine
 * entries, so a loop whose body calls a routine never forms an n-gram).
 * The k-SF keeps a stack of cursors (frames); osp_kslab_enter suspends
 * the current piece and starts a fresh one (a marker) for the callee,
 * osp_kslab_leave resumes the caller's, whose n-grams then continue across
 * the call.  All pieces share the one forest; counts are additive, so the
 * result is the k-SF of the concatenation of the activations' pieces.
 *
 * Context items (osp_kslab_context) move a cursor and make its nodes but
 * count nothing: a sampled burst (pathforest.c) starts with some, so that
 * every n-gram counted in it has all its items inside the burst.
 *
 * Fast children (the paper's suggested fix for eclipse): a child found by
 * a lookup moves to the front of its parent's list (and a root to the
 * front of its bucket), so a hot child is found after few scans;
 * child_finds / child_scans count the work.
 *
 * Bounded memory.  All of a stream's nodes come from its pool: one buffer
 * (one mmap, or the caller's) of a fixed byte budget holding the root hash
 * buckets (2 bytes per node) and the node array (24 bytes per node); a
 * free list recycles pruned nodes; nothing else is ever allocated, so the
 * budget cannot be exceeded.  When no node is left, prune() runs:
 *   - the MASS of a node is the sum of the counts in its subtree (the
 *     items counted below it); mass never increases down a tree;
 *   - a pass with threshold T removes every node whose mass is < T, i.e.
 *     all maximal subtrees of mass < T (a downward-closed set), except the
 *     nodes on the root paths of every frame's `top' and `bot' (pinned:
 *     the stream is still extending them, or will once a suspended
 *     activation resumes);
 *   - T starts at 1 (nodes that hold nothing, e.g. the upper path of a
 *     chunk whose lower continuation never came) and doubles until a pass
 *     frees at least 1/8 of the pool (so pruning is amortised) or T
 *     exceeds the whole mass (everything unpinned is gone).  The final T
 *     stays as the pool's threshold; the next pruning starts from it.
 *   - the counts removed are added to pruned_mass, the nodes to
 *     pruned_nodes.
 * An item that needs a node when even pruning finds none is DROPPED
 * (counted in `dropped'); a path of the stream that lost its node is
 * "lost" until the next chunk boundary/marker re-anchors it (its later
 * items that would be counted there are dropped too).  Always:
 *     items = mass (counts in the forest) + pruned_mass + dropped.
 *
 * The guarantee (tested by t_forest): let LOST = pruned_mass + dropped,
 * true(g) the number of occurrences of n-gram g in the stream so far and
 * rep(g) its count in a k-IPF built now (0 if absent).  Then
 *   (1) rep(g) <= true(g): nothing is ever overcounted (a node present
 *       keeps its whole root path, so every count it holds is a real
 *       window of the stream);
 *   (2) for every n <= k, the sum over n-grams g of true(g) - rep(g) is
 *       <= LOST, with equality for n = 1: each lost item loses exactly
 *       the (at most one per length) n-grams ending at it;
 *   (3) hence every n-gram with true(g) > LOST is present, and its error
 *       is at most LOST; with LOST = 0 the k-IPF is exact.
 * The prune threshold T is NOT a per-n-gram bound: an n-gram's occurrences
 * are spread over many k-SF nodes (one per prefix and chunk alignment),
 * each of which may be cold while the n-gram is hot.  What T does say:
 * at the moment of each pass, only subtrees of mass < T were removed.
 * Also, once something was lost, counts need not decrease down a k-IPF
 * tree any more (a window may survive while the one ending an item
 * earlier, counted in another tree, was pruned).
 *
 * The k-IPF (osp_ipf_build = Figure 7).  For every k-SF node rho (any
 * depth), join_subtree adds the subtree of rho, depth-limited to k levels,
 * under the k-IPF root labelled rho's label, adding each node's count to
 * the k-IPF node of the same label path.  The paper groups the nodes by
 * label first (for locality); a root hash in the output gives the same
 * result without that pass.  Several streams simply join into the same
 * output.  The k-SFs are only read.  Sibling lists are then merge-sorted
 * by count, highest first.
 */
#define _GNU_SOURCE
#include "forest.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define NODE_BYTES (sizeof (struct osp_fnode))

static unsigned
hash_of (uint64_t label, unsigned bits)
{
  uint64_t h = label * 0x9e3779b97f4a7c15u;
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9u;
  return (unsigned) (h >> (64 - bits));
}

/* Split BYTES into 2^bits uint32 buckets (about 1 per 2 nodes) and as
   many NODE-sized slots as fit after them. */
static int
geometry (size_t bytes, size_t node_bytes, unsigned *bits, uint32_t *cap)
{
  unsigned b = 1;
  while (((size_t) 2 << b) * (4 + 2 * node_bytes) <= bytes && b < 30)
    b++;
  size_t rest = bytes - ((size_t) 4 << b);
  if ((size_t) 4 << b > bytes || rest / node_bytes < 4)
    return -1;
  size_t c = rest / node_bytes;
  if (c > UINT32_MAX - 1)
    c = UINT32_MAX - 1;
  *bits = b;
  *cap = (uint32_t) c;
  return 0;
}

static void *
map_or_buf (void *buf, size_t bytes, void **map)
{
  *map = NULL;
  if (buf)
    return buf;
  void *m = mmap (NULL, bytes, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED)
    return NULL;
  *map = m;
  return m;
}

/* ---- the pool -------------------------------------------------------- */

static int
pool_init (struct osp_forest_pool *p, void *buf, size_t bytes, int zeroed)
{
  memset (p, 0, sizeof *p);
  unsigned bits;
  uint32_t cap;
  if (geometry (bytes, NODE_BYTES, &bits, &cap) < 0)
    return -1;
  char *m = map_or_buf (buf, bytes, &p->map);
  if (m == NULL)
    return -1;
  p->bytes = bytes;
  p->bucket_bits = bits;
  p->buckets = (uint32_t *) m;
  /* the node array after the buckets (a multiple of 8 bytes: bits >= 1) */
  p->nodes = (struct osp_fnode *) (m + ((size_t) 4 << bits));
  p->cap = cap;
  p->bump = 1; /* slot 0 is "none" */
  if (buf && !zeroed) /* a mapping is zero already */
    memset (p->buckets, 0, (size_t) 4 << bits);
  return 0;
}

int
osp_forest_pool_init (struct osp_forest_pool *p, void *buf, size_t bytes)
{
  return pool_init (p, buf, bytes, 0);
}

int
osp_forest_pool_init_zeroed (struct osp_forest_pool *p, void *buf,
                             size_t bytes)
{
  return pool_init (p, buf, bytes, 1);
}

void
osp_forest_pool_destroy (struct osp_forest_pool *p)
{
  if (p->map)
    munmap (p->map, p->bytes);
  memset (p, 0, sizeof *p);
}

size_t
osp_forest_pool_footprint (const struct osp_forest_pool *p)
{
  return ((size_t) 4 << p->bucket_bits) + (size_t) p->cap * NODE_BYTES;
}

static void
node_free (struct osp_forest_pool *p, uint32_t i)
{
  p->nodes[i].sib = p->free_head;
  p->free_head = i;
  p->used--;
}

/* ---- pruning --------------------------------------------------------- */

/* Pinned nodes (on the root path of some frame's top or bot: the stream
   is still extending them, or will when a suspended activation resumes)
   carry PIN in their count during a prune; counts never come near it. */
#define PIN ((uint64_t) 1 << 63)

static void
pin_frames (struct osp_kslab *s, uint64_t set)
{
  struct osp_fnode *nd = s->pool->nodes;
  for (unsigned f = 0; f < s->depth; f++)
    {
      const struct osp_kcursor *c = osp_kslab_frame (s, f);
      if (c->top)
        for (unsigned d = 0; d <= c->top_depth; d++)
          nd[c->path[d]].count = (nd[c->path[d]].count & ~PIN) | set;
      if (c->bot)
        for (unsigned d = 0; d <= c->bot_depth; d++)
          nd[c->path[s->k + d]].count
            = (nd[c->path[s->k + d]].count & ~PIN) | set;
    }
}

/* Prune below V with threshold T; V's mass (before the pass).  Children
   are done first, so a child whose mass is < T has lost all its
   descendants already (their masses are smaller still, and none is pinned
   or the child would be) and goes alone. */
static uint64_t
prune_below (struct osp_forest_pool *p, uint32_t v, uint64_t t)
{
  uint64_t mass = p->nodes[v].count & ~PIN;
  uint32_t *link = &p->nodes[v].child;
  while (*link)
    {
      uint32_t c = *link;
      uint64_t m = prune_below (p, c, t);
      mass += m;
      if (m < t && !(p->nodes[c].count & PIN))
        {
          *link = p->nodes[c].sib;
          p->pruned_mass += p->nodes[c].count;
          p->mass -= p->nodes[c].count;
          p->pruned_nodes++;
          node_free (p, c);
        }
      else
        link = &p->nodes[c].sib;
    }
  return mass;
}

static void
prune_pass (struct osp_forest_pool *p, uint64_t t)
{
  p->prune_passes++;
  for (uint32_t b = 0; b < (1u << p->bucket_bits); b++)
    {
      uint32_t *link = &p->buckets[b];
      while (*link)
        {
          uint32_t r = *link;
          uint64_t m = prune_below (p, r, t);
          if (m < t && !(p->nodes[r].count & PIN))
            {
              *link = p->nodes[r].sib;
              p->pruned_mass += p->nodes[r].count;
              p->mass -= p->nodes[r].count;
              p->pruned_nodes++;
              node_free (p, r);
            }
          else
            link = &p->nodes[r].sib;
        }
    }
}

static void
prune (struct osp_kslab *s)
{
  struct osp_forest_pool *p = s->pool;
  uint32_t target = p->cap / 8 ? p->cap / 8 : 1;
  uint32_t before = p->used;
  if (p->threshold == 0)
    p->threshold = 1;
  p->prunes++;
  pin_frames (s, PIN);
  for (;;)
    {
      prune_pass (p, p->threshold);
      if (before - p->used >= target || p->threshold > p->mass)
        break;
      p->threshold *= 2;
    }
  pin_frames (s, 0);
}

/* A fresh node (zeroed, labelled), pruning if the pool is exhausted; 0
   when even that leaves nothing. */
static uint32_t
node_new (struct osp_kslab *s, uint64_t label)
{
  struct osp_forest_pool *p = s->pool;
  uint32_t i;
  if (p->free_head == 0 && p->bump >= p->cap)
    prune (s);
  if (p->free_head)
    {
      i = p->free_head;
      p->free_head = p->nodes[i].sib;
    }
  else if (p->bump < p->cap)
    i = p->bump++;
  else
    return 0;
  p->nodes[i] = (struct osp_fnode) { label, 0, 0, 0 };
  if (++p->used > p->peak)
    p->peak = p->used;
  return i;
}

/* ---- the k-SF (Figure 6) --------------------------------------------- */

static void
cursor_fresh (struct osp_kcursor *c, uint64_t tag)
{
  c->n = 0;
  c->tag = tag;
  c->top = c->bot = 0;
  c->phase = c->top_depth = c->bot_depth = 0;
}

int
osp_kslab_init (struct osp_kslab *s, struct osp_forest_pool *pool,
                unsigned k, void *frames, unsigned nframes)
{
  if (k < 1 || k > OSP_FOREST_KMAX || pool->nodes == NULL || pool->owner
      || pool->used || frames == NULL || nframes < 1)
    return -1;
  memset (s, 0, sizeof *s);
  s->pool = pool;
  s->k = k;
  s->frames = frames;
  s->frame_bytes = OSP_KCURSOR_BYTES (k);
  s->nframes = nframes;
  osp_kslab_reset (s);
  pool->owner = s;
  return 0;
}

void
osp_kslab_reset (struct osp_kslab *s)
{
  s->depth = 1;
  s->over = 0;
  s->cur = osp_kslab_frame (s, 0);
  cursor_fresh (s->cur, 0);
}

int
osp_kslab_enter (struct osp_kslab *s, uint64_t tag)
{
  s->markers++;
  if (s->depth == s->nframes)
    {
      s->deep++;
      s->over++;
      cursor_fresh (s->cur, tag);
      return -1;
    }
  s->cur = osp_kslab_frame (s, s->depth++);
  cursor_fresh (s->cur, tag);
  return 0;
}

void
osp_kslab_leave (struct osp_kslab *s)
{
  if (s->over)
    {
      s->over--;
      cursor_fresh (s->cur, s->cur->tag);
    }
  else if (s->depth > 1)
    s->cur = osp_kslab_frame (s, --s->depth - 1);
  else
    cursor_fresh (s->cur, 0);
}

/* The root labelled L (made if new; lines 8-10 of Figure 6), moved to the
   front of its bucket; 0 if it cannot be made. */
static uint32_t
root_of (struct osp_kslab *s, uint64_t l)
{
  struct osp_forest_pool *p = s->pool;
  uint32_t *head = &p->buckets[hash_of (l, p->bucket_bits)];
  s->hash_accesses++;
  for (uint32_t *link = head; *link; link = &p->nodes[*link].sib)
    if (p->nodes[*link].label == l)
      {
        uint32_t r = *link;
        *link = p->nodes[r].sib;
        p->nodes[r].sib = *head;
        *head = r;
        return r;
      }
  uint32_t r = node_new (s, l);
  if (r)
    {
      /* node_new may have pruned, which relinks buckets: reload head */
      head = &p->buckets[hash_of (l, p->bucket_bits)];
      p->nodes[r].sib = *head;
      *head = r;
    }
  return r;
}

/* V's child labelled L (made if new; lines 13-17 and 21-25 of Figure 6),
   moved to the front of V's list; 0 if it cannot be made.  V is pinned by
   the caller (on top's or bot's path), so pruning spares it. */
static uint32_t
child_of (struct osp_kslab *s, uint32_t v, uint64_t l)
{
  struct osp_fnode *nd = s->pool->nodes;
  s->child_finds++;
  for (uint32_t *link = &nd[v].child; *link; link = &nd[*link].sib)
    {
      s->child_scans++;
      if (nd[*link].label == l)
        {
          uint32_t c = *link;
          if (link != &nd[v].child)
            {
              *link = nd[c].sib;
              nd[c].sib = nd[v].child;
              nd[v].child = c;
            }
          return c;
        }
    }
  uint32_t c = node_new (s, l);
  if (c)
    {
      nd[c].sib = nd[v].child;
      nd[v].child = c;
    }
  return c;
}

static void
count_at (struct osp_kslab *s, uint32_t v)
{
  if (v)
    {
      s->pool->nodes[v].count++;
      s->pool->mass++;
    }
  else
    s->dropped++;
}

/* Figure 6 for one label on the current cursor; COUNTED: whether the
   label is counted at its node (line 27 or 29) or only placed. */
static void
step (struct osp_kslab *s, uint64_t item, int counted)
{
  struct osp_kcursor *c = s->cur;
  uint32_t *top_path = c->path, *bot_path = c->path + s->k;
  if (s->k == 1)
    {
      c->top = root_of (s, item);
      c->top_depth = 0;
      top_path[0] = c->top;
      if (counted)
        count_at (s, c->top);
      return;
    }
  if (c->phase == 0)
    {
      /* a chunk boundary: the finished chunk's last node anchors the lower
         part; the new chunk starts at a root */
      c->bot = c->top;
      c->bot_depth = c->top_depth;
      memcpy (bot_path, top_path, (c->top_depth + 1) * sizeof top_path[0]);
      c->top = root_of (s, item);
      c->top_depth = 0;
      top_path[0] = c->top;
    }
  else if (c->top)
    {
      uint32_t n = child_of (s, c->top, item);
      c->top = n;
      top_path[++c->top_depth] = n;
    }
  uint32_t at = c->top;
  if (c->n >= s->k - 1)
    {
      if (c->bot)
        {
          uint32_t n = child_of (s, c->bot, item);
          c->bot = n;
          bot_path[++c->bot_depth] = n;
        }
      at = c->bot;
    }
  if (counted)
    count_at (s, at);
  c->n++;
  if (++c->phase == s->k - 1)
    c->phase = 0;
}

void
osp_kslab_push (struct osp_kslab *s, uint64_t item)
{
  if (item == OSP_FOREST_MARKER)
    {
      s->markers++;
      cursor_fresh (s->cur, s->cur->tag);
      return;
    }
  s->items++;
  step (s, item, 1);
}

void
osp_kslab_context (struct osp_kslab *s, uint64_t item)
{
  if (item == OSP_FOREST_MARKER)
    osp_kslab_push (s, item);
  else
    {
      s->context++;
      step (s, item, 0);
    }
}

void
osp_kslab_stats (const struct osp_kslab *s, struct osp_forest_stats *st)
{
  const struct osp_forest_pool *p = s->pool;
  *st = (struct osp_forest_stats) {
    .items = s->items,
    .context = s->context,
    .markers = s->markers,
    .deep = s->deep,
    .hash_accesses = s->hash_accesses,
    .child_finds = s->child_finds,
    .child_scans = s->child_scans,
    .nodes_used = p->used,
    .nodes_peak = p->peak,
    .nodes_cap = p->cap - 1,
    .pruned_nodes = p->pruned_nodes,
    .pruned_mass = p->pruned_mass,
    .prune_passes = p->prune_passes,
    .prunes = p->prunes,
    .dropped = s->dropped,
    .threshold = p->threshold,
    .mass = p->mass,
  };
}

/* ---- the k-IPF (Figure 7) -------------------------------------------- */

static int
cmp_u64 (const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return x < y ? -1 : x > y;
}

int
osp_ipf_init (struct osp_ipf *f, void *buf, size_t bytes)
{
  memset (f, 0, sizeof *f);
  unsigned bits;
  uint32_t cap;
  if (geometry (bytes, sizeof (struct osp_ipf_node), &bits, &cap) < 0)
    return -1;
  char *m = map_or_buf (buf, bytes, &f->map);
  if (m == NULL)
    return -1;
  f->bytes = bytes;
  f->bucket_bits = bits;
  f->buckets = (uint32_t *) m;
  f->nodes = (struct osp_ipf_node *) (m + ((size_t) 4 << bits));
  f->cap = cap;
  f->used = 1;
  memset (&f->nodes[0], 0, sizeof f->nodes[0]);
  return 0;
}

void
osp_ipf_destroy (struct osp_ipf *f)
{
  if (f->map)
    munmap (f->map, f->bytes);
  memset (f, 0, sizeof *f);
}

static uint32_t
ipf_new (struct osp_ipf *f, uint64_t label)
{
  if (f->used >= f->cap)
    {
      f->truncated++;
      return 0;
    }
  uint32_t i = f->used++;
  f->nodes[i] = (struct osp_ipf_node) { label, 0, 0, 0, 0, 0 };
  return i;
}

/* The k-IPF root labelled L (a child of the dummy root), made if new. */
static uint32_t
ipf_root (struct osp_ipf *f, uint64_t l)
{
  uint32_t *head = &f->buckets[hash_of (l, f->bucket_bits)];
  for (uint32_t r = *head; r; r = f->nodes[r].hnext)
    if (f->nodes[r].label == l)
      return r;
  uint32_t r = ipf_new (f, l);
  if (r)
    {
      f->nodes[r].hnext = *head;
      *head = r;
      f->nodes[r].sib = f->nodes[0].child;
      f->nodes[0].child = r;
    }
  return r;
}

/* W's child labelled L, made if new (move-to-front: the joins of one
   k-SF subtree tend to hit the same children again). */
static uint32_t
ipf_child (struct osp_ipf *f, uint32_t w, uint64_t l)
{
  struct osp_ipf_node *nd = f->nodes;
  for (uint32_t *link = &nd[w].child; *link; link = &nd[*link].sib)
    if (nd[*link].label == l)
      {
        uint32_t c = *link;
        *link = nd[c].sib;
        nd[c].sib = nd[w].child;
        nd[w].child = c;
        return c;
      }
  uint32_t c = ipf_new (f, l);
  if (c)
    {
      nd[c].sib = nd[w].child;
      nd[w].child = c;
    }
  return c;
}

/* join_subtree: the k-SF subtree of RHO, D levels deep, into k-IPF node
   W (which has RHO's label). */
static void
join_subtree (struct osp_ipf *f, const struct osp_fnode *sf, uint32_t rho,
              uint32_t w, unsigned d)
{
  f->nodes[w].count += sf[rho].count;
  if (d > 1)
    for (uint32_t c = sf[rho].child; c; c = sf[c].sib)
      {
        uint32_t wc = ipf_child (f, w, sf[c].label);
        if (wc)
          join_subtree (f, sf, c, wc, d - 1);
      }
}

/* Whether trees labelled L are built (osp_ipf_build_top: only the
   labels in the sorted ONLY[0..NONLY); NULL: every label). */
static int
wanted (const struct osp_ipf *f, uint64_t l)
{
  if (f->only == NULL)
    return 1;
  size_t lo = 0, hi = f->nonly;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (f->only[mid] < l)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < f->nonly && f->only[lo] == l;
}

/* One k-SF node RHO: its subtree joined under the k-IPF root of its
   label, if that tree is wanted. */
static void
join_node (struct osp_ipf *f, const struct osp_fnode *sf, uint32_t rho)
{
  if (!wanted (f, sf[rho].label))
    return;
  uint32_t w = ipf_root (f, sf[rho].label);
  if (w)
    join_subtree (f, sf, rho, w, f->depth);
}

/* make_k_ipf's loop over the k-SF nodes: every node of RHO's subtree
   (any depth) is joined under the k-IPF root of its label. */
static void
join_all (struct osp_ipf *f, const struct osp_fnode *sf, uint32_t rho)
{
  for (; rho; rho = sf[rho].sib)
    {
      join_node (f, sf, rho);
      join_all (f, sf, sf[rho].child);
    }
}

static int
before (const struct osp_ipf_node *a, const struct osp_ipf_node *b)
{
  return a->count > b->count || (a->count == b->count && a->label < b->label);
}

/* Merge sort of the sibling list starting at HEAD (LEN nodes). */
static uint32_t
sort_list (struct osp_ipf_node *nd, uint32_t head, uint32_t len)
{
  if (len < 2)
    return head;
  uint32_t half = len / 2, mid = head;
  for (uint32_t i = 1; i < half; i++)
    mid = nd[mid].sib;
  uint32_t b = nd[mid].sib;
  nd[mid].sib = 0;
  uint32_t a = sort_list (nd, head, half);
  b = sort_list (nd, b, len - half);
  uint32_t out = 0, *tail = &out;
  while (a && b)
    {
      uint32_t *from = before (&nd[b], &nd[a]) ? &b : &a;
      *tail = *from;
      tail = &nd[*from].sib;
      *from = nd[*from].sib;
    }
  *tail = a ? a : b;
  return out;
}

static void
sort_tree (struct osp_ipf_node *nd, uint32_t w)
{
  uint32_t len = 0;
  for (uint32_t c = nd[w].child; c; c = nd[c].sib)
    len++;
  nd[w].child = sort_list (nd, nd[w].child, len);
  for (uint32_t c = nd[w].child; c; c = nd[c].sib)
    sort_tree (nd, c);
}

int
osp_ipf_build (struct osp_ipf *f, const struct osp_kslab *const *ks,
               unsigned n, unsigned depth)
{
  unsigned kmin = OSP_FOREST_KMAX;
  for (unsigned i = 0; i < n; i++)
    if (ks[i]->k < kmin)
      kmin = ks[i]->k;
  f->depth = depth == 0 || depth > kmin ? kmin : depth;
  f->used = 1;
  f->truncated = 0;
  memset (&f->nodes[0], 0, sizeof f->nodes[0]);
  memset (f->buckets, 0, (size_t) 4 << f->bucket_bits);
  for (unsigned i = 0; i < n; i++)
    {
      const struct osp_forest_pool *p = ks[i]->pool;
      for (uint32_t b = 0; b < (1u << p->bucket_bits); b++)
        for (uint32_t r = p->buckets[b]; r; r = p->nodes[r].sib)
          {
            /* a root's `sib' is its bucket chain, not a sibling list:
               join it alone, then its descendants */
            join_node (f, p->nodes, r);
            join_all (f, p->nodes, p->nodes[r].child);
          }
    }
  sort_tree (f->nodes, 0);
  return f->truncated ? -1 : 0;
}

int
osp_ipf_build_top (struct osp_ipf *f, const struct osp_kslab *const *ks,
                   unsigned n, unsigned depth, uint32_t top)
{
  /* Pass 1: the 1-IPF, i.e. every label's count: which trees come first. */
  f->only = NULL;
  f->ranked = 0;
  if (osp_ipf_build (f, ks, n, 1) != 0)
    return osp_ipf_build (f, ks, n, depth);
  uint32_t counted = 0;
  for (uint32_t r = f->nodes[0].child; r && f->nodes[r].count; r = f->nodes[r].sib)
    counted++;
  /* Fewer counted trees than TOP: a root that counted nothing may still
     lead a tree with counts (context items), and the whole forest is
     small anyway: build it all. */
  if (counted <= top)
    return osp_ipf_build (f, ks, n, depth);
  uint64_t *only = malloc ((size_t) top * sizeof *only);
  if (only == NULL)
    return osp_ipf_build (f, ks, n, depth);
  uint32_t m = 0;
  for (uint32_t r = f->nodes[0].child; m < top; r = f->nodes[r].sib)
    only[m++] = f->nodes[r].label;
  qsort (only, m, sizeof *only, cmp_u64);
  f->only = only;
  f->nonly = m;
  int rc = osp_ipf_build (f, ks, n, depth);
  f->ranked = counted;
  f->only = NULL;
  f->nonly = 0;
  free (only);
  return rc;
}

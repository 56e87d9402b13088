/* SPDX-License-Identifier: MIT */
/* t_forest.c - the k-slab forest and the k-IPF (forest.c), white-box.
 *
 * Every check compares against brute force: a plain trie of every window
 * of up to k labels of the stream that contains no marker (the k-IPF by
 * its definition).  Streams: random (several seeds, alphabets 2..50,
 * markers with some probability), a loop of period p, nested loops, and
 * an eclipse-like stream (one label followed by one of many, skewed).
 * For k in {1,2,3,4,8,16,32}:
 *   - with a large budget the k-IPF equals the brute force exactly (every
 *     n <= k, counts included; level 1 = the plain label counts; counts
 *     never increase down a tree; siblings sorted by count), also when
 *     built in the middle of the stream, and for two streams merged;
 *   - k = 1 makes exactly one root per label holding its count;
 *   - hash accesses happen once per chunk of k-1 items;
 *   - with small budgets (a caller buffer with guard bytes after it): the
 *     pool never outgrows its budget (checked after every push),
 *     items = mass + pruned_mass + dropped, and the documented guarantee:
 *     no n-gram is overcounted, the total deficit of each level is
 *     <= pruned_mass + dropped (equal at level 1), every n-gram whose true
 *     count exceeds that is present.
 * Activations and context items, for k in {1,2,3,4,8,16}: a random
 * well-nested call structure (enter, items, leave; loops, recursion,
 * nesting 10 deep below the root), whose reference is the n-grams of
 * every activation's OWN items (those of its callees skipped):
 *   - with a frame per level the k-IPF equals it exactly (also built with
 *     10 activations suspended), while the paper's stream (a marker at
 *     every entry) gives different counts;
 *   - with 4 frames (`deep'): no n-gram overcounted, 1-grams exact;
 *   - bursts whose first W items are context: exactly the n-grams ending
 *     at a counted item, none across bursts; the context/items stats;
 *   - small budgets with 11 nested activations: the budget, the mass
 *     balance and the guarantee above hold (suspended cursors' root paths
 *     pinned: without that a resumed cursor extends freed nodes).
 * `t_forest bench' prints ns per item for k = 1,2,4,8,16 on a loop-heavy
 * stream (not run by make check).
 */
#include "testutil.h"

#include "collect/forest.h"

#include <stdint.h>
#include <sys/mman.h>
#include <time.h>

#define M OSP_FOREST_MARKER

/* ---- streams --------------------------------------------------------- */

static uint64_t rng_state;
/* Cursor frames for two streams (one frame each: no activations). */
static uint64_t frame[2][OSP_KCURSOR_BYTES (OSP_FOREST_KMAX) / 8];

static uint64_t
rnd (void)
{
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

struct stream
{
  uint64_t *v;
  size_t n;
  const char *name;
};

static struct stream
s_random (uint64_t seed, unsigned alpha, unsigned marker_permille,
          size_t len)
{
  struct stream s = { malloc (len * sizeof (uint64_t)), len, "random" };
  rng_state = seed;
  for (size_t i = 0; i < len; i++)
    /* labels spread over 64 bits (hash quality), never the marker */
    s.v[i] = rnd () % 1000 < marker_permille
                 ? M
                 : (rnd () % alpha) * 0x100000001b3u + 7;
  return s;
}

/* Routine calls: a marker, a prologue label, P-periodic loop body
   iterations, an epilogue label. */
static struct stream
s_loop (unsigned p, unsigned iters, size_t len)
{
  struct stream s = { malloc (len * sizeof (uint64_t)), len, "loop" };
  size_t i = 0;
  while (i < len)
    {
      s.v[i++] = M;
      if (i < len)
        s.v[i++] = 1000;
      for (unsigned t = 0; t < iters * p && i < len; t++)
        s.v[i++] = t % p;
      if (i < len)
        s.v[i++] = 1001;
    }
  return s;
}

/* An outer loop whose body is an inner loop of varying trip count. */
static struct stream
s_nested (size_t len)
{
  struct stream s = { malloc (len * sizeof (uint64_t)), len, "nested" };
  size_t i = 0;
  rng_state = 42;
  while (i < len)
    {
      s.v[i++] = M;
      for (unsigned o = 0; o < 50 && i < len; o++)
        {
          s.v[i++] = 10;
          unsigned trip = 1 + rnd () % 6;
          for (unsigned t = 0; t < trip && i < len; t++)
            s.v[i++] = t & 1 ? 11 : 12;
          if (i < len)
            s.v[i++] = 13;
        }
    }
  return s;
}

/* Eclipse-like: a hub label followed by one of 50 labels, skewed (the
   node of the hub gets a high degree with a few hot children). */
static struct stream
s_eclipse (size_t len)
{
  struct stream s = { malloc (len * sizeof (uint64_t)), len, "eclipse" };
  rng_state = 7;
  for (size_t i = 0; i < len; i++)
    if (i % 2 == 0)
      s.v[i] = i % 997 == 0 ? M : 500;
    else
      {
        unsigned r = rnd () % 100;
        s.v[i] = r < 60 ? 1 : r < 80 ? 2 : 3 + rnd () % 48;
      }
  return s;
}

/* ---- the brute-force trie -------------------------------------------- */

struct bnode
{
  uint64_t label, count;
  uint32_t child, sib, parent;
};

struct brute
{
  struct bnode *nd;
  uint32_t n, cap;
  uint32_t *tab; /* (parent, label) -> node, open addressing */
  uint32_t tabmask;
  unsigned k;
  uint64_t level[OSP_FOREST_KMAX + 1]; /* windows per length */
};

static uint64_t
bhash (uint32_t parent, uint64_t label)
{
  uint64_t h = label * 0x9e3779b97f4a7c15u ^ parent * 0xc2b2ae3d27d4eb4fu;
  return h ^ (h >> 31);
}

static void
brute_init (struct brute *b, unsigned k)
{
  memset (b, 0, sizeof *b);
  b->k = k;
  b->cap = 1024;
  b->nd = calloc (b->cap, sizeof *b->nd);
  b->tabmask = 4095;
  b->tab = calloc (b->tabmask + 1, sizeof *b->tab);
  b->n = 1; /* node 0: the dummy root */
}

static void
brute_free (struct brute *b)
{
  free (b->nd);
  free (b->tab);
}

static uint32_t brute_child (struct brute *b, uint32_t parent, uint64_t l,
                             int make);

static void
brute_rehash (struct brute *b)
{
  free (b->tab);
  b->tabmask = b->tabmask * 2 + 1;
  b->tab = calloc (b->tabmask + 1, sizeof *b->tab);
  /* re-insert every node: walk the tree */
  uint32_t *stack = malloc (b->n * sizeof *stack), sp = 0;
  stack[sp++] = 0;
  while (sp)
    {
      uint32_t p = stack[--sp];
      for (uint32_t c = b->nd[p].child; c; c = b->nd[c].sib)
        {
          uint64_t h = bhash (p, b->nd[c].label);
          while (b->tab[h & b->tabmask])
            h++;
          b->tab[h & b->tabmask] = c;
          stack[sp++] = c;
        }
    }
  free (stack);
}

/* The child of PARENT labelled L (made if MAKE), 0 if none. */
static uint32_t
brute_child (struct brute *b, uint32_t parent, uint64_t l, int make)
{
  uint64_t h = bhash (parent, l);
  for (;; h++)
    {
      uint32_t i = b->tab[h & b->tabmask];
      if (i == 0)
        break;
      if (b->nd[i].label == l && b->nd[i].parent == parent)
        return i;
    }
  if (!make)
    return 0;
  if (b->n == b->cap)
    {
      b->cap *= 2;
      b->nd = realloc (b->nd, b->cap * sizeof *b->nd);
    }
  uint32_t i = b->n++;
  b->nd[i] = (struct bnode) { l, 0, 0, b->nd[parent].child, parent };
  b->nd[parent].child = i;
  b->tab[h & b->tabmask] = i;
  if ((uint64_t) b->n * 2 > b->tabmask)
    brute_rehash (b);
  return i;
}

/* Every window of V[0..n) of up to k labels without a marker, counted
   if it ends at FROM or later (the earlier ones only get their node:
   context items). */
static void
brute_add_from (struct brute *b, const uint64_t *v, size_t n, size_t from)
{
  for (size_t i = 0; i < n; i++)
    {
      uint32_t w = 0;
      for (unsigned d = 0; d < b->k && i + d < n && v[i + d] != M; d++)
        {
          w = brute_child (b, w, v[i + d], 1);
          if (i + d >= from)
            {
              b->nd[w].count++;
              b->level[d + 1]++;
            }
        }
    }
}

static void
brute_add (struct brute *b, const uint64_t *v, size_t n)
{
  brute_add_from (b, v, n, 0);
}

/* ---- comparing a k-IPF with the brute force --------------------------- */

struct cmp
{
  const struct osp_ipf *f;
  struct brute *b;
  uint64_t lost;
  int exact;
  int monotone; /* check that counts never increase down a tree */
  uint64_t rep_level[OSP_FOREST_KMAX + 2];
  uint64_t nodes_level[OSP_FOREST_KMAX + 2];
  uint64_t bnodes_level[OSP_FOREST_KMAX + 2];
  unsigned bad;
};

/* BW: the brute-force node of W's n-gram, or ABSENT (none: every count
   below must be 0). */
#define ABSENT UINT32_MAX

static void
cmp_ipf (struct cmp *x, uint32_t w, uint32_t bw, unsigned level)
{
  const struct osp_ipf_node *nd = x->f->nodes;
  uint64_t prev = UINT64_MAX;
  for (uint32_t c = nd[w].child; c; c = nd[c].sib)
    {
      if (x->bad > 10)
        return;
      CHECK (level + 1 <= x->f->depth);
      /* sorted: count descending */
      CHECK (nd[c].count <= prev);
      prev = nd[c].count;
      /* counts never increase down a tree (exact forests) */
      if (x->monotone && x->lost == 0 && w != 0 && nd[c].count > nd[w].count)
        {
          CHECK (nd[c].count <= nd[w].count);
          x->bad++;
        }
      uint32_t bc = bw == ABSENT ? 0 : brute_child (x->b, bw, nd[c].label, 0);
      uint64_t t = bc ? x->b->nd[bc].count : 0;
      if (nd[c].count > t || (x->exact && nd[c].count != t))
        {
          fprintf (stderr, "  level %u label %llx: k-IPF %llu, true %llu\n",
                   level + 1, (unsigned long long) nd[c].label,
                   (unsigned long long) nd[c].count, (unsigned long long) t);
          CHECK (!"k-IPF count agrees with the brute force");
          x->bad++;
        }
      x->rep_level[level + 1] += nd[c].count;
      x->nodes_level[level + 1]++;
      cmp_ipf (x, c, bc ? bc : ABSENT, level + 1);
    }
}

/* Brute-force nodes whose true count exceeds LOST must be in the k-IPF. */
static void
cmp_presence (struct cmp *x, uint32_t bw, uint32_t w, unsigned level)
{
  for (uint32_t bc = x->b->nd[bw].child; bc; bc = x->b->nd[bc].sib)
    {
      x->bnodes_level[level + 1]++;
      int need = x->b->nd[bc].count > x->lost;
      /* (exact: n-grams counted 0 times, ending at context items, are
         walked too, to count the nodes) */
      if (!need && x->lost)
        continue;
      uint32_t c = 0;
      if (w || level == 0)
        for (c = x->f->nodes[w].child; c; c = x->f->nodes[c].sib)
          if (x->f->nodes[c].label == x->b->nd[bc].label)
            break;
      if (need && c == 0 && x->bad++ < 10)
        {
          fprintf (stderr, "  level %u: true count %llu > lost %llu absent\n",
                   level + 1, (unsigned long long) x->b->nd[bc].count,
                   (unsigned long long) x->lost);
          CHECK (!"every n-gram above the lost mass is present");
        }
      cmp_presence (x, bc, c, level + 1);
    }
}

/* Check F (depth D) against B: exact when LOST is 0, else the guarantee. */
static void
compare_ex (const struct osp_ipf *f, struct brute *b, uint64_t lost,
            int monotone, const char *what)
{
  struct cmp x = { .f = f, .b = b, .lost = lost, .exact = lost == 0,
                   .monotone = monotone };
  unsigned fails = (unsigned) osp_test_failures;
  CHECK_EQ (f->truncated, 0);
  cmp_ipf (&x, 0, 0, 0);
  cmp_presence (&x, 0, 0, 0);
  for (unsigned n = 1; n <= f->depth; n++)
    {
      uint64_t deficit = b->level[n] - x.rep_level[n];
      CHECK (x.rep_level[n] <= b->level[n]);
      if (n == 1)
        CHECK_EQ (deficit, lost);
      else
        CHECK (deficit <= lost);
      if (lost == 0)
        CHECK_EQ (x.nodes_level[n], x.bnodes_level[n]);
    }
  if ((unsigned) osp_test_failures != fails)
    fprintf (stderr, "  ... in %s (k-IPF depth %u, lost %llu)\n", what,
             f->depth, (unsigned long long) lost);
}

static void
compare (const struct osp_ipf *f, struct brute *b, uint64_t lost,
         const char *what)
{
  compare_ex (f, b, lost, 1, what);
}

/* ---- the k-SF's own invariants ---------------------------------------- */

static uint64_t
sf_mass (const struct osp_fnode *nd, uint32_t v, unsigned depth,
         unsigned maxdepth, uint64_t *nodes)
{
  uint64_t m = 0;
  for (; v; v = nd[v].sib)
    {
      CHECK (depth <= maxdepth);
      (*nodes)++;
      m += nd[v].count + sf_mass (nd, nd[v].child, depth + 1, maxdepth,
                                  nodes);
    }
  return m;
}

static void
check_sf (const struct osp_kslab *s)
{
  const struct osp_forest_pool *p = s->pool;
  struct osp_forest_stats st;
  osp_kslab_stats (s, &st);
  uint64_t mass = 0, nodes = 0;
  unsigned maxdepth = s->k == 1 ? 0 : 2 * s->k - 3;
  for (uint32_t b = 0; b < (1u << p->bucket_bits); b++)
    for (uint32_t r = p->buckets[b]; r; r = p->nodes[r].sib)
      {
        nodes++;
        mass += p->nodes[r].count
                + sf_mass (p->nodes, p->nodes[r].child, 1, maxdepth, &nodes);
      }
  CHECK_EQ (mass, st.mass);
  CHECK_EQ (nodes, st.nodes_used);
  CHECK_EQ (st.items, st.mass + st.pruned_mass + st.dropped);
  CHECK (st.nodes_used <= st.nodes_cap);
  CHECK (osp_forest_pool_footprint (p) <= p->bytes);
}

/* ---- the tests ------------------------------------------------------- */

static const unsigned ks[] = { 1, 2, 3, 4, 8, 16, 32 };
#define NK (sizeof ks / sizeof ks[0])
/* Budgets that never prune these streams (test_exact checks that): the
   k-SF pools (osp_ipf_build walks all their buckets: a larger pool only
   costs time) and the k-IPF output. */
#define BIG ((size_t) 1 << 23)
#define IPF_BIG ((size_t) 1 << 26)

static struct osp_ipf ipf; /* one big output, reused */
static struct osp_ipf ipf_top; /* osp_ipf_build_top's, next to it */

/* Trees R1 of A and R2 of B: the same labels, counts and child order. */
static int
same_tree (const struct osp_ipf *a, uint32_t r1, const struct osp_ipf *b,
           uint32_t r2)
{
  if (a->nodes[r1].label != b->nodes[r2].label
      || a->nodes[r1].count != b->nodes[r2].count)
    return 0;
  uint32_t c1 = a->nodes[r1].child, c2 = b->nodes[r2].child;
  for (; c1 && c2; c1 = a->nodes[c1].sib, c2 = b->nodes[c2].sib)
    if (!same_tree (a, c1, b, c2))
      return 0;
  return c1 == 0 && c2 == 0;
}

/* Exact: a large budget; checked mid-stream (online) and at the end. */
static void
test_exact (const struct stream *st)
{
  for (unsigned ki = 0; ki < NK; ki++)
    {
      unsigned k = ks[ki];
      struct osp_forest_pool pool;
      struct osp_kslab s;
      CHECK_EQ (osp_forest_pool_init (&pool, NULL, BIG), 0);
      CHECK_EQ (osp_kslab_init (&s, &pool, k, frame[0], 1), 0);
      struct brute b;
      brute_init (&b, k);
      size_t done = 0, stops[3] = { st->n / 3, st->n / 3 + 1, st->n };
      for (unsigned si = 0; si < 3; si++)
        {
          for (; done < stops[si]; done++)
            osp_kslab_push (&s, st->v[done]);
          /* brute force over the prefix so far (rebuilt: windows at the
             cut must not be counted twice) */
          brute_free (&b);
          brute_init (&b, k);
          brute_add (&b, st->v, done);
          const struct osp_kslab *one = &s;
          CHECK_EQ (osp_ipf_build (&ipf, &one, 1, 0), 0);
          CHECK_EQ (ipf.depth, k);
          char what[96];
          snprintf (what, sizeof what, "%s, %zu items, k=%u", st->name, done,
                    k);
          compare (&ipf, &b, 0, what);
          check_sf (&s);
        }
      struct osp_forest_stats fs;
      osp_kslab_stats (&s, &fs);
      CHECK_EQ (fs.pruned_mass + fs.dropped + fs.pruned_nodes, 0);
      uint64_t chunks_max = fs.items / (k > 1 ? k - 1 : 1) + fs.markers + 1;
      if (k == 1)
        CHECK_EQ (fs.hash_accesses, fs.items);
      else
        CHECK (fs.hash_accesses <= chunks_max);
      if (k == 1)
        {
          /* one root per label, holding its count, and nothing else */
          uint64_t roots = 0;
          for (uint32_t bk = 0; bk < (1u << pool.bucket_bits); bk++)
            for (uint32_t r = pool.buckets[bk]; r; r = pool.nodes[r].sib)
              {
                roots++;
                CHECK_EQ (pool.nodes[r].child, 0);
                uint32_t bc = brute_child (&b, 0, pool.nodes[r].label, 0);
                CHECK (bc != 0);
                CHECK_EQ (pool.nodes[r].count, bc ? b.nd[bc].count : 0);
              }
          uint64_t labels = 0;
          for (uint32_t c = b.nd[0].child; c; c = b.nd[c].sib)
            labels++;
          CHECK_EQ (roots, labels);
        }
      /* a shallower IPF from the same k-SF (Property 2) */
      if (k >= 4)
        {
          struct brute b2;
          brute_init (&b2, 2);
          brute_add (&b2, st->v, st->n);
          const struct osp_kslab *one = &s;
          CHECK_EQ (osp_ipf_build (&ipf, &one, 1, 2), 0);
          CHECK_EQ (ipf.depth, 2);
          compare (&ipf, &b2, 0, "depth-2 IPF of a deeper k-SF");
          brute_free (&b2);
        }
      brute_free (&b);
      osp_forest_pool_destroy (&pool);
    }
}

/* Two streams (threads) merged into one k-IPF. */
static void
test_merge (const struct stream *a, const struct stream *c)
{
  for (unsigned ki = 0; ki < NK; ki++)
    {
      unsigned k = ks[ki];
      struct osp_forest_pool p1, p2;
      struct osp_kslab s1, s2;
      CHECK_EQ (osp_forest_pool_init (&p1, NULL, BIG), 0);
      CHECK_EQ (osp_forest_pool_init (&p2, NULL, BIG), 0);
      CHECK_EQ (osp_kslab_init (&s1, &p1, k, frame[0], 1), 0);
      CHECK_EQ (osp_kslab_init (&s2, &p2, k, frame[1], 1), 0);
      CHECK_EQ (osp_kslab_init (&s2, &p1, k, frame[1], 1), -1); /* p1 is owned */
      for (size_t i = 0; i < a->n; i++)
        osp_kslab_push (&s1, a->v[i]);
      for (size_t i = 0; i < c->n; i++)
        osp_kslab_push (&s2, c->v[i]);
      struct brute b;
      brute_init (&b, k);
      brute_add (&b, a->v, a->n);
      brute_add (&b, c->v, c->n);
      const struct osp_kslab *both[2] = { &s1, &s2 };
      CHECK_EQ (osp_ipf_build (&ipf, both, 2, 0), 0);
      char what[96];
      snprintf (what, sizeof what, "merge %s+%s k=%u", a->name, c->name, k);
      compare (&ipf, &b, 0, what);
      /* The top trees only (live views): exactly the full k-IPF's first
         TOP trees. */
      static const uint32_t tops[] = { 1, 3, 10, 1000000 };
      for (size_t t = 0; t < sizeof tops / sizeof tops[0]; t++)
        {
          osp_ipf_build_top (&ipf_top, both, 2, 0, tops[t]);
          uint32_t roots = 0, counted = 0;
          for (uint32_t r = ipf.nodes[0].child; r; r = ipf.nodes[r].sib)
            {
              roots++;
              counted += ipf.nodes[r].count != 0;
            }
          uint32_t want = counted > tops[t] ? tops[t] : roots;
          uint32_t got = 0;
          uint32_t r1 = ipf.nodes[0].child, r2 = ipf_top.nodes[0].child;
          for (; r1 && r2 && got < want; r1 = ipf.nodes[r1].sib,
                                           r2 = ipf_top.nodes[r2].sib, got++)
            if (!same_tree (&ipf, r1, &ipf_top, r2))
              {
                fprintf (stderr, "%s top=%u: tree %u differs\n", what,
                         tops[t], got);
                CHECK (!"the top trees differ from the full k-IPF's");
                break;
              }
          CHECK_EQ (got, want);
          CHECK (counted > tops[t] ? r2 == 0 && ipf_top.ranked == counted
                                   : ipf_top.ranked == 0);
        }
      brute_free (&b);
      osp_forest_pool_destroy (&p1);
      osp_forest_pool_destroy (&p2);
    }
}

#define GUARD 256

/* Small budgets: a caller buffer followed by guard bytes. */
static void
test_bounded (const struct stream *st, size_t bytes, int *pruned_any)
{
  for (unsigned ki = 0; ki < NK; ki++)
    {
      unsigned k = ks[ki];
      unsigned char *buf = malloc (bytes + GUARD);
      memset (buf + bytes, 0xa5, GUARD);
      struct osp_forest_pool pool;
      struct osp_kslab s;
      if (osp_forest_pool_init (&pool, buf, bytes) < 0)
        {
          CHECK (!"pool init");
          free (buf);
          continue;
        }
      CHECK_EQ (osp_kslab_init (&s, &pool, k, frame[0], 1), 0);
      unsigned bad = 0;
      for (size_t i = 0; i < st->n; i++)
        {
          osp_kslab_push (&s, st->v[i]);
          if (pool.used > pool.cap - 1 || pool.bump > pool.cap)
            bad++;
          if (i % 4096 == 0)
            check_sf (&s);
        }
      CHECK_EQ (bad, 0);
      for (unsigned g = 0; g < GUARD; g++)
        if (buf[bytes + g] != 0xa5)
          {
            CHECK (!"guard bytes after the budget untouched");
            break;
          }
      check_sf (&s);
      struct osp_forest_stats fs;
      osp_kslab_stats (&s, &fs);
      if (fs.pruned_nodes)
        *pruned_any = 1;
      struct brute b;
      brute_init (&b, k);
      brute_add (&b, st->v, st->n);
      const struct osp_kslab *one = &s;
      CHECK_EQ (osp_ipf_build (&ipf, &one, 1, 0), 0);
      char what[128];
      snprintf (what, sizeof what, "%s, budget %zu, k=%u", st->name, bytes,
                k);
      compare (&ipf, &b, fs.pruned_mass + fs.dropped, what);
      if (getenv ("T_FOREST_VERBOSE"))
        printf ("%-8s %6zu B k=%2u: cap %llu, pruned %llu nodes / %llu mass in"
                " %llu prunes, T=%llu, dropped %llu of %llu\n",
                st->name, bytes, k, (unsigned long long) fs.nodes_cap,
                (unsigned long long) fs.pruned_nodes,
                (unsigned long long) fs.pruned_mass,
                (unsigned long long) fs.prunes,
                (unsigned long long) fs.threshold,
                (unsigned long long) fs.dropped,
                (unsigned long long) fs.items);
      brute_free (&b);
      osp_forest_pool_destroy (&pool);
      free (buf);
    }
}

/* A truncated output: what is present is exact, the rest is missing. */
static void
test_small_output (const struct stream *st)
{
  struct osp_forest_pool pool;
  struct osp_kslab s;
  struct osp_ipf small;
  CHECK_EQ (osp_forest_pool_init (&pool, NULL, BIG), 0);
  CHECK_EQ (osp_kslab_init (&s, &pool, 4, frame[0], 1), 0);
  for (size_t i = 0; i < st->n; i++)
    osp_kslab_push (&s, st->v[i]);
  CHECK_EQ (osp_ipf_init (&small, NULL, 4096), 0);
  const struct osp_kslab *one = &s;
  CHECK_EQ (osp_ipf_build (&small, &one, 1, 0), -1);
  CHECK (small.truncated > 0);
  CHECK (small.used <= small.cap);
  struct brute b;
  brute_init (&b, 4);
  brute_add (&b, st->v, st->n);
  struct cmp x = { .f = &small, .b = &b, .lost = 1, .exact = 1,
                   .monotone = 1 };
  cmp_ipf (&x, 0, 0, 0); /* every present node has its exact count */
  brute_free (&b);
  osp_ipf_destroy (&small);
  osp_forest_pool_destroy (&pool);
}

/* ---- activations ------------------------------------------------------ */

/* A thread's stream of events: items, routine activations entered (the
   callee's tag) and left, resets; well nested.  The reference for it is
   per activation: the n-grams of each activation's OWN items, in order,
   skipping those of the activations it calls (calls_ref). */
enum
{
  EV_ITEM,
  EV_ENTER,
  EV_LEAVE,
  EV_RESET
};

struct ev
{
  uint64_t v;
  unsigned kind;
};

struct u64vec
{
  uint64_t *v;
  size_t n, cap;
};

static void
vpush (struct u64vec *a, uint64_t x)
{
  if (a->n == a->cap)
    {
      a->cap = a->cap ? 2 * a->cap : 256;
      a->v = realloc (a->v, a->cap * sizeof *a->v);
    }
  a->v[a->n++] = x;
}

struct calls
{
  struct ev *e;
  size_t n, cap;
  struct u64vec plain; /* the paper's stream: a marker at every entry */
  long budget;         /* items left for optional calls (current tree) */
  unsigned maxlevel;   /* deepest level allowed (a tree's root is 1) */
  unsigned deepest;    /* deepest level made */
  size_t deep_at;      /* the event that first entered it */
  size_t items, activations, enters;
};

#define NTAGS 6
#define NFR 12 /* frames: a root and 10 nested activations fit */

static uint64_t afr[NFR * OSP_KCURSOR_BYTES (OSP_FOREST_KMAX) / 8];

static void
emit (struct calls *c, unsigned kind, uint64_t v)
{
  if (c->n == c->cap)
    {
      c->cap = c->cap ? 2 * c->cap : 1024;
      c->e = realloc (c->e, c->cap * sizeof *c->e);
    }
  c->e[c->n++] = (struct ev) { v, kind };
  if (kind == EV_ITEM)
    vpush (&c->plain, v);
  else if (kind == EV_ENTER)
    {
      vpush (&c->plain, M);
      c->enters++;
    }
}

/* An activation of TAG at LEVEL: 1..50 items (random over a few symbols,
   a loop of period 1..5, or a loop with a branch), with calls between
   them (and before the first, after the last): one toward TARGET (a
   chain of nested calls down to that level) and random others while the
   tree's budget lasts; a third of the callees recurse (same tag). */
static void
gen_activation (struct calls *c, uint64_t tag, unsigned level,
                unsigned target)
{
  unsigned n = 1 + rnd () % 50, mode = rnd () % 3;
  unsigned alpha = 2 + rnd () % 4, p = 1 + rnd () % 5;
  unsigned chain = level < target ? rnd () % (n + 1) : n + 1;
  c->activations++;
  if (level > c->deepest)
    {
      c->deepest = level;
      c->deep_at = c->n;
    }
  for (unsigned i = 0; i <= n; i++)
    {
      unsigned ncalls = (i == chain)
                        + (level < c->maxlevel && c->budget > 0
                           && rnd () % 100 < 6);
      for (unsigned j = 0; j < ncalls; j++)
        {
          uint64_t callee = rnd () % 3 == 0 ? tag : 1 + rnd () % NTAGS;
          emit (c, EV_ENTER, callee);
          gen_activation (c, callee, level + 1,
                          j == 0 && i == chain ? target : level + 1);
          emit (c, EV_LEAVE, 0);
        }
      if (i == n)
        break;
      unsigned sym;
      if (mode == 0)
        sym = rnd () % alpha;
      else if (mode == 1)
        sym = i % p;
      else
        {
          sym = i % (p + 1);
          if (sym == 1 && rnd () % 4 == 0)
            sym = 9;
        }
      emit (c, EV_ITEM, tag << 40 | (sym * 0x10001u + 1));
      c->items++;
      c->budget--;
    }
}

/* TREES root activations on the bottom frame, each ended by a leave at
   depth 1 or a reset; a third of them nest down to MAXLEVEL. */
static struct calls
gen_calls (uint64_t seed, unsigned trees, unsigned maxlevel, long budget)
{
  struct calls c = { .maxlevel = maxlevel };
  rng_state = seed;
  for (unsigned t = 0; t < trees; t++)
    {
      vpush (&c.plain, M);
      c.budget = budget;
      unsigned target = t % 3 == 0 ? maxlevel : 1 + rnd () % maxlevel;
      gen_activation (&c, 1 + rnd () % NTAGS, 1, target);
      emit (&c, rnd () % 2 ? EV_LEAVE : EV_RESET, 0);
    }
  return c;
}

static void
calls_free (struct calls *c)
{
  free (c->e);
  free (c->plain.v);
}

/* The reference of the first NEV events: every activation's own items
   as one piece (the open activations' so far too), pieces separated by
   markers. */
static struct u64vec
calls_ref (const struct calls *c, size_t nev)
{
  struct u64vec out = { 0 }, st[64] = { { 0 } };
  unsigned depth = 1;
  for (size_t i = 0; i <= nev; i++)
    {
      unsigned kind = i < nev ? c->e[i].kind : EV_RESET;
      if (kind == EV_ITEM)
        vpush (&st[depth - 1], c->e[i].v);
      else if (kind == EV_ENTER)
        {
          CHECK (depth < 64);
          st[depth++].n = 0;
        }
      else
        {
          /* leave: the top activation's piece is complete; reset (or the
             end): all of them */
          unsigned from = kind == EV_LEAVE ? depth - 1 : 0;
          for (unsigned d = from; d < depth; d++)
            {
              for (size_t j = 0; j < st[d].n; j++)
                vpush (&out, st[d].v[j]);
              vpush (&out, M);
              st[d].n = 0;
            }
          depth = kind == EV_LEAVE && depth > 1 ? depth - 1 : 1;
        }
    }
  for (unsigned d = 0; d < 64; d++)
    free (st[d].v);
  return out;
}

/* Drives a k-SF with the events [from, to), and checks its frame stack
   after every enter/leave/reset: the activation at (logical) level L has
   frame L - 1 while L < NFRAMES; the deeper ones share the top frame
   (an enter there is refused: `deep'), which restarts at every change
   among them: when a refused activation enters, and when one leaves to
   a level >= NFRAMES (whose piece was cut by the refused enter; its tag
   is not known any more). */
struct driver
{
  unsigned level;
  uint64_t tags[NFR];
  int top_unknown;
  uint64_t deep;
  unsigned bad;
};

static void
drive_calls (struct osp_kslab *s, const struct calls *c, size_t from,
             size_t to, struct driver *d)
{
  unsigned nf = s->nframes;
  for (size_t i = from; i < to; i++)
    {
      const struct ev *e = &c->e[i];
      switch (e->kind)
        {
        case EV_ITEM:
          osp_kslab_push (s, e->v);
          continue;
        case EV_ENTER:
          {
            int r = osp_kslab_enter (s, e->v);
            int refused = d->level >= nf;
            d->level++;
            d->deep += refused;
            d->bad += r != (refused ? -1 : 0);
            d->tags[(d->level < nf ? d->level : nf) - 1] = e->v;
            if (d->level >= nf)
              d->top_unknown = 0;
            d->bad += s->cur->n != 0; /* a fresh piece */
            break;
          }
        case EV_LEAVE:
          osp_kslab_leave (s);
          if (d->level == 1)
            d->tags[0] = 0; /* the bottom frame restarts */
          if (d->level > nf)
            d->top_unknown = 1;
          if (d->level == 1 || d->level > nf)
            d->bad += s->cur->n != 0;
          if (d->level > 1)
            d->level--;
          break;
        case EV_RESET:
          osp_kslab_reset (s);
          d->level = 1;
          d->tags[0] = 0;
          d->bad += s->cur->n != 0;
          break;
        }
      unsigned depth = d->level < nf ? d->level : nf;
      if (s->depth != depth || s->cur != osp_kslab_frame (s, depth - 1))
        d->bad++;
      for (unsigned f = 0; f < s->depth && f < NFR; f++)
        if (!(f == nf - 1 && d->top_unknown))
          d->bad += osp_kslab_frame (s, f)->tag != d->tags[f];
    }
}

/* Whether a k-IPF differs from the brute force (quietly). */
static int
ipf_diff_walk (const struct osp_ipf *f, struct brute *b, uint32_t w,
               uint32_t bw, unsigned level, uint64_t *lvl)
{
  int diff = 0;
  for (uint32_t c = f->nodes[w].child; c; c = f->nodes[c].sib)
    {
      lvl[level + 1] += f->nodes[c].count;
      uint32_t bc = bw == ABSENT ? 0 : brute_child (b, bw, f->nodes[c].label, 0);
      if (f->nodes[c].count != (bc ? b->nd[bc].count : 0))
        diff = 1;
      diff |= ipf_diff_walk (f, b, c, bc ? bc : ABSENT, level + 1, lvl);
    }
  return diff;
}

static int
ipf_differs (const struct osp_ipf *f, struct brute *b)
{
  uint64_t lvl[OSP_FOREST_KMAX + 2] = { 0 };
  int diff = ipf_diff_walk (f, b, 0, 0, 0, lvl);
  for (unsigned n = 1; n <= f->depth; n++)
    diff |= lvl[n] != b->level[n];
  return diff;
}

static const unsigned aks[] = { 1, 2, 3, 4, 8, 16 };
#define NAK (sizeof aks / sizeof aks[0])
#define APOOL ((size_t) 1 << 22)

/* The k-IPF of these tests (smaller than `ipf': cheaper to clear). */
static struct osp_ipf aipf;

/* Enough frames: the k-IPF is exactly the per-activation reference, also
   built mid-stream (at a third, and where the nesting is deepest: up to
   11 activations then, 10 of them suspended); the paper's stream (a
   marker at every entry, the caller's piece does not resume) gives
   different counts. */
static void
test_activations (void)
{
  struct calls c = gen_calls (11, 40, 11, 300);
  CHECK_EQ (c.deepest, 11);
  CHECK (c.activations > 200);
  size_t a = c.n / 3, z = c.deep_at + 3;
  size_t cuts[3] = { a < z ? a : z, a < z ? z : a, c.n };
  for (unsigned ki = 0; ki < NAK; ki++)
    {
      unsigned k = aks[ki];
      struct osp_forest_pool pool;
      struct osp_kslab s;
      CHECK_EQ (osp_forest_pool_init (&pool, NULL, APOOL), 0);
      CHECK_EQ (osp_kslab_init (&s, &pool, k, afr, NFR), 0);
      struct driver d = { .level = 1 };
      size_t done = 0;
      unsigned maxdepth = 0;
      struct brute b; /* the last one (whole stream) is kept */
      for (unsigned ci = 0; ci < 3; ci++)
        {
          drive_calls (&s, &c, done, cuts[ci], &d);
          done = cuts[ci];
          if (s.depth > maxdepth)
            maxdepth = s.depth;
          struct u64vec ref = calls_ref (&c, done);
          if (ci)
            brute_free (&b);
          brute_init (&b, k);
          brute_add (&b, ref.v, ref.n);
          const struct osp_kslab *one = &s;
          CHECK_EQ (osp_ipf_build (&aipf, &one, 1, 0), 0);
          char what[96];
          snprintf (what, sizeof what, "activations, %zu events, k=%u",
                    done, k);
          compare (&aipf, &b, 0, what);
          check_sf (&s);
          free (ref.v);
        }
      CHECK_EQ (maxdepth, 11); /* the cut at the deepest point */
      CHECK_EQ (d.bad, 0);
      CHECK_EQ (d.deep, 0);
      struct osp_forest_stats fs;
      osp_kslab_stats (&s, &fs);
      CHECK_EQ (fs.deep, 0);
      CHECK_EQ (fs.items, c.items);
      CHECK_EQ (fs.markers, c.enters);
      CHECK_EQ (fs.pruned_mass + fs.dropped + fs.pruned_nodes, 0);
      /* one root lookup per chunk of k-1 items of a piece; a piece per
         activation (resumed pieces go on with their chunks) */
      if (k > 1)
        CHECK (fs.hash_accesses <= fs.items / (k - 1) + c.activations + 1);
      osp_forest_pool_destroy (&pool);

      /* the paper's behaviour: the same items with a marker at every
         entry, on one cursor */
      CHECK_EQ (osp_forest_pool_init (&pool, NULL, APOOL), 0);
      CHECK_EQ (osp_kslab_init (&s, &pool, k, afr, 1), 0);
      for (size_t i = 0; i < c.plain.n; i++)
        osp_kslab_push (&s, c.plain.v[i]);
      const struct osp_kslab *one = &s;
      CHECK_EQ (osp_ipf_build (&aipf, &one, 1, 0), 0);
      struct brute bp;
      brute_init (&bp, k);
      brute_add (&bp, c.plain.v, c.plain.n);
      char what[96];
      snprintf (what, sizeof what, "activations as markers, k=%u", k);
      compare (&aipf, &bp, 0, what);
      /* 1-grams do not depend on the pieces; longer ones do */
      CHECK_EQ (ipf_differs (&aipf, &b), k > 1);
      brute_free (&bp);
      brute_free (&b);
      osp_forest_pool_destroy (&pool);
    }
  calls_free (&c);
}

/* Deeper than the frames (NFRAMES = 4, 11 levels).  Why nothing can be
   overcounted: a window is counted only along one cursor's piece, and
   with a frame per level below NFRAMES each of those pieces is a run of
   consecutive own items of one activation (a suspended cursor resumes
   exactly where its activation left it).  The activations at levels >=
   NFRAMES share the top frame; it restarts (a fresh piece) at every
   change among them: the refused enter, and the leave of a refused
   activation, whose caller's piece was cut by that enter.  So every piece
   is a run of one activation's own items, every window counted is a real
   occurrence, and different pieces are disjoint: rep <= true.  (The leave
   of a refused activation must NOT pop the frame below: that frame
   belongs to the caller's caller, and the caller's next items would
   continue its piece: windows that never occurred.)  The checks: no
   n-gram above its true count, the 1-grams exact (every item is counted
   somewhere; no pruning here), the frame stack as above (drive_calls),
   `deep' = the enters refused. */
static void
check_no_overcount (struct brute *b, const char *what)
{
  struct cmp x = { .f = &aipf, .b = b, .lost = 1, .exact = 0 };
  unsigned fails = (unsigned) osp_test_failures;
  cmp_ipf (&x, 0, 0, 0);
  uint64_t lvl[OSP_FOREST_KMAX + 2] = { 0 };
  ipf_diff_walk (&aipf, b, 0, 0, 0, lvl);
  CHECK_EQ (lvl[1], b->level[1]);
  for (unsigned n = 2; n <= aipf.depth; n++)
    CHECK (lvl[n] <= b->level[n]);
  if ((unsigned) osp_test_failures != fails)
    fprintf (stderr, "  ... in %s\n", what);
}

static void
test_deep (void)
{
  /* the smallest case: k = 2, two frames.  Root r: a, calls A: b, A calls
     B (refused: every frame in use): c; B returns; A: d; A returns; r: e.
     True 2-grams: none but a-e and b-d, each once. */
  {
    static const struct ev small[] = {
      { 10, EV_ITEM }, { 1, EV_ENTER }, { 11, EV_ITEM }, { 2, EV_ENTER },
      { 12, EV_ITEM }, { 0, EV_LEAVE }, { 13, EV_ITEM }, { 0, EV_LEAVE },
      { 14, EV_ITEM },
    };
    struct calls c = { .e = (struct ev *) small,
                       .n = sizeof small / sizeof small[0] };
    struct osp_forest_pool pool;
    struct osp_kslab s;
    CHECK_EQ (osp_forest_pool_init (&pool, NULL, 1 << 16), 0);
    CHECK_EQ (osp_kslab_init (&s, &pool, 2, afr, 2), 0);
    struct driver d = { .level = 1 };
    drive_calls (&s, &c, 0, c.n, &d);
    CHECK_EQ (d.bad, 0);
    CHECK_EQ (s.deep, 1);
    struct u64vec ref = calls_ref (&c, c.n);
    struct brute b;
    brute_init (&b, 2);
    brute_add (&b, ref.v, ref.n);
    CHECK_EQ (b.level[2], 2);
    const struct osp_kslab *one = &s;
    CHECK_EQ (osp_ipf_build (&aipf, &one, 1, 0), 0);
    check_no_overcount (&b, "deep, the smallest case (k=2, 2 frames)");
    brute_free (&b);
    free (ref.v);
    osp_forest_pool_destroy (&pool);
  }

  struct calls c = gen_calls (12, 40, 11, 300);
  CHECK_EQ (c.deepest, 11);
  for (unsigned ki = 0; ki < NAK; ki++)
    {
      unsigned k = aks[ki];
      struct osp_forest_pool pool;
      struct osp_kslab s;
      CHECK_EQ (osp_forest_pool_init (&pool, NULL, APOOL), 0);
      CHECK_EQ (osp_kslab_init (&s, &pool, k, afr, 4), 0);
      struct driver d = { .level = 1 };
      drive_calls (&s, &c, 0, c.n, &d);
      CHECK_EQ (d.bad, 0);
      CHECK (d.deep > 0);
      struct osp_forest_stats fs;
      osp_kslab_stats (&s, &fs);
      CHECK_EQ (fs.deep, d.deep);
      CHECK_EQ (fs.items, c.items);
      CHECK_EQ (fs.markers, c.enters);
      struct u64vec ref = calls_ref (&c, c.n);
      struct brute b;
      brute_init (&b, k);
      brute_add (&b, ref.v, ref.n);
      const struct osp_kslab *one = &s;
      CHECK_EQ (osp_ipf_build (&aipf, &one, 1, 0), 0);
      char what[96];
      snprintf (what, sizeof what, "deep recursion, 4 frames, k=%u", k);
      check_no_overcount (&b, what);
      brute_free (&b);
      free (ref.v);
      osp_forest_pool_destroy (&pool);
    }
  calls_free (&c);
}

/* ---- context items ---------------------------------------------------- */

/* Bursts (after a reset each) whose first W items are context: only the
   n-grams ending at a counted item are counted, and none reaches into
   another burst.  W ranges from 0 to past the burst's end. */
static void
test_context (void)
{
  struct u64vec v = { 0 };
  size_t off[301], wid[300];
  unsigned nb = 300;
  rng_state = 13;
  for (unsigned bi = 0; bi < nb; bi++)
    {
      off[bi] = v.n;
      unsigned len = 1 + rnd () % 120, mode = rnd () % 3;
      unsigned p = 1 + rnd () % 6;
      wid[bi] = rnd () % 3 == 0 ? rnd () % 4 : rnd () % 70;
      for (unsigned j = 0; j < len; j++)
        vpush (&v, rnd () % 100 == 0 ? M
                   : mode == 0       ? 100 + rnd () % 4
                   : mode == 1       ? 200 + j % p
                                     : 300 + (j % p == 0 ? rnd () % 2 : j % p));
    }
  off[nb] = v.n;
  for (unsigned ki = 0; ki < NAK; ki++)
    {
      unsigned k = aks[ki];
      struct osp_forest_pool pool;
      struct osp_kslab s;
      CHECK_EQ (osp_forest_pool_init (&pool, NULL, APOOL), 0);
      CHECK_EQ (osp_kslab_init (&s, &pool, k, afr, NFR), 0);
      struct brute b;
      brute_init (&b, k);
      uint64_t ctx = 0, counted = 0, marks = 0;
      for (unsigned bi = 0; bi < nb; bi++)
        {
          osp_kslab_reset (&s);
          for (size_t j = off[bi]; j < off[bi + 1]; j++)
            {
              int context = j - off[bi] < wid[bi];
              if (context)
                osp_kslab_context (&s, v.v[j]); /* a marker all the same */
              else
                osp_kslab_push (&s, v.v[j]);
              if (v.v[j] == M)
                marks++;
              else if (context)
                ctx++;
              else
                counted++;
            }
          brute_add_from (&b, v.v + off[bi], off[bi + 1] - off[bi], wid[bi]);
        }
      CHECK (ctx > 1000 && counted > 1000);
      struct osp_forest_stats fs;
      osp_kslab_stats (&s, &fs);
      CHECK_EQ (fs.context, ctx);
      CHECK_EQ (fs.items, counted);
      CHECK_EQ (fs.items + fs.context, v.n - marks);
      CHECK_EQ (fs.markers, marks);
      CHECK_EQ (b.level[1], counted);
      check_sf (&s);
      const struct osp_kslab *one = &s;
      CHECK_EQ (osp_ipf_build (&aipf, &one, 1, 0), 0);
      char what[96];
      snprintf (what, sizeof what, "context bursts, k=%u", k);
      /* an n-gram may be counted where its prefix (ending at a context
         item) is not: no monotony down the trees */
      compare_ex (&aipf, &b, 0, 0, what);
      brute_free (&b);
      osp_forest_pool_destroy (&pool);
    }
  free (v.v);
}

/* ---- pruning while activations are suspended -------------------------- */

/* Small budgets and 11 nested activations: the suspended frames' root
   paths must survive every prune (pinned), or a resumed cursor would
   extend freed or reused nodes and count windows that never occurred.
   The budget holds, items = mass + pruned_mass + dropped, and the
   guarantee of forest.c with activation pieces for marker pieces. */
static void
test_pruned_calls (void)
{
  struct calls c = gen_calls (14, 40, 11, 300);
  CHECK_EQ (c.deepest, 11);
  struct u64vec ref = calls_ref (&c, c.n);
  static const size_t budgets[] = { 1024, 4096, 16384, 65536 };
  uint64_t prunes_suspended = 0, max_prunes = 0;
  for (unsigned ki = 0; ki < NAK; ki++)
    {
      unsigned k = aks[ki];
      struct brute b;
      brute_init (&b, k);
      brute_add (&b, ref.v, ref.n);
      for (unsigned bi = 0; bi < 4; bi++)
        {
          size_t bytes = budgets[bi];
          unsigned char *buf = malloc (bytes + GUARD);
          memset (buf + bytes, 0xa5, GUARD);
          struct osp_forest_pool pool;
          struct osp_kslab s;
          CHECK_EQ (osp_forest_pool_init (&pool, buf, bytes), 0);
          CHECK_EQ (osp_kslab_init (&s, &pool, k, afr, NFR), 0);
          struct driver d = { .level = 1 };
          unsigned bad = 0;
          for (size_t i = 0; i < c.n; i++)
            {
              uint64_t before = pool.prunes;
              drive_calls (&s, &c, i, i + 1, &d);
              if (pool.prunes != before && s.depth >= 3)
                prunes_suspended++;
              if (pool.used > pool.cap - 1 || pool.bump > pool.cap)
                bad++;
              if (i % 2048 == 0)
                check_sf (&s);
            }
          CHECK_EQ (bad, 0);
          CHECK_EQ (d.bad, 0);
          for (unsigned g = 0; g < GUARD; g++)
            if (buf[bytes + g] != 0xa5)
              {
                CHECK (!"guard bytes after the budget untouched");
                break;
              }
          check_sf (&s);
          struct osp_forest_stats fs;
          osp_kslab_stats (&s, &fs);
          CHECK_EQ (fs.items, c.items);
          if (fs.prunes > max_prunes)
            max_prunes = fs.prunes;
          const struct osp_kslab *one = &s;
          CHECK_EQ (osp_ipf_build (&aipf, &one, 1, 0), 0);
          char what[128];
          snprintf (what, sizeof what, "activations, budget %zu, k=%u",
                    bytes, k);
          compare (&aipf, &b, fs.pruned_mass + fs.dropped, what);
          if (getenv ("T_FOREST_VERBOSE"))
            printf ("calls %6zu B k=%2u: cap %llu, pruned %llu nodes / %llu"
                    " mass in %llu prunes, dropped %llu of %llu\n",
                    bytes, k, (unsigned long long) fs.nodes_cap,
                    (unsigned long long) fs.pruned_nodes,
                    (unsigned long long) fs.pruned_mass,
                    (unsigned long long) fs.prunes,
                    (unsigned long long) fs.dropped,
                    (unsigned long long) fs.items);
          osp_forest_pool_destroy (&pool);
          free (buf);
        }
      brute_free (&b);
    }
  CHECK (prunes_suspended > 100);
  CHECK (max_prunes > 100);
  free (ref.v);
  calls_free (&c);
}

/* ---- the micro-benchmark --------------------------------------------- */

static double
now_ns (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static int
bench (void)
{
  size_t len = 20000000;
  struct stream st = s_loop (7, 200, len);
  /* loop-heavy but not trivially periodic: a branch in the body */
  rng_state = 3;
  for (size_t i = 0; i < len; i++)
    if (st.v[i] == 3 && rnd () % 4 == 0)
      st.v[i] = 33;
  static const unsigned bk[] = { 1, 2, 4, 8, 16 };
  printf ("k   ns/item  hash/item  scans/find  nodes\n");
  for (unsigned i = 0; i < sizeof bk / sizeof bk[0]; i++)
    {
      struct osp_forest_pool pool;
      struct osp_kslab s;
      if (osp_forest_pool_init (&pool, NULL, (size_t) 64 << 20) < 0
          || osp_kslab_init (&s, &pool, bk[i], frame[0], 1) < 0)
        return 1;
      double t0 = now_ns ();
      for (size_t j = 0; j < len; j++)
        osp_kslab_push (&s, st.v[j]);
      double t1 = now_ns ();
      struct osp_forest_stats fs;
      osp_kslab_stats (&s, &fs);
      printf ("%-3u %7.2f  %9.3f  %10.2f  %llu\n", bk[i], (t1 - t0) / len,
              (double) fs.hash_accesses / fs.items,
              fs.child_finds ? (double) fs.child_scans / fs.child_finds : 0.0,
              (unsigned long long) fs.nodes_used);
      osp_forest_pool_destroy (&pool);
    }
  free (st.v);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "bench") == 0)
    return bench ();
  if (osp_ipf_init (&ipf_top, NULL, IPF_BIG) < 0)
    return 99;
  if (osp_ipf_init (&ipf, NULL, IPF_BIG) < 0)
    return 99;

  struct stream streams[] = {
    s_random (1, 2, 0, 20000),   s_random (2, 3, 10, 20000),
    s_random (3, 7, 50, 12000),  s_random (4, 50, 5, 20000),
    s_random (5, 20, 200, 8000), s_loop (5, 30, 20000),
    s_loop (1, 50, 5000),        s_nested (20000),
    s_eclipse (20000),
  };
  unsigned ns = sizeof streams / sizeof streams[0];
  for (unsigned i = 0; i < ns; i++)
    test_exact (&streams[i]);
  test_merge (&streams[1], &streams[5]);
  test_merge (&streams[7], &streams[8]);

  /* k = 1 .. 32 with budgets from a few dozen nodes up */
  int pruned_any = 0;
  static const size_t budgets[] = { 1024, 8192, 65536 };
  for (unsigned bi = 0; bi < 3; bi++)
    for (unsigned i = 0; i < ns; i++)
      test_bounded (&streams[i], budgets[bi], &pruned_any);
  CHECK (pruned_any);
  test_small_output (&streams[3]);

  /* routine activations (enter/leave), context items, both with pruning */
  CHECK_EQ (osp_ipf_init (&aipf, NULL, (size_t) 8 << 20), 0);
  test_activations ();
  test_deep ();
  test_context ();
  test_pruned_calls ();
  osp_ipf_destroy (&aipf);

  /* the eclipse stream: move-to-front keeps scans per lookup low */
  {
    struct osp_forest_pool pool;
    struct osp_kslab s;
    CHECK_EQ (osp_forest_pool_init (&pool, NULL, BIG), 0);
    CHECK_EQ (osp_kslab_init (&s, &pool, 2, frame[0], 1), 0);
    for (size_t i = 0; i < streams[8].n; i++)
      osp_kslab_push (&s, streams[8].v[i]);
    struct osp_forest_stats fs;
    osp_kslab_stats (&s, &fs);
    /* 48 cold children of the hub, hit 40% of the time; hot ones first */
    CHECK (fs.child_scans < fs.child_finds * 12);
    osp_forest_pool_destroy (&pool);
  }

  CHECK_EQ (osp_kslab_init (&(struct osp_kslab) { 0 },
                            &(struct osp_forest_pool) { 0 }, 2, frame[0], 1),
            -1);
  {
    struct osp_forest_pool pool;
    struct osp_kslab s;
    CHECK_EQ (osp_forest_pool_init (&pool, NULL, 1 << 16), 0);
    CHECK_EQ (osp_kslab_init (&s, &pool, 0, frame[0], 1), -1);
    CHECK_EQ (osp_kslab_init (&s, &pool, OSP_FOREST_KMAX + 1, frame[0], 1), -1);
    osp_forest_pool_destroy (&pool);
  }
  for (unsigned i = 0; i < ns; i++)
    free (streams[i].v);
  osp_ipf_destroy (&ipf);
  if (osp_test_failures)
    fprintf (stderr, "t_forest: %d failures\n", osp_test_failures);
  return osp_test_failures ? 1 : 0;
}

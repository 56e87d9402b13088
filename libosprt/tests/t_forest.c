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
 * `t_forest bench' prints ns per item for k = 1,2,4,8,16 on a loop-heavy
 * stream (not run by make check).
 */
#include "testutil.h"

#include "forest.h"

#include <stdint.h>
#include <sys/mman.h>
#include <time.h>

#define M OSP_FOREST_MARKER

/* ---- streams --------------------------------------------------------- */

static uint64_t rng_state;

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

/* Every window of V[0..n) of up to k labels without a marker. */
static void
brute_add (struct brute *b, const uint64_t *v, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      uint32_t w = 0;
      for (unsigned d = 0; d < b->k && i + d < n && v[i + d] != M; d++)
        {
          w = brute_child (b, w, v[i + d], 1);
          b->nd[w].count++;
          b->level[d + 1]++;
        }
    }
}

/* ---- comparing a k-IPF with the brute force --------------------------- */

struct cmp
{
  const struct osp_ipf *f;
  struct brute *b;
  uint64_t lost;
  int exact;
  uint64_t rep_level[OSP_FOREST_KMAX + 2];
  uint64_t nodes_level[OSP_FOREST_KMAX + 2];
  uint64_t bnodes_level[OSP_FOREST_KMAX + 2];
  unsigned bad;
};

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
      if (x->lost == 0 && w != 0 && nd[c].count > nd[w].count)
        {
          CHECK (nd[c].count <= nd[w].count);
          x->bad++;
        }
      uint32_t bc = brute_child (x->b, bw, nd[c].label, 0);
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
      if (bc)
        cmp_ipf (x, c, bc, level + 1);
    }
}

/* Brute-force nodes whose true count exceeds LOST must be in the k-IPF. */
static void
cmp_presence (struct cmp *x, uint32_t bw, uint32_t w, unsigned level)
{
  for (uint32_t bc = x->b->nd[bw].child; bc; bc = x->b->nd[bc].sib)
    {
      x->bnodes_level[level + 1]++;
      if (x->b->nd[bc].count <= x->lost)
        continue;
      uint32_t c = 0;
      if (w || level == 0)
        for (c = x->f->nodes[w].child; c; c = x->f->nodes[c].sib)
          if (x->f->nodes[c].label == x->b->nd[bc].label)
            break;
      if (c == 0 && x->bad++ < 10)
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
compare (const struct osp_ipf *f, struct brute *b, uint64_t lost,
         const char *what)
{
  struct cmp x = { .f = f, .b = b, .lost = lost, .exact = lost == 0 };
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
#define BIG ((size_t) 1 << 28)

static struct osp_ipf ipf; /* one big output, reused */

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
      CHECK_EQ (osp_kslab_init (&s, &pool, k), 0);
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
      CHECK_EQ (osp_kslab_init (&s1, &p1, k), 0);
      CHECK_EQ (osp_kslab_init (&s2, &p2, k), 0);
      CHECK_EQ (osp_kslab_init (&s2, &p1, k), -1); /* p1 is owned */
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
      CHECK_EQ (osp_kslab_init (&s, &pool, k), 0);
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
  CHECK_EQ (osp_kslab_init (&s, &pool, 4), 0);
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
  struct cmp x = { .f = &small, .b = &b, .lost = 1, .exact = 1 };
  cmp_ipf (&x, 0, 0, 0); /* every present node has its exact count */
  brute_free (&b);
  osp_ipf_destroy (&small);
  osp_forest_pool_destroy (&pool);
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
          || osp_kslab_init (&s, &pool, bk[i]) < 0)
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
  if (osp_ipf_init (&ipf, NULL, BIG) < 0)
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

  /* the eclipse stream: move-to-front keeps scans per lookup low */
  {
    struct osp_forest_pool pool;
    struct osp_kslab s;
    CHECK_EQ (osp_forest_pool_init (&pool, NULL, BIG), 0);
    CHECK_EQ (osp_kslab_init (&s, &pool, 2), 0);
    for (size_t i = 0; i < streams[8].n; i++)
      osp_kslab_push (&s, streams[8].v[i]);
    struct osp_forest_stats fs;
    osp_kslab_stats (&s, &fs);
    /* 48 cold children of the hub, hit 40% of the time; hot ones first */
    CHECK (fs.child_scans < fs.child_finds * 12);
    osp_forest_pool_destroy (&pool);
  }

  CHECK_EQ (osp_kslab_init (&(struct osp_kslab) { 0 },
                            &(struct osp_forest_pool) { 0 }, 2),
            -1);
  {
    struct osp_forest_pool pool;
    struct osp_kslab s;
    CHECK_EQ (osp_forest_pool_init (&pool, NULL, 1 << 16), 0);
    CHECK_EQ (osp_kslab_init (&s, &pool, 0), -1);
    CHECK_EQ (osp_kslab_init (&s, &pool, OSP_FOREST_KMAX + 1), -1);
    osp_forest_pool_destroy (&pool);
  }
  for (unsigned i = 0; i < ns; i++)
    free (streams[i].v);
  osp_ipf_destroy (&ipf);
  if (osp_test_failures)
    fprintf (stderr, "t_forest: %d failures\n", osp_test_failures);
  return osp_test_failures ? 1 : 0;
}

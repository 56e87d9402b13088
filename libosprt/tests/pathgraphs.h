/* SPDX-License-Identifier: MIT */
/* pathgraphs.h - hand-made functions with Ball-Larus path words, for the
 * path tests (t_paths, t_pathrun).
 *
 * A test describes a CFG (blocks, successors with edge flags, which blocks
 * start paths); tg_build makes its record the way the plugin would: the
 * cfg words, and the P-DAG's values from a reference numbering written
 * here independently of the runtime: PEP Figure 2 (Figure 4 when the
 * successors are taken in another order), over a reverse topological
 * order found by a recursive DFS (the runtime uses Kahn's algorithm).
 * tg_paths enumerates every P-DAG path with its id, recursively, as the
 * expected answer for decoding.
 *
 * P-DAG (abi.h): normal edges, where an edge into a path start or to EXIT
 * is a dummy edge to EXIT; a block without normal successors has an end
 * slot; abnormal and EH edges get no value (OSP_PATH_NONE).
 */
#ifndef OSP_PATHGRAPHS_H
#define OSP_PATHGRAPHS_H

#include <stdint.h>
#include <string.h>

#include "osp/abi.h"

#define TG_MAXB 64
#define TG_MAXS 4
#define TG_END UINT32_MAX /* a step leaving by the end slot */

struct tg_block
{
  uint32_t flags, nsucc;
  uint32_t dst[TG_MAXS], ef[TG_MAXS];
};

struct tg
{
  uint32_t n;
  struct tg_block b[TG_MAXB];
  int reverse; /* number each block's successors last to first */
  /* Made by tg_build. */
  uint32_t cfg[TG_MAXB * (4 + 2 * TG_MAXS)];
  uint64_t paths[TG_MAXB * (2 + TG_MAXS)];
  uint64_t np[TG_MAXB];
  uint64_t npaths;
  uint32_t post[TG_MAXB], npost;
  unsigned char seen[TG_MAXB];
};

/* A function of N blocks, block 0 a path start, no edges yet. */
static inline void
tg_init (struct tg *g, uint32_t n)
{
  memset (g, 0, sizeof *g);
  g->n = n;
  g->b[0].flags = OSP_BB_ENTRY | OSP_BB_PATH_START;
}

static inline void
tg_edge (struct tg *g, uint32_t from, uint32_t to, uint32_t flags)
{
  struct tg_block *b = &g->b[from];
  b->dst[b->nsucc] = to;
  b->ef[b->nsucc++] = flags;
  if (to == OSP_BLOCK_EXIT)
    b->flags |= OSP_BB_RETURNS;
}

static inline int
tg_normal (uint32_t ef)
{
  return !(ef & (OSP_EDGE_ABNORMAL | OSP_EDGE_EH));
}

static inline int
tg_start (const struct tg *g, uint32_t b)
{
  return (g->b[b].flags & OSP_BB_PATH_START) != 0;
}

/* Whether successor S of block B is a P-DAG edge between two blocks. */
static inline int
tg_inner (const struct tg *g, uint32_t b, uint32_t s)
{
  uint32_t w = g->b[b].dst[s];
  return tg_normal (g->b[b].ef[s]) && w != OSP_BLOCK_EXIT && !tg_start (g, w);
}

static inline int
tg_has_end (const struct tg *g, uint32_t b)
{
  for (uint32_t s = 0; s < g->b[b].nsucc; s++)
    if (tg_normal (g->b[b].ef[s]))
      return 0;
  return 1;
}

static inline void
tg_visit (struct tg *g, uint32_t v)
{
  g->seen[v] = 1;
  for (uint32_t s = 0; s < g->b[v].nsucc; s++)
    if (tg_inner (g, v, s) && !g->seen[g->b[v].dst[s]])
      tg_visit (g, g->b[v].dst[s]);
  g->post[g->npost++] = v; /* after all its successors */
}

/* The cfg and paths words of G (acyclic P-DAG) into R. */
static inline void
tg_build (struct tg *g, struct osp_fn_record *r, const char *name,
          const char *file)
{
  uint32_t *w = g->cfg;
  uint32_t off[TG_MAXB], k = 0;
  for (uint32_t b = 0; b < g->n; b++)
    {
      off[b] = k;
      *w++ = 10 + b;
      *w++ = 10 + b;
      *w++ = g->b[b].flags;
      *w++ = g->b[b].nsucc;
      for (uint32_t s = 0; s < g->b[b].nsucc; s++)
        {
          *w++ = g->b[b].dst[s];
          *w++ = g->b[b].ef[s];
        }
      k += 2 + g->b[b].nsucc;
    }
  g->npost = 0;
  memset (g->seen, 0, sizeof g->seen);
  for (uint32_t v = 0; v < g->n; v++)
    if (!g->seen[v])
      tg_visit (g, v);
  /* Figure 2: in reverse topological order, each out-edge's value is the
     number of paths counted so far. */
  for (uint32_t i = 0; i < g->npost; i++)
    {
      uint32_t v = g->post[i];
      uint64_t *pv = g->paths + off[v];
      uint64_t np = 0;
      pv[0] = pv[1] = OSP_PATH_NONE;
      for (uint32_t j = 0; j < g->b[v].nsucc; j++)
        {
          uint32_t s = g->reverse ? g->b[v].nsucc - 1 - j : j;
          if (!tg_normal (g->b[v].ef[s]))
            {
              pv[2 + s] = OSP_PATH_NONE;
              continue;
            }
          pv[2 + s] = np;
          np += tg_inner (g, v, s) ? g->np[g->b[v].dst[s]] : 1;
        }
      if (tg_has_end (g, v))
        pv[1] = np++;
      g->np[v] = np;
    }
  uint64_t root = 0;
  for (uint32_t v = 0; v < g->n; v++)
    if (tg_start (g, v))
      {
        g->paths[off[v]] = root;
        root += g->np[v];
      }
  g->npaths = root;

  memset (r, 0, sizeof *r);
  r->magic = OSP_FN_MAGIC;
  r->abi_version = OSP_ABI_VERSION;
  r->flags = OSP_FN_BLOCK_HOOKS | OSP_FN_PATH_PROBES;
  r->nblocks = g->n;
  r->cfg_len = (uint32_t) (w - g->cfg);
  r->name = name;
  r->file = file;
  r->cfg = g->cfg;
  r->npaths = g->npaths;
  r->paths = g->paths;
  r->paths_len = k;
}

/* Every P-DAG path of G: FN (id, blocks, succs, n, arg), recursively. */
typedef void tg_path_fn (uint64_t id, const uint32_t *blocks,
                         const uint32_t *succs, uint32_t n, void *arg);

static inline uint32_t
tg_offset (const struct tg *g, uint32_t b)
{
  uint32_t k = 0;
  for (uint32_t v = 0; v < b; v++)
    k += 2 + g->b[v].nsucc;
  return k;
}

static inline void
tg_walk (const struct tg *g, uint32_t v, uint64_t sum, uint32_t *blocks,
         uint32_t *succs, uint32_t depth, tg_path_fn *fn, void *arg)
{
  const uint64_t *pv = g->paths + tg_offset (g, v);
  blocks[depth] = v;
  for (uint32_t s = 0; s < g->b[v].nsucc; s++)
    {
      if (pv[2 + s] == OSP_PATH_NONE)
        continue;
      succs[depth] = s;
      if (tg_inner (g, v, s))
        tg_walk (g, g->b[v].dst[s], sum + pv[2 + s], blocks, succs,
                 depth + 1, fn, arg);
      else
        fn (sum + pv[2 + s], blocks, succs, depth + 1, arg);
    }
  if (pv[1] != OSP_PATH_NONE)
    {
      succs[depth] = TG_END;
      fn (sum + pv[1], blocks, succs, depth + 1, arg);
    }
}

static inline void
tg_paths (const struct tg *g, tg_path_fn *fn, void *arg)
{
  uint32_t blocks[TG_MAXB], succs[TG_MAXB];
  for (uint32_t v = 0; v < g->n; v++)
    if (tg_start (g, v))
      tg_walk (g, v, g->paths[tg_offset (g, v)], blocks, succs, 0, fn, arg);
}

/* ---- the shapes the tests use ------------------------------------------ */

/* (a) K diamonds in a row: 2^K paths, 3K + 1 blocks:
   d_i -> {l_i, r_i} -> d_{i+1}, the last block returns. */
static inline void
tg_diamonds (struct tg *g, uint32_t k)
{
  tg_init (g, 3 * k + 1);
  for (uint32_t i = 0; i < k; i++)
    {
      uint32_t d = 3 * i;
      tg_edge (g, d, d + 1, OSP_EDGE_TRUE);
      tg_edge (g, d, d + 2, OSP_EDGE_FALSE);
      tg_edge (g, d + 1, d + 3, OSP_EDGE_FALLTHRU);
      tg_edge (g, d + 2, d + 3, 0);
    }
  tg_edge (g, 3 * k, OSP_BLOCK_EXIT, 0);
}

/* (b) A loop: 0 -> 1 (header, a start); 1 -> {2, 5}; 2 -> {3, 4};
   3 -> 1 and 4 -> 1 (back edges); 5 -> exit.  Paths: 0-1 (ends before the
   header), 1-2-3, 1-2-4, 1-5. */
static inline void
tg_loop (struct tg *g)
{
  tg_init (g, 6);
  g->b[1].flags |= OSP_BB_LOOP_HEADER | OSP_BB_PATH_START;
  tg_edge (g, 0, 1, OSP_EDGE_FALLTHRU);
  tg_edge (g, 1, 2, OSP_EDGE_TRUE);
  tg_edge (g, 1, 5, OSP_EDGE_FALSE);
  tg_edge (g, 2, 3, OSP_EDGE_TRUE);
  tg_edge (g, 2, 4, OSP_EDGE_FALSE);
  tg_edge (g, 3, 1, OSP_EDGE_BACK);
  tg_edge (g, 4, 1, OSP_EDGE_BACK);
  tg_edge (g, 5, OSP_BLOCK_EXIT, 0);
}

/* (c) A noreturn call: 0 -> {1, 2}; 1 has no successor (its end slot);
   2 -> {3, exit}; 3 has only an EH edge to 4 (so an end slot too); 4, a
   landing pad, starts a path and returns. */
static inline void
tg_noreturn (struct tg *g)
{
  tg_init (g, 5);
  g->b[4].flags |= OSP_BB_ABNORMAL_TARGET | OSP_BB_PATH_START;
  tg_edge (g, 0, 1, OSP_EDGE_TRUE);
  tg_edge (g, 0, 2, OSP_EDGE_FALSE);
  tg_edge (g, 2, 3, OSP_EDGE_TRUE);
  tg_edge (g, 2, OSP_BLOCK_EXIT, OSP_EDGE_FALSE);
  tg_edge (g, 3, 4, OSP_EDGE_EH);
  tg_edge (g, 4, OSP_BLOCK_EXIT, 0);
}

/* (d) An abnormal edge: 0 -> 1, and 0 -> 3 abnormal (setjmp receiver);
   1 -> {2, 3}; 2 -> exit; 3 (abnormal target, a start) -> exit. */
static inline void
tg_abnormal (struct tg *g)
{
  tg_init (g, 4);
  g->b[3].flags |= OSP_BB_ABNORMAL_TARGET | OSP_BB_PATH_START;
  tg_edge (g, 0, 1, OSP_EDGE_FALLTHRU);
  tg_edge (g, 0, 3, OSP_EDGE_ABNORMAL);
  tg_edge (g, 1, 2, OSP_EDGE_TRUE);
  tg_edge (g, 1, 3, OSP_EDGE_FALSE);
  tg_edge (g, 2, OSP_BLOCK_EXIT, 0);
  tg_edge (g, 3, OSP_BLOCK_EXIT, 0);
}

#endif /* OSP_PATHGRAPHS_H */

/* SPDX-License-Identifier: MIT */
/* paths.c - Ball-Larus paths of one function: the P-DAG, decoding a path
 * id into blocks, encoding, branch counts, and the verify_paths check.
 *
 * The plugin numbers each function's acyclic paths (PEP section 3.2,
 * Figure 4; abi.h describes the P-DAG and its words): the path register
 * sums edge values along a path from ROOT to EXIT and the sum is the
 * path's id, unique in [0, npaths).  Everything here is a pure function
 * of a registered struct osp_fn; nothing takes a lock.
 *
 * Decoding (PEP 3.3, Ball and Larus 1996): starting at ROOT with the id as
 * the remainder r, take the out-edge with the largest value <= r, subtract
 * its value, and go on from its target until an edge ends the path (an
 * edge to EXIT, an edge into a path start, which is a dummy edge to EXIT,
 * or a block's end slot); the id is a path iff r is then 0.  The greedy
 * choice works because Ball-Larus values give out-edge e = v->w the ids
 * [Val(e), Val(e) + NumPaths(w)), and these intervals tile [0,
 * NumPaths(v)).  One refinement: an edge into a block from which no path
 * reaches EXIT (NumPaths 0) has the same value as its neighbour and an
 * empty interval, so pure greedy could walk into a dead end; we compute
 * NumPaths at registration (osp_paths_prepare) and take the largest value
 * whose interval contains r, which is the same edge whenever pure greedy
 * succeeds.  A path visits a block at most once (the P-DAG is acyclic,
 * which registration checks), so decoding takes at most nblocks steps and
 * O(out-degree) per step; starts are binary-searched.
 *
 * branches(p) (PEP 6.3's branch flow, Bond and McKinley's metric): the CFG
 * edges of p whose source block has two or more normal successors, i.e.
 * the branch decisions p makes.
 *
 * verify_paths=1 checks each numbering once at registration: with npaths
 * <= 100000 it enumerates every P-DAG path by an iterative DFS (CFGs can
 * be deep: no recursion) and checks each sum is in [0, npaths), that every
 * id is hit exactly once and that decode(sum) gives back the same steps;
 * above that it round-trips ids 0, npaths-1 and 10000 pseudo-random ids
 * (decode, then encode), seeded by the function id so runs repeat.
 */
#define _GNU_SOURCE
#include "model/model.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static uint64_t
sat_add (uint64_t a, uint64_t b)
{
  uint64_t s;
  return __builtin_add_overflow (a, b, &s) ? UINT64_MAX : s;
}

static inline int
is_start (const struct osp_fn *f, uint32_t b)
{
  return (f->blocks[b].flags & OSP_BB_PATH_START) != 0;
}

static inline uint64_t
start_value (const struct osp_fn *f, uint32_t b)
{
  return osp_path_words (f, b)[0];
}

/* The value of leaving B by SUCC (a successor index or OSP_STEP_END). */
static inline uint64_t
slot_value (const struct osp_fn *f, uint32_t b, uint32_t succ)
{
  const uint64_t *w = osp_path_words (f, b);
  return succ == OSP_STEP_END ? w[1] : w[2 + succ];
}

/* Whether leaving B by SUCC ends the path: the end slot, an edge to EXIT,
   or an edge into a path start (the P-DAG's dummy edge to EXIT); if not,
   *NEXT gets the block it enters. */
static inline int
ends_path (const struct osp_fn *f, uint32_t b, uint32_t succ, uint32_t *next)
{
  if (succ == OSP_STEP_END)
    return 1;
  uint32_t dst = f->edges[f->blocks[b].succ + succ].dst;
  if (dst == OSP_BLOCK_EXIT || is_start (f, dst))
    return 1;
  *next = dst;
  return 0;
}

/* How many path suffixes leaving B by SUCC leads to. */
static inline uint64_t
paths_after (const struct osp_fn *f, uint32_t b, uint32_t succ)
{
  uint32_t next = 0;
  return ends_path (f, b, succ, &next) ? 1 : f->numpaths[next];
}

uint32_t
osp_block_normal_succs (const struct osp_fn *f, uint32_t b)
{
  const struct osp_block *bl = &f->blocks[b];
  uint32_t n = 0;
  for (uint32_t s = 0; s < bl->nsucc; s++)
    n += !(f->edges[bl->succ + s].flags & (OSP_EDGE_ABNORMAL | OSP_EDGE_EH));
  return n;
}

/* ---- registration ---------------------------------------------------- */

struct start_key
{
  uint64_t value;
  uint32_t block;
};

static int
by_start_value (const void *a, const void *b)
{
  const struct start_key *x = a, *y = b;
  if (x->value != y->value)
    return x->value < y->value ? -1 : 1;
  return x->block < y->block ? -1 : x->block > y->block;
}

void
osp_paths_free (struct osp_fn *f)
{
  free (f->pathw); /* numpaths and starts are in its allocation */
  f->pathw = NULL;
  f->numpaths = NULL;
  f->starts = NULL;
  f->npaths = 0;
  f->nstarts = 0;
}

/* NumPaths of every block, in reverse topological order of the P-DAG
   (Kahn's algorithm over its block-to-block edges).  -1 if some blocks
   are on a cycle: then the values cannot be a Ball-Larus numbering, and
   decoding could loop.  INDEG and ORDER have room for a word a block,
   NEXT for a word a successor slot: where each slot leads, found once
   for the three walks (registration counts every function's paths). */
#define SLOT_NONE UINT32_MAX        /* no value: not on any path */
#define SLOT_ENDS (UINT32_MAX - 1)  /* ends the path */
static int
count_paths (struct osp_fn *f, uint32_t *indeg, uint32_t *order,
             uint32_t *next)
{
  uint32_t n = f->nblocks;
  memset (indeg, 0, n * sizeof *indeg);
  for (uint32_t b = 0; b < n; b++)
    for (uint32_t s = 0; s < f->blocks[b].nsucc; s++)
      {
        uint32_t *to = &next[f->blocks[b].succ + s];
        if (slot_value (f, b, s) == OSP_PATH_NONE)
          *to = SLOT_NONE;
        else if (ends_path (f, b, s, to))
          *to = SLOT_ENDS;
        else
          indeg[*to]++;
      }
  uint32_t head = 0, tail = 0;
  for (uint32_t b = 0; b < n; b++)
    if (indeg[b] == 0)
      order[tail++] = b;
  while (head < tail)
    {
      const struct osp_block *bl = &f->blocks[order[head++]];
      for (uint32_t s = 0; s < bl->nsucc; s++)
        {
          uint32_t to = next[bl->succ + s];
          if (to < SLOT_ENDS && --indeg[to] == 0)
            order[tail++] = to;
        }
    }
  if (tail != n)
    return -1;
  for (uint32_t i = n; i-- > 0;)
    {
      uint32_t b = order[i];
      const struct osp_block *bl = &f->blocks[b];
      uint64_t np = slot_value (f, b, OSP_STEP_END) != OSP_PATH_NONE;
      for (uint32_t s = 0; s < bl->nsucc; s++)
        {
          uint32_t to = next[bl->succ + s];
          if (to != SLOT_NONE)
            np = sat_add (np, to == SLOT_ENDS ? 1 : f->numpaths[to]);
        }
      f->numpaths[b] = np;
    }
  return 0;
}

/* Sort the N start keys K by value then block: most functions have a
   few, which insertion sorts faster than qsort's call per comparison. */
static void
sort_starts (struct start_key *k, uint32_t n)
{
  if (n > 16)
    {
      qsort (k, n, sizeof *k, by_start_value);
      return;
    }
  for (uint32_t i = 1; i < n; i++)
    {
      struct start_key x = k[i];
      uint32_t j = i;
      for (; j > 0 && by_start_value (&k[j - 1], &x) > 0; j--)
        k[j] = k[j - 1];
      k[j] = x;
    }
}

const char *
osp_paths_prepare (struct osp_fn *f, const struct osp_fn_record *r)
{
  if (!(r->flags & OSP_FN_PATH_PROBES))
    return NULL;
  /* One allocation for the function's three arrays (path words, NumPaths,
     start blocks) and one for the work space: registration prepares
     every function of the program, and five mallocs a function were a
     third of the cost. */
  size_t n = f->nblocks, words = r->paths_len;
  size_t bytes = (words + n) * sizeof (uint64_t)
                 + (n ? n : 1) * sizeof (uint32_t);
  const char *why = "out of memory";
  f->npaths = r->npaths;
  f->pathw = malloc (bytes);
  struct start_key *keys = malloc (
      n * sizeof *keys + (2 * n + f->nedges) * sizeof (uint32_t) + 1);
  if (f->pathw == NULL || keys == NULL)
    goto fail;
  f->numpaths = f->pathw + words;
  f->starts = (uint32_t *) (f->numpaths + n);
  memcpy (f->pathw, r->paths, words * sizeof *f->pathw);
  why = "the P-DAG has a cycle (an edge into a block that is no path "
        "start closes it)";
  uint32_t *indeg = (uint32_t *) (keys + n), *order = indeg + n;
  if (count_paths (f, indeg, order, order + n) != 0)
    goto fail;
  uint32_t ns = 0;
  for (uint32_t b = 0; b < f->nblocks; b++)
    if (is_start (f, b))
      keys[ns++] = (struct start_key) { start_value (f, b), b };
  sort_starts (keys, ns);
  for (uint32_t i = 0; i < ns; i++)
    f->starts[i] = keys[i].block;
  f->nstarts = ns;
  free (keys);
  return NULL;
fail:
  free (keys);
  osp_paths_free (f);
  return why;
}

/* ---- decode, encode, branches ---------------------------------------- */

/* The start block where path ID begins: the largest start value <= ID
   (among equal values, one whose NumPaths interval holds ID), or
   UINT32_MAX. */
static uint32_t
root_step (const struct osp_fn *f, uint64_t id)
{
  uint32_t lo = 0, hi = f->nstarts; /* lo: starts with value <= id */
  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;
      if (start_value (f, f->starts[mid]) <= id)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return UINT32_MAX;
  uint32_t i = lo - 1;
  uint64_t v = start_value (f, f->starts[i]);
  while (i > 0 && id - v >= f->numpaths[f->starts[i]]
         && start_value (f, f->starts[i - 1]) == v)
    i--;
  return f->starts[i];
}

/* The greedy walk of osp_path_decode; OUT may be NULL (steps not kept),
   *LAST gets the last step. */
static uint32_t
walk (const struct osp_fn *f, uint64_t id, struct osp_path_step *out,
      struct osp_path_step *last)
{
  if (f->npaths == 0 || id >= f->npaths)
    return 0;
  uint32_t b = root_step (f, id);
  if (b == UINT32_MAX)
    return 0;
  uint64_t r = id - start_value (f, b);
  for (uint32_t n = 0; n < f->nblocks;)
    {
      int found = 0;
      uint32_t best = 0;
      uint64_t best_v = 0;
      uint64_t v = slot_value (f, b, OSP_STEP_END);
      if (v == r) /* the end slot's interval is [v, v + 1) */
        {
          found = 1;
          best = OSP_STEP_END;
          best_v = v;
        }
      for (uint32_t s = 0; s < f->blocks[b].nsucc; s++)
        {
          v = slot_value (f, b, s);
          if (v == OSP_PATH_NONE || v > r || r - v >= paths_after (f, b, s))
            continue;
          if (!found || v > best_v)
            {
              found = 1;
              best = s;
              best_v = v;
            }
        }
      if (!found)
        return 0;
      *last = (struct osp_path_step) { b, best };
      if (out)
        out[n] = *last;
      n++;
      r -= best_v;
      uint32_t next = 0;
      if (ends_path (f, b, best, &next))
        return r == 0 ? n : 0;
      b = next;
    }
  return 0; /* longer than the blocks: only on a cycle, refused earlier */
}

uint32_t
osp_path_decode (const struct osp_fn *f, uint64_t id,
                 struct osp_path_step *out)
{
  struct osp_path_step last;
  return walk (f, id, out, &last);
}

int
osp_path_shape (const struct osp_fn *f, uint64_t id, int *entry, int *leaves)
{
  struct osp_path_step last;
  if (walk (f, id, NULL, &last) == 0)
    return -1;
  uint32_t b = root_step (f, id);
  *entry = b == 0;
  *leaves = last.succ == OSP_STEP_END
            || f->edges[f->blocks[last.block].succ + last.succ].dst
               == OSP_BLOCK_EXIT;
  return 0;
}

uint64_t
osp_path_encode (const struct osp_fn *f, const struct osp_path_step *steps,
                 uint32_t n)
{
  if (f->npaths == 0 || n == 0 || n > f->nblocks)
    return OSP_PATH_NONE;
  uint32_t b = steps[0].block;
  if (b >= f->nblocks || !is_start (f, b))
    return OSP_PATH_NONE;
  uint64_t sum = start_value (f, b);
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t succ = steps[i].succ, next = 0;
      if (steps[i].block != b
          || (succ != OSP_STEP_END && succ >= f->blocks[b].nsucc))
        return OSP_PATH_NONE;
      uint64_t v = slot_value (f, b, succ);
      if (v == OSP_PATH_NONE || __builtin_add_overflow (sum, v, &sum))
        return OSP_PATH_NONE;
      if (ends_path (f, b, succ, &next) != (i + 1 == n))
        return OSP_PATH_NONE;
      b = next;
    }
  return sum;
}

uint32_t
osp_path_branches (const struct osp_fn *f, const struct osp_path_step *steps,
                   uint32_t n)
{
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++)
    if (steps[i].succ != OSP_STEP_END
        && osp_block_normal_succs (f, steps[i].block) >= 2)
      k++;
  return k;
}

/* ---- verify_paths ---------------------------------------------------- */

static struct osp_verify_totals totals; /* under osp_registry_lock */

static int
broken (const struct osp_fn *f, const char *fmt, ...)
{
  char msg[512];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  osp_warn ("osp: path numbering error in %s (%s): %s", f->name, f->file,
            msg);
  return -1;
}

struct frame
{
  uint32_t block, next; /* next: the slot to try, nsucc = the end slot */
  uint64_t sum;         /* the id so far, this block's edge excluded */
};

/* Check one complete path STEPS[0..N) of sum ID.  SEEN: a bit per id. */
static int
check_path (const struct osp_fn *f, const struct osp_path_step *steps,
            uint32_t n, uint64_t id, unsigned char *seen,
            struct osp_path_step *dec)
{
  if (id >= f->npaths)
    return broken (f, "a path from block %u sums to %llu, not below npaths "
                   "%llu", steps[0].block, (unsigned long long) id,
                   (unsigned long long) f->npaths);
  if (seen[id >> 3] & (1u << (id & 7)))
    return broken (f, "two paths sum to %llu", (unsigned long long) id);
  seen[id >> 3] |= (unsigned char) (1u << (id & 7));
  uint32_t nd = osp_path_decode (f, id, dec);
  if (nd != n || memcmp (dec, steps, n * sizeof *steps) != 0)
    return broken (f, "decoding %llu does not give back its path (from "
                   "block %u, %u steps)", (unsigned long long) id,
                   steps[0].block, n);
  return 0;
}

/* Every ROOT -> EXIT path of the P-DAG, depth first without recursion. */
static int
enumerate (const struct osp_fn *f, uint64_t *count)
{
  uint32_t n = f->nblocks;
  struct frame *st = malloc (n * sizeof *st);
  struct osp_path_step *steps = malloc (n * sizeof *steps);
  struct osp_path_step *dec = malloc (n * sizeof *dec);
  unsigned char *seen = calloc ((size_t) (f->npaths + 7) / 8, 1);
  int rc = 0;
  *count = 0;
  if (!st || !steps || !dec || !seen)
    {
      rc = broken (f, "out of memory while verifying");
      goto out;
    }
  for (uint32_t i = 0; i < f->nstarts && rc == 0; i++)
    {
      uint32_t depth = 0;
      st[0] = (struct frame) { f->starts[i], 0, start_value (f, f->starts[i]) };
      while (rc == 0)
        {
          struct frame *fr = &st[depth];
          uint32_t nsucc = f->blocks[fr->block].nsucc;
          if (fr->next > nsucc) /* every slot tried: back up */
            {
              if (depth == 0)
                break;
              depth--;
              continue;
            }
          uint32_t k = fr->next++;
          uint32_t succ = k == nsucc ? OSP_STEP_END : k, next = 0;
          uint64_t v = slot_value (f, fr->block, succ);
          if (v == OSP_PATH_NONE)
            continue;
          uint64_t sum = sat_add (fr->sum, v);
          steps[depth] = (struct osp_path_step) { fr->block, succ };
          if (ends_path (f, fr->block, succ, &next))
            {
              if (++*count > f->npaths)
                rc = broken (f, "more than npaths = %llu paths",
                             (unsigned long long) f->npaths);
              else
                rc = check_path (f, steps, depth + 1, sum, seen, dec);
            }
          else if (depth + 1 >= n)
            rc = broken (f, "a path longer than the function's blocks");
          else
            st[++depth] = (struct frame) { next, 0, sum };
        }
    }
  if (rc == 0 && *count != f->npaths)
    rc = broken (f, "%llu paths but npaths is %llu",
                 (unsigned long long) *count,
                 (unsigned long long) f->npaths);
out:
  free (st);
  free (steps);
  free (dec);
  free (seen);
  return rc;
}

/* Decode then encode ids 0, npaths - 1 and OSP_VERIFY_SAMPLES others. */
static int
round_trip (const struct osp_fn *f, uint64_t *count)
{
  struct osp_path_step *dec = malloc (f->nblocks * sizeof *dec);
  *count = 0;
  if (dec == NULL)
    return broken (f, "out of memory while verifying");
  uint64_t rng[4];
  osp_rng_seed (rng, 0x7061746873u, f->id); /* runs repeat */
  int rc = 0;
  for (uint32_t i = 0; i < OSP_VERIFY_SAMPLES + 2 && rc == 0; i++)
    {
      uint64_t id = i == 0   ? 0
                    : i == 1 ? f->npaths - 1
                             : (uint64_t) (((unsigned __int128) osp_rng_next (rng)
                                            * f->npaths) >> 64);
      uint32_t n = osp_path_decode (f, id, dec);
      uint64_t back = n ? osp_path_encode (f, dec, n) : OSP_PATH_NONE;
      ++*count;
      if (n == 0)
        rc = broken (f, "id %llu (of %llu) decodes to no path",
                     (unsigned long long) id, (unsigned long long) f->npaths);
      else if (back != id)
        rc = broken (f, "id %llu decodes to a path whose values sum to %llu",
                     (unsigned long long) id, (unsigned long long) back);
    }
  free (dec);
  return rc;
}

int
osp_paths_verify (const struct osp_fn *f)
{
  if (f->npaths == 0)
    return 0;
  uint64_t n = 0;
  int rc;
  totals.functions++;
  if (f->npaths <= OSP_VERIFY_ENUM_MAX)
    {
      rc = enumerate (f, &n);
      totals.enumerated += n;
    }
  else
    {
      rc = round_trip (f, &n);
      totals.round_trips += n;
    }
  if (rc != 0)
    totals.errors++;
  return rc;
}

void
osp_paths_verify_totals (struct osp_verify_totals *out)
{
  osp_lock (&osp_registry_lock);
  *out = totals;
  osp_unlock (&osp_registry_lock);
}

void
osp_paths_verify_summary (void)
{
  struct osp_verify_totals t;
  osp_paths_verify_totals (&t);
  osp_warn ("osp: verified path numbering: %llu functions, %llu paths "
            "enumerated, %llu ids round-tripped, %llu errors",
            (unsigned long long) t.functions,
            (unsigned long long) t.enumerated,
            (unsigned long long) t.round_trips,
            (unsigned long long) t.errors);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pathnum.cc - the P-DAG of a function and its smart Ball-Larus numbering.
 *
 * PEP (Bond & McKinley, section 3.2) numbers the acyclic paths of a DAG
 * made from the CFG so that paths end at loop headers and at function
 * exits.  Here a *path start* is:
 *   - block 0 (the function entry),
 *   - every target of a DFS back edge (mark_dfs_back_edges in numbering.cc
 *     cuts every cycle, irreducible ones included),
 *   - every block entered by an abnormal or EH edge (setjmp receivers,
 *     computed-goto labels, landing pads): no code can sit on such an edge,
 *     so the path that takes it is never recorded and a new one starts,
 *   - blocks cut to keep the number of paths under the cap (below).
 * Every normal edge into a start becomes a dummy edge to EXIT: the path
 * ends just before the start block, where a sample check reads the path
 * register (probes.cc).  A dummy ROOT -> s edge enters each start s; a
 * block with no normal successor (a noreturn call, __builtin_unreachable)
 * gets a dummy edge to EXIT of its own ("end slot").  Abnormal and EH edges
 * are left out.  What remains is acyclic: every cycle had a back edge,
 * whose target is a start.
 *
 * Numbering is PEP Figure 4 ("smart path numbering", from Bond & McKinley's
 * practical path profiling): in reverse topological order,
 *     NumPaths(v) = sum over out-edges e = v->w, in decreasing order of
 *                   expected frequency, with Val(e) = NumPaths so far,
 * where a dummy edge to EXIT counts one path.  The likeliest out-edge of
 * every block gets value 0, so it needs no probe.  "Likeliest" comes from,
 * in order of preference: the edge counts of a previous osp run given with
 * profile=FILE (profile.cc; profile-guided profiling, PEP section 3.4),
 * else GCC's own local branch predictors (tree_guess_outgoing_edge_
 * probabilities: __builtin_expect, opcode, pointer, call and return
 * heuristics), with loop continuation favoured over loop exit as GCC's
 * loop heuristics would (they need the loop optimizer, which has not run
 * yet at this point; see plugin.cc).  GCC's estimate is computed on the
 * side and the edges' probabilities are put back as they were, so the
 * compiler's own later profile estimation sees the plain build's state.
 *
 * Too many paths: ids are 64-bit and the P-DAG of a function can have more
 * than 2^64 paths (80 ifs in a row have 2^80).  While the total exceeds the
 * max-paths cap, the block v that carries the most paths is cut, i.e. made
 * a start: with In(v) path prefixes reaching it and NumPaths(v) suffixes
 * leaving it, that replaces In*NumPaths paths by In + NumPaths.  Cutting
 * only adds starts, so ids stay unique and decodable; a function whose
 * paths cannot be brought under the cap gets no path probes at all (and
 * verbose says so), never a wrong number.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "gimple.h"
#include "basic-block.h"
#include "cfganal.h"
#include "cfgloop.h"
#include "function.h"
#include "predict.h"

#include "osp-plugin.h"

namespace osp {


static uint64_t
sat_add (uint64_t a, uint64_t b)
{
  uint64_t s;
  return __builtin_add_overflow (a, b, &s) ? UINT64_MAX : s;
}

/* Expected relative frequency of each successor of BB (cfg order), from
   GCC's local predictors, without leaving any trace in the CFG.  */
static void
guess_weights (function *fun, basic_block bb, vec<double> *w)
{
  edge e;
  edge_iterator ei;
  unsigned n = EDGE_COUNT (bb->succs);
  if (n >= 2)
    {
      auto_vec<profile_probability, 8> saved;
      FOR_EACH_EDGE (e, ei, bb->succs)
        saved.safe_push (e->probability);
      tree_guess_outgoing_edge_probabilities (bb);
      FOR_EACH_EDGE (e, ei, bb->succs)
        {
          w->safe_push (e->probability.initialized_p ()
                          ? e->probability.to_reg_br_prob_base () + 1.0
                          : 1.0);
          e->probability = saved[ei.index];
        }
    }
  else
    FOR_EACH_EDGE (e, ei, bb->succs)
      w->safe_push (1.0);

  /* GCC's loop heuristics: a loop is expected to iterate.  */
  struct loops *loops = loops_for_fn (fun);
  bool loops_ok = loops && !loops_state_satisfies_p (fun, LOOPS_NEED_FIXUP);
  FOR_EACH_EDGE (e, ei, bb->succs)
    {
      if (e->flags & EDGE_DFS_BACK)
        (*w)[ei.index] *= 8;
      else if (loops_ok && bb->loop_father
               && loop_exit_edge_p (bb->loop_father, e))
        (*w)[ei.index] /= 8;
    }
}

/* Recompute successor kinds, NumPaths and the topological order from the
   current starts.  Returns false if some blocks are on a cycle without a
   start (a cycle that the entry cannot reach, so the DFS found no back
   edge in it); TOPO then lacks them.  */
static bool
build_dag (const vec<block_info> &blocks, const vec<int> &id_of_bb_index,
           path_numbering *pn, vec<unsigned> *topo)
{
  unsigned n = blocks.length ();
  auto_vec<unsigned> indeg;
  indeg.safe_grow_cleared (n);
  for (unsigned u = 0; u < n; u++)
    {
      edge e;
      edge_iterator ei;
      bool normal = false;
      FOR_EACH_EDGE (e, ei, blocks[u].bb->succs)
        {
          unsigned char &kind = pn->succ_kind[pn->succ_base[u] + ei.index];
          if (e->flags & EDGE_COMPLEX)
            kind = SUCC_NONE;
          else if (e->dest->index == EXIT_BLOCK)
            kind = SUCC_END, normal = true;
          else
            {
              int v = id_of_bb_index[e->dest->index];
              gcc_assert (v >= 0);
              kind = pn->start[v] ? SUCC_END : SUCC_DAG;
              if (kind == SUCC_DAG)
                indeg[v]++;
              normal = true;
            }
        }
      pn->has_end_slot[u] = !normal;
    }

  topo->truncate (0);
  for (unsigned u = 0; u < n; u++)
    if (!indeg[u])
      topo->safe_push (u);
  for (unsigned i = 0; i < topo->length (); i++)
    {
      unsigned u = (*topo)[i];
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, blocks[u].bb->succs)
        if (pn->succ_kind[pn->succ_base[u] + ei.index] == SUCC_DAG
            && !--indeg[id_of_bb_index[e->dest->index]])
          topo->safe_push (id_of_bb_index[e->dest->index]);
    }
  if (topo->length () != n)
    return false;

  for (unsigned i = n; i-- > 0;)
    {
      unsigned u = (*topo)[i];
      uint64_t np = pn->has_end_slot[u] ? 1 : 0;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, blocks[u].bb->succs)
        switch (pn->succ_kind[pn->succ_base[u] + ei.index])
          {
          case SUCC_END:
            np = sat_add (np, 1);
            break;
          case SUCC_DAG:
            np = sat_add (np, pn->num_paths[id_of_bb_index[e->dest->index]]);
            break;
          default:
            break;
          }
      pn->num_paths[u] = np;
    }
  return true;
}

static uint64_t
total_paths (const path_numbering &pn)
{
  uint64_t total = 0;
  for (unsigned s = 0; s < pn.start.length (); s++)
    if (pn.start[s])
      total = sat_add (total, pn.num_paths[s]);
  return total;
}

/* The block whose cut removes the most paths, or -1 if no cut helps.  */
static int
best_cut (const vec<block_info> &blocks, const vec<int> &id_of_bb_index,
          const path_numbering &pn, const vec<unsigned> &topo)
{
  unsigned n = blocks.length ();
  auto_vec<double> in;
  in.safe_grow_cleared (n);
  for (unsigned u : topo)
    {
      if (pn.start[u])
        in[u] = 1;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, blocks[u].bb->succs)
        if (pn.succ_kind[pn.succ_base[u] + ei.index] == SUCC_DAG)
          in[id_of_bb_index[e->dest->index]] += in[u];
    }
  int best = -1;
  double best_gain = 0;
  for (unsigned v = 0; v < n; v++)
    {
      if (pn.start[v] || !hook_fits_at_start (blocks[v].bb))
        continue;
      double np = (double) pn.num_paths[v];
      double gain = in[v] * np - in[v] - np;
      if (gain > best_gain)
        best = v, best_gain = gain;
    }
  return best;
}

/* Number the paths of the function whose original blocks are BLOCKS.
   WEIGHTS, if not NULL, are previous-run counts per successor slot (cfg
   order).  Returns false, with *WHY set, if the function cannot be given
   path probes.  */
bool
number_paths (function *fun, const vec<block_info> &blocks,
              const vec<int> &id_of_bb_index, const vec<double> *weights,
              path_numbering *pn, const char **why)
{
  unsigned n = blocks.length ();
  pn->start.safe_grow_cleared (n);
  pn->cut.safe_grow_cleared (n);
  pn->has_end_slot.safe_grow_cleared (n);
  pn->num_paths.safe_grow_cleared (n);
  pn->succ_base.safe_grow_cleared (n + 1);
  for (unsigned u = 0; u < n; u++)
    pn->succ_base[u + 1] = pn->succ_base[u] + EDGE_COUNT (blocks[u].bb->succs);
  unsigned nsucc = pn->succ_base[n];
  pn->succ_kind.safe_grow_cleared (nsucc);
  pn->succ_val.safe_grow_cleared (nsucc);
  pn->start_val.safe_grow_cleared (n);
  pn->end_val.safe_grow_cleared (n);
  pn->cuts = 0;

  pn->start[0] = true;
  for (unsigned v = 0; v < n; v++)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, blocks[v].bb->preds)
        if (e->flags & (EDGE_DFS_BACK | EDGE_COMPLEX))
          pn->start[v] = true;
      /* Unreachable code: a start too, so that every block's values lie
         within 0 .. npaths-1.  */
      if (EDGE_COUNT (blocks[v].bb->preds) == 0)
        pn->start[v] = true;
    }

  vec<unsigned> &topo = pn->topo;
  for (;;)
    {
      if (!build_dag (blocks, id_of_bb_index, pn, &topo))
        {
          /* Start a path at the first block of an unreachable cycle.  */
          auto_vec<bool> seen;
          seen.safe_grow_cleared (n);
          for (unsigned u : topo)
            seen[u] = true;
          unsigned v = 0;
          while (seen[v])
            v++;
          pn->start[v] = true;
          continue;
        }
      if (total_paths (*pn) <= opts.max_paths)
        break;
      int v = best_cut (blocks, id_of_bb_index, *pn, topo);
      if (v < 0)
        {
          *why = "its paths cannot be cut below max-paths";
          return false;
        }
      pn->start[v] = pn->cut[v] = true;
      pn->cuts++;
    }

  /* Expected frequency of each successor slot.  */
  auto_vec<double> w;
  for (unsigned u = 0; u < n; u++)
    guess_weights (fun, blocks[u].bb, &w);
  if (weights)
    for (unsigned i = 0; i < nsucc; i++)
      w[i] = (*weights)[i] * 1e6 + w[i] / 1e6; /* counts first, GCC breaks ties */

  auto_vec<unsigned, 16> order;
  for (unsigned u = 0; u < n; u++)
    {
      unsigned base = pn->succ_base[u], cnt = pn->succ_base[u + 1] - base;
      order.truncate (0);
      for (unsigned i = 0; i < cnt; i++)
        order.safe_push (i);
      /* Insertion sort: stable, and blocks have few successors (a switch
         with many cases is sorted once).  */
      for (unsigned i = 1; i < cnt; i++)
        for (unsigned j = i; j > 0 && w[base + order[j]] > w[base + order[j - 1]];
             j--)
          std::swap (order[j], order[j - 1]);
      uint64_t running = 0;
      pn->end_val[u] = OSP_PATH_NONE;
      if (pn->has_end_slot[u])
        pn->end_val[u] = running++;
      for (unsigned i : order)
        {
          edge e = EDGE_SUCC (blocks[u].bb, i);
          switch (pn->succ_kind[base + i])
            {
            case SUCC_END:
              pn->succ_val[base + i] = running++;
              break;
            case SUCC_DAG:
              pn->succ_val[base + i] = running;
              running += pn->num_paths[id_of_bb_index[e->dest->index]];
              break;
            default:
              pn->succ_val[base + i] = OSP_PATH_NONE;
            }
        }
      gcc_checking_assert (running == pn->num_paths[u]);
    }

  /* ROOT's edges: deeper loops first (expected hotter), block 0 first
     among equals.  */
  auto_vec<unsigned> starts;
  for (unsigned v = 0; v < n; v++)
    if (pn->start[v])
      starts.safe_push (v);
    else
      pn->start_val[v] = OSP_PATH_NONE;
  for (unsigned i = 1; i < starts.length (); i++)
    for (unsigned j = i;
         j > 0 && bb_loop_depth (blocks[starts[j]].bb)
                    > bb_loop_depth (blocks[starts[j - 1]].bb);
         j--)
      std::swap (starts[j], starts[j - 1]);
  uint64_t running = 0;
  for (unsigned s : starts)
    {
      pn->start_val[s] = running;
      running += pn->num_paths[s];
    }
  pn->npaths = running;
  return true;
}

/* The record's path words (include/osp/abi.h) and block flags.  */
void
encode_paths (const path_numbering &pn, const vec<block_info> &blocks,
              vec<uint32_t> *cfg_words, vec<uint64_t> *words)
{
  for (unsigned u = 0; u < blocks.length (); u++)
    {
      uint32_t &flags = (*cfg_words)[blocks[u].cfg_offset + 2];
      if (pn.start[u])
        flags |= OSP_BB_PATH_START;
      if (pn.cut[u])
        flags |= OSP_BB_PATH_CUT;
      words->safe_push (pn.start_val[u]);
      words->safe_push (pn.end_val[u]);
      for (unsigned i = pn.succ_base[u]; i < pn.succ_base[u + 1]; i++)
        words->safe_push (pn.succ_val[i]);
    }
}

} // namespace osp

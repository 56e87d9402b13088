/* SPDX-License-Identifier: GPL-3.0-or-later */
/* loops.cc - batched loops (batch-loops=yes): loops whose iterations are
 * counted in a register and handed to the runtime at their exits, instead
 * of checking a countdown in every iteration.
 *
 * Why: an inner loop over an array has a body of 6 to 10 instructions.
 * Its block hooks (two or three instructions each, OSP section 3) and its
 * path check (two, PEP section 3.2) are a large part of it, and in C there
 * is nothing to share them with (PEP's checks ride on a JVM's yieldpoints).
 *
 * Which loops: the header H is the target of exactly one DFS back edge
 * B = L -> H, dominates the natural loop of B, and the body is a chain: a
 * single path H = b0, b1, ..., b(k-1) = L, every block of the loop on it,
 * each with one successor inside the loop (the next one; L's is H, along
 * B).  No call and no asm in the body (so no other function's hooks or path
 * ends happen during the loop, and the loop cannot be left by longjmp or
 * exit), no abnormal or EH exit, and at least one exit (a loop that never
 * exits would never hand its events over).  An inner loop or a branch
 * that stays in the loop makes it ineligible.  Such a loop runs, from its entry to an
 * exit taken from b(j), the block stream
 *     (b0 b1 ... b(k-1)) x n,  b0 ... b(j)
 * where n is the number of times B was taken; and, with path probes, n
 * path ends of one path P (the id on B is a constant: one path leads from
 * H to L) unless a cut starts a path inside the body (probes.cc checks).
 *
 * The counter: a PHI at H, 0 on the loop's entry edges and n + 1 along B
 * (an edge insertion, committed with probes.cc's), which GCC's induction
 * variable optimisations fold into the loop's own counter: at -O2 the loop
 * is then the plain build's.
 *
 * On each exit edge, a flush hands the events to the countdown at once:
 *     c = COUNTDOWN;  COUNTDOWN = c - amount;
 *     if (amount >= c) runtime (&record, ARG, n, c | tail << 32);
 * with amount = n for paths (__osp_path_ends, ARG = P, tail 0) and
 * n * k + j + 1 for blocks (__osp_block_hooks, ARG = the chain's block ids
 * in a read-only array {k, b0 .. b(k-1)}, tail = j + 1).  The runtime then
 * takes the events one by one, in order, exactly where the countdown would
 * have run out (runtime.c), so every profile is the one per-block hooks and
 * per-iteration checks give - draw for draw with the same seed.  What moves
 * is the time: the events of one run of the loop reach the runtime when it
 * exits.  The call is cold, and on x86-64 goes through the preserving
 * trampolines (hooks.cc), which pass the four arguments.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "gimple.h"
#include "basic-block.h"
#include "cfghooks.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "ssa.h"
#include "tree-phinodes.h"
#include "dominance.h"
#include "sbitmap.h"
#include "stringpool.h"
#include "attribs.h"
#include "asan.h"
#include "gimplify.h"
#include "gimplify-me.h"

#include "osp-plugin.h"

namespace osp {

/* Fill L's chain and exits if the loop of its back edge L->back can be
   batched (the header comment).  Needs dominators.  */
static bool
chain_of (batched_loop *l, const vec<int> &id_of_bb_index)
{
  basic_block header = l->back->dest;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, header->preds)
    if (e != l->back && (e->flags & EDGE_DFS_BACK))
      return false;

  /* The natural loop: the header, and what reaches the back edge's source
     without passing the header.  */
  auto_sbitmap in_loop (last_basic_block_for_fn (cfun));
  bitmap_clear (in_loop);
  bitmap_set_bit (in_loop, header->index);
  unsigned size = 1;
  auto_vec<basic_block, 16> work;
  work.safe_push (l->back->src);
  while (!work.is_empty ())
    {
      basic_block bb = work.pop ();
      if (bitmap_bit_p (in_loop, bb->index))
        continue;
      if (bb->index < NUM_FIXED_BLOCKS || id_of_bb_index[bb->index] < 0
          || !dominated_by_p (CDI_DOMINATORS, bb, header))
        return false;
      bitmap_set_bit (in_loop, bb->index);
      size++;
      FOR_EACH_EDGE (e, ei, bb->preds)
        work.safe_push (e->src);
    }

  /* The chain from the header, its exits, and no call or asm on it.  */
  basic_block bb = header;
  for (;;)
    {
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        {
          gimple *stmt = gsi_stmt (gsi);
          if (gimple_code (stmt) == GIMPLE_ASM
              || (is_gimple_call (stmt) && !gimple_call_internal_p (stmt)))
            return false;
        }
      unsigned pos = l->chain.length ();
      l->chain.safe_push (id_of_bb_index[bb->index]);
      basic_block next = NULL;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if (!bitmap_bit_p (in_loop, e->dest->index))
          {
            if (e->flags & EDGE_COMPLEX)
              return false;
            l->exits.safe_push (e);
            l->exit_pos.safe_push (pos);
          }
        else if (next || (e->flags & EDGE_COMPLEX))
          return false; /* the body branches */
        else
          next = e->dest;
      if (!next)
        return false;
      if (next == header)
        /* A loop without exits would never hand its events over.  */
        return bb == l->back->src && l->chain.length () == size
               && !l->exits.is_empty ();
      bb = next;
    }
}

/* Count the iterations of L: a PHI at its header, 0 from outside, + 1
   along its back edge (an edge insertion, committed later).  */
static tree
iteration_counter (edge back)
{
  tree n = make_ssa_name (uint64_type_node);
  tree next = make_ssa_name (uint64_type_node);
  gphi *phi = create_phi_node (n, back->dest);
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, back->dest->preds)
    add_phi_arg (phi, e == back ? next : build_zero_cst (uint64_type_node), e,
                 UNKNOWN_LOCATION);
  gsi_insert_on_edge (back, gimple_build_assign (
                                next, PLUS_EXPR, n,
                                build_one_cst (uint64_type_node)));
  return n;
}

void
find_batched_loops (const vec<block_info> &blocks,
                    const vec<int> &id_of_bb_index, vec<batched_loop> *loops)
{
  bool had_doms = dom_info_available_p (CDI_DOMINATORS);
  if (!had_doms)
    calculate_dominance_info (CDI_DOMINATORS);
  for (const block_info &b : blocks)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, b.bb->preds)
        if (e->flags & EDGE_DFS_BACK)
          {
            batched_loop l = { e, vNULL, vNULL, vNULL, NULL_TREE, false,
                                 0 };
            if (chain_of (&l, id_of_bb_index))
              {
                l.n = iteration_counter (e);
                loops->safe_push (l);
              }
            else
              release_batched_loop (&l);
            break;
          }
    }
  if (!had_doms)
    free_dominance_info (CDI_DOMINATORS);
}

void
release_batched_loop (batched_loop *l)
{
  l->chain.release ();
  l->exits.release ();
  l->exit_pos.release ();
}

/* On exit edge E (the header comment), with CALL's COUNTER, FN,
   RECORD_ADDR, ARG and N:
       c = COUNTER;  COUNTER = c - (uint32) AMOUNT;
       if (AMOUNT >= c) COUNTER = FN (RECORD_ADDR, ARG, N, c | TAIL << 32);
   through the trampoline with calls=preserving.  */
void
emit_batch_flush (edge e, runtime_call call, tree amount, unsigned tail)
{
  tree counter = call.counter;
  location_t loc = UNKNOWN_LOCATION;
  gimple_stmt_iterator last = gsi_last_nondebug_bb (e->src);
  if (!gsi_end_p (last))
    loc = gimple_location (gsi_stmt (last));
  basic_block landing = split_edge (e);
  gimple_stmt_iterator gsi = gsi_after_labels (landing);
  auto emit = [&] (gimple *g) {
    gimple_set_location (g, loc);
    gsi_insert_before (&gsi, g, GSI_SAME_STMT);
    return g;
  };
  auto ssa = [] (tree type) { return make_ssa_name (type); };
  amount = force_gimple_operand_gsi (&gsi, amount, true, NULL_TREE, true,
                                     GSI_SAME_STMT);
  tree c = ssa (uint32_type_node), a32 = ssa (uint32_type_node);
  tree left = ssa (uint32_type_node), c64 = ssa (uint64_type_node);
  emit (gimple_build_assign (c, unshare_expr (counter)));
  emit (gimple_build_assign (a32, NOP_EXPR, amount));
  emit (gimple_build_assign (left, MINUS_EXPR, c, a32));
  emit (gimple_build_assign (unshare_expr (counter), left));
  gimple *at_last = emit (gimple_build_assign (c64, NOP_EXPR, c));
  tree c_tail = c64;
  if (tail)
    {
      c_tail = ssa (uint64_type_node);
      at_last = emit (gimple_build_assign (
        c_tail, BIT_IOR_EXPR, c64,
        build_int_cstu (uint64_type_node, (uint64_t) tail << 32)));
    }

  gimple_stmt_iterator at = gsi_for_stmt (at_last);
  basic_block then_bb, fallthru_bb;
  gimple_stmt_iterator cond_gsi
    = create_cond_insert_point (&at, false, false, true, &then_bb,
                                &fallthru_bb);
  gcond *cond = gimple_build_cond (GE_EXPR, amount, c64, NULL_TREE,
                                   NULL_TREE);
  gimple_set_location (cond, loc);
  gsi_insert_after (&cond_gsi, cond, GSI_NEW_STMT);

  gimple_stmt_iterator then_gsi = gsi_start_bb (then_bb);
  call.c = c_tail;
  call.loc = loc;
  emit_runtime_call (&then_gsi, call);
}

} // namespace osp

/* tailcalls.cc - calls in tail position, so that osp's code for the return
 * goes in front of them and they stay jumps.
 *
 * At -O2 GCC turns a call whose value is returned at once into a jump
 * (-foptimize-sibling-calls: tail recursion becomes a loop early, other
 * tail calls become sibling calls at the end of the pipeline), and
 * programs that recurse through tail calls deeper than their stack
 * depend on it.  osp's code for a return - the path end's check or
 * counter (probes.cc), the return block's hook (hooks.cc), the barrier
 * after a call GCC thinks leaves osp's memory alone (barriers.cc) - would
 * follow the call and keep it a call.  So those steps put it in front of
 * the tail calls found here, on the unchanged CFG, before anything is
 * inserted:
 *
 *   (a) in the return's own block:      x = f (...);  return x;
 *       (only SSA copies and debug statements between them): the path
 *       end goes before the call (the block's hook is at its start
 *       anyway);
 *   (b) in a predecessor of a block that only returns (PHIs, SSA copies,
 *       debug statements and the return):
 *           P:  x = f (...);            R:  y = PHI <x (P), ...>
 *                                           return y;
 *       R's hook and path end go before the call in P, and on R's other
 *       in-edges (split), so R itself keeps only the return.
 *
 * The value is traced through the copies and R's PHI to the call's lhs,
 * as GCC's tail-call pass does; a function returning nothing (or a call
 * whose value is not needed by a void return) qualifies as well.  Calls
 * that end their block (they may throw or jump), returns_twice and
 * internal calls are left alone.
 *
 * What the runtime sees is what the jump does: the return block is
 * reported before the callee's blocks, and the path ends before the
 * callee's paths (doc/PLUGIN.md).  Counts are unchanged.  It is done at
 * every -O level, so that what is reported does not depend on it; GCC
 * only makes the jump where it would in the plain build.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "gimple.h"
#include "basic-block.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "ssa.h"

#include "osp-plugin.h"

namespace osp {

/* What VALUE, used in BB, was before BB's copies and, entering BB along
   IN, before BB's PHIs.  */
static tree
traced_value (tree value, basic_block bb, edge in)
{
  while (value && TREE_CODE (value) == SSA_NAME)
    {
      gimple *def = SSA_NAME_DEF_STMT (value);
      if (gimple_bb (def) != bb)
        break;
      if (gimple_assign_ssa_name_copy_p (def))
        value = gimple_assign_rhs1 (def);
      else if (gphi *phi = dyn_cast<gphi *> (def))
        {
          if (!in)
            break;
          value = PHI_ARG_DEF_FROM_EDGE (phi, in);
        }
      else
        break;
    }
  return value;
}

/* Whether RET returns the value of CALL (or nothing), reached along IN
   (NULL when they share a block).  */
static bool
returns_value_of (greturn *ret, gcall *call, edge in)
{
  tree value = gimple_return_retval (ret);
  if (!value)
    return true;
  tree lhs = gimple_call_lhs (call);
  return lhs && traced_value (value, gimple_bb (ret), in) == lhs;
}

static bool
may_be_tail_call (gimple *stmt)
{
  gcall *call = dyn_cast<gcall *> (stmt);
  return call && !gimple_call_internal_p (call)
         && !(gimple_call_flags (call) & ECF_RETURNS_TWICE)
         && !stmt_ends_bb_p (call);
}

/* The return that ends BB, if BB has nothing else but copies and debug
   statements after position GSI (walking backwards); GSI is left on the
   statement before those.  */
static greturn *
return_after_copies (basic_block bb, gimple_stmt_iterator *gsi)
{
  *gsi = gsi_last_nondebug_bb (bb);
  if (gsi_end_p (*gsi))
    return NULL;
  greturn *ret = dyn_cast<greturn *> (gsi_stmt (*gsi));
  if (!ret)
    return NULL;
  gsi_prev_nondebug (gsi);
  while (!gsi_end_p (*gsi) && gimple_assign_ssa_name_copy_p (gsi_stmt (*gsi)))
    gsi_prev_nondebug (gsi);
  return ret;
}

void
tail_calls::find (function *fun)
{
  list.truncate (0);
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      gimple_stmt_iterator gsi;
      greturn *ret = return_after_copies (bb, &gsi);
      if (!ret)
        continue;
      /* (a) the call in the return's block.  */
      if (!gsi_end_p (gsi) && may_be_tail_call (gsi_stmt (gsi))
          && returns_value_of (ret, as_a<gcall *> (gsi_stmt (gsi)), NULL))
        {
          list.safe_push ({ as_a<gcall *> (gsi_stmt (gsi)), bb, false });
          continue;
        }
      /* (b) calls ending its predecessors, if BB only returns.  */
      edge e;
      edge_iterator ei;
      bool plain_preds = true;
      FOR_EACH_EDGE (e, ei, bb->preds)
        plain_preds &= !(e->flags & EDGE_COMPLEX);
      if (!gsi_end_p (gsi) || !plain_preds)
        continue;
      FOR_EACH_EDGE (e, ei, bb->preds)
        {
          if (e->src->index == ENTRY_BLOCK || !single_succ_p (e->src))
            continue;
          gimple_stmt_iterator last = gsi_last_nondebug_bb (e->src);
          if (!gsi_end_p (last) && may_be_tail_call (gsi_stmt (last))
              && returns_value_of (ret, as_a<gcall *> (gsi_stmt (last)), e))
            list.safe_push ({ as_a<gcall *> (gsi_stmt (last)), bb, true });
        }
    }
}

gcall *
tail_calls::in_block (basic_block bb) const
{
  for (const entry &t : list)
    if (!t.from_pred && t.ret_bb == bb)
      return t.call;
  return NULL;
}

bool
tail_calls::enter (basic_block bb) const
{
  for (const entry &t : list)
    if (t.from_pred && t.ret_bb == bb)
      return true;
  return false;
}

gcall *
tail_calls::on_edge (edge e) const
{
  for (const entry &t : list)
    if (t.from_pred && t.ret_bb == e->dest && gimple_bb (t.call) == e->src)
      return t.call;
  return NULL;
}

bool
tail_calls::contains (gcall *call) const
{
  for (const entry &t : list)
    if (t.call == call)
      return true;
  return false;
}

} // namespace osp

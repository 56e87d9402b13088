/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tailcalls.cc - calls in tail position, so that osp's code for the return
 * goes in front of them and they stay jumps.
 *
 * At -O2 GCC turns a call whose value is returned at once into a jump
 * (-foptimize-sibling-calls: tail recursion becomes a loop early, other
 * tail calls become sibling calls at the end of the pipeline), and
 * programs that recurse through tail calls deeper than their stack
 * depend on it.  osp's code for a return - the path end's check or
 * counter (probes.cc), the hooks of the blocks between the call and the
 * return (hooks.cc), the barrier after a call GCC thinks leaves osp's
 * memory alone (barriers.cc) - would follow the call and keep it a call.
 * So those steps put it in front of the tail calls found here, on the
 * unchanged CFG, before anything is inserted.  Two shapes:
 *
 *   (a) the call in the return's own block:   x = f (...);  return x;
 *       (only copies, debug statements and prediction hints between
 *       them): the path end goes before the call (the block's hook is at
 *       its start anyway);
 *
 *   (b) the call ending a block whose way to the return is a RETURN TREE:
 *       blocks that hold nothing but PHIs, copies (and constants), labels,
 *       prediction hints and debug statements, each with one successor,
 *       down to a block that returns.  Before GCC's copy propagation even
 *           return n > 0 ? f (n - 1) : acc;
 *       reaches its return through two such blocks (the ternary's join,
 *       and the block that merges it with the function's other returns).
 *       Every way into the tree - an edge from a block outside it - runs
 *       one known route of its blocks to the return.  So the tree's blocks
 *       keep no code of osp's: on each way in, the route's hooks and the
 *       path end go before the call that ends the block it comes from, if
 *       the route returns that call's value, else on the edge (split).
 *       Counts stay exact: each route runs its blocks once.
 *
 * The value is traced through the copies and PHIs to the call's lhs, as
 * GCC's tail-call pass does; a function returning nothing (or a call whose
 * value a void return does not need) qualifies as well.  Calls that end
 * their block (they may throw or jump), returns_twice and internal calls
 * are left alone, and so are blocks entered by abnormal edges or from the
 * function's entry.
 *
 * What the runtime sees is what the jump does: the return's blocks are
 * reported before the callee's blocks, the path ends before the callee's
 * paths (doc/PLUGIN.md); on each way in, the path end comes before the
 * route's hooks.  It is done at every -O level, so that what is reported
 * does not depend on it; GCC makes the jump only where it would in the
 * plain build.
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

/* Whether STMT is a copy of an SSA name, or a conversion of one that
   changes no bit (`return (long) f (x);' of an unsigned long f): what
   GCC's tail-call pass looks through (process_assignment).  */
static bool
copy_p (gimple *stmt)
{
  if (gimple_assign_ssa_name_copy_p (stmt))
    return true;
  if (!gimple_assign_cast_p (stmt)
      || TREE_CODE (gimple_assign_rhs1 (stmt)) != SSA_NAME)
    return false;
  tree to = TREE_TYPE (gimple_assign_lhs (stmt));
  tree from = TREE_TYPE (gimple_assign_rhs1 (stmt));
  return TYPE_MODE (to) == TYPE_MODE (from)
         && (!INTEGRAL_TYPE_P (to) || type_has_mode_precision_p (to));
}

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
      if (copy_p (def))
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

/* A statement a return tree's block may hold: a copy (copy_p), a
   constant put in an SSA name, a label (a switch's case, a goto's target),
   or a branch prediction hint.  GCC's early return predictor puts a hint
   after the call of `else return f (x);' (and after any other return in
   a branch), and only the pass profile_estimate, after this one, strips
   them: counted as statements, hints and labels kept such calls from
   ever being jumps.  */
static bool
inert_p (gimple *stmt)
{
  if (gimple_code (stmt) == GIMPLE_PREDICT || gimple_code (stmt) == GIMPLE_LABEL
      || copy_p (stmt))
    return true;
  return gimple_assign_single_p (stmt)
         && TREE_CODE (gimple_assign_lhs (stmt)) == SSA_NAME
         && is_gimple_min_invariant (gimple_assign_rhs1 (stmt));
}

/* The last statement of BB before its trailing inert (inert_p) and debug
   statements (and its return, when RET is given and BB ends in one), or
   NULL if there is none.  *RET gets that return.  */
static gimple *
before_copies (basic_block bb, greturn **ret)
{
  gimple_stmt_iterator gsi = gsi_last_nondebug_bb (bb);
  if (ret)
    {
      *ret = gsi_end_p (gsi) ? NULL : dyn_cast<greturn *> (gsi_stmt (gsi));
      if (*ret)
        gsi_prev_nondebug (&gsi);
    }
  while (!gsi_end_p (gsi) && inert_p (gsi_stmt (gsi)))
    gsi_prev_nondebug (&gsi);
  return gsi_end_p (gsi) ? NULL : gsi_stmt (gsi);
}

static bool
may_be_tail_call (gimple *stmt)
{
  gcall *call = stmt ? dyn_cast<gcall *> (stmt) : NULL;
  return call && !gimple_call_internal_p (call)
         && !(gimple_call_flags (call) & ECF_RETURNS_TWICE)
         && !stmt_ends_bb_p (call);
}

bool
tail_calls::in_tree (basic_block bb) const
{
  return tree_blocks && bb->index < (int) SBITMAP_SIZE (tree_blocks)
         && bitmap_bit_p (tree_blocks, bb->index);
}

basic_block
tail_calls::root (basic_block bb) const
{
  while (in_tree (bb) && single_succ (bb)->index != EXIT_BLOCK)
    bb = single_succ (bb);
  return bb;
}

void
tail_calls::route (basic_block from, vec<basic_block> *blocks) const
{
  blocks->truncate (0);
  basic_block bb = from;
  blocks->safe_push (bb);
  while (bb != root (bb))
    {
      bb = single_succ (bb);
      blocks->safe_push (bb);
    }
}

/* Whether the route from E->dest to the return returns the value of CALL,
   which ends E->src but for copies.  */
bool
tail_calls::returns_value_of (gcall *call, edge e) const
{
  auto_vec<basic_block, 8> route;
  this->route (e->dest, &route);
  greturn *ret = as_a<greturn *> (last_stmt (route.last ()));
  tree value = gimple_return_retval (ret);
  if (!value)
    return true;
  for (unsigned i = route.length (); i-- > 0;)
    value = traced_value (value, route[i],
                          i ? single_succ_edge (route[i - 1]) : e);
  tree lhs = gimple_call_lhs (call);
  return lhs && traced_value (value, e->src, NULL) == lhs;
}

void
tail_calls::find (function *fun, const vec<int> &id_of_bb_index,
                  const vec<bool> *starts)
{
  /* A path start keeps its checks where they are (probes.cc), so it
     cannot be part of a tree.  */
  auto starts_path = [&] (basic_block bb) {
    return starts && (*starts)[id_of_bb_index[bb->index]];
  };
  calls.truncate (0);
  tree_blocks = sbitmap_alloc (last_basic_block_for_fn (fun));
  bitmap_clear (tree_blocks);
  moved_roots = sbitmap_alloc (last_basic_block_for_fn (fun));
  bitmap_clear (moved_roots);

  /* Return trees: their roots, then blocks of copies whose successor is in
     one, until none is added.  */
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      greturn *ret;
      gimple *rest = before_copies (bb, &ret);
      if (!ret)
        continue;
      /* (a) the call in the return's block.  */
      if (may_be_tail_call (rest)
          && (!gimple_return_retval (ret)
              || (gimple_call_lhs (rest)
                  && traced_value (gimple_return_retval (ret), bb, NULL)
                       == gimple_call_lhs (rest))))
        calls.safe_push ({ as_a<gcall *> (rest), NULL });
      else if (!rest && splittable_preds (bb) && !starts_path (bb))
        bitmap_set_bit (tree_blocks, bb->index);
    }
  for (bool grown = true; grown;)
    {
      grown = false;
      FOR_EACH_BB_FN (bb, fun)
        if (!bitmap_bit_p (tree_blocks, bb->index) && single_succ_p (bb)
            && !(single_succ_edge (bb)->flags & EDGE_COMPLEX)
            && bitmap_bit_p (tree_blocks, single_succ (bb)->index)
            && !before_copies (bb, NULL) && splittable_preds (bb)
            && !starts_path (bb))
          {
            bitmap_set_bit (tree_blocks, bb->index);
            grown = true;
          }
    }

  /* (b) calls ending blocks outside a tree with their successor in it.  */
  FOR_EACH_BB_FN (bb, fun)
    {
      if (bitmap_bit_p (tree_blocks, bb->index) || !single_succ_p (bb))
        continue;
      edge e = single_succ_edge (bb);
      if (!bitmap_bit_p (tree_blocks, e->dest->index))
        continue;
      gimple *last = before_copies (bb, NULL);
      if (may_be_tail_call (last)
          && returns_value_of (as_a<gcall *> (last), e))
        {
          calls.safe_push ({ as_a<gcall *> (last), e->dest });
          bitmap_set_bit (moved_roots, root (e->dest)->index);
        }
    }
}

tail_calls::~tail_calls ()
{
  if (tree_blocks)
    sbitmap_free (tree_blocks);
  if (moved_roots)
    sbitmap_free (moved_roots);
}

gcall *
tail_calls::in_block (basic_block bb) const
{
  for (const tail_call &t : calls)
    if (!t.into && gimple_bb (t.call) == bb)
      return t.call;
  return NULL;
}

/* The walk to the root ends outside the trees when an edge on it was split
   after find (the path probes' edge inserts): a block new since then, with
   an index past the bitmaps, whose bit would be read from beyond
   moved_roots -- heap garbage that made two identical compiles of SQLite's
   amalgamation keep or drop a hook differently.  Such a block is on no way
   into its root (ways_in walks the trees only), so it keeps its hook.  */
bool
tail_calls::moved (basic_block bb) const
{
  if (!in_tree (bb))
    return false;
  basic_block r = root (bb);
  return in_tree (r) && bitmap_bit_p (moved_roots, r->index);
}

bool
tail_calls::moved_root (basic_block bb) const
{
  return moved (bb) && root (bb) == bb;
}

void
tail_calls::ways_in (basic_block root_bb, vec<way_in> *ways) const
{
  ways->truncate (0);
  auto_vec<basic_block, 16> work;
  work.safe_push (root_bb);
  while (!work.is_empty ())
    {
      basic_block bb = work.pop ();
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->preds)
        if (in_tree (e->src))
          work.safe_push (e->src);
        else
          {
            gcall *call = NULL;
            for (const tail_call &t : calls)
              if (t.into == bb && gimple_bb (t.call) == e->src)
                call = t.call;
            ways->safe_push ({ e, call });
          }
    }
}

bool
tail_calls::contains (gcall *call) const
{
  for (const tail_call &t : calls)
    if (t.call == call)
      return true;
  return false;
}

} // namespace osp

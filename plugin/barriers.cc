/* SPDX-License-Identifier: GPL-3.0-or-later */
/* barriers.cc - keep osp's counters in memory across calls to functions
 * that GCC believes leave them alone.
 *
 * osp's code reads and writes memory that only osp knows about: the
 * thread's block countdown (__osp_skip), its path countdown
 * (__osp_path_countdown) and the function's path counters.  Between two
 * hooks GCC may keep a countdown in a register, and across a call it must
 * assume the callee changed it - unless it "knows" better:
 *
 *   - the callee is declared const or pure (by the program, or by GCC's
 *     IPA pure-const analysis), or
 *   - with placement=late, GCC's IPA analyses (ipa-modref, ipa-reference)
 *     summarised the callee's memory accesses before osp instrumented it.
 *
 * Either way the summary is of the callee without osp's code, and it is
 * wrong about osp's memory: the callee's hooks decrement the same
 * countdown.  A caller that kept the countdown in a register across the
 * call (or sank its store past it) would undo the callee's decrements, and
 * a recursive function could lose counts.  The program would compute the
 * same, but the samples would be drawn at the wrong places (a recursive
 * const function such as fib would see far fewer of them).
 *
 * So such a call is bracketed by empty asm statements that read and write
 * exactly osp's memory:
 *
 *     asm volatile ("" : "=m" (__osp_skip) : "m" (__osp_skip));
 *     x = callee (...);
 *     asm volatile ("" : "=m" (__osp_skip) : "m" (__osp_skip));
 *
 * (and __osp_path_countdown if the function has checks of their own, not
 * shared ones, which read __osp_skip; with counters, a
 * "memory" clobber: the callee may add to the same array, a recursive
 * function to its own).  They emit no
 * instruction.  The first forces the countdown to memory before the call,
 * the second makes GCC load it again after.  The program's own memory is
 * not named, so the optimisations GCC makes around a const or pure call
 * in the plain build (keeping a value in a register across it, merging
 * two pure calls) stay possible; a const call may still move or vanish,
 * as in the plain build.  In the early placement only const and pure
 * callees need this (IPA analyses the instrumented bodies there); with
 * placement=late, also every call to a function defined in the unit.
 * Calls to osp's runtime, to GCC's builtins and returns_twice calls (in
 * front of which nothing may go, hooks.cc) are left alone, and a call in
 * tail position (tailcalls.cc) gets no barrier after it: only the return
 * follows, and the barrier would keep the call from becoming a jump.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "gimple.h"
#include "basic-block.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "cgraph.h"
#include "calls.h"

#include "osp-plugin.h"

namespace osp {

/* Whether GCC may believe CALL leaves osp's memory alone.  */
static bool
needs_barriers (gcall *call)
{
  if (gimple_call_internal_p (call))
    return false;
  int flags = gimple_call_flags (call);
  if (flags & ECF_RETURNS_TWICE)
    return false;
  tree fndecl = gimple_call_fndecl (call);
  if (fndecl && (fndecl_built_in_p (fndecl) || is_runtime_function (fndecl)))
    return false;
  if (flags & (ECF_CONST | ECF_PURE | ECF_NOVOPS))
    return true;
  if (!opts.late || !fndecl)
    return false;
  cgraph_node *node = cgraph_node::get (fndecl);
  return node && node->definition;
}

static gasm *
build_barrier (unsigned fn_flags)
{
  vec<tree, va_gc> *inputs = NULL, *outputs = NULL, *clobbers = NULL;
  auto name = [&] (tree var) {
    vec_safe_push (outputs, asm_operand ("=m", var));
    vec_safe_push (inputs, asm_operand ("m", var));
  };
  if (fn_flags & OSP_FN_BLOCK_HOOKS)
    name (skip_decl);
  if ((fn_flags & OSP_FN_PATH_CHECKS) && !(fn_flags & OSP_FN_PATH_SHARED))
    name (countdown_decl);
  if (fn_flags & OSP_FN_PATH_COUNTS)
    vec_safe_push (clobbers,
                   build_tree_list (NULL_TREE, build_string (7, "memory")));
  gasm *stmt = gimple_build_asm_vec ("", inputs, outputs, clobbers, NULL);
  gimple_asm_set_volatile (stmt, true);
  return stmt;
}

void
insert_call_barriers (function *fun, unsigned fn_flags,
                      const tail_calls &tails)
{
  if (!(fn_flags & (OSP_FN_BLOCK_HOOKS | OSP_FN_PATH_CHECKS
                    | OSP_FN_PATH_COUNTS)))
    return;
  auto_vec<gcall *> calls;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      if (gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi)))
        if (needs_barriers (call))
          calls.safe_push (call);
  for (gcall *call : calls)
    {
      location_t loc = gimple_location (call);
      gimple_stmt_iterator gsi = gsi_for_stmt (call);
      gasm *before = build_barrier (fn_flags);
      gimple_set_location (before, loc);
      gsi_insert_before (&gsi, before, GSI_SAME_STMT);
      /* After a tail call only the return runs: none of osp's code reads
         the countdowns again, and a barrier would keep it a call.  */
      if (gimple_call_noreturn_p (call) || tails.contains (call))
        continue;
      if (!stmt_ends_bb_p (call))
        {
          gasm *after = build_barrier (fn_flags);
          gimple_set_location (after, loc);
          gsi_insert_after (&gsi, after, GSI_SAME_STMT);
          continue;
        }
      /* A call that may throw or jump: after it on its normal way out.  */
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, gimple_bb (call)->succs)
        if (!(e->flags & (EDGE_EH | EDGE_ABNORMAL)))
          {
            gasm *after = build_barrier (fn_flags);
            gimple_set_location (after, loc);
            gsi_insert_on_edge (e, after);
          }
    }
  gsi_commit_edge_inserts ();
}

} // namespace osp

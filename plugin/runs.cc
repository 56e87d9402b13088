/* SPDX-License-Identifier: GPL-3.0-or-later */
/* runs.cc - one countdown test for a run of them (fold-tests=yes).
 *
 * Why: with the default placement the osp pass instruments each function
 * before GCC's inliners (doc/PLUGIN.md), so a small function inlined later
 * brings its blocks' tests into its caller, where they sit in a straight
 * line with a few of the program's instructions between them: bench/
 * raytrace's intersect_sphere runs six tests before its first branch,
 * from the v_sub and v_dot it inlined.  Each is a decrement and a branch
 * (PERFORMANCE.md, "Where the time goes"); one test can stand for them.
 *
 * A run: blocks B1 .. Bk, each ending in a test of the same countdown V
 * (hooks.cc's `V = V - 1; if (V == 0) hook'), where Bi's test, when it
 * does not fire, goes straight to B(i+1) and its hook block Hi joins it
 * there, and B(i+1) runs nothing before its test that could run a test
 * of ours or look at V (no call of the program's, no asm).  Of the k
 * tests from B1 on, one fires exactly when 1 <= V <= k at B1.  So B1
 * tests (uint32) V <= k instead (V = 0 passes too: the tests below then
 * fire none, as they would have), and lowers V by k: when it fails
 * (nearly always), B2 .. Bk run with no test at all; when it holds, a
 * chain of new blocks S1 .. Sk runs first, Si holding Bi's test and Hi
 * its hook, each in its place: V is put back to B1's V - 1 (computed
 * there from the lowered V, so that only that one lives on past B1's
 * test: `lea -k(V), V'; cmp $k, V; jbe'; testing V - 1 < k kept V - 1
 * as well, a fourth instruction) and the k tests run in order, then B2.
 * The hooks run in the same order, with the same arguments, and each
 * test sees V as it did, so every sample and every draw is the unfolded
 * program's (tests/paths.sh compares the builds); only the program's
 * statements in B2 .. Bk run after the run's hooks rather than between
 * them, which the runtime cannot tell: a hook records a block id and
 * reads nothing of the program's.  A hook moves only if what it reads
 * is computed before B1 or in its own block.
 *
 * A shared path check (`if (V == 1) path end', include/osp/abi.h "one
 * countdown") may be one of the tests: it does not lower V, and fires
 * exactly when the next hook of the run would, or the first one after
 * it.  With h hooks in the run, a check after the last of them fires at
 * V = h + 1, every other test at some V in [1, h]: B1 tests V <= h, or
 * V <= h + 1 with such a last check, and lowers V by h.  A run has at
 * least two hooks.  A hook and a check alone (a block's hook, then the
 * path end on its way into a loop) stay apart, the hook folded (fold.cc)
 * and the check with its cold block: as a run they were three
 * instructions instead of four, but four cold blocks instead of one,
 * and Lua's lvm.c, an interpreter with such a pair per opcode, compiled
 * 25% slower; bzip2 ran more instructions.
 *
 * Where: in a pass of its own after the pass that versions loops
 * (versions.cc), which recognises the tests by their shape: a folded
 * run's first test is no longer in that shape, and the loop around it
 * would not be versioned.  Only when optimizing, with the default
 * placement (with placement=late a function's inlined callees are
 * instrumented as part of it, without such runs), and not under -flto,
 * where the late passes run at link time without the plugin.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "gimple.h"
#include "basic-block.h"
#include "cfghooks.h"
#include "cfganal.h"
#include "cfgloop.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "ssa.h"
#include "dominance.h"
#include "gimplify.h"
#include "tree-into-ssa.h"
#include "tree-ssa.h"
#include "tree-pass.h"
#include "context.h"
#include "diagnostic-core.h"

#include "osp-plugin.h"

namespace osp {

/* One test of a run: the block it ends, its hook block, and the three
   statements before its condition.  */
struct run_test
{
  basic_block bb, hook;
  gassign *load, *dec, *store; /* a check: no dec, no store */
  edge fire, keep;
  bool check;
};

/* Whether BB ends in a test of countdown C whose statements are BB's last
   four (debug statements aside): `t = V; d = t - 1; V = d; if (d == 0)',
   or its last two, `t = V; if (t == 1)', a shared path check (versions.cc
   shared_check_p).  If so, T describes it.  */
static bool
whole_test (basic_block bb, int c, run_test *t)
{
  gimple *last = last_stmt (bb);
  if (!last || tested_countdown (last) != c || EDGE_COUNT (bb->succs) != 2)
    return false;
  gcond *cond = as_a<gcond *> (last);
  t->bb = bb;
  t->hook = hook_block (bb);
  t->check = shared_check_p (last);
  extract_true_false_edges_from_block (bb, &t->fire, &t->keep);
  t->dec = t->store = NULL;
  gimple *def = SSA_NAME_DEF_STMT (gimple_cond_lhs (cond));
  if (!t->check)
    {
      t->dec = as_a<gassign *> (def);
      def = SSA_NAME_DEF_STMT (gimple_assign_rhs1 (t->dec));
    }
  t->load = dyn_cast<gassign *> (def);
  if (!t->load || gimple_bb (t->load) != bb
      || !gimple_assign_single_p (t->load)
      || gimple_assign_rhs1 (t->load) != countdown_var (c))
    return false;
  gimple_stmt_iterator gsi = gsi_for_stmt (t->load);
  gsi_next_nondebug (&gsi);
  if (!t->check)
    {
      if (gsi_end_p (gsi) || gsi_stmt (gsi) != t->dec)
        return false;
      gsi_next_nondebug (&gsi);
      t->store = gsi_end_p (gsi) ? NULL : dyn_cast<gassign *> (gsi_stmt (gsi));
      if (!t->store
          || gimple_assign_lhs (t->store) != gimple_assign_rhs1 (t->load)
          || gimple_assign_rhs1 (t->store) != gimple_assign_lhs (t->dec))
        return false;
      gsi_next_nondebug (&gsi);
    }
  if (gsi_end_p (gsi) || gsi_stmt (gsi) != cond)
    return false;
  /* Nothing else may use the values: they move (or, in B1, change).  */
  return has_single_use (gimple_assign_lhs (t->load))
         && (t->check || num_imm_uses (gimple_assign_lhs (t->dec)) == 2);
}

/* Whether T's hook may run at the head of a run that starts at FIRST: it
   only calls the runtime and stores the countdown, reads nothing computed
   after FIRST's statements, and joins T's test at the next block, which
   nothing else enters, in the same loop.  */
static bool
movable_hook (const run_test &t, basic_block first)
{
  basic_block h = t.hook, next = t.keep->dest;
  class loop *loop = first->loop_father;
  if (!single_pred_p (h) || !single_succ_p (h) || single_succ (h) != next
      || EDGE_COUNT (next->preds) != 2 || h->loop_father != loop
      || next->loop_father != loop || (loop && next == loop->header))
    return false;
  /* The join's PHIs go (fold_run): a virtual one, or one whose two
     arguments are the same value (the path register's reset, a copy).  */
  for (gphi_iterator g = gsi_start_phis (next); !gsi_end_p (g); gsi_next (&g))
    if (!virtual_operand_p (gimple_phi_result (g.phi ()))
        && !degenerate_phi_result (g.phi ()))
      return false;
  tree v = gimple_assign_rhs1 (t.load);
  for (gimple_stmt_iterator gsi = gsi_start_bb (h); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      gimple *stmt = gsi_stmt (gsi);
      if (is_gimple_debug (stmt))
        continue;
      /* The call, the store of what it returns, and a check's argument
         (the path register plus the edge's value: no memory).  */
      if (gimple_code (stmt) != GIMPLE_ASM
          && !(gimple_assign_single_p (stmt) && gimple_assign_lhs (stmt) == v)
          && !(is_gimple_assign (stmt)
               && TREE_CODE (gimple_assign_lhs (stmt)) == SSA_NAME
               && !gimple_vuse (stmt)))
        return false;
      ssa_op_iter it;
      tree use;
      FOR_EACH_SSA_TREE_OPERAND (use, stmt, it, SSA_OP_USE)
        {
          basic_block def = gimple_bb (SSA_NAME_DEF_STMT (use));
          if (def && def != h && !dominated_by_p (CDI_DOMINATORS, first, def))
            return false;
        }
    }
  return true;
}

/* Whether BB's statements before its test T leave every test of ours and
   V alone: no call other than harmless ones, no asm.  */
static bool
program_only (basic_block bb, const run_test &t)
{
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb);
       gsi_stmt (gsi) != t.load; gsi_next (&gsi))
    {
      gimple *stmt = gsi_stmt (gsi);
      if (gimple_code (stmt) == GIMPLE_ASM
          || (is_gimple_call (stmt) && !harmless_call (stmt)))
        return false;
    }
  return true;
}

/* The longest run that starts with BB's test, appended to RUN; blocks
   already in a run (USED) are not taken again.  Returns its length.  */
static unsigned
find_run (basic_block bb, sbitmap used, vec<run_test> *run)
{
  unsigned start = run->length ();
  gimple *last = last_stmt (bb);
  int c = last ? tested_countdown (last) : -1;
  run_test t;
  if (c < 0 || !whole_test (bb, c, &t))
    return 0;
  while (!bitmap_bit_p (used, t.bb->index) && movable_hook (t, bb))
    {
      run->safe_push (t);
      bitmap_set_bit (used, t.bb->index);
      basic_block next = t.keep->dest;
      if (!whole_test (next, c, &t) || !program_only (next, t))
        break;
    }
  unsigned hooks = 0;
  for (unsigned i = start; i < run->length (); i++)
    hooks += !(*run)[i].check;
  if (hooks < 2)
    {
      while (run->length () > start)
        bitmap_clear_bit (used, run->pop ().bb->index);
      return 0;
    }
  return run->length () - start;
}

/* Fold the K tests of RUN (the header comment): B1 tests them all, S1 ..
   Sk replay them.  */
static void
fold_run (const run_test *run, unsigned k)
{
  const run_test &first = run[0];
  basic_block rest = first.keep->dest, after = run[k - 1].keep->dest;
  class loop *loop = first.bb->loop_father;

  /* The joins' virtual PHIs lose their meaning; update_ssa makes new
     ones.  The others (movable_hook) are copies of one value.  */
  for (unsigned i = 1; i <= k; i++)
    {
      basic_block b = i < k ? run[i].bb : after;
      for (gphi_iterator g = gsi_start_phis (b); !gsi_end_p (g);)
        {
          gphi *phi = g.phi ();
          if (virtual_operand_p (gimple_phi_result (phi)))
            mark_virtual_phi_result_for_renaming (phi);
          else
            replace_uses_by (gimple_phi_result (phi),
                             degenerate_phi_result (phi));
          remove_phi_node (&g, true);
        }
    }

  profile_probability some = first.fire->probability.apply_scale (k, 1);
  auto_vec<basic_block, 8> chain;
  for (unsigned i = 0; i < k; i++)
    {
      basic_block s = create_empty_bb (i ? chain[i - 1] : first.bb);
      if (loop)
        add_bb_to_loop (s, loop);
      s->count = first.bb->count.apply_probability (some);
      chain.safe_push (s);
    }

  /* B1: V in [1, reach], and V drops by the run's hooks; S1 puts back
     what B1's own test left in V and tests it.  */
  unsigned hooks = 0, reach = 0;
  for (unsigned i = 0; i < k; i++)
    {
      hooks += !run[i].check;
      reach = MAX (reach, hooks + run[i].check);
    }
  tree v = gimple_assign_rhs1 (first.load);
  tree before = gimple_assign_lhs (first.load), type = TREE_TYPE (before);
  tree dropped = make_ssa_name (type);
  gimple_stmt_iterator gsi = gsi_for_stmt (first.check ? first.load
                                                        : first.store);
  gassign *drop = gimple_build_assign (dropped, MINUS_EXPR, before,
                                       build_int_cst (type, hooks));
  if (first.check)
    {
      gsi_insert_after (&gsi, drop, GSI_NEW_STMT);
      gsi_insert_after (&gsi, gimple_build_assign (unshare_expr (v), dropped),
                        GSI_NEW_STMT);
    }
  else
    {
      gsi_insert_before (&gsi, drop, GSI_SAME_STMT);
      gimple_assign_set_rhs1 (first.store, dropped);
      update_stmt (first.store);
    }
  gcond *choose = as_a<gcond *> (last_stmt (first.bb));
  gimple_cond_set_code (choose, LE_EXPR);
  gimple_cond_set_lhs (choose, before);
  gimple_cond_set_rhs (choose, build_int_cst (type, reach));
  update_stmt (choose);
  tree again = make_ssa_name (type);
  gsi = gsi_start_bb (chain[0]);
  gsi_insert_after (&gsi,
                    gimple_build_assign (again, PLUS_EXPR, dropped,
                                         build_int_cst (type, hooks
                                                              - !first.check)),
                    GSI_NEW_STMT);
  gsi_insert_after (&gsi, gimple_build_assign (unshare_expr (v), again),
                    GSI_NEW_STMT);
  gsi_insert_after (&gsi,
                    gimple_build_cond (EQ_EXPR, again,
                                       build_int_cst (type, first.check),
                                       NULL_TREE, NULL_TREE),
                    GSI_NEW_STMT);

  /* B2 .. Bk hand their tests to S2 .. Sk and fall through.  */
  for (unsigned i = 1; i < k; i++)
    {
      const run_test &t = run[i];
      gimple *moved[] = { t.load, t.dec, t.store, last_stmt (t.bb) };
      for (gimple *stmt : moved)
        if (stmt)
          {
            gsi = gsi_for_stmt (stmt);
            gsi_move_to_bb_end (&gsi, chain[i]);
          }
      t.keep->flags &= ~(EDGE_TRUE_VALUE | EDGE_FALSE_VALUE);
      t.keep->flags |= EDGE_FALLTHRU;
      t.keep->probability = profile_probability::always ();
    }

  /* The edges: B1 to S1 when a test fires; Si to its hook and on to
     S(i+1), the last to B2.  */
  for (unsigned i = 0; i < k; i++)
    {
      const run_test &t = run[i];
      basic_block next = i + 1 < k ? chain[i + 1] : rest;
      profile_probability fires = t.fire->probability;
      redirect_edge_pred (t.fire, chain[i]);
      edge on = make_edge (chain[i], next, EDGE_FALSE_VALUE);
      on->probability = fires.invert ();
      redirect_edge_succ (single_succ_edge (t.hook), next);
    }
  edge e = make_edge (first.bb, chain[0], EDGE_TRUE_VALUE);
  e->probability = some;
  first.keep->probability = some.invert ();
}

/* Fold the runs of tests in FUN; returns how many tests they had.  */
static unsigned
fold_test_runs (function *fun)
{
  calculate_dominance_info (CDI_DOMINATORS);
  int *rpo = XNEWVEC (int, n_basic_blocks_for_fn (fun));
  int nrpo = pre_and_rev_post_order_compute_fn (fun, NULL, rpo, false);
  auto_sbitmap used (last_basic_block_for_fn (fun));
  bitmap_clear (used);
  auto_vec<run_test> tests;
  auto_vec<unsigned> lengths;
  for (int i = 0; i < nrpo; i++)
    if (unsigned k = find_run (BASIC_BLOCK_FOR_FN (fun, rpo[i]), used, &tests))
      lengths.safe_push (k);
  free (rpo);
  unsigned folded = 0;
  for (unsigned k : lengths)
    {
      fold_run (&tests[folded], k);
      folded += k;
    }
  free_dominance_info (CDI_DOMINATORS);
  if (folded)
    {
      mark_virtual_operands_for_renaming (fun);
      update_ssa (TODO_update_ssa);
    }
  return folded;
}

const pass_data runs_pass_data = gimple_pass_data ("osp_runs");

class runs_pass : public gimple_opt_pass
{
public:
  runs_pass (gcc::context *ctxt) : gimple_opt_pass (runs_pass_data, ctxt) {}

  bool gate (function *) final override
  {
    /* With placement=late the runs this folds do not exist: they come from
       the IPA inliner, which then runs before the osp pass.  */
    return optimize && opts.fold_tests && !opts.late
           && (skip_decl || countdown_decl);
  }

  unsigned int execute (function *fun) final override
  {
    unsigned n = fold_test_runs (fun);
    if (n && opts.verbose)
      inform (DECL_SOURCE_LOCATION (fun->decl),
              "osp: %u tests folded into runs in %s", n, display_name (fun));
    return n ? TODO_cleanup_cfg : 0;
  }
};

gimple_opt_pass *
make_runs_pass (gcc::context *ctxt)
{
  return new runs_pass (ctxt);
}

} // namespace osp

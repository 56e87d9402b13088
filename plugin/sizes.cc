/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sizes.cc - what GCC's IPA inliner is told about the size of an
 * instrumented function (option inline-sizes=plain|instrumented).
 *
 * With the default placement the osp pass runs before the IPA passes
 * (plugin.cc), so when the IPA inliner weighs a call it sees the callee
 * with osp's code: each hooked block brings a countdown test (load,
 * decrement, store, compare: 5 of the inliner's size units) and a cold block
 * (the trampoline's asm, 3 units for its three lines, and the store of the
 * re-armed countdown).  A helper of three blocks that the plain build
 * inlines (bench/montecarlo's `mc_uniform', tests/progs/inlining.c's
 * `uniform') then passes --param max-inline-insns-auto and stays a call,
 * and the loop around the call keeps a hook per block and its tests, since
 * loops with a call are neither batched nor versioned.
 *
 * So, with inline-sizes=plain (the default), the IPA pass "osp_sizes" has
 * each function measured again without osp's code, right after "fnsummary"
 * (ipa-fnsummary.cc) has measured every function for the inliner: in the
 * summary-making step of the regular IPA passes, before any of them acts
 * (ipa-cp's clones copy the summaries) and before -flto streams the
 * summaries to the link-time inliner.  osp's code is its effects (the
 * countdowns' stores and tests, the path counters' updates, the
 * trampolines' asm, runtime calls, barriers) and every statement whose
 * value only they use (the countdowns' loads and decrements, the path
 * register's additions and PHIs, the counters' addresses): the largest set
 * of value-only statements used only inside the set.
 *
 * Why measure again rather than subtract: GCC spreads a function's size
 * over a table of entries, each under the predicate of the blocks it
 * counts (what is known when a call passes constants: `executed if op1 >
 * 0'), and a caller passing constants is charged only the entries that
 * hold for them.  Subtracting osp's total, as this pass first did, took it
 * off whichever entries came first, and left it on the others: Lua's
 * index2value, 33 units plain, kept 28.5 of osp's under `op1 > 0', so its
 * callers passing index 1 or -1 (lua_geti, lua_compare) no longer
 * inlined it.  Which entry a block falls under is fnsummary's own
 * computation, not exported.  So its compute_fn_summary runs once more
 * with osp's assignments and asm statements replaced by GIMPLE_NOPs (a
 * store by a clobber of its variable, which keeps the chain of virtual
 * definitions that fnsummary walks), and its countdown tests made tests
 * of constants, which fnsummary counts as folded away; then everything
 * is put back.  What computes a call's
 * arguments stays (fnsummary reads it), and osp's calls (runtime calls
 * with calls=plain, atomic counter updates) get size and time 0 on their
 * call graph edges, as GCC's own builtins that expand inline do.
 * The inliner then decides about as for the plain build; the inlined
 * copies keep their hooks, which report to the function they came from, so
 * the code grows by them (as with placement=late, where the inliner sees
 * plain code too).
 *
 * The early inliner still sees the instrumented sizes: a callee it merged
 * would bring its tests into a caller not yet instrumented, whose pass
 * would number the blocks they split as blocks of its own (doc/PLUGIN.md,
 * "Optimisation levels").  With placement=late there is no osp code yet.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "gimple.h"
#include "alloc-pool.h"
#include "ssa.h"
#include "basic-block.h"
#include "gimple-iterator.h"
#include "cgraph.h"
#include "tree-inline.h"
#include "symbol-summary.h"
#include "ipa-prop.h"
#include "ipa-fnsummary.h"
#include "diagnostic-core.h"
#include "tree-eh.h"

#include "osp-plugin.h"

namespace osp {

/* Is T one of the countdowns, or an operand list naming one?  */
static bool
names_countdown (tree t)
{
  if (t && TREE_CODE (t) == TREE_LIST)
    return names_countdown (TREE_VALUE (t));
  return t && (t == skip_decl || t == countdown_decl);
}

/* Is REF a path counter (probes.cc emit_path_count: an element of an
   array of counters), or PTR its address?  Judged by the base object, so
   that a MEM_REF that folding might make of the element (none in bench/'s
   early dumps, GCC 12) is still osp's.  */
static bool
counter_p (tree ref)
{
  tree base = get_base_address (ref);
  return base && path_counters_p (base);
}

static bool
counter_address_p (tree ptr)
{
  if (TREE_CODE (ptr) == SSA_NAME)
    if (gassign *def = dyn_cast<gassign *> (SSA_NAME_DEF_STMT (ptr)))
      if (gimple_assign_rhs_code (def) == ADDR_EXPR)
        ptr = gimple_assign_rhs1 (def);
  return TREE_CODE (ptr) == ADDR_EXPR && counter_p (TREE_OPERAND (ptr, 0));
}

/* Is STMT one of osp's effects: a store to a countdown or a path counter,
   a countdown's test, a trampoline's asm, a barrier, a runtime call?  */
static bool
osp_effect_p (gimple *stmt)
{
  if (gassign *a = dyn_cast<gassign *> (stmt))
    {
      tree lhs = gimple_assign_lhs (a);
      return names_countdown (lhs) || counter_p (lhs);
    }
  if (is_a<gcond *> (stmt))
    return tested_countdown (stmt) >= 0;
  if (gasm *asm_stmt = dyn_cast<gasm *> (stmt))
    {
      if (strstr (gimple_asm_string (asm_stmt), "__osp_"))
        return true;
      for (unsigned i = 0; i < gimple_asm_noutputs (asm_stmt); i++)
        if (names_countdown (gimple_asm_output_op (asm_stmt, i)))
          return true;
      return false;
    }
  if (gcall *call = dyn_cast<gcall *> (stmt))
    {
      if (gimple_call_builtin_p (call, BUILT_IN_ATOMIC_FETCH_ADD_8))
        return counter_address_p (gimple_call_arg (call, 0));
      return is_runtime_function (gimple_call_fndecl (call));
    }
  return false;
}

/* A statement that only computes a value: a PHI or an assignment to an
   SSA name that stores nothing and cannot trap.  */
static bool
value_only_p (function *fun, gimple *stmt)
{
  if (gphi *phi = dyn_cast<gphi *> (stmt))
    return !virtual_operand_p (gimple_phi_result (phi));
  return is_gimple_assign (stmt) && !gimple_vdef (stmt)
         && TREE_CODE (gimple_assign_lhs (stmt)) == SSA_NAME
         && !gimple_has_side_effects (stmt)
         && !stmt_could_throw_p (fun, stmt);
}

/* Push onto WORK the statements defining the SSA names STMT uses (a
   PHI's arguments included).  */
static void
push_definitions (gimple *stmt, vec<gimple *> *work)
{
  ssa_op_iter oi;
  tree op;
  if (gphi *phi = dyn_cast<gphi *> (stmt))
    {
      for (unsigned i = 0; i < gimple_phi_num_args (phi); i++)
        if (TREE_CODE (op = gimple_phi_arg_def (phi, i)) == SSA_NAME)
          work->safe_push (SSA_NAME_DEF_STMT (op));
    }
  else
    FOR_EACH_SSA_TREE_OPERAND (op, stmt, oi, SSA_OP_USE)
      work->safe_push (SSA_NAME_DEF_STMT (op));
}

/* osp's code in FUN, in the function's statement order: its effects, and
   every value computed only for them (the countdowns' loads and
   decrements, the path register's additions and PHIs, the counters'
   addresses and counts).  Found as the largest set of value-only
   statements whose results are used only inside the set: start from all
   those with uses, drop any with a use outside, and re-examine what a
   dropped statement used.  In statement order, not the set's (hashed by
   address), so that two identical compiles do the same.  */
static void
osp_code (function *fun, auto_vec<gimple *> *in_order)
{
  hash_set<gimple *> osp;
  auto_vec<gimple *> work;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      for (gphi_iterator pi = gsi_start_phis (bb); !gsi_end_p (pi);
           gsi_next (&pi))
        if (value_only_p (fun, pi.phi ())
            && !has_zero_uses (gimple_phi_result (pi.phi ())))
          {
            osp.add (pi.phi ());
            work.safe_push (pi.phi ());
          }
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        {
          gimple *stmt = gsi_stmt (gsi);
          if (osp_effect_p (stmt))
            osp.add (stmt);
          else if (value_only_p (fun, stmt)
                   && !has_zero_uses (gimple_assign_lhs (stmt)))
            {
              osp.add (stmt);
              work.safe_push (stmt);
            }
        }
    }
  while (!work.is_empty ())
    {
      gimple *stmt = work.pop ();
      if (!osp.contains (stmt))
        continue;
      tree lhs = gimple_get_lhs (stmt);
      bool outside = false;
      imm_use_iterator it;
      use_operand_p use;
      FOR_EACH_IMM_USE_FAST (use, it, lhs)
        if (!is_gimple_debug (USE_STMT (use))
            && !osp.contains (USE_STMT (use)))
          {
            outside = true;
            break;
          }
      if (!outside)
        continue;
      osp.remove (stmt);
      /* What it used may now have a use outside the set.  */
      push_definitions (stmt, &work);
    }
  FOR_EACH_BB_FN (bb, fun)
    {
      for (gphi_iterator pi = gsi_start_phis (bb); !gsi_end_p (pi);
           gsi_next (&pi))
        if (osp.contains (pi.phi ()))
          in_order->safe_push (pi.phi ());
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        if (osp.contains (gsi_stmt (gsi)))
          in_order->safe_push (gsi_stmt (gsi));
    }
}

/* osp's statements out of the body while fnsummary measures it again: each
   assignment and asm replaced by a GIMPLE_NOP, each store by a clobber of
   what it stores to (both cost nothing), each
   countdown test made a test of two constants (which fnsummary counts
   as code that inlining folds away, so not at all).  PHIs cost nothing
   anyway; calls stay, summarised on their edges.  */
struct hidden_stmt
{
  gimple *original, *nop, *clobber; /* the clobber before the nop, or NULL */
};

struct hidden_code
{
  auto_vec<hidden_stmt, 64> stmts;
  auto_vec<std::pair<gcond *, tree>, 64> tests;      /* {test, its lhs} */
};

static void
hide_osp_code (const vec<gimple *> &code, hidden_code *h)
{
  /* What a call's arguments are computed from stays: fnsummary reads the
     definitions of a call's arguments (the atomic counter update's
     address).  */
  hash_set<gimple *> in_code, feeds_call;
  auto_vec<gimple *> work;
  for (gimple *stmt : code)
    {
      in_code.add (stmt);
      if (is_a<gcall *> (stmt))
        work.safe_push (stmt);
    }
  while (!work.is_empty ())
    {
      auto_vec<gimple *, 8> defs;
      push_definitions (work.pop (), &defs);
      for (gimple *def : defs)
        if (in_code.contains (def) && !feeds_call.add (def))
          work.safe_push (def);
    }
  for (gimple *stmt : code)
    {
      if (is_a<gphi *> (stmt) || is_a<gcall *> (stmt)
          || feeds_call.contains (stmt))
        continue;
      if (gcond *test = dyn_cast<gcond *> (stmt))
        {
          tree lhs = gimple_cond_lhs (test);
          h->tests.safe_push (std::make_pair (test, lhs));
          gimple_cond_set_lhs (test, build_zero_cst (TREE_TYPE (lhs)));
          update_stmt (test);
          continue;
        }
      /* A store stays a store, of nothing: GCC's walks along the virtual
         definitions (fnsummary's, for the parameters' fields) must find
         each in the body.  So a clobber of the variable stored to stands
         in for it, which costs nothing (of the variable: an element's
         clobber would still be charged its address).  Other writers of
         memory (a barrier's asm) stay as they are.  */
      tree vdef = gimple_vdef (stmt), base = NULL_TREE;
      if (vdef)
        {
          if (gimple_assign_single_p (stmt))
            base = get_base_address (gimple_assign_lhs (stmt));
          if (!base || !DECL_P (base))
            continue;
        }
      gimple *nop = gimple_build_nop (), *clobber = NULL;
      gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
      gsi_replace (&gsi, nop, false);
      if (vdef)
        {
          clobber = gimple_build_assign (base, build_clobber (TREE_TYPE (base)));
          gimple_set_vuse (clobber, gimple_vuse (stmt));
          gimple_set_vdef (clobber, vdef);
          SSA_NAME_DEF_STMT (vdef) = clobber;
          gsi_insert_before (&gsi, clobber, GSI_SAME_STMT);
        }
      h->stmts.safe_push ({ stmt, nop, clobber });
    }
}

/* Everything hide_osp_code took out, back in its place (gsi_replace
   relinks each statement's operands).  */
static void
show_osp_code (hidden_code *h)
{
  for (unsigned i = h->stmts.length (); i-- > 0;)
    {
      gimple *stmt = h->stmts[i].original;
      if (gimple *clobber = h->stmts[i].clobber)
        {
          gimple_stmt_iterator csi = gsi_for_stmt (clobber);
          gsi_remove (&csi, true);
          SSA_NAME_DEF_STMT (gimple_vdef (stmt)) = stmt;
        }
      gimple_stmt_iterator gsi = gsi_for_stmt (h->stmts[i].nop);
      gsi_replace (&gsi, stmt, false);
    }
  for (auto &t : h->tests)
    {
      gimple_cond_set_lhs (t.first, t.second);
      update_stmt (t.first);
    }
}

/* NODE's summary made again by GCC's own fnsummary with osp's code out
   of sight; true if NODE has osp code.  */
static bool
plain_size (cgraph_node *node)
{
  function *fun = DECL_STRUCT_FUNCTION (node->decl);
  if (!fun || !fun->cfg || node->inlined_to || !ipa_fn_summaries->get (node))
    return false;
  auto_vec<gimple *> code;
  osp_code (fun, &code);
  if (code.is_empty ())
    return false;
  hash_set<gimple *> calls;
  for (gimple *stmt : code)
    if (is_a<gcall *> (stmt))
      calls.add (stmt);
  push_cfun (fun);
  hidden_code hidden;
  hide_osp_code (code, &hidden);
  /* As ipa-fnsummary.cc's inline_analyze_function does for each
     function, but for ipa-prop's analysis, which stays that of the
     instrumented body (the same parameters, loads and calls).  */
  compute_fn_summary (node, false);
  show_osp_code (&hidden);
  pop_cfun ();
  /* osp's calls (calls=plain; the atomic counter updates) cost nothing,
     as GCC's summary says of the builtins it expands inline.  */
  bool edges = false;
  for (cgraph_edge *e = node->callees; e; e = e->next_callee)
    if (e->call_stmt && calls.contains (e->call_stmt))
      if (ipa_call_summary *es = ipa_call_summaries->get (e))
        {
          es->call_stmt_size = es->call_stmt_time = 0;
          edges = true;
        }
  if (edges)
    {
      ipa_update_overall_fn_summary (node);
      ipa_size_summaries->get (node)->self_size
        = ipa_size_summaries->get (node)->size;
    }
  return true;
}

/* The pass's work, done where a regular IPA pass makes its summary: right
   after fnsummary's, so before any pass acts on them (ipa-cp's clones copy
   the adjusted summaries), and before -flto streams them out.  */
static void
plain_sizes ()
{
  cgraph_node *node;
  unsigned n = 0;
  FOR_EACH_FUNCTION_WITH_GIMPLE_BODY (node)
    n += plain_size (node);
  if (n && opts.verbose)
    inform (UNKNOWN_LOCATION,
            "osp: %u functions measured without osp%'s code for the "
            "IPA inliner", n);
}

/* A regular IPA pass, as GCC's pass manager places a new pass only next to
   one of its own type; its execution does nothing.  */
const pass_data sizes_pass_data = ipa_pass_data (IPA_PASS, "osp_sizes");

class sizes_pass : public ipa_opt_pass_d
{
public:
  sizes_pass (gcc::context *ctxt)
    : ipa_opt_pass_d (sizes_pass_data, ctxt, plain_sizes, NULL, NULL, NULL,
                      NULL, NULL, 0, NULL, NULL)
  {}

  bool gate (function *) final override
  {
    return optimize && opts.plain_inline_sizes && !opts.late
           && ipa_fn_summaries && (skip_decl || countdown_decl);
  }
};

ipa_opt_pass_d *
make_sizes_pass (gcc::context *ctxt)
{
  return new sizes_pass (ctxt);
}

} // namespace osp

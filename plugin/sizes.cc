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
 * So, with inline-sizes=plain (the default), the IPA pass "osp_sizes" takes
 * osp's code back out of each function's summary, right after "fnsummary"
 * (ipa-fnsummary.cc) has measured every function for the inliner: in the
 * summary-making step of the regular IPA passes, before any of them acts
 * (ipa-cp's clones copy the adjusted summaries) and before -flto streams
 * the summaries to the link-time inliner.  osp's code is its effects (the
 * countdowns' stores and tests, the path counters' updates, the
 * trampolines' asm, runtime calls, barriers) and every statement whose
 * value only they use (the countdowns' loads and decrements, the path
 * register's additions and PHIs, the counters' addresses): the largest set
 * of value-only statements used only inside the set.  GCC spreads a
 * function's size over a table of entries, each under the predicate of the
 * code it counts (what is known when a call passes constants); osp's size
 * comes off the unconditional entry first, then off the others, never off
 * the code that inlining itself removes, and likewise its time, weighted
 * by each block's frequency as fnsummary weighs it.  osp's calls (runtime
 * calls with calls=plain, atomic counter updates) are summarised on their
 * call graph edges instead, which get size and time 0, as GCC's own
 * builtins that expand inline do.  ipa_update_overall_fn_summary then
 * recomputes the totals from the table as GCC does itself.
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

/* What osp's code adds to a function's summary, in the units of
   ipa-fnsummary.cc: size, and time weighted by each block's frequency.  */
struct osp_cost
{
  int size;
  sreal time;
};

/* The inliner's size and time of osp's code in FUN: its effects, and every
   value computed only for them (the countdowns' loads and decrements, the
   path register's additions and PHIs, the counters' addresses and counts).
   Found as the largest set of value-only statements whose results are
   used only inside the set: start from all those with uses, drop any with
   a use outside, and re-examine what a dropped statement used.  */
static osp_cost
osp_code_cost (function *fun, hash_set<gimple *> *calls)
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
      ssa_op_iter oi;
      tree op;
      if (gphi *phi = dyn_cast<gphi *> (stmt))
        for (unsigned i = 0; i < gimple_phi_num_args (phi); i++)
          {
            op = gimple_phi_arg_def (phi, i);
            if (TREE_CODE (op) == SSA_NAME)
              work.safe_push (SSA_NAME_DEF_STMT (op));
          }
      else
        FOR_EACH_SSA_TREE_OPERAND (op, stmt, oi, SSA_OP_USE)
          work.safe_push (SSA_NAME_DEF_STMT (op));
    }
  /* Summed in the function's statement order, not the set's: the set is
     hashed by address, and the times are sreals, whose sum depends on the
     order, so an order of addresses would make the inliner's decisions,
     hence the object, differ between two identical compiles.  */
  osp_cost cost = { 0, 0 };
  profile_count entry = ENTRY_BLOCK_PTR_FOR_FN (fun)->count;
  auto_vec<gimple *> in_order;
  FOR_EACH_BB_FN (bb, fun)
    {
      for (gphi_iterator pi = gsi_start_phis (bb); !gsi_end_p (pi);
           gsi_next (&pi))
        if (osp.contains (pi.phi ()))
          in_order.safe_push (pi.phi ());
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        if (osp.contains (gsi_stmt (gsi)))
          in_order.safe_push (gsi_stmt (gsi));
    }
  for (gimple *stmt : in_order)
    {
      /* Calls are summarised on their call graph edges.  */
      if (is_a<gcall *> (stmt))
        {
          calls->add (stmt);
          continue;
        }
      cost.size += estimate_num_insns (stmt, &eni_size_weights);
      cost.time += sreal (estimate_num_insns (stmt, &eni_time_weights))
                   * gimple_bb (stmt)->count.to_sreal_scale (entry);
    }
  return cost;
}

/* Take osp's code out of NODE's summary; true if it changed.  */
static bool
plain_size (cgraph_node *node)
{
  function *fun = DECL_STRUCT_FUNCTION (node->decl);
  ipa_fn_summary *info = ipa_fn_summaries->get (node);
  ipa_size_summary *size_info = ipa_size_summaries->get (node);
  if (!fun || !fun->cfg || !info || !size_info || node->inlined_to)
    return false;
  hash_set<gimple *> calls;
  osp_cost osp = osp_code_cost (fun, &calls);
  int64_t osp_size = (int64_t) osp.size * ipa_fn_summary::size_scale;
  /* osp's calls (calls=plain; the atomic counter updates) cost nothing,
     as GCC's summary says of the builtins it expands inline.  */
  for (cgraph_edge *e = node->callees; e; e = e->next_callee)
    if (e->call_stmt && calls.contains (e->call_stmt))
      {
        ipa_call_summary *es = ipa_call_summaries->get (e);
        if (es)
          es->call_stmt_size = es->call_stmt_time = 0;
      }
  if (osp_size <= 0 && calls.is_empty ())
    return false;
  /* Taken first from the entry without a predicate, where the code of
     every block that does not depend on the arguments is, then from the
     others in order.  Never from the code that inlining itself removes
     (under "not inlined": the return, the arguments' copies), which has
     none of osp's; never below zero, as GCC's units may have counted less
     of osp's code than this (it discounts what it expects inlining to
     remove).  */
  int64_t size_left = osp_size;
  sreal time_left = osp.time;
  size_time_entry *e;
  for (unsigned i = 0; info->size_time_table.iterate (i, &e); i++)
    {
      if (e->exec_predicate == ipa_predicate::not_inlined ())
        continue;
      int64_t take = MIN (size_left, (int64_t) e->size);
      e->size -= take;
      size_left -= take;
      sreal t = time_left < e->time ? time_left : e->time;
      e->time -= t;
      time_left -= t;
    }
  ipa_update_overall_fn_summary (node);
  size_info->self_size = size_info->size;
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

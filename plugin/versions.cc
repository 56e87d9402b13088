/* SPDX-License-Identifier: GPL-3.0-or-later */
/* versions.cc - untested versions of inner loops (version-loops=yes): an
 * inner loop gets a copy without the countdown tests, run whenever the
 * tests could not fire.
 *
 * Why: the block hooks (OSP section 3) and the path checks (PEP section
 * 3.2) test a countdown in every block or at every path end, and in a C
 * inner loop of a few instructions those tests are most of what osp costs
 * (doc/PERFORMANCE.md).  But a test fires only where its countdown reaches
 * 0, and with an interval of a thousand most iterations cannot get there.
 * Batched loops (loops.cc) use this for loops whose body is one path; this
 * file does it for the others, the way GCC's vectoriser versions a loop on
 * a runtime alias test (cfgloopmanip.cc's loop_version).
 *
 * Which loops: reducible, duplicable, with at least one test of ours in
 * their first part, and no call there other than the tests' own cold
 * runtime calls, internal functions, leaf built-ins, and calls of the
 * unit's functions that have no loop and call nothing else (a call could
 * run another function's tests on the same countdown: for such a callee,
 * compiled before its caller as GCC compiles a unit's callees first, the
 * most tests of each countdown one call can run is known, record_bound,
 * and counts in the loop's; any other callee could run any number).
 * The first part is the
 * whole body of an innermost loop; of a loop with inner loops, its own
 * blocks that no path from an inner loop reaches before the next
 * iteration (first_part below): what a pass runs before it may enter an
 * inner loop (bench/compress's hash chain walk, whose match-extending
 * inner loop rarely runs; bench/interp's dispatch loop).  Only the first
 * part's tests leave the untested copy; an inner loop, and the blocks
 * after one, keep theirs, since a pass through them may decrement V any
 * number of times.  So below "the body" and "one pass" mean the first
 * part, and such a loop is versioned only in every iteration, and only
 * with three or more tests on a pass through its first part (bench/interp
 * under instrument=paths: with two, the choice cost what the usual one
 * check did).
 *
 * The argument: let m be the largest number of tests of countdown V on one
 * acyclic path from the header through the body (the cold call blocks
 * included, the edge back to the header excluded): one pass.  The k-th
 * test from a point fires only if V was k there (the tests decrement by 1,
 * and nothing else writes V during the loop but the tests of the bounded
 * callees, counted in m where they are called).  A shared path check
 * (path-checks=shared: `if (V == 1)', no decrement; shared_check_p)
 * fires only if V was j + 1 there, j the decrements before it on the
 * pass: counted as one test of SKIP in m, it keeps the argument (it can
 * only make m larger than the decrements need), and it cannot fire where
 * V >= 2.
 * So if  (uint32) (V - 1) >= m  at the header, this pass cannot fire; and
 * if the loop's latch runs at most n more times, the run is at most n + 1
 * passes and cannot fire if  n < (uint32) (V - 1) / m.  The untested copy
 * keeps the decrements (GCC's store motion then keeps V in a register
 * through the loop and sums the decrements of consecutive blocks), so it
 * leaves V exactly as the tests would (a shared check, which writes V only
 * when it fires, goes with nothing left): every sample, every path end and
 * every draw is the tested loop's, draw for draw with the same seed
 * (tests/paths.sh compares both builds); only the code changes.  When a
 * sample is open (the runtime sets V to 1 for each block it records) or
 * the runtime asks for every path end (V is 1), the tested copy runs.
 * (uint32) (V - 1) wraps at V = 0 exactly as the tests' own decrement.
 *
 * Two ways to choose:
 *   - in every iteration (a loop with two or more tests a pass), with
 *     n = 0, so that a pass costs a compare and a branch instead of m
 *     tests: GCC's loop_version makes the copy and the choice block, and
 *     join_versions makes that block the header of an outer loop round
 *     both copies, the tested copy going back to it after each pass and
 *     the untested copy, a loop of its own inside, choosing again before
 *     each of its passes (so that GCC's store motion can keep what its body
 *     loads and stores in registers through it: join_versions); in an
 *     innermost loop by counting down a budget of passes that cannot fire,
 *     taken where the choice is made (passes_left), rather than by
 *     reading every countdown before each pass;
 *   - at the entry (one test a pass: PEP's check on the header, where a
 *     choice per iteration would cost what the test does), with n GCC's
 *     bound on the latch executions (number_of_iterations_exit on an exit
 *     that runs in every iteration; 0 if it may be taken before the first
 *     latch), when that is cheap to compute (not a popcount, a libgcc call
 *     without -mpopcnt: bench/lexgen's bit loops).
 *
 * A function without loops whose calls are bounded (the callees above) is
 * a pass of its own: with three tests or more on its longest path it gets
 * an untested copy of its whole body, chosen at its entry with n = 0
 * (version_function; bench/raytrace's intersect_sphere).
 *
 * Where: once the probes, hooks and batched loops are in place (so the
 * tests are there to copy and to count).  With the default placement,
 * in a pass of its own after GCC's IPA inliner (osp_versions, below;
 * plugin.cc registers it): the osp pass runs before it, when a loop may
 * still call a small function of the program that IPA inlines later,
 * hooks and tests included, and that loop is call-free, so versionable,
 * only then (bench/moldyn's pair loop).  The tests are recognised by
 * their shape, which GCC's early passes keep (they only turn the - 1
 * into + 0xffffffff); a test not recognised keeps its runtime call in the
 * loop, and such a loop is left alone.  With placement=late, and under
 * -flto (the late passes then run at link time, without the plugin), the
 * osp pass calls version_tested_loops itself, before barriers.cc.  Only
 * when optimizing: at -O0 the countdown stays in memory in either copy.
 * loop_version enters the original loop when the condition holds, so the
 * original loses its tests and the copy keeps them; the tests' call blocks
 * are then unreachable and cfg cleanup removes them.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "gimple.h"
#include "basic-block.h"
#include "cfghooks.h"
#include "cfganal.h"
#include "cfgloop.h"
#include "cfgloopmanip.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "ssa.h"
#include "dominance.h"
#include "fold-const.h"
#include "tree-eh.h"
#include "tree-cfgcleanup.h"
#include "cgraph.h"
#include "gimplify.h"
#include "gimplify-me.h"
#include "tree-into-ssa.h"
#include "tree-ssa.h"
#include "tree-scalar-evolution.h"
#include "tree-ssa-loop.h"
#include "tree-ssa-loop-niter.h"
#include "tree-pass.h"
#include "context.h"
#include "diagnostic-core.h"
#include "flags.h"

#include "osp-plugin.h"

namespace osp {

/* Whether STMT is a shared path check (path-checks=shared): the
   `if (t == 1)' of hooks.cc's emit_countdown_call, t __osp_skip or a value
   GCC found it equal to, recognised by the call its true edge leads to.
   It reads __osp_skip and writes it only when it fires, which it cannot
   where __osp_skip >= 2: for the arguments below, one test of SKIP
   without a decrement.  */
bool
shared_check_p (gimple *stmt)
{
  gcond *cond = dyn_cast<gcond *> (stmt);
  if (!cond || !path_end_shared_decl || gimple_cond_code (cond) != EQ_EXPR
      || !integer_onep (gimple_cond_rhs (cond))
      || TREE_CODE (gimple_cond_lhs (cond)) != SSA_NAME
      || EDGE_COUNT (gimple_bb (cond)->succs) != 2)
    return false;
  edge fire, keep;
  extract_true_false_edges_from_block (gimple_bb (cond), &fire, &keep);
  for (gimple_stmt_iterator gsi = gsi_start_bb (fire->dest); !gsi_end_p (gsi);
       gsi_next (&gsi))
    if (shared_check_call_p (gsi_stmt (gsi)))
      return true;
  return false;
}

/* Which countdown COND tests, or -1 if it is not one of our tests: the
   `t1 = V; t2 = t1 - 1; V = t2; if (t2 == 0)' of hooks.cc's
   emit_countdown_call (after GCC's early passes t1 + 4294967295), or a
   shared check (shared_check_p, SKIP).  */
int
tested_countdown (gimple *stmt)
{
  gcond *cond = dyn_cast<gcond *> (stmt);
  if (cond && shared_check_p (cond))
    return SKIP;
  if (!cond || gimple_cond_code (cond) != EQ_EXPR
      || !integer_zerop (gimple_cond_rhs (cond))
      || TREE_CODE (gimple_cond_lhs (cond)) != SSA_NAME)
    return -1;
  gassign *dec = dyn_cast<gassign *> (
    SSA_NAME_DEF_STMT (gimple_cond_lhs (cond)));
  if (!dec || TREE_CODE (gimple_assign_rhs1 (dec)) != SSA_NAME
      || !((gimple_assign_rhs_code (dec) == MINUS_EXPR
            && integer_onep (gimple_assign_rhs2 (dec)))
           || (gimple_assign_rhs_code (dec) == PLUS_EXPR
               && integer_all_onesp (gimple_assign_rhs2 (dec)))))
    return -1;
  gassign *load = dyn_cast<gassign *> (
    SSA_NAME_DEF_STMT (gimple_assign_rhs1 (dec)));
  if (!load || !gimple_assign_single_p (load))
    return -1;
  tree v = gimple_assign_rhs1 (load);
  if (v && v == skip_decl)
    return SKIP;
  if (v && v == countdown_decl)
    return PATH_COUNTDOWN;
  return -1;
}

/* The block behind BB's test of ours, where its hook or runtime call is,
   or NULL if BB does not end in one.  */
basic_block
hook_block (basic_block bb)
{
  gimple *last = last_stmt (bb);
  if (!last || tested_countdown (last) < 0)
    return NULL;
  edge fire, keep;
  extract_true_false_edges_from_block (bb, &fire, &keep);
  return fire->dest;
}

/* A call that cannot run a test of ours: an internal function, or a leaf
   built-in (a library function that calls nothing of this program).  */
bool
harmless_call (gimple *stmt)
{
  if (gimple_call_internal_p (stmt))
    return true;
  return gimple_call_builtin_p (stmt, BUILT_IN_NORMAL)
         && (gimple_call_flags (stmt) & ECF_LEAF)
         && !(gimple_call_flags (stmt) & ECF_RETURNS_TWICE);
}

/* The most tests of each countdown that one call of a function can run,
   by the callee's DECL_UID, for the functions compiled so far that have
   no loop and call nothing but harmless functions and other such
   functions (record_bound).  GCC compiles a unit's callees before their
   callers where it can, so a loop's small callees are usually known when
   the loop is versioned; a callee not known is taken to be unbounded.  */
struct call_bound
{
  unsigned most[NUM_COUNTDOWNS];
};
static hash_map<int_hash<int, -1, -2>, call_bound> *call_bounds;

/* CALL's bound: its callee is one of those, and the call cannot reach
   another definition (it binds to this one).  */
static const call_bound *
bound_of_call (gcall *call)
{
  tree fndecl = gimple_call_fndecl (call);
  cgraph_node *node = fndecl ? cgraph_node::get (fndecl) : NULL;
  enum availability avail;
  if (!call_bounds || !node
      || !(node = node->ultimate_alias_target (&avail))
      || avail < AVAIL_AVAILABLE)
    return NULL;
  return call_bounds->get (DECL_UID (node->decl));
}

/* Whether STMT is one of barriers.cc's empty asm statements, which only
   keep the countdowns in memory across a call.  */
static bool
barrier_p (gasm *stmt)
{
  if (gimple_asm_string (stmt)[0] || !gimple_asm_noutputs (stmt))
    return false;
  for (unsigned i = 0; i < gimple_asm_noutputs (stmt); i++)
    {
      tree var = TREE_VALUE (gimple_asm_output_op (stmt, i));
      if (var != skip_decl && var != countdown_decl)
        return false;
    }
  return true;
}

/* Whether nothing in BB (not a block of a hook) but its test can change
   a countdown, or else only calls of bounded functions (bound_of_call):
   no asm but a barrier, no call but harmless ones and those, whose tests
   are added to EXTRA[NUM_COUNTDOWNS * BB's index + countdown].  */
static bool
leaves_countdowns (basic_block bb, vec<unsigned> &extra)
{
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      gimple *stmt = gsi_stmt (gsi);
      if (gasm *asm_stmt = dyn_cast<gasm *> (stmt))
        {
          if (!barrier_p (asm_stmt))
            return false;
        }
      else if (gcall *call = dyn_cast<gcall *> (stmt))
        {
          if (harmless_call (call))
            continue;
          const call_bound *b = bound_of_call (call);
          if (!b)
            return false;
          for (int v = 0; v < NUM_COUNTDOWNS; v++)
            extra[NUM_COUNTDOWNS * bb->index + v] += b->most[v];
        }
    }
  return true;
}

/* The most tests of each countdown on one path from START through the
   blocks in PART (all blocks if PART is NULL), which hold no cycle, into
   MOST: each block's test and EXTRA's calls.  The function's reverse
   postorder is a topological order of such blocks when its DFS enters
   them only through START.  */
static void
longest_tests (sbitmap part, basic_block start, const vec<unsigned> &extra,
               unsigned most[NUM_COUNTDOWNS])
{
  int *rpo = XNEWVEC (int, n_basic_blocks_for_fn (cfun));
  int nrpo = pre_and_rev_post_order_compute_fn (cfun, NULL, rpo, false);
  auto_vec<unsigned> longest (NUM_COUNTDOWNS * last_basic_block_for_fn (cfun));
  longest.quick_grow_cleared (NUM_COUNTDOWNS * last_basic_block_for_fn (cfun));
  for (int v = 0; v < NUM_COUNTDOWNS; v++)
    most[v] = 0;
  for (int i = 0; i < nrpo; i++)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (cfun, rpo[i]);
      if (part && !bitmap_bit_p (part, bb->index))
        continue;
      unsigned *mine = &longest[NUM_COUNTDOWNS * bb->index];
      edge e;
      edge_iterator ei;
      if (bb != start)
        FOR_EACH_EDGE (e, ei, bb->preds)
          if (e->src->index >= NUM_FIXED_BLOCKS
              && (!part || bitmap_bit_p (part, e->src->index)))
            {
              const unsigned *before = &longest[NUM_COUNTDOWNS * e->src->index];
              for (int v = 0; v < NUM_COUNTDOWNS; v++)
                mine[v] = MAX (mine[v], before[v]);
            }
      gimple *last = last_stmt (bb);
      int tested = last ? tested_countdown (last) : -1;
      for (int v = 0; v < NUM_COUNTDOWNS; v++)
        {
          mine[v] += extra[NUM_COUNTDOWNS * bb->index + v] + (v == tested);
          most[v] = MAX (most[v], mine[v]);
        }
    }
  free (rpo);
}

/* Record what one call of FUN can do to the countdowns (call_bounds),
   if it has no cycle and calls only harmless and bounded functions, and
   return it; NULL if it is unbounded.  */
static const call_bound *
record_bound (function *fun)
{
  if (mark_dfs_back_edges (fun))
    return NULL;
  auto_sbitmap cold (last_basic_block_for_fn (fun));
  bitmap_clear (cold);
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    if (basic_block hook = hook_block (bb))
      bitmap_set_bit (cold, hook->index);
  auto_vec<unsigned> extra (NUM_COUNTDOWNS * last_basic_block_for_fn (fun));
  extra.quick_grow_cleared (NUM_COUNTDOWNS * last_basic_block_for_fn (fun));
  FOR_EACH_BB_FN (bb, fun)
    if (!bitmap_bit_p (cold, bb->index) && !leaves_countdowns (bb, extra))
      return NULL;
  call_bound b;
  longest_tests (NULL, single_succ (ENTRY_BLOCK_PTR_FOR_FN (fun)), extra,
                 b.most);
  if (!call_bounds)
    call_bounds = new hash_map<int_hash<int, -1, -2>, call_bound>;
  call_bounds->put (DECL_UID (fun->decl), b);
  return call_bounds->get (DECL_UID (fun->decl));
}

/* The blocks of LOOP's pass that cannot follow one of its inner loops in
   the same pass, by index: those of its own (not of an inner loop) that
   no path from an inner loop's exit reaches without going back to the
   header.  Their tests are the ones the untested copy drops; the tests
   of the inner loops and of what follows them stay, since a pass that
   enters an inner loop may decrement the countdown any number of times.
   All of the body for an innermost loop.  */
static void
first_part (class loop *loop, basic_block *body, sbitmap part)
{
  bitmap_clear (part);
  auto_vec<basic_block, 16> work;
  auto_sbitmap after (last_basic_block_for_fn (cfun));
  bitmap_clear (after);
  for (unsigned i = 0; i < loop->num_nodes; i++)
    if (body[i]->loop_father != loop)
      work.safe_push (body[i]);
  while (!work.is_empty ())
    {
      basic_block bb = work.pop ();
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if (e->dest != loop->header && e->dest->loop_father == loop
            && bitmap_set_bit (after, e->dest->index))
          work.safe_push (e->dest);
    }
  for (unsigned i = 0; i < loop->num_nodes; i++)
    if (body[i]->loop_father == loop && !bitmap_bit_p (after, body[i]->index))
      bitmap_set_bit (part, body[i]->index);
}

/* If LOOP qualifies (the header comment), the tests of its first part
   (first_part) in TESTS and the most tests of each countdown on one pass
   through that part in MOST.  */
static bool
examine_loop (class loop *loop, vec<gcond *> *tests,
              unsigned most[NUM_COUNTDOWNS])
{
  if (!loop->latch || !can_duplicate_loop_p (loop))
    return false;
  basic_block *body = get_loop_body (loop);
  unsigned nbody = loop->num_nodes;
  auto_sbitmap part (last_basic_block_for_fn (cfun));
  first_part (loop, body, part);
  auto_sbitmap cold (last_basic_block_for_fn (cfun));
  bitmap_clear (cold);
  bool ok = true;
  for (unsigned i = 0; i < nbody && ok; i++)
    {
      if (body[i]->flags & BB_IRREDUCIBLE_LOOP)
        ok = false;
      basic_block hook = hook_block (body[i]);
      if (hook && bitmap_bit_p (part, body[i]->index))
        {
          tests->safe_push (as_a<gcond *> (last_stmt (body[i])));
          bitmap_set_bit (cold, hook->index);
        }
    }
  auto_vec<unsigned> extra (NUM_COUNTDOWNS * last_basic_block_for_fn (cfun));
  extra.quick_grow_cleared (NUM_COUNTDOWNS * last_basic_block_for_fn (cfun));
  for (unsigned i = 0; i < nbody && ok; i++)
    if (bitmap_bit_p (part, body[i]->index)
        && !bitmap_bit_p (cold, body[i]->index))
      ok = leaves_countdowns (body[i], extra);
  if (ok && !tests->is_empty ())
    /* The longest path through the first part from the header: no cycle
       there (no inner loop, no edge back to the header), and the DFS
       enters the body only through the header.  */
    longest_tests (part, loop->header, extra, most);
  free (body);
  return ok && !tests->is_empty ();
}

/* A bound on LOOP's latch executions in this run, as a uint64 expression of
   values computed before the loop, or NULL.  */
static tree
latch_bound (class loop *loop)
{
  tree best = NULL_TREE;
  for (edge exit : get_loop_exit_edges (loop))
    {
      class tree_niter_desc desc;
      if (!number_of_iterations_exit (loop, exit, &desc, false)
          || TYPE_PRECISION (TREE_TYPE (desc.niter)) > 64
          || expression_expensive_p (desc.niter)
          || expression_expensive_p (desc.may_be_zero))
        continue;
      tree n = fold_convert (uint64_type_node, unshare_expr (desc.niter));
      if (integer_nonzerop (desc.may_be_zero))
        n = build_zero_cst (uint64_type_node);
      else if (!integer_zerop (desc.may_be_zero))
        n = fold_build3 (COND_EXPR, uint64_type_node,
                         unshare_expr (desc.may_be_zero),
                         build_zero_cst (uint64_type_node), n);
      if (!best || (TREE_CODE (n) == INTEGER_CST
                    && (TREE_CODE (best) != INTEGER_CST
                        || tree_int_cst_lt (n, best))))
        best = n;
    }
  return best;
}

/* (uint32) (V - 1) for countdown V (SKIP or PATH_COUNTDOWN): how many of
   its tests can pass before one fires, which cannot_fire and passes_left
   divide among the passes.  */
static tree
countdown_left (int v)
{
  return fold_build2 (MINUS_EXPR, uint32_type_node,
                      unshare_expr (countdown_var (v)),
                      build_one_cst (uint32_type_node));
}

/* True when the next (N + 1) * MOST[v] tests of each countdown V cannot
   fire: N < (uint32) (V - 1) / MOST[v] for each V tested.  */
static tree
cannot_fire (tree n, const unsigned most[NUM_COUNTDOWNS])
{
  tree cond = NULL_TREE;
  for (int v = 0; v < NUM_COUNTDOWNS; v++)
    if (most[v])
      {
        tree left = countdown_left (v);
        tree runs = fold_build2 (TRUNC_DIV_EXPR, uint64_type_node,
                                 fold_convert (uint64_type_node, left),
                                 build_int_cst (uint64_type_node, most[v]));
        tree fits = fold_build2 (LT_EXPR, boolean_type_node,
                                 unshare_expr (n), runs);
        cond = cond ? fold_build2 (TRUTH_AND_EXPR, boolean_type_node, cond,
                                   fits)
                    : fits;
      }
  return cond;
}

/* Whether LOOP calls anything but harmless functions (bounded callees,
   which versioning allows).  A pass budget is a value live through the
   untested loop, and across such a call it takes a callee-saved register:
   tests/progs/deep-recursion.c's descend, whose scan loop calls mix, had a
   frame of 64 bytes at -O2 with one, 48 without, 32 plain, and recursed
   that much less deep under a tight stack limit (tests/safety-stack.sh).
   Such loops keep the reading of the countdowns.  */
static bool
calls_in (class loop *loop)
{
  basic_block *body = get_loop_body (loop);
  bool found = false;
  for (unsigned i = 0; i < loop->num_nodes && !found; i++)
    for (gimple_stmt_iterator gsi = gsi_start_bb (body[i]);
         !gsi_end_p (gsi) && !found; gsi_next (&gsi))
      if (gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi)))
        found = !harmless_call (call);
  free (body);
  return found;
}

/* How many passes of an innermost loop's untested copy no test can fire
   in, from the countdowns' values now: at most the least of (uint32)
   (V - 1) / MOST[v] over the countdowns V tested.  A pass lowers each V
   by at most MOST[v], so before the j-th of K such passes (V - 1) is
   still at least (K - j + 1) * MOST[v].  Computed as the least (V - 1)
   shifted right by ceil (log2 (the largest MOST)): no division, a few
   instructions at each entry of a loop that may run only a few passes
   (bench/lexgen's bit loops).  So K is also 0 when a countdown is
   within 2^shift (less than twice the largest MOST) of firing, where
   cannot_fire would still allow a pass: the tested copy runs one pass
   more or so before a sample, which changes nothing the runtime sees.  */
static tree
passes_left (const unsigned most[NUM_COUNTDOWNS])
{
  tree least = NULL_TREE;
  unsigned widest = 1;
  for (int v = 0; v < NUM_COUNTDOWNS; v++)
    if (most[v])
      {
        tree left = countdown_left (v);
        least = least ? fold_build2 (MIN_EXPR, uint32_type_node, least, left)
                      : left;
        widest = MAX (widest, most[v]);
      }
  return fold_build2 (RSHIFT_EXPR, uint32_type_node, least,
                      build_int_cst (integer_type_node,
                                     ceil_log2 (widest)));
}

/* Whether the untested copy of a loop run with N more latch executions
   can never be chosen: N is a constant at least (2^32 - 1) / MOST[v] for
   some countdown V, the most passes any value of a 32-bit countdown
   allows.  Such a copy would only cost its code and compile time.  */
static bool
never_chosen (tree n, const unsigned most[NUM_COUNTDOWNS])
{
  if (TREE_CODE (n) != INTEGER_CST || !tree_fits_uhwi_p (n))
    return false;
  unsigned HOST_WIDE_INT latches = tree_to_uhwi (n);
  for (int v = 0; v < NUM_COUNTDOWNS; v++)
    if (most[v] && latches >= 0xffffffffu / most[v])
      return true;
  return false;
}

/* End BB, which has one successor (the likely way), in `if (COND)': its
   successor when COND holds, a new edge to OTHERWISE when not, which it
   returns.  */
static edge
end_with_choice (basic_block bb, tree cond, basic_block otherwise)
{
  gimple_stmt_iterator gsi = gsi_last_bb (bb);
  tree ok = force_gimple_operand_gsi (&gsi, cond, true, NULL_TREE, false,
                                      GSI_CONTINUE_LINKING);
  gsi_insert_after (&gsi, gimple_build_cond (NE_EXPR, ok, boolean_false_node,
                                             NULL_TREE, NULL_TREE),
                    GSI_NEW_STMT);
  edge likely = single_succ_edge (bb);
  likely->flags = (likely->flags & ~EDGE_FALLTHRU) | EDGE_TRUE_VALUE;
  likely->probability = profile_probability::likely ();
  edge other = make_edge (bb, otherwise, EDGE_FALSE_VALUE);
  other->probability = likely->probability.invert ();
  return other;
}

/* Make C, the block that chooses between LOOP (untested) and TESTED, the
   header of an outer loop that contains both, with LOOP nested in it:
   TESTED's latch goes back to C, and LOOP gets a new header, AGAIN, that
   makes the choice again before each of its passes (CHOOSE, the choice's
   condition), going on with LOOP while it holds and back to C otherwise.
   The same choice is made before every pass as with C alone deciding;
   what changes is that LOOP stays a loop of its own, whose header GCC's
   loop header copying moves to its end, so that every block of a pass runs
   each time round.  GCC moves a load or store that may trap out of a loop
   only if it runs in every iteration; so store motion now keeps memory
   that the body reads and writes through a pointer in a register through
   the loop (bench/montecarlo's generator state), and invariant motion
   hoists its loads of pointers (bench/moldyn's force arrays), as in the
   plain build; with both copies in one loop, neither copy's did.  (The
   choice is not made at LOOP's latch: GCC would then take LOOP for a loop
   already in do-while form and leave its exit test at the top, before
   the blocks that would have to run in every iteration.)  */
static void
join_versions (class loop *loop, class loop *tested, basic_block c,
               tree choose, tree budget)
{
  edge entry = single_pred_edge (c);
  edge latch1 = loop_latch_edge (loop), latch2 = loop_latch_edge (tested);
  edge pre1 = loop_preheader_edge (loop);
  auto_vec<gphi *> phis1, phis2;
  for (auto [header, phis] : { std::make_pair (loop->header, &phis1),
                               std::make_pair (tested->header, &phis2) })
    for (gphi_iterator g = gsi_start_phis (header); !gsi_end_p (g);
         gsi_next (&g))
      phis->safe_push (g.phi ());
  gcc_assert (phis1.length () == phis2.length ());

  /* The header PHIs of the copy are in the original's order.  */
  auto_vec<tree> init, next1, next2;
  for (unsigned i = 0; i < phis1.length (); i++)
    {
      init.safe_push (PHI_ARG_DEF_FROM_EDGE (phis1[i], pre1));
      next1.safe_push (PHI_ARG_DEF_FROM_EDGE (phis1[i], latch1));
      next2.safe_push (PHI_ARG_DEF_FROM_EDGE (phis2[i], latch2));
    }

  /* AGAIN: `if (CHOOSE) go on with LOOP; else go back to C', entered from
     C and from LOOP's latch.  */
  basic_block header = loop->header;
  basic_block again = split_edge (pre1);
  edge from_c = single_pred_edge (again);
  latch1 = redirect_edge_and_branch (latch1, again);
  redirect_edge_var_map_clear (latch1);
  if (budget)
    {
      /* `k = PHI <BUDGET (from C), k - 1 (LOOP's latch)>; if (k != 0)':
         a counted pass instead of the choice's reading of each countdown
         (bench/heapsort under the default: two compares and branches and
         their copies, 8 instructions, become a decrement and a branch).  */
      gphi *count = create_phi_node (make_ssa_name (uint32_type_node), again);
      tree k = gimple_phi_result (count);
      tree less = make_ssa_name (uint32_type_node);
      gimple_stmt_iterator gsi = gsi_last_bb (again);
      gsi_insert_after (&gsi, gimple_build_assign (less, PLUS_EXPR, k,
                                                   build_minus_one_cst
                                                     (uint32_type_node)),
                        GSI_NEW_STMT);
      add_phi_arg (count, budget, from_c, UNKNOWN_LOCATION);
      add_phi_arg (count, less, latch1, UNKNOWN_LOCATION);
      choose = fold_build2 (NE_EXPR, boolean_type_node, k,
                            build_zero_cst (uint32_type_node));
    }
  edge leave = end_with_choice (again, unshare_expr (choose), c);

  latch2 = redirect_edge_and_branch (latch2, c);
  redirect_edge_var_map_clear (latch2);
  /* Every new PHI first, then the uses: a value carried round the loop
     may be another header PHI's result (`end = p' before `p++': end's
     latch value is p's PHI), and the new PHI's argument must be replaced
     too (pr34415 of GCC's torture suite, an outer loop).  */
  auto_vec<gphi *> joined, pass;
  for (unsigned i = 0; i < phis1.length (); i++)
    {
      tree name = gimple_phi_result (phis1[i]);
      gphi *outer = create_phi_node (copy_ssa_name (name), c);
      gphi *inner = create_phi_node (copy_ssa_name (name), again);
      add_phi_arg (outer, init[i], entry, UNKNOWN_LOCATION);
      add_phi_arg (outer, next2[i], latch2, UNKNOWN_LOCATION);
      add_phi_arg (outer, gimple_phi_result (inner), leave, UNKNOWN_LOCATION);
      add_phi_arg (inner, gimple_phi_result (outer), from_c, UNKNOWN_LOCATION);
      add_phi_arg (inner, next1[i], latch1, UNKNOWN_LOCATION);
      joined.safe_push (outer);
      pass.safe_push (inner);
    }
  for (unsigned i = 0; i < phis1.length (); i++)
    {
      replace_uses_by (gimple_phi_result (phis1[i]),
                       gimple_phi_result (pass[i]));
      replace_uses_by (gimple_phi_result (phis2[i]),
                       gimple_phi_result (joined[i]));
    }
  for (basic_block h : { header, tested->header })
    for (gphi_iterator g = gsi_start_phis (h); !gsi_end_p (g);)
      remove_phi_node (&g, true);

  /* AGAIN heads LOOP; TESTED's header heads no loop now and
     fix_loop_structure drops it, and finds the loop C heads, with LOOP
     inside.  */
  remove_bb_from_loops (again);
  add_bb_to_loop (again, loop);
  loop->header = again;
  loops_state_set (LOOPS_NEED_FIXUP);
  free_dominance_info (CDI_DOMINATORS);
  calculate_dominance_info (CDI_DOMINATORS);
  fix_loop_structure (NULL);
}

/* The tests of the untested copy, about to be made false, and what they
   leave: the blocks that end in them, and their hooks' blocks, which fall
   through to the block behind the test and will be unreachable.  */
struct doomed_tests
{
  hash_set<basic_block> tested, hooks;

  /* The block behind BB's test, or NULL if BB does not end in one.  */
  basic_block behind (basic_block bb)
  {
    if (!tested.contains (bb))
      return NULL;
    edge fire, keep;
    extract_true_false_edges_from_block (bb, &fire, &keep);
    return keep->dest;
  }

  /* BB's one predecessor once the hooks are gone, or NULL.  */
  basic_block live_pred (basic_block bb)
  {
    basic_block only = NULL;
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE (e, ei, bb->preds)
      if (!hooks.contains (e->src))
        {
          if (only)
            return NULL;
          only = e->src;
        }
    return only;
  }

  /* The block of a test that begins the arm of a branch ending in E, an
     edge into the arm's join: the arm is that block, which its branch
     alone enters, and the block behind its test, which leads only to
     the join (or nothing: the test's keep edge is E).  NULL if E does not
     end such an arm.  */
  basic_block arm_of (edge e)
  {
    basic_block x = e->src;
    if (behind (x) != e->dest)
      {
        if (!single_succ_p (x) || !(x = live_pred (x))
            || behind (x) != e->src)
          return NULL;
      }
    return live_pred (x) ? x : NULL;
  }
};

/* Make TESTS, those of an untested copy that START enters (a loop's
   header, before which the next choice is made, or a function's first
   block), false, their decrements staying; but first move the decrement
   of each one-block arm of a branch to the branch's join, which then
   lowers the countdown by one more when an arm ran (by the branch's
   condition, as a 0 or 1, when one of its ways has no arm).  Nothing
   tests the countdown between an arm and its join (the join is not
   START, and an arm leads only to its join), so it leaves the copy and
   reaches each choice with the value it had.  What it buys is the plain
   build's branch-free code: an arm such as `hits++' is one statement
   again, which GCC's if-conversion turns into a conditional add
   (bench/montecarlo's `x * x + y * y < r2', a branch that goes either
   way at random, mispredicted about a fifth of the time when it stays
   one).  */
static void
drop_tests (basic_block start, const vec<gcond *> &tests)
{
  doomed_tests doomed;
  for (gcond *t : tests)
    {
      doomed.tested.add (gimple_bb (t));
      doomed.hooks.add (hook_block (gimple_bb (t)));
    }
  for (gcond *t : tests)
    {
      basic_block join = gimple_bb (t);
      /* A shared check has no decrement to move or to lower.  */
      if (join == start || shared_check_p (t))
        continue;
      int v = tested_countdown (t);
      basic_block branch = NULL;
      auto_vec<basic_block, 2> arms;
      unsigned live = 0;
      bool ok = true;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, join->preds)
        {
          if (doomed.hooks.contains (e->src))
            continue;
          live++;
          basic_block arm = doomed.arm_of (e);
          basic_block from = arm ? doomed.live_pred (arm) : e->src;
          gimple *last = last_stmt (from);
          if (!last || gimple_code (last) != GIMPLE_COND
              || tested_countdown (last) >= 0 || (branch && branch != from)
              || (arm && (tested_countdown (last_stmt (arm)) != v
                          || shared_check_p (last_stmt (arm)))))
            ok = false;
          branch = from;
          if (arm)
            arms.safe_push (arm);
        }
      if (!ok || live < 2 || arms.is_empty ())
        continue;

      /* Whether an arm ran: always when both ways have one, else the
         branch's condition (or its inverse), computed before it.  */
      gassign *dec = as_a<gassign *> (SSA_NAME_DEF_STMT (gimple_cond_lhs (t)));
      tree type = TREE_TYPE (gimple_assign_lhs (dec));
      gcond *cond = as_a<gcond *> (last_stmt (branch));
      tree ran;
      if (arms.length () == 2)
        ran = build_one_cst (type);
      else
        {
          edge yes, no;
          extract_true_false_edges_from_block (branch, &yes, &no);
          tree taken = fold_build2 (gimple_cond_code (cond), boolean_type_node,
                                    gimple_cond_lhs (cond),
                                    gimple_cond_rhs (cond));
          if (no->dest == arms[0])
            taken = fold_build1 (TRUTH_NOT_EXPR, boolean_type_node, taken);
          else if (yes->dest != arms[0])
            continue;
          /* Computed outside the condition, a comparison that may trap
             would need its own EH edge.  */
          if (cfun->can_throw_non_call_exceptions && tree_could_trap_p (taken))
            continue;
          gimple_stmt_iterator at = gsi_for_stmt (cond);
          ran = force_gimple_operand_gsi (&at, fold_convert (type, taken), true,
                                          NULL_TREE, true, GSI_SAME_STMT);
        }
      for (basic_block arm : arms)
        {
          gassign *lower = as_a<gassign *> (
            SSA_NAME_DEF_STMT (gimple_cond_lhs (last_stmt (arm))));
          gimple_assign_set_rhs2 (lower, build_zero_cst (type));
          update_stmt (lower);
        }
      tree lowered = make_ssa_name (type);
      gimple_stmt_iterator gsi = gsi_for_stmt (dec);
      gsi_insert_before (&gsi, gimple_build_assign (lowered, MINUS_EXPR,
                                                    gimple_assign_rhs1 (dec),
                                                    ran),
                         GSI_SAME_STMT);
      gimple_assign_set_rhs1 (dec, lowered);
      update_stmt (dec);
    }
  for (gcond *t : tests)
    {
      gimple_cond_make_false (t);
      update_stmt (t);
    }
}

/* Version LOOP (the header comment), and drop TESTS from the original: on
   its latch bound, evaluated at the end of its preheader (EACH_ITERATION
   false), or in every iteration.  */
static bool
version_loop (class loop *loop, const vec<gcond *> &tests,
              const unsigned most[NUM_COUNTDOWNS], bool each_iteration)
{
  tree zero = build_zero_cst (uint64_type_node);
  tree n = each_iteration ? zero : latch_bound (loop);
  if (!n)
    return false;
  tree cond = cannot_fire (n, most);
  /* GCC's folding may see it first (the condition folds to false).  */
  if (integer_zerop (cond) || never_chosen (n, most))
    {
      if (opts.verbose && tree_fits_uhwi_p (n))
        inform (DECL_SOURCE_LOCATION (cfun->decl),
                "osp: %s: a loop of %wu passes not versioned: its "
                "untested copy could never be chosen", display_name (cfun),
                tree_to_uhwi (n) + 1);
      return false;
    }

  tree test;
  if (each_iteration)
    test = build2 (NE_EXPR, boolean_type_node, boolean_true_node,
                   boolean_false_node); /* replaced below */
  else
    {
      gimple_stmt_iterator gsi = gsi_last_bb (loop_preheader_edge (loop)->src);
      tree ok = force_gimple_operand_gsi (&gsi, cond, true, NULL_TREE, false,
                                          GSI_CONTINUE_LINKING);
      test = build2 (NE_EXPR, boolean_type_node, ok, boolean_false_node);
    }
  profile_probability untested = each_iteration
                                 ? profile_probability::likely ()
                                 : profile_probability::even ();
  basic_block choice;
  initialize_original_copy_tables ();
  class loop *tested
    = loop_version (loop, test, &choice, untested, untested.invert (),
                    untested, untested.invert (), true);
  free_original_copy_tables ();
  if (!tested)
    return false;
  drop_tests (loop->header, tests);
  /* The countdowns' new loads get their virtual operands too.  */
  mark_virtual_operands_for_renaming (cfun);
  update_ssa (TODO_update_ssa);
  if (each_iteration)
    {
      gcond *choose = as_a<gcond *> (last_stmt (choice));
      gimple_stmt_iterator gsi = gsi_for_stmt (choose);
      tree budget = NULL_TREE;
      if (!loop->inner && !calls_in (loop))
        {
          budget = force_gimple_operand_gsi (&gsi, passes_left (most), true,
                                             NULL_TREE, true, GSI_SAME_STMT);
          gimple_cond_set_condition (choose, NE_EXPR, budget,
                                     build_zero_cst (uint32_type_node));
        }
      else
        {
          tree ok = force_gimple_operand_gsi (&gsi, unshare_expr (cond), true,
                                              NULL_TREE, true, GSI_SAME_STMT);
          gimple_cond_set_condition (choose, NE_EXPR, ok, boolean_false_node);
        }
      update_stmt (choose);
      join_versions (loop, tested, choice, cond, budget);
      mark_virtual_operands_for_renaming (cfun);
      update_ssa (TODO_update_ssa);
    }
  return true;
}

/* Version FUN, a function without loops whose calls can run at most B's
   tests (record_bound), as a whole: a copy of its body without the tests
   (but with their decrements, and its arms' merged as in a loop's copy)
   runs whenever no test could fire on the way through, a block at the
   entry choosing as a loop's choice does, with n = 0.  Such a function,
   called from a loop that cannot be versioned itself (the loop calls a
   function with a loop too, or is outside any loop), tests its countdown
   at each block after a branch (bench/raytrace's intersect_sphere, called
   for every object: six tests a call).  Only functions with three tests
   or more on their longest path (with fewer, the choice costs about what
   they do), at most 64 blocks (the copy doubles the code), and that
   return (the copy needs an exit edge).  */
static bool
version_function (function *fun, const call_bound &b)
{
  if (b.most[SKIP] + b.most[PATH_COUNTDOWN] < 3
      || n_basic_blocks_for_fn (fun) - NUM_FIXED_BLOCKS > 64
      || EDGE_COUNT (EXIT_BLOCK_PTR_FOR_FN (fun)->preds) == 0
      || fun->has_nonlocal_label || fun->calls_setjmp)
    return false;
  auto_vec<basic_block> region;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    region.safe_push (bb);
  if (!can_copy_bbs_p (region.address (), region.length ()))
    return false;
  growth_budget budget (fun, "whole-function versions");
  code_size whole = blocks_size (region.address (), region.length ());
  if (!budget.fits (whole))
    return false;

  loop_optimizer_init (AVOID_CFG_MODIFICATIONS);
  edge entry = single_succ_edge (split_edge (
    single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun))));
  basic_block choice = entry->src, body = entry->dest;
  auto_vec<basic_block> copy (region.length ());
  copy.quick_grow (region.length ());
  calculate_dominance_info (CDI_DOMINATORS);
  edge exit = EDGE_PRED (EXIT_BLOCK_PTR_FOR_FN (fun), 0);
  bool ok = gimple_duplicate_sese_region (entry, exit, region.address (),
                                          region.length (), copy.address (),
                                          true);
  if (ok)
    {
      /* ENTRY now leads to the copy; the choice sends the run to the
         original, with its tests, when one could fire.  */
      edge untested = single_succ_edge (choice);
      end_with_choice (choice,
                       cannot_fire (build_zero_cst (uint64_type_node), b.most),
                       body);
      free_dominance_info (CDI_DOMINATORS);
      mark_virtual_operands_for_renaming (cfun);
      update_ssa (TODO_update_ssa);

      /* Now that the copy's statements use the copy's names: its tests
         go, their decrements stay.  */
      auto_vec<gcond *> tests;
      for (basic_block c : copy)
        if (gimple *last = last_stmt (c))
          if (tested_countdown (last) >= 0)
            tests.safe_push (as_a<gcond *> (last));
      drop_tests (untested->dest, tests);
      budget.charge (whole);
    }
  free_dominance_info (CDI_DOMINATORS);
  loop_optimizer_finalize ();
  return ok;
}

unsigned
version_tested_loops (function *fun)
{
  if (!optimize || !opts.version_loops)
    return 0;
  if (number_of_loops (fun) <= 1)
    {
      const call_bound *b = record_bound (fun);
      if (b && version_function (fun, *b))
        {
          if (opts.verbose)
            inform (DECL_SOURCE_LOCATION (fun->decl),
                    "osp: %s versioned as a whole", display_name (fun));
          cleanup_tree_cfg ();
        }
      return 0;
    }
  growth_budget budget (fun, "loop versions");
  if (budget.over ())
    return 0;
  loop_optimizer_init (LOOPS_NORMAL | LOOPS_HAVE_RECORDED_EXITS);
  scev_initialize ();

  /* Inner loops first: an outer loop's copy then copies their versions.  */
  auto_vec<class loop *> all;
  for (class loop *loop : loops_list (fun, LI_FROM_INNERMOST))
    all.safe_push (loop);
  unsigned versioned = 0;
  for (class loop *loop : all)
    {
      auto_vec<gcond *> tests;
      unsigned most[NUM_COUNTDOWNS];
      if (!examine_loop (loop, &tests, most))
        continue;
      /* A loop with one test per pass (PEP's check on its header) is
         versioned on its latch bound: choosing in every iteration would
         cost as much as the test.  A loop with inner loops is versioned
         only in every iteration (its pass is its first part), and only
         with three tests or more (the header comment).  */
      unsigned per_pass = most[SKIP] + most[PATH_COUNTDOWN];
      if (loop->inner && per_pass < 3)
        continue;
      /* The copy is the loop as it is now, its inner loops' versions
         included (budget.cc).  */
      basic_block *body = get_loop_body (loop);
      code_size copy = blocks_size (body, loop->num_nodes);
      free (body);
      if (!budget.fits (copy))
        continue;
      if (version_loop (loop, tests, most, per_pass > 1))
        {
          budget.charge (copy);
          versioned++;
          scev_reset ();
        }
    }

  scev_finalize ();
  loop_optimizer_finalize ();
  free_dominance_info (CDI_DOMINATORS);
  return versioned;
}

/* Whether the osp pass versions the loops itself (placement=late, or
   -flto, where the late pipeline runs at link time without the plugin)
   or leaves them to the pass below.  */
bool
versions_in_osp_pass ()
{
  return opts.late || flag_lto || in_lto_p;
}

const pass_data versions_pass_data = gimple_pass_data ("osp_versions");

class versions_pass : public gimple_opt_pass
{
public:
  versions_pass (gcc::context *ctxt)
    : gimple_opt_pass (versions_pass_data, ctxt)
  {}

  bool gate (function *) final override
  {
    return optimize && opts.version_loops && !versions_in_osp_pass ()
           && (skip_decl || countdown_decl);
  }

  unsigned int execute (function *fun) final override
  {
    unsigned n = version_tested_loops (fun);
    if (n && opts.verbose)
      inform (DECL_SOURCE_LOCATION (fun->decl),
              "osp: %u versioned loops in %s after inlining", n,
              display_name (fun));
    return n ? TODO_cleanup_cfg : 0;
  }
};

gimple_opt_pass *
make_versions_pass (gcc::context *ctxt)
{
  return new versions_pass (ctxt);
}

} // namespace osp

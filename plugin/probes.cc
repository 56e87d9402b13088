/* SPDX-License-Identifier: GPL-3.0-or-later */
/* probes.cc - the Ball-Larus path register, its edge probes, the PEP
 * sample checks (PEP sections 3.1-3.2; Arnold-Ryder section 2.2) and the
 * inline path counters (Ball-Larus section 3.3's `count[r]++').
 *
 * The path register r is not a variable but SSA values that we build
 * directly (the function is already in SSA form):
 *   - at a path start, r is the constant Val(ROOT -> start);
 *   - along a P-DAG edge u -> v, r(v) gets r(u) + Val(u -> v): nothing at all
 *     when Val is 0 (the likeliest edge, thanks to smart numbering) or when
 *     r(u) is a constant (the sum folds; GCC then propagates it), else one
 *     addition placed on the edge (gsi_insert_on_edge: at the end of u if u
 *     has one successor, at the start of v if v has one predecessor, in a
 *     new block otherwise);
 *   - where edges meet, a PHI.
 * So the register lives in a machine register, and the common path never
 * touches memory for it (PEP: "step (1) is a sequence of register
 * additions").
 *
 * Sample checks, at every place a path ends:
 *       t = __osp_path_countdown - 1;  __osp_path_countdown = t;
 *       if (t == 0) __osp_path_end (&record, r + Val(last edge));
 * the addition being done in the cold call block.  Places:
 *   - the start of a path-start block entered by normal edges (a loop
 *     header, a cut), reading the PHI of the values that arrive on its
 *     in-edges: one check for all of them, as PEP's yieldpoint on a loop
 *     header;
 *   - for a start that is also entered by abnormal or EH edges, or whose
 *     first statement must stay first (a setjmp receiver), one check on
 *     each normal in-edge (split), since no PHI of ours may merge an
 *     abnormal edge;
 *   - before a return, with Val of the edge to EXIT; before the call, if
 *     the return returns its value at once; on each way into a return
 *     tree that tail calls enter, before the call or on the edge, with the
 *     Vals of the route to EXIT (tailcalls.cc);
 *   - before the last statement (a noreturn call, __builtin_unreachable) of
 *     a block without normal successors, with the block's end value.
 * The abnormal dispatcher block cannot take one; it is flagged
 * OSP_BB_NO_CHECK (its paths are never sampled).
 *
 * Path counters (instrument=counts) go at the same places, before the
 * check when there is one:
 *       __osp_counters.N[r + Val(last edge)] += 1;
 * or an atomic relaxed fetch-add with counts-update=atomic.  They need no
 * runtime call and no branch: with counters alone a loop iteration pays an
 * address computation and a read-modify-write, which is what Ball-Larus's
 * path profiling costs and less than an edge profiler's one counter per
 * instrumented edge.  The array is named, not reached through the record,
 * and no pointer of the program's points into it (DECL_NONALIASED, as
 * gcov's counters): so GCC reloads none of the program's values after an
 * increment, adds the increments of a callee inlined twice in a loop into
 * one, and keeps a counter whose index is the same in every iteration in a
 * register through the loop (bench/montecarlo's polar loop: eight
 * increments in memory an iteration before, doc/PERFORMANCE.md).
 *
 * Batched loops (batch-loops=yes, loops.cc): a loop whose body is one
 * call-free path P from its header to its back edge gets no check on the
 * back edge; it counts its iterations n, and each exit hands them over:
 *       c = __osp_path_countdown;  __osp_path_countdown = c - n;
 *       if (n >= c) __osp_path_ends (&record, P, n, c);
 * (the counter, if any, stays on the back edge).  Not when a cut starts a
 * path inside the body, or when the header's check is not on its in-edges.
 *
 * Order matters: all register values and PHIs are created first, on the
 * unchanged CFG; the edge insertions are committed; then the checks, each of
 * which splits a block.  A block's original basic_block keeps the block's
 * first statements, so checks at block ends go in before checks at block
 * starts, and hooks.cc's block hooks (inserted afterwards) still go first
 * in their blocks.
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
#include "fold-const.h"
#include "internal-fn.h"
#include "builtins.h"
#include "memmodel.h"
#include "gimplify.h"

#include "osp-plugin.h"

namespace osp {

static tree
path_cst (uint64_t v)
{
  return build_int_cstu (uint64_type_node, v);
}

/* The path register's SSA names are anonymous, except at -O0 in a
   function where the register lives across a call of the program.  At
   -O0 an anonymous SSA name becomes a pseudo register, and the register
   allocator puts a pseudo that lives across a call in a callee-saved
   register, whose save slot x86-64 keeps apart from the locals: 16 bytes
   more per frame (Lua 5.5's interpreter at -O0 then overflowed, in its
   own test suite, an `ulimit -s' its plain build fits in).  The SSA names
   of one variable that is not DECL_IGNORED_P share one stack slot at -O0,
   as a local of the program does: 8 bytes, which often fit in the padding
   of the 16-byte aligned locals (tests/safety-stack.sh).  Where the
   register never lives across a call, the pseudo takes a call-clobbered
   register and costs nothing: a variable there would only add a slot.
   The variable is in no scope block, so no debug information names it.
   When optimising, GCC allocates registers for real, and a name would
   only constrain its coalescing.  */
static tree path_var;
static vec<tree> *path_names;

static tree
path_name ()
{
  tree t = make_ssa_name (path_var ? path_var : uint64_type_node);
  if (!path_var && path_names)
    path_names->safe_push (t);
  return t;
}

/* True if BB calls a function of the program (a runtime call of ours is
   an asm or a leaf in a cold block: not yet there anyway).  */
static bool
has_call (basic_block bb)
{
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    if (is_gimple_call (gsi_stmt (gsi))
        && !gimple_call_internal_p (gsi_stmt (gsi)))
      return true;
  return false;
}

/* At -O0, if the register (RIN, per block of BLOCKS) is not a constant
   in some block that calls, name it (above): its SSA names so far, NAMES,
   and those to come.  */
static void
name_path_register (const vec<block_info> &blocks, const vec<tree> &rin,
                    const vec<tree> &names)
{
  if (optimize)
    return;
  bool crosses = false;
  for (unsigned v = 0; v < blocks.length () && !crosses; v++)
    crosses = TREE_CODE (rin[v]) != INTEGER_CST && has_call (blocks[v].bb);
  if (!crosses)
    return;
  path_var = build_decl (DECL_SOURCE_LOCATION (current_function_decl),
                         VAR_DECL, get_identifier ("__osp_path"),
                         uint64_type_node);
  DECL_ARTIFICIAL (path_var) = 1;
  DECL_CONTEXT (path_var) = current_function_decl;
  for (tree t : names)
    SET_SSA_NAME_VAR_OR_IDENTIFIER (t, path_var);
}

/* r(U) + VAL flowing along E; queues an addition on E when needed.  */
static tree
edge_value (tree r, edge e, uint64_t val)
{
  if (val == 0)
    return r;
  if (TREE_CODE (r) == INTEGER_CST)
    return fold_build2 (PLUS_EXPR, uint64_type_node, r, path_cst (val));
  tree t = path_name ();
  gsi_insert_on_edge (e, gimple_build_assign (t, PLUS_EXPR, r, path_cst (val)));
  return t;
}

/* The value of the register on entry to BB, merging VALUES (one per
   predecessor edge, in preds order) with a PHI unless they are all the
   same.  */
static tree
merge_values (basic_block bb, const vec<tree> &values)
{
  bool same = true;
  for (tree v : values)
    if (!operand_equal_p (v, values[0], 0))
      same = false;
  if (same)
    return values[0];
  gphi *phi = create_phi_node (path_name (), bb);
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->preds)
    add_phi_arg (phi, values[ei.index], e, UNKNOWN_LOCATION);
  return gimple_phi_result (phi);
}

static bool
has_complex_pred (basic_block bb)
{
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->preds)
    if (e->flags & EDGE_COMPLEX)
      return true;
  return false;
}

static location_t
block_location (basic_block bb, bool last)
{
  gimple_stmt_iterator gsi = last ? gsi_last_nondebug_bb (bb)
                                  : gsi_start_nondebug_after_labels_bb (bb);
  return gsi_end_p (gsi) ? UNKNOWN_LOCATION : gimple_location (gsi_stmt (gsi));
}

/* Emit before GSI, with location LOC, the counting of path VALUE [+
   ADDEND] in the array COUNTERS.  */
static void
emit_path_count (gimple_stmt_iterator *gsi, tree counters, tree value,
                 tree addend, location_t loc)
{
  auto emit = [&] (gimple *g) {
    gimple_set_location (g, loc);
    gsi_insert_before (gsi, g, GSI_SAME_STMT);
  };
  tree index = value;
  if (addend && !integer_zerop (addend))
    {
      if (TREE_CODE (value) == INTEGER_CST)
        index = fold_build2 (PLUS_EXPR, uint64_type_node, value, addend);
      else
        {
          index = make_ssa_name (uint64_type_node);
          emit (gimple_build_assign (index, PLUS_EXPR, value, addend));
        }
    }
  if (TREE_CODE (index) == INTEGER_CST)
    index = fold_convert (sizetype, index);
  else
    {
      tree wide = make_ssa_name (sizetype);
      emit (gimple_build_assign (wide, NOP_EXPR, index));
      index = wide;
    }
  tree slot = build4 (ARRAY_REF, uint64_type_node, counters, index,
                      NULL_TREE, NULL_TREE);
  tree one = build_int_cst (uint64_type_node, 1);
  if (opts.counts_atomic)
    {
      tree add = builtin_decl_explicit (BUILT_IN_ATOMIC_FETCH_ADD_8);
      tree addr = make_ssa_name (build_pointer_type (uint64_type_node));
      emit (gimple_build_assign (addr, build_fold_addr_expr (slot)));
      emit (gimple_build_call (add, 3, addr, one,
                               build_int_cst (integer_type_node,
                                              MEMMODEL_RELAXED)));
      return;
    }
  tree old_count = make_ssa_name (uint64_type_node);
  tree new_count = make_ssa_name (uint64_type_node);
  emit (gimple_build_assign (old_count, slot));
  emit (gimple_build_assign (new_count, PLUS_EXPR, old_count, one));
  emit (gimple_build_assign (unshare_expr (slot), new_count));
}

/* A check to place once the CFG may change.  */
struct pending_check
{
  basic_block bb;   /* at_end: before its last statement; else at its start */
  edge e;           /* or on this edge (split), when not NULL */
  bool at_end;
  tree value, addend;
  bool batched;     /* a batched loop's back edge: the counter only */
  gimple *before;   /* at_end: before this tail call instead (tailcalls.cc) */
};

/* Insert the path register updates, and the sample checks (FI->checks)
   and/or path counters (in the array FI->counters) of FI's function, its
   original blocks numbered by FI->pn.  Returns the number of path ends
   instrumented; flags OSP_BB_NO_CHECK in FI->cfg_words where none could
   be.  */
unsigned
insert_path_probes (fn_instr *fi)
{
  const vec<block_info> &blocks = fi->blocks;
  const vec<int> &id_of_bb_index = fi->id_of_bb_index;
  const path_numbering &pn = fi->pn;
  vec<batched_loop> &loops = fi->loops;
  const tail_calls &tails = fi->tails;
  vec<uint32_t> *cfg_words = &fi->cfg_words;
  bool checks_wanted = fi->checks;
  tree counters = fi->counters;
  unsigned n = blocks.length ();
  path_var = NULL_TREE;
  auto_vec<tree> names;
  path_names = &names;
  auto_vec<tree> rin;
  rin.safe_grow_cleared (n);
  auto_vec<pending_check> checks;
  /* Exit flushes of the loops whose back edge check is batched.  */
  auto_vec<const batched_loop *> flushed;
  auto_vec<tree, 16> values;
  auto succ_index = [] (edge e) {
    edge s;
    edge_iterator ei;
    FOR_EACH_EDGE (s, ei, e->src->succs)
      if (s == e)
        return ei.index;
    gcc_unreachable ();
  };
  auto val_of = [&] (edge e) {
    unsigned u = id_of_bb_index[e->src->index];
    return pn.succ_val[pn.succ_base[u] + succ_index (e)];
  };

  /* 1. r on entry to every block, predecessors first.  */
  for (unsigned v : pn.topo)
    {
      basic_block bb = blocks[v].bb;
      if (pn.start[v])
        {
          rin[v] = path_cst (pn.start_val[v]);
          continue;
        }
      values.truncate (0);
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->preds)
        {
          unsigned u = id_of_bb_index[e->src->index];
          gcc_checking_assert (rin[u]);
          values.safe_push (edge_value (rin[u], e, val_of (e)));
        }
      rin[v] = merge_values (bb, values);
    }

  name_path_register (blocks, rin, names);
  path_names = NULL;

  /* 2. Where paths end.  Block ends first (see the header comment).  */
  for (unsigned u = 0; u < n; u++)
    {
      basic_block bb = blocks[u].bb;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if (e->dest->index == EXIT_BLOCK && !(e->flags & EDGE_COMPLEX))
          {
            uint64_t end = pn.succ_val[pn.succ_base[u] + ei.index];
            if (!tails.moved (bb))
              {
                checks.safe_push ({ bb, NULL, true, rin[u], path_cst (end),
                                    false, tails.in_block (bb) });
                continue;
              }
            /* The root of a return tree that tail calls enter: the path
               end goes on each way into the tree (tailcalls.cc).  */
            tails.for_each_way_in (bb, [&] (edge in, gcall *call,
                                            const vec<basic_block> &route) {
              uint64_t along = val_of (in) + end;
              for (unsigned i = 0; i + 1 < route.length (); i++)
                along += val_of (single_succ_edge (route[i]));
              tree value = rin[id_of_bb_index[in->src->index]];
              if (call)
                checks.safe_push ({ in->src, NULL, true, value,
                                    path_cst (along), false, call });
              else
                checks.safe_push ({ bb, in, false, value, path_cst (along),
                                    false, NULL });
            });
          }
      if (pn.has_end_slot[u])
        {
          gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb (bb);
          if (!gsi_end_p (gsi)
              && gimple_call_internal_p (gsi_stmt (gsi),
                                         IFN_ABNORMAL_DISPATCHER))
            (*cfg_words)[blocks[u].cfg_offset + 2] |= OSP_BB_NO_CHECK;
          else
            checks.safe_push ({ bb, NULL, true, rin[u],
                                path_cst (pn.end_val[u]), false, NULL });
        }
    }
  for (unsigned v = 0; v < n; v++)
    {
      basic_block bb = blocks[v].bb;
      if (!pn.start[v])
        continue;
      unsigned normal = 0;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->preds)
        if (e->src->index != ENTRY_BLOCK && !(e->flags & EDGE_COMPLEX))
          normal++;
      if (!normal)
        continue;
      if (!has_complex_pred (bb) && hook_fits_at_start (bb)
          && EDGE_COUNT (bb->preds) == normal && !edge_checks_fit (bb))
        {
          /* One check for every in-edge, reading a PHI of their values.  */
          values.truncate (0);
          FOR_EACH_EDGE (e, ei, bb->preds)
            {
              unsigned u = id_of_bb_index[e->src->index];
              values.safe_push (edge_value (rin[u], e, val_of (e)));
            }
          checks.safe_push ({ bb, NULL, false, merge_values (bb, values),
                              NULL_TREE, false, NULL });
        }
      else
        FOR_EACH_EDGE (e, ei, bb->preds)
          if (e->src->index != ENTRY_BLOCK && !(e->flags & EDGE_COMPLEX))
            {
              tree value = rin[id_of_bb_index[e->src->index]];
              bool batch = false;
              if (checks_wanted && (e->flags & EDGE_DFS_BACK)
                  && TREE_CODE (value) == INTEGER_CST)
                for (batched_loop &l : loops)
                  if (l.back == e)
                    {
                      batch = true;
                      for (unsigned id : l.chain)
                        if (pn.start[id] && id != l.chain[0])
                          batch = false;
                      if (batch)
                        {
                          l.path_batched = true;
                          l.path = tree_to_uhwi (value) + val_of (e);
                          flushed.safe_push (&l);
                        }
                    }
              if (!batch || counters)
                checks.safe_push ({ bb, e, false, value,
                                    path_cst (val_of (e)), batch, NULL });
            }
    }

  /* 3. The CFG changes from here on.  */
  gsi_commit_edge_inserts ();
  tree record_addr = build_fold_addr_expr (fi->record);
  for (const pending_check &c : checks)
    {
      gimple_stmt_iterator gsi;
      location_t loc;
      if (c.e)
        {
          loc = block_location (c.e->src, true);
          basic_block landing = split_edge (c.e);
          gsi = gsi_after_labels (landing); /* a switch's case label */
        }
      else if (c.before)
        {
          loc = gimple_location (c.before);
          gsi = gsi_for_stmt (c.before);
        }
      else if (c.at_end)
        {
          loc = block_location (c.bb, true);
          gsi = gsi_last_nondebug_bb (c.bb);
          if (!gsi_end_p (gsi) && !stmt_ends_bb_p (gsi_stmt (gsi))
              && !(is_gimple_call (gsi_stmt (gsi))
                   && (gimple_call_flags (gsi_stmt (gsi)) & ECF_NORETURN)))
            gsi = gsi_last_bb (c.bb), gsi_next (&gsi); /* append */
        }
      else
        {
          loc = block_location (c.bb, false);
          gsi = gsi_after_labels (c.bb);
        }
      if (counters)
        emit_path_count (&gsi, counters, c.value, c.addend, loc);
      if (checks_wanted && !c.batched)
        {
          runtime_call call = { countdown_decl, path_end_decl,
                                OSP_SYM_PATH_END_PRESERVING, record_addr,
                                c.value, NULL_TREE, NULL_TREE, loc, false };
          if (fi->shared)
            call = { skip_decl, path_end_shared_decl,
                     OSP_SYM_PATH_END_SHARED_PRESERVING, record_addr,
                     c.value, NULL_TREE, NULL_TREE, loc, true };
          emit_countdown_call (&gsi, call, c.addend);
        }
    }
  /* After the checks: an exit edge that also carries the check of the
     path start it leads to is split again on its source side, so the
     loop's path ends reach the countdown before that path's end.  With
     shared checks they go with the loop's blocks instead (hooks.cc
     insert_loop_hooks, which splits the exit edges the same way).  */
  unsigned flushes = 0;
  for (const batched_loop *l : flushed)
    {
      if (!fi->shared)
        for (edge x : l->exits)
          {
            runtime_call call = { countdown_decl, path_ends_decl,
                                  OSP_SYM_PATH_ENDS_PRESERVING, record_addr,
                                  path_cst (l->path), l->n, NULL_TREE,
                                  UNKNOWN_LOCATION, false };
            emit_batch_flush (x, call, l->n, 0);
          }
      flushes += l->exits.length ();
    }
  path_var = NULL_TREE; /* not a GC root: no tree may outlive the pass */
  return checks.length () + flushes;
}

} // namespace osp

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* promote.cc - the countdowns in a register between calls
 * (promote-countdowns=yes, the default when optimizing).
 *
 * Why: every block hook is `__osp_skip -= 1' and every path check
 * `__osp_path_countdown -= 1' (hooks.cc).  Where GCC cannot keep the
 * countdown in a register - everywhere but in call-free loops, where its
 * store motion does - each hook is a read-modify-write of one thread-local
 * word, `subl $1,%fs:X', and each depends on the one before through memory
 * (a store-to-load forwarding, several cycles a block).  Blocks of a few
 * instructions then run at the speed of that chain, not of their
 * instructions: Lua's interpreter, whose dispatch calls functions in most
 * of its opcodes, ran 2.65x its plain CPU time with the runtime off
 * (mode=off) for 1.86x its instructions (doc/PERFORMANCE.md).
 *
 * What: only calls can read or change a countdown behind the function's
 * back (a callee's hooks, the runtime); the runtime's own calls hand the
 * re-armed value back in a register (hooks.cc, build_preserving_call).  So
 * between calls the function may carry the countdown in an SSA value, as
 * GCC's store motion does in a loop: it is loaded once at the function's
 * entry and after each call, stored before each call and each return, and
 * every load and store of osp's code in between becomes a copy.  That is
 * what the countdown would have been had it been a local variable
 * published around calls, so the runtime sees exactly what it saw before:
 * each hook still consumes one, and each call still finds the countdown in
 * memory up to date.  A store is left out when the value is still the one
 * loaded (nothing changed it since), and after a tail call or a noreturn
 * call nothing is loaded or stored (the call must stay a jump:
 * tailcalls.cc).
 *
 * The value is built into SSA form here, by the textbook construction
 * (Cytron et al.): a PHI node where two definitions meet (the iterated
 * dominance frontier of the blocks that define it), only where the value
 * is live, then a walk of the dominator tree that hands each use its
 * reaching definition.  Every definition is a version of one artificial
 * variable, so a PHI on an abnormal edge (a computed goto: Lua's jump
 * table) coalesces with its arguments, as GCC requires there.
 *
 * Where: late, after "osp_pin" ("osp_promote"; only "osp_fold", fold.cc,
 * follows), so that
 * the optimisers and osp's own passes (versions.cc, runs.cc) see the
 * countdowns' usual shape, and every call the function will make is known.
 * Not at -O0 (the value would live on the stack anyway), not under -flto
 * (the late passes run at link time without the plugin), and not in
 * functions that call setjmp, receive a nonlocal goto or have exception
 * edges (a value in a register cannot be relied on after an abnormal return
 * from a call); those keep the countdown in memory.
 *
 * What it gives up: a signal handler that runs instrumented code while a
 * function holds a countdown in a register has its decrements overwritten
 * when that function next stores it - as already in any loop whose
 * countdown GCC keeps in a register.  The handler's own samples are
 * recorded; the counts and draws of the interrupted thread shift by the
 * handler's blocks.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "gimple.h"
#include "basic-block.h"
#include "cfghooks.h"
#include "cfganal.h"
#include "gimple-iterator.h"
#include "gimple-walk.h"
#include "tree-cfg.h"
#include "ssa.h"
#include "dominance.h"
#include "tree-into-ssa.h"
#include "tree-ssanames.h"
#include "tree-phinodes.h"
#include "tree-dfa.h"
#include "gimplify.h"

#include "osp-plugin.h"

namespace osp {

namespace {

/* What STMT does with the countdown V.  */
enum access_kind
{
  ACCESS_NONE,
  ACCESS_LOAD,    /* t = V */
  ACCESS_STORE,   /* V = x */
  ACCESS_SYNC,    /* a call or an asm: V in memory before, loaded after */
  ACCESS_LEAVE,   /* a tail or noreturn call: V in memory before, nothing
                     after */
  ACCESS_RETURN,  /* V in memory before */
  ACCESS_FOREIGN  /* any other mention of V: the function is left alone */
};

tree
find_var (tree *tp, int *walk_subtrees, void *data)
{
  struct walk_stmt_info *wi = (struct walk_stmt_info *) data;
  if (*tp == (tree) wi->info)
    return *tp;
  if (TYPE_P (*tp))
    *walk_subtrees = 0;
  return NULL_TREE;
}

bool
stmt_mentions (gimple *stmt, tree v)
{
  struct walk_stmt_info wi = {};
  wi.info = v;
  return walk_gimple_op (stmt, find_var, &wi) != NULL_TREE;
}

/* Is STMT an asm statement that calls a trampoline (hooks.cc)?  Those hand
   the countdown back in a register: there is no memory to keep current.  */
bool
trampoline_asm_p (gimple *stmt)
{
  gasm *asm_stmt = dyn_cast<gasm *> (stmt);
  return asm_stmt && strstr (gimple_asm_string (asm_stmt), "call *__osp_");
}

access_kind
classify (gimple *stmt, tree v)
{
  if (is_gimple_debug (stmt))
    return ACCESS_NONE;
  if (gimple_assign_single_p (stmt))
    {
      tree lhs = gimple_assign_lhs (stmt), rhs = gimple_assign_rhs1 (stmt);
      if (lhs == v)
        return is_gimple_val (rhs) && rhs != v ? ACCESS_STORE
                                               : ACCESS_FOREIGN;
      if (rhs == v && TREE_CODE (lhs) == SSA_NAME)
        return ACCESS_LOAD;
    }
  if (gcall *call = dyn_cast<gcall *> (stmt))
    {
      if (gimple_call_internal_p (call))
        return stmt_mentions (stmt, v) ? ACCESS_FOREIGN : ACCESS_NONE;
      if (gimple_call_tail_p (call) || gimple_call_noreturn_p (call))
        return ACCESS_LEAVE;
      return ACCESS_SYNC;
    }
  if (is_a<gasm *> (stmt) && !trampoline_asm_p (stmt))
    return ACCESS_SYNC;
  if (is_a<greturn *> (stmt))
    return ACCESS_RETURN;
  return stmt_mentions (stmt, v) ? ACCESS_FOREIGN : ACCESS_NONE;
}

/* Whether V can be promoted in FUN: only the accesses above, at least one
   load or store, no call or asm that ends its block (an asm goto) other
   than a tail or noreturn call.  */
bool
promotable (function *fun, tree v)
{
  unsigned accesses = 0;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
         gsi_next (&gsi))
      switch (classify (gsi_stmt (gsi), v))
        {
        case ACCESS_FOREIGN:
          return false;
        case ACCESS_LOAD:
        case ACCESS_STORE:
          accesses++;
          break;
        case ACCESS_SYNC:
          if (stmt_ends_bb_p (gsi_stmt (gsi)))
            return false;
          break;
        default:
          break;
        }
  return accesses > 0;
}

/* Whether FUN has what a value in a register cannot follow: setjmp, a
   nonlocal goto's receiver, exception edges.  Computed gotos' abnormal
   edges are fine (their PHIs coalesce, the header comment).  */
bool
unsafe_function (function *fun)
{
  if (fun->calls_setjmp || fun->has_nonlocal_label)
    return true;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->succs)
        if ((e->flags & EDGE_EH)
            || ((e->flags & EDGE_ABNORMAL) && !computed_goto_p (last_stmt (bb))))
          return true;
    }
  return false;
}

/* One countdown V of one function.  */
class promoter
{
public:
  promoter (function *fun, tree v) : fun (fun), v (v) {}
  void run ();

private:
  function *fun;
  tree v;
  tree base = NULL_TREE;          /* the variable every value is a version of */
  gimple *entry_load = NULL;
  hash_set<tree> clean;           /* values loaded and not changed since */
  auto_vec<tree> end_value;       /* by block index: the value at its end */
  auto_vec<gphi *> phis;

  tree new_value () { return make_ssa_name (base); }
  tree load_before (gimple_stmt_iterator *gsi, bool after);
  void store_before (gimple_stmt_iterator *gsi, tree value);
  void summarise (auto_sbitmap &exposed, auto_sbitmap &defines);
  void live_in (auto_sbitmap &live, const auto_sbitmap &exposed,
                const auto_sbitmap &defines);
  void place_phis (const auto_sbitmap &live, const auto_sbitmap &defines);
  void rename (basic_block bb, tree cur);
  void fill_phis ();
};

/* A new value loaded from V, before GSI's statement or after it.  */
tree
promoter::load_before (gimple_stmt_iterator *gsi, bool after)
{
  tree value = new_value ();
  gassign *load = gimple_build_assign (value, v);
  if (after)
    gsi_insert_after (gsi, load, GSI_NEW_STMT);
  else
    gsi_insert_before (gsi, load, GSI_SAME_STMT);
  clean.add (value);
  return value;
}

void
promoter::store_before (gimple_stmt_iterator *gsi, tree value)
{
  if (value && !clean.contains (value))
    gsi_insert_before (gsi, gimple_build_assign (v, value), GSI_SAME_STMT);
}

/* Per block: whether the value is used before the block defines it
   (EXPOSED), and whether it defines it (DEFINES).  */
void
promoter::summarise (auto_sbitmap &exposed, auto_sbitmap &defines)
{
  bitmap_clear (exposed);
  bitmap_clear (defines);
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      bool defined = false;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        {
          gimple *stmt = gsi_stmt (gsi);
          if (stmt == entry_load)
            {
              defined = true;
              continue;
            }
          access_kind k = classify (stmt, v);
          if (k == ACCESS_NONE)
            continue;
          if (!defined && k != ACCESS_STORE)
            bitmap_set_bit (exposed, bb->index);
          if (k != ACCESS_LOAD && k != ACCESS_RETURN)
            defined = true;
        }
      if (defined)
        bitmap_set_bit (defines, bb->index);
    }
}

/* LIVE: the blocks the value is live into (a backward data flow).  */
void
promoter::live_in (auto_sbitmap &live, const auto_sbitmap &exposed,
                   const auto_sbitmap &defines)
{
  bitmap_copy (live, exposed);
  bool changed = true;
  while (changed)
    {
      changed = false;
      basic_block bb;
      FOR_EACH_BB_REVERSE_FN (bb, fun)
        {
          if (bitmap_bit_p (live, bb->index) || bitmap_bit_p (defines, bb->index))
            continue;
          edge e;
          edge_iterator ei;
          FOR_EACH_EDGE (e, ei, bb->succs)
            if (e->dest != EXIT_BLOCK_PTR_FOR_FN (fun)
                && bitmap_bit_p (live, e->dest->index))
              {
                bitmap_set_bit (live, bb->index);
                changed = true;
                break;
              }
        }
    }
}

/* A PHI wherever definitions meet and the value is live.  */
void
promoter::place_phis (const auto_sbitmap &live, const auto_sbitmap &defines)
{
  auto_bitmap def_blocks;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    if (bitmap_bit_p (defines, bb->index))
      bitmap_set_bit (def_blocks, bb->index);
  unsigned n = last_basic_block_for_fn (fun);
  bitmap_head *frontiers = XNEWVEC (bitmap_head, n);
  for (unsigned i = 0; i < n; i++)
    bitmap_initialize (&frontiers[i], &bitmap_default_obstack);
  compute_dominance_frontiers (frontiers);
  bitmap idf = compute_idf (def_blocks, frontiers);
  unsigned i;
  bitmap_iterator bi;
  EXECUTE_IF_SET_IN_BITMAP (idf, 0, i, bi)
    if (bitmap_bit_p (live, i))
      phis.safe_push (create_phi_node (base, BASIC_BLOCK_FOR_FN (fun, i)));
  BITMAP_FREE (idf);
  for (unsigned j = 0; j < n; j++)
    bitmap_clear (&frontiers[j]);
  XDELETEVEC (frontiers);
}

/* The walk of the dominator tree from BB, CUR reaching its start unless it
   has a PHI.  */
void
promoter::rename (basic_block bb, tree cur)
{
  auto_vec<std::pair<basic_block, tree>, 32> work;
  work.safe_push (std::make_pair (bb, cur));
  while (!work.is_empty ())
    {
      std::pair<basic_block, tree> item = work.pop ();
      bb = item.first;
      cur = item.second;
      for (gphi_iterator pi = gsi_start_phis (bb); !gsi_end_p (pi);
           gsi_next (&pi))
        if (SSA_NAME_VAR (gimple_phi_result (pi.phi ())) == base)
          cur = gimple_phi_result (pi.phi ());
      gimple_stmt_iterator gsi = gsi_start_bb (bb);
      while (!gsi_end_p (gsi))
        {
          gimple *stmt = gsi_stmt (gsi);
          if (stmt == entry_load)
            {
              cur = gimple_assign_lhs (stmt);
              gsi_next (&gsi);
              continue;
            }
          switch (classify (stmt, v))
            {
            case ACCESS_LOAD:
              if (!cur)
                cur = load_before (&gsi, false);
              gimple_assign_set_rhs1 (stmt, cur);
              update_stmt (stmt);
              break;
            case ACCESS_STORE:
              {
                tree value = new_value ();
                gassign *copy
                  = gimple_build_assign (value, gimple_assign_rhs1 (stmt));
                gimple_set_location (copy, gimple_location (stmt));
                gsi_insert_before (&gsi, copy, GSI_SAME_STMT);
                unlink_stmt_vdef (stmt);
                gsi_remove (&gsi, true);
                release_defs (stmt);
                cur = value;
                continue; /* gsi is at the next statement */
              }
            case ACCESS_SYNC:
              store_before (&gsi, cur);
              cur = load_before (&gsi, true); /* gsi moves onto it */
              break;
            case ACCESS_LEAVE:
              store_before (&gsi, cur);
              cur = NULL_TREE;
              break;
            case ACCESS_RETURN:
              store_before (&gsi, cur);
              break;
            default:
              break;
            }
          gsi_next (&gsi);
        }
      end_value[bb->index] = cur;
      for (basic_block son = first_dom_son (CDI_DOMINATORS, bb); son;
           son = next_dom_son (CDI_DOMINATORS, son))
        work.safe_push (std::make_pair (son, cur));
    }
}

/* Each PHI's arguments: the values at the ends of its predecessors.  */
void
promoter::fill_phis ()
{
  for (gphi *phi : phis)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, gimple_bb (phi)->preds)
        {
          tree arg = end_value[e->src->index];
          if (!arg)
            {
              /* Left by a call that does not come back here, or a block
                 the walk did not reach: memory has the value.  */
              gimple_stmt_iterator gsi = gsi_last_bb (e->src);
              if (!gsi_end_p (gsi) && stmt_ends_bb_p (gsi_stmt (gsi)))
                arg = load_before (&gsi, false);
              else if (!gsi_end_p (gsi))
                arg = load_before (&gsi, true);
              else
                {
                  gsi = gsi_start_bb (e->src);
                  arg = new_value ();
                  gsi_insert_before (&gsi, gimple_build_assign (arg, v),
                                     GSI_SAME_STMT);
                }
              end_value[e->src->index] = arg;
            }
          if (e->flags & EDGE_ABNORMAL)
            {
              SSA_NAME_OCCURS_IN_ABNORMAL_PHI (arg) = 1;
              SSA_NAME_OCCURS_IN_ABNORMAL_PHI (gimple_phi_result (phi)) = 1;
            }
          add_phi_arg (phi, arg, e, UNKNOWN_LOCATION);
        }
    }
}

void
promoter::run ()
{
  base = create_tmp_reg (uint32_type_node, "osp_countdown");
  entry_load = gimple_build_assign (new_value (), v);
  clean.add (gimple_assign_lhs (entry_load));
  gsi_insert_on_edge_immediate (
    single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun)), entry_load);

  free_dominance_info (CDI_DOMINATORS);
  calculate_dominance_info (CDI_DOMINATORS);
  unsigned n = last_basic_block_for_fn (fun);
  auto_sbitmap exposed (n), defines (n), live (n);
  summarise (exposed, defines);
  live_in (live, exposed, defines);
  place_phis (live, defines);
  end_value.safe_grow_cleared (n);
  rename (single_succ (ENTRY_BLOCK_PTR_FOR_FN (fun)), NULL_TREE);
  fill_phis ();
}

} // anonymous namespace

/* The function whose __osp_skip the pass promoted last (fold.cc folds
   only its hooks; GCC runs the GIMPLE passes one function at a time).  */
tree skip_promoted_in;

/* The pass (header comment).  */
const pass_data promote_pass_data = gimple_pass_data ("osp_promote");

class promote_pass : public gimple_opt_pass
{
public:
  promote_pass (gcc::context *ctxt)
    : gimple_opt_pass (promote_pass_data, ctxt)
  {
  }

  bool gate (function *) final override
  {
    return opts.promote_countdowns && optimize && !flag_lto
           && (skip_decl || countdown_decl);
  }

  unsigned int execute (function *fun) final override
  {
    skip_promoted_in = NULL_TREE;
    if (unsafe_function (fun))
      return 0;
    unsigned promoted = 0;
    for (tree v : { skip_decl, countdown_decl })
      if (v && promotable (fun, v))
        {
          promoter (fun, v).run ();
          promoted++;
          if (v == skip_decl)
            skip_promoted_in = fun->decl;
        }
    if (!promoted)
      return 0;
    free_dominance_info (CDI_DOMINATORS);
    mark_virtual_operands_for_renaming (fun);
    return TODO_update_ssa_only_virtuals;
  }
};

gimple_opt_pass *
make_promote_pass (gcc::context *ctxt)
{
  return new promote_pass (ctxt);
}

} // namespace osp

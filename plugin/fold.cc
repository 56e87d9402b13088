/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fold.cc - each block hook of a promoted countdown becomes one asm
 * statement, its call out of line: no cold block per hook.
 *
 * After promote.cc a block hook is, with the countdown in SSA values:
 *
 *     B:  x = y - 1;  if (x == 0) goto C; else goto J;
 *     C:  r = asm ("... call *__osp_block_hook_preserving ..."
 *                  : "=a" (r) : "D" (&record), "S" (block));
 *     J:  z = PHI <x (B), r (C)>
 *
 * Two edges and a block per hook, which is what makes osp's compiles slow:
 * GCC's RTL passes are linear or worse in blocks times pseudos, and in an
 * interpreter's dispatch loop (Lua's luaV_execute: 766 hooks) the live
 * register problems alone took a quarter of the compile.  Folded:
 *
 *     B:  z = asm volatile ("sub $1, %k0; je 2f; 1:"
 *                           ".subsection 1; 2: <stub>; jmp 1b; .previous"
 *                           : "=r" (z) : "0" (y), "i" (&record));
 *
 * x = y - 1 may be computed once for several hooks (GCC's code hoisting,
 * before promote.cc: an if's two arms, a switch's cases); when hooks are
 * all that use it, each asm still takes y and decrements it, and x dies,
 * else the asm is "test %k0, %k0" of x, a third instruction.
 *
 * The hot path is the same two instructions, a decrement of the register
 * and a branch not taken; the branch goes to a stub after the function
 * (subsection 1 of its own section, so a COMDAT copy keeps its stubs),
 * which calls the runtime through __osp_block_hook_folded: it passes the
 * record and the block in memory before its call, since no operand can be
 * given to code outside the asm's place, and the entry point it calls is
 * the one of the countdown's register, which puts the re-armed countdown
 * there (libosprt/trampoline.S, FOLDED_REG).  Only the assembler knows the
 * register's name, so the stub calls through a macro that picks the entry
 * by it, defined once in the unit's assembly.  The asm is
 * volatile: it calls the runtime, and it must not be moved, merged or
 * dropped.  GCC sees no call, no clobbered register but the flags, and no
 * memory, as with the cold block's asm (hooks.cc).
 *
 * This is the last GIMPLE pass (after osp_promote): every analysis of the
 * plugin (versions.cc, runs.cc, barriers.cc, tailcalls.cc) has seen the
 * hooks in their branching form, and the folded form only changes what RTL
 * gets.  It applies only where the pattern above is exact: the countdown
 * promoted (not at -O0, in the functions promote.cc leaves alone, under
 * -flto), x86-64 with calls=preserving, a code model whose symbols
 * are 32-bit PC-relative (small, or small PIC), C holding the asm and
 * nothing but dead copies of r, and J's PHIs joining x with r.
 * Shared path checks, batched loops' hand-overs and unpromoted hooks keep
 * their cold blocks.
 *
 * A stub lies outside its function's unwind information: a backtrace taken
 * inside the runtime (a debugger stopped there) ends at the stub.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "gimple.h"
#include "basic-block.h"
#include "cfghooks.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "ssa.h"
#include "tree-pass.h"
#include "stringpool.h"
#include "options.h"
#include "gimplify.h"
#include "diagnostic-core.h"
#include "output.h"

#include "osp-plugin.h"

namespace osp {

namespace {

/* A stub: the operands (8 bytes), `add $-128, %rsp' (4) and the call
   (6), the trampoline's FOLDED_OPERANDS bytes before its return address.  */
const int STUB_OPERANDS = 18;

/* The assembler macro a stub calls its entry point by: REG is the asm's
   operand as GCC prints it (%r12, or r12 under -masm=intel), FLAVOUR
   vector_flavour's suffix.  A
   register it does not know (none is left) expands to nothing, and the
   stub's length check fails.  */
#define CALL_MACRO "__osp_fold_call"

/* Define CALL_MACRO in the unit's assembly, once, before the first stub:
   the passes run function by function and write each function's code at
   its end, so what is written now comes before this function's code and
   after that of the functions before it, none of which has a stub.  */
void
define_call_macro ()
{
  static bool done;
  if (done || asm_out_file == NULL)
    return;
  done = true;
  fputs ("\t.macro " CALL_MACRO " reg:req, flavour\n"
         "\t.irp r, rax, rbx, rcx, rdx, rsi, rdi, rbp, r8, r9, r10, r11,"
         " r12, r13, r14, r15\n"
         "\t.ifc \\reg, %\\r\n"
         "\tcall *" OSP_SYM_BLOCK_HOOK_FOLDED "\\flavour\\()_\\r"
         "@GOTPCREL(%rip)\n"
         "\t.endif\n"
         "\t.ifc \\reg, \\r\n" /* -masm=intel's operand: no `%' */
         "\tcall *" OSP_SYM_BLOCK_HOOK_FOLDED "\\flavour\\()_\\r"
         "@GOTPCREL(%rip)\n"
         "\t.endif\n"
         "\t.endr\n"
         "\t.endm\n", asm_out_file);
}

/* The preserving block hook's asm if it is BB's only statement with an
   effect (the rest: copies of its output), else NULL.  */
gasm *
lone_hook_asm (basic_block bb)
{
  gasm *hook = NULL;
  for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      gimple *stmt = gsi_stmt (gsi);
      if (is_gimple_debug (stmt))
        continue;
      if (gasm *a = dyn_cast<gasm *> (stmt))
        {
          if (hook || gimple_asm_noutputs (a) != 1
              || gimple_asm_ninputs (a) != 2
              || !strstr (gimple_asm_string (a),
                          "call *" OSP_SYM_BLOCK_HOOK_PRESERVING))
            return NULL;
          hook = a;
          continue;
        }
      if (!hook || !gimple_assign_ssa_name_copy_p (stmt)
          || gimple_assign_rhs1 (stmt)
               != TREE_VALUE (gimple_asm_output_op (hook, 0)))
        return NULL;
    }
  return hook;
}

/* Is T the value V, or a copy of it made in BB?  promote.cc renames the
   countdown's stores into such copies, and GCC runs no copy propagation
   after it.  */
bool
same_value_p (tree t, tree v, basic_block bb)
{
  if (t == v)
    return true;
  if (TREE_CODE (t) != SSA_NAME)
    return false;
  gimple *def = SSA_NAME_DEF_STMT (t);
  return gimple_bb (def) == bb && gimple_assign_ssa_name_copy_p (def)
         && gimple_assign_rhs1 (def) == v;
}

/* Is USE_STMT a hook PHI of J (the PHI arg on TO_J being replaced), or a
   copy of X whose uses are only such PHIs?  */
bool
hook_use_p (gimple *use_stmt, edge to_j, tree x, basic_block b)
{
  if (gphi *phi = dyn_cast<gphi *> (use_stmt))
    return gimple_bb (phi) == to_j->dest
           && PHI_ARG_DEF_FROM_EDGE (phi, to_j) == x;
  if (!gimple_assign_ssa_name_copy_p (use_stmt)
      || gimple_bb (use_stmt) != b)
    return false;
  imm_use_iterator it;
  use_operand_p use;
  FOR_EACH_IMM_USE_FAST (use, it, gimple_assign_lhs (use_stmt))
    if (!hook_use_p (USE_STMT (use), to_j, gimple_assign_lhs (use_stmt), b))
      return false;
  return true;
}

/* A hook in the header comment's shape: B ends in the test of X, whose
   true edge TO_C goes to C holding HOOK alone, and whose false edge TO_J
   and C's edge meet in J, where X meets the hook's output.  */
struct hook_shape
{
  gcond *cond;
  tree x;
  edge to_c, to_j;
  basic_block c, j;
  gasm *hook;
};

/* Whether B ends in a hook of that shape; if so, S describes it.  */
bool
hook_shape_p (basic_block b, hook_shape *s)
{
  gcond *cond = safe_dyn_cast<gcond *> (last_stmt (b));
  if (!cond || gimple_cond_code (cond) != EQ_EXPR
      || !integer_zerop (gimple_cond_rhs (cond))
      || TREE_CODE (gimple_cond_lhs (cond)) != SSA_NAME
      || TYPE_MAIN_VARIANT (TREE_TYPE (gimple_cond_lhs (cond)))
           != uint32_type_node)
    return false;
  tree x = gimple_cond_lhs (cond);

  edge to_c, to_j;
  extract_true_false_edges_from_block (b, &to_c, &to_j);
  basic_block c = to_c->dest, j = to_j->dest;
  if (c == j || !single_pred_p (c) || !single_succ_p (c)
      || single_succ (c) != j || (to_c->flags & EDGE_COMPLEX)
      || (single_succ_edge (c)->flags & EDGE_COMPLEX)
      || (to_j->flags & EDGE_COMPLEX))
    return false;
  gasm *hook = lone_hook_asm (c);
  if (!hook)
    return false;
  tree r = TREE_VALUE (gimple_asm_output_op (hook, 0));
  tree record = TREE_VALUE (gimple_asm_input_op (hook, 0));
  tree block = TREE_VALUE (gimple_asm_input_op (hook, 1));
  if (TREE_CODE (block) != INTEGER_CST || TREE_CODE (record) != ADDR_EXPR)
    return false;

  /* J's PHIs: x meets r, or both edges bring the same value.  */
  edge from_c = single_succ_edge (c);
  unsigned phi_uses = 0;
  for (gphi_iterator psi = gsi_start_phis (j); !gsi_end_p (psi);
       gsi_next (&psi))
    {
      gphi *phi = psi.phi ();
      tree on_j = PHI_ARG_DEF_FROM_EDGE (phi, to_j);
      tree on_c = PHI_ARG_DEF_FROM_EDGE (phi, from_c);
      if (same_value_p (on_j, x, b) && same_value_p (on_c, r, c))
        phi_uses++;
      else if (same_value_p (on_c, r, c) || !operand_equal_p (on_j, on_c, 0))
        return false;
    }
  if (phi_uses == 0)
    return false;
  *s = { cond, x, to_c, to_j, c, j, hook };
  return true;
}

/* x = y - 1's Y, if DEC is that, else NULL.  */
tree
decremented (gimple *dec)
{
  gassign *a = safe_dyn_cast<gassign *> (dec);
  if (a && gimple_assign_rhs_code (a) == PLUS_EXPR
      && TREE_CODE (gimple_assign_rhs1 (a)) == SSA_NAME
      && integer_all_onesp (gimple_assign_rhs2 (a)))
    return gimple_assign_rhs1 (a);
  return NULL_TREE;
}

/* Whether every use of X is the test of a hook of the header comment's
   shape, or one of those hooks' PHI arguments (or a copy in its block
   that only they use): then each hook can take the decrement into its
   asm, and x dies.  */
bool
only_hooks_use_p (tree x)
{
  imm_use_iterator it;
  use_operand_p use;
  hook_shape s;
  FOR_EACH_IMM_USE_FAST (use, it, x)
    {
      gimple *u = USE_STMT (use);
      /* The hook's block: a PHI argument's is its edge's source (the
         edge is then the hook's TO_J: a block has one edge to J).  */
      gphi *phi = dyn_cast<gphi *> (u);
      basic_block hb
          = phi ? gimple_phi_arg_edge (phi, PHI_ARG_INDEX_FROM_USE (use))->src
                : gimple_bb (u);
      if (!hook_shape_p (hb, &s) || s.x != x
          || (u != s.cond && !hook_use_p (u, s.to_j, x, hb)))
        return false;
    }
  return true;
}

/* The hook whose test ends B, folded if it has the header comment's shape;
   true if it was.  The test is of x = y - 1: where the hooks are all that
   use x (computed in B, or once for several hooks by GCC's code hoisting:
   a switch's cases, the two arms of an `if'), the decrement goes into the
   asm, `sub' setting the flags the branch tests; else the asm tests x.  */
bool
fold_hook (basic_block b, hash_map<tree, bool> *verdicts)
{
  hook_shape s;
  if (!hook_shape_p (b, &s))
    return false;
  tree x = s.x;
  tree record = TREE_VALUE (gimple_asm_input_op (s.hook, 0));
  tree block = TREE_VALUE (gimple_asm_input_op (s.hook, 1));

  gimple *dec = SSA_NAME_DEF_STMT (x);
  tree y = decremented (dec);
  /* Asked once for each x (a switch's cases share one): the answer
     stands as its hooks are folded, the asms using y instead.  */
  bool fuse = false;
  if (y)
    {
      bool *known = verdicts->get (x);
      fuse = known ? *known : only_hooks_use_p (x);
      if (!known)
        verdicts->put (x, fuse);
    }
  tree in = fuse ? y : x;

  define_call_macro ();
  char text[512];
  snprintf (text, sizeof text,
            "%s%s\n\t"
            "je 2f\n"
            "1:\n\t"
            ".subsection 1\n"
            "3:\t.long %%c2 - 3b\n\t"
            ".long %u\n"
            "2:\tadd $-128, %%%%rsp\n\t"
            CALL_MACRO " %%q0, %s\n"
            "4:\t.if 4b - 3b - %d\n\t"
            ".error \"osp: a folded hook's stub is not %d bytes\"\n\t"
            ".endif\n\t"
            "jmp 1b\n\t"
            ".previous%s",
            att_syntax (true), fuse ? "sub $1, %k0" : "test %k0, %k0",
            (unsigned) tree_to_uhwi (block), vector_flavour (),
            STUB_OPERANDS, STUB_OPERANDS, att_syntax (false));
  vec<tree, va_gc> *outputs = NULL, *inputs = NULL, *clobbers = NULL;
  tree z = make_ssa_name (uint32_type_node);
  vec_safe_push (outputs, asm_operand ("=r", z));
  vec_safe_push (inputs, asm_operand ("0", in));
  vec_safe_push (inputs, asm_operand ("i", unshare_expr (record)));
  vec_safe_push (clobbers, build_tree_list (NULL_TREE,
                                            build_string (3, "cc")));
  gasm *folded = gimple_build_asm_vec (ggc_strdup (text), inputs, outputs,
                                       clobbers, NULL);
  gimple_asm_set_volatile (folded, true);
  gimple_set_location (folded, gimple_location (s.cond));
  SSA_NAME_DEF_STMT (z) = folded;
  gimple_stmt_iterator gsi = gsi_for_stmt (s.cond);
  gsi_insert_before (&gsi, folded, GSI_SAME_STMT);

  for (gphi_iterator psi = gsi_start_phis (s.j); !gsi_end_p (psi);
       gsi_next (&psi))
    if (same_value_p (PHI_ARG_DEF_FROM_EDGE (psi.phi (), s.to_j), x, b))
      SET_PHI_ARG_DEF (psi.phi (), s.to_j->dest_idx, z);
  gsi_remove (&gsi, true);
  if (fuse)
    {
      /* B's copies of x that nothing uses any more go; x itself when the
         last of its hooks is folded.  */
      auto_vec<gimple *, 4> dead;
      imm_use_iterator it;
      use_operand_p use;
      FOR_EACH_IMM_USE_FAST (use, it, x)
        if (gimple_bb (USE_STMT (use)) == b
            && gimple_assign_ssa_name_copy_p (USE_STMT (use))
            && has_zero_uses (gimple_assign_lhs (USE_STMT (use))))
          dead.safe_push (USE_STMT (use));
      for (gimple *copy : dead)
        {
          gimple_stmt_iterator usi = gsi_for_stmt (copy);
          gsi_remove (&usi, true);
          release_defs (copy);
        }
      if (has_zero_uses (x))
        {
          gimple_stmt_iterator dsi = gsi_for_stmt (dec);
          gsi_remove (&dsi, true);
          verdicts->remove (x); /* its node may serve a new name */
          release_ssa_name (x);
        }
    }

  remove_edge (s.to_c);
  delete_basic_block (s.c);
  s.to_j->flags &= ~(EDGE_TRUE_VALUE | EDGE_FALSE_VALUE);
  s.to_j->flags |= EDGE_FALLTHRU;
  s.to_j->probability = profile_probability::always ();
  return true;
}

} // anonymous namespace

/* The pass (header comment).  */
const pass_data fold_pass_data = gimple_pass_data ("osp_fold");

class fold_pass : public gimple_opt_pass
{
public:
  fold_pass (gcc::context *ctxt) : gimple_opt_pass (fold_pass_data, ctxt) {}

  bool gate (function *) final override
  {
#ifdef TARGET_64BIT
    return opts.fold_hooks && opts.preserving_calls && opts.promote_countdowns
           && optimize && !flag_lto && skip_decl && TARGET_64BIT
           && (ix86_cmodel == CM_SMALL || ix86_cmodel == CM_SMALL_PIC);
#else
    return false;
#endif
  }

  unsigned int execute (function *fun) final override
  {
    if (skip_promoted_in != fun->decl)
      return 0;
    /* By index: a folded hook's cold block is deleted.  */
    unsigned folded = 0, n = last_basic_block_for_fn (fun);
    hash_map<tree, bool> verdicts;
    for (unsigned i = NUM_FIXED_BLOCKS; i < n; i++)
      if (basic_block b = BASIC_BLOCK_FOR_FN (fun, i))
        folded += fold_hook (b, &verdicts);
    if (opts.verbose && folded)
      inform (DECL_SOURCE_LOCATION (fun->decl),
              "osp: %qs: %u block hooks folded", function_name (fun),
              folded);
    return folded ? TODO_cleanup_cfg : 0;
  }
};

gimple_opt_pass *
make_fold_pass (gcc::context *ctxt)
{
  return new fold_pass (ctxt);
}

} // namespace osp

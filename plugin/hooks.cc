/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hooks.cc - block-entry hooks (OSP paper, section 3: enterBlock), and the
 * countdown-and-call sequence that the path checks of probes.cc share.
 *
 * At the start of each original block:
 *
 *     t1 = __osp_skip;  t2 = t1 - 1;  __osp_skip = t2;
 *     if (t2 == 0)                      <- "very unlikely", laid out cold
 *       __osp_block_hook (&record, id);
 *
 * The common path is a TLS load, a decrement, a store and a not-taken
 * branch; GCC keeps the thread-pointer-relative address in a register.
 * The runtime owns __osp_skip: it reloads it with the next skip (or 1 in
 * the exact mode, or a huge value when profiling is off).
 *
 * The runtime functions are declared nothrow and leaf, which is their true
 * contract (no callback into this unit, no longjmp, no throw).  "leaf" also
 * keeps our calls out of the abnormal-edge machinery of functions calling
 * setjmp (call_can_make_abnormal_goto), and "cold" moves the call block
 * out of the hot code.
 *
 * On x86-64 (calls=preserving, the default there) the cold block does not
 * call the runtime function itself but its register-preserving trampoline
 * (libosprt/trampoline.S), from an asm statement without memory operands:
 *
 *     asm ("add $-128,%rsp; call *TRAMPOLINE@GOTPCREL(%rip);
 *                    sub $-128,%rsp"
 *                   : "=a" (t) : "D" (&record), "S" (arg) : "cc");
 *     COUNTER = t;          // the countdown the runtime re-armed
 *
 * A call, even a cold one, makes GCC assume memory and the call-clobbered
 * registers change, so loops with a check reload their invariants every
 * iteration; the asm tells the truth - the runtime changes nothing of the
 * program's but the countdown it hands back - and the loop keeps its
 * values, the countdown included, in registers.  No memory operand: GCC's
 * loop-invariant motion gives up on a loop containing any statement that
 * touches memory it cannot analyse.  The red zone is stepped over because
 * the call pushes a return address: with add and sub of -128, whose
 * immediates fit a byte (4 bytes each; lea 128(%rsp) takes a 32-bit
 * displacement, 8), as the flags are given up anyway ("cc").
 *
 * The asm is not volatile while the GIMPLE passes run (that would stop
 * predictive commoning and vectorisation), but becomes volatile before RTL
 * expansion (pin_pass, the last GIMPLE pass): to an RTL pass a
 * non-volatile asm with constant operands is a loop invariant, and
 * loop-invariant motion hoisted hooks out of their cold blocks
 * (build_preserving_call).
 *
 * The blocks between a call in tail position and its return (a return
 * tree, tailcalls.cc) get their hooks in front of that call instead, and
 * on the tree's other in-edges, so that the call stays a jump.
 *
 * Nothing is ever put in front of a returns_twice call (setjmp, vfork), a
 * setjmp receiver or the abnormal dispatcher: GCC 13 and later reject it
 * and it is wrong anyway (the code would run once, the block is entered
 * twice).  Such a block gets its hook right after that statement, or on
 * its single normal out-edge when the statement ends the block; if it has
 * none, the block is flagged OSP_BB_NO_HOOK in the metadata.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "gimple.h"
#include "basic-block.h"
#include "cfghooks.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "ssa.h"
#include "gimplify.h"
#include "stringpool.h"
#include "attribs.h"
#include "asan.h"
#include "internal-fn.h"
#include "alias.h"
#include "cgraph.h"

#include "osp-plugin.h"

namespace osp {

/* Is FNDECL one of the runtime entry points osp's code calls?  */
bool
is_runtime_function (tree fndecl)
{
  return fndecl
         && (fndecl == block_hook_decl || fndecl == path_end_decl
             || fndecl == path_ends_decl || fndecl == block_hooks_decl
             || fndecl == path_end_shared_decl);
}

/* A runtime entry point: external, nothrow, leaf, optionally cold.  */
tree
declare_runtime_function (const char *name, tree type, bool cold)
{
  tree decl = build_fn_decl (name, type);
  TREE_PUBLIC (decl) = 1;
  DECL_EXTERNAL (decl) = 1;
  DECL_ARTIFICIAL (decl) = 1;
  TREE_NOTHROW (decl) = 1;
  DECL_ATTRIBUTES (decl)
    = tree_cons (get_identifier ("leaf"), NULL, DECL_ATTRIBUTES (decl));
  if (cold)
    DECL_ATTRIBUTES (decl)
      = tree_cons (get_identifier ("cold"), NULL, DECL_ATTRIBUTES (decl));
  DECL_ASSEMBLER_NAME (decl); /* the LTO streamer needs it */
  return decl;
}

/* __osp_skip's type: uint32_t in a TBAA alias set of its own.  Only
   osp's code touches the countdown, but as plain uint32_t every store
   through an int or unsigned pointer of the program might change it, so
   GCC stored the countdown before each such store and loaded it again
   after (bench/heapsort's sift-down: three extra instructions a block).
   In an alias set that conflicts with no type of the program (only with
   char, which conflicts with everything) the countdown stays in a register
   across the program's stores: osp-skip 1.604x -> 1.583x instructions
   (doc/PERFORMANCE.md).  Not for the path countdown: a path end is one
   decrement in place (`subl $1,%fs:X`), and in a register GCC kept both
   the register and the store (bench/heapsort's pep 1.22x -> 1.36x).  LTO
   recomputes alias sets from canonical types, where this one is plain
   uint32_t again: slower, still right.  */
static tree
skip_type ()
{
  static tree type;
  if (!type)
    {
      type = build_distinct_type_copy (uint32_type_node);
      TYPE_CANONICAL (type) = type;
      TYPE_ALIAS_SET (type) = new_alias_set ();
    }
  return type;
}

/* __thread TYPE NAME, the countdown the runtime reads and re-arms.
   DECL_NONALIASED (as GCC's own gcov counters, coverage.cc): no pointer of
   the program points to a countdown, so points-to analysis keeps it out of
   what the program's pointers may reach.  Without it a store through any
   pointer of the right type ordered GCC's store motion after it (lim's
   WAW query ignores TBAA, so skip_type's alias set does not help there),
   and loops stored the countdown back to memory every iteration
   (bench/interp's dispatch loop with placement=late, via an `int' store
   to f->ret_pc).  Calls still clobber it (call_may_clobber_ref_p treats a
   non-aliased global as any global), so the runtime's writes are seen.
   osp-sample 1.877x -> 1.847x instructions, pep 1.272x -> 1.268x, with
   placement=late 1.710x -> 1.694x and 1.236x -> 1.222x (doc/PERFORMANCE.md).

   Which TLS access (tls=, doc/osp.md "Stack and address space"):
   - initial-exec, an extern reference to the runtime's definition: the
     offset comes from the GOT (`movq X@gottpoff(%rip),%rax'), which works
     in every object, -fPIC ones dlopen'ed included (they get
     DF_STATIC_TLS), without a __tls_get_addr call per block.  But GCC
     treats that offset as a value like any other: it hoists and CSEs it,
     keeps it in a callee-saved register across the program's calls, and
     every frame that holds it grows by the register's save slot
     (bench/raytrace's render at -O3: 400 -> 1696 bytes).
   - local-exec, in a unit for an executable (-fPIE or no -fPIC): every
     access is `%fs:X@tpoff', a constant, so there is nothing to hold in a
     register.  The executable must then define the countdown itself: each
     unit emits a weak definition with the runtime's initial value; the
     link keeps one (libosprt.a's strong one wins under static linking).
     Because libosprt.so defines the same symbol, ld exports the
     executable's definition, and the dynamic linker binds the runtime's
     own references (interposable, through its GOT) to it, as it binds
     those of instrumented shared libraries: one countdown a thread for
     the runtime, the executable and the libraries.  Linked into a shared
     library instead, such an object fails to link (R_X86_64_TPOFF32
     against a symbol of a shared object): tls=initial-exec is the
     remedy.  */
static tree
declare_runtime_countdown (const char *name, tree type)
{
  /* DECL_THREAD_LOCAL_P is derived from the varpool node's TLS model.  */
  tree var = build_decl (BUILTINS_LOCATION, VAR_DECL, get_identifier (name),
                         type);
  TREE_PUBLIC (var) = 1;
  TREE_STATIC (var) = 1;
  DECL_ARTIFICIAL (var) = 1;
  DECL_IGNORED_P (var) = 1;
  DECL_NONALIASED (var) = 1;
  bool local_exec = opts.tls_local_exec && (flag_pie || !flag_pic);
  if (local_exec)
    {
      /* Default visibility whatever -fvisibility says: the definition
         must be the one every module binds to.  */
      DECL_WEAK (var) = 1;
      DECL_VISIBILITY (var) = VISIBILITY_DEFAULT;
      DECL_VISIBILITY_SPECIFIED (var) = 1;
      DECL_INITIAL (var) = build_int_cst (type, 1); /* as the runtime's */
      set_decl_tls_model (var, TLS_MODEL_LOCAL_EXEC);
    }
  else
    {
      DECL_EXTERNAL (var) = 1;
      set_decl_tls_model (var, TLS_MODEL_INITIAL_EXEC);
    }
  DECL_ASSEMBLER_NAME (var);
  if (local_exec)
    varpool_node::finalize_decl (var);
  return var;
}

void
init_hook_decls ()
{
  if (skip_decl)
    return;
  skip_decl = declare_runtime_countdown (OSP_SYM_SKIP, skip_type ());
  tree type = build_function_type_list (void_type_node, ptr_type_node,
                                        uint32_type_node, NULL_TREE);
  block_hook_decl = declare_runtime_function (OSP_SYM_BLOCK_HOOK, type,
                                              true);
  countdown_decl = declare_runtime_countdown (OSP_SYM_PATH_COUNTDOWN,
                                             uint32_type_node);
  type = build_function_type_list (void_type_node, ptr_type_node,
                                   uint64_type_node, NULL_TREE);
  path_end_decl = declare_runtime_function (OSP_SYM_PATH_END, type, true);
  type = build_function_type_list (void_type_node, ptr_type_node,
                                   uint64_type_node, uint64_type_node,
                                   uint64_type_node, NULL_TREE);
  path_ends_decl = declare_runtime_function (OSP_SYM_PATH_ENDS, type, true);
  type = build_function_type_list (void_type_node, ptr_type_node,
                                   ptr_type_node, uint64_type_node,
                                   uint64_type_node, NULL_TREE);
  block_hooks_decl = declare_runtime_function (OSP_SYM_BLOCK_HOOKS, type,
                                               true);
  type = build_function_type_list (void_type_node, ptr_type_node,
                                   uint64_type_node, NULL_TREE);
  path_end_shared_decl = declare_runtime_function (OSP_SYM_PATH_END_SHARED,
                                                   type, true);
}

/* The first real statement of BB, or NULL.  */
static gimple *
first_statement (basic_block bb)
{
  gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb (bb);
  return gsi_end_p (gsi) ? NULL : gsi_stmt (gsi);
}

/* True if code may go in front of BB's first statement.  */
bool
hook_fits_at_start (basic_block bb)
{
  gimple *stmt = first_statement (bb);
  if (!stmt || !is_gimple_call (stmt))
    return true;
  return !((gimple_call_flags (stmt) & ECF_RETURNS_TWICE)
           || gimple_call_internal_p (stmt, IFN_ABNORMAL_DISPATCHER)
           || gimple_call_builtin_p (stmt, BUILT_IN_SETJMP_RECEIVER));
}

/* A constraint and its operand, as GIMPLE asm operand lists hold them. */
tree
asm_operand (const char *constraint, tree value)
{
  tree c = build_string (strlen (constraint) + 1, constraint);
  return build_tree_list (build_tree_list (NULL_TREE, c), value);
}

/* The trampoline flavour for the current function: the vector registers
   it may keep values in across the asm are those of its instruction set
   (its target attribute included: the pass runs with cfun's options).  */
const char *
vector_flavour ()
{
#if defined (TARGET_64BIT) && defined (TARGET_AVX512F)
  if (TARGET_AVX512F)
    return "_xsave";
  if (TARGET_AVX)
    return "_avx";
#endif
  return "";
}

/* What brackets an asm statement's AT&T text (BEGIN, or its end) in the
   unit's assembler dialect.  Under -masm=intel the assembly is Intel
   syntax and GCC prints operands without their `%' (r10d): the text
   switches the assembler to AT&T syntax without prefixes, which takes
   registers with or without one, and back.  */
const char *
att_syntax (bool begin)
{
#ifdef TARGET_64BIT
  if (ASSEMBLER_DIALECT == ASM_INTEL)
    return begin ? ".att_syntax noprefix\n\t" : "\n\t.intel_syntax noprefix";
#endif
  return "";
}

/* The asm statement that calls the register-preserving trampoline TARGET
   with RECORD_ADDR and ARG (and N, C when not NULL: __osp_path_ends), its
   output the re-armed countdown in *REARMED (the header comment).  */
static gimple *
build_preserving_call (const char *target, tree record_addr, tree arg,
                       tree n, tree c, tree *rearmed)
{
  char text[256];
  snprintf (text, sizeof text,
            "%s"
            "add $-128, %%%%rsp\n\t"
            "call *%s%s@GOTPCREL(%%%%rip)\n\t"
            "sub $-128, %%%%rsp%s", att_syntax (true), target,
            vector_flavour (), att_syntax (false));
  vec<tree, va_gc> *outputs = NULL, *inputs = NULL, *clobbers = NULL;
  *rearmed = make_ssa_name (uint32_type_node);
  vec_safe_push (outputs, asm_operand ("=a", *rearmed));
  vec_safe_push (inputs, asm_operand ("D", unshare_expr (record_addr)));
  vec_safe_push (inputs, asm_operand ("S", arg));
  if (n)
    {
      vec_safe_push (inputs, asm_operand ("d", n));
      vec_safe_push (inputs, asm_operand ("c", c));
    }
  vec_safe_push (clobbers, build_tree_list (NULL_TREE,
                                            build_string (3, "cc")));
  gasm *stmt = gimple_build_asm_vec (ggc_strdup (text), inputs, outputs,
                                     clobbers, NULL);
  /* Not volatile while GIMPLE passes run: GCC's data-dependence analysis
     gives up on a loop that contains a volatile asm, which stops
     predictive commoning (sor's inner loop then waits on a store for the
     value it just computed: 2x the time) and vectorisation.  No GIMPLE
     pass moves, merges or speculates an asm.  RTL passes do: to them a
     non-volatile asm is a pure function of its operands, and these are
     constants, so loop-invariant motion hoisted a hook out of its cold
     block into the loop's preheader whenever the block's estimated count
     was not below the preheader's (a nest of loops: SQLite's
     wherePathSolver).  The hook then ran once per entry into the loop,
     for a block that was not entered, and inside the loop each expiry
     re-armed the countdown with that stale value without telling the
     runtime: blocks_seen several times the true count, and phantom
     subpaths (tests/phantom.sh).  So pin_pass makes every
     such asm volatile just before RTL expansion - and here already under
     -flto, whose RTL passes run at link time without the plugin.  */
  gimple_asm_set_volatile (stmt, bool (flag_lto));
  SSA_NAME_DEF_STMT (*rearmed) = stmt; /* asm outputs do not set it */
  return stmt;
}

/* Is STMT one of build_preserving_call's asm statements?  */
static bool
preserving_call_p (gimple *stmt)
{
  gasm *asm_stmt = dyn_cast<gasm *> (stmt);
  return asm_stmt && strstr (gimple_asm_string (asm_stmt), "call *__osp_");
}

/* Is STMT the call of a shared path check (emit_countdown_call): its
   trampoline's asm, or with calls=plain its runtime call?  */
bool
shared_check_call_p (gimple *stmt)
{
  if (gasm *asm_stmt = dyn_cast<gasm *> (stmt))
    return strstr (gimple_asm_string (asm_stmt),
                   "call *" OSP_SYM_PATH_END_SHARED_PRESERVING);
  return path_end_shared_decl && is_gimple_call (stmt)
         && gimple_call_fndecl (stmt) == path_end_shared_decl;
}

/* The last GIMPLE pass (before "expand"): every asm that calls a
   trampoline becomes volatile, so that no RTL pass moves it out of its
   cold block or merges it with another (build_preserving_call).  */
const pass_data pin_pass_data = gimple_pass_data ("osp_pin");

class pin_pass : public gimple_opt_pass
{
public:
  pin_pass (gcc::context *ctxt) : gimple_opt_pass (pin_pass_data, ctxt) {}

  bool gate (function *) final override
  {
    return opts.preserving_calls && (skip_decl || countdown_decl);
  }

  unsigned int execute (function *fun) final override
  {
    basic_block bb;
    FOR_EACH_BB_FN (bb, fun)
      for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        if (preserving_call_p (gsi_stmt (gsi)))
          gimple_asm_set_volatile (as_a<gasm *> (gsi_stmt (gsi)), true);
    return 0;
  }
};

gimple_opt_pass *
make_pin_pass (gcc::context *ctxt)
{
  return new pin_pass (ctxt);
}

/* A path start or loop header with at most this many in-edges gets its
   check and its hook on each in-edge rather than at its start.  At its
   start the code comes before the loop's exit test, so GCC's loop header
   copying cannot rotate the loop, and loop-invariant motion then hoists
   no load the exit test guards (sparse's inner loop: 13 instructions
   instead of 10).  A few copies of the check cost little code.  */
static const unsigned max_edge_checks = 4;

/* True if code can go on each in-edge of BB: none is abnormal or EH, none
   comes from the function's entry.  */
bool
splittable_preds (basic_block bb)
{
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->preds)
    if ((e->flags & EDGE_COMPLEX) || e->src->index == ENTRY_BLOCK)
      return false;
  return true;
}

/* True if BB's checks and hooks go on its in-edges (see above).  */
bool
edge_checks_fit (basic_block bb)
{
  return EDGE_COUNT (bb->preds) <= max_edge_checks && splittable_preds (bb);
}

/* Emit before GSI, with CALL's location:
       t = COUNTER - 1;  COUNTER = t;
       if (t == 0) FN (RECORD_ADDR, ARG [+ ADDEND]);
   or, for a shared path check (CALL.shared, path-checks=shared), which
   tests the block hooks' countdown without writing it (include/osp/abi.h,
   "one countdown"):
       t = COUNTER;
       if (t == 1) FN (RECORD_ADDR, ARG [+ ADDEND]);
   The addition, when ADDEND is given, is done in the cold call block, so
   the common path does not pay for it.  */
void
emit_countdown_call (gimple_stmt_iterator *gsi, const runtime_call &call,
                     tree addend)
{
  tree counter = call.counter, arg = call.arg;
  location_t loc = call.loc;
  tree t1 = make_ssa_name (uint32_type_node);
  gassign *load = gimple_build_assign (t1, unshare_expr (counter));
  gimple_set_location (load, loc);
  gsi_insert_before (gsi, load, GSI_SAME_STMT);
  gimple *last = load;
  tree tested = t1;
  if (!call.shared)
    {
      tested = make_ssa_name (uint32_type_node);
      gassign *dec = gimple_build_assign (tested, MINUS_EXPR, t1,
                                          build_int_cst (uint32_type_node,
                                                         1));
      gassign *store = gimple_build_assign (unshare_expr (counter), tested);
      gimple_set_location (dec, loc);
      gimple_set_location (store, loc);
      gsi_insert_before (gsi, dec, GSI_SAME_STMT);
      gsi_insert_before (gsi, store, GSI_SAME_STMT);
      last = store;
    }

  /* Split after the store (the load): the condition ends the first half,
     the call gets a new "very unlikely" block (as ASan's checks do).  */
  gimple_stmt_iterator at_last = gsi_for_stmt (last);
  basic_block then_bb, fallthru_bb;
  gimple_stmt_iterator cond_gsi
    = create_cond_insert_point (&at_last, false, false, true, &then_bb,
                                &fallthru_bb);
  gcond *cond = gimple_build_cond (EQ_EXPR, tested,
                                   build_int_cst (uint32_type_node,
                                                  call.shared ? 1 : 0),
                                   NULL_TREE, NULL_TREE);
  gimple_set_location (cond, loc);
  gsi_insert_after (&cond_gsi, cond, GSI_NEW_STMT);

  gimple_stmt_iterator then_gsi = gsi_start_bb (then_bb);
  if (addend && !integer_zerop (addend))
    {
      if (TREE_CODE (arg) == INTEGER_CST)
        arg = fold_build2 (PLUS_EXPR, TREE_TYPE (arg), arg, addend);
      else
        {
          tree sum = make_ssa_name (TREE_TYPE (arg));
          gassign *add = gimple_build_assign (sum, PLUS_EXPR, arg, addend);
          gimple_set_location (add, loc);
          gsi_insert_after (&then_gsi, add, GSI_NEW_STMT);
          arg = sum;
        }
    }
  runtime_call with_sum = call;
  with_sum.arg = arg;
  emit_runtime_call (&then_gsi, with_sum);
}

/* After GSI (in a cold block): CALL - with calls=preserving through its
   trampoline, then COUNTER = the countdown it re-armed (the header
   comment).  */
void
emit_runtime_call (gimple_stmt_iterator *gsi, const runtime_call &call)
{
  tree rearmed = NULL_TREE;
  tree addr = call.record_addr;
  gimple *g;
  if (opts.preserving_calls)
    g = build_preserving_call (call.preserving, addr, call.arg, call.n,
                               call.c, &rearmed);
  else if (call.n)
    g = gimple_build_call (call.fn, 4, unshare_expr (addr), call.arg, call.n,
                           call.c);
  else
    g = gimple_build_call (call.fn, 2, unshare_expr (addr), call.arg);
  gimple_set_location (g, call.loc);
  gsi_insert_after (gsi, g, GSI_NEW_STMT);
  if (rearmed)
    {
      gassign *back = gimple_build_assign (unshare_expr (call.counter),
                                           rearmed);
      gimple_set_location (back, call.loc);
      gsi_insert_after (gsi, back, GSI_NEW_STMT);
    }
}

static void
emit_hook (gimple_stmt_iterator *gsi, tree record_addr, unsigned id,
           location_t loc)
{
  runtime_call call = { skip_decl, block_hook_decl,
                        OSP_SYM_BLOCK_HOOK_PRESERVING, record_addr,
                        build_int_cst (uint32_type_node, id), NULL_TREE,
                        NULL_TREE, loc, false };
  emit_countdown_call (gsi, call, NULL_TREE);
}

/* The only normal (not abnormal, not EH) successor edge of BB, or NULL.  */
static edge
single_normal_succ (basic_block bb)
{
  edge found = NULL, e;
  edge_iterator ei;
  FOR_EACH_EDGE (e, ei, bb->succs)
    if (!(e->flags & EDGE_COMPLEX))
      {
        if (found)
          return NULL;
        found = e;
      }
  return found;
}

/* Insert the hook of block ID into BB, a loop header when LOOP_HEADER.
   Returns false if no place was safe (the caller flags the block
   OSP_BB_NO_HOOK).  */
bool
insert_block_hook (basic_block bb, tree record_addr, unsigned id,
                   bool loop_header)
{
  gimple *first = first_statement (bb);
  location_t loc = first ? gimple_location (first) : UNKNOWN_LOCATION;
  if (loop_header && hook_fits_at_start (bb) && edge_checks_fit (bb))
    {
      /* On each in-edge instead, so that the header still ends in the
         loop's exit test and GCC can rotate the loop (probes.cc).  */
      auto_vec<edge, 8> in;
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bb->preds)
        in.safe_push (e);
      for (edge pred : in)
        {
          gimple_stmt_iterator gsi = gsi_after_labels (split_edge (pred));
          emit_hook (&gsi, record_addr, id, loc);
        }
      return true;
    }
  if (hook_fits_at_start (bb))
    {
      gimple_stmt_iterator gsi = gsi_after_labels (bb);
      emit_hook (&gsi, record_addr, id, loc);
      return true;
    }
  if (gimple_call_internal_p (first, IFN_ABNORMAL_DISPATCHER))
    return false; /* an artificial block with only abnormal successors */
  if (!stmt_ends_bb_p (first))
    {
      gimple_stmt_iterator gsi = gsi_for_stmt (first);
      gsi_next (&gsi);
      emit_hook (&gsi, record_addr, id, loc);
      return true;
    }
  edge e = single_normal_succ (bb);
  if (!e)
    return false;
  basic_block landing = split_edge (e);
  gimple_stmt_iterator gsi = gsi_after_labels (landing);
  emit_hook (&gsi, record_addr, id, loc);
  return true;
}

/* The hooks of the blocks of the return trees that tail calls enter
   (tailcalls.cc), which the caller gave none: on each way into a tree,
   those of its route, in order, before the tail call or on the edge.  */
void
insert_tail_hooks (const fn_instr &fi)
{
  const tail_calls &tails = fi.tails;
  /* The roots first: the hooks split edges.  */
  auto_vec<basic_block, 16> roots;
  basic_block bb;
  FOR_EACH_BB_FN (bb, cfun)
    if (tails.moved_root (bb))
      roots.safe_push (bb);
  for (basic_block root : roots)
    tails.for_each_way_in (root, [&] (edge into, gcall *call,
                                      const vec<basic_block> &route) {
      for (basic_block b : route)
        {
          gimple *first = first_statement (b);
          location_t loc = first ? gimple_location (first) : UNKNOWN_LOCATION;
          unsigned id = fi.id_of_bb_index[b->index];
          gimple_stmt_iterator gsi;
          if (call)
            gsi = gsi_for_stmt (call);
          else
            {
              /* Each hook in a block of its own on the edge: the previous
                 one split its block.  */
              basic_block landing = split_edge (into);
              into = single_succ_edge (landing);
              gsi = gsi_after_labels (landing);
            }
          emit_hook (&gsi, fi.record_addr, id, loc);
        }
    });
}

/* The hooks of batched loop L's blocks (none of which got its own): at
   each exit from chain[j], n * k + j + 1 blocks for __osp_block_hooks, with
   the chain's ids {k, ids...} in a read-only array (loops.cc).  In a
   function whose path checks are SHARED, the loop's path ends ride on the
   same hand-over: {k | OSP_CHAIN_PATH, ids..., P lo, P hi}, a path end of
   P before the first block of each iteration after the first
   (include/osp/abi.h).  */
void
insert_loop_hooks (const batched_loop &l, tree record_addr, bool shared)
{
  auto_vec<uint32_t, 16> words;
  bool with_path = shared && l.path_batched;
  words.safe_push (l.chain.length () | (with_path ? OSP_CHAIN_PATH : 0));
  for (unsigned id : l.chain)
    words.safe_push (id);
  if (with_path)
    {
      words.safe_push ((uint32_t) l.path);
      words.safe_push ((uint32_t) (l.path >> 32));
    }
  tree chain = build_fold_addr_expr (const_u32_array ("__osp_chain", words));
  uint64_t k = l.chain.length ();
  for (unsigned i = 0; i < l.exits.length (); i++)
    {
      unsigned tail = l.exit_pos[i] + 1;
      tree amount = fold_build2 (PLUS_EXPR, uint64_type_node,
                                 fold_build2 (MULT_EXPR, uint64_type_node, l.n,
                                              build_int_cstu (uint64_type_node,
                                                              k)),
                                 build_int_cstu (uint64_type_node, tail));
      runtime_call call = { skip_decl, block_hooks_decl,
                            OSP_SYM_BLOCK_HOOKS_PRESERVING, record_addr, chain,
                            l.n, NULL_TREE, UNKNOWN_LOCATION, false };
      emit_batch_flush (l.exits[i], call, amount, tail);
    }
}

} // namespace osp

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* osp-plugin.h - contracts between the files of osp.so, the GCC plugin.
 *
 *   plugin.cc      plugin_init: version check, -fplugin-arg-osp-* parsing,
 *                  GC roots, pass placement
 *   instrument.cc  the per-function GIMPLE pass "osp": which functions are
 *                  skipped and the order of the steps below
 *   numbering.cc   block ids, DFS back edges, the cfg words of the record
 *   pathnum.cc     the P-DAG and its smart Ball-Larus numbering, cuts
 *   profile.cc     profile=FILE: edge counts of a previous osp run
 *   probes.cc      the path register, its edge probes, the sample checks
 *   loops.cc       batched loops: iterations counted, handed over at exits
 *   hooks.cc       block-entry hooks (skip countdown + cold runtime call),
 *                  and the countdown-and-call sequence the checks share
 *   versions.cc    loops that cannot run out a countdown get a copy
 *                  without the tests, chosen at their entry or per pass
 *   runs.cc        a straight run of tests after inlining: one test
 *   budget.cc      how much code the copies (versions.cc) may add
 *   sizes.cc       the IPA inliner measures functions without osp's code
 *   barriers.cc    keep osp's counters in memory across calls whose callee
 *                  GCC believes does not touch them
 *   tailcalls.cc   calls in tail position, which osp's code for the
 *                  return must precede so that they stay jumps
 *   metadata.cc    per-function records in section "osp_fns" and the
 *                  per-translation-unit registration constructor
 *
 * Everything the runtime must agree on lives in include/osp/abi.h.
 * GCC's headers must come first (gcc-plugin.h), so this header assumes
 * they have been included by the .cc file.  All plugin globals live in
 * namespace osp: GCC's headers own many short global names.
 */
#ifndef OSP_PLUGIN_H
#define OSP_PLUGIN_H

#include "osp/abi.h"
#include "osp/pack.h"
#include "tree-pass.h"  /* the passes' declarations below */

namespace osp {

/* What -fplugin-arg-osp-instrument= asked for (a comma-separated list). */
enum instrument_kind
{
  INSTRUMENT_BLOCKS = 1u << 0, /* block-entry hooks */
  INSTRUMENT_PATHS = 1u << 1,  /* Ball-Larus path register + sample checks */
  INSTRUMENT_COUNTS = 1u << 2  /* Ball-Larus path register + a counter per
                                  path, added to inline at every path end */
};

struct options
{
  unsigned instrument;        /* instrument_kind bits; 0 = metadata only */
  vec<const char *> include;  /* fnmatch patterns; empty = every function */
  vec<const char *> exclude;  /* fnmatch patterns; exclude wins */
  bool verbose;
  uint64_t max_paths;         /* cap on a function's P-DAG paths */
  bool counts_atomic;         /* counts-update=atomic */
  bool preserving_calls;      /* calls=preserving (hooks.cc) */
  bool shared_checks;         /* path-checks=shared (probes.cc) */
  bool batch_loops;           /* batch-loops=yes (probes.cc) */
  bool version_loops;         /* version-loops=yes (versions.cc) */
  bool fold_tests;            /* fold-tests=yes (runs.cc) */
  bool plain_inline_sizes;    /* inline-sizes=plain (sizes.cc) */
  uint64_t count_loop_free;   /* count-loop-free=N (instrument.cc) */
  const char *profile;        /* profile=FILE, or NULL */
  bool late;                  /* placement=late (plugin.cc) */
  bool tls_local_exec;        /* tls=local-exec (hooks.cc) */
  bool promote_countdowns;    /* promote-countdowns=yes (promote.cc) */
  bool fold_hooks;            /* fold-hooks=yes (fold.cc) */
  uint64_t max_fn_blocks;     /* max-fn-blocks=N (budget.cc) */
  uint64_t max_fn_stmts;      /* max-fn-stmts=N (budget.cc) */
  uint64_t max_growth;        /* max-growth=PERCENT (budget.cc) */
  uint64_t min_growth_blocks; /* min-growth-blocks=N (budget.cc) */
  uint64_t max_unit_growth;   /* max-unit-growth=N (budget.cc) */
};
extern options opts;

/* One original basic block of the function being instrumented. */
struct block_info
{
  basic_block bb;
  unsigned first_line, last_line;
  unsigned flags;               /* osp_block_flags */
  unsigned cfg_offset;          /* index of this block's first cfg word */
};

/* numbering.cc */
void prepare_entry_block (function *fun);
void block_costs (const vec<block_info> &blocks, vec<uint32_t> *costs);
void number_blocks (function *fun, vec<block_info> *blocks,
                    vec<int> *id_of_bb_index);
void encode_cfg (vec<block_info> *blocks, const vec<int> &id_of_bb_index,
                 vec<uint32_t> *words);
void encode_lines (function *fun, const vec<block_info> &blocks,
                   vec<uint32_t> *words);

/* pathnum.cc: the P-DAG of one function, indexed by block id; successor
   slots in cfg order (succ_base[b] .. succ_base[b+1]-1).  */
enum succ_kind { SUCC_NONE, SUCC_DAG, SUCC_END };
struct path_numbering
{
  uint64_t npaths;
  unsigned cuts;
  auto_vec<bool> start, cut, has_end_slot;
  auto_vec<uint64_t> num_paths, start_val, end_val;
  auto_vec<unsigned> succ_base;
  auto_vec<unsigned char> succ_kind;
  auto_vec<uint64_t> succ_val;
  auto_vec<unsigned> topo;      /* block ids, DAG predecessors first */
};
bool number_paths (function *fun, const vec<block_info> &blocks,
                   const vec<int> &id_of_bb_index, const vec<double> *weights,
                   path_numbering *pn, const char **why);
void encode_paths (const path_numbering &pn, const vec<block_info> &blocks,
                   vec<uint32_t> *cfg_words, vec<uint64_t> *words);

/* profile.cc */
bool load_profile (const char *file);
bool profile_weights (const char *name, const char *file,
                      const vec<block_info> &blocks, vec<double> *weights);

/* hooks.cc: a call into the runtime from a cold block, FN (RECORD_ADDR,
   ARG [, N, C]); with calls=preserving its trampoline PRESERVING instead,
   which hands back COUNTER re-armed (the header comment of hooks.cc).  */
struct runtime_call
{
  tree counter;             /* skip_decl or countdown_decl */
  tree fn;                  /* the runtime function */
  const char *preserving;   /* its trampoline's name */
  tree record_addr;         /* &record of the function */
  tree arg;                 /* block id, path value or chain */
  tree n;                   /* batched: the iterations, else NULL_TREE */
  tree c;                   /* batched: the countdown before, else NULL_TREE */
  location_t loc;
  bool shared;              /* emit_countdown_call: a shared path check,
                               `if (COUNTER == 1)', no decrement */
};

/* loops.cc: a loop whose iterations are counted and handed to the runtime
   at its exits (batch-loops=yes).  */
struct batched_loop
{
  edge back;                /* its one back edge; back->dest is the header */
  vec<unsigned> chain;      /* block ids of the body path, header first */
  vec<edge> exits;          /* edges leaving the loop ... */
  vec<unsigned> exit_pos;   /* ... from chain[exit_pos[i]] */
  tree n;                   /* back edges taken in this run of the loop */
  bool path_batched;        /* its back edge's path end is batched too
                               (probes.cc), of path ... */
  uint64_t path;            /* ... P */
};
void find_batched_loops (const vec<block_info> &blocks,
                         const vec<int> &id_of_bb_index,
                         vec<batched_loop> *loops);
void release_batched_loop (batched_loop *l);
/* CALL without C and LOC, which the flush fills in.  */
void emit_batch_flush (edge e, runtime_call call, tree amount, unsigned tail);

/* tailcalls.cc: the calls whose value a return returns at once, and the
   return trees they enter (blocks of copies on the way to a return),
   found on the unchanged CFG; the steps below put the return's code
   before them.  */
class tail_calls
{
public:
  ~tail_calls ();
  /* STARTS (by block id, or NULL): the path starts, kept out of trees.  */
  void find (function *fun, const vec<int> &id_of_bb_index,
             const vec<bool> *starts);
  /* The tail call in BB, the block of its return, or NULL.  */
  gcall *in_block (basic_block bb) const;
  /* Whether BB is in a return tree that a tail call enters: its code goes
     on the ways into the tree instead.  */
  bool moved (basic_block bb) const;
  /* Whether BB is the root (the return's block) of such a tree.  */
  bool moved_root (basic_block bb) const;
  /* F (E, CALL, ROUTE) for each edge E into the tree of ROOT_BB from
     outside, on the current CFG: CALL is the tail call ending E->src that
     the route returns (NULL: the code goes on the edge), ROUTE the tree's
     blocks from E->dest to the root.  The edges are found first, so F may
     split them.  */
  template <typename F>
  void for_each_way_in (basic_block root_bb, F f) const
  {
    auto_vec<way_in, 8> ways;
    ways_in (root_bb, &ways);
    auto_vec<basic_block, 8> blocks;
    for (const way_in &w : ways)
      {
        route (w.e->dest, &blocks);
        f (w.e, w.call, blocks);
      }
  }
  bool contains (gcall *call) const;

private:
  struct way_in
  {
    edge e;
    gcall *call;
  };
  void ways_in (basic_block root_bb, vec<way_in> *ways) const;
  /* The blocks from FROM, in a tree, to its root.  */
  void route (basic_block from, vec<basic_block> *blocks) const;
  basic_block root (basic_block bb) const;
  bool in_tree (basic_block bb) const;
  bool returns_value_of (gcall *call, edge e) const;
  struct tail_call
  {
    gcall *call;
    basic_block into;   /* the tree block it enters; NULL: shape (a) */
  };
  auto_vec<tail_call> calls;
  sbitmap tree_blocks = NULL;   /* by basic block index */
  sbitmap moved_roots = NULL;
};

/* instrument.cc: the function being instrumented, what is found on its
   unchanged CFG and what is built for it, in one place (as GCC's
   tree-profile.cc keeps its per-function state), handed to the steps by
   pointer.  */
struct fn_instr
{
  function *fun;
  auto_vec<block_info> blocks;      /* by block id */
  auto_vec<int> id_of_bb_index;     /* block id by basic block index */
  auto_vec<uint32_t> cfg_words;     /* the record's CFG (encode_cfg) */
  path_numbering pn;                /* when PATHS */
  auto_vec<uint64_t> path_words;    /* the record's paths (encode_paths) */
  auto_vec<uint32_t> costs;         /* estimated cost by block id
                                       (block_costs, before any probe) */
  auto_vec<uint32_t> line_words;    /* statement lines by block id
                                       (encode_lines, before any probe) */
  bool paths;                       /* path register and path ends */
  bool checks;                      /* ... with PEP sample checks */
  bool counts;                      /* ... with inline counters */
  bool hooks;                       /* block-entry hooks */
  bool shared;                      /* the checks test the hooks' countdown
                                       (OSP_FN_PATH_SHARED) */
  unsigned flags;                   /* osp_fn_flags */
  tree record;                      /* declare_function_record */
  tree record_addr;                 /* &record */
  tree counters;                    /* declare_path_counters, or NULL_TREE */
  tail_calls tails;                 /* their path ends and hooks go first */
  auto_vec<batched_loop> loops;     /* their back edge probes go to exits */
};

/* probes.cc: the path register, and at the path ends FI's sample checks
   and/or counters; the back edge checks of its loops move to their exits,
   the path ends at returns of its tail calls before the calls.  */
unsigned insert_path_probes (fn_instr *fi);

/* hooks.cc */
void init_hook_decls ();
bool is_runtime_function (tree fndecl);
bool hook_fits_at_start (basic_block bb);
bool splittable_preds (basic_block bb);
bool edge_checks_fit (basic_block bb);
bool insert_block_hook (basic_block bb, tree record_addr, unsigned id,
                        bool loop_header);
void insert_tail_hooks (const fn_instr &fi);
void insert_loop_hooks (const batched_loop &l, tree record_addr,
                        bool shared);
void emit_countdown_call (gimple_stmt_iterator *gsi, const runtime_call &call,
                          tree addend);
tree asm_operand (const char *constraint, tree value);
/* The trampoline flavour suffix for cfun: "", "_avx" or "_xsave".  */
const char *vector_flavour ();
/* The text around an asm statement's AT&T code in the unit's assembler
   dialect (hooks.cc): "" but under -masm=intel.  */
const char *att_syntax (bool begin);
void emit_runtime_call (gimple_stmt_iterator *gsi, const runtime_call &call);
bool shared_check_call_p (gimple *stmt);
gimple_opt_pass *make_pin_pass (gcc::context *ctxt);

/* promote.cc: the countdowns in a register between calls.  */
gimple_opt_pass *make_promote_pass (gcc::context *ctxt);
extern tree skip_promoted_in;
/* fold.cc: a promoted block hook as one asm, its call out of line.  */
gimple_opt_pass *make_fold_pass (gcc::context *ctxt);

/* versions.cc: give the loops that cannot run out a countdown an untested
   copy; returns how many.  The tests' virtual operands must be up to date
   (the osp pass renames them first).  */
unsigned version_tested_loops (function *fun);
enum { SKIP, PATH_COUNTDOWN, NUM_COUNTDOWNS }; /* the countdowns tested */
int tested_countdown (gimple *stmt);
bool shared_check_p (gimple *stmt);
basic_block hook_block (basic_block bb);
bool harmless_call (gimple *stmt);
bool versions_in_osp_pass ();
gimple_opt_pass *make_versions_pass (gcc::context *ctxt);

/* budget.cc: the blocks and statements (debug ones aside) of some code.  */
struct code_size
{
  unsigned blocks, stmts;
};
code_size blocks_size (basic_block *bbs, unsigned n);

/* What copies of WHAT (e.g. "loop versions") FUN may still get: none if
   it is over max-fn-blocks or max-fn-stmts (said with verbose when made),
   else up to max-growth percent of its size at construction (or
   min-growth-blocks if that is more), and within
   the unit's max-unit-growth.  Its destructor says, with verbose, how
   many copies were refused and by which budget.  */
class growth_budget
{
public:
  growth_budget (function *fun, const char *what);
  ~growth_budget ();
  /* Whether FUN is over the size limits (no copy at all).  */
  bool over () const { return over_size; }
  /* Whether a copy of COPY's size fits (a refusal is counted for the
     destructor's note); charge it once it is made.  */
  bool fits (code_size copy);
  void charge (code_size copy);

private:
  function *fun;
  const char *what;
  code_size size = { 0, 0 }, added = { 0, 0 };
  bool over_size;
  unsigned refused_fn = 0, refused_unit = 0;
};

/* runs.cc: one test for a straight run of tests after inlining.  */
gimple_opt_pass *make_runs_pass (gcc::context *ctxt);

/* barriers.cc: FN_FLAGS are the function's osp_fn_flags; nothing goes
   after the calls of TAILS.  */
void insert_call_barriers (function *fun, unsigned fn_flags,
                           const tail_calls &tails);

/* metadata.cc */
#define OSP_COUNTERS_PREFIX "__osp_counters" /* arrays of path counters */
void init_metadata_decls ();
tree declare_function_record (function *fun);
tree declare_path_counters (uint64_t npaths);
bool path_counters_p (tree t);
tree const_u32_array (const char *prefix, const vec<uint32_t> &words);
void finish_function_record (const fn_instr &fi);
extern unsigned records_emitted;

/* instrument.cc */
const char *display_name (function *fun);

/* The pass_data of osp's GIMPLE pass NAME: it needs the CFG in SSA form
   and returns its TODOs from execute.  */
constexpr pass_data
gimple_pass_data (const char *name)
{
  return { GIMPLE_PASS, name, OPTGROUP_NONE, TV_NONE, PROP_cfg | PROP_ssa,
           0, 0, 0, 0 };
}

/* The pass_data of osp's IPA pass NAME of TYPE (SIMPLE_IPA_PASS or
   IPA_PASS): no properties, no TODOs.  */
constexpr pass_data
ipa_pass_data (opt_pass_type type, const char *name)
{
  return { type, name, OPTGROUP_NONE, TV_NONE, 0, 0, 0, 0, 0 };
}

/* instrument.cc / metadata.cc: the passes. */
gimple_opt_pass *make_instrument_pass (gcc::context *ctxt);
simple_ipa_opt_pass *make_register_pass (gcc::context *ctxt);
ipa_opt_pass_d *make_sizes_pass (gcc::context *ctxt);
void finish_unit_register (void *gcc_data, void *user_data);

/* plugin.cc: the GC roots of the other files are registered there. */
extern tree skip_decl;          /* __thread uint32_t __osp_skip */
extern tree block_hook_decl;    /* __osp_block_hook */
extern tree countdown_decl;     /* __thread uint32_t __osp_path_countdown */
extern tree path_end_decl;      /* __osp_path_end */
extern tree path_ends_decl;     /* __osp_path_ends */
extern tree block_hooks_decl;   /* __osp_block_hooks */
extern tree path_end_shared_decl; /* __osp_path_end_shared */
extern tree register_decl;      /* __osp_register_module */
extern tree release_decl;       /* __osp_release_module */
extern tree record_type;        /* struct osp_fn_record */

/* The variable of countdown V (SKIP: __osp_skip, else the path countdown). */
static inline tree
countdown_var (int v)
{
  return v == SKIP ? skip_decl : countdown_decl;
}

} // namespace osp

#endif /* OSP_PLUGIN_H */

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* instrument.cc - the GIMPLE pass "osp": which functions are instrumented,
 * and the order of the steps for one function.
 *
 * For each function (plugin.cc explains where the pass sits):
 *   1. give it an entry block reached only from the function entry
 *      (numbering.cc), so block 0 counts calls;
 *   2. number the original blocks, mark DFS back edges, encode the cfg,
 *      and estimate each block's cost (numbering.cc: GCC's own time
 *      estimate, taken before osp adds anything, so the runtime's work
 *      figures weigh the program's statements, not osp's probes);
 *   3. number the Ball-Larus paths of its P-DAG (pathnum.cc);
 *   4. declare the function's record; find the calls in tail position
 *      (tailcalls.cc) and the loops whose iterations are counted instead
 *      (loops.cc); insert the path register and the sample checks and/or
 *      path counters (probes.cc) - a function without loops gets counters
 *      instead of checks (below) - then the block-entry hooks (hooks.cc) -
 *      both refer to the record by address - and flag the blocks that
 *      could not take one;
 *   5. give the inner loops that cannot run out a countdown an untested
 *      copy (versions.cc), when this pass is where that happens
 *      (placement=late, -flto; otherwise the pass osp_versions does it
 *      after GCC's IPA inliner);
 *   6. bracket the calls that GCC thinks leave osp's counters alone
 *      (barriers.cc);
 *   7. fill in and emit the record (metadata.cc).
 * The cfg is encoded and the paths numbered before anything splits a
 * block, so the record describes the program's own control flow, not
 * osp's.
 *
 * Functions left alone: osp's (and GCC's) generated static constructors,
 * inline-only definitions (C99 `inline' without `extern', gnu_inline
 * `extern inline': their body exists only to be inlined, and instrumenting
 * it would change what the inliner decides),
 * `naked` functions (no prologue, so no code may precede their asm),
 * no_instrument_function and no_profile_instrument_function, ifunc
 * resolvers (they run while relocating, before TLS exists), and whatever
 * include=/exclude= leave out.  OpenMP outlined bodies and nested
 * functions are artificial or local, but they are the program's code, so
 * they are instrumented.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "gimple.h"
#include "basic-block.h"
#include "tree-pass.h"
#include "cgraph.h"
#include "stringpool.h"
#include "attribs.h"
#include "ssa.h"
#include "tree-into-ssa.h"
#include "function.h"
#include "diagnostic-core.h"
#include "dominance.h"
#include "sbitmap.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "context.h"
#include <fnmatch.h>

#include "file-prefix-map.h"

#include "osp-plugin.h"

namespace osp {


/* The name shown to users and matched by include=/exclude=.  DECL_NAME,
   not function_name (): with -flto, free_lang_data swaps the printable-name
   hook and nested functions would be "inner.0" in one build and "inner" in
   the other.  */
const char *
display_name (function *fun)
{
  tree name = DECL_NAME (fun->decl);
  return name ? IDENTIFIER_POINTER (name) : function_name (fun);
}

/* Whether NAME matches one of PATTERNS.  An IPA clone (placement=late:
   "f.constprop", "f.isra", "f.part") also matches by the name of the
   function it was made from, so that include=f keeps all of f.  */
static bool
matches_any (const vec<const char *> &patterns, const char *name)
{
  static const char *const clone_suffixes[] = {
    ".constprop", ".isra", ".part", ".cold"
  };
  char *base = NULL;
  for (const char *suffix : clone_suffixes)
    if (const char *at = strstr (name, suffix))
      {
        base = xstrndup (name, at - name);
        break;
      }
  bool match = false;
  for (const char *p : patterns)
    if (fnmatch (p, name, 0) == 0 || (base && fnmatch (p, base, 0) == 0))
      match = true;
  free (base);
  return match;
}

/* Names of the unit's ifunc resolvers, collected once: every ifunc alias
   exists by the time the first function reaches the pass.  */
static vec<const char *> ifunc_resolvers;

static bool
is_ifunc_resolver (tree decl)
{
  static bool collected;
  if (!collected)
    {
      collected = true;
      symtab_node *node;
      FOR_EACH_SYMBOL (node)
        {
          tree attr = lookup_attribute ("ifunc", DECL_ATTRIBUTES (node->decl));
          if (attr && TREE_VALUE (attr)
              && TREE_CODE (TREE_VALUE (TREE_VALUE (attr))) == STRING_CST)
            ifunc_resolvers.safe_push (
              TREE_STRING_POINTER (TREE_VALUE (TREE_VALUE (attr))));
        }
    }
  const char *name = IDENTIFIER_POINTER (DECL_ASSEMBLER_NAME (decl));
  for (const char *r : ifunc_resolvers)
    if (!strcmp (r, name))
      return true;
  return false;
}

/* Why FUN must not be instrumented, or NULL.  */
static const char *
skip_reason (function *fun)
{
  tree decl = fun->decl;
  if (DECL_ARTIFICIAL (decl)
      && (DECL_STATIC_CONSTRUCTOR (decl) || DECL_STATIC_DESTRUCTOR (decl)))
    return "compiler-generated constructor";
  if (DECL_EXTERNAL (decl))
    return "inline-only definition (no out-of-line copy is emitted)";
  if (lookup_attribute ("naked", DECL_ATTRIBUTES (decl)))
    return "naked function";
  if (lookup_attribute ("no_instrument_function", DECL_ATTRIBUTES (decl)))
    return "no_instrument_function";
  if (lookup_attribute ("no_profile_instrument_function",
                        DECL_ATTRIBUTES (decl)))
    return "no_profile_instrument_function";
  if (is_ifunc_resolver (decl))
    return "ifunc resolver";
  const char *name = display_name (fun);
  if (opts.include.length () && !matches_any (opts.include, name))
    return "not matched by include=";
  if (matches_any (opts.exclude, name))
    return "matched by exclude=";
  return NULL;
}

static unsigned
path_starts (const path_numbering &pn)
{
  unsigned n = 0;
  for (bool start : pn.start)
    n += start;
  return n;
}

static unsigned
instrument_function (function *fun)
{
  prepare_entry_block (fun);

  fn_instr fi;
  fi.fun = fun;
  number_blocks (fun, &fi.blocks, &fi.id_of_bb_index);
  encode_cfg (&fi.blocks, fi.id_of_bb_index, &fi.cfg_words);
  block_costs (fi.blocks, &fi.costs);
  encode_lines (fun, fi.blocks, &fi.line_words);

  fi.paths = false;
  const char *why = NULL;
  fi.checks = opts.instrument & INSTRUMENT_PATHS;
  fi.counts = opts.instrument & INSTRUMENT_COUNTS;
  fi.hooks = opts.instrument & INSTRUMENT_BLOCKS;
  if (fi.checks || fi.counts)
    {
      const char *name = display_name (fun);
      /* as the report names it: the record's file (metadata.cc) */
      const char *file = LOCATION_FILE (DECL_SOURCE_LOCATION (fun->decl));
      auto_vec<double> weights;
      bool guided = opts.profile
                    && profile_weights (name,
                                        file ? remap_debug_filename (file)
                                             : "",
                                        fi.blocks,
                                        &weights);
      fi.paths = number_paths (fun, fi.blocks, fi.id_of_bb_index,
                               guided ? &weights : NULL, &fi.pn, &why);
      if (fi.paths)
        encode_paths (fi.pn, fi.blocks, &fi.cfg_words, &fi.path_words);
      else
        warning (0, "osp: no path probes in %qs: %s", name, why);
    }
  /* A function whose only path start is its entry (no loop, no cut, no
     abnormal target) runs exactly one path per call.  With few paths
     (count-loop-free=N) it counts them instead of checking them: an
     inline increment costs no more than a countdown check, and without
     the check's cold call the function stays small enough for the
     inliners; the counts are exact (unless threads run the function at
     once: plain increments, as gcov's default), in at most 8N bytes.  The runtime
     reports them as such under paths=counter and exhaustive (pathprof.c);
     the prefix forest never sees them, and loses nothing: an activation
     of such a function has one path, so its only n-grams would be the
     paths themselves.  Not with counts-update=atomic: a locked add costs
     far more than a check (bench/raytrace at -O2: 2.4 s with plain
     increments, 3.6 s with checks, 18.7 s with atomic ones); the checks
     of a thread-aware build stay exact per thread.  */
  if (fi.paths && fi.checks && !opts.counts_atomic
      && fi.pn.npaths <= opts.count_loop_free
      && path_starts (fi.pn) == 1)
    fi.checks = false, fi.counts = true;

  /* One countdown (include/osp/abi.h): the checks test the hooks'.  */
  fi.shared = opts.shared_checks && fi.hooks && fi.paths && fi.checks;

  fi.record = declare_function_record (fun);
  fi.counters = NULL_TREE;
  fi.record_addr = build_fold_addr_expr (fi.record);
  fi.flags = 0;
  unsigned hooked = 0, ends = 0;
  if (opts.instrument)
    init_hook_decls ();
  /* Both found on the unchanged CFG.  The batched loops' counters'
     increments are edge insertions that probes.cc commits (or the commit
     below).  */
  fi.tails.find (fun, fi.id_of_bb_index, fi.paths ? &fi.pn.start : NULL);
  if (opts.batch_loops && (fi.hooks || (fi.paths && fi.checks)))
    find_batched_loops (fi.blocks, fi.id_of_bb_index, &fi.loops);
  if (fi.paths)
    {
      fi.flags |= OSP_FN_PATH_PROBES;
      fi.flags |= fi.checks ? OSP_FN_PATH_CHECKS : 0;
      fi.flags |= fi.counts ? OSP_FN_PATH_COUNTS : 0;
      fi.flags |= fi.counts && opts.counts_atomic ? OSP_FN_COUNTS_ATOMIC : 0;
      fi.flags |= fi.shared ? OSP_FN_PATH_SHARED : 0;
      if (fi.counts)
        fi.counters = declare_path_counters (fi.pn.npaths);
      ends = insert_path_probes (&fi);
    }
  /* A shared check reads the countdown the hooks lower: a loop whose
     blocks hand their hooks over at its exits but whose path ends were
     not batched (a cut in its body, its header's check at its start)
     would test a countdown that does not move in it.  Such a loop gets
     its hooks back.  */
  for (unsigned i = 0; fi.shared && i < fi.loops.length ();)
    if (fi.loops[i].path_batched)
      i++;
    else
      {
        release_batched_loop (&fi.loops[i]);
        fi.loops.ordered_remove (i);
      }
  gsi_commit_edge_inserts ();
  if (fi.hooks)
    {
      fi.flags |= OSP_FN_BLOCK_HOOKS;
      auto_sbitmap in_loop (fi.blocks.length ());
      bitmap_clear (in_loop);
      for (const batched_loop &l : fi.loops)
        for (unsigned id : l.chain)
          bitmap_set_bit (in_loop, id);
      for (unsigned id = 0; id < fi.blocks.length (); id++)
        {
          const block_info &b = fi.blocks[id];
          if (bitmap_bit_p (in_loop, id) || fi.tails.moved (b.bb))
            hooked++;
          else if (insert_block_hook (b.bb, fi.record_addr, id,
                                      b.flags & OSP_BB_LOOP_HEADER))
            hooked++;
          else
            fi.cfg_words[b.cfg_offset + 2] |= OSP_BB_NO_HOOK;
        }
      for (const batched_loop &l : fi.loops)
        insert_loop_hooks (l, fi.record_addr, fi.shared);
      insert_tail_hooks (fi);
    }
  unsigned batched = fi.loops.length ();
  for (batched_loop &l : fi.loops)
    release_batched_loop (&l);
  unsigned versioned = 0;
  if ((fi.hooks || (fi.paths && fi.checks)) && versions_in_osp_pass ())
    {
      /* The tests' fresh loads and stores of the countdowns get their
         virtual operands first: niter analysis and the copy need them.  */
      mark_virtual_operands_for_renaming (fun);
      update_ssa (TODO_update_ssa);
      versioned = version_tested_loops (fun);
    }
  insert_call_barriers (fun, fi.flags, fi.tails);
  if (fi.flags)
    {
      /* Dominators are recomputed on demand; loops are fixed up.  */
      free_dominance_info (CDI_DOMINATORS);
      free_dominance_info (CDI_POST_DOMINATORS);
      mark_virtual_operands_for_renaming (fun);
    }
  finish_function_record (fi);

  if (opts.verbose)
    {
      /* Otherwise the loops are versioned after inlining, and noted then
         (versions.cc).  */
      char vnote[40] = "";
      if (versions_in_osp_pass ())
        snprintf (vnote, sizeof vnote, ", %u versioned loops", versioned);
      if (fi.paths)
        inform (DECL_SOURCE_LOCATION (fun->decl),
                "osp: instrumented %s: %u blocks, %u hooks, %llu paths, "
                "%u path ends (%s), %u cuts, %u batched loops%s",
                display_name (fun), fi.blocks.length (), hooked,
                (unsigned long long) fi.pn.npaths, ends,
                fi.checks && fi.counts ? "sample checks and counters"
                : fi.checks ? "sample checks" : "counters", fi.pn.cuts,
                batched, vnote);
      else
        inform (DECL_SOURCE_LOCATION (fun->decl),
                "osp: instrumented %s: %u blocks, %u hooks, %u batched loops%s",
                display_name (fun), fi.blocks.length (), hooked, batched,
                vnote);
    }
  return (fi.flags ? TODO_update_ssa : 0) | (versioned ? TODO_cleanup_cfg : 0);
}

const pass_data instrument_pass_data = gimple_pass_data ("osp");

class instrument_pass : public gimple_opt_pass
{
public:
  instrument_pass (gcc::context *ctxt)
    : gimple_opt_pass (instrument_pass_data, ctxt)
  {}

  opt_pass *clone () final override { return new instrument_pass (m_ctxt); }

  bool gate (function *fun) final override
  {
    /* -fdump-passes asks each gate about a dummy function without a
       body (or none): say "on", and ask nothing of it.  */
    if (fun == NULL || fun->cfg == NULL)
      return true;
    const char *why = skip_reason (fun);
    if (why && opts.verbose)
      inform (DECL_SOURCE_LOCATION (fun->decl), "osp: skipped %s: %s",
              display_name (fun), why);
    return why == NULL;
  }

  unsigned int execute (function *fun) final override
  {
    return instrument_function (fun);
  }
};

gimple_opt_pass *
make_instrument_pass (gcc::context *ctxt)
{
  return new instrument_pass (ctxt);
}

} // namespace osp

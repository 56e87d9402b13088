/* SPDX-License-Identifier: GPL-3.0-or-later */
/* budget.cc - how much code osp's copying transformations may add.
 *
 * Why: loop versioning (versions.cc) copies a loop, and an outer loop's
 * copy copies its inner loops' versions again, so a function of nested
 * loops can grow as 2 to the power of its depth; and each version updates
 * the SSA form of the whole function, so a function of many loops costs
 * their number times its size.  Unbounded, that made compiles blow up
 * (issue 36: c-ray's c-ray-fast.c from 0.5 s to 681 s and 1.37 GB, in
 * isect_octnode after recursive inlining; SQLite's amalgamation at -O3
 * never finished).  So every such transformation is charged against a
 * budget measured on the function as it was when the pass began:
 *
 *   max-fn-blocks=N, max-fn-stmts=N
 *       a function larger than this (basic blocks, or statements without
 *       the debug ones) gets no copies at all, only the plain
 *       instrumentation: big functions are generated code (lexers,
 *       interpreters' dispatch, SQLite's parser) where the copies cost
 *       most compile time and help least;
 *   max-growth=PERCENT, min-growth-blocks=N
 *       the copies may add at most this share of the function's blocks
 *       and of its statements, or N blocks and 8 N statements if that is
 *       more: a relative cap alone either starves small functions, whose
 *       hot loop's versions are most of their size, or (set high enough
 *       for them) lets the large functions of recursive inlining grow
 *       several-fold, where the copies cost most compile time;
 *   max-unit-growth=N
 *       and all the copies of one translation unit at most N statements.
 *
 * A copy that does not fit is not made: the loop or function keeps its
 * tests, which is the plain instrumentation, and with `verbose' osp says
 * which function and which budget.  The transformations that only add a
 * bounded amount per block (the probes, hooks, folded runs: runs.cc adds
 * at most two blocks per test it folds) need no budget: they are linear
 * in the function's size already.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "gimple.h"
#include "basic-block.h"
#include "gimple-iterator.h"
#include "diagnostic-core.h"

#include "osp-plugin.h"

namespace osp {

/* The statement floor, per block of min-growth-blocks: more statements
   than a block holds on average (3 to 4 in bench/ and c-ray), so that the
   floor is one of blocks and a third option is not needed.  */
static const uint64_t floor_stmts_per_block = 8;

/* Statements the copies of this translation unit have added so far.  */
static uint64_t unit_growth;

static unsigned
block_stmts (basic_block bb)
{
  unsigned n = 0;
  for (gimple_stmt_iterator gsi = gsi_start_nondebug_bb (bb); !gsi_end_p (gsi);
       gsi_next_nondebug (&gsi))
    n++;
  return n;
}

code_size
blocks_size (basic_block *bbs, unsigned n)
{
  code_size s = { n, 0 };
  for (unsigned i = 0; i < n; i++)
    s.stmts += block_stmts (bbs[i]);
  return s;
}

growth_budget::growth_budget (function *fun, const char *what)
  : fun (fun), what (what)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      size.blocks++;
      size.stmts += block_stmts (bb);
    }
  over_size = size.blocks > opts.max_fn_blocks
              || size.stmts > opts.max_fn_stmts;
  if (over_size && opts.verbose)
    inform (DECL_SOURCE_LOCATION (fun->decl),
            "osp: %s: no %s, plain instrumentation: %u blocks and %u "
            "statements, over the budget (%<max-fn-blocks=%llu%>, "
            "%<max-fn-stmts=%llu%>)", display_name (fun), what, size.blocks,
            size.stmts, (unsigned long long) opts.max_fn_blocks,
            (unsigned long long) opts.max_fn_stmts);
}

growth_budget::~growth_budget ()
{
  if (!opts.verbose || (!refused_fn && !refused_unit))
    return;
  if (refused_fn)
    inform (DECL_SOURCE_LOCATION (fun->decl),
            "osp: %s: %u %s not made: the copies would add more than %llu%% "
            "of its %u blocks and %u statements, or than %llu blocks and "
            "%llu statements if that is more (%<max-growth%>, "
            "%<min-growth-blocks%>)",
            display_name (fun), refused_fn, what,
            (unsigned long long) opts.max_growth, size.blocks, size.stmts,
            (unsigned long long) opts.min_growth_blocks,
            (unsigned long long) (floor_stmts_per_block
                                  * opts.min_growth_blocks));
  if (refused_unit)
    inform (DECL_SOURCE_LOCATION (fun->decl),
            "osp: %s: %u %s not made: the copies of the unit would add "
            "more than %llu statements (%<max-unit-growth%>)",
            display_name (fun), refused_unit, what,
            (unsigned long long) opts.max_unit_growth);
}

/* What the copies may add to a function of SIZE blocks or statements:
   max-growth percent of it, or FLOOR if that is more.  */
static uint64_t
allowance (uint64_t size, uint64_t floor)
{
  uint64_t rel = size * opts.max_growth / 100;
  return rel > floor ? rel : floor;
}

bool
growth_budget::fits (code_size copy)
{
  if (over_size)
    return false;
  uint64_t blocks = (uint64_t) added.blocks + copy.blocks;
  uint64_t stmts = (uint64_t) added.stmts + copy.stmts;
  if (blocks > allowance (size.blocks, opts.min_growth_blocks)
      || stmts > allowance (size.stmts,
                            floor_stmts_per_block * opts.min_growth_blocks))
    {
      refused_fn++;
      return false;
    }
  if (unit_growth + copy.stmts > opts.max_unit_growth)
    {
      refused_unit++;
      return false;
    }
  return true;
}

void
growth_budget::charge (code_size copy)
{
  added.blocks += copy.blocks;
  added.stmts += copy.stmts;
  unit_growth += copy.stmts;
}

} // namespace osp

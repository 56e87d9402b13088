/* SPDX-License-Identifier: GPL-3.0-or-later */
/* numbering.cc - block ids and the control-flow description of a function.
 *
 * A function's "original" blocks are those it has when the osp pass starts
 * (right after early inlining); blocks that the instrumentation creates later
 * (hook condition/call blocks, split edges) get no id.  Ids are dense,
 * 0 .. nblocks-1, in layout order, except that block 0 is always the entry
 * block.
 *
 * Block 0 must have no predecessor but the function entry, so that its
 * count is the function's call count (the oracle tests compare it with
 * gcov's "called N").  When the first block is also a loop header or a
 * jump target, prepare_entry_block splits the entry edge first, as gcov
 * and PEP do; the new empty block takes the function's opening line.
 *
 * Back edges come from mark_dfs_back_edges, not from the loop tree: the DFS
 * cuts every cycle, irreducible ones included, which is what the Ball-Larus
 * DAG of the PEP paper needs (PEP section 3; k-BLPP section 2).  Their
 * targets are flagged as loop headers.
 *
 * The cfg words follow include/osp/abi.h: per block line_first, line_last,
 * flags, nsucc, then (dst, edge flags) pairs.  Lines are the min and max of
 * the block's statement lines in the function's own file, with macro uses
 * reported at their expansion point.
 *
 * Each block's statement lines (encode_lines, ABI 7) are the distinct lines
 * of its statements in the same file, so that a block spanning a comment
 * or an `#if 0' region does not cover those lines (ospview --annotate).
 * They are taken before osp inserts anything.  Most blocks' lines are a
 * run first..last (one line, or a few statements on consecutive lines);
 * such a block costs one word (0), any other its count and its lines.
 *
 * Each block's estimated cost (block_costs) is the sum over its statements
 * of estimate_num_insns with eni_time_weights: the time estimate GCC's own
 * inliner and ipa-fnsummary weigh statements by (a call costs its call
 * overhead and arguments, not its callee; a debug statement or label
 * nothing).  It is taken here, before osp inserts anything, so the
 * runtime's work figures (count x cost) weigh the program's statements and
 * not osp's probes.  It is an estimate of cycles on an abstract machine,
 * not a measurement: doc/ACCURACY.md ("Work") compares it with callgrind.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "gimple.h"
#include "basic-block.h"
#include "cfganal.h"
#include "cfghooks.h"
#include "gimple-iterator.h"
#include "function.h"
#include "filenames.h"
#include "tree-inline.h"

#include "osp-plugin.h"

namespace osp {


/* Give the function an entry block that only the entry edge reaches and
   whose start can take a hook.  */
void
prepare_entry_block (function *fun)
{
  edge e = single_succ_edge (ENTRY_BLOCK_PTR_FOR_FN (fun));
  if (!single_pred_p (e->dest) || !hook_fits_at_start (e->dest))
    split_edge (e);
}

static const char *
function_file (function *fun)
{
  const char *file = LOCATION_FILE (DECL_SOURCE_LOCATION (fun->decl));
  return file ? file : "";
}

/* The line of STMT in FILE, or 0 (another file, no location).  */
static unsigned
stmt_line (gimple *stmt, const char *file)
{
  if (is_gimple_debug (stmt))
    return 0;
  location_t loc = gimple_location (stmt);
  if (loc == UNKNOWN_LOCATION)
    return 0;
  expanded_location xloc = expand_location (loc);
  if (!xloc.file || xloc.line <= 0 || filename_cmp (xloc.file, file))
    return 0;
  return xloc.line;
}

/* Set BI's line range from the statements of its block.  */
static void
find_lines (block_info *bi, const char *file)
{
  bi->first_line = bi->last_line = 0;
  for (gimple_stmt_iterator gsi = gsi_start_bb (bi->bb); !gsi_end_p (gsi);
       gsi_next (&gsi))
    {
      unsigned line = stmt_line (gsi_stmt (gsi), file);
      if (line == 0)
        continue;
      if (!bi->first_line || line < bi->first_line)
        bi->first_line = line;
      if (line > bi->last_line)
        bi->last_line = line;
    }
}

/* Fill BLOCKS with the original blocks of FUN, block 0 first, and map
   bb->index to the block id (-1 for ENTRY, EXIT and new blocks).  */
void
number_blocks (function *fun, vec<block_info> *blocks,
               vec<int> *id_of_bb_index)
{
  mark_dfs_back_edges (fun);

  id_of_bb_index->safe_grow_cleared (last_basic_block_for_fn (fun));
  for (unsigned i = 0; i < id_of_bb_index->length (); i++)
    (*id_of_bb_index)[i] = -1;

  basic_block entry = single_succ (ENTRY_BLOCK_PTR_FOR_FN (fun));
  const char *file = function_file (fun);
  auto add = [&] (basic_block bb) {
    block_info bi;
    bi.bb = bb;
    bi.flags = 0;
    bi.cfg_offset = 0;
    find_lines (&bi, file);
    (*id_of_bb_index)[bb->index] = blocks->length ();
    blocks->safe_push (bi);
  };
  add (entry);
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    if (bb != entry)
      add (bb);

  /* The split entry block has no statement yet: show the opening line.  */
  block_info &b0 = (*blocks)[0];
  b0.flags |= OSP_BB_ENTRY;
  if (!b0.first_line)
    b0.first_line = b0.last_line = DECL_SOURCE_LINE (fun->decl);
}

static unsigned
edge_flags (edge e)
{
  unsigned f = 0;
  if (e->flags & EDGE_DFS_BACK)
    f |= OSP_EDGE_BACK;
  if (e->flags & EDGE_ABNORMAL)
    f |= OSP_EDGE_ABNORMAL;
  if (e->flags & EDGE_EH)
    f |= OSP_EDGE_EH;
  if (e->flags & EDGE_FALLTHRU)
    f |= OSP_EDGE_FALLTHRU;
  if (e->flags & EDGE_TRUE_VALUE)
    f |= OSP_EDGE_TRUE;
  if (e->flags & EDGE_FALSE_VALUE)
    f |= OSP_EDGE_FALSE;
  return f;
}

/* Compute block flags and append the cfg words of every block to WORDS,
   remembering where each block's words start.  */
void
encode_cfg (vec<block_info> *blocks, const vec<int> &id_of_bb_index,
            vec<uint32_t> *words)
{
  for (block_info &bi : *blocks)
    {
      edge e;
      edge_iterator ei;
      FOR_EACH_EDGE (e, ei, bi.bb->preds)
        {
          if (e->flags & EDGE_DFS_BACK)
            bi.flags |= OSP_BB_LOOP_HEADER;
          if (e->flags & (EDGE_ABNORMAL | EDGE_EH))
            bi.flags |= OSP_BB_ABNORMAL_TARGET;
        }
      FOR_EACH_EDGE (e, ei, bi.bb->succs)
        if (e->dest->index == EXIT_BLOCK)
          bi.flags |= OSP_BB_RETURNS;

      bi.cfg_offset = words->length ();
      words->safe_push (bi.first_line);
      words->safe_push (bi.last_line);
      words->safe_push (bi.flags);
      words->safe_push (EDGE_COUNT (bi.bb->succs));
      FOR_EACH_EDGE (e, ei, bi.bb->succs)
        {
          int dst = e->dest->index == EXIT_BLOCK
                      ? -1 : id_of_bb_index[e->dest->index];
          gcc_checking_assert (e->dest->index == EXIT_BLOCK || dst >= 0);
          words->safe_push (dst < 0 ? OSP_BLOCK_EXIT : (uint32_t) dst);
          words->safe_push (edge_flags (e));
        }
    }
}

static int
line_cmp (const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  return x < y ? -1 : x > y;
}

/* Each of BLOCKS' statement lines (by id) into WORDS: 0 when they are
   every line of first_line .. last_line (or none, first_line 0), else
   their count and the lines, ascending (include/osp/abi.h `lines').  */
void
encode_lines (function *fun, const vec<block_info> &blocks,
              vec<uint32_t> *words)
{
  const char *file = function_file (fun);
  auto_vec<uint32_t> lines;
  for (const block_info &bi : blocks)
    {
      lines.truncate (0);
      for (gimple_stmt_iterator gsi = gsi_start_bb (bi.bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        if (unsigned line = stmt_line (gsi_stmt (gsi), file))
          lines.safe_push (line);
      lines.qsort (line_cmp);
      unsigned n = 0;
      for (unsigned i = 0; i < lines.length (); i++)
        if (n == 0 || lines[i] != lines[n - 1])
          lines[n++] = lines[i];
      lines.truncate (n);
      /* The split entry block's opening line (number_blocks) is a run. */
      if (n == 0 || lines[n - 1] - lines[0] + 1 == n)
        {
          words->safe_push (0);
          continue;
        }
      gcc_checking_assert (lines[0] == bi.first_line
                           && lines[n - 1] == bi.last_line);
      words->safe_push (n);
      for (uint32_t l : lines)
        words->safe_push (l);
    }
}

/* The estimated cost of each of BLOCKS (by id), into COSTS.  */
void
block_costs (const vec<block_info> &blocks, vec<uint32_t> *costs)
{
  for (const block_info &bi : blocks)
    {
      uint64_t sum = 0;
      for (gimple_stmt_iterator gsi = gsi_start_bb (bi.bb); !gsi_end_p (gsi);
           gsi_next (&gsi))
        sum += (uint64_t) estimate_num_insns (gsi_stmt (gsi),
                                              &eni_time_weights);
      costs->safe_push (sum > UINT32_MAX ? UINT32_MAX : (uint32_t) sum);
    }
}

} // namespace osp

/* osp-plugin.h - contracts between the files of osp.so, the GCC plugin.
 *
 *   plugin.cc      plugin_init: version check, -fplugin-arg-osp-* parsing,
 *                  GC roots, pass placement
 *   instrument.cc  the per-function GIMPLE pass "osp": which functions are
 *                  skipped and the order of the steps below
 *   numbering.cc   block ids, DFS back edges, the cfg words of the record
 *   hooks.cc       block-entry hooks (skip countdown + cold runtime call)
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

class gimple_opt_pass;
class simple_ipa_opt_pass;

namespace osp {

/* What -fplugin-arg-osp-instrument= asked for (a comma-separated list). */
enum instrument_kind
{
  INSTRUMENT_BLOCKS = 1u << 0 /* block-entry hooks */
};

struct options
{
  unsigned instrument;        /* instrument_kind bits; 0 = metadata only */
  vec<const char *> include;  /* fnmatch patterns; empty = every function */
  vec<const char *> exclude;  /* fnmatch patterns; exclude wins */
  bool verbose;
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
void number_blocks (function *fun, vec<block_info> *blocks,
                    vec<int> *id_of_bb_index);
void encode_cfg (vec<block_info> *blocks, const vec<int> &id_of_bb_index,
                 vec<uint32_t> *words);

/* hooks.cc */
void init_hook_decls ();
bool insert_block_hook (basic_block bb, tree record_addr, unsigned id);

/* metadata.cc */
void init_metadata_decls ();
tree declare_function_record (function *fun);
void finish_function_record (tree record, function *fun, unsigned flags,
                             unsigned nblocks, const vec<uint32_t> &cfg_words);
extern unsigned records_emitted;

/* instrument.cc */
const char *display_name (function *fun);

/* instrument.cc / metadata.cc: the passes. */
gimple_opt_pass *make_instrument_pass (gcc::context *ctxt);
simple_ipa_opt_pass *make_register_pass (gcc::context *ctxt);

/* plugin.cc: the GC roots of the other files are registered there. */
extern tree skip_decl;          /* __thread uint32_t __osp_skip */
extern tree block_hook_decl;    /* __osp_block_hook */
extern tree register_decl;      /* __osp_register_module */
extern tree record_type;        /* struct osp_fn_record */

} // namespace osp

#endif /* OSP_PLUGIN_H */

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* linkcheck.cc - an instrumented object that is linked without the runtime
 * fails at link time, not when it is loaded.
 *
 * An executable that lacks -losprt already fails to link (undefined
 * __osp_*), but a shared library links with undefined symbols and fails
 * only when loaded: `undefined symbol: __osp_skip' from dlopen, or
 * `symbol lookup error: libtcc2.so: undefined symbol:
 * __osp_block_hook_preserving' in the middle of a run.  GNU ld has no way
 * for an object to add a library to the link (LLD's .deplibs), and GCC's
 * own instrumentations leave the same gap (a -fprofile-arcs or
 * -fsanitize=address object linked without -lgcov or -lasan); they rely on
 * the driver's specs, as osp does with osp.specs.
 *
 * What an object can do is ask for a symbol version: the unit's constructor
 * calls __osp_register_module@LIBOSPRT_0 (a .symver on the undefined
 * name), which only libosprt defines (libosprt/osprt.map, runtime.c).  ld
 * refuses a versioned reference that no input defines, for shared
 * libraries too: `libfoo.so: no symbol version section for versioned
 * symbol `__osp_register_module@LIBOSPRT_0''.  The fix is the one flag
 * (doc/osp.md, "One flag").  It costs nothing at run time: the call is the
 * same call; the output gains a version requirement on libosprt.so.0.
 * Objects of older plugins (unversioned references) still bind to the
 * default version, and the runtime keeps refusing records of another ABI
 * version itself, so the version node never changes with OSP_ABI_VERSION.
 *
 * Under -flto the directive is top-level asm in the first partition; a
 * constructor compiled in another partition keeps an unversioned
 * reference there (no check, as before).  */
#include "gcc-plugin.h"
#include "tree.h"
#include "cgraph.h"
#include "output.h"
#include "osp/abi.h"

namespace osp {

/* Emit the .symver once per unit, before the constructor is built: as
   top-level asm while the symbol table can still output it, else (at
   PLUGIN_FINISH_UNIT, placement=late) straight into the assembly.  */
void
require_runtime_link ()
{
  static bool done;
  if (done)
    return;
  done = true;
  const char *directive = "\t.symver " OSP_SYM_REGISTER ", " OSP_SYM_REGISTER
                          "@" OSP_RUNTIME_VERSION_NODE "\n";
  if (symtab->state < EXPANSION)
    symtab->finalize_toplevel_asm (build_string (strlen (directive),
                                                 directive));
  else if (asm_out_file)
    fputs (directive, asm_out_file);
}

} // namespace osp

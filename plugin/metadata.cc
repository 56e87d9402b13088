/* SPDX-License-Identifier: GPL-3.0-or-later */
/* metadata.cc - self-describing function records and module registration.
 *
 * Each instrumented function gets a `struct osp_fn_record` (include/osp/
 * abi.h) in the writable section "osp_fns", plus read-only arrays of cfg
 * words, path values, block costs (numbering.cc) and statement lines,
 * packed (include/osp/pack.h), and its name and file strings, and with instrument=counts a
 * zeroed array of one uint64 per path that `counts' points to.  Records
 * are DECL_PRESERVE_P, so they survive -flto and --gc-sections even when
 * the function itself is inlined away, and they point only at their own
 * data, never at the function, so they keep nothing else alive.  The alignment is pinned
 * (DECL_USER_ALIGN) so that x86-64's DATA_ALIGNMENT cannot pad records to
 * 32 bytes; the runtime still scans in 8-byte steps.
 *
 * The runtime finds the records without sidecar files: each translation
 * unit that emitted a record also gets a constructor
 *
 *     __osp_register_module (OSP_ABI_VERSION, &__start_osp_fns,
 *                            &__stop_osp_fns);
 *
 * The linker defines __start_/__stop_ for every output (executable or
 * shared object) that has the section; we reference them as hidden, so
 * each DSO registers its own records, dlopen'ed ones at dlopen time.  The
 * constructor has init priority 100 (reserved range) so that it runs
 * before user constructors; hooks that fire earlier still are harmless.
 *
 * The generated code adds to the path counters by their array's name, as
 * gcov's code does (the arrays are DECL_NONALIASED, like gcov's: no pointer
 * of the program's points into them), so that GCC keeps a loop's counts in
 * registers and adds the increments of a callee inlined twice into one;
 * the runtime reads them where they are.  So a translation unit with
 * counters also gets a destructor, of priority 100 too so that it runs
 * after the user's destructors,
 *
 *     __osp_release_module (OSP_ABI_VERSION, &__start_osp_fns,
 *                           &__stop_osp_fns);
 *
 * with which the runtime copies the module's counts into its own memory
 * before a dlclose unmaps them (and at exit, before its report).
 *
 * The constructor is built by a small IPA pass placed after "profile", the
 * point where GCC builds its own coverage constructor, because anything
 * created after IPA (e.g. at PLUGIN_FINISH_UNIT) never reaches the object
 * file under -flto.  With placement=late the records are made after IPA,
 * so the constructor is built at PLUGIN_FINISH_UNIT (placement=late
 * refuses -flto).
 *
 * Each record also names the bytes of its source file: their size and
 * SHA-256 (one read-only 32-byte array per file and unit, shared by the
 * unit's records), and the compile's working directory (get_src_pwd, the
 * directory relative file names are relative to).  ospview prints a
 * file's text only when the file on disk has that size and digest, so a
 * snapshot naming /etc/shadow shows nothing of it (doc/osp.md, "Safety").
 * The file is read here, once per unit, by the name GCC opened it with
 * and from the same directory, at most MAX_SOURCE_BYTES; a file that
 * cannot be read (<stdin>, <built-in>, removed meanwhile) gets no digest,
 * and no text of it is ever shown.  The file and directory names are
 * recorded as DWARF records them, through remap_debug_filename
 * (-ffile-prefix-map, -fdebug-prefix-map), so a build made reproducible
 * with those options stays so; ospview finds a moved tree with
 * --source-map or --source-dir.
 *
 * Since ABI 7 a record also points to the lines of each block's
 * statements (numbering.cc, encode_lines), one word for most blocks.
 */
#include "gcc-plugin.h"
#include "tree.h"
#include "gimple.h"
#include "tree-pass.h"
#include "cgraph.h"
#include "stringpool.h"
#include "stor-layout.h"
#include "fold-const.h"
#include "varasm.h"
#include "tree-iterator.h"
#include "context.h"
#include "diagnostic-core.h"
#include "toplev.h"
#include "file-prefix-map.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <string>

#include "osp-plugin.h"
#include "sha256.h"

namespace osp {

unsigned records_emitted;

static tree
const_pointer_to (tree type)
{
  return build_pointer_type (build_qualified_type (type, TYPE_QUAL_CONST));
}

/* struct osp_fn_record, field for field as in include/osp/abi.h.  */
static tree
build_record_type ()
{
  static const char *const u32_fields[] = {
    "magic", "abi_version", "id", "flags", "nblocks", "cfg_len"
  };
  tree fields = NULL_TREE;
  auto add = [&] (const char *name, tree type) {
    tree f = build_decl (BUILTINS_LOCATION, FIELD_DECL, get_identifier (name),
                         type);
    DECL_CHAIN (f) = fields;
    fields = f;
  };
  for (const char *name : u32_fields)
    add (name, uint32_type_node);
  add ("name", const_pointer_to (char_type_node));
  add ("file", const_pointer_to (char_type_node));
  add ("cfg", const_pointer_to (uint32_type_node));
  add ("npaths", uint64_type_node);
  add ("paths", const_pointer_to (uint64_type_node));
  add ("paths_len", uint32_type_node);
  add ("costs_len", uint32_type_node);
  add ("counts", build_pointer_type (uint64_type_node));
  add ("file_size", uint64_type_node);
  add ("file_sha256", const_pointer_to (unsigned_char_type_node));
  add ("comp_dir", const_pointer_to (char_type_node));
  add ("costs", const_pointer_to (uint32_type_node));
  add ("lines", const_pointer_to (uint32_type_node));
  add ("lines_len", uint32_type_node);
  add ("reserved2", uint32_type_node);

  tree type = make_node (RECORD_TYPE);
  /* finish_builtin_struct reverses the chain back into declaration order. */
  finish_builtin_struct (type, "osp_fn_record", fields, NULL_TREE);
  return type;
}

void
init_metadata_decls ()
{
  if (!record_type)
    record_type = build_record_type ();
}

/* A file-scope static variable of TYPE that only osp refers to.  */
static tree
build_static_var (const char *prefix, unsigned n, tree type)
{
  char name[64];
  snprintf (name, sizeof name, "%s.%u", prefix, n);
  tree var = build_decl (BUILTINS_LOCATION, VAR_DECL, get_identifier (name),
                         type);
  TREE_STATIC (var) = 1;
  TREE_PUBLIC (var) = 0;
  DECL_ARTIFICIAL (var) = 1;
  DECL_IGNORED_P (var) = 1;
  TREE_ADDRESSABLE (var) = 1;
  return var;
}

/* The record of FUN, without its contents: the hooks need its address
   before the contents are known.  */
tree
declare_function_record (function *)
{
  init_metadata_decls ();
  tree var = build_static_var ("__osp_fn", records_emitted++, record_type);
  DECL_PRESERVE_P (var) = 1;
  SET_DECL_ALIGN (var, TYPE_ALIGN (record_type));
  DECL_USER_ALIGN (var) = 1;
  set_decl_section_name (var, OSP_SECTION);
  return var;
}

static unsigned const_arrays;
static unsigned counter_arrays;

/* A zeroed array of NPATHS path counters (.bss: no page is touched until
   a path ends), named directly by the code that adds to it (probes.cc).  */
tree
declare_path_counters (uint64_t npaths)
{
  tree type = build_array_type_nelts (uint64_type_node, npaths);
  tree var = build_static_var (OSP_COUNTERS_PREFIX, counter_arrays++, type);
  DECL_NONALIASED (var) = 1;
  varpool_node::finalize_decl (var);
  return var;
}

/* Whether T is an array of path counters (declare_path_counters), here
   or streamed back by LTO (which may add a suffix to its name).  */
bool
path_counters_p (tree t)
{
  if (!VAR_P (t) || !DECL_ARTIFICIAL (t) || !DECL_NAME (t))
    return false;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (t));
  size_t n = strlen (OSP_COUNTERS_PREFIX);
  return strncmp (name, OSP_COUNTERS_PREFIX, n) == 0 && name[n] == '.';
}

/* A read-only static array of WORDS of type ELT_TYPE.  */
template <typename T>
static tree
build_const_array (const char *prefix, tree elt_type, const vec<T> &words)
{
  tree elt = build_qualified_type (elt_type, TYPE_QUAL_CONST);
  tree type = build_array_type_nelts (elt, words.length ());
  vec<constructor_elt, va_gc> *v = NULL;
  vec_alloc (v, words.length ());
  for (unsigned i = 0; i < words.length (); i++)
    CONSTRUCTOR_APPEND_ELT (v, build_int_cst (size_type_node, i),
                            build_int_cstu (elt_type, words[i]));
  tree var = build_static_var (prefix, const_arrays++, type);
  TREE_READONLY (var) = 1;
  TREE_CONSTANT (var) = 1;
  DECL_INITIAL (var) = build_constructor (type, v);
  varpool_node::finalize_decl (var);
  return var;
}

/* A read-only static array of 32-bit WORDS (loops.cc's chains).  */
tree
const_u32_array (const char *prefix, const vec<uint32_t> &words)
{
  return build_const_array (prefix, uint32_type_node, words);
}

/* A read-only static array of BYTES, as a string constant: GCC holds a
   string in one node, an array constructor in one node per element.  */
static tree
const_byte_array (const char *prefix, const vec<uint8_t> &bytes)
{
  tree elt = build_qualified_type (unsigned_char_type_node, TYPE_QUAL_CONST);
  tree type = build_array_type_nelts (elt, bytes.length ());
  tree init = build_string (bytes.length (),
                            (const char *) bytes.address ());
  TREE_TYPE (init) = type;
  tree var = build_static_var (prefix, const_arrays++, type);
  TREE_READONLY (var) = 1;
  TREE_CONSTANT (var) = 1;
  DECL_INITIAL (var) = init;
  varpool_node::finalize_decl (var);
  return var;
}

/* WORDS packed into OUT (include/osp/pack.h; PATHS: as path values).  */
template <typename T>
static void
pack_words (const vec<T> &words, bool paths, auto_vec<uint8_t> &out)
{
  out.safe_grow (10 * words.length () + 1);
  uint8_t *o = out.address ();
  size_t n = 0;
  for (T w : words)
    {
      uint64_t v = w;
      n += osp_pack_words (&v, 1, paths, o + n);
    }
  out.truncate (n);
}

/* The address of the packed array PREFIX of BYTES, converted to the
   field's pointer type (abi.h: OSP_FN_PACKED), or a null pointer.  */
static tree
packed_field (const char *prefix, const vec<uint8_t> &bytes, tree field)
{
  if (bytes.is_empty ())
    return fold_convert (TREE_TYPE (field), null_pointer_node);
  return fold_convert (TREE_TYPE (field),
                       build_fold_addr_expr (const_byte_array (prefix,
                                                               bytes)));
}

static tree
string_constant (const char *s, tree field_type)
{
  return fold_convert (field_type, build_string_literal (strlen (s) + 1, s));
}

/* Files over this are not hashed (ospview reads no more either). */
static const uint64_t MAX_SOURCE_BYTES = 16u << 20;

/* What this unit's records say of one source file. */
struct source_digest
{
  uint64_t size = 0;
  tree sha256 = NULL_TREE; /* the array, or NULL_TREE: not read */
};

static std::map<std::string, source_digest> digests;

/* Read FILE whole (as GCC did: by this name, from this directory) and
   hash it; the digest of an unreadable file has no array.  */
static source_digest
digest_of (const char *file)
{
  auto it = digests.find (file);
  if (it != digests.end ())
    return it->second;
  source_digest d;
  int fd = *file ? open (file, O_RDONLY | O_CLOEXEC | O_NOCTTY) : -1;
  struct stat sb;
  if (fd >= 0 && fstat (fd, &sb) == 0 && S_ISREG (sb.st_mode)
      && (uint64_t) sb.st_size <= MAX_SOURCE_BYTES)
    {
      struct osp_sha256 c;
      osp_sha256_init (&c);
      uint64_t got = 0;
      char buf[65536];
      ssize_t k;
      while ((k = read (fd, buf, sizeof buf)) > 0)
        {
          osp_sha256_update (&c, buf, (size_t) k);
          got += (uint64_t) k;
        }
      if (k == 0 && got <= MAX_SOURCE_BYTES)
        {
          unsigned char sum[OSP_SHA256_BYTES];
          osp_sha256_final (&c, sum);
          auto_vec<unsigned char> bytes;
          for (unsigned char b : sum)
            bytes.safe_push (b);
          d.size = got;
          d.sha256 = build_const_array ("__osp_sha256",
                                        unsigned_char_type_node, bytes);
        }
    }
  if (fd >= 0)
    close (fd);
  digests[file] = d;
  return d;
}

/* Give FI's record its contents and hand it to the varpool.  */
void
finish_function_record (const fn_instr &fi)
{
  function *fun = fi.fun;
  const vec<uint32_t> &cfg_words = fi.cfg_words;
  const vec<uint64_t> &path_words = fi.path_words;
  unsigned flags = fi.flags, nblocks = fi.blocks.length ();
  uint64_t npaths = fi.paths ? fi.pn.npaths : 0;
  tree record = fi.record, counters = fi.counters;
  const char *file = LOCATION_FILE (DECL_SOURCE_LOCATION (fun->decl));
  /* Packed (abi.h, OSP_FN_PACKED): a quarter of the words' bytes.  */
  auto_vec<uint8_t> cfg_bytes;
  cfg_bytes.safe_grow (5 * cfg_words.length () + 1);
  cfg_bytes.truncate (osp_pack_cfg (cfg_words.address (),
                                    cfg_words.length (), nblocks,
                                    cfg_bytes.address ()));
  auto_vec<uint8_t> path_bytes, cost_bytes, line_bytes;
  pack_words (path_words, true, path_bytes);
  pack_words (fi.costs, false, cost_bytes);
  pack_words (fi.line_words, false, line_bytes);
  const uint32_t head[] = { OSP_FN_MAGIC, OSP_ABI_VERSION, 0,
                            flags | OSP_FN_PACKED, nblocks,
                            cfg_bytes.length () };

  vec<constructor_elt, va_gc> *v = NULL;
  tree field = TYPE_FIELDS (record_type);
  for (uint32_t word : head)
    {
      CONSTRUCTOR_APPEND_ELT (v, field, build_int_cst (uint32_type_node, word));
      field = DECL_CHAIN (field);
    }
  CONSTRUCTOR_APPEND_ELT (v, field,
                          string_constant (display_name (fun),
                                           TREE_TYPE (field)));
  field = DECL_CHAIN (field);
  /* The names as DWARF gives them: -ffile-prefix-map and
     -fdebug-prefix-map apply, so that a build made reproducible with
     them stays so (the file is still read by its real name, below).  */
  CONSTRUCTOR_APPEND_ELT (v, field,
                          string_constant (file ? remap_debug_filename (file)
                                                : "",
                                           TREE_TYPE (field)));
  field = DECL_CHAIN (field);
  CONSTRUCTOR_APPEND_ELT (v, field,
                          packed_field ("__osp_cfg", cfg_bytes, field));
  field = DECL_CHAIN (field);
  CONSTRUCTOR_APPEND_ELT (v, field, build_int_cstu (uint64_type_node, npaths));
  field = DECL_CHAIN (field);
  CONSTRUCTOR_APPEND_ELT (v, field,
                          packed_field ("__osp_paths", path_bytes, field));
  field = DECL_CHAIN (field);
  CONSTRUCTOR_APPEND_ELT (v, field, build_int_cst (uint32_type_node,
                                                   path_bytes.length ()));
  field = DECL_CHAIN (field);
  CONSTRUCTOR_APPEND_ELT (v, field, build_int_cst (uint32_type_node,
                                                   cost_bytes.length ()));
  field = DECL_CHAIN (field);
  tree counts = counters ? build_fold_addr_expr (counters) : null_pointer_node;
  CONSTRUCTOR_APPEND_ELT (v, field, fold_convert (TREE_TYPE (field), counts));
  source_digest d = digest_of (file ? file : "");
  field = DECL_CHAIN (field);
  CONSTRUCTOR_APPEND_ELT (v, field, build_int_cstu (uint64_type_node, d.size));
  field = DECL_CHAIN (field);
  tree sha = d.sha256 ? build_fold_addr_expr (d.sha256) : null_pointer_node;
  CONSTRUCTOR_APPEND_ELT (v, field, fold_convert (TREE_TYPE (field), sha));
  field = DECL_CHAIN (field);
  const char *pwd = get_src_pwd ();
  CONSTRUCTOR_APPEND_ELT (v, field,
                          string_constant (pwd ? remap_debug_filename (pwd)
                                               : "",
                                           TREE_TYPE (field)));
  field = DECL_CHAIN (field);
  CONSTRUCTOR_APPEND_ELT (v, field,
                          packed_field ("__osp_costs", cost_bytes, field));
  field = DECL_CHAIN (field);
  CONSTRUCTOR_APPEND_ELT (v, field,
                          packed_field ("__osp_lines", line_bytes, field));
  field = DECL_CHAIN (field);
  CONSTRUCTOR_APPEND_ELT (v, field, build_int_cst (uint32_type_node,
                                                   line_bytes.length ()));
  field = DECL_CHAIN (field);
  CONSTRUCTOR_APPEND_ELT (v, field, build_int_cst (uint32_type_node, 0));

  DECL_INITIAL (record) = build_constructor (record_type, v);
  varpool_node::finalize_decl (record);
}

/* extern hidden struct osp_fn_record NAME; defined by the linker.  */
static tree
linker_section_symbol (const char *name)
{
  tree var = build_decl (BUILTINS_LOCATION, VAR_DECL, get_identifier (name),
                         record_type);
  TREE_PUBLIC (var) = 1;
  DECL_EXTERNAL (var) = 1;
  DECL_ARTIFICIAL (var) = 1;
  DECL_IGNORED_P (var) = 1;
  TREE_ADDRESSABLE (var) = 1;
  DECL_VISIBILITY (var) = VISIBILITY_HIDDEN;
  DECL_VISIBILITY_SPECIFIED (var) = 1;
  DECL_ASSEMBLER_NAME (var);
  return var;
}

tree declare_runtime_function (const char *name, tree type, bool cold);
void require_runtime_link (); /* linkcheck.cc */

/* A call of the runtime's entry point NAME (declared in *DECL) with
   this output's records: (OSP_ABI_VERSION, &START, &STOP).  */
static tree
module_call (tree *decl, const char *name, tree start, tree stop)
{
  if (!*decl)
    {
      tree type = build_function_type_list (void_type_node, uint32_type_node,
                                            ptr_type_node, ptr_type_node,
                                            NULL_TREE);
      *decl = declare_runtime_function (name, type, false);
    }
  return build_call_expr (*decl, 3,
                          build_int_cst (uint32_type_node, OSP_ABI_VERSION),
                          build_fold_addr_expr (start),
                          build_fold_addr_expr (stop));
}

/* The unit's constructor, and with path counters its destructor.  The new
   functions go through the early passes, "osp" included; the instrument
   pass skips artificial static constructors and destructors.  Both name
   the same __start_osp_fns and __stop_osp_fns: with placement=late they
   are compiled at once, and a second declaration of a hidden symbol
   would put its .hidden directive inside an instruction.  */
static void
build_module_cdtors ()
{
  init_metadata_decls ();
  require_runtime_link ();
  tree start = linker_section_symbol (OSP_SYM_SECTION_START);
  tree stop = linker_section_symbol (OSP_SYM_SECTION_STOP);
  tree body = NULL_TREE;
  append_to_statement_list (module_call (&register_decl, OSP_SYM_REGISTER,
                                         start, stop),
                            &body);
  cgraph_build_static_cdtor ('I', body, MAX_RESERVED_INIT_PRIORITY);
  if (counter_arrays == 0)
    return;
  body = NULL_TREE;
  append_to_statement_list (module_call (&release_decl, OSP_SYM_RELEASE,
                                         start, stop),
                            &body);
  cgraph_build_static_cdtor ('D', body, MAX_RESERVED_INIT_PRIORITY);
}

const pass_data register_pass_data
  = ipa_pass_data (SIMPLE_IPA_PASS, "osp_register");

class register_pass : public simple_ipa_opt_pass
{
public:
  register_pass (gcc::context *ctxt)
    : simple_ipa_opt_pass (register_pass_data, ctxt)
  {}

  bool gate (function *) final override
  {
    return records_emitted > 0 && !seen_error ();
  }

  unsigned int execute (function *) final override
  {
    build_module_cdtors ();
    return 0;
  }
};

/* placement=late: the PLUGIN_FINISH_UNIT callback.  Every function has
   been compiled by now, so records_emitted is final.  */
void
finish_unit_register (void *, void *)
{
  if (records_emitted > 0 && !seen_error ())
    build_module_cdtors ();
}

simple_ipa_opt_pass *
make_register_pass (gcc::context *ctxt)
{
  return new register_pass (ctxt);
}

} // namespace osp

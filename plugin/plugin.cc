/* plugin.cc - osp.so entry point: version check, arguments, GC roots and
 * pass placement.
 *
 * Usage:  gcc -fplugin=osp [-fplugin-arg-osp-KEY[=VALUE] ...] prog.c -losprt
 *
 *   instrument=KINDS  comma-separated: "blocks" (block-entry hooks),
 *                     "paths" (Ball-Larus path register and PEP sample
 *                     checks), "counts" (Ball-Larus path register and one
 *                     counter per path, added to inline at each path end:
 *                     the exact path profile at the cost of an increment);
 *                     default "blocks,paths"; or "none" (metadata records
 *                     only)
 *   max-paths=N       cap on the Ball-Larus paths of one function, 2..2^62
 *                     (default 2^40; with counts 4096, and at most 2^24:
 *                     the counters take 8 bytes a path); more are cut at
 *                     extra path starts
 *   calls=preserving|plain
 *                     how a firing hook or check calls the runtime: through
 *                     a trampoline that preserves every register, from an
 *                     asm statement that clobbers no memory (x86-64 only,
 *                     the default there), or by a plain call (elsewhere)
 *   batch-loops=yes|no
 *                     whether a loop whose body is one call-free path counts
 *                     its iterations in a register and hands them to the
 *                     hooks and checks at its exits, instead of running
 *                     them in every iteration (default yes; loops.cc)
 *   version-loops=yes|no
 *                     whether a loop whose iteration or run cannot reach
 *                     the end of a countdown runs a copy without the
 *                     countdown tests (inner loops; outer ones up to their
 *                     inner loops; functions without loops, as a whole;
 *                     default yes; only when optimizing; versions.cc)
 *   fold-tests=yes|no
 *                     whether a straight run of tests that inlining made
 *                     (a callee's blocks in its caller) is tested once
 *                     (default yes; only when optimizing; runs.cc)
 *   inline-sizes=plain|instrumented
 *                     whether GCC's IPA inliner weighs each function without
 *                     osp's code, so that it inlines what the plain build
 *                     inlines (default plain; placement=early; sizes.cc)
 *   count-loop-free=N a function without loops (each call runs one path)
 *                     and with at most N paths counts them inline instead of
 *                     taking sample checks: the runtime reports those counts
 *                     exactly (default 64, at most 4096; 0: check every
 *                     function; instrument.cc)
 *   counts-update=single|atomic
 *                     how the counters are added to: a plain increment, or
 *                     an atomic one (threads running the same function at
 *                     once lose no count); default as GCC's
 *                     -fprofile-update (single unless atomic was asked for)
 *   profile=FILE      number paths smartly from the edge counts of a
 *                     previous run (an osp tsv report), not GCC's guesses
 *   placement=early|late
 *                     where the pass runs: before GCC's IPA inliner (early,
 *                     the default: every function as written has its
 *                     record) or after it (late: a function inlined by IPA
 *                     is counted as part of its caller, and the code costs
 *                     less; not with -flto); see "Pass placement" below
 *   include=PATTERNS  comma-separated fnmatch(3) patterns; only matching
 *                     functions are instrumented (default: all)
 *   exclude=PATTERNS  functions matching any pattern are left alone; exclude
 *                     wins over include
 *   verbose[=0|1]     one note per function: what was instrumented or why
 *                     it was skipped
 *
 * Pass placement (see doc/PLUGIN.md for the reasoning):
 *   - placement=early (the default): the GIMPLE pass "osp" runs right after
 *     "einline" (the early inliner),
 *     at the head of the local optimisation pipeline that every -O level
 *     runs, -O0 and -Og included, and before LTO streaming.  Hence the
 *     plugin is needed only at compile time, also with -flto.  Running after
 *     the function's own early inlining keeps its inlining of plain callees
 *     (hooks placed before it made small `inline' functions look too big to
 *     inline, and programs that rely on their inlining - C99 inline-only
 *     definitions, label addresses - broke) and sees the function before
 *     GCC optimises it, so counts do not depend on the -O level.  Its
 *     callees went through the pipeline first, though: they are instrumented
 *     when it inlines them, and it inlines fewer of them than the plain
 *     build (doc/PLUGIN.md).
 *     The small IPA pass "osp_register" runs after "profile", when every
 *     function of the unit has been through "osp" but before LTO streaming,
 *     and emits the unit's registration constructor (GCC's own coverage
 *     constructor is built at the same point, see cgraphunit.cc ipa_passes).
 *     The IPA pass "osp_sizes" follows "fnsummary" and takes osp's code
 *     out of the summaries the IPA inliner decides on (sizes.cc).
 *     The GIMPLE pass "osp_versions" runs after "adjust_alignment" and
 *     versions the inner loops (versions.cc) once the IPA inliner has made
 *     more of them call-free; not under -flto, where it would run at link
 *     time without the plugin: "osp" then versions them itself.
 *     The GIMPLE pass "osp_pin", after "optimized" (the last GIMPLE pass,
 *     at every -O level and with either placement), makes the trampoline
 *     calls volatile asm statements before the RTL passes (hooks.cc);
 *   - placement=late: "osp" runs after "adjust_alignment", the first pass
 *     after the IPA passes that every -O level runs, so it sees each
 *     function as it will be compiled: with the callees IPA inlined into
 *     it, and IPA clones (foo.constprop, foo.part) as functions of
 *     their own.  What IPA concluded about a function (const, pure, the
 *     memory it touches) describes it without osp's code, so the calls to
 *     such functions get barriers (barriers.cc).  The records exist only
 *     once the unit has been compiled, so the registration constructor is
 *     built at PLUGIN_FINISH_UNIT, which works because there is no LTO
 *     streaming: -flto is refused.
 *
 * Debugging: -fdump-tree-all writes the pass dump as FILE.NNNt.osp.
 */
#include "gcc-plugin.h"
#include "plugin-version.h"
#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "diagnostic-core.h"
#include "ggc.h"

#include "osp-plugin.h"

#ifndef OSP_VERSION
#define OSP_VERSION "unknown"
#endif

int plugin_is_GPL_compatible;

namespace osp {

options opts;
tree skip_decl;
tree block_hook_decl;
tree countdown_decl;
tree path_end_decl;
tree path_ends_decl;
tree block_hooks_decl;
tree register_decl;
tree release_decl;
tree record_type;

static struct plugin_info osp_plugin_info = {
  OSP_VERSION,
  "osp: online hot-subpath profiler.  Keys: "
  "instrument=blocks,paths,counts|none, include=PATTERNS, exclude=PATTERNS, "
  "max-paths=N, counts-update=single|atomic, calls=preserving|plain, "
  "batch-loops=yes|no, version-loops=yes|no, fold-tests=yes|no, "
  "inline-sizes=plain|instrumented, count-loop-free=N, profile=FILE, "
  "placement=early|late, verbose[=0|1]"
};

/* Trees that outlive a function must be GC roots: GTY markers mean nothing
   in a plugin unless gengtype runs over it.  */
static const struct ggc_root_tab gc_roots[] = {
  { &skip_decl, 1, sizeof (skip_decl), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &block_hook_decl, 1, sizeof (block_hook_decl), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &countdown_decl, 1, sizeof (countdown_decl), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &path_end_decl, 1, sizeof (path_end_decl), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &path_ends_decl, 1, sizeof (path_ends_decl), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &block_hooks_decl, 1, sizeof (block_hooks_decl), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &register_decl, 1, sizeof (register_decl), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &release_decl, 1, sizeof (release_decl), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &record_type, 1, sizeof (record_type), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

static const char accepted_keys[] =
  "instrument, include, exclude, max-paths, counts-update, calls, "
  "batch-loops, version-loops, fold-tests, inline-sizes, count-loop-free, "
  "profile, placement, verbose";

/* Split VALUE at commas into PATTERNS; empty items are an error.  */
static bool
parse_pattern_list (const char *key, const char *value,
                    vec<const char *> *patterns)
{
  if (!value || !*value)
    {
      error ("osp: plugin argument %<%s%> needs a value: a comma-separated "
             "list of function name patterns", key);
      return false;
    }
  const char *p = value;
  for (;;)
    {
      const char *comma = strchr (p, ',');
      size_t len = comma ? (size_t) (comma - p) : strlen (p);
      if (len == 0)
        {
          error ("osp: empty pattern in %<-fplugin-arg-osp-%s=%s%>", key,
                 value);
          return false;
        }
      patterns->safe_push (xstrndup (p, len));
      if (!comma)
        return true;
      p = comma + 1;
    }
}

static bool
parse_instrument (const char *value)
{
  opts.instrument = 0;
  if (!value || !*value)
    {
      error ("osp: plugin argument %<instrument%> needs a value "
             "(accepted: blocks, paths, counts, none)");
      return false;
    }
  bool none = false;
  const char *p = value;
  while (*p)
    {
      const char *comma = strchr (p, ',');
      size_t len = comma ? (size_t) (comma - p) : strlen (p);
      if (len == 6 && !strncmp (p, "blocks", len))
        opts.instrument |= INSTRUMENT_BLOCKS;
      else if (len == 5 && !strncmp (p, "paths", len))
        opts.instrument |= INSTRUMENT_PATHS;
      else if (len == 6 && !strncmp (p, "counts", len))
        opts.instrument |= INSTRUMENT_COUNTS;
      else if (len == 4 && !strncmp (p, "none", len))
        none = true;
      else
        {
          error ("osp: unknown instrumentation kind %qs in "
                 "%<-fplugin-arg-osp-instrument=%s%> (accepted: blocks, "
                 "paths, counts, none)", xstrndup (p, len), value);
          return false;
        }
      if (!comma)
        break;
      p = comma + 1;
    }
  if (none && opts.instrument)
    {
      error ("osp: %<instrument=none%> cannot be combined with other kinds");
      return false;
    }
  return true;
}

/* KEY=VALUE with VALUE a decimal integer from LO to HI (RANGE says so in
   words) into *OUT.  */
static bool
parse_number (const char *key, const char *value, uint64_t lo, uint64_t hi,
              const char *range, uint64_t *out)
{
  char *end;
  errno = 0;
  unsigned long long n = value && *value && ISDIGIT (*value)
                           ? strtoull (value, &end, 10) : 0;
  if (!value || !*value || !ISDIGIT (*value) || errno || *end || n < lo
      || n > hi)
    {
      error ("osp: bad value %qs for plugin argument %qs (accepted: %s)",
             value ? value : "", key, range);
      return false;
    }
  *out = n;
  return true;
}

/* Whether the target has the register-preserving trampolines of
   libosprt/trampoline.S: x86-64 with 64-bit pointers.  */
static bool
target_has_trampolines ()
{
#if defined (TARGET_64BIT) && defined (TARGET_X32)
  return TARGET_64BIT && !TARGET_X32;
#else
  return false;
#endif
}

/* KEY=VALUE with VALUE either ON (*FLAG = true) or OFF (false).  */
static bool
parse_two_way (const char *key, const char *value, const char *on,
               const char *off, bool *flag)
{
  if (value && !strcmp (value, on))
    *flag = true;
  else if (value && !strcmp (value, off))
    *flag = false;
  else
    {
      error ("osp: bad value %qs for plugin argument %<%s%> (accepted: %s, %s)",
             value ? value : "", key, on, off);
      return false;
    }
  return true;
}

/* The most paths a function may have with instrument=counts: its counters
   take 8 bytes a path, in the program and again in the runtime.  */
static const uint64_t max_counted_paths = 1ull << 24;
static const uint64_t max_loop_free_counted = 4096;

static bool
parse_arguments (const struct plugin_name_args *info)
{
  opts.instrument = INSTRUMENT_BLOCKS | INSTRUMENT_PATHS;
  opts.verbose = false;
  opts.max_paths = 0;
  opts.counts_atomic = flag_profile_update != PROFILE_UPDATE_SINGLE;
  opts.preserving_calls = target_has_trampolines ();
  opts.batch_loops = true;
  opts.version_loops = true;
  opts.fold_tests = true;
  opts.plain_inline_sizes = true;
  opts.count_loop_free = 64;
  opts.profile = NULL;
  opts.late = false;
  bool ok = true;
  for (int i = 0; i < info->argc; i++)
    {
      const char *key = info->argv[i].key;
      const char *value = info->argv[i].value;
      if (!strcmp (key, "instrument"))
        ok &= parse_instrument (value);
      else if (!strcmp (key, "include"))
        ok &= parse_pattern_list (key, value, &opts.include);
      else if (!strcmp (key, "exclude"))
        ok &= parse_pattern_list (key, value, &opts.exclude);
      else if (!strcmp (key, "max-paths"))
        ok &= parse_number (key, value, 2, 1ull << 62,
                            "an integer from 2 to 2^62", &opts.max_paths);
      else if (!strcmp (key, "calls"))
        {
          if (value && !strcmp (value, "plain"))
            opts.preserving_calls = false;
          else if (value && !strcmp (value, "preserving")
                   && target_has_trampolines ())
            opts.preserving_calls = true;
          else if (value && !strcmp (value, "preserving"))
            {
              error ("osp: %<calls=preserving%> needs an x86-64 target "
                     "(where the runtime has its trampolines); use %<calls=plain%>");
              ok = false;
            }
          else
            {
              error ("osp: bad value %qs for plugin argument %<calls%> "
                     "(accepted: preserving, plain)", value ? value : "");
              ok = false;
            }
        }
      else if (!strcmp (key, "batch-loops"))
        ok &= parse_two_way (key, value, "yes", "no", &opts.batch_loops);
      else if (!strcmp (key, "version-loops"))
        ok &= parse_two_way (key, value, "yes", "no", &opts.version_loops);
      else if (!strcmp (key, "fold-tests"))
        ok &= parse_two_way (key, value, "yes", "no", &opts.fold_tests);
      else if (!strcmp (key, "inline-sizes"))
        ok &= parse_two_way (key, value, "plain", "instrumented",
                             &opts.plain_inline_sizes);
      else if (!strcmp (key, "count-loop-free"))
        ok &= parse_number (key, value, 0, max_loop_free_counted,
                            "an integer from 0 to 4096",
                            &opts.count_loop_free);
      else if (!strcmp (key, "counts-update"))
        {
          bool single = !opts.counts_atomic;
          ok &= parse_two_way (key, value, "single", "atomic", &single);
          opts.counts_atomic = !single;
        }
      else if (!strcmp (key, "profile"))
        {
          if (!value || !*value)
            {
              error ("osp: plugin argument %<profile%> needs a value: an osp "
                     "tsv report of a previous run");
              ok = false;
            }
          else if (!load_profile (value))
            ok = false;
          else
            opts.profile = value;
        }
      else if (!strcmp (key, "placement"))
        {
          bool early = !opts.late;
          ok &= parse_two_way (key, value, "early", "late", &early);
          opts.late = !early;
        }
      else if (!strcmp (key, "verbose"))
        {
          if (!value || !strcmp (value, "1"))
            opts.verbose = true;
          else if (!strcmp (value, "0"))
            opts.verbose = false;
          else
            {
              error ("osp: bad value %qs for plugin argument %<verbose%> "
                     "(accepted: 0, 1, or no value)", value);
              ok = false;
            }
        }
      else
        {
          error ("osp: unknown plugin argument %qs (accepted: %s)", key,
                 accepted_keys);
          ok = false;
        }
    }
  bool counts = opts.instrument & INSTRUMENT_COUNTS;
  if (counts && opts.max_paths > max_counted_paths)
    {
      error ("osp: %<max-paths=%llu%> is too large for %<instrument=counts%> "
             "(at most %llu: each path has an 8-byte counter)",
             (unsigned long long) opts.max_paths,
             (unsigned long long) max_counted_paths);
      ok = false;
    }
  if (!opts.max_paths)
    opts.max_paths = counts ? 4096 : 1ull << 40;
  if (opts.late && flag_lto)
    {
      error ("osp: %<placement=late%> does not work with %<-flto%> (the pass "
             "would run at link time); use %<placement=early%>");
      ok = false;
    }
  return ok;
}

/* plugin_default_version_check only says "incompatible"; name both
   compilers so the user knows which one to rebuild osp for.  */
static bool
check_gcc_version (struct plugin_gcc_version *running)
{
  if (plugin_default_version_check (running, &gcc_version))
    return true;
  error ("osp: this osp.so was built for GCC %s (%s, %s) but is loaded by "
         "GCC %s (%s, %s); rebuild osp with the compiler that loads it",
         gcc_version.basever, gcc_version.datestamp, gcc_version.devphase,
         running->basever, running->datestamp, running->devphase);
  return false;
}

/* Run PASS right after the first instance of the pass named REFERENCE.  */
static void
insert_pass_after (struct plugin_name_args *info, opt_pass *pass,
                   const char *reference)
{
  struct register_pass_info where;
  where.pass = pass;
  where.reference_pass_name = reference;
  where.ref_pass_instance_number = 1;
  where.pos_op = PASS_POS_INSERT_AFTER;
  register_callback (info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL,
                     &where);
}

} // namespace osp

int
plugin_init (struct plugin_name_args *info,
             struct plugin_gcc_version *version)
{
  using namespace osp;
  if (!check_gcc_version (version))
    return 1;
  if (!parse_arguments (info))
    return 1;

  register_callback (info->base_name, PLUGIN_INFO, NULL, &osp_plugin_info);
  register_callback (info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
                     (void *) gc_roots);

  /* Early: after the early inliner: runs at every -O level, sees the
     inlining decisions of the plain build, and runs before LTO streaming.
     Late: after the IPA passes, before pass_all_optimizations (a pass
     inside it would miss -O0).  */
  insert_pass_after (info, make_instrument_pass (g),
                     opts.late ? "adjust_alignment" : "einline");
  /* After the IPA inliner, where placement=late instruments; its gate
     leaves the work to "osp" when that pass versions the loops itself.  */
  insert_pass_after (info, make_versions_pass (g), "adjust_alignment");
  /* After it: a folded run's first test is no longer one that
     versions.cc recognises.  */
  insert_pass_after (info, make_runs_pass (g), "osp_versions");
  /* Between the IPA inliner's measuring of every function and its
     decisions (sizes.cc).  */
  insert_pass_after (info, make_sizes_pass (g), "fnsummary");
  /* The last GIMPLE pass, at every -O level (hooks.cc).  */
  insert_pass_after (info, make_pin_pass (g), "optimized");

  if (opts.late)
    {
      register_callback (info->base_name, PLUGIN_FINISH_UNIT,
                         finish_unit_register, NULL);
      return 0;
    }
  /* The registration constructor must exist before LTO streams the unit
     out; a PLUGIN_FINISH_UNIT constructor is silently lost under -flto.  */
  insert_pass_after (info, make_register_pass (g), "profile");
  return 0;
}

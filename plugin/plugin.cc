/* SPDX-License-Identifier: GPL-3.0-or-later */
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
 *   path-checks=shared|own
 *                     whether, in a function with block hooks, the path
 *                     checks test the block hooks' countdown (shared: a
 *                     load and a compare, no store; the default) or
 *                     decrement a countdown of their own (probes.cc)
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
 *   tls=local-exec|initial-exec
 *                     how the code reaches the per-thread countdowns in a
 *                     unit for an executable (-fPIE, or no -fPIC): at a
 *                     constant offset from the thread pointer, the unit
 *                     defining them weakly (local-exec, the default: no
 *                     register holds their offset, so frames do not grow),
 *                     or through the GOT (initial-exec, as -fPIC units
 *                     always do: for -fPIE objects that go into a shared
 *                     library, which cannot link local-exec ones); hooks.cc
 *   promote-countdowns=yes|no
 *                     whether a function carries the countdowns in a
 *                     register between calls (loaded after each call,
 *                     stored before each call and return) instead of in
 *                     thread-local memory at every hook (default yes; only
 *                     when optimizing; promote.cc)
 *   fold-hooks=yes|no whether a block hook of a promoted countdown becomes
 *                     one asm statement whose call is out of line, instead
 *                     of a test and a cold block: fewer blocks for GCC's
 *                     RTL passes (default yes; x86-64; fold.cc)
 *   include=PATTERNS  comma-separated fnmatch(3) patterns; only matching
 *                     functions are instrumented (default: all)
 *   exclude=PATTERNS  functions matching any pattern are left alone; exclude
 *                     wins over include
 *   max-fn-blocks=N, max-fn-stmts=N
 *                     a function with more basic blocks or statements
 *                     gets no versioned copies, only the plain
 *                     instrumentation (default 5000 and 30000; 0..2^31)
 *   max-growth=PERCENT
 *                     the versioned copies of a function add at most this
 *                     share of its blocks and statements (default 100,
 *                     0..1000)
 *   min-growth-blocks=N
 *                     or N blocks and 8 N statements if that is more
 *                     (default 300; 0..2^20)
 *   max-unit-growth=N the copies of a translation unit add at most N
 *                     statements (default 200000; 0..2^31); budget.cc
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
 *     then "osp_promote" keeps the countdowns in registers between calls
 *     (promote.cc) and "osp_fold" makes each of their block hooks one asm
 *     statement (fold.cc), the last GIMPLE passes;
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
tree path_end_shared_decl;
tree register_decl;
tree release_decl;
tree record_type;

/* Its help is made from the option table (plugin_init).  */
static struct plugin_info osp_plugin_info = { OSP_VERSION, NULL };

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
  { &path_end_shared_decl, 1, sizeof (path_end_shared_decl),
    &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
  { &register_decl, 1, sizeof (register_decl), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &release_decl, 1, sizeof (release_decl), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  { &record_type, 1, sizeof (record_type), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

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

/* The most paths a function may have with instrument=counts: its counters
   take 8 bytes a path, in the program and again in the runtime.  */
static const uint64_t max_counted_paths = 1ull << 24;
static const uint64_t max_loop_free_counted = 4096;

static bool
counts_atomic_by_default ()
{
  return flag_profile_update != PROFILE_UPDATE_SINGLE;
}

/* calls=preserving where there are no trampolines to call.  */
static bool
check_calls ()
{
  if (!opts.preserving_calls || target_has_trampolines ())
    return true;
  error ("osp: %<calls=preserving%> needs an x86-64 target "
         "(where the runtime has its trampolines); use %<calls=plain%>");
  return false;
}

static void
reset_instrument ()
{
  opts.instrument = INSTRUMENT_BLOCKS | INSTRUMENT_PATHS;
}

static bool
parse_profile (const char *, const char *value)
{
  if (!value || !*value)
    {
      error ("osp: plugin argument %<profile%> needs a value: an osp "
             "tsv report of a previous run");
      return false;
    }
  if (!load_profile (value))
    return false;
  opts.profile = value;
  return true;
}

static void
reset_profile ()
{
  opts.profile = NULL;
}

/* The plugin's arguments, -fplugin-arg-osp-NAME[=VALUE], as data: the one
   place that says what each key accepts, what it sets and its default.
   parse_arguments reads it, and the accepted-keys text of its errors and
   the help of PLUGIN_INFO are made from it, in its order.  */
enum option_kind
{
  OPT_CHOICE,   /* one of NAMES, setting FLAG to VALUES[i] */
  OPT_NUMBER,   /* a decimal integer from LOW to HIGH into NUMBER */
  OPT_PATTERNS, /* comma-separated fnmatch(3) patterns added to PATTERNS */
  OPT_SWITCH,   /* no value or 1 (FLAG true), 0 (false) */
  OPT_CUSTOM    /* PARSE reads VALUE, written SYNTAX; RESET is the default */
};

struct option_desc
{
  const char *name;
  option_kind kind;
  bool options::*flag;                    /* OPT_CHOICE, OPT_SWITCH */
  uint64_t options::*number;              /* OPT_NUMBER */
  vec<const char *> options::*patterns;   /* OPT_PATTERNS */
  uint64_t low, high;                     /* OPT_NUMBER */
  uint64_t default_value;                 /* FLAG's or NUMBER's */
  bool (*dynamic_default) ();             /* FLAG's, when it depends on GCC */
  const char *names[2];                   /* OPT_CHOICE, in the help's order */
  bool values[2];                         /* ... and what each sets FLAG to */
  bool (*check) ();                       /* OPT_CHOICE: after it is set */
  bool (*parse) (const char *key, const char *value); /* OPT_CUSTOM */
  void (*reset) ();                       /* OPT_CUSTOM */
  const char *syntax;                     /* OPT_CUSTOM */
};

static option_desc
choice (const char *name, bool options::*flag, const char *a, bool va,
        const char *b, bool vb, bool dflt, bool (*dynamic_default) () = NULL,
        bool (*check) () = NULL)
{
  option_desc d = {};
  d.name = name, d.kind = OPT_CHOICE, d.flag = flag;
  d.names[0] = a, d.values[0] = va, d.names[1] = b, d.values[1] = vb;
  d.default_value = dflt, d.dynamic_default = dynamic_default;
  d.check = check;
  return d;
}

static option_desc
number (const char *name, uint64_t options::*field, uint64_t low,
        uint64_t high, uint64_t dflt)
{
  option_desc d = {};
  d.name = name, d.kind = OPT_NUMBER, d.number = field;
  d.low = low, d.high = high, d.default_value = dflt;
  return d;
}

static option_desc
patterns (const char *name, vec<const char *> options::*field)
{
  option_desc d = {};
  d.name = name, d.kind = OPT_PATTERNS, d.patterns = field;
  return d;
}

static option_desc
on_off (const char *name, bool options::*flag, bool dflt)
{
  option_desc d = {};
  d.name = name, d.kind = OPT_SWITCH, d.flag = flag, d.default_value = dflt;
  return d;
}

static option_desc
custom (const char *name, const char *syntax,
        bool (*parse) (const char *, const char *), void (*reset) ())
{
  option_desc d = {};
  d.name = name, d.kind = OPT_CUSTOM, d.syntax = syntax;
  d.parse = parse, d.reset = reset;
  return d;
}

static const option_desc option_table[] = {
  custom ("instrument", "blocks,paths,counts|none",
          [] (const char *, const char *value) {
            return parse_instrument (value);
          }, reset_instrument),
  patterns ("include", &options::include),
  patterns ("exclude", &options::exclude),
  /* 0: the default depends on instrument= (parse_arguments).  */
  number ("max-paths", &options::max_paths, 2, 1ull << 62, 0),
  choice ("counts-update", &options::counts_atomic, "single", false,
          "atomic", true, false, counts_atomic_by_default),
  choice ("calls", &options::preserving_calls, "preserving", true, "plain",
          false, false, target_has_trampolines, check_calls),
  choice ("path-checks", &options::shared_checks, "shared", true, "own",
          false, true),
  choice ("batch-loops", &options::batch_loops, "yes", true, "no", false,
          true),
  choice ("version-loops", &options::version_loops, "yes", true, "no", false,
          true),
  choice ("fold-tests", &options::fold_tests, "yes", true, "no", false, true),
  choice ("inline-sizes", &options::plain_inline_sizes, "plain", true,
          "instrumented", false, true),
  number ("count-loop-free", &options::count_loop_free, 0,
          max_loop_free_counted, 64),
  custom ("profile", "FILE", parse_profile, reset_profile),
  choice ("placement", &options::late, "early", false, "late", true, false),
  choice ("tls", &options::tls_local_exec, "local-exec", true,
          "initial-exec", false, true),
  choice ("promote-countdowns", &options::promote_countdowns, "yes", true,
          "no", false, true),
  choice ("fold-hooks", &options::fold_hooks, "yes", true, "no", false,
          true),
  number ("max-fn-blocks", &options::max_fn_blocks, 0, 1ull << 31, 5000),
  number ("max-fn-stmts", &options::max_fn_stmts, 0, 1ull << 31, 30000),
  number ("max-growth", &options::max_growth, 0, 1000, 100),
  number ("min-growth-blocks", &options::min_growth_blocks, 0, 1ull << 20,
          300),
  number ("max-unit-growth", &options::max_unit_growth, 0, 1ull << 31,
          200000),
  on_off ("verbose", &options::verbose, false),
};

/* "an integer from LOW to HIGH", powers of two above 2^16 written 2^K.  */
static const char *
number_range (const option_desc &d)
{
  auto str = [] (uint64_t n) {
    if (n > (1u << 16) && (n & (n - 1)) == 0)
      return xasprintf ("2^%d", exact_log2 (n));
    return xasprintf ("%llu", (unsigned long long) n);
  };
  return xasprintf ("an integer from %s to %s", str (d.low), str (d.high));
}

/* Set D's option from VALUE (NULL: none given).  */
static bool
parse_option (const option_desc &d, const char *value)
{
  const char *key = d.name;
  switch (d.kind)
    {
    case OPT_CHOICE:
      for (int i = 0; i < 2; i++)
        if (value && !strcmp (value, d.names[i]))
          {
            opts.*d.flag = d.values[i];
            return !d.check || d.check ();
          }
      error ("osp: bad value %qs for plugin argument %<%s%> (accepted: %s, %s)",
             value ? value : "", key, d.names[0], d.names[1]);
      return false;
    case OPT_NUMBER:
      {
        char *end;
        errno = 0;
        unsigned long long n = value && *value && ISDIGIT (*value)
                                 ? strtoull (value, &end, 10) : 0;
        if (!value || !*value || !ISDIGIT (*value) || errno || *end
            || n < d.low || n > d.high)
          {
            error ("osp: bad value %qs for plugin argument %qs (accepted: %s)",
                   value ? value : "", key, number_range (d));
            return false;
          }
        opts.*d.number = n;
        return true;
      }
    case OPT_PATTERNS:
      return parse_pattern_list (key, value, &(opts.*d.patterns));
    case OPT_SWITCH:
      if (!value || !strcmp (value, "1"))
        opts.*d.flag = true;
      else if (!strcmp (value, "0"))
        opts.*d.flag = false;
      else
        {
          error ("osp: bad value %qs for plugin argument %<%s%> "
                 "(accepted: 0, 1, or no value)", value, key);
          return false;
        }
      return true;
    case OPT_CUSTOM:
      return d.parse (key, value);
    }
  gcc_unreachable ();
}

/* The table's keys joined by ", " (errors), or with their values
   ("instrument=...", the help of PLUGIN_INFO).  */
static const char *
option_keys (bool with_values)
{
  char *text = xstrdup ("");
  for (const option_desc &d : option_table)
    {
      const char *sep = *text ? ", " : "";
      if (!with_values)
        text = reconcat (text, text, sep, d.name, NULL);
      else if (d.kind == OPT_CHOICE)
        text = reconcat (text, text, sep, d.name, "=", d.names[0], "|",
                         d.names[1], NULL);
      else
        text = reconcat (text, text, sep, d.name,
                         d.kind == OPT_NUMBER ? "=N"
                         : d.kind == OPT_PATTERNS ? "=PATTERNS"
                         : d.kind == OPT_SWITCH ? "[=0|1]" : "=",
                         d.kind == OPT_CUSTOM ? d.syntax : "", NULL);
    }
  return text;
}

static bool
parse_arguments (const struct plugin_name_args *info)
{
  for (const option_desc &d : option_table)
    switch (d.kind)
      {
      case OPT_CHOICE:
      case OPT_SWITCH:
        opts.*d.flag = d.dynamic_default ? d.dynamic_default ()
                                         : d.default_value;
        break;
      case OPT_NUMBER:
        opts.*d.number = d.default_value;
        break;
      case OPT_PATTERNS:
        break;
      case OPT_CUSTOM:
        d.reset ();
        break;
      }
  bool ok = true;
  for (int i = 0; i < info->argc; i++)
    {
      const char *key = info->argv[i].key;
      const option_desc *d = NULL;
      for (const option_desc &o : option_table)
        if (!strcmp (key, o.name))
          d = &o;
      if (d)
        ok &= parse_option (*d, info->argv[i].value);
      else
        {
          error ("osp: unknown plugin argument %qs (accepted: %s)", key,
                 option_keys (false));
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

  osp_plugin_info.help = concat ("osp: online hot-subpath profiler.  Keys: ",
                                 option_keys (true), NULL);
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
  /* After it: a countdown between calls in a register (promote.cc).  */
  insert_pass_after (info, make_promote_pass (g), "osp_pin");
  /* After it: the promoted hooks without cold blocks (fold.cc).  */
  insert_pass_after (info, make_fold_pass (g), "osp_promote");

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

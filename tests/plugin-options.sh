#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/plugin-options.sh - the plugin's -fplugin-arg-osp-KEY[=VALUE] handling:
#   - an unknown key or a bad value is a compile error (no output file, no compiler crash)
#     that names the key and lists the accepted keys/values;
#   - instrument=blocks,paths,counts|none, max-paths=N, counts-update=single|atomic,
#     path-checks=shared|own (tests/path-checks.sh), batch-loops=yes|no, version-loops=yes|no, fold-tests=yes|no,
#     promote-countdowns=yes|no, fold-hooks=yes|no, inline-sizes=plain|instrumented,
#     count-loop-free=N, max-fn-blocks=N, max-fn-stmts=N, max-growth=N, min-growth-blocks=N,
#     max-unit-growth=N
#     (their budget messages: tests/compile-budget.sh), profile=FILE, placement=early|late (late is
#     refused with -flto), include=/exclude= fnmatch
#     pattern lists (exclude wins),
#     verbose: one note per function ("osp: instrumented F: N blocks", "osp: skipped F: WHY");
#   - the program's output never changes.
# The set of instrumented functions is read from the report's function rows.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup plugin-options
osp_need_build
src=$OSP_TESTSRC/progs/options.c
ALL="alpha_one alpha_two beta_one gamma_fn main"

osp_compile "$W/plain" plain_cc -O1 "$src" -o "$W/plain" || { osp_fail "plain build"; osp_done; }
osp_exec "$W/plain" "$W/plain"
prc=$osp_rc

# must_fail TAG EXPECTED-TEXT ARGS...: the compile must fail with EXPECTED-TEXT (a fixed
# string) in its messages.
must_fail ()
{
  tag=$1 text=$2
  shift 2
  rm -f "$W/$tag"
  if osp_cc -O1 "$@" "$src" -o "$W/$tag" > "$W/$tag.cc.err" 2>&1; then
    osp_fail "$tag: compiling with $* succeeded; it must be an error"
    osp_show "$W/$tag.cc.err" "compiler messages"
    return
  fi
  if grep -q -i -e 'internal compiler error' -e 'Segmentation fault' -e 'killed signal' "$W/$tag.cc.err"; then
    osp_fail "$tag: the compiler crashed on $*"
    osp_show "$W/$tag.cc.err" "compiler messages"
    return
  fi
  if ! grep -F -q -e "$text" "$W/$tag.cc.err"; then
    osp_fail "$tag: the messages for $* do not contain: $text"
    osp_show "$W/$tag.cc.err" "compiler messages"
    return
  fi
  [ -e "$W/$tag" ] && osp_fail "$tag: an output file was written despite the error"
  echo "ok: $tag: $(grep -F -m 1 -e "$text" "$W/$tag.cc.err")"
}

must_fail unknown-key "osp: unknown plugin argument 'bogus' (accepted: instrument, include, exclude, max-paths, counts-update, calls, path-checks, batch-loops, version-loops, fold-tests, inline-sizes, count-loop-free, profile, placement, tls, promote-countdowns, fold-hooks, max-fn-blocks, max-fn-stmts, max-growth, min-growth-blocks, max-unit-growth, verbose)" \
  -fplugin-arg-osp-bogus=1
must_fail unknown-key-novalue "osp: unknown plugin argument 'edges' (accepted: instrument, include, exclude, max-paths, counts-update, calls, path-checks, batch-loops, version-loops, fold-tests, inline-sizes, count-loop-free, profile, placement, tls, promote-countdowns, fold-hooks, max-fn-blocks, max-fn-stmts, max-growth, min-growth-blocks, max-unit-growth, verbose)" \
  -fplugin-arg-osp-edges
must_fail unknown-key-among-good "unknown plugin argument 'Include'" \
  -fplugin-arg-osp-verbose -fplugin-arg-osp-Include=main
must_fail bad-instrument "accepted: blocks, paths, counts, none" -fplugin-arg-osp-instrument=edges
must_fail none-and-counts "cannot be combined" -fplugin-arg-osp-instrument=counts,none
must_fail bad-counts-update "bad value 'relaxed' for plugin argument 'counts-update' (accepted: single, atomic)" \
  -fplugin-arg-osp-counts-update=relaxed
must_fail empty-counts-update "plugin argument 'counts-update' (accepted: single, atomic)" \
  -fplugin-arg-osp-counts-update
must_fail bad-path-checks "bad value 'mine' for plugin argument 'path-checks' (accepted: shared, own)" \
  -fplugin-arg-osp-path-checks=mine
must_fail bad-batch-loops "bad value 'maybe' for plugin argument 'batch-loops' (accepted: yes, no)" \
  -fplugin-arg-osp-batch-loops=maybe
must_fail empty-batch-loops "plugin argument 'batch-loops' (accepted: yes, no)" \
  -fplugin-arg-osp-batch-loops
must_fail bad-version-loops "bad value 'always' for plugin argument 'version-loops' (accepted: yes, no)" \
  -fplugin-arg-osp-version-loops=always
must_fail bad-fold-tests "bad value 'maybe' for plugin argument 'fold-tests' (accepted: yes, no)" \
  -fplugin-arg-osp-fold-tests=maybe
must_fail bad-promote-countdowns "bad value 'some' for plugin argument 'promote-countdowns' (accepted: yes, no)" \
  -fplugin-arg-osp-promote-countdowns=some
must_fail bad-fold-hooks "bad value 'maybe' for plugin argument 'fold-hooks' (accepted: yes, no)" \
  -fplugin-arg-osp-fold-hooks=maybe
must_fail bad-inline-sizes "bad value 'small' for plugin argument 'inline-sizes' (accepted: plain, instrumented)" \
  -fplugin-arg-osp-inline-sizes=small
must_fail bad-count-loop-free "bad value 'all' for plugin argument 'count-loop-free' (accepted: an integer from 0 to 4096)" \
  -fplugin-arg-osp-count-loop-free=all
must_fail big-count-loop-free "bad value '4097' for plugin argument 'count-loop-free' (accepted: an integer from 0 to 4096)" \
  -fplugin-arg-osp-count-loop-free=4097
must_fail empty-count-loop-free "plugin argument 'count-loop-free' (accepted: an integer from 0 to 4096)" \
  -fplugin-arg-osp-count-loop-free
must_fail bad-max-growth "bad value '1001' for plugin argument 'max-growth' (accepted: an integer from 0 to 1000)" \
  -fplugin-arg-osp-max-growth=1001
must_fail big-min-growth-blocks "bad value '1048577' for plugin argument 'min-growth-blocks' (accepted: an integer from 0 to 2^20)" \
  -fplugin-arg-osp-min-growth-blocks=1048577
must_fail bad-min-growth-blocks "bad value '3x' for plugin argument 'min-growth-blocks' (accepted: an integer from 0 to 2^20)" \
  -fplugin-arg-osp-min-growth-blocks=3x
must_fail empty-min-growth-blocks "plugin argument 'min-growth-blocks' (accepted: an integer from 0 to 2^20)" \
  -fplugin-arg-osp-min-growth-blocks
must_fail bad-max-fn-blocks "bad value '-1' for plugin argument 'max-fn-blocks' (accepted: an integer from 0 to 2^31)" \
  -fplugin-arg-osp-max-fn-blocks=-1
must_fail empty-max-fn-stmts "plugin argument 'max-fn-stmts' (accepted: an integer from 0 to 2^31)" \
  -fplugin-arg-osp-max-fn-stmts
must_fail big-max-unit-growth "bad value '2147483649' for plugin argument 'max-unit-growth' (accepted: an integer from 0 to 2^31)" \
  -fplugin-arg-osp-max-unit-growth=2147483649
must_fail bad-placement "bad value 'sideways' for plugin argument 'placement' (accepted: early, late)" \
  -fplugin-arg-osp-placement=sideways
must_fail late-lto "'placement=late' does not work with '-flto'" -flto -fplugin-arg-osp-placement=late
must_fail bad-calls "bad value 'fast' for plugin argument 'calls' (accepted: preserving, plain)" \
  -fplugin-arg-osp-calls=fast
must_fail counts-max-paths "too large for 'instrument=counts' (at most 16777216" \
  -fplugin-arg-osp-instrument=counts -fplugin-arg-osp-max-paths=16777217
must_fail none-and-paths "cannot be combined" -fplugin-arg-osp-instrument=none,paths
must_fail bad-max-paths "max-paths" -fplugin-arg-osp-max-paths=1
must_fail huge-max-paths "max-paths" -fplugin-arg-osp-max-paths=99999999999999999999
must_fail empty-profile "profile" -fplugin-arg-osp-profile=
must_fail missing-profile "cannot read profile" -fplugin-arg-osp-profile=/nonexistent/osp.tsv
printf '# osp-report 1 mode=blocks\nfunction\t1\tmain\tx.c\t1\t1\t1\n' > "$W/noedges.tsv"
must_fail profile-without-edges "has no edge rows" -fplugin-arg-osp-profile="$W/noedges.tsv"
printf '# osp-report 1 mode=blocks\nedge\t1\tzero\t0\t1\t5\t5\n' > "$W/badedge.tsv"
must_fail profile-bad-row "line 2: malformed" -fplugin-arg-osp-profile="$W/badedge.tsv"
must_fail empty-instrument "instrument" -fplugin-arg-osp-instrument=
must_fail bad-verbose "verbose" -fplugin-arg-osp-verbose=2
must_fail empty-include "include" -fplugin-arg-osp-include=
must_fail empty-exclude-item "exclude" -fplugin-arg-osp-exclude=main,,gamma_fn

# run_with TAG EXPECTED-FUNCTIONS ARGS...: build with ARGS, run, compare with the plain run,
# and require the report's function rows to name exactly EXPECTED-FUNCTIONS.
run_with ()
{
  tag=$1 want=$2
  shift 2
  b=$W/$tag
  if ! osp_compile "$b" osp_cc -O1 "$@" "$src" -o "$b"; then
    osp_fail "$tag: build with $* failed"
    return 1
  fi
  osp_exec_with "mode=blocks:report=$b.tsv:report_format=tsv" "$b" "$b"
  [ "$osp_rc" = "$prc" ] || osp_fail "$tag: exit status $osp_rc, plain $prc"
  osp_same "$tag stdout" "$W/plain.out" "$b.out"
  osp_same "$tag stderr" "$W/plain.err" "$b.err"
  if [ ! -f "$b.tsv" ]; then
    # With no function instrumented there may be nothing to report.
    if [ -z "$want" ]; then
      echo "ok: $tag: $* -> no report (nothing instrumented)"
      return 0
    fi
    osp_fail "$tag: no report"
    return 1
  fi
  osp_check_report "$b.tsv" || osp_fail "$tag: malformed report"
  got=$(awk -F '\t' '$1 == "function" { print $3 }' "$b.tsv" | sort | tr '\n' ' ' | sed 's/ $//')
  want=$(echo "$want" | tr ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' ' | sed 's/ $//')
  if [ "$got" != "$want" ]; then
    osp_fail "$tag ($*): instrumented functions are '$got', expected '$want'"
    return 1
  fi
  echo "ok: $tag: $* -> {$got}"
}

run_with default "$ALL"
run_with blocks "$ALL" -fplugin-arg-osp-instrument=blocks
[ "$(osp_calls "$W/blocks.tsv" alpha_one)" = 30 ] ||
  osp_fail "instrument=blocks: alpha_one has $(osp_calls "$W/blocks.tsv" alpha_one) calls, expected 30"
run_with include-glob "alpha_one alpha_two" -fplugin-arg-osp-include='alpha_*'
run_with include-list "alpha_one alpha_two gamma_fn" -fplugin-arg-osp-include='alpha_*,gamma_fn'
run_with include-twice "alpha_two main" -fplugin-arg-osp-include='alpha_t?o' -fplugin-arg-osp-include=main
run_with exclude-glob "beta_one gamma_fn main" -fplugin-arg-osp-exclude='alpha_*'
run_with exclude-wins "alpha_one main" -fplugin-arg-osp-include='*_one,main' -fplugin-arg-osp-exclude='beta*'
run_with include-class "alpha_one beta_one" -fplugin-arg-osp-include='[ab]*_one'
run_with include-nomatch "" -fplugin-arg-osp-include=no_such_function
run_with late "$ALL" -fplugin-arg-osp-placement=late
[ "$(osp_calls "$W/late.tsv" alpha_one)" = 30 ] ||
  osp_fail "placement=late: alpha_one has $(osp_calls "$W/late.tsv" alpha_one) calls, expected 30"
run_with include-late "gamma_fn main" -fplugin-arg-osp-placement=late -fplugin-arg-osp-include='gamma_fn,main'
run_with early "$ALL" -fplugin-arg-osp-placement=late -fplugin-arg-osp-placement=early
run_with include-lto "gamma_fn main" -flto -fplugin-arg-osp-include='gamma_fn,main'
[ "$(osp_calls "$W/include-lto.tsv" gamma_fn)" = 1 ] ||
  osp_fail "include-lto: gamma_fn has $(osp_calls "$W/include-lto.tsv" gamma_fn) calls, expected 1"

# placement=late: an IPA-CP clone is its own function, "scale.constprop", and include=/exclude=
# also match it by the name of the function it was made from.
cat > "$W/clone.c" << 'EOF'
#include <stdio.h>
#include <stdlib.h>
__attribute__ ((noinline)) static int
scale (int n, int k)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i % k ? i : -i;
  return s;
}
int main (int argc, char **argv)
{
  int n = argc > 5 ? atoi (argv[1]) : 100;
  printf ("%d %d\n", scale (n, 3), scale (n + 1, 3));
  return 0;
}
EOF
for how in include exclude; do
  b=$W/clone-$how
  if osp_compile "$b" osp_cc -O2 -fplugin-arg-osp-placement=late -fplugin-arg-osp-$how=scale \
       "$W/clone.c" -o "$b"; then
    osp_exec_with "mode=blocks:report=$b.tsv:report_format=tsv" "$b" "$b"
    rows=$(awk -F '\t' '$1 == "function" { printf "%s ", $3 }' "$b.tsv" 2> /dev/null)
    case "$how:$rows" in
      include:"scale.constprop ") echo "ok: clone-include: {$rows}" ;;
      exclude:"main ") echo "ok: clone-exclude: {$rows}" ;;
      *) osp_fail "clone-$how: placement=late $how=scale instrumented {$rows}" ;;
    esac
  else
    osp_fail "clone-$how: build failed"
  fi
done

# instrument=none: metadata only; no block is counted.
b=$W/none
if osp_compile "$b" osp_cc -O1 -fplugin-arg-osp-instrument=none "$src" -o "$b"; then
  osp_exec_with "mode=blocks:report=$b.tsv:report_format=tsv" "$b" "$b"
  [ "$osp_rc" = "$prc" ] || osp_fail "instrument=none: exit status $osp_rc, plain $prc"
  osp_same "instrument=none stdout" "$W/plain.out" "$b.out"
  if [ -f "$b.tsv" ]; then
    osp_check_report "$b.tsv" || osp_fail "instrument=none: malformed report"
    if awk -F '\t' '$1 == "block" || ($1 == "function" && $6 ~ /^[1-9]/) { f = 1 } END { exit !f }' "$b.tsv"; then
      osp_fail "instrument=none: the report has counts"
      osp_show "$b.tsv"
    else
      echo "ok: instrument=none: no counts"
    fi
  fi
  if nm "$b" 2>/dev/null | grep -q -e ' U __osp_block_hook' -e ' U __osp_path_end'; then
    osp_fail "instrument=none: the program still calls __osp_block_hook or __osp_path_end"
  fi
else
  osp_fail "instrument=none: build failed"
fi

# instrument=counts: the exact path profile without a runtime call: no hook, no check; the
# increments are plain by default and atomic (a lock-prefixed add) with counts-update=atomic.
for upd in single atomic; do
  b=$W/counts-$upd
  if osp_compile "$b" osp_cc -O1 -fplugin-arg-osp-instrument=counts \
       -fplugin-arg-osp-counts-update=$upd "$src" -o "$b" &&
     osp_compile "$b.s" osp_cc -O1 -S -fplugin-arg-osp-instrument=counts \
       -fplugin-arg-osp-counts-update=$upd "$src" -o "$b.s"; then
    osp_exec_with "paths=exhaustive:report=$b.tsv:report_format=tsv" "$b" "$b"
    [ "$osp_rc" = "$prc" ] || osp_fail "instrument=counts ($upd): exit status $osp_rc, plain $prc"
    osp_same "instrument=counts ($upd) stdout" "$W/plain.out" "$b.out"
    if nm "$b" | grep -q -e ' U __osp_block_hook' -e ' U __osp_path_end'; then
      osp_fail "instrument=counts ($upd): the program calls __osp_block_hook or __osp_path_end"
    fi
    locks=$(grep -c '^[[:space:]]*lock' "$b.s")
    if [ $upd = atomic ] && [ "$locks" -eq 0 ]; then
      osp_fail "counts-update=atomic: no lock-prefixed instruction in the assembly"
    elif [ $upd = single ] && [ "$locks" -ne 0 ]; then
      osp_fail "counts-update=single: $locks lock-prefixed instructions in the assembly"
    fi
    # alpha_one runs 30 times, one path end each.
    n=$(awk -F '\t' '$1 == "function" && $3 == "alpha_one" { f = $2 }
                      $1 == "path" && $3 == f { n += $5 } END { print n + 0 }' "$b.tsv")
    if [ "$n" -eq 30 ]; then
      echo "ok: instrument=counts ($upd): alpha_one's paths counted $n times, $locks locked adds"
    else
      osp_fail "instrument=counts ($upd): alpha_one's paths counted $n times, expected 30"
      osp_show "$b.tsv"
    fi
    # With paths=exhaustive and the forest off, nothing to warn about; with the defaults (sampled
    # paths, the forest on) one line says that the prefix forest never sees these paths.
    osp_exec_with "report=none:forest=off:paths=exhaustive" "$b.q" "$b"
    [ -s "$b.q.err" ] && { osp_fail "instrument=counts ($upd): stderr with forest=off"; osp_show "$b.q.err"; }
    osp_exec_with "report=none" "$b.d" "$b"
    osp_same "instrument=counts ($upd) stdout, default options" "$W/plain.out" "$b.d.out"
    want="(and any other function built with instrument=counts alone) has path counters but no sample checks: the prefix forest never sees its paths"
    if [ "$(grep -c 'osp: ' "$b.d.err")" -ne 1 ] || ! grep -q -F "$want" "$b.d.err"; then
      osp_fail "instrument=counts ($upd), default options: expected one line: ...$want"
      osp_show "$b.d.err" stderr
    fi
  else
    osp_fail "instrument=counts ($upd): build failed"
  fi
done

# verbose: one note per function, with its block count; skipped functions say why.
b=$W/verbose
if osp_compile "$b" osp_cc -O1 -fplugin-arg-osp-verbose -fplugin-arg-osp-exclude=beta_one "$src" -o "$b"; then
  for f in alpha_one alpha_two gamma_fn main; do
    if ! grep -E -q "osp: instrumented $f: [0-9]+ blocks" "$b.cc.err"; then
      osp_fail "verbose: no note 'osp: instrumented $f: N blocks'"
      osp_show "$b.cc.err" "compiler messages"
    fi
  done
  grep -E -q "osp: skipped beta_one: ." "$b.cc.err" ||
    { osp_fail "verbose: no note 'osp: skipped beta_one: REASON'"; osp_show "$b.cc.err" "compiler messages"; }
  for f in alpha_one alpha_two beta_one gamma_fn main; do
    n=$(grep -c "osp: \(instrumented\|skipped\) $f: " "$b.cc.err")
    [ "$n" -eq 1 ] || { osp_fail "verbose: $n notes for $f, expected 1"; osp_show "$b.cc.err" "compiler messages"; }
  done
  # Every counted block index is below the function's block count from the note.
  osp_exec_with "mode=blocks:report=$b.tsv:report_format=tsv" "$b" "$b"
  osp_same "verbose stdout" "$W/plain.out" "$b.out"
  sed -n 's/.*osp: instrumented \([A-Za-z_0-9]*\): \([0-9]*\) blocks.*/\1 \2/p' "$b.cc.err" > "$b.nblocks"
  if ! awk -F '\t' 'FNR == NR { split($0, w, " "); nb[w[1]] = w[2]; next }
         $1 == "function" { name[$2] = $3 }
         $1 == "block" && !($2 in name) { next }
         $1 == "block" && $3 + 0 >= nb[name[$2]] + 0 { print "block " $3 " of " name[$2] " but the note says " nb[name[$2]] " blocks"; bad = 1 }
         END { exit bad }' "$b.nblocks" "$b.tsv"; then
    osp_fail "verbose: block indices beyond the noted block counts"
  fi
  # Without verbose there are no notes.
  osp_compile "$W/quiet" osp_cc -O1 "$src" -o "$W/quiet"
  if grep -q 'osp:' "$W/quiet.cc.err"; then
    osp_fail "without verbose the plugin printed:"
    osp_show "$W/quiet.cc.err"
  fi
else
  osp_fail "verbose: build failed"
fi

# GCC's -fdump-passes asks every pass's gate about a dummy function: it lists osp's pass and the
# compile goes on (an internal compiler error before, at every -O level).
for o in -O0 -O2; do
  b=$W/dump-passes$o
  if osp_compile "$b" osp_cc $o -fdump-passes "$src" -o "$b"; then
    grep -q "tree-osp  *: *ON" "$b.cc.err" ||
      { osp_fail "-fdump-passes $o: osp's pass not listed as on"; osp_show "$b.cc.err" "compiler messages"; }
  else
    osp_fail "-fdump-passes $o: build failed"
  fi
done
osp_done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/bench.sh - the benchmark harness (bench/run.sh, `make bench', issue 8) on this build tree:
# that its one command still builds, runs and reports, so that doc/PERFORMANCE.md can be
# reproduced, and that the twelve bench/ programs compute under every configuration exactly what
# the plain build computes.  No figure is a target here (the targets are the bench's, not the
# tests': README "Standards"); what is checked is that every figure is there and made of the
# right runs.
#
#   A  all 12 programs, every configuration, BENCH_SIZE=small, one round, accuracy on: exit 0,
#      "Errors and notes" says None (every run exited 0 and printed plain's checksum line), every
#      cell of tables 1, 3 and 4 is a ratio, the osp builds' code is larger than plain's, and
#      table 5 has each program's recalls and path and edge accuracies (>= 90%: computed from
#      real reports; the 95%/97% targets are tests/path-accuracy.sh's, at the default size).
#   B  sor under callgrind (configurations gcov osp-sample osp-skip pep bl-exact default
#      default-nopub, two rounds):
#      every configuration executes more instructions than plain, and osp-sample at least 5% more
#      than osp-skip, its own build with sampling off: the OSP_OPTIONS reach the runs.
#   C  errors are reported: a 1 ms cap on each run makes them time out; exit 1 and the errors
#      listed.  Bad arguments: one line on stderr, exit 2.
# About 2.5 minutes (A builds 8 variants of 12 programs three times each).

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup bench

RUN="$abs_top_srcdir/bench/run.sh"
PROGS="fft heapsort sor montecarlo sparse lu moldyn raytrace lexgen interp compress threads"
[ -x /usr/bin/time ] || { echo "SKIP: /usr/bin/time is missing (Debian package time)"; exit 77; }

# bench NAME VAR=VALUE...: run the harness with these knobs; markdown in $W/NAME.md, progress in
# $W/NAME.err, work files in $W/NAME, exit status in $rc.  Each run's caps are the suite's
# (osp_seconds, tests/env.sh: only to stop a hang), not the benchmark's defaults; a knob given
# overrides them (C's 1 ms).
bench ()
{
  b_name=$1
  shift
  env BENCH_WORK="$W/$b_name" BENCH_TIMEOUT="$(osp_seconds 120)" \
    BENCH_ACC_TIMEOUT="$(osp_seconds 120)" "$@" sh "$RUN" "$abs_top_builddir" > "$W/$b_name.md" 2> "$W/$b_name.err"
  rc=$?
}

# section FILE N: the lines of section "## N." of a report.
section ()
{
  awk -v n="$2" '/^## / { on = index($0, "## " n ".") == 1 } on' "$1"
}

# cells FILE N PROG: the cells of PROG's row in the (first) table of section N, one per line.
cells ()
{
  section "$1" "$2" | awk -F ' [|] ' -v p="$3" '
    $1 == "| " p && !done { for (i = 2; i <= NF; i++) { sub(/ [|]$/, "", $i); print $i }; done = 1 }'
}

# --- A: every program, every configuration ------------------------------------------------------
bench a BENCH_SIZE=small BENCH_RUNS=1 BENCH_NO_CALLGRIND=1
if [ "$rc" -ne 0 ]; then
  osp_fail "A: exit status $rc"
  osp_show "$W/a.err" "A progress"
fi
grep -q '^None: every run exited 0' "$W/a.md" ||
  { osp_fail "A: the report lists errors"; section "$W/a.md" Errors | head -n 30; }
ncfg=$(sed -n '/^| configuration | build | OSP_OPTIONS |$/,/^$/p' "$W/a.md" | grep -c '^| [a-z]')
[ "$ncfg" -eq 14 ] || osp_fail "A: $ncfg configuration rows listed, expected 14 (the heading, plain and 12)"
for p in $PROGS "**geomean**"; do
  # Table 1: plain's seconds, then 12 ratios with their range; table 3 likewise without ranges.
  n=$(cells "$W/a.md" 1 "$p" | grep -c -E '^(\*\*)?[0-9.]+×(\*\*)?( \[[0-9.]+–[0-9.]+\])?$')
  [ "$n" -eq 12 ] || { osp_fail "A: table 1 row $p has $n ratios, expected 12"; cells "$W/a.md" 1 "$p"; }
  n=$(cells "$W/a.md" 3 "$p" | grep -c -E '^(\*\*)?[0-9.]+×(\*\*)?$')
  [ "$n" -eq 12 ] || osp_fail "A: table 3 row $p has $n ratios, expected 12"
done
for p in $PROGS; do
  # Table 4: compile time (first table) and code size (second); osp's builds are larger.
  sizes=$(section "$W/a.md" 4 | awk -F ' [|] ' -v p="$p" '$1 == "| " p { n++ } $1 == "| " p && n == 2 {
            for (i = 3; i <= NF; i++) { sub(/ [|]$/, "", $i); print $i } }')
  n=$(echo "$sizes" | grep -c -E '^[0-9.]+×$')
  [ "$n" -eq 8 ] || osp_fail "A: code size row $p has $n ratios, expected 8"
  small=$(echo "$sizes" | sed -n '2,$p' | awk '{ sub(/×/, ""); if ($1 + 0 <= 1) n++ } END { print n + 0 }')
  [ "$small" -eq 0 ] || osp_fail "A: $small osp builds of $p are not larger than plain"
  # Table 5: size, recalls "a/5 / b/5" and "c/10 / d/10", then path and edge accuracies.
  row=$(section "$W/a.md" 5 | awk -F ' [|] ' -v p="$p" '$1 == "| " p { print $2, $3 "|" $4, $7, $9 }')
  echo "$row" | grep -q -E '^small [0-5]/5 / [0-5]/5[|][0-9]+/10 / [0-9]+/10 [0-9.]+ [0-9.]+$' ||
    { osp_fail "A: table 5 row $p: '$row'"; continue; }
  echo "$row" | awk '{ if ($(NF - 1) < 90 || $NF < 90) exit 1 }' ||
    osp_fail "A: $p's path or edge accuracy under 90%: $row"
done
[ "$osp_failures" -eq 0 ] && echo "ok: A: 12 programs x 12 configurations at small size: every run as plain, every table filled"

# --- B: instruction counts -----------------------------------------------------------------------
if command -v valgrind > /dev/null 2>&1; then
  f0=$osp_failures
  bench b BENCH_SIZE=small BENCH_RUNS=2 BENCH_NO_ACCURACY=1 BENCH_PROGS=sor \
    BENCH_CONFIGS="gcov osp-sample osp-skip pep bl-exact default default-nopub"
  [ "$rc" -eq 0 ] || { osp_fail "B: exit status $rc"; osp_show "$W/b.err" "B progress"; }
  ir () { cat "$W/b/cg/sor.$1.ir" 2> /dev/null; }
  for c in gcov osp-sample osp-skip pep bl-exact default default-nopub; do
    awk -v a="$(ir "$c")" -v b="$(ir plain)" 'BEGIN { exit !(a + 0 > b + 0 && b + 0 > 0) }' ||
      osp_fail "B: $c executes $(ir "$c") instructions, plain $(ir plain)"
  done
  awk -v a="$(ir osp-sample)" -v b="$(ir osp-skip)" 'BEGIN { exit !(a + 0 > 1.05 * b) }' ||
    osp_fail "B: osp-sample $(ir osp-sample) Ir, not 5% over osp-skip's $(ir osp-skip): sampling not on?"
  n=$(cells "$W/b.md" 2 sor | grep -c -E '^[0-9.]+×$')
  [ "$n" -eq 7 ] || osp_fail "B: table 2 row sor has $n ratios, expected 7"
  n=$(cells "$W/b.md" 1 sor | grep -c -E '^[0-9.]+× \[[0-9.]+–[0-9.]+\]$')
  [ "$n" -eq 7 ] || osp_fail "B: table 1 row sor has $n ratios with ranges, expected 7"
  [ "$osp_failures" -eq "$f0" ] &&
    echo "ok: B: sor's instructions: plain $(ir plain), osp-skip $(ir osp-skip), osp-sample $(ir osp-sample), pep $(ir pep), bl-exact $(ir bl-exact), default $(ir default), default-nopub $(ir default-nopub), gcov $(ir gcov)"
else
  echo "note: B skipped (no valgrind)"
fi

# --- C: errors and bad arguments ----------------------------------------------------------------
bench c BENCH_SIZE=small BENCH_RUNS=1 BENCH_NO_ACCURACY=1 BENCH_NO_CALLGRIND=1 BENCH_PROGS=sor \
  BENCH_CONFIGS=pep BENCH_TIMEOUT=0.001
[ "$rc" -eq 1 ] || osp_fail "C: exit status $rc with every run timing out, expected 1"
grep -q '^- wall sor pep round 0: timeout$' "$W/c.md" ||
  { osp_fail "C: the timed-out run is not listed"; section "$W/c.md" Errors; }
grep -q '^None' "$W/c.md" && osp_fail "C: 'None' with every run timing out"

# bad NAME WORD VAR=VALUE...: exit 2, no report, one line on stderr naming WORD.
bad ()
{
  bad_name=$1 bad_word=$2
  shift 2
  bench "$bad_name" "$@"
  [ "$rc" -eq 2 ] || osp_fail "$bad_name: exit status $rc, expected 2"
  [ -s "$W/$bad_name.md" ] && osp_fail "$bad_name: a report on stdout"
  [ "$(wc -l < "$W/$bad_name.err")" -eq 1 ] && grep -q -F -e "$bad_word" "$W/$bad_name.err" ||
    { osp_fail "$bad_name: stderr is not one line naming '$bad_word'"; osp_show "$W/$bad_name.err"; }
  echo "$bad_name: $(cat "$W/$bad_name.err")"
}
bad badsize huge BENCH_SIZE=huge
bad badconfig nosuch BENCH_CONFIGS="pep nosuch"
bad badprog nosuch BENCH_PROGS="sor nosuch"
env BENCH_WORK="$W/nodir" sh "$RUN" "$W/no-such-dir" > "$W/nodir.md" 2> "$W/nodir.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q 'no-such-dir' "$W/nodir.err" || osp_fail "nodir: exit status $rc, or no line naming it"

osp_done

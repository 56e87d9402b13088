#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/run.sh - the osp benchmark: what each way of profiling costs (wall time, instructions,
# peak memory, compile time, code size) on the 12 self-checking programs of bench/, next to
# plain `gcc -O2' and gcov, and how accurate the sampled profiles are (issue 8).
#
# One command, from anywhere, given a configured and built tree (here /tmp/b):
#
#     sh bench/run.sh /tmp/b > results.md          # or: make bench > results.md
#
# The build tree is the first argument, else $OSP_BUILD, else the current directory; its
# tests/env.sh gives the compiler ($CC), the plugin and the runtime.  Markdown goes to stdout,
# progress to stderr.  Needs valgrind (callgrind), /usr/bin/time, timeout, size.
# Takes roughly 75 min with the defaults on 2 CPUs, 55 min with BENCH_RUNS=3 (estimated from the
# subset: wall-time rounds about 10 min each for the 12 programs, the exact modes dominating;
# callgrind about 8 min; accuracy about 15 min); the subset
# BENCH_RUNS=2 BENCH_PROGS="fft interp threads" took 12 min on a loaded machine.
#
# Knobs (environment):
#   BENCH_RUNS          wall-time rounds (default 5)
#   BENCH_PROGS         space-separated subset of the programs (default: all 12)
#   BENCH_CONFIGS       space-separated subset of the configurations (plain is always added)
#   BENCH_JOBS          callgrind runs in parallel (default: nproc)
#   BENCH_NO_CALLGRIND  1: skip the instruction counts
#   BENCH_NO_ACCURACY   1: skip the accuracy runs
#   BENCH_WORK          work directory (default BUILD/bench-work; wiped first, kept after:
#                       bin/ the builds, runs/ every timed run's stdout, stderr and time,
#                       cg/ the callgrind outputs, acc/ the accuracy reports and comparisons)
#   BENCH_TIMEOUT       cap of one timed run, seconds (default 600; a run that hits it is an error)
#   BENCH_ACC_TIMEOUT   cap of one subpaths-exact run, seconds (default 120)
#                       (tests/bench.sh sets both caps from OSP_TEST_TIMEOUT_SCALE, as every
#                       limit of the test suite; the defaults are the benchmark's, and
#                       BENCH_ACC_TIMEOUT also decides which size the accuracy compares at)
#   BENCH_SIZE          size of the timed runs and of the paths accuracy runs: default (the
#                       default) or small, which checks the whole harness in minutes but whose
#                       wall times are too short to mean anything (tests/bench.sh)
#
# Exit status: 0 when every build and run worked ("Errors and notes" says "None"), 1 when the
# report lists errors, 2 for bad arguments or a missing tool (one line on stderr).
#
# Configurations (all built -O2 -g0; gcc and gcov without -pthread except threads.c, so that gcov
# updates its counters non-atomically as in an ordinary single-threaded build):
#   plain         gcc -O2                                    the baseline
#   gcov          gcc -O2 -fprofile-generate=WORK/gcda/PROG  every run starts without .gcda files
#   osp-sample    osp instrument=blocks; OSP_OPTIONS report=none:publish=off:mode=subpaths:paths=off:forest=off
#   osp-skip      osp-sample's build and options with interval=1000000000: the per-block countdown
#                 alone, samples (almost) never taken - the OSP paper's Table 2 splits its overhead
#                 so, into skipping and sampling
#   osp-late      osp-sample with placement=late (the pass after GCC's IPA inliner)
#   pep           osp instrument=paths;  report=none:publish=off:mode=subpaths:paths=counter:forest=off
#   pep-late      pep with placement=late
#   bl-exact      osp instrument=counts; report=none:publish=off:paths=exhaustive:forest=off
#                 (inline path counters; counts-update=atomic for threads, as gcov's -pthread,
#                 also in the paths and all builds: their functions without loops keep checks)
#   kblpp-exact   osp instrument=paths;  report=none:publish=off:paths=off:forest=exhaustive
#   kblpp-sample  osp instrument=paths;  report=none:publish=off:paths=off:forest=burst
#   default       osp (no plugin arguments: blocks,paths); no OSP_OPTIONS at all - what a user
#                 gets: sampled subpaths, paths=counter, forest=burst, live publishing, the
#                 profile file at exit (PROG.ospsnap in the work directory, where every run
#                 starts) and its one line on stderr (not an error)
#   default-nopub osp; publish=off (the default without live publishing)
#   default-old   osp path-checks=own promote-countdowns=no; no OSP_OPTIONS (the default build
#                 before one countdown and countdowns in registers, for comparison)
# (The other osp configurations add snapshot=none: bench/configs.sh.)
#
# Measurements:
#   wall     BENCH_RUNS rounds; in each, for each program, every configuration once (BENCH_SIZE)
#            in an order rotated by the round; ratio = t(config) / t(plain) of the same round and
#            program; median ratio and [min-max] over the rounds; geometric mean of the medians.
#            Wall time is measured in ns around /usr/bin/time -f '%e %U %S %M' (which gives the
#            user, system and peak RSS); every run's stdout must equal the plain build's line.
#   Ir       callgrind instruction count of one `small' run per configuration (BENCH_JOBS at once).
#   memory   median peak RSS of the timed runs.
#   compile  median of 3 compiles (+ link) of each program for each build; text size (`size').
#   accuracy the default instrumentation, seed=1: sampled subpaths against subpaths-exact
#            (tools/ospcompare), paths=counter against paths=exhaustive (tools/ospaccuracy,
#            at BENCH_SIZE).  subpaths-exact is run at `small' first; the default size is tried
#            (capped at BENCH_ACC_TIMEOUT; never with BENCH_SIZE=small) only when small's time,
#            scaled by plain's default/small time ratio, predicts at most 1.25 times the cap (the
#            prediction is usually within a few %); otherwise, or on timeout, the comparison is
#            at small (the table says which).  The sampled run's blocks_seen must equal the
#            exact run's (an error otherwise; not for threads, whose count depends on scheduling).

# shellcheck disable=SC2034,SC2154
set -u

# Internal: one callgrind run (called back through xargs): WORK TAG BIN GCDA OPTS SIZE.
if [ "${1:-}" = --callgrind ]; then
  w=$2 tag=$3 bin=$4 gcda=$5 opts=$6 size=$7
  if [ "$opts" != - ]; then
    OSP_OPTIONS=$opts
    export OSP_OPTIONS
  else
    unset OSP_OPTIONS
  fi
  [ "$gcda" = - ] || rm -rf "$gcda"
  cd "$w" || exit 1 # the default's profile file lands here
  if valgrind --tool=callgrind --callgrind-out-file="$w/cg/$tag.cg" "$bin" "$size" \
       > "$w/cg/$tag.out" 2> "$w/cg/$tag.vg"; then
    tot=$(awk '/^(totals|summary):/ { print $2; exit }' "$w/cg/$tag.cg")
    echo "${tot:-0}" > "$w/cg/$tag.ir"
    echo "  callgrind $tag: ${tot:-?} Ir" >&2
  else
    echo "bench: callgrind run $tag failed (see $w/cg/$tag.vg)" >&2
    echo "fail" > "$w/cg/$tag.ir"
  fi
  exit 0
fi

BUILD=${1:-${OSP_BUILD:-.}}
BUILD=$(cd "$BUILD" 2> /dev/null && pwd) || { echo "bench: no directory ${1:-${OSP_BUILD:-.}}" >&2; exit 2; }
if [ ! -f "$BUILD/tests/env.sh" ]; then
  echo "bench: $BUILD/tests/env.sh missing: give a configured and built tree" >&2
  exit 2
fi
. "$BUILD/tests/env.sh" || exit 2
if [ ! -f "$OSP_PLUGIN" ] || [ ! -f "$OSP_RTDIR/libosprt.so" ]; then
  echo "bench: $OSP_PLUGIN or $OSP_RTDIR/libosprt.so missing: run make first" >&2
  exit 2
fi
NO_CG=${BENCH_NO_CALLGRIND:-0}
NO_ACC=${BENCH_NO_ACCURACY:-0}
need="/usr/bin/time timeout size"
[ "$NO_CG" = 1 ] || need="$need valgrind"
for t in $need; do
  command -v "$t" > /dev/null 2>&1 || { echo "bench: $t is needed" >&2; exit 2; }
done
LC_ALL=C
export LC_ALL
unset OSP_OPTIONS
SRC=$abs_top_srcdir/bench
TOOLS=$abs_top_srcdir/tools
SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
W=${BENCH_WORK:-$BUILD/bench-work}
RUNS=${BENCH_RUNS:-5}
JOBS=${BENCH_JOBS:-$(nproc 2> /dev/null || echo 1)}
TMO=${BENCH_TIMEOUT:-600}
ACC_TMO=${BENCH_ACC_TIMEOUT:-120}
SIZE=${BENCH_SIZE:-default}
case $SIZE in
  default | small) ;;
  *) echo "bench: BENCH_SIZE must be default or small, not '$SIZE'" >&2; exit 2 ;;
esac
ALLPROGS="fft heapsort sor montecarlo sparse lu moldyn raytrace lexgen interp compress threads"
PROGS=${BENCH_PROGS:-$ALLPROGS}
LOAD0=$(cut -d ' ' -f 1-3 /proc/loadavg 2> /dev/null)
START=$(date '+%Y-%m-%d %H:%M:%S %z')
T0=$(date +%s)

. "$SRC/configs.sh" || exit 2

CONFIGS=plain
for c in ${BENCH_CONFIGS:-$ALLCONFIGS}; do
  [ -n "$(cfg_field "$c" 1)" ] || { echo "bench: unknown configuration $c (known: $ALLCONFIGS)" >&2; exit 2; }
  [ "$c" = plain ] || CONFIGS="$CONFIGS $c"
done
for p in $PROGS; do
  [ -f "$SRC/$p.c" ] || { echo "bench: no program $SRC/$p.c (known: $ALLPROGS)" >&2; exit 2; }
done
# Builds needed, in table order; the accuracy runs use the default instrumentation (osp).
BUILDS=
for b in $ALLBUILDS; do
  for c in $CONFIGS; do
    if [ "$(cfg_field "$c" 2)" = "$b" ]; then BUILDS="$BUILDS $b"; break; fi
  done
done
[ "$NO_ACC" = 1 ] || case " $BUILDS " in *" osp "*) ;; *) BUILDS="$BUILDS osp" ;; esac

rm -rf "$W" && mkdir -p "$W/bin" "$W/runs" "$W/cg" "$W/acc" "$W/gcda" || exit 2
W=$(cd "$W" && pwd) || exit 2 # absolute: runs start in it (cd)
ERRS=$W/errors
: > "$ERRS"

build_configs () { # the configurations using build $1
  for c in $CONFIGS; do [ "$(cfg_field "$c" 2)" = "$1" ] && printf '%s ' "$c"; done
}

# compile PROG BUILD: one compile and link of bench/PROG.c into bin/PROG.BUILD.
compile () {
  thr=0
  [ "$1" = threads ] && thr=1
  build_cc "$2" "$W/gcda/$1" "$thr" "$SRC/$1.c" -o "$W/bin/$1.$2" -lm
}
now_ns () { date +%s%N; }

# --- Builds ---------------------------------------------------------------------------------
echo "bench: building $PROGS ($BUILDS), 3 compiles each..." >&2
: > "$W/compile.tsv"
BROKEN=
for p in $PROGS; do
  for b in $BUILDS; do
    i=0
    while [ $i -lt 3 ]; do
      t0=$(now_ns)
      if ! (cd "$W/bin" && compile "$p" "$b") > "$W/bin/$p.$b.cc.err" 2>&1; then
        echo "bench: cannot build $p ($b):" >&2
        cat "$W/bin/$p.$b.cc.err" >&2
        echo "build $p $b: compile failed ($W/bin/$p.$b.cc.err)" >> "$ERRS"
        BROKEN="$BROKEN $p.$b"
        break
      fi
      t1=$(now_ns)
      echo $(((t1 - t0) / 1000))
      i=$((i + 1))
    done > "$W/bin/$p.$b.cc.us"
    case " $BROKEN " in
      *" $p.$b "*) ;;
      *)
        us=$(median < "$W/bin/$p.$b.cc.us")
        text=$(size "$W/bin/$p.$b" | awk 'NR == 2 { print $1 }')
        printf '%s\t%s\t%s\t%s\n' "$p" "$b" "$us" "$text" >> "$W/compile.tsv"
        ;;
    esac
  done
done
is_built () { case " $BROKEN " in *" $1.$2 "*) return 1 ;; esac; [ -x "$W/bin/$1.$2" ]; }

# run_one PROG CONFIG SIZE TAG: one timed run; appends "wall_s user sys rss_kb status" to
# runs/TAG.res (status: ok, exit=N, timeout, mismatch, stderr).
run_one () {
  b=$(cfg_field "$2" 2) o=$(cfg_field "$2" 3)
  f=$W/runs/$4
  if ! is_built "$1" "$b"; then
    echo "- - - - nobuild" > "$f.res"
    return
  fi
  if [ "$o" != - ]; then OSP_OPTIONS=$o; export OSP_OPTIONS; else unset OSP_OPTIONS; fi
  [ "$b" = gcov ] && rm -rf "$W/gcda/$1"
  t0=$(now_ns)
  (cd "$W" && timeout "$TMO" /usr/bin/time -f '%e %U %S %M' -o "$f.time" "$W/bin/$1.$b" "$3" \
     > "$f.out" 2> "$f.err") # in the work directory: the default's profile file lands there
  rc=$?
  t1=$(now_ns)
  unset OSP_OPTIONS
  st=ok
  if [ $rc = 124 ]; then st=timeout
  elif [ $rc != 0 ]; then st=exit=$rc
  elif ! cmp -s "$f.out" "$W/runs/$1.$3.ref"; then st=mismatch
  fi
  set -- $(tail -n 1 "$f.time" 2> /dev/null) - - - -
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }') $2 $3 $4 $st" > "$f.res"
}

# --- Reference lines (plain, BENCH_SIZE; also warms the caches) -----------------------------
echo "bench: reference runs (plain, $SIZE size)..." >&2
for p in $PROGS; do
  ref=$W/runs/$p.$SIZE.ref
  if is_built "$p" plain && timeout "$TMO" "$W/bin/$p.plain" "$SIZE" > "$ref" 2> "$W/runs/$p.ref.err" \
     && grep -q "^$p $SIZE ok checksum=[0-9a-f]*\$" "$ref" && [ "$(wc -l < "$ref")" = 1 ]; then
    :
  else
    echo "reference $p: the plain build does not print \`$p $SIZE ok checksum=...' (see $ref)" >> "$ERRS"
    echo "bench: $p: the plain reference run failed" >&2
  fi
done

# --- Instructions (callgrind, small size) ----------------------------------------------------
if [ "$NO_CG" != 1 ]; then
  T1=$(date +%s)
  echo "bench: callgrind runs, small size ($JOBS in parallel)..." >&2
  for p in $PROGS; do
    for c in $CONFIGS; do
      b=$(cfg_field "$c" 2) o=$(cfg_field "$c" 3)
      is_built "$p" "$b" || continue
      g=-
      [ "$b" = gcov ] && g=$W/gcda/$p
      printf "'%s' '%s' '%s' '%s' '%s' small\n" "$W" "$p.$c" "$W/bin/$p.$b" "$g" "$o"
    done
  done > "$W/cg/jobs"
  xargs -P "$JOBS" -L 1 sh "$SELF" --callgrind < "$W/cg/jobs"
  for p in $PROGS; do
    for c in $CONFIGS; do
      [ -f "$W/cg/$p.$c.ir" ] || continue
      if [ "$(cat "$W/cg/$p.$c.ir")" = fail ]; then
        echo "callgrind $p $c: the run failed ($W/cg/$p.$c.vg)" >> "$ERRS"
      elif ! grep -q "^$p small ok checksum=" "$W/cg/$p.$c.out" \
           || ! cmp -s "$W/cg/$p.$c.out" "$W/cg/$p.plain.out"; then
        echo "callgrind $p $c: stdout differs from plain's ($W/cg/$p.$c.out)" >> "$ERRS"
        echo mismatch > "$W/cg/$p.$c.ir"
      fi
    done
  done
  CG_TIME=$(($(date +%s) - T1))
  echo "bench: callgrind took $CG_TIME s" >&2
fi

# --- Wall time, rotated rounds ---------------------------------------------------------------
T1=$(date +%s)
: > "$W/wall.tsv"
r=0
while [ "$r" -lt "$RUNS" ]; do
  echo "bench: wall-time round $((r + 1))/$RUNS ($(($(date +%s) - T1)) s so far)..." >&2
  order=$(rotated "$CONFIGS" "$r")
  for p in $PROGS; do
    for c in $order; do
      run_one "$p" "$c" "$SIZE" "$p.$c.$r"
      printf '%s\t%s\t%s\t%s\n' "$p" "$c" "$r" "$(cat "$W/runs/$p.$c.$r.res")" >> "$W/wall.tsv"
    done
    [ "$r" = 0 ] && echo "  $p: $(awk -v p="$p" -F '\t' '$1 == p && $3 == 0 { split ($4, a, " "); printf "%s %ss ", $2, a[1] }' "$W/wall.tsv")" >&2
  done
  r=$((r + 1))
done
WALL_TIME=$(($(date +%s) - T1))
echo "bench: wall-time rounds took $WALL_TIME s" >&2
# Errors of the timed runs; stderr output of a run (e.g. a refused option) is listed once.
awk -F '\t' '{ split ($4, a, " "); if (a[5] != "ok") print "wall " $1 " " $2 " round " $3 ": " a[5] }' "$W/wall.tsv" >> "$ERRS"
for p in $PROGS; do
  for c in $CONFIGS; do
    f=$W/runs/$p.$c.0.err
    # The default configurations print the default's line at exit (stderr): not an error.
    case $c in default*) continue ;; esac
    [ -s "$f" ] && echo "stderr $p $c (round 0): $(head -n 2 "$f" | tr '\n' ' ')" >> "$ERRS"
  done
done

# --- Accuracy ----------------------------------------------------------------------------------
if [ "$NO_ACC" != 1 ]; then
  T1=$(date +%s)
  echo "bench: accuracy runs..." >&2
  A=$W/acc
  : > "$A/summary.tsv"
  # acc_run PROG TAG OPTS SIZE CAP: a tsv report acc/PROG.TAG.tsv; prints the status.
  acc_run () {
    OSP_OPTIONS="snapshot=none:$3:report_format=tsv:report=$A/$1.$2.tsv:publish=off:seed=1"
    export OSP_OPTIONS
    t0=$(now_ns)
    timeout "$5" "$W/bin/$1.osp" "$4" > "$A/$1.$2.out" 2> "$A/$1.$2.err"
    rc=$?
    t1=$(now_ns)
    unset OSP_OPTIONS
    echo $(((t1 - t0) / 1000000)) > "$A/$1.$2.ms"
    if [ $rc = 124 ]; then echo timeout
    elif [ $rc != 0 ]; then echo "exit=$rc"
    elif ! grep -q "^$1 $4 ok checksum=" "$A/$1.$2.out"; then echo "bad output"
    else echo ok
    fi
  }
  sumval () { awk -F '\t' -v n="$2" '$1 == "summary" && $2 == n { print $3; exit }' "$1" 2> /dev/null; }
  accval () { sed -n "s/^$2: //p" "$1" 2> /dev/null | head -n 1 | sed 's/%$//'; }
  statval () { awk -F '\t' -v n="$2" '$1 == "stat" && $2 == n { print $3; exit }' "$1" 2> /dev/null; }
  for p in $PROGS; do
    is_built "$p" osp || continue
    st=$(acc_run "$p" xs "mode=subpaths-exact:paths=off:forest=off" small "$ACC_TMO")
    xsize=small note=
    if [ "$st" != ok ]; then
      echo "accuracy $p: subpaths-exact at small: $st ($A/$p.xs.err)" >> "$ERRS"
    elif [ "$SIZE" = small ]; then
      note="BENCH_SIZE=small"
    else
      # Plain small time (the least of 5: robust to load) against plain's median default time
      # of the timed rounds, to predict the default size's subpaths-exact time.
      for i in 1 2 3 4 5; do
        t0=$(now_ns); "$W/bin/$p.plain" small > /dev/null 2>&1; t1=$(now_ns); echo $((t1 - t0))
      done | sort -n | head -n 1 > "$A/$p.plain-small.ns"
      pd=$(awk -F '\t' -v p="$p" '$1 == p && $2 == "plain" { split ($4, a, " "); if (a[5] == "ok") print a[1] }' "$W/wall.tsv" | median)
      pred=$(awk -v xs="$(cat "$A/$p.xs.ms")" -v ps="$(cat "$A/$p.plain-small.ns")" -v pd="$pd" \
             'BEGIN { if (pd == "-" || pd == "" || ps <= 0) print -1; else printf "%.0f", xs / 1000 * pd / (ps / 1e9) }')
      if [ "$pred" -ge 0 ] && [ $((4 * pred)) -le $((5 * ACC_TMO)) ]; then
        echo "  $p: subpaths-exact at default size (predicted ~$pred s)..." >&2
        st=$(acc_run "$p" xd "mode=subpaths-exact:paths=off:forest=off" default "$ACC_TMO")
        if [ "$st" = ok ]; then xsize=default
        else note="default: $st after ${ACC_TMO} s"
        fi
      elif [ "$pred" -ge 0 ]; then
        note="default predicted ~$pred s"
      else
        note="no plain default time"
      fi
    fi
    xt=xs
    [ "$xsize" = default ] && xt=xd
    sfx=s$(echo "$xsize" | cut -c 1)
    st2=$(acc_run "$p" "$sfx" "mode=subpaths:paths=off:forest=off" "$xsize" "$TMO")
    [ "$st2" = ok ] || echo "accuracy $p: sampled subpaths ($xsize): $st2" >> "$ERRS"
    # The sampled walk counts every block once, so blocks_seen is the exact count
    # (tests/phantom.sh); with threads the count itself depends on scheduling.
    if [ "$st2" = ok ] && [ -s "$A/$p.$xt.tsv" ] && [ "$(statval "$A/$p.$xt.tsv" threads)" = 1 ]; then
      bs=$(statval "$A/$p.$sfx.tsv" blocks_seen) bx=$(statval "$A/$p.$xt.tsv" blocks_seen)
      [ "$bs" = "$bx" ] || echo "accuracy $p: sampled blocks_seen $bs, exact $bx" >> "$ERRS"
    fi
    if [ -s "$A/$p.$xt.tsv" ] && [ -s "$A/$p.$sfx.tsv" ]; then
      "$TOOLS/ospcompare" "$A/$p.$sfx.tsv" "$A/$p.$xt.tsv" > "$A/$p.cmp5" 2> "$A/$p.cmp5.err"
      "$TOOLS/ospcompare" -k 10 -n 20 -t 10 "$A/$p.$sfx.tsv" "$A/$p.$xt.tsv" > "$A/$p.cmp10" 2> "$A/$p.cmp10.err"
      # The same in the report's own order (what a user reads: by the low end of the interval).
      "$TOOLS/ospcompare" -r "$A/$p.$sfx.tsv" "$A/$p.$xt.tsv" > "$A/$p.cmp5r" 2> "$A/$p.cmp5r.err"
      "$TOOLS/ospcompare" -r -k 10 -n 20 -t 10 "$A/$p.$sfx.tsv" "$A/$p.$xt.tsv" > "$A/$p.cmp10r" 2> "$A/$p.cmp10r.err"
    fi
    stc=$(acc_run "$p" pc "mode=subpaths:paths=counter:forest=off" "$SIZE" "$TMO")
    stx=$(acc_run "$p" px "mode=subpaths:paths=exhaustive:forest=off" "$SIZE" "$TMO")
    [ "$stc" = ok ] || echo "accuracy $p: paths=counter: $stc" >> "$ERRS"
    [ "$stx" = ok ] || echo "accuracy $p: paths=exhaustive: $stx" >> "$ERRS"
    if [ "$stc" = ok ] && [ "$stx" = ok ]; then
      "$TOOLS/ospaccuracy" "$A/$p.px.tsv" "$A/$p.pc.tsv" > "$A/$p.acc" 2> "$A/$p.acc.err"
    fi
    dropped=$(sumval "$A/$p.cmp10" exact_dropped)
    [ -n "$dropped" ] && [ "$dropped" != 0 ] && [ "$dropped" != - ] && note="${note:+$note; }exact_dropped=$dropped"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$xsize" \
      "$(sumval "$A/$p.cmp5" recall_ties) / $(sumval "$A/$p.cmp5r" recall_ties)" \
      "$(sumval "$A/$p.cmp10" recall_ties) / $(sumval "$A/$p.cmp10r" recall_ties)" \
      "$(sumval "$A/$p.cmp10" max_abs_error_pct)" "$(sumval "$A/$p.cmp10" coverage_top)" \
      "$(accval "$A/$p.acc" 'path accuracy (Wall weight matching, PEP form)')" \
      "$(accval "$A/$p.acc" 'path overlap (Arnold-Ryder)')" \
      "$(accval "$A/$p.acc" 'edge accuracy (relative overlap, PEP)')" \
      "$(accval "$A/$p.acc" 'edge overlap (Arnold-Ryder absolute)')" \
      "$(cat "$A/$p.$xt.ms" 2> /dev/null)" "$note" >> "$A/summary.tsv"
    echo "  $p: $(tail -n 1 "$A/summary.tsv" | tr '\t' ' ')" >&2
  done
  ACC_TIME=$(($(date +%s) - T1))
  echo "bench: accuracy took $ACC_TIME s" >&2
fi

# --- Tables ------------------------------------------------------------------------------------

GCCV=$($CC --version | head -n 1)
echo "# osp benchmark"
echo
echo "- date: $START (took $(($(date +%s) - T0)) s)"
echo "- machine: $(uname -srm); $(grep -m1 'model name' /proc/cpuinfo 2> /dev/null | sed 's/.*: //'); $(nproc) CPUs; load average at start $LOAD0"
echo "- compiler: $GCCV; $(valgrind --version 2> /dev/null || echo 'no valgrind')"
echo "- command: \`BENCH_RUNS=$RUNS BENCH_PROGS=\"$PROGS\" BENCH_CONFIGS=\"$CONFIGS\" BENCH_JOBS=$JOBS BENCH_NO_CALLGRIND=$NO_CG BENCH_NO_ACCURACY=$NO_ACC$( [ "$SIZE" = default ] || echo " BENCH_SIZE=$SIZE") sh bench/run.sh $BUILD\`"
echo "  (osp source $abs_top_srcdir$(git -C "$abs_top_srcdir" rev-parse --short HEAD 2> /dev/null | sed 's/^/, commit /')$(git -C "$abs_top_srcdir" status --porcelain --untracked-files=no 2> /dev/null | grep -q . && echo ' + uncommitted changes'))"
echo "- work directory: $W"
echo
echo "Configurations (every build \`-O2 -g0\`; gcc and gcov get \`-pthread\` only for threads.c, and osp builds of threads.c \`counts-update=atomic\`):"
echo
echo "| configuration | build | OSP_OPTIONS |"
echo "|---|---|---|"
for c in $CONFIGS; do
  o=$(cfg_field "$c" 3)
  echo "| $c | $(build_desc "$(cfg_field "$c" 2)") | $( [ "$o" = - ] && echo - || echo "\`$o\`") |"
done

# 1. Wall time.
echo
echo "## 1. Wall time ($SIZE size, rounds: $RUNS)"
echo
echo "Median over the rounds of t(config)/t(plain) of the same round, [min–max] of those ratios;"
echo "plain: median seconds.  Configurations alternate within a round (rotated order)."
echo
COLS=$CONFIGS HEADS="$(cfg_heads | sed 's/^plain/plain (s)/')"
awk -F '\t' '{ split ($4, a, " "); print $1 "\t" $2 "\t" $3 "\t" a[1] "\t" a[5] }' "$W/wall.tsv" | paired_ratios | table

# 2. Instructions.
echo
echo "## 2. Instructions (callgrind, small size)"
echo
if [ "$NO_CG" = 1 ]; then
  echo "(skipped: BENCH_NO_CALLGRIND=1)"
else
  echo "Total Ir of one run, as a ratio to plain; plain: millions of instructions."
  echo
  COLS=$CONFIGS HEADS="$(cfg_heads | sed 's/^plain/plain (M Ir)/')"
  for p in $PROGS; do
    pl=$(cat "$W/cg/$p.plain.ir" 2> /dev/null)
    for c in $CONFIGS; do
      v=$(cat "$W/cg/$p.$c.ir" 2> /dev/null) || continue
      case $v in
        fail | mismatch) printf '%s\t%s\tERROR (%s)\t-\n' "$p" "$c" "$v" ;;
        *)
          if [ "$c" = plain ]; then
            awk -v p="$p" -v v="$v" 'BEGIN { printf "%s\tplain\t%.1f\t-\n", p, v / 1e6 }'
          else
            awk -v p="$p" -v c="$c" -v v="$v" -v pl="$pl" "$fmt_awk"'
              BEGIN { if (pl + 0 > 0) printf "%s\t%s\t%s\t%s\n", p, c, fx(v / pl), v / pl; else printf "%s\t%s\t-\t-\n", p, c }'
          fi ;;
      esac
    done
  done | table
fi

# 3. Peak memory.
echo
echo "## 3. Peak memory ($SIZE size)"
echo
echo "Median max RSS of the timed runs, as a ratio to plain; plain: MB."
echo
COLS=$CONFIGS HEADS="$(cfg_heads | sed 's/^plain/plain (MB)/')"
awk -F '\t' '{ split ($4, a, " "); if (a[5] == "ok") { n = ++N[$1, $2]; m[$1, $2, n] = a[4] } else bad[$1, $2] = 1; P[$1] = 1; K[$2] = 1 }
  END {
    for (p in P) for (c in K) {
      if ((p, c) in bad) { printf "%s\t%s\tERROR\t-\n", p, c; continue }
      n = N[p, c]; if (!n) continue
      for (i = 1; i <= n; i++) v[i] = m[p, c, i]
      for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
      med[p, c] = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    for (p in P) for (c in K) {
      if (!((p, c) in med)) continue
      if (c == "plain") printf "%s\t%s\t%.1f\t-\n", p, c, med[p, c] / 1024
      else if (med[p, "plain"] > 0) printf "%s\t%s\t%s\t%s\n", p, c, fx(med[p, c] / med[p, "plain"]), med[p, c] / med[p, "plain"]
    }
  }
  '"$fmt_awk" "$W/wall.tsv" | table

# 4. Compile time and code size (per build).
BCOLS='' BHEADS=''
for b in $BUILDS; do
  cs=$(build_configs "$b")
  [ -n "$cs" ] || continue
  BCOLS="$BCOLS $b"
  BHEADS="$BHEADS|$(build_desc "$b"): $(echo $cs | sed 's/ /, /g')"
done
BHEADS=${BHEADS#|}
ratio_cols () { # FIELD UNIT_SCALE: compile.tsv field 3 (us) or 4 (text bytes) as table input
  awk -F '\t' -v f="$1" -v sc="$2" -v bcols="$BCOLS" "$fmt_awk"'
    { v[$1, $2] = $f; P[$1] = 1 }
    END {
      nb = split(bcols, B, " ")
      for (p in P) for (k = 1; k <= nb; k++) {
        b = B[k]; if (!((p, b) in v)) continue
        if (b == "plain") printf "%s\t%s\t%s\t-\n", p, b, sc == 1 ? v[p, b] : sprintf("%.3f", v[p, b] / sc)
        else if (v[p, "plain"] > 0) printf "%s\t%s\t%s\t%s\n", p, b, fx(v[p, b] / v[p, "plain"]), v[p, b] / v[p, "plain"]
      }
    }' "$W/compile.tsv"
}
echo
echo "## 4. Compile time and code size"
echo
echo "Per build (configurations sharing a build share its figures).  Compile time: median of 3"
echo "compile+link runs, ratio to plain; plain: seconds."
echo
COLS=$BCOLS HEADS=$(echo "$BHEADS" | sed 's/^gcc -O2 -g0: [^|]*/plain (s)/')
ratio_cols 3 1000000 | table
echo
echo "Code size: \`size\` text of the linked program (the runtime library is shared, not counted),"
echo "ratio to plain; plain: bytes."
echo
COLS=$BCOLS HEADS=$(echo "$BHEADS" | sed 's/^gcc -O2 -g0: [^|]*/plain (bytes)/')
ratio_cols 4 1 | table

# 5. Accuracy.
echo
echo "## 5. Accuracy (default instrumentation, seed=1)"
echo
if [ "$NO_ACC" = 1 ]; then
  echo "(skipped: BENCH_NO_ACCURACY=1)"
else
  echo "Subpaths: \`mode=subpaths\` against \`mode=subpaths-exact\` (lengths 2..32) at the size shown,"
  echo "with tools/ospcompare: recall = exact top 5 in the sampled top 10 (its defaults) and exact top 10"
  echo "in the sampled top 20 (\`-k 10 -n 20\`), with ties (\`recall_ties\`: subpaths counted as often"
  echo "as the exact K-th all qualify), ranking the sample by estimate (the OSP paper's Table 5) / in"
  echo "the report's own order (by the low end of the 95% interval: what a user reads); max |error|"
  echo "over the exact top 10, coverage = sampled top 10 by estimate whose 95% interval holds the"
  echo "exact count.  Paths: \`paths=counter\` against"
  echo "\`paths=exhaustive\` at $SIZE size with tools/ospaccuracy (PEP path accuracy = Wall weight"
  echo "matching, Arnold-Ryder overlaps, PEP edge accuracy), in %.  exact s: the subpaths-exact run."
  echo "The sampled run's \`blocks_seen\` must equal the exact block count (single-threaded programs;"
  echo "a difference is listed under Errors)."
  echo
  echo "| program | size | recall 5/10 (estimate / report) | recall 10/20 (estimate / report) | max err top 10 | coverage | path accuracy | path overlap | edge accuracy | edge overlap | exact s | note |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
  awk -F '\t' '{ for (i = 3; i <= 11; i++) if ($i == "") $i = "-"
                 if ($5 != "-" && $5 != "inf") $5 = $5 "%"
                 printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, ($11 == "-" ? "-" : sprintf("%.1f", $11 / 1000)), $12 }' \
    "$W/acc/summary.tsv"
fi

echo
echo "## Errors and notes"
echo
if [ -s "$ERRS" ]; then
  sed 's/^/- /' "$ERRS"
else
  echo "None: every run exited 0 and printed the plain build's line; no run wrote to stderr but the default configurations' line at exit."
fi
echo
echo "Times: callgrind ${CG_TIME:-0} s, wall-time rounds ${WALL_TIME:-0} s, accuracy ${ACC_TIME:-0} s; total $(($(date +%s) - T0)) s."
echo "bench: done in $(($(date +%s) - T0)) s" >&2
[ ! -s "$ERRS" ]

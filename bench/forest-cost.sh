#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/forest-cost.sh - what the k-BLPP prefix forest costs (instructions, time, memory) next
# to exhaustive Ball-Larus path counting; the tables of doc/FOREST.md, "Cost and size".
#
# One command, from anywhere, given a configured and built tree (here /tmp/fc):
#
#     sh bench/forest-cost.sh /tmp/fc > forest-cost.md
#
# The build tree is the first argument, else $OSP_BUILD, else the current directory; its
# tests/env.sh gives the plugin, the runtime and the compiler.  Markdown goes to stdout, progress
# to stderr.  Takes 4-7 minutes on 2 CPUs (callgrind dominates; measured under load).  Needs valgrind
# (callgrind_annotate) and /usr/bin/time; hyperfine is used for wall time when installed.
#
# Knobs (environment): FOREST_COST_WORK   work directory (default BUILD/tests/work/forest-cost,
#                                           wiped first, kept after: *.cg are callgrind outputs,
#                                           *.tsv the runs' reports)
#                      FOREST_COST_JOBS   callgrind runs in parallel (default: nproc)
#                      FOREST_COST_RUNS   timed runs per mode, median shown (default 5)
#                      FOREST_COST_BYTES  forest_bytes of every k (default 2M, the default)
#                      FOREST_COST_BIG    forest_bytes of the unpruned k=8, k=16 runs (64M)
#                      FOREST_COST_ANNOTATE  program whose runtime functions are broken down (demo)
#
# What is measured, per program (built -O2 with the plugin, and -O2 without it = "gcc -O2"):
#   off        paths=off:forest=off      the instrumented binary with nothing recorded
#   BL         paths=exhaustive:forest=off   Ball-Larus: every path end counted in the path
#                                            table (a hash), plus the edge profile
#   k=K        paths=off:forest=exhaustive:forest_k=K   every path end an item of the k-SF
#              (k=1: every item a root, i.e. Ball-Larus counting in the forest's root hash)
#   k=K big    the same with forest_bytes=$FOREST_COST_BIG (no pruning)
#   burst      paths=counter:forest=burst   the defaults: sampled paths and sampled forest bursts
# Every run has mode=subpaths (the default: paths are profiled in every mode but off), seed=1 and
# a tsv report to a file.  Columns:
#   Ir (M)     instructions of the whole run (callgrind), millions; x gcc: over the gcc -O2 build
#   report     of which in the exit report (osp_report_emit, inclusive: builds the k-IPF)
#   Ir/end     (Ir - report) - (Ir - report of `off'), divided by the path ends of the run
#              (path_ends_seen of BL): the online cost of one path end over the instrumentation
#   wall ms    median of FOREST_COST_RUNS native runs (noisy machine: Ir is the metric)
#   hash/item  forest_hash_accesses / forest_items (BL: 1 table access per path end)
#   scans/find forest_child_scans / forest_child_finds: siblings looked at per child lookup
#   nodes      k-SF nodes in use at exit / peak (forest_nodes / forest_nodes_peak); cap below
#   IPF        k-IPF nodes (forest_ipf_nodes) = distinct n-grams (n <= k) reported
#   pruned     forest_pruned_mass (counts removed by pruning) + forest_dropped (items lost)
#   RSS        peak resident set, KB (/usr/bin/time -f %M, one native run, also the warm-up)

# The per-program variables (src_*, args_*, what_*) are read through eval; env.sh sets the rest.
# shellcheck disable=SC2034,SC2154
set -u

# Internal: one callgrind run (called back through xargs).
if [ "${1:-}" = --callgrind ]; then
  w=$2 tag=$3 bin=$4 opts=$5
  shift 5
  if [ -n "$opts" ]; then
    OSP_OPTIONS=snapshot=none:$opts # no default snapshot at exit: not what is measured
    export OSP_OPTIONS
  else
    unset OSP_OPTIONS
  fi
  if valgrind --tool=callgrind --callgrind-out-file="$w/$tag.cg" "$w/$bin" "$@" \
       > "$w/$tag.out" 2> "$w/$tag.vg"; then
    tot=$(awk '/^totals:/ { print $2 }' "$w/$tag.cg")
    rep=$(callgrind_annotate --inclusive=yes --threshold=100 "$w/$tag.cg" 2> /dev/null \
          | awk '/:osp_report_emit / { gsub (",", "", $1); print $1; exit }')
    echo "${tot:-0} ${rep:-0}" > "$w/$tag.ir"
    echo "  callgrind $tag: ${tot:-?} Ir" >&2
  else
    echo "forest-cost: callgrind run $tag failed (see $w/$tag.vg)" >&2
    echo "0 0" > "$w/$tag.ir"
  fi
  exit 0
fi

BUILD=${1:-${OSP_BUILD:-.}}
BUILD=$(cd "$BUILD" 2> /dev/null && pwd) || { echo "forest-cost: no directory $1" >&2; exit 2; }
if [ ! -f "$BUILD/tests/env.sh" ]; then
  echo "forest-cost: $BUILD/tests/env.sh missing: give a configured and built tree" >&2
  exit 2
fi
. "$BUILD/tests/env.sh" || exit 2
if [ ! -f "$OSP_PLUGIN" ] || [ ! -f "$OSP_RTDIR/libosprt.so" ]; then
  echo "forest-cost: $OSP_PLUGIN or $OSP_RTDIR/libosprt.so missing: run make first" >&2
  exit 2
fi
for t in valgrind callgrind_annotate /usr/bin/time; do
  command -v "$t" > /dev/null 2>&1 || { echo "forest-cost: $t is needed" >&2; exit 2; }
done
LC_ALL=C
export LC_ALL
unset OSP_OPTIONS
SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
W=${FOREST_COST_WORK:-$abs_top_builddir/tests/work/forest-cost}
JOBS=${FOREST_COST_JOBS:-$(nproc 2> /dev/null || echo 1)}
RUNS=${FOREST_COST_RUNS:-5}
FBYTES=${FOREST_COST_BYTES:-2M}
BIG=${FOREST_COST_BIG:-64M}
ANNOTATE=${FOREST_COST_ANNOTATE:-demo}
rm -rf "$W" && mkdir -p "$W" || exit 2

# Programs: name, source, arguments (sized so that one callgrind run takes seconds).
PROGS="fft heapsort figure1 demo"
src_fft=$OSP_TESTSRC/accuracy/fft.c          args_fft='100'      what_fft='100 rounds of 1024 points'
src_heapsort=$OSP_TESTSRC/accuracy/heapsort.c args_heapsort='12' what_heapsort='12 rounds of 10000 ints'
src_figure1=$OSP_TESTSRC/accuracy/figure1.c  args_figure1='400000' what_figure1='400000 calls'
src_demo=$abs_top_srcdir/examples/demo.c     args_demo='0.1'     what_demo='scale 0.1'

# Modes: tag, OSP_OPTIONS (before seed and report), label.
KS="1 2 4 8 16"
modes () {
  echo "gcc|-|gcc -O2 (no plugin)"
  echo "off|paths=off:forest=off|off"
  echo "bl|paths=exhaustive:forest=off|BL exhaustive"
  for k in $KS; do
    echo "k$k|paths=off:forest=exhaustive:forest_k=$k:forest_bytes=$FBYTES|k=$k"
  done
  for k in 8 16; do
    echo "k${k}big|paths=off:forest=exhaustive:forest_k=$k:forest_bytes=$BIG|k=$k, $BIG"
  done
  echo "burst|paths=counter:forest=burst|burst (defaults)"
}

# Build.
for p in $PROGS; do
  eval "s=\$src_$p"
  osp_cc -O2 "$s" -o "$W/$p" -lm > "$W/$p.cc.err" 2>&1 \
    || { echo "forest-cost: cannot build $p with the plugin:" >&2; cat "$W/$p.cc.err" >&2; exit 1; }
  plain_cc -O2 "$s" -o "$W/$p.gcc" -lm > "$W/$p.gcc.cc.err" 2>&1 \
    || { echo "forest-cost: cannot build $p:" >&2; cat "$W/$p.gcc.cc.err" >&2; exit 1; }
done

opts_of () { # opts_of PROG TAG OPTS: the full OSP_OPTIONS of a run ("" for gcc)
  [ "$3" = - ] && return
  echo "$3:seed=1:report=$W/$1.$2.tsv:report_format=tsv"
}

# Callgrind, JOBS at a time (longest first: the demo runs).
T0=$(date +%s)
echo "forest-cost: callgrind runs ($JOBS in parallel)..." >&2
for p in demo fft heapsort figure1; do
  eval "a=\$args_$p"
  modes | while IFS='|' read -r tag o label; do
    bin=$p
    [ "$tag" = gcc ] && bin=$p.gcc
    # One line per run for xargs: quoted fields.
    printf "'%s' '%s' '%s' '%s' %s\n" "$W" "$p.$tag" "$bin" "$(opts_of "$p" "$tag" "$o")" "$a"
  done
done > "$W/jobs"
xargs -P "$JOBS" -L 1 sh "$SELF" --callgrind < "$W/jobs"

# Wall time (median of RUNS) and peak RSS, one run at a time.
echo "forest-cost: timed runs... (callgrind took $(($(date +%s) - T0)) s)" >&2
T1=$(date +%s)
median () { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for p in $PROGS; do
  eval "a=\$args_$p"
  modes | while IFS='|' read -r tag o label; do
    bin=$W/$p
    [ "$tag" = gcc ] && bin=$W/$p.gcc
    opts=$(opts_of "$p" "$tag" "$o")
    if [ -n "$opts" ]; then OSP_OPTIONS=snapshot=none:$opts; export OSP_OPTIONS; else unset OSP_OPTIONS; fi
    # shellcheck disable=SC2086
    /usr/bin/time -f %M -o "$W/$p.$tag.rss" "$bin" $a > /dev/null 2>&1
    if command -v hyperfine > /dev/null 2>&1; then
      # shellcheck disable=SC2086
      hyperfine -N -w 0 -r "$RUNS" --export-json "$W/$p.$tag.json" "$bin $a" > /dev/null 2>&1
      awk -F: '/"median"/ { gsub (/[ ,]/, "", $2); printf "%.1f\n", $2 * 1000; exit }' \
        "$W/$p.$tag.json" > "$W/$p.$tag.ms"
    else
      i=0
      while [ $i -lt "$RUNS" ]; do
        t0=$(date +%s%N)
        # shellcheck disable=SC2086
        "$bin" $a > /dev/null 2>&1
        t1=$(date +%s%N)
        echo $(((t1 - t0) / 1000))
        i=$((i + 1))
      done | median | awk '{ printf "%.1f\n", $1 / 1000 }' > "$W/$p.$tag.ms"
    fi
    unset OSP_OPTIONS
  done
done

echo "forest-cost: timed runs took $(($(date +%s) - T1)) s" >&2

# The table.
stat () { # stat FILE NAME: a stat row's value, or -
  [ -f "$1" ] || { echo -; return; }
  awk -F '\t' -v n="$2" '$1 == "stat" && $2 == n { print $3; f = 1; exit } END { if (!f) print "-" }' "$1"
}
ir () { cut -d ' ' -f "$2" "$W/$1.ir" 2> /dev/null || echo 0; }

echo "### Machine"
echo
echo "- $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs, $(uname -sr)"
echo "- $($CC --version | head -n 1); $(valgrind --version)"
echo "- programs built \`-O2\` with the plugin (default instrumentation) and without it (gcc -O2);"
echo "  runtime options: the mode's, \`seed=1\`, a tsv report; k-SF budget \`forest_bytes=$FBYTES\`"
echo "  for every k ($(stat "$W/fft.k8.tsv" forest_nodes_cap) nodes) unless the mode says $BIG"
echo "  ($(stat "$W/fft.k8big.tsv" forest_nodes_cap) nodes)"
echo "- Ir = callgrind instruction count; wall = median of $RUNS runs$(command -v hyperfine > /dev/null 2>&1 && echo ' (hyperfine)') after the RSS run"
echo
echo "### Results"
for p in $PROGS; do
  eval "a=\$args_$p what=\$what_$p"
  ends=$(stat "$W/$p.bl.tsv" path_ends_seen)
  g=$(ir "$p.gcc" 1)
  off=$(($(ir "$p.off" 1) - $(ir "$p.off" 2)))
  gms=$(cat "$W/$p.gcc.ms" 2> /dev/null || echo 0)
  echo
  echo "#### $p ($what): $ends path ends"
  echo
  echo "| mode | Ir (M) | x gcc | report Ir (M) | Ir/end over off | wall ms | x gcc | hash/item | scans/find | k-SF nodes used / peak | k-IPF nodes | pruned + dropped | RSS KB |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  modes | while IFS='|' read -r tag o label; do
    f=$W/$p.$tag.tsv
    i=$(ir "$p.$tag" 1) r=$(ir "$p.$tag" 2)
    ms=$(cat "$W/$p.$tag.ms" 2> /dev/null || echo -)
    rss=$(tail -n 1 "$W/$p.$tag.rss" 2> /dev/null)
    case $tag in
      gcc) per=- rep=- hash=- scans=- nodes=- ipf=- lost=- ;;
      off|bl)
        per=$(awk -v i="$i" -v r="$r" -v o="$off" -v e="$ends" 'BEGIN { if (e > 0) printf "%.1f", (i - r - o) / e; else print "-" }')
        rep=$(awk -v r="$r" 'BEGIN { printf "%.1f", r / 1e6 }')
        hash=- scans=- nodes=- ipf=- lost=-
        [ "$tag" = bl ] && hash=1
        ;;
      *)
        per=$(awk -v i="$i" -v r="$r" -v o="$off" -v e="$ends" 'BEGIN { if (e > 0) printf "%.1f", (i - r - o) / e; else print "-" }')
        rep=$(awk -v r="$r" 'BEGIN { printf "%.1f", r / 1e6 }')
        hash=$(awk -v h="$(stat "$f" forest_hash_accesses)" -v n="$(stat "$f" forest_items)" \
               'BEGIN { if (h != "-" && n > 0) printf "%.3f", h / n; else print "-" }')
        scans=$(awk -v s="$(stat "$f" forest_child_scans)" -v n="$(stat "$f" forest_child_finds)" \
               'BEGIN { if (s != "-" && n > 0) printf "%.2f", s / n; else print "-" }')
        nodes="$(stat "$f" forest_nodes) / $(stat "$f" forest_nodes_peak)"
        ipf=$(stat "$f" forest_ipf_nodes)
        lost=$(awk -v m="$(stat "$f" forest_pruned_mass)" -v d="$(stat "$f" forest_dropped)" \
               'BEGIN { if (m == "-") print "-"; else printf "%d + %d\n", m, d }')
        ;;
    esac
    x=$(awk -v i="$i" -v g="$g" 'BEGIN { if (g > 0) printf "%.2f", i / g; else print "-" }')
    xw=$(awk -v m="$ms" -v g="$gms" 'BEGIN { if (g > 0 && m != "-") printf "%.2f", m / g; else print "-" }')
    echo "| $label | $(awk -v i="$i" 'BEGIN { printf "%.1f", i / 1e6 }') | $x | $rep | $per | $ms | $xw | $hash | $scans | $nodes | $ipf | $lost | $rss |"
  done
done

# Where the instructions go: self Ir per path end of the runtime's functions.
p=$ANNOTATE
ends=$(stat "$W/$p.bl.tsv" path_ends_seen)
ATAGS="off bl k1 k8 k16"
for t in $ATAGS; do
  # Lines are "IR (PCT%)  FILE:FUNCTION [OBJECT]"; recursion levels (f'2) are folded.
  callgrind_annotate --inclusive=no --threshold=100 "$W/$p.$t.cg" 2> /dev/null \
    | awk '{ sub (/\([^)]*\)/, "") }
           $1 ~ /^[0-9,]+$/ && $2 ~ /:/ {
             n = $1; gsub (",", "", n); f = $2; sub (/^.*\//, "", f); sub (/\x27[0-9]+$/, "", f)
             if ($0 ~ /libosprt/) s[f] += n; else o += n }
           END { for (f in s) print f, s[f]; print "(program+libc)", o }' > "$W/$p.$t.fns"
done
echo
echo "### Where the instructions go ($p, self Ir per path end)"
echo
echo "callgrind_annotate's self cost of the runtime's (libosprt) functions with at least 1 Ir per"
echo "path end in one of the runs, divided by the $ends path ends; then everything else (the"
echo "program, libc, ld.so) and the total, both including the program's own work."
echo
printf "| function |"; for t in $ATAGS; do printf " %s |" "$t"; done; echo
printf "|---|"; for t in $ATAGS; do printf -- "---:|"; done; echo
cat "$W/$p".*.fns | awk -v e="$ends" '$1 != "(program+libc)" && $2 / e >= 1 { print $1 }' | sort -u > "$W/$p.fnlist"
sort_key=k8
while read -r fn; do
  v=$(awk -v f="$fn" '$1 == f { print $2 }' "$W/$p.$sort_key.fns")
  echo "${v:-0} $fn"
done < "$W/$p.fnlist" | sort -rn | while read -r v fn; do
  printf "| %s |" "$fn"
  for t in $ATAGS; do
    awk -v f="$fn" -v e="$ends" '$1 == f { printf " %.1f |", $2 / e; found = 1 } END { if (!found) printf " - |" }' "$W/$p.$t.fns"
  done
  echo
done
printf "| (program, libc, ld.so) |"
for t in $ATAGS; do
  awk -v e="$ends" '$1 == "(program+libc)" { printf " %.1f |", $2 / e }' "$W/$p.$t.fns"
done
echo
printf "| **total** |"
for t in $ATAGS; do printf " %.1f |" "$(awk -v i="$(ir "$p.$t" 1)" -v e="$ends" 'BEGIN { print i / e }')"; done
echo
echo
echo "Command: \`sh bench/forest-cost.sh $BUILD\`; work files in $W."

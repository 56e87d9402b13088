#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/work-callgrind.sh - osp's work figures (issue 34: count x the plugin's per-block cost
# estimate) against an independent measure of time, callgrind's self instruction counts
# (doc/ACCURACY.md, "Work"), and the functions' shares where they are shown together.
#
#   A  bench/fft.c (small), -O2 -g: the plain build under `valgrind --tool=callgrind', and the
#      osp build with instrument=blocks run with mode=blocks (exact block counts), compared by
#      tools/ospwork: callgrind's self Ir attributed by source line to the function whose first
#      line is the nearest at or above, so that code GCC inlined counts for the function it came
#      from, as osp's records count it.  The tolerance, stated:
#        - both put the same function first;
#        - osp's top 5 by work share are in callgrind's order except where callgrind's shares of
#          the two functions are within 3 percentage points (any pair: the one osp ranks lower
#          has at most 3 points more of callgrind's instructions);
#        - callgrind's top 3 are all among osp's top 5.
#   B  the shares add up: the tsv `work' rows (osp_check_report: each column 100%), and
#      ospview's functions screen on the exit snapshots of the default mode (the shares from
#      the path estimates, `calls' is `-') and of mode=blocks: its work and execs columns each
#      add up to 100% (within the rounding of the shown figures), and it is ordered by work;
#      --merge of a snapshot with itself keeps the same shares.
# Skipped (77) without valgrind.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup work-callgrind
osp_need_build

command -v valgrind > /dev/null 2>&1 || { echo "SKIP: valgrind is missing"; exit 77; }
OSPVIEW=$abs_top_builddir/viewer/ospview
B=$abs_top_srcdir/bench

osp_compile "$W/plain" plain_cc -O2 -g -I"$B" "$B/fft.c" -o "$W/fft.plain" -lm ||
  { osp_fail "cannot build the plain fft"; osp_done; }
osp_compile "$W/osp" osp_cc $CHECKFLAGS -O2 -g -I"$B" -fplugin-arg-osp-instrument=blocks \
  "$B/fft.c" -o "$W/fft.blocks" -lm || { osp_fail "cannot build fft with osp"; osp_done; }
osp_compile "$W/osp2" osp_cc $CHECKFLAGS -O2 -g -I"$B" "$B/fft.c" -o "$W/fft.default" -lm ||
  { osp_fail "cannot build fft with osp's defaults"; osp_done; }

# --- A ------------------------------------------------------------------------------------------
osp_exec "$W/cg" valgrind --tool=callgrind --compress-pos=no --compress-strings=no \
  --callgrind-out-file="$W/fft.cg" "$W/fft.plain" small
[ "$osp_rc" -eq 0 ] || { osp_fail "callgrind: exit status $osp_rc"; osp_show "$W/cg.err"; osp_done; }
osp_exec_with "mode=blocks:report=stdout:report_format=tsv:snapshot=$W/blocks.ospsnap" \
  "$W/blocks" "$W/fft.blocks" small
[ "$osp_rc" -eq 0 ] || { osp_fail "osp mode=blocks: exit status $osp_rc"; osp_show "$W/blocks.err"; }
grep -v '^fft ' "$W/blocks.out" > "$W/blocks.tsv"
[ "$(head -n 1 "$W/cg.out")" = "$(grep '^fft ' "$W/blocks.out")" ] ||
  osp_fail "the osp build does not print the plain build's result line"
osp_check_report "$W/blocks.tsv" || osp_fail "the mode=blocks report is malformed"

# "rank name osp% callgrind% callgrind-rank" for every function with work, in osp's order.
sh "$abs_top_srcdir/tools/ospwork" "$W/fft.cg" "$W/blocks.tsv" > "$W/compare.txt" ||
  osp_fail "tools/ospwork: exit status $?"
echo "---- osp rank, function, osp work %, callgrind self Ir %, callgrind rank ----"
head -n 10 "$W/compare.txt"
[ "$(wc -l < "$W/compare.txt")" -ge 5 ] || osp_fail "fewer than 5 functions with work"

awk -v tol=3 '
  { name[NR] = $2; osp[NR] = $3; cg[NR] = $4 }
  END {
    top = 1
    for (i = 2; i <= NR; i++) if (cg[i] > cg[top]) top = i
    if (top != 1) { printf "FAIL: osp puts %s first, callgrind %s\n", name[1], name[top]; bad++ }
    for (i = 1; i <= 5; i++)
      for (j = i + 1; j <= 5; j++)
        if (cg[j] - cg[i] > tol) {
          printf "FAIL: osp ranks %s (%s%%) above %s (%s%%), callgrind %s%% below %s%%\n", name[i], osp[i], name[j], osp[j], cg[i], cg[j]
          bad++
        }
    for (r = 1; r <= 3; r++) {
      best = 0
      for (i = 1; i <= NR; i++) if (!(i in used) && (best == 0 || cg[i] > cg[best])) best = i
      used[best] = 1
      if (best > 5) { printf "FAIL: callgrind #%d %s is #%d by osp work\n", r, name[best], best; bad++ }
    }
    exit bad ? 1 : 0
  }' "$W/compare.txt" || osp_fail "osp's top functions by work disagree with callgrind (above)"

# --- B ------------------------------------------------------------------------------------------
osp_exec_with "report=stdout:report_format=tsv:snapshot=$W/default.ospsnap" "$W/default" \
  "$W/fft.default" small
[ "$osp_rc" -eq 0 ] || { osp_fail "osp defaults: exit status $osp_rc"; osp_show "$W/default.err"; }
grep -v '^fft ' "$W/default.out" > "$W/default.tsv"
osp_check_report "$W/default.tsv" || osp_fail "the default report is malformed"
grep -q '^work	' "$W/default.tsv" || osp_fail "the default report has no work rows"

# functions_screen SNAP: the functions screen's rows (all of them).
functions_screen ()
{
  "$OSPVIEW" -b 1 --screen=functions --top=0 "$1" 2> "$W/view.err" |
    awk '/^functions \(/ { on = 1; hdr = 1; next } on && hdr { hdr = 0; print "#" $0; next }
         on && /^$/ { on = 0 } on'
}
for m in default blocks; do
  functions_screen "$W/$m.ospsnap" > "$W/$m.fns"
  grep -q '^# *work  *execs  *calls' "$W/$m.fns" ||
    { osp_fail "$m: the functions screen has no work and execs columns"; osp_show "$W/$m.fns"; }
  awk -v m="$m" '!/^#/ { w = $1; e = $2; sub(/%$/, "", w); sub(/%$/, "", e)
                          sw += w; se += e; n++
                          if (n > 1 && w + 0 > prev + 0) unordered = 1; prev = w }
       END { if (n < 5 || (sw - 100) ^ 2 > 0.25 || (se - 100) ^ 2 > 0.25 || unordered) {
               printf "FAIL: %s: %d rows, work adds up to %s%%, execs to %s%%%s\n", m, n, sw, se,
                      unordered ? ", not ordered by work" : ""
               exit 1 } }' "$W/$m.fns" ||
    { osp_fail "$m: the functions screen's shares"; osp_show "$W/$m.fns"; }
done
# --merge keeps the costs and adds up the functions' figures: a run merged with itself has the
# same shares.
"$OSPVIEW" --allow-same-run --merge "$W/twice.ospsnap" "$W/default.ospsnap" "$W/default.ospsnap" > /dev/null 2>&1 ||
  osp_fail "--merge of the default snapshot with itself: exit status $?"
functions_screen "$W/twice.ospsnap" > "$W/twice.fns"
awk '{ print $1, $2, $NF }' "$W/default.fns" > "$W/default.cols"
awk '{ print $1, $2, $NF }' "$W/twice.fns" > "$W/twice.cols"
cmp -s "$W/default.cols" "$W/twice.cols" ||
  { osp_fail "--merge: the functions' shares changed"; osp_show "$W/twice.fns"; }
grep -v '^#' "$W/default.fns" | awk '{ exit !($3 == "-") }' ||
  osp_fail "default mode: calls should be '-' (not measured)"

osp_done

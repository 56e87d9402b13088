#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/viewer-merge.sh - ospview --merge OUT IN...: snapshots of several runs of one program
# merged into one, estimates and errors combined (viewer/merge.c).
#
# progs/merge-runs.c K N chooses among four branches with weights rotated by K, so runs with
# K = 0, 1, 2 have different hot paths (some rows are in one run only).  Each is run twice:
# sampled (mode=subpaths, paths=counter, forest=burst; fixed seeds, so the test is
# deterministic for a build) and exact (mode=subpaths-exact, paths=exhaustive,
# forest=exhaustive with forest_prune=0).  progs/merge-dump.c prints a snapshot's rows by
# content with a reader of its own (no code shared with ospview).
#
#   a. `ospview -b 1 MERGED` opens the merge of the three sampled runs; the status line says
#      "merged from 3 snapshots"; --merge printed its one line.
#   b. Accuracy: every one of the top 20 merged subpaths and all merged paths (by rank)
#      against the exact count of the same inputs (the three exact runs' rows summed by
#      key in awk): at least 85% within +/- err95 and all within 3 x err95.  Why 85%: err95
#      is a 95% half-width, so ~5% (1.7 of 34 rows) fall outside by chance; 85% allows 5 of
#      34 (Binomial(34, 0.05) >= 6 has probability < 1%); the seeds are fixed, so a failure
#      is a real change, not bad luck.  3 x err95 is ~5.9 sigma: never by chance.
#      b2: every merged row's estimate and err95 follow the documented rule exactly (from the
#      three inputs' rows, recomputed in awk), and some rows are absent from some inputs.
#   c. The merge of the three exact runs: the same keys as the runs' rows together (the
#      union), each count and estimate the sum, err95 0 for subpaths and paths (complete
#      sections: nothing absent can hide anything); forest counts summed by chain.
#   d. Merging a sampled snapshot with itself (--allow-same-run): every count and estimate
#      exactly doubled, the same rows, blocks_seen doubled; the stats: samples (a counter)
#      doubled, interval (a setting) kept, merged_snapshots 2.
#   e. Refusals, each one stderr line, exit 1, no OUT: another program (no function in
#      common), another build of this program (-O0: other blocks), another mode, a
#      corrupted input (named).
#   f. A merge of one input reproduces its rows: counts, estimates, err95 and ranks equal,
#      shares within 1e-12 relative; its statistics equal, plus merged_snapshots 1 (and the
#      other merged_* a merge records, tests/viewer-fleet.sh).
#   g. One run counted twice is refused (one stderr line naming the reason and both files,
#      exit 1, no OUT) unless --allow-same-run: the same file twice (also third after
#      another), a copy of a snapshot, and two snapshots of one process instance
#      (progs/phases.c: `ospview --save` while it runs, then its exit snapshot); with
#      --allow-same-run that pair merges.  --allow-same-run without --merge: exit 2.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup viewer-merge

OSPVIEW=$abs_top_builddir/viewer/ospview
SRC=$abs_top_srcdir
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }
osp_need_build

N=300000
osp_compile "$W/prog" osp_cc -O1 -g "$SRC/tests/progs/merge-runs.c" -o "$W/prog" ||
  { echo "error: cannot build merge-runs.c with the plugin"; exit 99; }
osp_compile "$W/dump" plain_cc -std=c11 -O1 "$SRC/tests/progs/merge-dump.c" -o "$W/dump" ||
  { echo "error: cannot build merge-dump.c"; exit 99; }

for k in 0 1 2; do
  osp_exec_with "report=none:snapshot=$W/s$k.ospsnap:seed=$((k + 1)):max_length=32" \
    "$W/s$k" "$W/prog" $k $N
  [ "$osp_rc" -eq 0 ] && [ -s "$W/s$k.ospsnap" ] ||
    { echo "error: sampled run $k: status $osp_rc, no snapshot"; osp_show "$W/s$k.err"; exit 99; }
  osp_exec_with "report=none:snapshot=$W/e$k.ospsnap:mode=subpaths-exact:paths=exhaustive:forest=exhaustive:forest_prune=0" \
    "$W/e$k" "$W/prog" $k $N
  [ "$osp_rc" -eq 0 ] && [ -s "$W/e$k.ospsnap" ] ||
    { echo "error: exact run $k: status $osp_rc, no snapshot"; osp_show "$W/e$k.err"; exit 99; }
done

# osp_merge and osp_merge_refused (lib.sh) run the merges.
# MERGE_FLAGS: options before --merge (unquoted: words).
MERGE_FLAGS=

# --- a. the merged snapshot opens ---------------------------------------------------------------
osp_merge "$W/m.ospsnap" "$W/s0.ospsnap" "$W/s1.ospsnap" "$W/s2.ospsnap"
if [ "$rc" -ne 0 ] || [ -s "$W/m.ospsnap.err" ]; then
  osp_fail "a: --merge of 3 runs: status $rc"
  osp_show "$W/m.ospsnap.err"
  osp_done
fi
grep -q "^merged 3 snapshots into $W/m.ospsnap (.* subpaths, .* paths, .* forest nodes)\$" \
  "$W/m.ospsnap.out" || osp_fail "a: the merge's line: $(cat "$W/m.ospsnap.out")"
"$OSPVIEW" -b 1 "$W/m.ospsnap" > "$W/m.view" 2> "$W/m.view.err" ||
  { osp_fail "a: ospview -b 1 on the merge: status $?"; osp_show "$W/m.view.err"; }
head -n 1 "$W/m.view" | grep -q "^snapshot .*m\.ospsnap: .*  merged from 3 snapshots\$" ||
  osp_fail "a: the status line does not say 'merged from 3 snapshots': $(head -n 1 "$W/m.view")"
grep -q "^hottest subpaths" "$W/m.view" && grep -q "^hottest Ball-Larus paths" "$W/m.view" &&
  grep -q "^prefix forest" "$W/m.view" || { osp_fail "a: a screen is missing"; osp_show "$W/m.view"; }

"$W/dump" "$W/m.ospsnap" > "$W/m.rows" || osp_fail "a: merge-dump cannot read the merge"
for k in 0 1 2; do
  "$W/dump" "$W/s$k.ospsnap" > "$W/s$k.rows" && "$W/dump" "$W/e$k.ospsnap" > "$W/e$k.rows" ||
    { echo "error: merge-dump cannot read the runs' snapshots"; exit 99; }
done
cat "$W/e0.rows" "$W/e1.rows" "$W/e2.rows" > "$W/e.rows"
# The merged forest is in preorder (every node right after its parent or after a subtree of
# its parent's, i.e. its parent is on the stack of open nodes), siblings and trees hottest
# first; the subpaths and paths ranked 1, 2, ...
awk -F '\t' '
  $1 == "sub" || $1 == "path" { if ($7 != ++rank[$1]) { bad++; print "a: " $1 " " $2 ": rank " $7 } }
  $1 == "forest" {
    n = split ($2, chain, / > /); p = n > 1 ? substr ($2, 1, length ($2) - length (chain[n]) - 3) : ""
    if (n - 1 != $7) { bad++; print "a: forest " $2 ": depth " $7 }
    while (sp > 0 && stack[sp] != p) sp--
    if (p != "" && sp == 0) { bad++; print "a: forest " $2 ": not under its parent" }
    if ((p in last) && last[p] < $4) { bad++; print "a: forest " $2 ": hotter than its elder sibling" }
    last[p] = $4; stack[++sp] = $2; nf++ }
  END { if (nf == 0) { bad++; print "a: no forest rows" }; exit bad > 0 }' "$W/m.rows" > "$W/a.out" ||
  { osp_fail "a: the merged rows are not ranked or the forest is not in preorder"; osp_show "$W/a.out"; }

# --- b. within the error of the exact counts ----------------------------------------------------
awk -F '\t' -v top=20 '
  NR == FNR { if ($1 == "sub" || $1 == "path") exact[$1 SUBSEP $2] += $3; next }
  ($1 == "sub" && $7 <= top) || $1 == "path" {
    n++
    d = $4 - exact[$1 SUBSEP $2]
    if (d < 0) d = -d
    if (d <= $5) in1++
    if (d <= 3 * $5) in3++
    else printf "b: outside 3 x err95: %s %s: estimate %s +/- %s, exact %d\n", $1, $2, $4, $5, exact[$1 SUBSEP $2]
  }
  END { printf "%d %d %d\n", n, in1, in3 }' "$W/e.rows" "$W/m.rows" > "$W/b.out"
set -- $(tail -n 1 "$W/b.out")
echo "b: $1 top rows: $2 within err95, $3 within 3 x err95"
if [ "${1:-0}" -lt 20 ] || [ $(($2 * 100)) -lt $(($1 * 85)) ] || [ "$3" -ne "$1" ]; then
  osp_fail "b: want >= 20 rows, >= 85% within err95 and all within 3 x err95"
  osp_show "$W/b.out"
fi

# b2. The error rule, row by row (sampled sections count as cut, so an input that lacks a row
# adds its smallest estimate of that section): err95 = sqrt (sum of err95_i^2 over the inputs
# that have the row) + sum over those that lack it of their smallest estimate; the estimate is
# the sum.  Within 1e-9 relative (the order of the additions differs).
for k in 0 1 2; do
  awk -F '\t' -v run=$k '$1 == "sub" || $1 == "path" || $1 == "forest" { print run "\t" $0 }' "$W/s$k.rows"
done > "$W/s.rows"
awk -F '\t' '
  function rel(a, b) { d = a - b; if (d < 0) d = -d; return b > 0 ? d / b : d }
  NR == FNR { k = $2 SUBSEP $3
              if (!(($1, $2) in lo) || $5 < lo[$1, $2]) lo[$1, $2] = $5
              est[k] += $5; var[k] += $6 * $6; had[k, $1] = 1; next }
  $1 == "sub" || $1 == "path" || $1 == "forest" {
    k = $1 SUBSEP $2; n++
    want = sqrt(var[k])
    for (r = 0; r < 3; r++) if (!((k, r) in had)) { want += lo[r, $1]; absent++ }
    if (rel($4, est[k]) > 1e-9 || rel($5, want) > 1e-9) {
      bad++; if (bad < 10) print "b2: " $1 " " $2 ": " $4 " +/- " $5 ", want " est[k] " +/- " want } }
  END { print "b2: " n " rows, " absent " absences, " bad + 0 " wrong"; exit bad > 0 || absent == 0 }' \
  "$W/s.rows" "$W/m.rows" > "$W/b2.out" ||
  { osp_fail "b2: estimates or err95 do not follow the rule"; osp_show "$W/b2.out"; }
tail -n 1 "$W/b2.out"

# --- c. the exact merge: sums, the union, err95 0 -----------------------------------------------
osp_merge "$W/me.ospsnap" "$W/e0.ospsnap" "$W/e1.ospsnap" "$W/e2.ospsnap"
if [ "$rc" -ne 0 ]; then
  osp_fail "c: --merge of the exact runs: status $rc"
  osp_show "$W/me.ospsnap.err"
else
  "$W/dump" "$W/me.ospsnap" > "$W/me.rows"
  awk -F '\t' '
    NR == FNR { if ($1 != "run" && $1 != "stat") { sum[$1 SUBSEP $2] += $3; est[$1 SUBSEP $2] += $4 }; next }
    $1 == "run" || $1 == "stat" { next }
    { k = $1 SUBSEP $2; seen[k] = 1
      if (!(k in sum)) { bad++; print "c: not in any run: " $1 " " $2; next }
      if ($3 != sum[k] || $4 != est[k]) { bad++; print "c: " $1 " " $2 ": " $3 " " $4 ", want " sum[k] }
      if ($1 != "forest" && $5 != 0) { bad++; print "c: " $1 " " $2 ": err95 " $5 ", want 0" } }
    END { for (k in sum) if (!(k in seen)) { bad++; split (k, p, SUBSEP); print "c: missing " p[1] " " p[2] }
          exit bad > 0 }' "$W/e.rows" "$W/me.rows" > "$W/c.out" ||
    { osp_fail "c: the exact merge is not the sum of the runs"; osp_show "$W/c.out"; }
  echo "c: $(grep -c -v -e '^run' -e '^stat' "$W/me.rows") exact rows, union of $(grep -v -e '^run' -e '^stat' "$W/e.rows" | cut -f 1,2 | sort -u | wc -l) distinct"
fi

# --- d. a snapshot merged with itself -------------------------------------------------------------
MERGE_FLAGS=--allow-same-run
osp_merge "$W/self.ospsnap" "$W/s1.ospsnap" "$W/s1.ospsnap"
MERGE_FLAGS=
if [ "$rc" -ne 0 ]; then
  osp_fail "d: --merge of a snapshot with itself: status $rc"
  osp_show "$W/self.ospsnap.err"
else
  "$W/dump" "$W/self.ospsnap" > "$W/self.rows"
  awk -F '\t' '
    NR == FNR { if ($1 == "stat") st[$2] = $3
                else { n1++; if ($1 == "run") bs = $2; else { c[$1 SUBSEP $2] = $3; e[$1 SUBSEP $2] = $4 } }
                next }
    $1 == "stat" { if (($2 == "samples" && $3 != 2 * st[$2]) || ($2 == "interval" && $3 != st[$2]) ||
                       ($2 == "merged_snapshots" && $3 != 2)) { bad++; print "d: stat " $2 " " $3 }
                   if ($2 == "samples" || $2 == "interval" || $2 == "merged_snapshots") nst++
                   next }
    $1 == "run" { if ($2 != 2 * bs) { bad++; print "d: blocks_seen " $2 ", want " 2 * bs }; n2++; next }
    { k = $1 SUBSEP $2; n2++
      if (!(k in c) || $3 != 2 * c[k] || $4 != 2 * e[k]) { bad++; print "d: " $1 " " $2 ": " $3 " " $4 ", want " 2 * c[k] " " 2 * e[k] } }
    END { if (n1 != n2) { bad++; print "d: " n2 " rows, want " n1 }
          if (nst != 3) { bad++; print "d: stat samples, interval or merged_snapshots missing" }
          exit bad > 0 }' \
    "$W/s1.rows" "$W/self.rows" > "$W/d.out" ||
    { osp_fail "d: merging a snapshot with itself does not double it"; osp_show "$W/d.out"; }
fi

# --- e. refusals --------------------------------------------------------------------------------
# refused LABEL WORDS OUT IN...: status 1, one stderr line containing WORDS, no OUT.
osp_compile "$W/other" osp_cc -O1 -g "$SRC/tests/progs/forest-loops.c" -o "$W/other" ||
  { echo "error: cannot build forest-loops.c with the plugin"; exit 99; }
osp_exec_with "report=none:snapshot=$W/other.ospsnap" "$W/other" "$W/other" 2000
osp_compile "$W/prog0" osp_cc -O0 -g "$SRC/tests/progs/merge-runs.c" -o "$W/prog0" ||
  { echo "error: cannot build merge-runs.c at -O0"; exit 99; }
osp_exec_with "report=none:snapshot=$W/o0.ospsnap" "$W/o0" "$W/prog0" 0 1000
[ -s "$W/other.ospsnap" ] && [ -s "$W/o0.ospsnap" ] || { echo "error: no snapshot of the other programs"; exit 99; }
osp_merge_refused "e: another program" "$W/other.ospsnap: no function in common with $W/s0.ospsnap" \
  "$W/r1.ospsnap" "$W/s0.ospsnap" "$W/other.ospsnap"
osp_merge_refused "e: another build" "$W/o0.ospsnap: not the same build of the program as $W/s0.ospsnap: function " \
  "$W/r2.ospsnap" "$W/s0.ospsnap" "$W/o0.ospsnap"
osp_merge_refused "e: another mode" "$W/e1.ospsnap: mode subpaths-exact, not subpaths like $W/s0.ospsnap" \
  "$W/r3.ospsnap" "$W/s0.ospsnap" "$W/e1.ospsnap"
cp "$W/s2.ospsnap" "$W/bad.ospsnap"
size=$(wc -c < "$W/bad.ospsnap")
printf 'XXXX' | dd of="$W/bad.ospsnap" bs=1 seek=$((size / 2)) conv=notrunc 2> /dev/null
osp_merge_refused "e: a corrupted input" "ospview: $W/bad.ospsnap: " "$W/r4.ospsnap" "$W/s0.ospsnap" "$W/bad.ospsnap"
osp_merge_refused "e: a missing input" "ospview: $W/none.ospsnap: " "$W/r5.ospsnap" "$W/s0.ospsnap" "$W/none.ospsnap"

# --- f. a merge of one input --------------------------------------------------------------------
osp_merge "$W/one.ospsnap" "$W/s0.ospsnap"
if [ "$rc" -ne 0 ]; then
  osp_fail "f: --merge of one input: status $rc"
  osp_show "$W/one.ospsnap.err"
else
  "$W/dump" "$W/one.ospsnap" > "$W/one.rows"
  awk -F '\t' '
    function rel(a, b) { d = a - b; if (d < 0) d = -d; return b > 0 ? d / b : d }
    NR == FNR { row[$1 SUBSEP $2] = $0; n1++; next }
    $1 == "stat" && $2 == "merged_snapshots" { if ($3 != 1) { bad++; print "f: " $0 }; next }
    $1 == "stat" && $2 ~ /^merged_/ { next }
    { n2++; k = $1 SUBSEP $2
      if (!(k in row)) { bad++; print "f: new row " $1 " " $2; next }
      if ($1 == "stat") { if ($0 != row[k]) { bad++; print "f: " $0 ", want " row[k] }; next }
      split (row[k], a, "\t")
      if ($1 == "run") { if ($0 != row[k]) { bad++; print "f: run " $0 ", want " row[k] }; next }
      if ($3 != a[3] || $4 != a[4] || $5 != a[5] || $7 != a[7] || rel($6, a[6]) > 1e-12) {
        bad++; print "f: " $0; print "   want " row[k] } }
    END { if (n1 != n2) { bad++; print "f: " n2 " rows, want " n1 }; exit bad > 0 }' \
    "$W/s0.rows" "$W/one.rows" > "$W/f.out" ||
    { osp_fail "f: a merge of one input does not reproduce its rows"; osp_show "$W/f.out"; }
fi

# --- g. one run counted twice ---------------------------------------------------------------------
osp_merge_refused "e: the same file" "ospview: $W/s1.ospsnap: the same file as $W/s1.ospsnap: " \
  "$W/r6.ospsnap" "$W/s1.ospsnap" "$W/s1.ospsnap"
osp_merge_refused "e: the same file, third" "ospview: $W/s0.ospsnap: the same file as $W/s0.ospsnap: " \
  "$W/r7.ospsnap" "$W/s0.ospsnap" "$W/s2.ospsnap" "$W/s0.ospsnap"
cp "$W/s1.ospsnap" "$W/copy.ospsnap"
osp_merge_refused "e: a copy" "ospview: $W/copy.ospsnap: the same snapshot as $W/s1.ospsnap (a copy: pid " \
  "$W/r8.ospsnap" "$W/s1.ospsnap" "$W/copy.ospsnap"

osp_compile "$W/phases" osp_cc -O1 -g "$SRC/tests/progs/phases.c" -o "$W/phases" ||
  { echo "error: cannot build phases.c with the plugin"; exit 99; }
mkdir "$W/d" || exit 99
OSP_OPTIONS=report=none:publish_ms=100:snapshot=$W/late.ospsnap \
  "$W/phases" "$W/d" "$(osp_seconds 120)" > "$W/phases.out" 2> "$W/phases.err" < /dev/null &
PH=$!
save_early () { "$OSPVIEW" -p "$PH" --save "$W/early.ospsnap" > /dev/null 2> "$W/early.err"; }
osp_wait_until 30 save_early || { osp_fail "g: --save of the running program"; osp_show "$W/early.err"; }
: > "$W/d/b"
osp_wait_until 60 test -e "$W/d/b-done" || osp_fail "g: phases.c did not finish phase B"
kill -USR1 "$PH"
wait "$PH"
rc=$?
[ "$rc" -eq 0 ] && [ -s "$W/late.ospsnap" ] ||
  { osp_fail "g: phases.c: status $rc, no exit snapshot"; osp_show "$W/phases.err"; }
osp_merge_refused "e: one process instance" \
  "ospview: $W/late.ospsnap: the same process instance as $W/early.ospsnap (pid $PH, instance " \
  "$W/r9.ospsnap" "$W/early.ospsnap" "$W/late.ospsnap"
MERGE_FLAGS=--allow-same-run
osp_merge "$W/both.ospsnap" "$W/early.ospsnap" "$W/late.ospsnap"
MERGE_FLAGS=
[ "$rc" -eq 0 ] && [ -s "$W/both.ospsnap" ] ||
  { osp_fail "g: --allow-same-run: status $rc"; osp_show "$W/both.ospsnap.err"; }
"$OSPVIEW" --allow-same-run --diff "$W/s0.ospsnap" "$W/s1.ospsnap" > /dev/null 2> "$W/g.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q -- "--allow-same-run applies to --merge only" "$W/g.err" ||
  { osp_fail "g: --allow-same-run with --diff: status $rc"; osp_show "$W/g.err"; }

osp_done

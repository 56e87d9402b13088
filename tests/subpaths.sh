#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/subpaths.sh - end-to-end hot subpaths on the OSP paper's Figure 1 shape
# (tests/accuracy/figure1.c: 16 cold paths through segment() share the hot section
# [3 4 5 6], whose lines lie between the HOT-BEGIN and HOT-END markers).
#
# - The plain and the instrumented program print the same line; every report is well formed.
# - mode=subpaths-exact (100000 calls, subpaths up to exact_max=16 blocks: at the default 1024
#   the table grows to 800 MB, and on a machine slow to fault pages in the run took 100 s): the
#   hottest subpath of length 4 is the hot section, with count = the number of calls exactly.
# - mode=subpaths at the default settings, seed=1 (2000000 calls): the hot section is the
#   hottest subpath of length 4, both by report rank and by estimate, and its 95% interval
#   contains the number of calls.
# - The hot-list never exceeds its bound: hotlist_bytes_peak <= hotlist_bytes, also with the
#   smallest bound (hotlist_bytes=4K), which must force resamples.
# - osp_report() at six points: six well-formed reports with growing blocks_seen.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup subpaths
osp_need_build

src=$OSP_TESTSRC/accuracy/figure1.c
p=$W/figure1
osp_compile "$p" osp_cc -O2 -g "$src" -o "$p" || { osp_fail "figure1: the instrumented build failed"; osp_done; }
osp_compile "$p.plain" plain_cc -O2 -g "$src" -o "$p.plain" || { osp_fail "figure1: the plain build failed"; osp_done; }
hot_lo=$(grep -n '/\* HOT-BEGIN \*/' "$src" | cut -d: -f1)
hot_hi=$(grep -n '/\* HOT-END \*/' "$src" | cut -d: -f1)

# check_subpath_report FILE: the tsv form of the subpath modes (doc/CONTRACTS.md): header, row
# kinds in order, field counts, numbers, ranks 1..n then "-" (too few samples to rank), every
# block of a subpath row has a block row.
check_subpath_report ()
{
  awk -F '\t' '
    function bad(msg) { if (errs < 10) printf "report %s:%d: %s: %.120s\n", FILENAME, FNR, msg, $0; errs++ }
    function num(x) { return x ~ /^[0-9]+$/ }
    function dec(x) { return x ~ /^[0-9]+(\.[0-9]+)?$/ }
    FNR == 1 { if ($0 !~ /^# osp-report 1 mode=subpaths(-exact)?( paths=[a-z]+)?$/) bad("bad header"); next }
    { o = index("module function block subpath path edge forest work stat", $1); if (o == 0) { bad("unknown record"); next }
      if (o < last) bad("rows out of order"); last = o }
    $1 == "module" { if (NF != 3 || !num($2) || !num($3)) bad("bad module row"); next }
    $1 == "function" { if (NF != 7 || !num($2) || !num($5)) bad("bad function row"); fn[$2] = 1; next }
    $1 == "block" { if (NF != 8 || !num($2) || !num($3) || !(($2) in fn)) bad("bad block row"); blk[$2 ":" $3] = 1; next }
    $1 == "subpath" {
      # ranks 1..n, then the rows too few samples to rank: rank "-" (shares.c)
      if ($2 == "-") unranked = 1
      else if (unranked || $2 != ++rank) { bad("rank out of order"); next }
      if (NF != 11 || !num($3) || !dec($4) || !dec($5) || !num($6) || $7 !~ /^[0-9.e+-]+$/ ||
          !dec($9) || !dec($10) || $11 !~ /^[0-9.e+-]+$/) { bad("bad subpath row"); next }
      n = split($8, b, ",")
      if (n != $3) bad("length " $3 " but " n " blocks")
      for (i = 1; i <= n; i++) if (!(b[i] in blk)) bad("block " b[i] " has no block row")
      next
    }
    $1 == "work" { if (NF != 6 || !num($2) || !(($2) in fn)) bad("bad work row"); next }
    $1 == "stat" { if (NF != 3) bad("bad stat row"); st[$2] = 1; next }
    END {
      if (!("subpaths" in st) || !("blocks_seen" in st)) { print "report " FILENAME ": stats missing"; errs++ }
      exit errs ? 1 : 0
    }' "$1"
}

# hot_first4 REPORT: print "rank estimate err95 count blocks" of the first length-4 subpath
# row, and whether it is the hot section: four blocks of segment() that begin between the markers.
hot_first4 ()
{
  awk -F '\t' -v lo="$hot_lo" -v hi="$hot_hi" '
    $1 == "function" { fname[$2] = $3 }
    $1 == "block" { first[$2 ":" $3] = $6; last[$2 ":" $3] = $7 }
    $1 == "subpath" && $3 == 4 && !done {
      n = split($8, b, ","); ok = n == 4
      for (i = 1; i <= n; i++) {
        split(b[i], fb, ":")
        if (fname[fb[1]] != "segment" || first[b[i]] <= lo || first[b[i]] >= hi) ok = 0
      }
      printf "%s %s %s %s %s %s\n", $2, $4, $5, $6, $8, ok ? "hot" : "not-hot"; done = 1
    }' "$1"
}
# best4_by_estimate REPORT: the blocks of the length-4 subpath with the highest estimate.
best4_by_estimate ()
{
  awk -F '\t' '$1 == "subpath" && $3 == 4 && (best == "" || $4 + 0 > best + 0) { best = $4; path = $8 }
               END { print path }' "$1"
}
check_bound ()
{
  peak=$(osp_stat "$1" hotlist_bytes_peak)
  bound=$(osp_stat "$1" hotlist_bytes)
  if [ -z "$peak" ] || [ -z "$bound" ] || [ "$peak" -gt "$bound" ]; then
    osp_fail "$2: hotlist_bytes_peak '$peak' exceeds the bound hotlist_bytes '$bound'"
  fi
}

osp_exec "$W/plain" "$p.plain" 2000000
[ "$osp_rc" -eq 0 ] || osp_fail "figure1 (plain) exited with $osp_rc"

# Exact mode, small run.
osp_exec "$W/plain-small" "$p.plain" 100000
osp_exec_with "mode=subpaths-exact:exact_max=16:report=$W/exact.tsv:report_format=tsv" "$W/exact" "$p" 100000
[ "$osp_rc" -eq 0 ] || osp_fail "exact run exited with $osp_rc"
osp_same "exact run stdout" "$W/plain-small.out" "$W/exact.out"
check_subpath_report "$W/exact.tsv" || osp_fail "exact report malformed"
# shellcheck disable=SC2046
set -- $(hot_first4 "$W/exact.tsv")
echo "exact: hottest of length 4: rank $1 count $4 blocks $5 ($6)"
[ "${6:-}" = hot ] || osp_fail "exact: the hottest subpath of length 4 is '$5', not the hot section (lines $hot_lo-$hot_hi)"
[ "${4:-}" = 100000 ] || osp_fail "exact: the hot section's count is '$4', expected 100000"
[ "$(osp_stat "$W/exact.tsv" exact_dropped)" = 0 ] || osp_fail "exact: occurrences dropped"
exact_hot=$5

# Sampled, defaults, fixed seed.
osp_exec_with "seed=1:report=$W/sampled.tsv:report_format=tsv" "$W/sampled" "$p" 2000000
[ "$osp_rc" -eq 0 ] || osp_fail "sampled run exited with $osp_rc"
osp_same "sampled run stdout" "$W/plain.out" "$W/sampled.out"
check_subpath_report "$W/sampled.tsv" || osp_fail "sampled report malformed"
head -n 1 "$W/sampled.tsv" | grep -q -E 'mode=subpaths( |$)' || osp_fail "the default mode is not subpaths"
# shellcheck disable=SC2046
set -- $(hot_first4 "$W/sampled.tsv")
echo "sampled: hottest of length 4: rank $1 estimate $2 +/- $3 (count $4) blocks $5 ($6)"
[ "${6:-}" = hot ] || osp_fail "sampled: the hottest subpath of length 4 (by rank) is '$5', not the hot section"
[ "${5:-}" = "$exact_hot" ] || osp_fail "sampled: hottest of length 4 '$5' differs from the exact one '$exact_hot'"
[ "$(best4_by_estimate "$W/sampled.tsv")" = "$exact_hot" ] ||
  osp_fail "sampled: the length-4 subpath with the highest estimate is not the hot section"
if [ -n "${2:-}" ] && ! awk -v e="$2" -v d="$3" 'BEGIN { exit !(e - d <= 2000000 && 2000000 <= e + d) }'; then
  osp_fail "sampled: the hot section's interval $2 +/- $3 does not contain 2000000"
fi
check_bound "$W/sampled.tsv" "sampled, defaults"

# The smallest bound forces resamples; the bound still holds and the hot section stays on top.
osp_exec_with "seed=1:hotlist_bytes=4K:report=$W/tiny.tsv:report_format=tsv" "$W/tiny" "$p" 2000000
[ "$osp_rc" -eq 0 ] || osp_fail "hotlist_bytes=4K run exited with $osp_rc"
check_subpath_report "$W/tiny.tsv" || osp_fail "hotlist_bytes=4K report malformed"
check_bound "$W/tiny.tsv" "hotlist_bytes=4K"
[ "$(osp_stat "$W/tiny.tsv" hotlist_bytes)" = 4096 ] || osp_fail "hotlist_bytes=4K: the bound is not 4096"
echo "hotlist_bytes=4K: peak $(osp_stat "$W/tiny.tsv" hotlist_bytes_peak), resamples $(osp_stat "$W/tiny.tsv" resamples), evictions $(osp_stat "$W/tiny.tsv" hotlist_evictions), policy $(osp_stat "$W/tiny.tsv" policy)"
if [ "$(osp_stat "$W/tiny.tsv" policy)" = concise ] && [ "$(osp_stat "$W/tiny.tsv" resamples)" -eq 0 ]; then
  osp_fail "hotlist_bytes=4K: no resample"
fi
for pol in concise spacesaving counting; do
  osp_exec_with "seed=2:policy=$pol:hotlist_bytes=4K:report=$W/tiny-$pol.tsv:report_format=tsv" "$W/tiny-$pol" "$p" 2000000
  [ "$osp_rc" -eq 0 ] || osp_fail "policy=$pol hotlist_bytes=4K run exited with $osp_rc"
  check_bound "$W/tiny-$pol.tsv" "policy=$pol hotlist_bytes=4K"
done

# osp_report() at six points.
osp_exec_with "seed=1:report=none:report_format=tsv" "$W/online" "$p" 600000 "$W/online"
[ "$osp_rc" -eq 0 ] || osp_fail "online run exited with $osp_rc"
prev=0
for i in 1 2 3 4 5 6; do
  f=$W/online.$i.tsv
  if [ ! -f "$f" ]; then osp_fail "osp_report() wrote no $f"; continue; fi
  check_subpath_report "$f" || osp_fail "report $i malformed"
  check_bound "$f" "report $i"
  b=$(osp_stat "$f" blocks_seen)
  [ "${b:-0}" -gt "$prev" ] || osp_fail "report $i: blocks_seen $b not above $prev"
  prev=${b:-0}
done

osp_done

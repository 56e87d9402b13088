#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/precision.sh - precision that never decreases with run length at a fixed memory bound
# (issue 34, "What to build" 1): tests/progs/diverse.c, a phased high-diversity program whose
# bytecode interpreter fills every table of the hot-list, run at two lengths (ROUNDS 20 and
# 80: the same phases, 4x the work) with the default options (only seed and the report):
# - the relative 95% intervals (err95 / estimate) of the report's top 10 subpaths are not
#   wider in the longer run: both sets sorted, the k-th narrowest of the long run is at most
#   the k-th narrowest of the short one, for k = 1..10;
# - at the shorter length the report's top 5 (ties within 0.1% honoured: tools/ospcompare
#   recall_ties) are the exact top 5 of mode=subpaths-exact, each within 5% of its exact count;
# - blocks_seen equals the exact count; the memory bound holds.
# Under concise samples with the gain limit (the default before Space-Saving) all three checks
# fail: 6-9 of the 10 intervals widen (seeds 1-3), the report's top 5 held 4 of the exact top 5
# (equal counts only, below),
# and the worst top-5 error is 11.9% (doc/ACCURACY.md).  Run lengths are work sizes, never
# times.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup precision
osp_need_build

CMP="$abs_top_srcdir/tools/ospcompare"
b=$W/diverse
src=$OSP_TESTSRC/progs/diverse.c
if ! osp_compile "$b" osp_cc -O2 -g "$src" -o "$b" ||
   ! osp_compile "$b.plain" plain_cc -O2 -g "$src" -o "$b.plain"; then
  osp_fail "build failed"
  osp_done
fi

for n in 20 80; do
  osp_exec "$b.plain.$n" "$b.plain" "$n"
  [ "$osp_rc" -eq 0 ] || osp_fail "plain diverse $n exited with $osp_rc"
  osp_exec_with "seed=1:report=$b.$n.tsv:report_format=tsv" "$b.$n" "$b" "$n"
  [ "$osp_rc" -eq 0 ] || osp_fail "diverse $n exited with $osp_rc"
  osp_same "diverse $n stdout" "$b.plain.$n.out" "$b.$n.out"
  peak=$(osp_stat "$b.$n.tsv" hotlist_bytes_peak) bound=$(osp_stat "$b.$n.tsv" hotlist_bytes)
  { [ -n "$peak" ] && [ "$peak" -le "$bound" ]; } || osp_fail "diverse $n: hotlist_bytes_peak '$peak' > hotlist_bytes '$bound'"
  echo "diverse $n: policy $(osp_stat "$b.$n.tsv" policy), blocks_seen $(osp_stat "$b.$n.tsv" blocks_seen), samples $(osp_stat "$b.$n.tsv" samples), skips x$(osp_stat "$b.$n.tsv" stretch), largest threshold $(osp_stat "$b.$n.tsv" threshold)"
  awk -F '\t' '$1 == "subpath" && $2 != "-" && $2 <= 10 { print $5 / $4 }' "$b.$n.tsv" | sort -g > "$b.$n.rel"
done

# The top 10's relative intervals, narrowest first, short run against the 4x run.
if [ "$(wc -l < "$b.20.rel")" -ne 10 ] || [ "$(wc -l < "$b.80.rel")" -ne 10 ]; then
  osp_fail "fewer than 10 subpaths reported"
else
  paste "$b.20.rel" "$b.80.rel" | awk '
    { printf "top-10 relative interval %d: +/-%.2f%% at 20 rounds, +/-%.2f%% at 80\n", NR, 100 * $1, 100 * $2
      if ($2 > $1) wider++ }
    END { exit wider > 0 }' || osp_fail "a top-10 relative 95% interval is wider in the 4x longer run"
fi

# The shorter run against the exact count (lengths <= 8: the top 5 are short, and longer
# exact subpaths of the interpreter would overflow the exact table).
osp_exec_with "mode=subpaths-exact:exact_max=8:report=$b.exact.tsv:report_format=tsv" "$b.exact" "$b" 20
[ "$osp_rc" -eq 0 ] || osp_fail "exact run exited with $osp_rc"
[ "$(osp_stat "$b.exact.tsv" exact_dropped)" = 0 ] || osp_fail "the exact table dropped occurrences"
[ "$(osp_stat "$b.20.tsv" blocks_seen)" = "$(osp_stat "$b.exact.tsv" blocks_seen)" ] ||
  osp_fail "blocks_seen $(osp_stat "$b.20.tsv" blocks_seen), exact $(osp_stat "$b.exact.tsv" blocks_seen)"
# Ties within 0.1%: diverse.c's six hottest subpaths are counted 20000000 to 19999940 (3 parts in
# a million apart, against 95% intervals of 3-6%), so which five of them a sample ranks first is
# chance: with equal counts only, seeds 1-10 passed 7 times, with starts thinned at the block
# (before) as ahead of it (libosprt/collect/sampler.c pre_thin), seed 1 only before.
if sh "$CMP" -r -k 5 -n 5 -t 5 -e 5 -T 0.1 "$b.20.tsv" "$b.exact.tsv" > "$b.cmp"; then
  cut -c 1-160 "$b.cmp"
  v () { awk -F '\t' -v n="$1" '$1 == "summary" && $2 == n { print $3 }' "$b.cmp"; }
  [ "$(v recall_ties)" = 5/5 ] || osp_fail "only $(v recall_ties) of the exact top 5 are in the report's top 5"
  [ "$(v within_pct)" = 1 ] || osp_fail "an exact top-5 estimate is off by $(v max_abs_error_pct)% (exact rank $(v worst)); the target is 5%"
else
  osp_fail "ospcompare failed"
fi

osp_done

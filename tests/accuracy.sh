#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/accuracy.sh - sampled hot subpaths against the exact count (the OSP issue's targets),
# on tests/accuracy/fft.c and tests/accuracy/heapsort.c, with tools/ospcompare.
#
# For each program: one mode=subpaths-exact run (the ground truth, lengths <= exact_max = 32),
# then sampled runs at the default settings but interval=1000 (only seed, interval and the report
# destination are given): the 5% target below was set at that interval, the default before
# issue 36; at the default 2000 fft's worst top-5 error at seed 1 is 6.04% (doc/ACCURACY.md,
# "The default's rates"):
# - seed=1: each of the exact top-5 subpaths is in the report's top 10 (its own rank, lengths
#   <= 32) and its estimate is within 5% of the exact count;
# - seeds 1..$OSP_ACC_SEEDS (default 40): the 95% interval of each exact top-5 subpath covers
#   the exact count at the stated rate.  With T = programs x seeds x 5 trials the number of
#   misses is Binomial(T, 0.05) if the intervals are right; it must lie within 3 standard
#   deviations of 0.05 T (for T = 400: 7..33 misses, coverage 91.7%..98.3%).  Too many misses
#   means intervals too narrow or biased estimates; too few means intervals so wide that they
#   do not mean 95%.  (The five subpaths of one run are not quite independent; 3 sd leaves room.)
#   And the mean estimate over the seeds of each top-5 subpath is within 3 standard errors
#   (sample sd / sqrt(seeds)) plus 0.5% of its exact count (no bias);
# - every run: hotlist_bytes_peak <= hotlist_bytes, also with hotlist_bytes=4K (both policies),
#   and blocks_seen equals the exact run's count.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup accuracy
osp_need_build

CMP="$abs_top_srcdir/tools/ospcompare"
SEEDS=${OSP_ACC_SEEDS:-40}
: > "$W/trials"

for p in fft heapsort; do
  src=$OSP_TESTSRC/accuracy/$p.c
  b=$W/$p
  if ! osp_compile "$b" osp_cc -O2 -g "$src" -o "$b" -lm ||
     ! osp_compile "$b.plain" plain_cc -O2 -g "$src" -o "$b.plain" -lm; then
    osp_fail "$p: build failed"
    continue
  fi
  osp_exec "$b.plain" "$b.plain"
  [ "$osp_rc" -eq 0 ] || { osp_fail "$p (plain) exited with $osp_rc"; continue; }

  osp_exec_with "mode=subpaths-exact:report=$b.exact.tsv:report_format=tsv" "$b.exact" "$b"
  [ "$osp_rc" -eq 0 ] || { osp_fail "$p exact run exited with $osp_rc"; continue; }
  osp_same "$p exact stdout" "$b.plain.out" "$b.exact.out"
  [ "$(osp_stat "$b.exact.tsv" exact_dropped)" = 0 ] || osp_fail "$p: the exact table dropped occurrences"
  echo "$p: $(osp_stat "$b.exact.tsv" blocks_seen) blocks, $(osp_stat "$b.exact.tsv" exact_entries) distinct subpaths of length <= $(osp_stat "$b.exact.tsv" max_length)"

  s=1
  while [ "$s" -le "$SEEDS" ]; do
    r=$b.s$s
    osp_exec_with "seed=$s:interval=1000:report=$r.tsv:report_format=tsv" "$r" "$b"
    if [ "$osp_rc" -ne 0 ]; then osp_fail "$p seed=$s exited with $osp_rc"; s=$((s + 1)); continue; fi
    osp_same "$p seed=$s stdout" "$b.plain.out" "$r.out" > /dev/null
    # Each block is counted once, sampled or not (tests/phantom.sh).
    [ "$(osp_stat "$r.tsv" blocks_seen)" = "$(osp_stat "$b.exact.tsv" blocks_seen)" ] ||
      osp_fail "$p seed=$s: blocks_seen $(osp_stat "$r.tsv" blocks_seen), exact $(osp_stat "$b.exact.tsv" blocks_seen)"
    if ! sh "$CMP" -r -k 5 -n 10 -t 10 -e 5 "$r.tsv" "$b.exact.tsv" > "$r.cmp"; then
      osp_fail "$p seed=$s: ospcompare failed"; s=$((s + 1)); continue
    fi
    v () { awk -F '\t' -v n="$1" '$1 == "summary" && $2 == n { print $3 }' "$r.cmp"; }
    [ "$(v bound_ok)" = 1 ] || osp_fail "$p seed=$s: hotlist_bytes_peak $(osp_stat "$r.tsv" hotlist_bytes_peak) > hotlist_bytes $(osp_stat "$r.tsv" hotlist_bytes)"
    awk -F '\t' -v p="$p" -v s="$s" '$1 == "true" { print p, $2, s, $3, $6, $7, $9 }' "$r.cmp" >> "$W/trials"
    if [ "$s" -eq 1 ]; then
      echo "== $p, defaults but interval, seed=1 (policy $(osp_stat "$r.tsv" policy), interval $(osp_stat "$r.tsv" interval), hotlist_bytes $(osp_stat "$r.tsv" hotlist_bytes))"
      cut -c 1-200 "$r.cmp"
      [ "$(v recall)" = 5/5 ] || osp_fail "$p seed=1: only $(v recall) of the exact top 5 are in the sampled top 10"
      [ "$(v within_pct)" = 1 ] || osp_fail "$p seed=1: an exact top-5 estimate is off by $(v max_abs_error_pct)% (exact rank $(v worst)); the target is 5%"
    fi
    s=$((s + 1))
  done

  # The smallest memory bound, both policies.
  for pol in concise spacesaving counting; do
    r=$b.tiny-$pol
    osp_exec_with "seed=1:policy=$pol:hotlist_bytes=4K:report=$r.tsv:report_format=tsv" "$r" "$b"
    [ "$osp_rc" -eq 0 ] || osp_fail "$p policy=$pol hotlist_bytes=4K exited with $osp_rc"
    [ "$(osp_stat "$r.tsv" blocks_seen)" = "$(osp_stat "$b.exact.tsv" blocks_seen)" ] ||
      osp_fail "$p policy=$pol hotlist_bytes=4K: blocks_seen $(osp_stat "$r.tsv" blocks_seen), exact $(osp_stat "$b.exact.tsv" blocks_seen)"
    peak=$(osp_stat "$r.tsv" hotlist_bytes_peak)
    echo "$p policy=$pol hotlist_bytes=4K: peak $peak, resamples $(osp_stat "$r.tsv" resamples), evictions $(osp_stat "$r.tsv" hotlist_evictions)"
    { [ -n "$peak" ] && [ "$peak" -le 4096 ]; } || osp_fail "$p policy=$pol hotlist_bytes=4K: peak '$peak' > 4096"
  done
done

# Interval coverage and bias over the seeds.  trials: program xrank seed exact estimate err95 in95
if [ -s "$W/trials" ]; then
  awk -v seeds="$SEEDS" '
    { t++; miss += !$7; k = $1 " #" $2; n[k]++; sum[k] += $5; sq[k] += $5 * $5; ex[k] = $4 }
    END {
      exp_ = 0.05 * t; sd = sqrt(t * 0.05 * 0.95)
      lo = exp_ - 3 * sd; hi = exp_ + 3 * sd
      printf "interval coverage: %d of %d trials covered (%.1f%%), %d misses; accepted %.1f..%.1f misses\n", t - miss, t, 100 * (t - miss) / t, miss, lo, hi
      bad = 0
      if (miss < lo || miss > hi) { print "FAIL-COVERAGE"; bad = 1 }
      for (k in n) {
        m = sum[k] / n[k]; var = n[k] > 1 ? (sq[k] - n[k] * m * m) / (n[k] - 1) : 0
        se = sqrt(var > 0 ? var : 0) / sqrt(n[k])
        ok = (m - ex[k] < 0 ? ex[k] - m : m - ex[k]) <= 3 * se + 0.005 * ex[k]
        printf "mean estimate %s: %.0f over %d seeds, exact %d, bias %+.2f%%, standard error %.2f%% %s\n", k, m, n[k], ex[k], 100 * (m - ex[k]) / ex[k], 100 * se / ex[k], ok ? "" : "BIASED"
        if (!ok) bad = 1
      }
      exit bad
    }' "$W/trials" > "$W/coverage.txt"
  rc=$?
  sort "$W/coverage.txt" | grep -v FAIL-COVERAGE
  if [ "$rc" -ne 0 ]; then
    grep -q FAIL-COVERAGE "$W/coverage.txt" && osp_fail "the 95% intervals cover the exact counts at the wrong rate"
    grep -q BIASED "$W/coverage.txt" && osp_fail "a mean estimate is further than 3 standard errors from the exact count"
  fi
else
  osp_fail "no trials"
fi

osp_done

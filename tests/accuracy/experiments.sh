#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/accuracy/experiments.sh - regenerate the tables of doc/ACCURACY.md.
#
# Usage (from a configured and built tree, not the source tree if they differ):
#     sh SRCDIR/tests/accuracy/experiments.sh [SEEDS] > accuracy-tables.md
# SEEDS (default 10) is the number of seeds of the policy comparison.  Work files go to
# tests/work/experiments.  Takes a few minutes (the exact runs dominate).
# Programs and inputs: figure1 150000 calls, fft 1000 rounds of 1024 points, heapsort 75 rounds
# of 10000 ints (the defaults of fft and heapsort, as in tests/accuracy.sh).

. "${OSP_ENV:-tests/env.sh}" || exit 99
LC_ALL=C
export LC_ALL
unset OSP_OPTIONS
SEEDS=${1:-10}
W=$abs_top_builddir/tests/work/experiments
CMP="sh $abs_top_srcdir/tools/ospcompare"
rm -rf "$W" && mkdir -p "$W" || exit 99
args_figure1=150000 args_fft='' args_heapsort=''
PROGS="figure1 fft heapsort"

stat () { awk -F '\t' -v n="$2" '$1 == "stat" && $2 == n { print $3 }' "$1"; }
run () { # run OPTIONS PROG ARGS... (no default snapshot: reports only)
  o=$1; shift
  OSP_OPTIONS=snapshot=none:$o "$@" > /dev/null || echo "experiments: OSP_OPTIONS=$o $* failed" >&2
}

for p in $PROGS; do
  osp_cc -O2 -g "$OSP_TESTSRC/accuracy/$p.c" -o "$W/$p" -lm || exit 99
  eval "a=\$args_$p"
  t0=$(date +%s.%N)
  run "mode=subpaths-exact:report=$W/$p.exact.tsv:report_format=tsv" "$W/$p" $a
  t1=$(date +%s.%N)
  run "seed=1:report=$W/$p.s1.tsv:report_format=tsv" "$W/$p" $a
  t2=$(date +%s.%N)
  echo "$p $(echo "$t1 - $t0" | bc) $(echo "$t2 - $t1" | bc)" >> "$W/times"
  $CMP "$W/$p.s1.tsv" "$W/$p.exact.tsv" > "$W/$p.s1.cmp"
done

echo "## Machine"
echo
echo "- $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs, $(uname -sr)"
echo "- $($CC --version | head -n 1)"
echo "- programs built with \`-O2 -g\`; runtime defaults except seed and report destination"
echo
echo "## Table 1 style: the exact counts (mode=subpaths-exact, lengths 2..32)"
echo
echo "| program | input | blocks | subpaths counted | distinct | exact run (s) | sampled run (s) |"
echo "|---|---|---:|---:|---:|---:|---:|"
for p in $PROGS; do
  eval "a=\$args_$p"
  x=$W/$p.exact.tsv
  # shellcheck disable=SC2046
  set -- $(grep "^$p " "$W/times")
  echo "| $p | ${a:-default} | $(stat "$x" blocks_seen) | $(stat "$x" samples) | $(stat "$x" exact_entries) | $(printf %.1f "$2") | $(printf %.2f "$3") |"
done
echo
echo "## Table 3 style: the sample (defaults, seed=1)"
echo
echo "Samples = finished samples offered to the hot-list; sample size = the sum of the hot-list counts"
echo "(samples kept, concise form); distinct = hot-list entries; gain = sample size / distinct;"
echo "f = interval x threshold, the effective sampling interval at the end of the run."
echo
echo "| program | blocks | samples | sample size | distinct | gain | interval | threshold | f | resamples | peak bytes | bound |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for p in $PROGS; do
  s=$W/$p.s1.tsv
  echo "| $p | $(stat "$s" blocks_seen) | $(stat "$s" samples) | $(stat "$s" hotlist_sample_size) | $(stat "$s" hotlist_entries) | $(stat "$s" gain) | $(stat "$s" interval) | $(stat "$s" threshold) | $(awk -F '\t' '$2 == "f" { print $3 }' "$W/$p.s1.cmp") | $(stat "$s" resamples) | $(stat "$s" hotlist_bytes_peak) | $(stat "$s" hotlist_bytes) |"
done
echo
echo "## Table 5 style: the sampled top 10 (by estimate, lengths <= 32), defaults, seed=1"
for p in $PROGS; do
  echo
  echo "### $p ($(awk -F '\t' '$2 == "recall" { print $3 }' "$W/$p.s1.cmp") of the exact top 5 in the sampled top 10; worst top-5 error $(awk -F '\t' '$2 == "max_abs_error_pct" { print $3 }' "$W/$p.s1.cmp")%)"
  echo
  echo "| sample rank | exact rank | report rank | sample count | est. count | +/- 95% | exact count | error | length |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  awk -F '\t' '$1 == "top" { printf "| %s | %s | %s | %s | %.0f | %.0f | %s | %s%% | %s |\n", $2, $3, $4, $6, $7, $8, $9, $10, $5 }' "$W/$p.s1.cmp"
done
echo
echo "## Table 6 style: rank in the sample of the exact top 5, at six points (osp_report())"
echo
echo "Each program calls osp_report() after each sixth of its work, in an exact and in a sampled"
echo "run (defaults, seed=1); at each point the exact top 5 of that point are looked up in the"
echo "sampled report of the same point (rank by estimate, lengths <= 32; - = not in the hot-list)."
for p in fft heapsort; do
  eval "a=\$args_$p"
  case $p in fft) pa="1000 10" ;; heapsort) pa="75 10000" ;; esac
  run "mode=subpaths-exact:report=none:report_format=tsv" "$W/$p" $pa "$W/$p.t6x"
  run "seed=1:report=none:report_format=tsv" "$W/$p" $pa "$W/$p.t6s"
  echo
  echo "### $p"
  echo
  echo "| true rank | 1/6 | 2/6 | 3/6 | 4/6 | 5/6 | 6/6 |"
  echo "|---:|---:|---:|---:|---:|---:|---:|"
  for i in 1 2 3 4 5 6; do
    $CMP "$W/$p.t6s.$i.tsv" "$W/$p.t6x.$i.tsv" | awk -F '\t' -v i="$i" '$1 == "true" { print $2, i, $5 }'
  done | awk '{ r[$1, $2] = $3 } END { for (k = 1; k <= 5; k++) { printf "| %d |", k; for (i = 1; i <= 6; i++) printf " %s |", r[k, i]; print "" } }'
done
echo
echo "## Policy comparison at the default memory (hotlist_bytes=64K), seeds 1..$SEEDS"
echo
echo "(fft and heapsort; figure1's top 5 are ties of equal count, see Table 5.)"
echo
echo "Recall = exact top 5 found in the sampled top 10 (mean over seeds); error = |estimate - exact| /"
echo "exact of the exact top 5 (mean and worst over seeds and subpaths); coverage = how often the"
echo "95% interval of an exact top-5 subpath contains its exact count; runs meeting the target ="
echo "seeds where all five are in the top 10 and within 5%."
echo
echo "| program | settings | recall | mean error | worst error | coverage | runs meeting the target | threshold (mean) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for p in fft heapsort; do
  eval "a=\$args_$p"
  for set in policy=concise policy=spacesaving "policy=concise:hotlist_bytes=1M"; do
    : > "$W/pol"
    s=1
    while [ "$s" -le "$SEEDS" ]; do
      r=$W/$p.pol.tsv
      run "seed=$s:$set:report=$r:report_format=tsv" "$W/$p" $a
      $CMP "$r" "$W/$p.exact.tsv" | awk -F '\t' -v s="$s" '
        $1 == "true" { e = $8 < 0 ? -$8 : $8; if ($8 == "-") e = 100; print "t", s, e, $9, ($5 != "-" && $5 <= 10) }
        $1 == "run" && $2 == "threshold" { print "h", s, $3 }' >> "$W/pol"
      s=$((s + 1))
    done
    awk -v p="$p" -v set="$set" -v seeds="$SEEDS" '
      $1 == "h" { th += $3; next }
      { n++; se += $3; if ($3 > mx) mx = $3; cov += $4; rec += $5
        if ($5 == 0 || $3 > 5) badrun[$2] = 1 }
      END {
        good = 0; for (s = 1; s <= seeds; s++) if (!(s in badrun)) good++
        printf "| %s | %s | %.2f/5 | %.2f%% | %.2f%% | %.1f%% | %d/%d | %.3g |\n", p, set, rec / seeds, se / n, mx, 100 * cov / n, good, seeds, th / seeds
      }' "$W/pol"
  done
done

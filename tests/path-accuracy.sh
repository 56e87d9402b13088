#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/path-accuracy.sh - sampled Ball-Larus paths and edges against the exhaustive profile
# (the Ball-Larus issue's targets), with tools/ospaccuracy, at the DEFAULT settings (counter-
# based sampling, mean interval path_interval=1000; only seed and the report are given).
#
# For each program (tests/accuracy/fft.c, heapsort.c, figure1.c, examples/demo.c) built with the
# default instrumentation at -O2: one paths=exhaustive run (the perfect profile), then sampled
# runs with seeds 1..3.  Every sampled run must reach
#   path accuracy (Wall weight matching with branch flow, PEP's form, hot = 0.125% of flow) >= 95%
#   edge accuracy (PEP's relative overlap of branch biases) >= 97%
# (PEP reports 94% and 96%), and its blocks_seen must equal the exhaustive run's block count
# (mode=blocks).  The default includes the gain limit (path_gain=300), which on
# these runs doubles the interval up to a few times and thins the samples to match.  The timer
# policy PEP(64,17) runs once per program (every 10 ms; every 1 ms for figure1, which runs about
# 20 ms) and must give well-formed reports with samples; its accuracy is printed, not required
# (it depends on how long the program runs: doc/ACCURACY.md).  The path table must respect path_bytes, also with
# the smallest bound (64K); overflow itself is tested by the unit test t_paths.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup path-accuracy
osp_need_build

ACC="$abs_top_srcdir/tools/ospaccuracy"
SEEDS=${OSP_PATH_ACC_SEEDS:-3}

for p in fft heapsort figure1 demo; do
  case $p in
    demo) src=$abs_top_srcdir/examples/demo.c args= ;;
    figure1) src=$OSP_TESTSRC/accuracy/figure1.c args=1000000 ;;
    *) src=$OSP_TESTSRC/accuracy/$p.c args= ;;
  esac
  b=$W/$p
  if ! osp_compile "$b" osp_cc -O2 -g "$src" -o "$b" -lm ||
     ! osp_compile "$b.plain" plain_cc -O2 -g "$src" -o "$b.plain" -lm; then
    osp_fail "$p: build failed"
    continue
  fi
  # shellcheck disable=SC2086
  osp_exec "$b.plain" "$b.plain" $args
  # shellcheck disable=SC2086
  osp_exec_with "mode=blocks:paths=exhaustive:report=$b.exact.tsv:report_format=tsv" "$b.exact" "$b" $args
  [ "$osp_rc" -eq 0 ] || { osp_fail "$p: exhaustive run exited with $osp_rc"; continue; }
  osp_same "$p exhaustive stdout" "$b.plain.out" "$b.exact.out"
  echo "$p: $(osp_stat "$b.exact.tsv" path_ends_seen) path ends, $(osp_stat "$b.exact.tsv" paths_distinct) distinct paths"
  s=1
  while [ "$s" -le "$SEEDS" ]; do
    r=$b.s$s
    # shellcheck disable=SC2086
    osp_exec_with "seed=$s:report=$r.tsv:report_format=tsv" "$r" "$b" $args
    [ "$osp_rc" -eq 0 ] || { osp_fail "$p seed=$s exited with $osp_rc"; s=$((s + 1)); continue; }
    osp_same "$p seed=$s stdout" "$b.plain.out" "$r.out" > /dev/null || osp_fail "$p seed=$s: stdout differs"
    # The sampled subpaths' walk counts each block once (tests/phantom.sh).
    [ "$(osp_stat "$r.tsv" blocks_seen)" = "$(osp_stat "$b.exact.tsv" block_entries)" ] ||
      osp_fail "$p seed=$s: blocks_seen $(osp_stat "$r.tsv" blocks_seen), block entries $(osp_stat "$b.exact.tsv" block_entries)"
    sh "$ACC" -m 95 -e 97 "$b.exact.tsv" "$r.tsv" > "$r.acc" 2> "$r.acc.err"
    rc=$?
    echo "== $p seed=$s: $(osp_stat "$r.tsv" path_samples) samples, interval $(osp_stat "$r.tsv" path_interval_now) ($(osp_stat "$r.tsv" path_raises) doublings)"
    grep -v '^#' "$r.acc"
    case $rc in
      0) ;;
      1) osp_fail "$p seed=$s: $(cat "$r.acc.err")" ;;
      *) osp_fail "$p seed=$s: ospaccuracy failed: $(cat "$r.acc.err")" ;;
    esac
    s=$((s + 1))
  done

  r=$b.timer
  # figure1 runs about 20 ms, two ticks of 10 ms: on a busy machine it could end before the
  # first, so it ticks every millisecond.
  period=10
  [ "$p" = figure1 ] && period=1
  # shellcheck disable=SC2086
  osp_exec_with "paths=timer:path_period=$period:report=$r.tsv:report_format=tsv" "$r" "$b" $args
  [ "$osp_rc" -eq 0 ] || osp_fail "$p paths=timer exited with $osp_rc"
  osp_check_report "$r.tsv" || osp_fail "$p paths=timer: malformed report"
  n=$(osp_stat "$r.tsv" path_samples)
  if [ -z "$n" ] || [ "$n" -eq 0 ]; then
    osp_fail "$p paths=timer: no samples"
  else
    echo "== $p paths=timer PEP(64,17) every $period ms: $n samples; $(sh "$ACC" "$b.exact.tsv" "$r.tsv" | grep -e '^path accuracy' -e '^edge accuracy' | tr '\n' ' ')"
  fi

  r=$b.tiny
  # shellcheck disable=SC2086
  osp_exec_with "paths=exhaustive:path_bytes=64K:report=$r.tsv:report_format=tsv" "$r" "$b" $args
  peak=$(osp_stat "$r.tsv" path_bytes_peak)
  bound=$(osp_stat "$r.tsv" path_bytes)
  { [ -n "$peak" ] && [ "$peak" -le 65536 ] && [ "$bound" = 65536 ]; } ||
    osp_fail "$p path_bytes=64K: peak '$peak', bound '$bound'"
  echo "$p path_bytes=64K: peak $peak, paths kept $(osp_stat "$r.tsv" paths_distinct), dropped samples $(osp_stat "$r.tsv" paths_dropped)"
done
osp_done

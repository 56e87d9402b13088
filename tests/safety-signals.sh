#!/bin/sh
# tests/safety-signals.sh - a program that siglongjmps out of a SIGALRM handler wherever the signal
# lands (in a hook, in a batch flush under a runtime lock, in a path end) exits like its plain
# build: never hangs, prints the same stdout, and its profile survives (doc/osp.md, "Signals,
# locks and exit").
#
# tests/progs/longjmp-alarm.c runs rounds of instrumented work under a 200 us ITIMER_REAL whose
# handler jumps back to the main loop, then prints a checksum and calls exit().  Built at -O2
# (trampolines, batched loops) and -O0 (plain calls' paths), it runs under the defaults,
# mode=subpaths-exact, forest=exhaustive, mode=blocks, paths=exhaustive and paths=timer, three
# times each, under a generous timeout (a hang is a failure): exit status 0, stdout as the plain
# build's, a well-formed tsv report, and hits_lost small (at most 64 per jump: the jumped-out
# hook, the handler's own hooks inside a hook, hooks below the abandoned one until the loop's
# come; without the recovery every later hook of the thread is lost).  Before the fix a runtime
# lock held by the abandoned hook made exit wait for ever (subpaths-exact 5 runs in 5) and the
# program's buffered stdout was never written.  About 30 s.
. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup safety-signals
osp_need_build
src=$OSP_TESTSRC/progs/longjmp-alarm.c
rounds=3000

osp_compile "$W/plain" plain_cc -O2 "$src" -o "$W/plain" || { osp_fail "plain build"; osp_done; }
osp_exec "$W/plain" "$W/plain" $rounds
[ "$osp_rc" = 0 ] || osp_fail "plain run exited with $osp_rc"

for level in -O2 -O0; do
  b=$W/osp$level
  osp_compile "$b" osp_cc $level "$src" -o "$b" || { osp_fail "$level: instrumented build"; continue; }
  for opts in "" mode=subpaths-exact forest=exhaustive mode=blocks paths=exhaustive paths=timer; do
    for run in 1 2 3; do
      tag="$level ${opts:-defaults} run $run"
      r=$b.${opts:-defaults}.$run
      r=$(echo "$r" | tr '=' '-')
      osp_exec_with "$opts${opts:+:}report=$r.tsv:report_format=tsv" "$r" "$b" $rounds
      if [ "$osp_rc" = 124 ]; then
        osp_fail "$tag: hung at exit (timed out)"
        continue
      fi
      [ "$osp_rc" = 0 ] || { osp_fail "$tag: exited with $osp_rc"; osp_show "$r.err"; continue; }
      osp_same "$tag: stdout" "$W/plain.out" "$r.out" || continue
      osp_check_report "$r.tsv" || { osp_fail "$tag: malformed report"; continue; }
      jumps=$(sed -n 's/^longjmp-alarm: \([0-9]*\) jumps$/\1/p' "$r.err")
      lost=$(osp_stat "$r.tsv" hits_lost)
      if [ -z "$jumps" ] || [ "${lost:-0}" -gt $((64 * jumps + 64)) ]; then
        osp_fail "$tag: hits_lost=$lost after ${jumps:-?} jumps"
        continue
      fi
      echo "ok: $tag: ${jumps} jumps, hits_lost=${lost:-0}"
    done
  done
done
osp_done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
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
#
# Then progs/report-jump.c: osp_report() left by a jump out of a handler that interrupted it
# (in its blocked write) leaves neither the thread's hooks nor its later osp_report calls off.
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

# osp_report() left by a jump out of a signal handler that interrupted it (progs/report-jump.c:
# the jump lands in the report's blocked write): the thread's later hooks count and its later
# osp_report calls work (before the fix the re-entrancy flag stayed pinned: every later hook was
# lost, every later osp_report returned -1).
b=$W/report-jump
if osp_compile "$b" osp_cc -O2 "$OSP_TESTSRC/progs/report-jump.c" -o "$b"; then
  # Its stdout is a pipe read only once the program has written its result (until then the
  # reports to stdout block, which is the point).
  env OSP_OPTIONS=mode=blocks:report=stdout:report_format=tsv \
    timeout "$OSP_TIMEOUT" "$b" "$b.res" 2> "$b.err" |
    { osp_wait_until 60 osp_has_file "$b.res"; cat > /dev/null; }
  if grep -q '^no /proc' "$b.res" 2> /dev/null; then
    echo "note: report-jump skipped: $(cat "$b.res")"
  else
    before=$osp_failures
    jumps=$(sed -n 's/^jumps //p' "$b.res" 2> /dev/null)
    [ "${jumps:-0}" -ge 1 ] || { osp_fail "report-jump: no jump out of osp_report"; osp_show "$b.err"; }
    grep -qx 'report 0' "$b.res" 2> /dev/null ||
      { osp_fail "report-jump: osp_report fails after ${jumps:-?} jumps out of it"; osp_show "$b.res"; }
    calls=$(osp_calls "$b.res.tsv" after 2> /dev/null)
    [ "$calls" = 1000 ] ||
      osp_fail "report-jump: after() counted ${calls:-no} calls of 1000 after ${jumps:-?} jumps"
    [ "$osp_failures" = "$before" ] &&
      echo "ok: report-jump: $jumps jumps out of osp_report, after() calls $calls"
  fi
else
  osp_fail "report-jump: instrumented build"
fi
osp_done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/safety-fds.sh - doc/osp.md, "File descriptors and the program's output".
#
#   1. osp keeps no fd under the program: progs/safety-fds.c `high` closes every fd >= 3, opens
#      two files of its own (they get the lowest numbers), raises report_signal's SIGWINCH, and
#      writes one line into each: each file holds exactly that line (before, the signal
#      handler wrote a byte into the pipe fd it had kept, by then the program's file); the
#      report the signal asked for is still written.
#   2. fds 1 and 2 are written only while they are what they were at start-up:
#      progs/safety-fds.c `std` closes 0, 1 and 2 and opens three files there: with the default
#      report=stderr, with report=stdout, and with a snapshot into a missing directory (whose
#      failure line would go to fd 2), each file holds only the program's line; the program's
#      status is its own; a snapshot of such a run counts the skipped report in its
#      output_skipped statistic.
#   3. Signals the program or its parent set are not taken: progs/safety-signal.c started with
#      SIGUSR2 ignored (trap '' USR2) and report_signal=USR2, or snapshot_signal=USR2, prints
#      what the plain build prints (the signal still ignored, the program's own handler
#      installed over it later sees SIG_IGN as the old one), plus one line naming the key; and
#      progs/safety-dlopen.c, which installs a SIGUSR2 handler and then dlopens a library built
#      with osp (progs/safety-dlopen-lib.c) under report_signal=USR2, keeps its handler.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup safety-fds
osp_need_build
fds=$OSP_TESTSRC/progs/safety-fds.c
sig=$OSP_TESTSRC/progs/safety-signal.c
dump=$OSP_TESTSRC/progs/merge-dump.c

osp_compile "$W/fds-plain" plain_cc -O1 "$fds" -o "$W/fds-plain" &&
  osp_compile "$W/fds" osp_cc -O1 "$fds" -o "$W/fds" &&
  osp_compile "$W/sig-plain" plain_cc -O1 "$sig" -o "$W/sig-plain" &&
  osp_compile "$W/sig" osp_cc -O1 "$sig" -o "$W/sig" &&
  osp_compile "$W/dump" plain_cc -std=c11 -O1 "$dump" -o "$W/dump" ||
  { echo "error: cannot build the test programs"; exit 99; }

# --- 1. no fd kept under the program --------------------------------------------------------------
mkdir "$W/high-plain" "$W/high"
osp_exec "$W/high-plain" "$W/fds-plain" high "$W/high-plain"
[ "$osp_rc" -eq 0 ] || osp_fail "high, plain build: exit status $osp_rc"
osp_exec_with "report_signal=WINCH:report=$W/high-report.txt" "$W/high" "$W/fds" high "$W/high"
[ "$osp_rc" -eq 0 ] || osp_fail "high: exit status $osp_rc"
osp_same "high: output" "$W/high-plain.out" "$W/high.out"
for f in a b; do
  osp_same "high: the program's file $f" "$W/high-plain/$f" "$W/high/$f"
done
[ -s "$W/high.err" ] && { osp_fail "high: messages"; osp_show "$W/high.err" stderr; }
grep -q '^osp report' "$W/high-report.txt" 2> /dev/null || osp_fail "high: no report written"

# --- 2. fds 1 and 2 ---------------------------------------------------------------------------
mkdir "$W/std-plain"
osp_exec "$W/std-plain" "$W/fds-plain" std "$W/std-plain"
[ "$osp_rc" -eq 0 ] || osp_fail "std, plain build: exit status $osp_rc"
i=0
for opts in "" "report=stdout" "report=none:snapshot=$W/no-such-dir/s.ospsnap" \
            "snapshot=$W/std-snap.ospsnap"; do
  i=$((i + 1))
  d=$W/std$i
  mkdir "$d"
  if [ -z "$opts" ]; then
    osp_exec "$d" "$W/fds" std "$d"
  else
    osp_exec_with "$opts" "$d" "$W/fds" std "$d"
  fi
  [ "$osp_rc" -eq 0 ] || osp_fail "std, OSP_OPTIONS='$opts': exit status $osp_rc"
  for f in 0 1 2; do
    osp_same "std, OSP_OPTIONS='$opts': the program's file on fd $f" "$W/std-plain/$f" "$d/$f"
  done
done
# The last run's snapshot says a report was skipped.
if [ -f "$W/std-snap.ospsnap" ]; then
  "$W/dump" "$W/std-snap.ospsnap" > "$W/std-snap.dump" 2>&1
  n=$(awk -F '\t' '$1 == "stat" && $2 == "output_skipped" { print $3 }' "$W/std-snap.dump")
  [ "${n:-0}" -ge 1 ] ||
    { osp_fail "std: the snapshot's output_skipped is '$n', want at least 1";
      grep '^stat' "$W/std-snap.dump" | head -n 40; }
  echo "ok? output_skipped=$n"
else
  osp_fail "std: no snapshot written"
fi

# --- 3. signals the program's parent set --------------------------------------------------------
# ignoring BASE OPTIONS PROG: run PROG with SIGUSR2 ignored (inherited through exec).
ignoring ()
{
  if [ "$2" = - ]; then
    env -u OSP_OPTIONS timeout "$OSP_TIMEOUT" sh -c 'trap "" USR2; exec "$0"' "$3" \
      > "$1.out" 2> "$1.err" < /dev/null
  else
    OSP_OPTIONS=$2 timeout "$OSP_TIMEOUT" sh -c 'trap "" USR2; exec "$0"' "$3" \
      > "$1.out" 2> "$1.err" < /dev/null
  fi
  osp_rc=$?
}
ignoring "$W/sig-plain" - "$W/sig-plain"
grep -q '^at start: ignored' "$W/sig-plain.out" ||
  { echo "error: the shell did not pass SIGUSR2 ignored"; cat "$W/sig-plain.out"; exit 99; }
for opts in "report_signal=USR2:report=$W/sig-report.txt" \
            "report=none:snapshot_signal=USR2:snapshot=$W/sig-snap.ospsnap"; do
  key=${opts%%=USR2*}
  key=${key##*:}
  ignoring "$W/sig-$key" "$opts" "$W/sig"
  [ "$osp_rc" -eq 0 ] || osp_fail "$key=USR2, USR2 ignored: exit status $osp_rc"
  osp_same "$key=USR2, USR2 ignored: output" "$W/sig-plain.out" "$W/sig-$key.out"
  if [ "$(wc -l < "$W/sig-$key.err")" -ne 1 ] || ! grep -q "$key" "$W/sig-$key.err"; then
    osp_fail "$key=USR2, USR2 ignored: want one line naming $key"
    osp_show "$W/sig-$key.err" stderr
  fi
  echo "ok? $(cat "$W/sig-$key.err")"
done

# A handler the program installed before the runtime started (it dlopens the instrumented
# library afterwards): its handler still runs, and the disposition stays its own.
osp_compile "$W/dl" plain_cc -O1 "$OSP_TESTSRC/progs/safety-dlopen.c" -o "$W/dl" -ldl &&
  osp_compile "$W/dl-lib-plain" plain_cc -O1 -fPIC -shared \
    "$OSP_TESTSRC/progs/safety-dlopen-lib.c" -o "$W/dl-lib-plain.so" &&
  osp_compile "$W/dl-lib" osp_cc -O1 -fPIC -shared "$OSP_TESTSRC/progs/safety-dlopen-lib.c" \
    -o "$W/dl-lib.so" ||
  { echo "error: cannot build the dlopen programs"; exit 99; }
osp_exec "$W/dl-plain" "$W/dl" "$W/dl-lib-plain.so"
osp_exec_with "report_signal=USR2:report=none" "$W/dl-osp" "$W/dl" "$W/dl-lib.so"
[ "$osp_rc" -eq 0 ] || osp_fail "dlopen, report_signal=USR2: exit status $osp_rc"
osp_same "dlopen, report_signal=USR2: output" "$W/dl-plain.out" "$W/dl-osp.out"
if [ "$(wc -l < "$W/dl-osp.err")" -ne 1 ] || ! grep -q "report_signal=USR2.*handled" "$W/dl-osp.err"
then
  osp_fail "dlopen, report_signal=USR2: want one line saying SIGUSR2 is handled already"
  osp_show "$W/dl-osp.err" stderr
fi

osp_done

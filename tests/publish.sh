#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/publish.sh - live views in shared memory (OSP_OPTIONS publish=..., libosprt/output/publish.c,
# include/osp/shm.h), end to end, on progs/publish-live.c built plain and with the plugin (-O2).
#   1. While the program runs, /dev/shm/osp-UID-PID exists, mode 600, owned by the user, with
#      osp's magic; after it exits the file is gone; stdout and the exit status are the plain
#      build's and stderr is empty (report=none).
#   2. Publishing changes no profile: the mode=blocks tsv report is the same with publish=on
#      (publish_ms=50, the smallest period) as with publish=off.
#   3. publish=off and mode=off: no segment while the program runs.
#   4. The name is taken (a directory made under the program's pid before it starts): exactly one
#      stderr line "osp: cannot publish (...): the program runs and profiles as before", the
#      output and the exit report as usual, the name left alone.
#   4b. No room for the segment (a file size limit makes sizing it fail, as a full
#      /dev/shm would): the same one line, no file left behind, output as usual.
#   5. fork: three children living 300 ms each: output as plain, nothing on stderr, no segment
#      left behind by any process.
. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup publish
osp_need_build

SHM=/dev/shm
U=$(id -u)
if [ ! -d "$SHM" ] || [ ! -w "$SHM" ]; then
  echo "SKIP: no writable $SHM"
  exit 77
fi

P=$W/live
osp_compile "$P.plain" plain_cc -O2 "$OSP_TESTSRC/progs/publish-live.c" -o "$P.plain" ||
  { osp_fail "plain build"; osp_done; }
osp_compile "$P.osp" osp_cc -O2 "$OSP_TESTSRC/progs/publish-live.c" -o "$P.osp" ||
  { osp_fail "instrumented build"; osp_done; }

echo go | osp_run "$P.plain" wait > "$W/plain.out" 2> "$W/plain.err"
echo "$?" > "$W/plain.rc"

# live OPTIONS BASE: start the instrumented program in the background with OPTIONS, its stdin a
# fifo held open on fd 3, and wait for its "ready" line; sets $pid and $seg.
live ()
{
  rm -f "$W/fifo"
  mkfifo "$W/fifo" || { echo "error: mkfifo"; exit 99; }
  OSP_OPTIONS=$1 "$P.osp" wait < "$W/fifo" > "$2.out" 2> "$2.err" &
  pid=$!
  exec 3> "$W/fifo"
  seg=$SHM/osp-$U-$pid
  osp_wait_until 10 osp_has_line "$2.out" ready || osp_fail "$1: no ready line"
}

# finish BASE: let it end; its exit status in BASE.rc.
finish ()
{
  echo go >&3
  exec 3>&-
  wait "$pid"
  echo "$?" > "$1.rc"
}

# same_as_plain LABEL BASE: stdout and status as the plain run's.
same_as_plain ()
{
  osp_same "$1: stdout" "$W/plain.out" "$2.out"
  osp_same "$1: exit status" "$W/plain.rc" "$2.rc"
}

# ---- 1. the segment's life ----
live publish_ms=50:report=none "$W/on"
if [ -f "$seg" ]; then
  [ "$(stat -c %a "$seg")" = 600 ] || osp_fail "segment mode $(stat -c %a "$seg"), want 600"
  [ "$(stat -c %u "$seg")" = "$U" ] || osp_fail "segment owner $(stat -c %u "$seg"), want $U"
  magic=$(head -c 6 "$seg")
  [ "$magic" = OSPSHM ] || osp_fail "segment magic '$magic', want OSPSHM"
else
  osp_fail "no $seg while the program runs"
fi
finish "$W/on"
same_as_plain "publish=on" "$W/on"
[ -s "$W/on.err" ] && { osp_fail "publish=on: stderr is not empty"; osp_show "$W/on.err"; }
[ -e "$seg" ] && osp_fail "$seg is left after the program exited"

# ---- 2. the same profile with and without publishing ----
for pub in on off; do
  echo go | OSP_OPTIONS=mode=blocks:seed=1:report_format=tsv:report=$W/tsv-$pub.tsv:publish=$pub:publish_ms=50 \
    osp_run "$P.osp" wait > "$W/tsv-$pub.out" 2> "$W/tsv-$pub.err"
  [ $? = 0 ] || osp_fail "mode=blocks publish=$pub: exit status"
  osp_check_report "$W/tsv-$pub.tsv" || osp_fail "publish=$pub: malformed report"
done
osp_same "mode=blocks tsv report, publish=on vs off" "$W/tsv-off.tsv" "$W/tsv-on.tsv"

# ---- 3. no segment ----
for opts in publish=off:report=none mode=off:report=none; do
  live "$opts" "$W/none"
  [ -e "$seg" ] && osp_fail "$opts: $seg exists"
  finish "$W/none"
  same_as_plain "$opts" "$W/none"
  [ -s "$W/none.err" ] && { osp_fail "$opts: stderr is not empty"; osp_show "$W/none.err"; }
done

# ---- 4. the name is taken ----
# By a directory: once the program has exited, any osp program of this user (a test running
# beside this one) may sweep a regular file under its dead pid as stale, but not a directory.
echo go | osp_run sh -c 'mkdir "$0/osp-$1-$$"; echo $$ > "$2"; exec "$3" wait' \
  "$SHM" "$U" "$W/taken.pid" "$P.osp" > "$W/taken.out" 2> "$W/taken.err"
echo "$?" > "$W/taken.rc"
same_as_plain "name taken" "$W/taken"
tpid=$(cat "$W/taken.pid")
want="osp: cannot publish ($SHM/osp-$U-$tpid: File exists): the program runs and profiles as before"
# the one line, then the default's line at exit naming its snapshot (in $W, the start-up directory)
[ "$(head -n 1 "$W/taken.err")" = "$want" ] ||
  { osp_fail "name taken: first stderr line is not the warning"; osp_show "$W/taken.err"; }
[ "$(grep -c '^osp: cannot publish' "$W/taken.err")" = 1 ] || osp_fail "name taken: not one warning"
[ "$(wc -l < "$W/taken.err")" = 2 ] && grep -q "^osp: profile in ${P##*/}.osp.ospsnap " "$W/taken.err" &&
  [ -s "$W/${P##*/}.osp.ospsnap" ] || { osp_fail "name taken: no line naming the snapshot"; osp_show "$W/taken.err"; }
if [ -d "$SHM/osp-$U-$tpid" ]; then
  rmdir "$SHM/osp-$U-$tpid" || osp_fail "name taken: something was written in it"
else
  osp_fail "name taken: the file was removed"
fi

# ---- 4b. no room: sizing the segment fails (a 2 MB file size limit stands in for a full /dev/shm) ----
echo go | osp_run sh -c 'trap "" XFSZ; ulimit -f 4096; echo $$ > "$0"; exec "$1" wait' \
  "$W/full.pid" "$P.osp" > "$W/full.out" 2> "$W/full.err"
echo "$?" > "$W/full.rc"
same_as_plain "no room" "$W/full"
fpid=$(cat "$W/full.pid")
grep -q "^osp: cannot publish ($SHM/osp-$U-$fpid: File too large): the program runs and profiles as before\$" \
  "$W/full.err" || { osp_fail "no room: no warning"; osp_show "$W/full.err"; }
[ "$(grep -c '^osp: cannot publish' "$W/full.err")" = 1 ] || osp_fail "no room: not one warning"
[ -e "$SHM/osp-$U-$fpid" ] && osp_fail "no room: the segment was left behind"

# ---- 5. fork ----
osp_run "$P.plain" fork "$W/fork-plain.pids" > "$W/fork-plain.out" 2>&1
OSP_OPTIONS=publish_ms=50:report=none osp_run "$P.osp" fork "$W/fork.pids" \
  > "$W/fork.out" 2> "$W/fork.err"
[ $? = 0 ] || osp_fail "fork: exit status"
osp_same "fork: stdout" "$W/fork-plain.out" "$W/fork.out"
[ -s "$W/fork.err" ] && { osp_fail "fork: stderr is not empty"; osp_show "$W/fork.err"; }
for c in $(cat "$W/fork.pids"); do
  [ -e "$SHM/osp-$U-$c" ] && osp_fail "fork: child $c left its segment"
done

osp_done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/safety-attach.sh - a process no viewer watches has no extra thread (doc/osp.md "Safety:
# shared memory, fork, threads and namespaces"; libosprt/output/publish.c, include/osp/shm.h `attach',
# viewer/segment.c seg_request), on progs/attach-live.c (-O2), default options but report=none.
#   1. unshare(CLONE_NEWUSER), which needs a single-threaded process, succeeds in the
#      instrumented build as in the plain one (skipped, with a note, where even the plain build
#      is refused user namespaces); both print "threads 1".
#   2. A running program: Threads: 1 in /proc/PID/status, its segment exists and `ospview -l`
#      lists it, all before any viewer attached; `ospview -p PID -b 1` then asks for views and
#      shows one (work() in the functions screen); the publisher thread now runs (Threads: 2);
#      a viewer left attached sees the last view, "(at exit)", once the program exits; stdout and
#      status as the plain build's, stderr empty, no segment left.  The same request is answered
#      in mode=blocks and mode=subpaths-exact, whose entries look for it only now and then.
#   3. A forked child: Threads: 1, its own segment appears (made from its runtime entries
#      publish_ms after the fork) and `ospview -p CHILD -b 1` shows the child's own view; output
#      as plain, no segment left.
. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup safety-attach
osp_need_build

osp_shm_setup attach-live

# threads_of PID: the Threads: line's number.
threads_of ()
{
  sed -n 's/^Threads:[[:space:]]*//p' "/proc/$1/status" 2> /dev/null
}

# ---- 1. unshare(CLONE_NEWUSER) ----
osp_exec "$W/un-plain" "$P.plain" unshare
if [ "$osp_rc" != 0 ]; then
  echo "note: part 1 skipped: the plain build cannot unshare(CLONE_NEWUSER) here" \
    "($(sed -n 's/^unshare: //p' "$W/un-plain.out")): user namespaces are not allowed"
else
  osp_exec_with report=none "$W/un-osp" "$P.osp" unshare
  [ "$osp_rc" = 0 ] ||
    { osp_fail "unshare(CLONE_NEWUSER): status $osp_rc"; osp_show "$W/un-osp.out"; }
  osp_same "unshare: stdout" "$W/un-plain.out" "$W/un-osp.out"
  [ -s "$W/un-osp.err" ] && { osp_fail "unshare: stderr is not empty"; osp_show "$W/un-osp.err"; }
fi

# live BASE ARGS...: start the instrumented program in the background (publish_ms=50), its stdin a
# fifo held open on fd 3; sets $pid.
live ()
{
  base=$1
  shift
  rm -f "$W/fifo"
  mkfifo "$W/fifo" || { echo "error: mkfifo"; exit 99; }
  OSP_OPTIONS=publish_ms=50:report=none${LIVE_OPTS:-} "$P.osp" "$@" < "$W/fifo" > "$base.out" 2> "$base.err" &
  pid=$!
  bg_pids="$bg_pids $pid"
  exec 3> "$W/fifo"
}

# finish BASE: let it end; its exit status in BASE.rc.
finish ()
{
  echo go >&3
  exec 3>&-
  wait "$pid"
  echo "$?" > "$1.rc"
}

# has_view FILE: an ospview -b output with a view of work() in it.
has_view ()
{
  grep -q 'view #' "$1" && grep -q 'work()' "$1"
}

# view_of PID BASE: run `ospview -p PID -b 1` until it shows a view (BASE.view).
view_of ()
{
  "$OSPVIEW" -p "$1" -b 1 --screen=functions > "$2.view" 2> "$2.view.err"
  has_view "$2.view"
}

# ---- 2. a running program ----
echo go | "$P.plain" live > "$W/live-plain.out"
echo 0 > "$W/live-plain.rc"
live "$W/live" live
osp_wait_until 10 osp_has_line "$W/live.out" '^ready' || osp_fail "live: no ready line"
seg=$SHM/osp-$U-$pid
grep -qx 'threads 1' "$W/live.out" ||
  { osp_fail "live: not 1 thread at start"; osp_show "$W/live.out"; }
[ -f "$seg" ] || osp_fail "live: no $seg before a viewer attached"
"$OSPVIEW" -l > "$W/list.out" 2>&1
grep -q "^ *$pid  *running" "$W/list.out" ||
  { osp_fail "live: ospview -l does not list it"; osp_show "$W/list.out"; }
# Still one thread after a while of running instrumented code with nobody watching.
sleep 0.3
t=$(threads_of "$pid")
[ "$t" = 1 ] || osp_fail "live: Threads: $t before any viewer attached, want 1"
osp_wait_until 30 view_of "$pid" "$W/live" ||
  { osp_fail "live: ospview -p $pid -b 1 showed no view"; osp_show "$W/live.view"
    osp_show "$W/live.view.err"; }
grep -q 'heartbeat' "$W/live.view" || osp_fail "live: the view's status line has no heartbeat"
t=$(threads_of "$pid")
[ "$t" = 2 ] || osp_fail "live: Threads: $t once a viewer asked, want 2 (the publisher)"
# A viewer that stays attached across the exit: the last view, marked exited.
"$OSPVIEW" -p "$pid" -b 100000 -d 0.05 --screen=functions > "$W/last.out" 2> "$W/last.err" &
vpid=$!
bg_pids="$bg_pids $vpid"
osp_wait_until 10 osp_has_line "$W/last.out" 'view #' ||
  osp_fail "live: the attached viewer shows no view"
finish "$W/live"
osp_wait_until 10 osp_has_line "$W/last.out" '(at exit)' ||
  { osp_fail "live: the attached viewer never showed the exit view"; tail -n 5 "$W/last.out"; }
kill "$vpid" 2> /dev/null
wait "$vpid" 2> /dev/null
osp_same "live: stdout" "$W/live-plain.out" "$W/live.out"
osp_same "live: exit status" "$W/live-plain.rc" "$W/live.rc"
[ -s "$W/live.err" ] && { osp_fail "live: stderr is not empty"; osp_show "$W/live.err"; }
[ -e "$seg" ] && osp_fail "live: $seg left after the exit"

# ---- 2b. the modes where every block entry runs the hook ----
# There the entries look for a viewer's request once every few hundred per thread
# (runtime.c, poll_sometimes), not at each: a request is still
# answered.
for m in blocks subpaths-exact; do
  LIVE_OPTS=:mode=$m live "$W/live-$m" live
  osp_wait_until 10 osp_has_line "$W/live-$m.out" '^ready' || osp_fail "mode=$m: no ready line"
  osp_wait_until 30 view_of "$pid" "$W/live-$m" ||
    { osp_fail "mode=$m: ospview -p $pid -b 1 showed no view"; osp_show "$W/live-$m.view"
      osp_show "$W/live-$m.view.err"; }
  finish "$W/live-$m"
  osp_same "mode=$m: stdout" "$W/live-plain.out" "$W/live-$m.out"
  osp_same "mode=$m: exit status" "$W/live-plain.rc" "$W/live-$m.rc"
  [ -s "$W/live-$m.err" ] && { osp_fail "mode=$m: stderr is not empty"; osp_show "$W/live-$m.err"; }
done

# ---- 3. a forked child ----
echo go | "$P.plain" fork "$W/kid-plain" > "$W/fork-plain.out"
rm -f "$W/kid" "$W/kid.threads"
live "$W/fork" fork "$W/kid"
osp_wait_until 10 osp_has_file "$W/kid" || osp_fail "fork: the child wrote no pid"
kid=$(cat "$W/kid")
[ "$(cat "$W/kid.threads")" = 1 ] ||
  osp_fail "fork: the child has $(cat "$W/kid.threads") threads, want 1"
osp_wait_until 30 osp_has_file "$SHM/osp-$U-$kid" || osp_fail "fork: no segment of the child's"
t=$(threads_of "$kid")
[ "$t" = 1 ] || osp_fail "fork: the child has Threads: $t before a viewer attached, want 1"
osp_wait_until 30 view_of "$kid" "$W/kid" ||
  { osp_fail "fork: ospview -p $kid -b 1 showed no view"; osp_show "$W/kid.view"
    osp_show "$W/kid.view.err"; }
grep -q "pid $kid " "$W/kid.view" || osp_fail "fork: the view is not the child's"
finish "$W/fork"
osp_same "fork: stdout" "$W/fork-plain.out" "$W/fork.out"
[ "$(cat "$W/fork.rc")" = 0 ] || osp_fail "fork: exit status $(cat "$W/fork.rc")"
[ -s "$W/fork.err" ] && { osp_fail "fork: stderr is not empty"; osp_show "$W/fork.err"; }
for p in "$kid" "$pid"; do
  [ -e "$SHM/osp-$U-$p" ] && osp_fail "fork: $SHM/osp-$U-$p left after the exit"
done

osp_done

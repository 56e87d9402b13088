#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/safety-shm.sh - live views' shared memory never harms the program nor crosses a
# privilege boundary (doc/osp.md "Safety: shared memory, fork, threads and namespaces";
# libosprt/output/publish.c, include/osp/shm.h, viewer/segment.c), on progs/shm-safety.c (-O2).
#   1. Fork children that end with _exit: each child's segment holds only what its views take
#      (at most 256 KB, not publish_bytes twice fully allocated: 8 MB), and once they are
#      reaped their parent removes their segments while it still runs; nothing is left after
#      it exits; output as plain, stderr empty.
#   2. PID namespaces (as root with unshare; else skipped): a program in a namespace of its own
#      keeps its segment when a program outside starts (its start-up sweep leaves another
#      namespace's segments alone); a second program with the same pid number in a second
#      namespace publishes beside the first without taking its segment; ospview -p finds
#      both by the pids it sees, and shows them running.
#   3. Privilege (as root, with setpriv; else skipped): root attaches to another user's program
#      and `ospview -l` lists it; a third, unprivileged user is refused it and does not see it.
#   4. A killed, unreaped program (a zombie) is listed as dead by `ospview -l`, not running.
#   5. A segment truncated again and again while ospview reads it 200 times in a row: each run
#      ends with status 0 or 1, each failed read one line naming the file, never a signal
#      (SIGBUS).
#   6. A FIFO made under the program's segment name before it starts: the program runs as usual
#      after one "cannot publish (...: File exists)" line, and ospview --segment on it says "not a
#      regular file"; neither waits for a writer.
#   7. /dev/shm full after the segment was made (as root, an 8 KB tmpfs over it in a mount
#      namespace, a viewer attached there; else skipped): one "cannot publish (...: No space
#      left on device)" line, the program runs as usual, no segment left, no SIGBUS.
# (The programs run with snapshot=none: some run as another user in $W, where their default
# snapshot could not be written, and what is checked here is the shared memory.)
. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup safety-shm
osp_need_build
trap "" PIPE # a program that ended early must not end the test on a write

osp_shm_setup shm-safety

# wait_for FILE TEXT: up to 20 s for TEXT to appear in FILE.
wait_for ()
{
  i=0
  while [ $i -lt 400 ]; do
    grep -q "$2" "$1" 2>/dev/null && return 0
    sleep 0.05
    i=$((i + 1))
  done
  return 1
}

# ---- 1. _exit children ----
N=20
rm -f "$W/fifo" "$W/kids" "$W/go"
mkfifo "$W/fifo" || { echo "error: mkfifo"; exit 99; }
OSP_OPTIONS=publish_ms=50:report=none:snapshot=none "$P.osp" exitfork $N "$W/kids" "$W/go" < "$W/fifo" \
  > "$W/exit.out" 2> "$W/exit.err" &
ppid=$!
bg_pids="$bg_pids $ppid"
exec 3> "$W/fifo"
# Every child has made its segment (from its runtime entries, 50 ms after the fork).
i=0
while [ $i -lt 400 ]; do
  have=0
  for c in $(cat "$W/kids" 2>/dev/null); do
    [ -f "$SHM/osp-$U-$c" ] && have=$((have + 1))
  done
  [ "$have" -ge $N ] && break
  sleep 0.05
  i=$((i + 1))
done
[ "$have" -ge $N ] || osp_fail "_exit children: only $have of $N made a segment"
total=0
for c in $(cat "$W/kids"); do
  f=$SHM/osp-$U-$c
  [ -f "$f" ] || continue
  kb=$(( $(stat -c '%b * %B' "$f") / 1024 ))
  total=$((total + kb))
  [ "$kb" -le 256 ] || osp_fail "_exit children: child $c's segment takes $kb KB (want <= 256)"
done
echo "_exit children: $have segments take $total KB of $SHM"
touch "$W/go"
wait_for "$W/exit.out" "children done" || osp_fail "_exit children: the parent did not reap them"
# The parent, still running (and running code), removes what its children left (from its
# runtime entries, at most once a second).
i=0
while [ $i -lt 400 ]; do
  left=0
  for c in $(cat "$W/kids"); do
    [ -e "$SHM/osp-$U-$c" ] && left=$((left + 1))
  done
  [ "$left" -eq 0 ] && break
  sleep 0.05
  i=$((i + 1))
done
[ "$left" -eq 0 ] || osp_fail "_exit children: $left segments left while the parent runs"
echo go >&3
exec 3>&-
wait "$ppid"
echo "$?" > "$W/exit.rc"
for c in $(cat "$W/kids") "$ppid"; do
  [ -e "$SHM/osp-$U-$c" ] && osp_fail "_exit children: $SHM/osp-$U-$c left after the parent's exit"
done
printf 'children done, 0 failed\ndone %s\n' "$(echo go | "$P.plain" exitfork 0 "$W/kids0" "$W/go" | sed -n 's/^done //p')" \
  > "$W/exit.want"
osp_same "_exit children: stdout" "$W/exit.want" "$W/exit.out"
[ "$(cat "$W/exit.rc")" = 0 ] || osp_fail "_exit children: exit status $(cat "$W/exit.rc")"
[ -s "$W/exit.err" ] && { osp_fail "_exit children: stderr is not empty"; osp_show "$W/exit.err"; }

# ---- 2. PID namespaces ----
# nsrun BASE PID: run the program (wait) as pid PID of a new pid namespace, stdin a fifo on a new
# descriptor; sets $nspid (unshare's pid, outside) once it printed "ready".
ns_ok=
if [ "$U" = 0 ] && command -v unshare > /dev/null 2>&1 &&
   timeout 10 unshare --pid --fork --mount-proc true 2> /dev/null; then
  ns_ok=1
fi
if [ -n "$ns_ok" ]; then
  # The programs run as a uid of their own when setpriv can give one (nothing else on the machine
  # sweeps that user's segments: an older osp runtime of root's, in another build tree, would
  # remove a namespace's segment, the very bug this part is about), else as us.
  NU=$U
  NSP=$P.osp
  RUNAS=
  if command -v setpriv > /dev/null 2>&1 &&
     setpriv --reuid=54321 --regid=54321 --clear-groups true 2> /dev/null; then
    NU=54321
    RUNAS="setpriv --reuid=54321 --regid=54321 --clear-groups"
    ND=$(mktemp -d /tmp/osp-safety-shm-ns.XXXXXX) || { echo "error: mktemp"; exit 99; }
    chmod 755 "$ND"
    cp "$P.osp" "$ND/prog" && chmod 755 "$ND/prog"
    NSP=$ND/prog
  fi
  # A pid number no process has here: outside, a sweep would call it dead.
  NP=$(( 20000 + $$ % 5000 ))
  while [ -e "/proc/$NP" ] || [ -e "/proc/$((NP + 1))" ]; do NP=$((NP + 2)); done
  nsrun ()
  {
    rm -f "$W/$1.fifo"
    mkfifo "$W/$1.fifo"
    OSP_OPTIONS=publish_ms=50:report=none:snapshot=none unshare --pid --fork --mount-proc sh -c \
      'echo $(($1 - 1)) > /proc/sys/kernel/ns_last_pid; exec 3<&0; $3 "$2" wait <&3 3<&- & wait' \
      sh "$2" "$NSP" "$RUNAS" < "$W/$1.fifo" > "$W/$1.out" 2> "$W/$1.err" &
    nspid=$!
    bg_pids="$bg_pids $nspid"
  }
  nsrun nsa "$NP"
  exec 4> "$W/nsa.fifo"
  wait_for "$W/nsa.out" "^ready $NP " || osp_fail "namespace A: not pid $NP: $(cat "$W/nsa.out" "$W/nsa.err")"
  # Its segment: the one file of this user naming pid $NP.
  sa=$(ls "$SHM" | grep -E "^osp-$NU-$NP(-[0-9]+)?\$" | head -n 1)
  [ -n "$sa" ] || osp_fail "namespace A: no segment"
  ia=$(stat -c %i "$SHM/$sa" 2>/dev/null)
  # A program out here starts: its sweep must leave A's segment alone.
  echo go | OSP_OPTIONS=report=none:snapshot=none $RUNAS "$NSP" wait > /dev/null 2> "$W/host.err"
  [ -n "$sa" ] && [ "$(stat -c %i "$SHM/$sa" 2>/dev/null)" = "$ia" ] ||
    osp_fail "namespace A: its segment was removed by a sweep outside its namespace"
  # B: the same pid number in another namespace.
  nsrun nsb "$NP"
  exec 5> "$W/nsb.fifo"
  wait_for "$W/nsb.out" "^ready $NP " || osp_fail "namespace B: not pid $NP"
  sleep 0.3
  [ -n "$sa" ] && [ "$(stat -c %i "$SHM/$sa" 2>/dev/null)" = "$ia" ] ||
    osp_fail "namespace B took namespace A's segment"
  [ "$(ls "$SHM" | grep -c -E "^osp-$NU-$NP(-[0-9]+)?\$")" = 2 ] ||
    osp_fail "namespaces: want two segments of pid $NP: $(ls "$SHM" | grep -E "^osp-$NU-$NP")"
  [ -s "$W/nsb.err" ] && { osp_fail "namespace B: stderr is not empty"; osp_show "$W/nsb.err"; }
  # ospview -p with the pids seen from here (the programs: pid $NP inside, another here).
  found=0
  for q in $(pgrep -f "^$NSP wait"); do
    [ "$(awk '/^NSpid:/ { print $NF }' "/proc/$q/status" 2>/dev/null)" = "$NP" ] || continue
    found=$((found + 1))
    "$OSPVIEW" -p "$q" -b 1 > "$W/ns-$q.view" 2> "$W/ns-$q.err" ||
      osp_fail "ospview -p $q (pid $NP in its namespace): $(cat "$W/ns-$q.err")"
    grep -q "pid $NP " "$W/ns-$q.view" || osp_fail "ospview -p $q: not the view of pid $NP"
    grep -q "pid $NP  up .* running" "$W/ns-$q.view" ||
      { osp_fail "ospview -p $q: not shown running"; osp_show "$W/ns-$q.view"; }
  done
  [ "$found" = 2 ] || osp_fail "namespaces: $found programs of pid $NP found from here, want 2"
  echo go >&4
  echo go >&5
  exec 4>&- 5>&-
  wait
  for n in nsa nsb; do
    [ -s "$W/$n.err" ] && { osp_fail "$n: stderr is not empty"; osp_show "$W/$n.err"; }
  done
  [ "$(ls "$SHM" | grep -c -E "^osp-$NU-$NP(-[0-9]+)?\$")" = 0 ] ||
    osp_fail "namespaces: segments of pid $NP left after both exited"
  [ -n "$ND" ] && rm -rf "$ND"
else
  echo "note: part 2 skipped (needs root and unshare --pid)"
fi

# ---- 3. privilege ----
if [ "$U" = 0 ] && command -v setpriv > /dev/null 2>&1 &&
   setpriv --reuid=65534 --regid=65534 --clear-groups true 2> /dev/null; then
  D=$(mktemp -d /tmp/osp-safety-shm.XXXXXX) || { echo "error: mktemp"; exit 99; }
  chmod 755 "$D"
  cp "$P.osp" "$D/prog" && chmod 755 "$D/prog"
  # The runtime library must be readable by nobody: it is in the build tree.
  rm -f "$W/nb.fifo"
  mkfifo "$W/nb.fifo"
  chmod 666 "$W/nb.fifo"
  OSP_OPTIONS=publish_ms=50:report=none:snapshot=none setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$D/prog" wait < "$W/nb.fifo" > "$W/nb.out" 2> "$W/nb.err" &
  nbpid=$!
  bg_pids="$bg_pids $nbpid"
  exec 6> "$W/nb.fifo"
  if wait_for "$W/nb.out" "^ready "; then
    i=0
    while [ $i -lt 200 ] && ! [ -f "$SHM/osp-65534-$nbpid" ]; do sleep 0.05; i=$((i + 1)); done
    [ -f "$SHM/osp-65534-$nbpid" ] || osp_fail "privilege: nobody's program made no segment"
    # root reads it (ptrace's rule: root may read any process)
    i=0
    while [ $i -lt 100 ]; do
      "$OSPVIEW" -p "$nbpid" -b 1 > "$W/root.view" 2> "$W/root.err" &&
        grep -q "view #" "$W/root.view" && break
      sleep 0.1
      i=$((i + 1))
    done
    grep -q "view #" "$W/root.view" ||
      osp_fail "privilege: root cannot attach to another user's program: $(cat "$W/root.err")"
    "$OSPVIEW" -l > "$W/root.list" 2>&1
    grep -q "^ *$nbpid " "$W/root.list" ||
      { osp_fail "privilege: ospview -l as root does not list another user's program"
        osp_show "$W/root.list"; }
    # A third user (daemon) may not.
    setpriv --reuid=1 --regid=1 --clear-groups "$OSPVIEW" -p "$nbpid" -b 1 \
      > "$W/daemon.view" 2> "$W/daemon.err"
    rc=$?
    [ "$rc" = 1 ] && [ "$(wc -l < "$W/daemon.err")" = 1 ] && grep -q refused "$W/daemon.err" &&
      ! grep -q "view #" "$W/daemon.view" ||
      { osp_fail "privilege: another unprivileged user was not refused (status $rc)"
        osp_show "$W/daemon.err"; }
    echo "another user is refused: $(cat "$W/daemon.err")"
    setpriv --reuid=1 --regid=1 --clear-groups "$OSPVIEW" -l > "$W/daemon.list" 2>&1
    grep -q "^ *$nbpid " "$W/daemon.list" && osp_fail "privilege: another user lists nobody's program"
  else
    osp_fail "privilege: nobody's program did not start: $(cat "$W/nb.err")"
  fi
  echo go >&6
  exec 6>&-
  wait "$nbpid"
  rm -rf "$D"
else
  echo "note: part 3 skipped (needs root and setpriv)"
fi

# ---- 4. a zombie is not running ----
rm -f "$W/z.fifo"
mkfifo "$W/z.fifo"
# The program's parent execs sleep, which never reaps it.
OSP_OPTIONS=publish_ms=50:report=none:snapshot=none sh -c '"$1" wait < "$2" > "$3" & echo $! > "$4"; exec sleep 120' \
  sh "$P.osp" "$W/z.fifo" "$W/z.out" "$W/z.pid" 2> "$W/z.err" &
zsh=$!
bg_pids="$bg_pids $zsh"
exec 7> "$W/z.fifo"
wait_for "$W/z.out" "^ready " || osp_fail "zombie: the program did not start"
zpid=$(cat "$W/z.pid")
i=0
while [ $i -lt 200 ] && ! [ -f "$SHM/osp-$U-$zpid" ]; do sleep 0.05; i=$((i + 1)); done
"$OSPVIEW" -l > "$W/z1.list" 2>&1
grep -q "^ *$zpid  *running " "$W/z1.list" || { osp_fail "zombie: not listed running first"; osp_show "$W/z1.list"; }
kill -9 "$zpid"
i=0
while [ $i -lt 200 ] && [ "$(awk '{ print $3 }' "/proc/$zpid/stat" 2>/dev/null)" != Z ]; do
  sleep 0.05
  i=$((i + 1))
done
"$OSPVIEW" -l > "$W/z2.list" 2>&1
grep -q "^ *$zpid  *running " "$W/z2.list" &&
  { osp_fail "zombie: a killed, unreaped program is listed as running"; osp_show "$W/z2.list"; }
grep -q "^ *$zpid  *dead " "$W/z2.list" || { osp_fail "zombie: not listed dead"; osp_show "$W/z2.list"; }
exec 7>&-
kill "$zsh" 2> /dev/null
wait "$zsh" 2> /dev/null
rm -f "$SHM/osp-$U-$zpid"

# ---- 5. truncated while being read ----
osp_compile "$W/writer" plain_cc -std=c11 -O1 -Wall -I"$abs_top_srcdir/libosprt/format" \
  "$OSP_TESTSRC/progs/viewer-writer.c" "$abs_top_srcdir"/libosprt/format/*.c -o "$W/writer" || { echo "error: cannot build the test writer"; exit 99; }
"$W/writer" segment "$W/good.seg" ok || osp_fail "writer: a good segment"
cp "$W/good.seg" "$W/t.seg"
# Truncate and restore the file over and over while ospview reads it.
"$P.plain" truncloop "$W/t.seg" "$W/good.seg" "$W/t.stop" &
tpid=$!
bg_pids="$bg_pids $tpid"
signals=0 views=0 refusals=0
i=0
while [ $i -lt 10 ]; do
  "$OSPVIEW" --segment "$W/t.seg" -b 200 -d 0 > "$W/t.out" 2> "$W/t.err"
  rc=$?
  if [ "$rc" -gt 128 ]; then
    signals=$((signals + 1))
  elif [ "$rc" = 0 ]; then
    views=$((views + 1))
  elif [ "$rc" -le 1 ] && ! grep -v -q -F "ospview: $W/t.seg: " "$W/t.err"; then
    refusals=$((refusals + 1))
  else
    osp_fail "truncated: status $rc"
    osp_show "$W/t.err"
  fi
  i=$((i + 1))
done
touch "$W/t.stop"
wait "$tpid"
echo "truncated while read (10 runs of 200 reads): $views read through, $refusals with reads refused, $signals killed by a signal"
[ "$signals" = 0 ] || osp_fail "truncated: ospview was killed by a signal in $signals runs of 10"

# ---- 6. a FIFO under the program's name ----
# Anyone may make files in /dev/shm: a FIFO named like the program's segment must be one
# "cannot publish" line, not a program (or a viewer) waiting for a writer forever.
echo go | OSP_OPTIONS=report=none:snapshot=none timeout 60 sh -c 'mkfifo "$0/osp-$1-$$"; echo $$ > "$2"; exec "$3" wait' \
  "$SHM" "$U" "$W/fifo.pid" "$P.osp" > "$W/fifo.out" 2> "$W/fifo.err"
rc=$?
fpid=$(cat "$W/fifo.pid")
[ "$rc" = 0 ] || osp_fail "FIFO: the program ended with status $rc (124: it hung)"
grep -q "^done " "$W/fifo.out" || osp_fail "FIFO: the program did not finish"
want="osp: cannot publish ($SHM/osp-$U-$fpid: File exists): the program runs and profiles as before"
[ "$(cat "$W/fifo.err")" = "$want" ] || { osp_fail "FIFO: not the one line"; osp_show "$W/fifo.err"; }
timeout 20 "$OSPVIEW" --segment "$SHM/osp-$U-$fpid" -b 1 > /dev/null 2> "$W/fifo-view.err"
rc=$?
[ "$rc" = 1 ] && grep -q "not a regular file" "$W/fifo-view.err" ||
  { osp_fail "FIFO: ospview --segment: status $rc (124: it hung)"; osp_show "$W/fifo-view.err"; }
rm -f "$SHM/osp-$U-$fpid"

# ---- 7. /dev/shm fills up after the segment was made ----
# A tmpfs of 8 KB over /dev/shm in a mount namespace of its own: the header's page fits, the
# first view does not.  Its pages are reserved before they are written: one line, no SIGBUS.
# Views are published only for a viewer, so an ospview attaches in the namespace (in the
# background: no view ever comes), and the program is told to end once the line is out.
if [ "$U" = 0 ] && timeout 10 unshare --mount sh -c 'mount -t tmpfs -o size=8k tmpfs /dev/shm' \
     2> /dev/null; then
  rm -f "$W/full.fifo" && mkfifo "$W/full.fifo" || osp_fail "full /dev/shm: mkfifo"
  polls=$(( $(osp_seconds 20) * 10 ))
  # shellcheck disable=SC2016
  OSP_OPTIONS=report=none:snapshot=none:publish_ms=50 timeout 120 unshare --mount sh -c '
    mount -t tmpfs -o size=8k tmpfs /dev/shm || exit 99
    "$1" wait < "$3" > "$4" &
    p=$!
    exec 5> "$3"
    i=0
    until grep -q "^ready" "$4" || [ $i -ge "$7" ]; do sleep 0.1; i=$((i + 1)); done
    "$5" -p "$p" -b 1 > /dev/null 2> "$6" &
    v=$!
    i=0
    until [ -s "$8" ] || [ $i -ge "$7" ]; do sleep 0.1; i=$((i + 1)); done
    kill "$v" 2> /dev/null; { wait "$v"; } 2> /dev/null
    echo go >&5
    exec 5>&-
    wait "$p"; s=$?; ls /dev/shm > "$2"; exit $s' \
    sh "$P.osp" "$W/full.ls" "$W/full.fifo" "$W/full.out" "$OSPVIEW" "$W/full-view.err" "$polls" \
    "$W/full.err" 2> "$W/full.err"
  rc=$?
  [ "$rc" = 0 ] || osp_fail "full /dev/shm: status $rc (135: SIGBUS)"
  grep -q "^done " "$W/full.out" || osp_fail "full /dev/shm: the program did not finish"
  [ "$(grep -c . "$W/full.err")" = 1 ] &&
    grep -q "^osp: cannot publish (/dev/shm/osp-0-[0-9]*: No space left on device): the program runs and profiles as before\$" "$W/full.err" ||
    { osp_fail "full /dev/shm: not the one line"; osp_show "$W/full.err"; }
  [ -s "$W/full.ls" ] && osp_fail "full /dev/shm: left $(cat "$W/full.ls")"
else
  echo "note: part 7 skipped (needs root and unshare --mount)"
fi

osp_done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/snapshot.sh - snapshot files (include/osp/snapshot.h) written by the runtime and by
# ospview, and opened again with the screens of a live process.
#
#   1. At exit (OSP_OPTIONS snapshot=FILE with %p): progs/forest-loops.c with exhaustive paths and
#      forest prints what the plain build prints, and leaves one file named with its pid; `ospview
#      FILE -b 1` says it is a snapshot taken at exit and shows the rows of the tsv exit report of
#      the same run (one profile for both): as many subpath, path and forest rows, the same top
#      estimates.  %h is the host name.
#   2. snapshot_signal: progs/viewer-loop.c gets SIGUSR2 while it runs; the file appears, opens,
#      and is not an exit snapshot; at exit it is replaced by the exit one; the program's output
#      and status are its own.
#   3. Round trip from a live process: with the process stopped (SIGSTOP; its publisher stops
#      too, so the view stays put) `ospview -p PID --save FILE`, then `ospview -p PID -b 1
#      --top=0` and `ospview FILE -b 1 --top=0` print the same screens (all but the first status
#      line, which says live or snapshot).
#   4. Failures are one line and change nothing: a snapshot into a missing directory (the
#      program's output and status unchanged), snapshot_signal without snapshot=, --save of a
#      pid without a segment.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup snapshot
osp_need_build

OSPVIEW=$abs_top_builddir/viewer/ospview
SRC=$abs_top_srcdir
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }

osp_compile "$W/fl" osp_cc -O1 -g "$SRC/tests/progs/forest-loops.c" -o "$W/fl" &&
  osp_compile "$W/fl-plain" plain_cc -O1 -g "$SRC/tests/progs/forest-loops.c" -o "$W/fl-plain" &&
  osp_compile "$W/loop" osp_cc -O1 -g "$SRC/tests/progs/viewer-loop.c" -o "$W/loop" ||
  { echo "error: cannot build the test programs"; exit 99; }

# title_total FILE TITLE: N of the table title "TITLE (k of N)".
title_total ()
{
  sed -n "s/^$2 ([0-9]* of \([0-9]*\)).*/\1/p" "$1" | head -n 1
}
# live_view PID N: ospview -p PID shows view #N or a later one.
live_view ()
{
  "$OSPVIEW" -p "$1" -b 1 --screen=functions 2> /dev/null |
    sed -n 's/.* view #\([0-9]*\).*/\1/p' | awk -v n="$2" 'NR == 1 { ok = $1 >= n } END { exit !ok }'
}
# first_estimate JSON KEY: the estimate of the first row of KEY (subpaths, paths) in ospview
# --json's JSON, rounded as the tsv check below prints it (named fields, not screen columns).
first_estimate ()
{
  python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))[sys.argv[2]]
print("%.0f" % rows[0]["estimate"] if rows else "")
' "$1" "$2"
}

# --- 1. at exit -----------------------------------------------------------------------------------
osp_exec "$W/plain" "$W/fl-plain"
osp_exec_with "report=$W/exit.tsv:report_format=tsv:paths=exhaustive:forest=exhaustive:snapshot=$W/exit-%p.ospsnap" \
  "$W/exit" "$W/fl"
[ "$osp_rc" -eq 0 ] && [ ! -s "$W/exit.err" ] ||
  { osp_fail "at exit: status $osp_rc or messages"; osp_show "$W/exit.err"; }
osp_same "at exit: output" "$W/plain.out" "$W/exit.out"
set -- "$W"/exit-*.ospsnap
if [ "$#" -ne 1 ] || [ ! -f "$1" ]; then
  osp_fail "at exit: want one exit-PID.ospsnap, got: $*"
  osp_done
fi
snap=$1
pid=${snap##*/exit-}
pid=${pid%.ospsnap}
"$OSPVIEW" "$snap" -b 1 --top=5 --sort=rank > "$W/exit.view" 2> "$W/exit.verr" ||
  { osp_fail "ospview $snap: status $?"; osp_show "$W/exit.verr"; }
head -n 1 "$W/exit.view" | grep -q "^snapshot $snap: .*/fl  pid $pid  .*taken .* at exit\$" ||
  { osp_fail "the first status line does not describe the exit snapshot"; osp_show "$W/exit.view"; }
for pair in "hottest subpaths:subpath" "hottest Ball-Larus paths:path" "prefix forest:forest"; do
  title=${pair%%:*} row=${pair#*:}
  want=$(grep -c "^$row	" "$W/exit.tsv")
  got=$(title_total "$W/exit.view" "$title")
  [ "$want" -gt 0 ] && [ "$got" = "$want" ] ||
    osp_fail "$title: the snapshot has ${got:-no} rows, the tsv report of the same run $want"
done
# (the first subpath row, ranked or not, and the first path, from --json)
if command -v python3 > /dev/null 2>&1; then
  "$OSPVIEW" "$snap" --json > "$W/exit.json" 2>> "$W/exit.verr" || osp_fail "--json: exit status $?"
  want=$(awk -F "\t" '$1 == "subpath" { printf "%.0f", $4; exit }' "$W/exit.tsv")
  got=$(first_estimate "$W/exit.json" subpaths)
  [ -n "$want" ] && [ "$got" = "$want" ] || osp_fail "top subpath estimate: snapshot $got, tsv report $want"
  want=$(awk -F '\t' '$1 == "path" && $2 == 1 { printf "%.0f", $5 }' "$W/exit.tsv")
  got=$(first_estimate "$W/exit.json" paths)
  [ -n "$want" ] && [ "$got" = "$want" ] || osp_fail "top path count: snapshot $got, tsv report $want"
else
  echo "note: python3 is not installed: the top estimates are not compared"
fi

host=$(hostname 2> /dev/null || uname -n)
osp_exec_with "report=none:snapshot=$W/h-%h.ospsnap" "$W/host" "$W/fl"
[ -f "$W/h-$host.ospsnap" ] || osp_fail "%h: no $W/h-$host.ospsnap"

# --- 2. on a signal -------------------------------------------------------------------------------
# (until sig.stop exists, however long a loaded machine makes the steps take; USR2 only once the
# runtime's handler is there: before, it would kill the program)
OSP_OPTIONS="report=none:snapshot=$W/sig.ospsnap:snapshot_signal=USR2" \
  "$W/loop" "$(osp_seconds 60)" "$W/sig.stop" > "$W/sig.out" 2> "$W/sig.err" &
lpid=$!
osp_wait_until 10 osp_catches "$lpid" 12 || osp_fail "snapshot_signal=USR2: no handler for USR2"
kill -USR2 "$lpid"
osp_wait_until 10 osp_has_file "$W/sig.ospsnap"
"$OSPVIEW" "$W/sig.ospsnap" -b 1 --top=3 > "$W/sig1.view" 2> "$W/sig1.verr" ||
  { osp_fail "the signal's snapshot does not open: $(cat "$W/sig1.verr")"; }
head -n 1 "$W/sig1.view" | grep -q "pid $lpid .*taken " &&
  ! head -n 1 "$W/sig1.view" | grep -q "at exit" ||
  { osp_fail "the signal's snapshot is not a live one of pid $lpid"; osp_show "$W/sig1.view"; }
grep -A 2 "^hottest subpaths" "$W/sig1.view" | grep -q -E ' spin\(\) .*viewer-loop\.c:[0-9]+' ||
  { osp_fail "the signal's snapshot lacks the hot subpath in spin()"; osp_show "$W/sig1.view"; }
touch "$W/sig.stop"
wait "$lpid"
rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$W/sig.err" ] && grep -q . "$W/sig.out" ||
  { osp_fail "with snapshot_signal: status $rc or messages"; osp_show "$W/sig.err"; }
"$OSPVIEW" "$W/sig.ospsnap" -b 1 --top=3 > "$W/sig2.view" 2>&1
head -n 1 "$W/sig2.view" | grep -q "at exit\$" ||
  { osp_fail "at exit the signal's snapshot was not replaced"; osp_show "$W/sig2.view"; }

# --- 3. round trip from a live process ------------------------------------------------------------
OSP_OPTIONS="report=none:publish_ms=100" "$W/loop" "$(osp_seconds 60)" "$W/live.stop" > /dev/null 2>&1 &
lpid=$!
osp_wait_until 10 live_view "$lpid" 5 # (some publishes: a profile to compare)
kill -STOP "$lpid"
osp_wait_until 10 osp_stopped "$lpid"
"$OSPVIEW" -p "$lpid" --save "$W/live.ospsnap" > "$W/save.out" 2> "$W/save.err"
rc=$?
"$OSPVIEW" -p "$lpid" -b 1 --top=0 > "$W/live.view" 2>&1
kill -CONT "$lpid"
touch "$W/live.stop"
wait "$lpid" 2> /dev/null
[ "$rc" -eq 0 ] && grep -q "^saved $W/live.ospsnap (.* bytes, view #[0-9]* of pid $lpid)" "$W/save.out" ||
  { osp_fail "--save: status $rc, $(cat "$W/save.out" "$W/save.err")"; }
"$OSPVIEW" "$W/live.ospsnap" -b 1 --top=0 > "$W/file.view" 2>&1 ||
  osp_fail "the saved snapshot does not open"
tail -n +2 "$W/live.view" > "$W/live.rest"
tail -n +2 "$W/file.view" > "$W/file.rest"
[ "$(wc -l < "$W/live.rest")" -gt 10 ] || { osp_fail "round trip: too little to compare"; osp_show "$W/live.view"; }
osp_same "round trip: the snapshot shows the live view's screens" "$W/live.rest" "$W/file.rest"
head -n 1 "$W/file.view" | grep -q "^snapshot $W/live.ospsnap: .*loop  pid $lpid " ||
  { osp_fail "round trip: the status line does not name the snapshot"; head -n 1 "$W/file.view"; }

# --- 4. failures ----------------------------------------------------------------------------------
osp_exec_with "report=none:snapshot=$W/missing/x-%p.ospsnap" "$W/nodir" "$W/fl"
osp_same "unwritable snapshot: output" "$W/plain.out" "$W/nodir.out"
[ "$osp_rc" -eq 0 ] && [ "$(wc -l < "$W/nodir.err")" -eq 1 ] &&
  grep -q "^osp: cannot write the snapshot $W/missing/x-[0-9]*.ospsnap: No such file or directory\$" "$W/nodir.err" ||
  { osp_fail "unwritable snapshot: status $osp_rc, want one line"; osp_show "$W/nodir.err"; }
osp_exec_with "report=none:snapshot_signal=USR2" "$W/nofile" "$W/fl"
osp_same "snapshot_signal without snapshot: output" "$W/plain.out" "$W/nofile.out"
[ "$osp_rc" -eq 0 ] && [ "$(wc -l < "$W/nofile.err")" -eq 1 ] &&
  grep -q "snapshot_signal=USR2 needs snapshot=FILE" "$W/nofile.err" ||
  { osp_fail "snapshot_signal without snapshot: status $osp_rc"; osp_show "$W/nofile.err"; }
"$OSPVIEW" -p "$lpid" --save "$W/gone.ospsnap" > /dev/null 2> "$W/gone.err"
rc=$?
[ "$rc" -eq 1 ] && [ "$(wc -l < "$W/gone.err")" -eq 1 ] && [ ! -f "$W/gone.ospsnap" ] ||
  osp_fail "--save of an ended process: status $rc, '$(cat "$W/gone.err")'"

osp_done

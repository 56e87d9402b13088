#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/viewer-recent.sh - recent mode (ospview --recent, viewer/recent.c) and --diff of two
# snapshots of one process: a change of phase is visible live, and what ran between two
# snapshots is shown as such.
#
# The program: progs/phases.c, built with the plugin.  Phase A runs a()'s loop until the test
# creates DIR/b, phase B runs b()'s loop for half as many rounds (so a() stays ahead in the
# cumulative profile), then it idles until SIGUSR1 (no instrumented code runs).  The test
# drives every step by files and a signal, never by time: waits are osp_wait_until's.
#   1. Live, in batch mode with --recent=1 (views every 100 ms): before the switch a() leads the
#      recent subpaths; b() leads the subpaths within 15 views of the first view
#      of phase B (the window is about 10 views) and, later, the functions (their rows come
#      from the Ball-Larus paths, sampled far more rarely); the status line says "recent"; once the program idles, every recent row is marked '~' (its delta within
#      error) - while the cumulative subpaths (-b 1 without --recent, status "cumulative")
#      still have a() on top.
#   2. --diff of a snapshot taken in phase A and one after phase B: the status names one
#      process, and the "ran between" tables have b() on top of the subpaths (marked new, '+')
#      and of the functions, established (not '~'): the work between the two snapshots; the share comparison is still
#      printed after them.  --recent with a snapshot file is refused (exit 2, one line).
#   3. The terminal UI in tmux (skipped without it): the status says "cumulative", R makes it
#      "recent" with the recent titles and, the program idling, rows marked '~'; R again goes
#      back.  A --diff of the two snapshots opens on "ran between" tables, R shows the
#      comparison.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup viewer-recent
osp_need_build

OSPVIEW=$abs_top_builddir/viewer/ospview
SRC=$abs_top_srcdir
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }
ME=$(id -u)

osp_compile "$W/phases" osp_cc -O1 -g "$SRC/tests/progs/phases.c" -o "$W/phases" ||
  { echo "error: cannot build phases.c with the plugin"; exit 99; }
mkdir "$W/d" || exit 99

# --- helpers -----------------------------------------------------------------------------------

segment_ready ()
{
  [ -f "/dev/shm/osp-$ME-$1" ] &&
    "$OSPVIEW" -p "$1" -b 1 --screen=functions 2> /dev/null | grep -q "view #"
}

# refreshes FILE: one line per refresh of a recent-mode batch output:
#   VIEW SUBPATHS-TOP FUNCTIONS-TOP B-SEEN ALL-MARKED
# the view number, the function (a or b) of the first row of each screen ("-": none), whether
# any row names b(), whether every row of both screens is marked '~'.
refreshes ()
{
  awk 'function flush() { if (view != "") print view, top["s"], top["f"], bseen, marked }
       function fn(row) { return row ~ / b\(\) / ? "b" : row ~ / a\(\) / ? "a" : "?" }
       /^--- refresh / { flush(); view = ""; top["s"] = top["f"] = "-"; bseen = 0;
                         marked = 1; tab = ""; next }
       NR == 1 { top["s"] = top["f"] = "-"; bseen = 0; marked = 1 }
       match ($0, /view #[0-9]+/) && view == "" { view = substr ($0, RSTART + 6, RLENGTH - 6) }
       /^subpaths in the last / { tab = "s"; hdr = 1; first = 1; next }
       /^functions in the last / { tab = "f"; hdr = 1; first = 1; next }
       /^$/ { tab = ""; next }
       tab != "" && hdr { hdr = 0; next }
       tab != "" { if (first) top[tab] = fn($0); first = 0
                   if ($0 ~ / b\(\) /) bseen = 1
                   if (substr ($0, 1, 1) != "~") marked = 0 }
       END { flush() }' "$1"
}

# b_leads FILE: some refresh has b() on top of the subpaths.
b_leads ()
{
  refreshes "$1" | awk '$2 == "b" { f = 1 } END { exit !f }'
}

# b_leads_functions FILE: some refresh has b() on top of the functions.
b_leads_functions ()
{
  refreshes "$1" | awk '$3 == "b" { f = 1 } END { exit !f }'
}

# newest_view PID: the number of the newest view of PID.
newest_view ()
{
  "$OSPVIEW" -p "$1" -b 1 --screen=functions --top=1 2> /dev/null |
    sed -n 's/.*  view #\([0-9]*\) .*/\1/p' | head -n 1
}

# all_marked FILE: a refresh after b() led where every row is marked '~'.
all_marked ()
{
  refreshes "$1" | awk '$2 == "b" { led = 1 } led && $5 == 1 { f = 1 } END { exit !f }'
}

# refreshes_at_least FILE N
refreshes_at_least ()
{
  [ "$(refreshes "$1" | wc -l)" -ge "$2" ]
}

PH= VIEWER= TM=
cleanup ()
{
  [ -n "$PH" ] && kill -USR1 "$PH" 2> /dev/null
  [ -n "$VIEWER" ] && kill "$VIEWER" 2> /dev/null
  [ -n "$TM" ] && $TM kill-server > /dev/null 2>&1
  return 0
}

# --- 1. live ---------------------------------------------------------------------------------------
trap cleanup EXIT
OSP_OPTIONS=report=none:publish_ms=100 "$W/phases" "$W/d" "$(osp_seconds 120)" > "$W/phases.out" 2> "$W/phases.err" &
PH=$!
osp_wait_until 10 segment_ready "$PH" || { osp_fail "no segment"; cleanup; osp_done; }
osp_wait_until 60 test -e "$W/d/a-done" || { osp_fail "phase A did not get far"; cleanup; osp_done; }
"$OSPVIEW" -p "$PH" --save "$W/A.ospsnap" > /dev/null 2> "$W/saveA.err" ||
  { osp_fail "--save in phase A"; osp_show "$W/saveA.err"; }

# The viewer runs through the switch; its count only bounds it (it is stopped below).
"$OSPVIEW" -p "$PH" -b 100000 -d 0.25 --recent=1 --screen=subpaths,functions --top=4 \
  > "$W/rec.out" 2> "$W/rec.err" &
VIEWER=$!
osp_wait_until 10 osp_has_line "$W/rec.out" "subpaths in the last" ||
  osp_fail "--recent shows no recent subpaths"
# a few refreshes of phase A, then the switch
osp_wait_until 30 refreshes_at_least "$W/rec.out" 3 || osp_fail "--recent: no refreshes"
touch "$W/d/b"
osp_wait_until 30 test -e "$W/d/in-b" || osp_fail "the program did not switch to phase B"
V0=$(newest_view "$PH")
echo "phase B from view ${V0:-?}"
osp_wait_until 60 b_leads "$W/rec.out" || osp_fail "--recent: b() never leads the subpaths"
osp_wait_until 60 b_leads_functions "$W/rec.out" ||
  osp_fail "--recent: b() never leads the functions"
osp_wait_until 60 test -e "$W/d/b-done" || osp_fail "phase B did not end"
osp_wait_until 60 all_marked "$W/rec.out" ||
  osp_fail "--recent: once idle, the rows are not all marked '~' (within error)"
kill "$VIEWER" 2> /dev/null
wait "$VIEWER" 2> /dev/null
VIEWER=
refreshes "$W/rec.out" > "$W/rec.tab"

# before the switch a() led; b() led the subpaths within a window and a half of views (the
# window is about 10 of them) of the first view of phase B
awk 'NR <= 3 && $2 != "a" { bad = 1 } END { exit bad }' "$W/rec.tab" ||
  { osp_fail "--recent: a() does not lead in phase A"; head -n 3 "$W/rec.tab"; }
awk -v v0="${V0:-0}" '$2 == "b" { print "b() leads from view " $1 " (phase B from " v0 ")"
                                  exit !($1 - v0 <= 15) }' "$W/rec.tab" ||
  { osp_fail "--recent: b() did not lead within 15 views of phase B"; cat "$W/rec.tab"; }
grep -q -E "  view #[0-9]+ .*  recent [0-9.]+s" "$W/rec.out" ||
  osp_fail "--recent: the status line does not say recent"

# cumulative: a() still on top by rank, after all of phase B (by work, the default order, b()'s
# longer rows weigh more)
"$OSPVIEW" -p "$PH" -b 1 --screen=subpaths --sort=rank --top=3 > "$W/cum.out" 2> "$W/cum.err" ||
  osp_fail "cumulative -b 1: exit status $?"
head -n 1 "$W/cum.out" | grep -q "  cumulative\$" ||
  { osp_fail "cumulative: the status line does not say cumulative"; head -n 1 "$W/cum.out"; }
awk 'index($0, "hottest subpaths") == 1 { g = 2; next } g == 2 { g = 1; next }
     g == 1 { print; exit }' "$W/cum.out" | grep -q " a() " ||
  { osp_fail "cumulative: a() is not on top of the subpaths"; osp_show "$W/cum.out"; }

# --- 3. the key R in the terminal UI (tmux; skipped without it) --------------------------------
TM=
if command -v tmux > /dev/null 2>&1; then
  unset TMUX
  TM="tmux -L osp-viewer-recent-$$ -f /dev/null"
  # (cap, shows and wait_for: tests/lib.sh)
  $TM new-session -d -s v -x 250 -y 40 -c "$W" "'$OSPVIEW' -p $PH -d 0.3 2> '$W/ui.err'" ||
    { echo "error: tmux new-session failed"; exit 99; }
  if wait_for live '  view #[0-9]+ .*  cumulative$' && wait_for live 'hottest subpaths'; then
    $TM send-keys -t v R
    wait_for recent '  view #[0-9]+ .*  recent [0-9.]+s$' &&
      wait_for recent 'subpaths in the last [0-9.]+s' &&
      wait_for recent '^[ >]~ +-?[0-9]+ '
    $TM send-keys -t v R
    wait_for back '  view #[0-9]+ .*  cumulative$' && wait_for back 'hottest subpaths'
  fi
  $TM kill-server > /dev/null 2>&1
else
  echo "note: tmux is not installed: the key R is not checked"
fi

"$OSPVIEW" -p "$PH" --save "$W/B.ospsnap" > /dev/null 2> "$W/saveB.err" ||
  { osp_fail "--save after phase B"; osp_show "$W/saveB.err"; }
kill -USR1 "$PH"
wait "$PH"
rc=$?
PH=
[ "$rc" -eq 0 ] || { osp_fail "the program exited with $rc"; osp_show "$W/phases.err"; }

# --- 2. --diff of one process ------------------------------------------------------------------------
"$OSPVIEW" --diff "$W/A.ospsnap" "$W/B.ospsnap" -b 1 --screen=subpaths,functions --top=3 \
  > "$W/diff.out" 2> "$W/diff.err"
rc=$?
[ "$rc" -eq 0 ] || { osp_fail "--diff: exit status $rc"; osp_show "$W/diff.err"; }
grep -q "^one process (pid [0-9]*), NEW [0-9.]*s after OLD: \"ran between\"" "$W/diff.out" ||
  { osp_fail "--diff: the status does not say one process"; osp_show "$W/diff.out"; }
# (b()'s subpaths are new in the hot list; the function was there, with no calls)
for t in "subpaths:[+]" "functions:[ +]"; do
  row=$(awk -v t="${t%%:*} that ran between OLD and NEW" \
          'index($0, t) == 1 { g = 2; next } g == 2 { g = 1; next } g == 1 { print; exit }' \
          "$W/diff.out")
  echo "$row" | grep -q -E "^${t#*:} .* b\(\) .*phases\.c:" ||
    { osp_fail "--diff: b() is not on top of ${t%%:*} that ran between"; osp_show "$W/diff.out"; }
done
grep -q "^subpaths diff (" "$W/diff.out" || osp_fail "--diff: the share comparison is gone"
if [ -n "$TM" ]; then
  $TM new-session -d -s v -x 150 -y 40 -c "$W" "'$OSPVIEW' --diff A.ospsnap B.ospsnap" ||
    { echo "error: tmux new-session failed"; exit 99; }
  if wait_for diff '^\[1 subpaths\] .*subpaths that ran between OLD and NEW'; then
    $TM send-keys -t v R
    wait_for diffr '^\[1 subpaths\] .*subpaths diff \('
  fi
  $TM kill-server > /dev/null 2>&1
fi

"$OSPVIEW" --recent "$W/A.ospsnap" -b 1 > /dev/null 2> "$W/snaprecent.err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l < "$W/snaprecent.err")" -eq 1 ] &&
  grep -q "^ospview: --recent .*snapshot" "$W/snaprecent.err" ||
  { osp_fail "--recent with a snapshot: status $rc"; osp_show "$W/snaprecent.err"; }

osp_done

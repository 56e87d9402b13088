#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/viewer-tmux.sh - ospview's terminal UI (viewer/tui.c, viewer/keys.c) driven through tmux.
#
# Why tmux: it is a real terminal emulator that can be driven and read from a script (send-keys,
# capture-pane, resize-window), so the UI is tested as a user sees it, not through its internals.
# Its own server (-L), a detached session of fixed size; skipped (77) without tmux.
#
# The program: vt.c below, built with the plugin in the work directory (so its file is "vt.c"
# and readable from there): spin() loops over a branch taken 3 times in 4, calling mix() on the
# other; it runs until the file "stop" exists, then returns from main (the runtime publishes its
# exit view).  Every wait polls the screen until what it waits for shows, within a limit scaled
# by OSP_TEST_TIMEOUT_SCALE (osp_wait_until, tests/lib.sh): nothing here depends on speed.
# OSP_OPTIONS=publish_ms=100; ospview -p PID -d 0.3 in a 120x40 window.
#   1. The status lines (pid, running, heartbeat), the subpaths screen first, the hottest
#      subpath with function names and file:line; the detail pane shows source lines equal to
#      vt.c's lines of those numbers.
#   2. Counts grow: the same subpath's estimate and the view number grow between captures.
#   3. The selection stays on its row (the same path) while the list refreshes.
#   4. Tab: paths, forest, functions, back to subpaths (their titles); on the forest, Enter on
#      a closed node "[+]" opens it "[-]" and rows are added.
#   5. "/mix()" Enter: the title says the filter, the paths screen shows only rows with mix();
#      Esc clears it.
#   6. "?": the help lists the key table (every line of `ospview --keys' when ospview.c offers
#      that option, else known lines); any key closes it.
#   7. "p": PAUSED, the view number stops; "s" while paused offers osp-vt-PID-TIME.ospsnap,
#      saves under the name typed instead, says so, and the file is that paused view (same
#      view number, the hot subpath); "p" again: it moves.
#   8. resize-window 80x24, 100x12 (no detail pane, one status line), 30x6 ("terminal too
#      small"), back to 120x40: the layout follows, nothing wider than the window.
#   9. The program ends: EXITED in the bar, "exited" and "(at exit)" in the status, the rows
#      stay.  "q": ospview exits 0.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup viewer-tmux
osp_need_build

if ! command -v tmux > /dev/null 2>&1; then
  echo "SKIP: tmux is not installed (Debian: apt-get install tmux)"
  exit 77
fi
OSPVIEW=$abs_top_builddir/viewer/ospview
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }

unset TMUX
TM="tmux -L osp-viewer-tmux-$$ -f /dev/null"
prog_pid=
cleanup ()
{
  $TM kill-server > /dev/null 2>&1
  if [ -n "$prog_pid" ]; then
    kill "$prog_pid" 2> /dev/null
  fi
}
trap cleanup EXIT

cat > "$W/vt.c" << 'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static unsigned __attribute__ ((noinline))
mix (unsigned x)
{
  x ^= x >> 13;
  x *= 0x5bd1e995u;
  return x ^ (x >> 15);
}

static unsigned __attribute__ ((noinline))
spin (unsigned n, unsigned s)
{
  for (unsigned i = 0; i < n; i++)
    {
      if ((i & 3) != 3)
        s = s * 1103515245u + 12345u;
      else
        s += mix (s);
    }
  return s;
}

int
main (int argc, char **argv)
{
  time_t end = time (NULL) + (argc > 2 ? atol (argv[2]) : 150); /* a cap, for a test that died */
  unsigned s = 1;
  while (argc > 1 && access (argv[1], F_OK) != 0 && time (NULL) < end)
    s = spin (100000, s);
  printf ("%u\n", s);
  return 0;
}
EOF
(cd "$W" && osp_compile "$W/vt" osp_cc -O1 -g vt.c -o vt) ||
  { echo "error: cannot build the test program"; exit 99; }

(cd "$W" && OSP_OPTIONS=publish_ms=100:report=none exec ./vt "$W/stop" "$(osp_seconds 150)") \
  > "$W/vt.out" 2> "$W/vt.err" < /dev/null &
prog_pid=$!
seg=/dev/shm/osp-$(id -u)-$prog_pid
osp_wait_until 10 osp_has_file "$seg" || { echo "error: the program published no segment ($seg)"; exit 99; }

$TM new-session -d -s v -x 120 -y 40 -c "$W" \
  "'$OSPVIEW' -p $prog_pid -d 0.3 --sort=rank 2> '$W/ospview.err'; echo \$? > '$W/ospview.rc'" ||
  { echo "error: tmux new-session failed"; exit 99; }

# (cap, shows, wait_for and keys: tests/lib.sh.)

# view_no FILE: the view number in the status line.
view_no ()
{
  sed -n 's/.*view #\([0-9]*\).*/\1/p' "$1" | head -n 1
}

# count FILE: the rows of the forest screen (its title).
count ()
{
  sed -n 's/.*prefix forest (\([0-9]*\) of.*/\1/p' "$1" | head -n 1
}

# A subpath row: marker, rank, estimate, +/- err, share, work, work%, length, then the path.
SUBROW='^. *[0-9]+ +[0-9]+ +\+/- [0-9]+ +[0-9.]+% +[0-9.e+]+ +[0-9.]+% +[0-9]+  '

# sub_path FILE RANK|sel: the path of the subpath row of that rank, or of the selected row.
sub_path ()
{
  R=$2 RE=$SUBROW awk '{
      if (!match($0, ENVIRON["RE"])) next
      split(substr($0, 2), f, " ")
      if ((ENVIRON["R"] == "sel" && substr($0, 1, 1) == ">") || f[1] == ENVIRON["R"]) {
        p = substr($0, RLENGTH + 1); sub(/^(\[[-+]\] |  - )/, "", p)  # a fold mark
        print p; exit
      }
    }' "$1"
}

# sub_estimate FILE PATH: the estimate of the subpath row with that path.
sub_estimate ()
{
  P=$2 RE=$SUBROW awk '{
      if (!match($0, ENVIRON["RE"])) next
      p = substr($0, RLENGTH + 1); sub(/^(\[[-+]\] |  - )/, "", p)
      if (p == ENVIRON["P"]) { split(substr($0, 2), f, " "); print f[2]; exit }
    }' "$1"
}

# view_past NAME AFTER: capture NAME; its view number is above AFTER.
view_past ()
{
  cap "$1"
  v=$(view_no "$W/$1.txt")
  [ -n "$v" ] && [ "$v" -gt "$2" ]
}

# wait_view NAME AFTER: capture NAME once the view number passes AFTER (20 s, scaled).
wait_view ()
{
  osp_wait_until 20 view_past "$1" "$2" && return 0
  osp_fail "$1: the view number stayed at $2"
  return 1
}

# sel_moved NAME LINE: capture NAME; the selected row ('>') is on another line than LINE.
sel_moved ()
{
  cap "$1" && [ "$(grep -n '^>' "$W/$1.txt" | cut -d: -f1)" != "$2" ]
}

# --- 1. the first screen -------------------------------------------------------------------------
# detail_ok FILE: every source line in the detail pane is vt.c's line of that number, and there is
# one.
detail_ok ()
{
  awk 'FNR == NR { src[FNR] = $0; next }
       /^ detail: / { on = 1; next }
       on && match($0, /^ +[0-9]+  /) {
         n = $1 + 0; text = substr($0, RLENGTH + 1); shown++
         if (src[n] != text) { printf "line %d shown as \"%s\", vt.c has \"%s\"\n", n, text, src[n]; bad++ }
       }
       END { if (!shown) print "no source line in the detail pane"; exit (bad || !shown) }' \
    "$W/vt.c" "$1"
}
# The detail pane is drawn after the rows: wait for a screen with both (a capture can land while
# a loaded machine is still drawing).
start_drawn ()
{
  cap start && detail_ok "$W/start.txt" > /dev/null
}
if wait_for start 'hottest subpaths \('; then
  osp_wait_until 10 start_drawn
  grep -q "pid $prog_pid .*running.*heartbeat" "$W/start.txt" ||
    osp_fail "the status line lacks pid $prog_pid, running, heartbeat"
  sed -n 4p "$W/start.txt" | grep -q '^\[1 subpaths\]' ||
    osp_fail "line 4 is not the screen tabs with subpaths selected"
  top=$(sub_path "$W/start.txt" 1)
  echo "hottest subpath: $top"
  echo "$top" | grep -q -E '^(spin|mix)\(\) vt\.c:[0-9]+' ||
    osp_fail "the hottest subpath is not shown as fn() vt.c:LINE: '$top'"
  grep -q '^>' "$W/start.txt" || osp_fail "no row is selected ('>')"
  detail_ok "$W/start.txt" || osp_fail "the detail pane does not show vt.c's lines"
fi

# --- 2. counts grow ------------------------------------------------------------------------------
v1=$(view_no "$W/start.txt")
e1=$(sub_estimate "$W/start.txt" "$top")
if [ -n "$v1" ] && [ -n "$e1" ] && wait_view grow "$((v1 + 3))"; then
  e2=$(sub_estimate "$W/grow.txt" "$top")
  echo "view #$v1 -> #$(view_no "$W/grow.txt"), estimate $e1 -> $e2"
  if [ -z "$e2" ]; then
    osp_fail "the hottest subpath '$top' is gone after 3 views"
  elif [ "$e2" -le "$e1" ]; then
    osp_fail "the estimate of '$top' did not grow ($e1 -> $e2)"
  fi
else
  osp_fail "no view number or estimate on the first screen"
fi

# --- 3. the selection stays on its row -----------------------------------------------------------
# (keys are taken in order: once the help that "?" opens shows, the j's have moved the selection;
# "x" closes it)
keys j j j '?'
wait_for selhelp 'ospview keys'
keys x
wait_for sel1 'hottest subpaths \('
s1=$(sub_path "$W/sel1.txt" sel)
l1=$(grep -n '^>' "$W/sel1.txt" | cut -d: -f1)
v=$(view_no "$W/sel1.txt")
if [ -n "$s1" ] && wait_view sel2 "$((v + 4))"; then
  s2=$(sub_path "$W/sel2.txt" sel)
  l2=$(grep -n '^>' "$W/sel2.txt" | cut -d: -f1)
  echo "selected: '$s1' on line $l1, then '$s2' on line $l2"
  # (its line may change: a row that climbs above its screen line cannot stay on it)
  [ "$s1" = "$s2" ] || osp_fail "the selection moved from '$s1' to '$s2'"
else
  osp_fail "no selected subpath after j j j"
fi

# --- 4. screens, the forest ----------------------------------------------------------------------
# detail_says FILE REGEX: a line of FILE's detail pane matches REGEX.
detail_says ()
{
  RE=$2 awk '/^ detail: / { on = 1; next } on && $0 ~ ENVIRON["RE"] { f = 1 } END { exit !f }' "$1"
}
# detail_drawn NAME REGEX: capture NAME; its detail pane has a line matching REGEX.
detail_drawn ()
{
  cap "$1" && detail_says "$W/$1.txt" "$2"
}
# ranked_said FILE WHAT RANKED RANK: the detail pane of FILE titles the selected row WHAT, then
# "ranked RANK" or "not ranked (too few samples ...)" as RANKED (1 or 0) says (RANK "" for a
# forest node, which has none).
ranked_said ()
{
  if [ "$3" = 1 ]; then
    detail_says "$1" "^ *$2, ranked${4:+ $4}: "
  else
    detail_says "$1" "^ *$2, not ranked [(]too few samples"
  fi
}

keys Tab
if wait_for paths '^ 1 subpaths \[2 paths\] .*hottest Ball-Larus paths' &&
   osp_wait_until 10 detail_drawn paths '^ *Ball-Larus path [0-9]+ of '; then
  # the selected row's rank, "-" when it is not ranked; the pane says the same
  rank=$(grep '^>' "$W/paths.txt" | awk '{ print $2 }')
  ranked=1
  [ "$rank" = - ] && ranked=0 rank=
  ranked_said "$W/paths.txt" 'Ball-Larus path [0-9]+ of [^ ]+[(][)]' $ranked "$rank" ||
    { osp_fail "paths: the detail pane does not say the row's ranked state (rank '${rank:--}')"
      osp_show "$W/paths.txt" "paths"; }
else
  osp_fail "paths: no detail pane"
fi
keys Tab
if wait_for forest '\[3 forest\].*prefix forest \('; then
  # select a closed node, then open it
  # (after each j, until the selection has moved: a j still pending would move it off the node
  # before the Enter)
  i=0
  while ! grep '^>' "$W/forest.txt" | grep -q '\[+\]' && [ $i -lt 20 ]; do
    was=$(grep -n '^>' "$W/forest.txt" | cut -d: -f1)
    keys j
    osp_wait_until 10 sel_moved forest "$was" || break
    i=$((i + 1))
  done
  if grep '^>' "$W/forest.txt" | grep -q '\[+\]'; then
    n1=$(count "$W/forest.txt")
    keys Enter
    if wait_for opened '^>.*\[-\]' 10; then
      n2=$(count "$W/opened.txt")
      echo "forest: Enter opened a node, rows $n1 -> $n2"
      [ "$n2" -gt "$n1" ] || osp_fail "Enter opened a node but the rows did not grow ($n1 -> $n2)"
      # a node too uncertain to rank has "~" before its estimate; the detail pane says it too
      if osp_wait_until 10 detail_drawn opened '^ *forest node at depth [0-9]+, '; then
        ranked=1
        grep '^>' "$W/opened.txt" | grep -q '~[0-9]' && ranked=0
        ranked_said "$W/opened.txt" 'forest node at depth [0-9]+' $ranked "" ||
          { osp_fail "forest: the detail pane does not say the node's ranked state"
            osp_show "$W/opened.txt" "forest"; }
      else
        osp_fail "forest: no detail pane"
      fi
    fi
  else
    osp_fail "no closed forest node ([+]) to open"
    osp_show "$W/forest.txt" "forest"
  fi
fi
keys Tab
wait_for functions '\[4 functions\].*functions \(' &&
  { grep -q 'spin() vt\.c:' "$W/functions.txt" || osp_fail "spin() is not among the functions"; }
keys Tab
wait_for back '^\[1 subpaths\]'

# --- 5. the filter -------------------------------------------------------------------------------
keys 2 /
keys -l 'mix()'
keys Enter
if wait_for filter 'hottest Ball-Larus paths \([0-9]+ of [0-9]+ matching "mix\(\)"'; then
  rows=$(grep -c -E '^. +[0-9]+ +[0-9]+ ' "$W/filter.txt")
  other=$(grep -E '^. +[0-9]+ +[0-9]+ ' "$W/filter.txt" | grep -c -v -F 'mix()')
  echo "filter mix(): $rows path rows"
  [ "$rows" -ge 1 ] || osp_fail "the filter left no row"
  [ "$other" -eq 0 ] || osp_fail "$other rows without mix() under the filter"
  keys 1
  wait_for filter1 'hottest subpaths \([0-9]+ of [0-9]+ matching "mix\(\)"'
  keys Escape
  wait_for unfiltered '^\[1 subpaths\] .*hottest subpaths \([0-9]+ of [0-9]+\)(, [^|]*)?  sort'
fi

# --- 6. help -------------------------------------------------------------------------------------
keys '?'
if wait_for help 'ospview keys'; then
  if "$OSPVIEW" --keys > "$W/keys.txt" 2> /dev/null && [ -s "$W/keys.txt" ]; then
    missing=0
    while IFS= read -r line; do
      grep -q -F -x -e "  $line" "$W/help.txt" || { echo "not in the help: $line"; missing=1; }
    done < "$W/keys.txt"
    [ $missing -eq 0 ] || osp_fail "the help does not list every key of ospview --keys"
    echo "help: the $(wc -l < "$W/keys.txt") lines of ospview --keys"
  else
    echo "note: ospview --keys is not available; checking known help lines"
    for want in 'q F10 +quit' 'Tab S-Tab +next' '/ +filter' 'p Z +pause' 'Enter +forest'; do
      grep -q -E "^  $want" "$W/help.txt" || osp_fail "the help lacks /$want/"
    done
  fi
  keys x
  wait_for nohelp 'hottest subpaths \('
fi

# --- 7. pause ------------------------------------------------------------------------------------
keys p
if wait_for paused '^PAUSED '; then
  # (the two sleeps are windows in which nothing may change, not waits for an effect)
  sleep 0.5
  cap paused
  v1=$(view_no "$W/paused.txt")
  sleep 1.5
  cap paused2
  v2=$(view_no "$W/paused2.txt")
  echo "paused: view #$v1, 1.5 s later #$v2"
  [ "$v1" = "$v2" ] || osp_fail "the view changed while paused ($v1 -> $v2)"
  # s: the prompt offers osp-vt-PID-TIME.ospsnap; ^U, our name, Enter saves the paused view.
  keys s
  wait_for saveprompt "save snapshot as: osp-vt-$prog_pid-[0-9]{8}-[0-9]{6}\.ospsnap_" ||
    osp_fail "s: no prompt with the default name"
  keys C-u
  $TM send-keys -t v -l "saved.ospsnap"
  keys Enter
  wait_for saved "saved saved\.ospsnap \(view #$v2\)" 5 ||
    osp_fail "s: the bar does not say the paused view #$v2 was saved"
  if "$OSPVIEW" "$W/saved.ospsnap" -b 1 > "$W/saved.view" 2>&1; then
    head -n 1 "$W/saved.view" | grep -q "vt  pid $prog_pid .* view #$v2\$" ||
      { osp_fail "the saved snapshot is not view #$v2 of pid $prog_pid"; head -n 1 "$W/saved.view"; }
    grep -A 2 '^hottest subpaths' "$W/saved.view" | grep -q -E ' [(]?spin\(\) vt\.c:' ||
      { osp_fail "the saved snapshot lacks the hot subpath"; osp_show "$W/saved.view"; }
  else
    osp_fail "s: $W/saved.ospsnap does not open"
    osp_show "$W/saved.view"
  fi
  wait_for toastgone 'row [0-9]*/' 5 # the message gives the bar back
  keys p
  wait_view resumed "$v2" || osp_fail "p did not resume"
  grep -q '^PAUSED' "$W/resumed.txt" && osp_fail "PAUSED still shown after resuming"
fi

# --- 8. resizing ---------------------------------------------------------------------------------
# laid_out NAME COLS LINES TABS REGEX: capture NAME; LINES lines, line TABS matches REGEX.
laid_out ()
{
  cap "$1" && [ "$(wc -l < "$W/$1.txt")" -eq "$3" ] && sed -n "${4}p" "$W/$1.txt" | grep -q -e "$5"
}
# resized NAME COLS LINES: resize, then wait for a screen of that size with the tabs on line TABS.
resized ()
{
  $TM resize-window -t v -x "$2" -y "$3"
  if osp_wait_until 10 laid_out "$@"; then
    wide=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$W/$1.txt")
    [ "$wide" -le "$2" ] || osp_fail "$1: a line of $wide columns in a $2-column window"
    echo "resized to $2x$3"
    return 0
  fi
  osp_fail "$1: no $2x$3 layout with /$5/ on line $4"
  osp_show "$W/$1.txt" "screen $1"
  return 1
}
if resized r80 80 24 4 '^\[1 subpaths\]'; then
  tail -n 1 "$W/r80.txt" | grep -q 'row [0-9]*/' || osp_fail "80x24: no bar on the last line"
  grep -q '^ detail: ' "$W/r80.txt" || osp_fail "80x24: no detail pane"
fi
if resized r100 100 12 2 '^\[1 subpaths\]'; then
  grep -q '^ detail: ' "$W/r100.txt" && osp_fail "100x12: a detail pane (no room for it)"
  tail -n 1 "$W/r100.txt" | grep -q 'row [0-9]*/' || osp_fail "100x12: no bar on the last line"
fi
resized r30 30 6 2 'terminal too small'
resized r120 120 40 4 '^\[1 subpaths\]'

# --- 9. the program ends, q ----------------------------------------------------------------------
: > "$W/stop"
wait "$prog_pid"
rc=$?
prog_pid=
[ "$rc" -eq 0 ] || osp_fail "the program exited with status $rc"
if wait_for exited '^EXITED '; then
  head -n 1 "$W/exited.txt" | grep -q 'exited .*(at exit)' ||
    osp_fail "the status line does not say exited (at exit)"
  grep -q -E "${SUBROW}(spin|mix)\(\) vt\.c:" "$W/exited.txt" ||
    osp_fail "the rows are gone after the exit"
fi
keys q
if ! osp_wait_until 10 osp_has_file "$W/ospview.rc"; then
  osp_fail "q did not end ospview"
elif [ "$(cat "$W/ospview.rc")" != 0 ]; then
  osp_fail "ospview exited with status $(cat "$W/ospview.rc") after q"
  osp_show "$W/ospview.err" "ospview stderr"
fi
[ -s "$W/ospview.err" ] && { osp_fail "ospview wrote to stderr"; osp_show "$W/ospview.err"; }

osp_done

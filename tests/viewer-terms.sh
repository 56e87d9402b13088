#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/viewer-terms.sh - ospview's terminal UI in terminals other than viewer-tmux.sh's 120x40
# xterm (issue 35 item 4, "the viewer in every terminal"), driven through tmux (its own server,
# skipped (77) without tmux).  The view: a segment file written by progs/viewer-writer.c (its
# process is gone, so the view is fixed and nothing depends on speed).
#   1. A terminal that cannot move the cursor is refused as an unknown TERM is: TERM=dumb, and a
#      terminfo entry of our own without `cup' (compiled with tic): one stderr line naming TERM
#      and saying why, exit status 1, instead of the UI drawn on one line.
#   2. A 40x10 terminal keeps the code column: on the subpaths and functions screens the rows show
#      the path or function (work() demo.c:22-26, main() demo.c:5) after the estimate and work
#      abbreviated (120K, 600K), the minor columns dropped; no line wider than the window.
#   3. `make demo' (examples/demo.sh, the demo built with the plugin) on a terminal: q in ospview
#      before the demo ends stops the demo at once, says so and prints its report so far, exit 0
#      (it used to leave the terminal silent until the demo's end).
#   4. Sort keys with no values in the view are not offered: on the writer's functions screen
#      (calls, and work and execs of its cost-less view, are all "-") `>' goes from work to name
#      and rank only, and the help's "sort keys" line lists them as having no values here.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup viewer-terms
osp_need_build

if ! command -v tmux > /dev/null 2>&1; then
  echo "SKIP: tmux is not installed (Debian: apt-get install tmux)"
  exit 77
fi
OSPVIEW=$abs_top_builddir/viewer/ospview
SRC=$abs_top_srcdir
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }

unset TMUX
TM="tmux -L osp-viewer-terms-$$ -f /dev/null"
trap '$TM kill-server > /dev/null 2>&1' EXIT
# A session that stays, so that killing `v' between runs never ends the server under a client.
$TM new-session -d -s keep "sleep 3600" || { echo "error: tmux new-session failed"; exit 99; }

osp_compile "$W/writer" plain_cc -std=c11 -O1 -g -Wall -Wextra -I"$SRC/libosprt/format" \
  "$SRC/tests/progs/viewer-writer.c" "$SRC"/libosprt/format/*.c -o "$W/writer" ||
  { echo "error: cannot build the test writer"; exit 99; }
"$W/writer" segment "$W/view.seg" ok || { echo "error: the writer wrote no segment"; exit 99; }

# run_in NAME COLSxLINES ENV...: ospview --segment in a new tmux session `v' of that size, with the
# environment ENV (VAR=VALUE words); its stderr in $W/NAME.err, its exit status in $W/NAME.rc.
run_in ()
{
  ri_name=$1 ri_size=$2
  shift 2
  $TM kill-session -t v > /dev/null 2>&1
  rm -f "$W/$ri_name.rc"
  $TM new-session -d -s v -x "${ri_size%x*}" -y "${ri_size#*x}" -c "$W" \
    "env $* '$OSPVIEW' --segment '$W/view.seg' 2> '$W/$ri_name.err'; echo \$? > '$W/$ri_name.rc'; sleep 600" ||
    { echo "error: tmux new-session failed"; exit 99; }
}

# refused NAME TERM: ospview ended with status 1 and one stderr line: no cursor addressing.
refused ()
{
  osp_wait_until 20 osp_has_file "$W/$1.rc" || { osp_fail "TERM=$2: ospview did not end"; return; }
  rc=$(cat "$W/$1.rc")
  if [ "$rc" != 1 ] || [ "$(wc -l < "$W/$1.err")" -ne 1 ] ||
     ! grep -q -F "ospview: cannot drive the terminal (TERM=$2: no cursor addressing); use -b N for text" "$W/$1.err"; then
    osp_fail "TERM=$2: status $rc (want 1), stderr '$(cat "$W/$1.err")'"
  fi
}

# --- 1. terminals without cursor addressing ------------------------------------------------------
run_in dumb 120x40 TERM=dumb
refused dumb dumb
printf 'osp-nocup|a terminal without cursor addressing,\n\tam, cols#80, lines#24, bel=^G, cr=\\r, cud1=\\n, ind=\\n,\n' \
  > "$W/nocup.ti"
if tic -o "$W/terminfo" "$W/nocup.ti" 2> "$W/tic.err"; then
  run_in nocup 120x40 "TERMINFO='$W/terminfo'" TERM=osp-nocup
  refused nocup osp-nocup
else
  echo "note: tic failed ($(cat "$W/tic.err")); only TERM=dumb checked"
fi

# --- 2. a small terminal keeps the code column --------------------------------------------------
run_in small 40x10 TERM=xterm
if wait_for small-subpaths 'hottest subpaths|subpaths\]'; then
  osp_wait_until 10 shows small-subpaths 'work\(\) demo\.c:'
  grep -q -E '^> +120K +600K +work\(\) demo\.c:22-26' "$W/small-subpaths.txt" ||
    { osp_fail "40x10: the subpath row lacks its path (or the numbers)"; osp_show "$W/small-subpaths.txt"; }
  grep -q -E '^ estimate +work +path' "$W/small-subpaths.txt" ||
    { osp_fail "40x10: the header is not estimate, work, path"; osp_show "$W/small-subpaths.txt"; }
  keys 4
  wait_for small-functions 'main\(\) demo\.c:5' 10
  for f in small-subpaths small-functions; do
    wide=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$W/$f.txt")
    [ "$wide" -le 40 ] || osp_fail "$f: a line of $wide columns in a 40-column window"
  done
fi

# --- 3. make demo: q ends it ---------------------------------------------------------------------
osp_compile "$W/demo" osp_cc -O2 "$SRC/examples/demo.c" -o "$W/demo" ||
  { echo "error: cannot build examples/demo.c with the plugin"; exit 99; }
$TM kill-session -t v > /dev/null 2>&1
$TM new-session -d -s v -x 120 -y 40 -c "$W" \
  "sh '$SRC/examples/demo.sh' '$W/demo' '$OSPVIEW'; echo \$? > '$W/demo.rc'; sleep 600" ||
  { echo "error: tmux new-session failed"; exit 99; }
# whole: the pane and its history into $W/NAME.txt
whole ()
{
  $TM capture-pane -p -S -2000 -t v > "$W/$1.txt" 2> /dev/null
}
if wait_for demo-ui 'hottest subpaths \(' 60; then
  if shows demo-ui 'EXITED'; then
    echo "note: the demo ended before q could be pressed; not checked"
  else
    keys q
    osp_wait_until 30 osp_has_file "$W/demo.rc" || osp_fail "make demo: q did not end it"
    whole demo-end
    [ "$(cat "$W/demo.rc" 2> /dev/null)" = 0 ] || osp_fail "make demo: exit status $(cat "$W/demo.rc")"
    grep -q "^ospview quit before the demo ended: the demo was stopped" "$W/demo-end.txt" ||
      { osp_fail "make demo: q does not say the demo was stopped"; osp_show "$W/demo-end.txt"; }
    sed -n '/^Its report when you quit/,$p' "$W/demo-end.txt" | grep -q 'demo\.c:[0-9]' ||
      { osp_fail "make demo: no report after q"; osp_show "$W/demo-end.txt"; }
  fi
fi

# --- 4. sort keys without values are not offered ---------------------------------------------------
run_in sort 120x40 TERM=xterm
if wait_for sort-start 'subpaths\]'; then
  keys 4
  wait_for sort-functions 'functions \(3 of 3\)  sort work' 10
  keys '>'
  wait_for sort-1 'functions \(3 of 3\)  sort name' 5
  keys '>'
  wait_for sort-2 'functions \(3 of 3\)  sort rank' 5
  keys '?'
  wait_for sort-help 'sort keys +rank, name, work \(no values here\), execs \(no values here\), calls \(no values here\)' 10
fi

osp_done

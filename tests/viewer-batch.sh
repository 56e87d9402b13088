#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/viewer-batch.sh - ospview's command line and batch mode (-b) on live processes.
#
#   1. The command line: -h and --version exit 0; unknown options, missing and bad values,
#      -p with --segment, stray arguments: one stderr line naming the problem, exit 2.
#   2. progs/viewer-writer.c publishing like the runtime (a growing demo profile every 100 ms
#      until the test creates its stop file, so no step depends on the machine's speed; the
#      segment layout and view format of include/osp/shm.h and view.h):
#      `ospview -l` lists it running; `ospview -p PID -b 3 -d 0.3` prints three refreshes
#      ("--- refresh N ---"), the hottest subpath decoded to function and file:line as the text
#      report writes it, with an estimate that grows from refresh to refresh, and rows on the
#      paths, forest and functions screens; --screen, --filter, --sort and --top do what they
#      say; without -p it attaches to the only profiled process (or, when others run, asks for
#      -p); an ospview attached while the writer ends says "exited" and shows the exit view;
#      after the end, -p PID says there is no segment for it.  Once the process has exited,
#      -b N stops: the exit view is printed once (also for a segment whose process is gone).
#   3. When the runtime publishes (libosprt/output/publish.c exists): the same on a real program built
#      with the plugin (progs/viewer-loop.c): listed, its hottest subpath in spin() with
#      viewer-loop.c:LINE and a growing estimate, paths and forest rows (mix(), which has no
#      loop, counted inline: an "exact" path row), "exited" at the end.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup viewer-batch

OSPVIEW=$abs_top_builddir/viewer/ospview
SRC=$abs_top_srcdir
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }
ME=$(id -u)

# --- helpers -----------------------------------------------------------------------------------

# segment_ready PID: /dev/shm/osp-<uid>-PID exists and ospview reads a view from it.
segment_ready ()
{
  [ -f "/dev/shm/osp-$ME-$1" ] &&
    "$OSPVIEW" -p "$1" -b 1 --screen=functions 2> /dev/null | grep -q "view #"
}

# wait_segment PID: until segment_ready PID (10 s scaled).
wait_segment ()
{
  osp_wait_until 10 segment_ready "$1"
}

# watch_end PID STOPFILE OUT ARGS...: ospview -p PID -d 0.5 ARGS... > OUT (OUT.err) in the
# background; once it has shown a view, create STOPFILE, which ends the program (the writer or
# viewer-loop.c run until it exists: however long the loaded machine made the test take, the
# program still runs); wait for ospview, its status in $rc.  Its refreshes (-b) last 2 s
# scaled: enough for the program to notice STOPFILE and exit while ospview watches.
watch_end ()
{
  we_pid=$1 we_stop=$2 we_out=$3
  shift 3
  "$OSPVIEW" -p "$we_pid" -b "$(osp_seconds 4)" -d 0.5 "$@" > "$we_out" 2> "$we_out.err" &
  we_view=$!
  osp_wait_until 10 osp_has_line "$we_out" "view #" || osp_fail "ospview -p $we_pid shows no view"
  touch "$we_stop"
  wait "$we_view"
  rc=$?
}

# estimates FILE TITLE: the estimate (2nd column) of the first row of each table TITLE.
estimates ()
{
  awk -v t="$2" 'index($0, t) == 1 { grab = 2; next }
                 grab == 2 { grab = 1; next }
                 grab == 1 { print $2; grab = 0 }' "$1"
}

# rows FILE TITLE: the number of rows of the first table TITLE.
rows ()
{
  awk -v t="$2" 'index($0, t) == 1 && !done { in_t = 1; hdr = 1; next }
                 in_t && hdr { hdr = 0; next }
                 in_t && /^$/ { in_t = 0; done = 1 }
                 in_t { n++ }
                 END { print n + 0 }' "$1"
}

# first_row FILE TITLE: the first row of the first table TITLE.
first_row ()
{
  awk -v t="$2" 'index($0, t) == 1 { grab = 2; next }
                 grab == 2 { grab = 1; next }
                 grab == 1 { print; exit }' "$1"
}

# spin_leads PID: the first row of the hottest subpaths of PID's live view is in spin().
spin_leads ()
{
  "$OSPVIEW" -p "$1" -b 1 --top=1 --screen=subpaths > "$W/lead.out" 2> /dev/null
  first_row "$W/lead.out" "hottest subpaths" | grep -q -E ' spin\(\) .*viewer-loop\.c:[0-9]+'
}

# growing LABEL: the numbers on stdin must grow from the first to the last (and be >= 2).
growing ()
{
  awk -v l="$1" 'NR == 1 { first = $1 } { last = $1; n++ }
                 END { if (n < 2 || !(last + 0 > first + 0)) {
                         printf "FAIL: %s: estimates do not grow:", l
                         exit 1 } }'
}

# --- 1. the command line -------------------------------------------------------------------------
"$OSPVIEW" -h > "$W/help.out" 2>&1 || osp_fail "-h: exit status $?"
grep -q "^usage: ospview" "$W/help.out" || osp_fail "-h: no usage"
"$OSPVIEW" --version > "$W/version.out" 2>&1 || osp_fail "--version: exit status $?"
grep -q "^ospview (osp) " "$W/version.out" || osp_fail "--version: $(cat "$W/version.out")"

# bad_cmd WORDS ARGS...: exit 2 and one stderr line containing WORDS.
bad_cmd ()
{
  want=$1
  shift
  "$OSPVIEW" "$@" > "$W/cmd.out" 2> "$W/cmd.err"
  rc=$?
  if [ "$rc" -ne 2 ] || [ "$(wc -l < "$W/cmd.err")" -ne 1 ] ||
     ! grep -q -F -e "$want" "$W/cmd.err"; then
    osp_fail "ospview $*: status $rc (want 2), stderr '$(cat "$W/cmd.err")' (want '$want')"
  fi
}
bad_cmd "unknown option '-x'" -x
bad_cmd "unknown option '--bogus'" --bogus
bad_cmd "-p needs a value" -p
bad_cmd "-p: 'abc' is not a whole number" -p abc
bad_cmd "-p: '0' is not a whole number" -p 0
bad_cmd "-b: '0' is not a whole number 1..1000000000" -b 0
bad_cmd "-b: '2x' is not a whole number" -b 2x
bad_cmd "-d: '-1' is not a number of seconds" -d -1
bad_cmd "-d: 'soon' is not a number of seconds" -d soon
bad_cmd "--screen: unknown screen 'bogus'" --screen=bogus
bad_cmd "--sort: unknown key 'size'" --sort=size
bad_cmd "--top: '-3' is not a whole number" --top=-3
bad_cmd "-p, --segment and a snapshot file all name what to read" -p 1 --segment /dev/null
bad_cmd "-p, --segment and a snapshot file all name what to read" -p 1 some.ospsnap
bad_cmd "unexpected argument 'extra' (one snapshot file at most)" -b 1 a.ospsnap extra
bad_cmd "--save copies a live process's view; a.ospsnap is already a snapshot" --save x a.ospsnap
bad_cmd "--json and --dot: give one of them" --json --dot=main
bad_cmd "--diff needs two snapshot files, OLD and NEW (got fewer)" --diff a.ospsnap
bad_cmd "--diff needs two snapshot files, OLD and NEW (got more)" --diff a b c
bad_cmd "--merge out.ospsnap needs the snapshot files to merge" --merge out.ospsnap
bad_cmd "--fail-above applies to --diff only" --fail-above=5 a.ospsnap
bad_cmd "--fail-above: 'x' is not a number of percentage points 0..100" --diff --fail-above=x a b
bad_cmd "-l lists processes" -l -p 1

# --- 2. the test writer ------------------------------------------------------------------------------
osp_compile "$W/writer" plain_cc -std=c11 -O1 -g -Wall -Wextra -I"$SRC/libosprt/format" \
  "$SRC/tests/progs/viewer-writer.c" "$SRC"/libosprt/format/*.c -o "$W/writer" ||
  { echo "error: cannot build the test writer"; exit 99; }

# a segment whose process is gone (and a snapshot file): nothing will change, one view for -b 5
"$W/writer" segment "$W/dead.seg" ok || osp_fail "writer: a segment file"
"$OSPVIEW" --segment "$W/dead.seg" -b 5 -d 0.1 --screen=functions > "$W/dead.out" 2> "$W/dead.err" ||
  osp_fail "--segment (process gone) -b 5: exit status $?"
grep -q "^--- refresh" "$W/dead.out" &&
  { osp_fail "-b 5 on a process gone: printed its view again"; osp_show "$W/dead.out"; }
grep -q "^functions" "$W/dead.out" || osp_fail "--segment (process gone) -b 5: no functions table"

"$W/writer" live "$(osp_seconds 60)" 100 "$W/writer.stop" > "$W/writer.out" 2> "$W/writer.err" &
wpid=$!
if ! wait_segment "$wpid"; then
  osp_fail "the test writer's segment did not appear"
  kill "$wpid" 2> /dev/null
  osp_done
fi

"$OSPVIEW" -l > "$W/list.out" 2> "$W/list.err" || osp_fail "-l: exit status $?"
grep -q -E "^ *$wpid +running +[0-9.hms]+ +[0-9.ms]+ +viewer-demo\$" "$W/list.out" ||
  { osp_fail "-l does not list the writer ($wpid) running"; osp_show "$W/list.out"; }

"$OSPVIEW" -p "$wpid" -b 3 -d 0.3 --top=5 > "$W/b3.out" 2> "$W/b3.err" ||
  osp_fail "-p $wpid -b 3: exit status $?"
[ -s "$W/b3.err" ] && { osp_fail "-b 3: messages on stderr"; osp_show "$W/b3.err"; }
[ "$(grep -c '^--- refresh [23] ---$' "$W/b3.out")" -eq 2 ] ||
  osp_fail "-b 3: want the separators of refreshes 2 and 3"
[ "$(grep -c "^viewer-demo  pid $wpid  up .*  running  heartbeat .* ago  view #" "$W/b3.out")" -eq 3 ] ||
  osp_fail "-b 3: want 3 status lines naming the program, pid, uptime, heartbeat, view"
first_row "$W/b3.out" "hottest subpaths" |
  grep -q -E '^ +1 +[0-9]+ +\+/- [0-9]+ +[0-9.]+% +[0-9]+ +[0-9.]+% +5  work\(\) demo\.c:22-26 -> helper\(\) util\.c:3-5$' ||
  osp_fail "the hottest subpath is not 'work() demo.c:22-26 -> helper() util.c:3-5': $(first_row "$W/b3.out" "hottest subpaths")"
estimates "$W/b3.out" "hottest subpaths" | growing "writer subpaths" ||
  { osp_fail "the hottest subpath's estimate does not grow"; estimates "$W/b3.out" "hottest subpaths"; }
grep -q -F -- '-> ... (27 steps omitted) ... ->' "$W/b3.out" ||
  osp_fail "a long subpath is not shortened like the text report"
[ "$(rows "$W/b3.out" "hottest Ball-Larus paths")" -eq 3 ] || osp_fail "paths: want 3 rows"
[ "$(rows "$W/b3.out" "prefix forest")" -eq 5 ] || osp_fail "forest: want 5 rows"
[ "$(rows "$W/b3.out" "functions")" -eq 3 ] || osp_fail "functions: want 3 rows"
grep -q -F '|-[-] work() demo.c:22-26' "$W/b3.out" && grep -q -F '| `- work() demo.c:22 -> demo.c:27-28' "$W/b3.out" ||
  { osp_fail "the forest is not drawn as a tree"; osp_show "$W/b3.out"; }
grep -q -E '^mode subpaths: blocks seen [0-9.]+[KM]?, samples [0-9.]+K?, threshold 2\.5, hot-list memory 39K of 64K' "$W/b3.out" ||
  osp_fail "the mode status line"

# --screen, --filter, --sort, --top, -r
"$OSPVIEW" -p "$wpid" -b 1 --screen=paths,functions --filter=helper > "$W/f.out" 2>&1 ||
  osp_fail "--filter: exit status $?"
grep -q "^hottest subpaths" "$W/f.out" && osp_fail "--screen=paths,functions shows subpaths"
grep -q "^prefix forest" "$W/f.out" && osp_fail "--screen=paths,functions shows the forest"
[ "$(rows "$W/f.out" "hottest Ball-Larus paths")" -eq 1 ] || osp_fail "--filter=helper: want 1 path"
grep -q '^hottest Ball-Larus paths (1 of 1 matching "helper", of 3)$' "$W/f.out" ||
  osp_fail "--filter: the title does not say so"
[ "$(rows "$W/f.out" "functions")" -eq 1 ] || osp_fail "--filter=helper: want 1 function"
"$OSPVIEW" -p "$wpid" -b 1 --screen=subpaths --sort=length --top=2 > "$W/s.out" 2>&1 ||
  osp_fail "--sort=length: exit status $?"
first_row "$W/s.out" "hottest subpaths" | grep -q -E '^ +4 .* 40  ' ||
  osp_fail "--sort=length: the 40-block subpath is not first"
[ "$(rows "$W/s.out" "hottest subpaths")" -eq 2 ] || osp_fail "--top=2: want 2 rows"
"$OSPVIEW" -p "$wpid" -b 1 --screen=functions --sort=name -r > "$W/r.out" 2>&1 ||
  osp_fail "--sort=name -r: exit status $?"
first_row "$W/r.out" "functions" | grep -q "work() demo.c:20" ||
  osp_fail "--sort=name -r: work() is not first"

# without -p: the only profiled process, or a request for -p when there are several
"$OSPVIEW" -b 1 --screen=functions > "$W/auto.out" 2> "$W/auto.err"
rc=$?
if [ "$rc" -eq 0 ]; then
  grep -q "pid $wpid " "$W/auto.out" || osp_fail "no -p: attached to another process"
elif [ "$rc" -ne 1 ] || ! grep -q "profiled processes: choose one with -p PID" "$W/auto.err"; then
  osp_fail "no -p: status $rc: $(cat "$W/auto.err")"
fi

# attached while the writer ends: the exit view and "exited"
watch_end "$wpid" "$W/writer.stop" "$W/end.out" --screen=subpaths --top=1
wait "$wpid"
[ "$rc" -eq 0 ] || { osp_fail "attached until the end: exit status $rc"; osp_show "$W/end.err"; }
# the last refresh: from its "--- refresh N ---" line (the table and its first row's source)
awk '/^--- refresh / { n = 0 } { l[n++] = $0 } END { for (i = 0; i < n; i++) print l[i] }' \
  "$W/end.out" > "$W/end.last"
grep -q "^viewer-demo  pid $wpid  ran .*  exited  view #[0-9]* (at exit)" "$W/end.last" ||
  { osp_fail "the last refresh does not say exited"; cat "$W/end.last"; }
# -b N stops once the process has exited: the exit view is printed once, not once per refresh left
[ "$(grep -c "^viewer-demo  pid $wpid  ran .*  exited  " "$W/end.out")" -eq 1 ] ||
  { osp_fail "-b N: the exited view is printed more than once"; osp_show "$W/end.out"; }
"$OSPVIEW" -p "$wpid" -b 1 > /dev/null 2> "$W/gone.err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "^ospview: no osp segment for pid $wpid" "$W/gone.err" ||
  osp_fail "after the end: status $rc, $(cat "$W/gone.err")"

# --- 3. a real program ------------------------------------------------------------------------------
if [ -f "$SRC/libosprt/output/publish.c" ]; then
  osp_need_build
  osp_compile "$W/loop" osp_cc -O1 -g "$SRC/tests/progs/viewer-loop.c" -o "$W/loop" ||
    { osp_fail "cannot build viewer-loop.c with the plugin"; osp_done; }
  OSP_OPTIONS=report=none "$W/loop" "$(osp_seconds 60)" "$W/loop.stop" > "$W/loop.out" 2> "$W/loop.err" &
  lpid=$!
  if ! wait_segment "$lpid"; then
    osp_fail "the instrumented program published no segment"
    touch "$W/loop.stop"
    wait "$lpid"
    osp_show "$W/loop.err"
    osp_done
  fi
  "$OSPVIEW" -l > "$W/llist.out" 2>&1
  grep -q -E "^ *$lpid +running .*/loop\$" "$W/llist.out" ||
    { osp_fail "-l does not list the instrumented program"; osp_show "$W/llist.out"; }
  # (until spin() leads: what -b 3 then checks, in its first refresh)
  osp_wait_until 10 spin_leads "$lpid"
  "$OSPVIEW" -p "$lpid" -b 3 -d 0.5 --top=5 > "$W/l3.out" 2> "$W/l3.err" ||
    { osp_fail "real program: -b 3: exit status $?"; osp_show "$W/l3.err"; }
  first_row "$W/l3.out" "hottest subpaths" | grep -q -E ' spin\(\) .*viewer-loop\.c:[0-9]+' ||
    { osp_fail "real program: the hottest subpath is not in spin() viewer-loop.c"; osp_show "$W/l3.out"; }
  estimates "$W/l3.out" "hottest subpaths" | growing "real subpaths" ||
    { osp_fail "real program: the hottest subpath's estimate does not grow"; estimates "$W/l3.out" "hottest subpaths"; }
  [ "$(rows "$W/l3.out" "hottest Ball-Larus paths")" -gt 0 ] || osp_fail "real program: no path rows"
  # mix() has no loop: its one path is counted inline, an exact row among the estimates.
  sed -n '/^hottest Ball-Larus paths/,/^$/p' "$W/l3.out" | grep -q -E ' exact .* mix\(\) ' ||
    { osp_fail "real program: no exact path row for mix() (counted inline)"; osp_show "$W/l3.out"; }
  # Forest bursts come every 262144 path ends on average, and the first refresh can show the
  # view published for spin_leads' request, microseconds into the run (ci28: 67.5K path ends,
  # no burst yet); the last refresh is a second later, hundreds of millions of path ends on.
  sed -n '/^--- refresh 3 ---$/,$p' "$W/l3.out" > "$W/l3.last"
  [ "$(rows "$W/l3.last" "prefix forest")" -gt 0 ] || osp_fail "real program: no forest rows in the last refresh"
  watch_end "$lpid" "$W/loop.stop" "$W/lend.out" --screen=functions
  wait "$lpid"
  tail -n 12 "$W/lend.out" | grep -q "pid $lpid  ran .*  exited" ||
    { osp_fail "real program: the last refresh does not say exited"; tail -n 12 "$W/lend.out"; }
else
  echo "note: libosprt/output/publish.c is not there yet: the real-program part is skipped"
fi

osp_done

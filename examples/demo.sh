#!/bin/sh
# SPDX-License-Identifier: MIT
# examples/demo.sh - `make demo': run the instrumented demo program and watch it with ospview.
#
# Usage: demo.sh DEMO OSPVIEW
#
# On a terminal (stdin and stdout are ttys, TERM is set and not "dumb") the demo runs for about
# ten seconds while ospview shows it live; quit ospview with q (the demo's last view stays on
# screen, marked EXITED, once it ends).  Quitting before the demo ends stops it at once: its
# report so far is written (report_signal=USR1) and the demo is ended, rather than leaving the
# user before a silent terminal until it finishes.  Anywhere else (a pipe, CI) ospview prints two
# refreshes as text.  Either way the demo's report is printed last: its hottest subpaths with
# their estimated counts and file:line, its Ball-Larus paths and its prefix forest.
demo=$1
ospview=$2
report=${TMPDIR:-/tmp}/osp-demo-report.$$
trap 'rm -f "$report"' EXIT

if [ -t 0 ] && [ -t 1 ] && [ -n "${TERM:-}" ] && [ "$TERM" != dumb ]; then
  scale=50 interactive=yes
else
  scale=15 interactive=no
fi
# snapshot=none: the demo leaves no demo.ospsnap (the default profile file) in the build tree.
options=report=$report:snapshot=none:publish_ms=250
[ "$interactive" = yes ] && options=$options:report_signal=USR1
echo "OSP_OPTIONS=$options $demo $scale &"
OSP_OPTIONS=$options "$demo" "$scale" > /dev/null &
pid=$!

# The runtime creates its segment at start-up; give it a moment.
n=0
while [ ! -e "/dev/shm/osp-$(id -u)-$pid" ] && [ $n -lt 50 ] && kill -0 "$pid" 2> /dev/null; do
  sleep 0.1
  n=$((n + 1))
done
if [ "$interactive" = yes ]; then
  echo "$ospview -p $pid      (q quits, ? lists the keys)"
  sleep 1
  "$ospview" -p "$pid"
  if kill -0 "$pid" 2> /dev/null; then
    # Quit before the end: the report so far (written by the runtime's thread on USR1, the
    # file replaced atomically; a few seconds at most), then stop the demo.
    rm -f "$report"
    kill -USR1 "$pid" 2> /dev/null
    n=0
    while [ ! -s "$report" ] && [ $n -lt 50 ] && kill -0 "$pid" 2> /dev/null; do
      sleep 0.1
      n=$((n + 1))
    done
    kill -TERM "$pid" 2> /dev/null
    wait "$pid"
    echo
    echo "ospview quit before the demo ended: the demo was stopped (pid $pid)."
    echo "Its report when you quit (OSP_OPTIONS=report_signal=USR1 and kill -USR1):"
    cat "$report" 2> /dev/null
    exit 0
  fi
else
  sleep 0.5 # the first view
  echo "$ospview -p $pid -b 2 -d 1 --top=5 --screen=subpaths,paths"
  "$ospview" -p "$pid" -b 2 -d 1 --top=5 --screen=subpaths,paths
fi
wait "$pid"
rc=$?
echo
echo "The demo's exit report (OSP_OPTIONS=report=FILE; by default a program writes PROG.ospsnap"
echo "and one line naming it instead; report=stderr prints this):"
cat "$report"
exit "$rc"

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/recent-interval.sh - the 95% interval of what ran between two views of one process
# (ospview --diff of two snapshots, recent mode's tables; viewer/recent.c, doc/ACCURACY.md
# "Recent intervals") rests on the samples taken in between, not on the two cumulative errors.
#
# The program: progs/window.c, a long step of ROUNDS1 rounds of work() and a short one of
# ROUNDS2 (1/16 of the run's blocks in all), each ending settled (osp_report) and idle until
# the test's SIGUSR1, so that a snapshot taken then (snapshot_signal: the runtime's thread
# writes it while the program idles) holds exactly the work done so far.  It runs twice with
# seed=1: sampled (the default policy) and mode=subpaths-exact, each with a snapshot after
# each step (sampled: under each policy).  Then for the top rows of the sampled "ran between" table (by
# count, those established, not '~' or '+'):
#   - the interval covers the exact count of what ran in between (the exact run's table);
#   - it is at most half the cumulative-difference bound sqrt(a^2 + b^2) of the two
#     snapshots' 95% errors, which was the interval before view minor 4 (on a window of 1/16
#     of the run its Poisson part alone is about sqrt(1/33) of it).
# Deterministic: seed=1 and a single thread sample the same positions every run.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup recent-interval
osp_need_build

OSPVIEW=$abs_top_builddir/viewer/ospview
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }
command -v python3 > /dev/null 2>&1 || { echo "SKIP: python3 is needed to read ospview --json"; exit 77; }
R1=60 R2=4
TOP=3

cp "$OSP_TESTSRC/progs/window.c" "$W/" || exit 99
(cd "$W" && osp_compile "$W/window" osp_cc -O1 -g window.c -o window) ||
  { echo "error: cannot build progs/window.c"; exit 99; }

# snap DIR FILE: a snapshot of the program (idle and settled: it holds all of its work so far)
# on snapshot_signal into FILE.
snap ()
{
  kill -USR2 "$PID"
  osp_wait_until 30 test -s "$1/snap.ospsnap" && mv "$1/snap.ospsnap" "$2"
}

PID=
cleanup ()
{
  [ -n "$PID" ] && kill -9 "$PID" 2> /dev/null
  return 0
}
trap cleanup EXIT

# run NAME OPTIONS: the program with OPTIONS, snapshots NAME-A (after the long step) and NAME-B.
run ()
{
  mkdir "$W/$1" || exit 99
  OSP_OPTIONS=report=none:seed=1:snapshot=$W/$1/snap.ospsnap:snapshot_signal=USR2:$2 \
    "$W/window" "$W/$1" "$R1" "$R2" "$(osp_seconds 120)" > "$W/$1.out" 2> "$W/$1.err" &
  PID=$!
  osp_wait_until 60 test -e "$W/$1/s1" || { osp_fail "$1: the long step did not end"; return; }
  snap "$W/$1" "$W/$1-A.ospsnap" || { osp_fail "$1: no snapshot after the long step"; return; }
  kill -USR1 "$PID"
  osp_wait_until 60 test -e "$W/$1/s2" || { osp_fail "$1: the short step did not end"; return; }
  snap "$W/$1" "$W/$1-B.ospsnap" || { osp_fail "$1: no snapshot after the short step"; return; }
  kill -USR1 "$PID"
  wait "$PID"
  rc=$?
  PID=
  [ "$rc" -eq 0 ] || { osp_fail "$1: the program exited with $rc"; osp_show "$W/$1.err"; }
}
run e mode=subpaths-exact:paths=exhaustive
[ -s "$W/e-B.ospsnap" ] || osp_done

# between OLD NEW OUT SCREEN TITLE: the "ran between" rows of SCREEN (its table's title starts
# with TITLE) as "MARK DELTA ERR LEN<TAB>TEXT" (MARK "=" for established, ERR 0: exact).  --diff
# has no JSON: the columns are found by the table's header (the len column ends where "len"
# does, the text starts under "path"), so that a column added to the table does not move them.
between ()
{
  "$OSPVIEW" --diff "$1" "$2" -b 1 --screen="$4" --top=0 > "$3.txt" 2> "$3.err" ||
    osp_fail "--diff $1 $2: exit status $?"
  awk -v t="$5 that ran between OLD and NEW" '
       function fail(msg) { printf "FAIL: %s: %s\n", FILENAME, msg; bad = 1; exit }
       index($0, t) == 1 { on = 1; hdr = 1; next }
       on && hdr { hdr = 0; le = index($0, " len  "); pc = index($0, "  path")
                   if (!le || !pc || index($0, "in interval") == 0 || index($0, "+/- 95%") == 0)
                     fail("no in interval, +/- 95%, len and path columns: " $0)
                   le += 3; pc += 2; next }
       on && /^$/ { exit }
       on { m = substr($0, 1, 1); if (m == " ") m = "="
            n = split(substr($0, 3, le - 2), f, " ")
            err = 0; for (k = 2; k < n; k++) if (f[k] == "+/-") err = f[k + 1]
            print m, f[1], err, f[n] "\t" substr($0, pc) }
       END { exit bad }' "$3.txt" > "$3" || osp_fail "$3.txt: cannot read the table"
}
# cumulative SNAP OUT SCREEN: the snapshot's rows of SCREEN (subpaths or paths) as
# "ERR95 LEN<TAB>TEXT", read from ospview --json.
cumulative ()
{
  "$OSPVIEW" "$1" --json > "$2.json" 2> "$2.err" || osp_fail "$1: exit status $?"
  python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))[sys.argv[2]]:
    print("%.17g %d\t%s" % (r["err95"], len(r["blocks"]), r["text"]))
' "$2.json" "$3" > "$2" || osp_fail "$1: cannot read its --json"
}
# check_top LABEL TOP BETWEEN EXACT CUM-A CUM-B: the first TOP established rows of BETWEEN;
# the first one's interval covers its count in EXACT, each is at most half the cumulative bound.
check_top ()
{
  awk '$1 == "="' "$3" | head -n "$2" > "$3.top"
  [ "$(wc -l < "$3.top")" -eq "$2" ] ||
    { osp_fail "$1: fewer than $2 established rows ran between the snapshots"; osp_show "$3.txt"; }
  awk -F '\t' -v l="$1" -v ef="$4" -v af="$5" -v bf="$6" '
    BEGIN {
      while ((getline x < ef) > 0) { split(x, p, "\t"); split(p[1], q, " ")
                                     ex[q[4] "\t" p[2]] = q[2] }
      while ((getline x < af) > 0) { split(x, p, "\t"); split(p[1], q, " ")
                                     ea[q[2] "\t" p[2]] = q[1] }
      while ((getline x < bf) > 0) { split(x, p, "\t"); split(p[1], q, " ")
                                     eb[q[2] "\t" p[2]] = q[1] }
    }
    { split($1, q, " "); k = q[4] "\t" $2; d = q[2]; e = q[3]
      if (!(k in ex) || !(k in ea) || !(k in eb)) {
        printf "FAIL: %s: len %s %s: not in the exact run or a snapshot\n", l, q[4], $2; bad = 1; next }
      bound = sqrt(ea[k] * ea[k] + eb[k] * eb[k])
      printf "%s: len %s %s: %s +/- %s, exact %s (off by %.0f); cumulative bound %.0f (ratio %.3f)\n",
        l, q[4], $2, d, e, ex[k], d - ex[k], bound, (bound > 0 ? e / bound : 0)
      if (NR == 1 && (d - ex[k]) ^ 2 > e * e) {
        print "FAIL: the top row'"'"'s interval does not cover the exact count"; bad = 1 }
      if (e > bound / 2) { print "FAIL: the interval is wider than half the cumulative bound"; bad = 1 }
    }
    END { exit bad }' "$3.top" || {
    osp_failures=$((osp_failures + 1))
    osp_show "$3.txt"
  }
}

between "$W/e-A.ospsnap" "$W/e-B.ospsnap" "$W/e.between" subpaths subpaths
between "$W/e-A.ospsnap" "$W/e-B.ospsnap" "$W/e.pbetween" paths "Ball-Larus paths"
# each hot-list policy (estimate.c): the default Space-Saving, counting samples, concise samples
for s in spacesaving counting concise; do
  run "$s" "policy=$s"
  [ -s "$W/$s-B.ospsnap" ] || continue
  echo "--- policy=$s"
  between "$W/$s-A.ospsnap" "$W/$s-B.ospsnap" "$W/$s.between" subpaths subpaths
  cumulative "$W/$s-A.ospsnap" "$W/$s-A.cum" subpaths
  cumulative "$W/$s-B.ospsnap" "$W/$s-B.cum" subpaths
  check_top "$s" "$TOP" "$W/$s.between" "$W/e.between" "$W/$s-A.cum" "$W/$s-B.cum"

  # Every row measured from its samples (an interval, an exact count to compare): 95% intervals
  # cover at least 90% of them (the rows share samples: not independent, so no tighter).
  awk -F '\t' -v ef="$W/e.between" -v s="$s" '
    BEGIN { while ((getline l < ef) > 0) { split(l, p, "\t"); split(p[1], q, " ")
                                           ex[q[4] "\t" p[2]] = q[2] } }
    { split($1, q, " "); k = q[4] "\t" $2
      if (!(k in ex) || q[3] == 0) next
      n++; if ((q[2] - ex[k]) ^ 2 <= q[3] * q[3]) in_++ }
    END { printf "%s: %d of %d intervals cover the exact count\n", s, in_, n
          exit !(n >= 20 && in_ >= 0.9 * n) }' "$W/$s.between" ||
    osp_fail "$s: the intervals of what ran between cover too few exact counts"
done
# Ball-Larus paths (paths=counter: samples x path_scale): the top path of the last run
between "$W/$s-A.ospsnap" "$W/$s-B.ospsnap" "$W/$s.pbetween" paths "Ball-Larus paths"
cumulative "$W/$s-A.ospsnap" "$W/$s-A.pcum" paths
cumulative "$W/$s-B.ospsnap" "$W/$s-B.pcum" paths
check_top paths 1 "$W/$s.pbetween" "$W/e.pbetween" "$W/$s-A.pcum" "$W/$s-B.pcum"
osp_done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/work-tables.sh - work in the runtime's row tables and in ospview --json (issue 34: work,
# not only frequency; honest rows): libosprt/output/report-*.c, libosprt/format/workshare.h,
# viewer/export-json.c.
#
#   1. progs/fold-recursion.c, mode=subpaths (seeds 1, 2) and subpaths-exact, tsv: every
#      `subpath' row carries work, work err95 and work share after its blocks, the work and its
#      err95 scaled alike (work / estimate = work err95 / err95), and per length class the work
#      shares add up to what the count shares add up to (<= 100%; subpaths-exact, whose rows
#      are every subpath: 100%).  The text report has a work column and a "work shares ..."
#      line whose `listed + other' is 100% per length.
#   2. progs/forest-loops.c with paths=counter sampled thinly (path_interval=100000): the
#      `path' rows carry work, the rows with too few samples (err95 > estimate) have rank `-'
#      and come after the ranked ones (some exist), the work shares add up to the count
#      shares; `forest' rows carry work; the text report lists the paths too uncertain to rank
#      in their own group.
#   3. ospview --json on the snapshot of the run of 2 (and of 1): every subpath, path and forest
#      row has work, work_err95 and work_share equal to the tsv report's of the same run, and
#      `ranked' as the tsv ranks it (rank `-', forest field 15: the runtime's flag, carried in
#      the view); every function its work and execution shares, each adding up to 1.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup work-tables
osp_need_build
OSPVIEW=$abs_top_builddir/viewer/ospview
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }
command -v python3 > /dev/null 2>&1 || { echo "note: python3 is not installed"; exit 77; }

cp "$OSP_TESTSRC/progs/fold-recursion.c" "$W/" || exit 99
(cd "$W" && osp_compile "$W/fr" osp_cc -O2 -g fold-recursion.c -o fr) ||
  { echo "error: cannot build progs/fold-recursion.c"; exit 99; }
(cd "$W" && osp_compile "$W/fl" osp_cc -O2 -g "$OSP_TESTSRC/progs/forest-loops.c" -o fl) ||
  { echo "error: cannot build progs/forest-loops.c"; exit 99; }

# check_rows FILE WHOLE: the work fields of every subpath, path and forest row of a tsv report;
# WHOLE=1: each length class's work shares add up to 100% (else: to its count shares' sum).
check_rows ()
{
  awk -F '\t' -v whole="$2" '
    function bad(msg) { printf "%s:%d: %s: %s\n", FILENAME, FNR, msg, $0; errs++ }
    function rel(a, b) { return (a > b ? a - b : b - a) / (b > 1 ? b : 1) }
    # the work fields W, E, S of a row with estimate N and err95 R
    function work(w, e, s, n, r) {
      if (w !~ /^[0-9]+\.[0-9]+$/ || e !~ /^[0-9]+\.[0-9]+$/ || s !~ /^[0-9.e+-]+$/) {
        bad("no work fields"); return 0
      }
      if (n > 0 && r > 0 && rel(w / n, e / r) > 1e-6) bad("work and its err95 scaled apart")
      if (s + 0 > 1 + 1e-9) bad("work share above 1")
      return 1
    }
    $1 == "subpath" {
      if (NF != 11) { bad("subpath row of " NF " fields"); next }
      if (work($9, $10, $11, $4, $5)) { sh[$3] += $7; wsh[$3] += $11 }
      nsub++
    }
    $1 == "path" {
      if (NF != 13) { bad("path row of " NF " fields"); next }
      if ($2 == "-") { few++; if ($6 + 0 <= $5 + 0) bad("unranked path row with err95 <= estimate") }
      else {
        if ($6 + 0 > $5 + 0) bad("ranked path row with err95 > estimate")
        if (few) bad("ranked path row after an unranked one")
      }
      if (work($11, $12, $13, $5, $6)) { psh += $8; pwsh += $13 }
      npath++
    }
    $1 == "forest" {
      if (NF != 15) { bad("forest row of " NF " fields"); next }
      work($12, $13, $14, $8, $9)
    }
    END {
      for (l in sh) {
        want = whole ? 1 : sh[l]
        if (rel(wsh[l], want) > 1e-6 || wsh[l] > 1 + 1e-6) {
          printf "%s: length %s: work shares add up to %.9f, count shares to %.9f\n", FILENAME, l, wsh[l], sh[l]; errs++
        }
      }
      if (npath && rel(pwsh, psh) > 1e-6) { printf "%s: path work shares %.9f, count shares %.9f\n", FILENAME, pwsh, psh; errs++ }
      printf "%s: %d subpath rows, %d path rows (%d unranked)\n", FILENAME, nsub, npath, few
      exit errs > 0
    }' "$1"
}

# --- 1. subpaths ----------------------------------------------------------------------------------
for seed in 1 2; do
  osp_exec_with "report=$W/s$seed.tsv:report_format=tsv:report_top=100000:seed=$seed:snapshot=$W/s$seed.ospsnap" \
    "$W/s$seed" "$W/fr" 30
  [ "$osp_rc" -eq 0 ] && osp_check_report "$W/s$seed.tsv" || osp_fail "seed $seed: bad run or report"
  check_rows "$W/s$seed.tsv" 0 || osp_fail "seed $seed: subpath work fields (part 1)"
done
osp_exec_with "mode=subpaths-exact:report=$W/x.tsv:report_format=tsv:report_top=100000" "$W/x" "$W/fr" 5
[ "$osp_rc" -eq 0 ] && osp_check_report "$W/x.tsv" || osp_fail "exact: bad run or report"
grep -q '^stat	exact_dropped	0$' "$W/x.tsv" || { echo "error: the exact table was full"; exit 99; }
check_rows "$W/x.tsv" 1 || osp_fail "exact: work shares of a class do not add up to 100% (part 1)"

osp_exec_with "report=$W/t.txt:seed=1" "$W/t" "$W/fr" 30
awk '
  function bad(msg) { printf "text:%d: %s: %s\n", FNR, msg, $0; errs++ }
  /^hottest subpaths \(/ { getline; if ($0 !~ / share +work +work% +len +path$/) bad("no work columns") }
  END { exit errs > 0 }
' "$W/t.txt" &&
  osp_listed_other "$W/t.txt" "work shares are of the work of the subpaths of the same length:" ||
  { osp_fail "text report (part 1)"; osp_show "$W/t.txt"; }

# --- 2. sampled paths, some too uncertain to rank ------------------------------------------------
opts=report_top=100000:seed=1:path_interval=100000
osp_exec_with "report=$W/p.tsv:report_format=tsv:$opts:snapshot=$W/p.ospsnap" "$W/p" "$W/fl" 200000
[ "$osp_rc" -eq 0 ] && osp_check_report "$W/p.tsv" || osp_fail "paths: bad run or report"
check_rows "$W/p.tsv" 0 || osp_fail "paths: path and forest work fields, unranked rows (part 2)"
grep -q '^path	-	' "$W/p.tsv" || osp_fail "paths: no unranked path row (the test needs some)"
grep -q '^forest	' "$W/p.tsv" || osp_fail "paths: no forest rows"
osp_exec_with "report=$W/p.txt:$opts" "$W/pt" "$W/fl" 200000
# (a row starts with its rank; its path may be on the lines below it; counts are grouped)
awk '
  function bad(msg) { printf "text:%d: %s: %s\n", FNR, msg, $0; errs++ }
  /^hottest paths \(/ { sec = "ranked"; getline; if ($0 !~ / share +work +work% +branches +path$/) bad("no work columns"); next }
  /^too few samples to rank \([0-9,]+ of [0-9,]+ paths/ { sec = "few"; few = 1; next }
  /^$/ { sec = "" }
  sec != "" && $1 ~ /^([0-9]+|-)$/ {
    est = $2; err = $4; if ($3 == "exact") err = 0
    gsub(/,/, "", est); gsub(/,/, "", err)
    if (sec == "ranked" && ($1 == "-" || err + 0 > est + 0)) bad("ranked path with err95 > estimate")
    if (sec == "few" && ($1 != "-" || err + 0 <= est + 0)) bad("bad row among too few samples")
  }
  END { if (!few) bad("no paths too uncertain to rank"); exit errs > 0 }
' "$W/p.txt" || { osp_fail "paths: text report (part 2)"; osp_show "$W/p.txt"; }

# --- 3. ospview --json ----------------------------------------------------------------------------
cat > "$W/check.py" << 'EOF'
import json, sys
tsv, doc = sys.argv[1], json.load(open(sys.argv[2], encoding="utf-8"))
errs = 0
def bad(msg):
    global errs
    errs += 1
    print("json: " + msg)
rows = {"subpath": [], "path": [], "forest": []}
for line in open(tsv, encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    if f[0] in rows:
        rows[f[0]].append(f)
# the work fields come after the blocks: the last three (a forest row's
# ranked field after them)
for kind, key in (("subpath", "subpaths"), ("path", "paths"), ("forest", "forest")):
    js = doc[key]
    if len(js) != len(rows[kind]):
        bad("%s: %d rows, the tsv %d" % (key, len(js), len(rows[kind])))
    for t, j in zip(rows[kind], js):
        # the runtime's ranked flag travels in the view (minor 5 for paths
        # and forest nodes): the tsv's forest field, the rank `-' of the rest
        if kind == "forest":
            if j.get("ranked") != (t[-1] == "1"):
                bad("forest row %s: ranked %r, the tsv %r" % (t[1], j.get("ranked"), t[-1]))
            t = t[:-1]
        elif j.get("ranked") != (t[1] != "-"):
            bad("%s row %s: ranked %r" % (key, t[1], j.get("ranked")))
        w, e, s = (float(x) for x in t[-3:])
        for name, want in (("work", w), ("work_err95", e), ("work_share", s)):
            got = j.get(name)
            if not isinstance(got, (int, float)) or abs(got - want) > max(1e-3, 1e-8 * want):
                bad("%s row %s: %s %r, the tsv %r" % (key, t[1], name, got, want))
for name in ("work_share", "execs_share"):
    vals = [f[name] for f in doc["functions"]]
    if any(not isinstance(v, (int, float)) for v in vals):
        bad("a function without " + name)
    elif abs(sum(vals) - 1) > 1e-9:
        bad("functions' %s add up to %r" % (name, sum(vals)))
sys.exit(1 if errs else 0)
EOF
# paths=timer with one sample a tick: rows of a sample or two, which the runtime does not rank
# (ospview ranked every timer row before the flag travelled in the view, minor 5).  Long enough
# for ticks on a busy machine: 200000 ran 10 ms, 2 ticks of 1 ms, and a CI run once got none
# (no path sampled, every function's share 0); 2000000 runs about 40 ms, 36 ticks idle.
osp_exec_with "report=$W/t.tsv:report_format=tsv:report_top=100000:seed=1:paths=timer:forest=off:path_period=1:path_samples=1:snapshot=$W/t.ospsnap" \
  "$W/t" "$W/fl" 2000000
[ "$osp_rc" -eq 0 ] && osp_check_report "$W/t.tsv" || osp_fail "paths=timer: bad run or report"
grep -q '^path	-	' "$W/t.tsv" ||
  echo "note: paths=timer: no unranked path row this time (the ranked check is the counter run's)"
for r in p s1 t; do
  "$OSPVIEW" --json "$W/$r.ospsnap" > "$W/$r.json" 2> "$W/$r.json.err" ||
    { osp_fail "$r: ospview --json: status $?"; osp_show "$W/$r.json.err"; continue; }
  python3 "$W/check.py" "$W/$r.tsv" "$W/$r.json" || osp_fail "$r: --json work fields against the tsv (part 3)"
done
osp_done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/viewer-fleet.sh - ospview --merge over a fleet: 300 snapshots merged in bounded memory,
# associatively, with per-input validation (viewer/merge.c, doc/SNAPSHOT.md "Merging").
#
# progs/merge-runs.c K N is run 300 times, K = i mod 2 and N = 60 + 7 i mod 97 (other inputs, other
# profiles), exact (mode=subpaths-exact, paths=exhaustive, forest=exhaustive, forest_prune=0),
# so every merged number is an integer sum and merging in steps must give the same bytes.
#
#   a. Memory: the peak RSS of merging all 300 (progs/maxrss.c: the child's ru_maxrss) is at
#      most 2 x the peak of merging the largest one alone, and the 300 inputs together are at
#      least 4 x that peak (so a merge that held them all could not pass).
#   b. Associativity, byte for byte (cmp): merge(merge(A,B),C) = merge(A,B,C) on three inputs,
#      and the merge of three merges of 100 each = the merge of all 300.
#   c. Totals, read with --json (python3): blocks_seen, path_ends and every subpath's, path's
#      and forest root's count (by content) of the merge are the sums of the 300 inputs'; the
#      merged_snapshots and merged_processes statistics are 300; the summary lines say so.
#   d. A corrupt input in the middle: refused with its name (one stderr line, exit 1, no OUT);
#      with --keep-going skipped with one line, the other 299 merged, the summary says 1
#      skipped.
#   e. The row cap: --merge-rows=100 keeps 100 rows a section and counts the rest, in the
#      summary and in merged_rows_dropped_*; their estimates join merged_absent_*.
#   f. A merged snapshot remembers its processes: merging it with one of its inputs, or with a
#      copy of itself, is refused (one line naming both files); --allow-same-run merges.
#      --keep-going without --merge: exit 2.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup viewer-fleet

OSPVIEW=$abs_top_builddir/viewer/ospview
SRC=$abs_top_srcdir
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }
command -v python3 > /dev/null 2>&1 || { echo "skip: no python3"; exit 77; }
osp_need_build

osp_compile "$W/prog" osp_cc -O1 -g "$SRC/tests/progs/merge-runs.c" -o "$W/prog" ||
  { echo "error: cannot build merge-runs.c with the plugin"; exit 99; }
osp_compile "$W/maxrss" plain_cc -O1 "$SRC/tests/progs/maxrss.c" -o "$W/maxrss" ||
  { echo "error: cannot build maxrss.c"; exit 99; }

N=300
EXACT=report=none:mode=subpaths-exact:paths=exhaustive:forest=exhaustive:forest_prune=0
i=0
while [ $i -lt $N ]; do
  osp_exec_with "$EXACT:snapshot=$W/s$i.ospsnap" "$W/run" "$W/prog" $((i % 2)) $((60 + i * 7 % 97))
  [ "$osp_rc" -eq 0 ] && [ -s "$W/s$i.ospsnap" ] ||
    { echo "error: run $i: status $osp_rc, no snapshot"; osp_show "$W/run.err"; exit 99; }
  i=$((i + 1))
done
# inputs FIRST LAST: the snapshot files sFIRST..sLAST
inputs ()
{
  j=$1
  while [ "$j" -le "$2" ]; do
    echo "$W/s$j.ospsnap"
    j=$((j + 1))
  done
}

# merge OUT IN...: ospview $MERGE_FLAGS --merge, stdout OUT.out, stderr OUT.err, status $rc;
# peak RSS in KiB in OUT.rss.
MERGE_FLAGS=
merge ()
{
  out=$1
  # shellcheck disable=SC2086
  "$W/maxrss" "$out.rss" "$OSPVIEW" $MERGE_FLAGS --merge "$@" > "$out.out" 2> "$out.err"
  rc=$?
}
# merged LABEL OUT IN...: a merge that must succeed.
merged ()
{
  label=$1
  shift
  merge "$@"
  if [ "$rc" -ne 0 ] || [ -s "$1.err" ]; then
    osp_fail "$label: --merge: status $rc"
    osp_show "$1.err"
  fi
}

# --- a. bounded memory ----------------------------------------------------------------------------
big=$(ls -S "$W"/s*.ospsnap | head -n 1)
merged "a: one" "$W/one.ospsnap" "$big"
# shellcheck disable=SC2046
merged "a: all" "$W/all.ospsnap" $(inputs 0 $((N - 1)))
one=$(cat "$W/one.ospsnap.rss")
all=$(cat "$W/all.ospsnap.rss")
bytes=$(inputs 0 $((N - 1)) | xargs cat | wc -c)
echo "a: peak RSS: $one KiB merging the largest snapshot alone ($(wc -c < "$big") bytes), $all KiB merging $N ($bytes bytes together)"
[ "$all" -le $((2 * one)) ] ||
  osp_fail "a: merging $N snapshots peaked at $all KiB, more than 2 x $one KiB (merging the largest one)"
[ $((bytes / 1024)) -ge $((4 * all)) ] ||
  osp_fail "a: the inputs ($bytes bytes) are not 4 x the peak: the check would not tell"
grep -q "^merged $N snapshots into $W/all.ospsnap (6 functions; rows: " "$W/all.ospsnap.out" &&
  grep -q "^inputs: $N merged, 0 skipped; covering $N snapshots of $N processes; rows dropped at the cap of 1048576 per section: 0 subpaths, 0 paths, 0 forest nodes\$" \
    "$W/all.ospsnap.out" ||
  { osp_fail "a: the summary lines"; osp_show "$W/all.ospsnap.out"; }

# --- b. associativity -------------------------------------------------------------------------------
merged "b: A,B" "$W/ab.ospsnap" "$W/s1.ospsnap" "$W/s2.ospsnap"
merged "b: (A,B),C" "$W/ab_c.ospsnap" "$W/ab.ospsnap" "$W/s3.ospsnap"
merged "b: A,B,C" "$W/abc.ospsnap" "$W/s1.ospsnap" "$W/s2.ospsnap" "$W/s3.ospsnap"
cmp "$W/ab_c.ospsnap" "$W/abc.ospsnap" > "$W/b.cmp" 2>&1 ||
  { osp_fail "b: merge(merge(A,B),C) differs from merge(A,B,C)"; osp_show "$W/b.cmp"; }
# b2. Sampled inputs (mode=subpaths, paths=counter, forest=burst, fixed seeds): the same rows,
# counts and run, estimates within 1e-12 relative (doubles summed in another order); err95 the
# same within 1e-12 for rows that every input has, and for the others never wider in steps
# (doc/SNAPSHOT.md: a merged input's row carries its parts' absence bounds inside its err95).
for k in 0 1 2; do
  osp_exec_with "report=none:snapshot=$W/p$k.ospsnap:seed=$((k + 1))" "$W/p$k" "$W/prog" $k 100000
  [ "$osp_rc" -eq 0 ] && [ -s "$W/p$k.ospsnap" ] ||
    { echo "error: sampled run $k: status $osp_rc, no snapshot"; osp_show "$W/p$k.err"; exit 99; }
done
merged "b2: A,B" "$W/pab.ospsnap" "$W/p0.ospsnap" "$W/p1.ospsnap"
merged "b2: (A,B),C" "$W/pab_c.ospsnap" "$W/pab.ospsnap" "$W/p2.ospsnap"
merged "b2: A,B,C" "$W/pabc.ospsnap" "$W/p0.ospsnap" "$W/p1.ospsnap" "$W/p2.ospsnap"
python3 - "$OSPVIEW" "$W" > "$W/b2.out" 2>&1 <<'PY' ||
import json, subprocess, sys
view, w = sys.argv[1], sys.argv[2]
def load(name):
    return json.loads(subprocess.run([view, "%s/%s.ospsnap" % (w, name), "--json"],
                                     check=True, capture_output=True).stdout)
def rows(doc, sec):
    fns, out, keys = doc["functions"], {}, []
    for r in doc[sec]:
        k = tuple((fns[f]["name"], b) for f, b in r["blocks"])
        if sec == "forest":  # a node by its chain from the root
            k = (keys[r["parent"]] if r["parent"] is not None else (),) + k
            keys.append(k)
        out[k] = r
    return out
def close(a, b):
    return abs(a - b) <= 1e-12 * max(abs(a), abs(b))
bad = n = same = 0
full = {name: load(name) for name in ("p0", "p1", "p2", "pab_c", "pabc")}
for sec in ("subpaths", "paths", "forest"):
    got = {name: rows(full[name], sec) for name in full}
    two, one = got["pab_c"], got["pabc"]
    if set(two) != set(one):
        bad += 1; print("b2: %s: %d rows in steps, %d at once" % (sec, len(two), len(one))); continue
    cnt = "samples" if sec == "paths" else "count"
    for k in one:
        n += 1
        a, b = two[k], one[k]
        everywhere = all(k in got[p] for p in ("p0", "p1", "p2"))
        if a[cnt] != b[cnt] or not close(a["estimate"], b["estimate"]) or \
           (everywhere and not close(a["err95"], b["err95"])) or \
           a["err95"] > b["err95"] * (1 + 1e-12):
            bad += 1
            if bad < 10: print("b2: %s %s: steps %s, at once %s" % (sec, str(k)[:80], a, b))
        same += everywhere
one, two = full["pabc"], full["pab_c"]
if one["run"] != two["run"] or one["functions"] != two["functions"]:
    bad += 1; print("b2: run or functions differ")
for name, x in one["stats"].items():
    y = two["stats"].get(name)
    if not (x == y or (isinstance(x, float) and isinstance(y, float) and close(x, y))):
        bad += 1; print("b2: stat %s: %s in steps, %s at once" % (name, y, x))
if set(one["stats"]) != set(two["stats"]):
    bad += 1; print("b2: other stats")
print("b2: %d sampled rows compared (%d in every input), %d wrong" % (n, same, bad))
sys.exit(1 if bad or n < 50 or same == 0 else 0)
PY
  osp_fail "b2: sampled: merging in steps differs beyond the documented limits"
cat "$W/b2.out"

g=0
while [ $g -lt 3 ]; do
  # shellcheck disable=SC2046
  merged "b: group $g" "$W/g$g.ospsnap" $(inputs $((g * 100)) $((g * 100 + 99)))
  g=$((g + 1))
done
merged "b: groups" "$W/groups.ospsnap" "$W/g0.ospsnap" "$W/g1.ospsnap" "$W/g2.ospsnap"
cmp "$W/groups.ospsnap" "$W/all.ospsnap" > "$W/b300.cmp" 2>&1 ||
  { osp_fail "b: the merge of 3 merges of 100 differs from the merge of $N"; osp_show "$W/b300.cmp"; }
grep -q "^inputs: 3 merged, 0 skipped; covering $N snapshots of $N processes;" "$W/groups.ospsnap.out" ||
  { osp_fail "b: the summary of the merge of merges"; osp_show "$W/groups.ospsnap.out"; }

# --- c. totals --------------------------------------------------------------------------------------
inputs 0 $((N - 1)) > "$W/c.list"
python3 - "$OSPVIEW" "$W/all.ospsnap" "$W/c.list" > "$W/c.out" 2>&1 <<'PY' ||
import json, subprocess, sys
from collections import Counter
view, merged, listing = sys.argv[1], sys.argv[2], sys.argv[3]
def load(path):
    return json.loads(subprocess.run([view, path, "--json"], check=True,
                                     capture_output=True).stdout)
def key(doc, row):
    fns = doc["functions"]
    return tuple((fns[f]["name"], b) for f, b in row["blocks"])
def totals(doc):
    t = Counter()
    t["blocks_seen"] += doc["run"]["blocks_seen"]
    t["path_ends"] += doc["run"]["path_ends"]
    for r in doc["subpaths"]:
        t[("sub",) + key(doc, r)] += r["count"]
    for r in doc["paths"]:
        t[("path",) + key(doc, r)] += r["samples"]
    for r in doc["forest"]:
        if r["parent"] is None:
            t[("root",) + key(doc, r)] += r["count"]
    return t
want = Counter()
files = open(listing).read().split()
for f in files:
    want.update(totals(load(f)))
m = load(merged)
got = totals(m)
bad = [k for k in set(want) | set(got) if want[k] != got[k]]
for k in bad[:10]:
    print("c: %s: merged %d, inputs' sum %d" % (str(k)[:100], got[k], want[k]))
st = m["stats"]
for name in ("merged_snapshots", "merged_processes"):
    if st.get(name) != len(files):
        bad.append(name); print("c: %s %s, want %d" % (name, st.get(name), len(files)))
if m["source"]["flags"] != ["merged"]:
    bad.append("flags"); print("c: source.flags", m["source"]["flags"])
print("c: %d keys compared over %d inputs, %d wrong" % (len(want), len(files), len(bad)))
sys.exit(1 if bad or len(want) < 100 else 0)
PY
  { osp_fail "c: the merged totals are not the inputs' sums"; }
cat "$W/c.out"

# --- d. a corrupt input in the middle ----------------------------------------------------------------
cp "$W/s150.ospsnap" "$W/bad.ospsnap"
size=$(wc -c < "$W/bad.ospsnap")
printf 'XXXX' | dd of="$W/bad.ospsnap" bs=1 seek=$((size / 2)) conv=notrunc 2> /dev/null
# shellcheck disable=SC2046
merge "$W/d.ospsnap" $(inputs 0 149) "$W/bad.ospsnap" $(inputs 151 $((N - 1)))
if [ "$rc" -ne 1 ] || [ "$(wc -l < "$W/d.ospsnap.err")" -ne 1 ] ||
   ! grep -q "^ospview: $W/bad.ospsnap: .*checksum" "$W/d.ospsnap.err" || [ -e "$W/d.ospsnap" ]; then
  osp_fail "d: a corrupt input: status $rc (want 1, one line naming it, no OUT)"
  osp_show "$W/d.ospsnap.err"
fi
MERGE_FLAGS=--keep-going
# shellcheck disable=SC2046
merge "$W/dk.ospsnap" $(inputs 0 149) "$W/bad.ospsnap" $(inputs 151 $((N - 1)))
MERGE_FLAGS=
if [ "$rc" -ne 0 ] || [ "$(wc -l < "$W/dk.ospsnap.err")" -ne 1 ] ||
   ! grep -q "^ospview: $W/bad.ospsnap: .*(skipped: --keep-going)\$" "$W/dk.ospsnap.err" ||
   ! grep -q "^inputs: $((N - 1)) merged, 1 skipped; covering $((N - 1)) snapshots of $((N - 1)) processes;" \
     "$W/dk.ospsnap.out"; then
  osp_fail "d: --keep-going: status $rc"
  osp_show "$W/dk.ospsnap.err"
  osp_show "$W/dk.ospsnap.out"
fi

# --- e. the row cap ----------------------------------------------------------------------------------
MERGE_FLAGS=--merge-rows=100
merge "$W/cap.ospsnap" "$W/s1.ospsnap" "$W/s2.ospsnap" "$W/s3.ospsnap"
MERGE_FLAGS=
if [ "$rc" -ne 0 ]; then
  osp_fail "e: --merge-rows=100: status $rc"
  osp_show "$W/cap.ospsnap.err"
else
  "$OSPVIEW" "$W/cap.ospsnap" --json > "$W/cap.json" 2> "$W/cap.json.err" ||
    osp_fail "e: --json of the capped merge"
  python3 - "$W/cap.json" "$W/cap.ospsnap.out" > "$W/e.out" 2>&1 <<'PY' ||
import json, re, sys
m = json.load(open(sys.argv[1]))
st = m["stats"]
line = open(sys.argv[2]).read().splitlines()[1]
got = re.search(r"cap of 100 per section: (\d+) subpaths, (\d+) paths, (\d+) forest nodes", line)
bad = 0
if not got:
    print("e: summary:", line); sys.exit(1)
for sec, rows, n in (("subpaths", "subpaths", got.group(1)), ("paths", "paths", got.group(2)),
                     ("forest", "forest", got.group(3))):
    if len(m[rows]) > 100 or st["merged_rows_dropped_" + sec] != int(n):
        bad += 1; print("e:", sec, len(m[rows]), st["merged_rows_dropped_" + sec], n)
if int(got.group(1)) == 0 or st["merged_absent_subpaths"] <= 0:
    bad += 1; print("e: nothing dropped, or not in merged_absent_subpaths", st["merged_absent_subpaths"])
print("e: dropped %s subpaths, %s paths, %s forest nodes; merged_absent_subpaths %g"
      % (got.group(1), got.group(2), got.group(3), st["merged_absent_subpaths"]))
sys.exit(bad)
PY
    osp_fail "e: the cap's drops are not counted"
  cat "$W/e.out"
fi

# --- f. a merge remembers its processes --------------------------------------------------------------
# refused LABEL WORDS OUT IN...: status 1, one stderr line containing WORDS, no OUT.
osp_merge_refused "f: a part again" "ospview: $W/s5.ospsnap: the same process instance as one that $W/g0.ospsnap merges (pid " \
  "$W/r1.ospsnap" "$W/g0.ospsnap" "$W/s5.ospsnap"
osp_merge_refused "f: a part first" "ospview: $W/g0.ospsnap: merges a process (instance " \
  "$W/r2.ospsnap" "$W/s5.ospsnap" "$W/g0.ospsnap"
cp "$W/g0.ospsnap" "$W/g0copy.ospsnap"
osp_merge_refused "f: a copy of a merge" "ospview: $W/g0copy.ospsnap: merges a process (instance " \
  "$W/r3.ospsnap" "$W/g0.ospsnap" "$W/g0copy.ospsnap"
MERGE_FLAGS=--allow-same-run
merged "f: --allow-same-run" "$W/f.ospsnap" "$W/g0.ospsnap" "$W/s5.ospsnap"
MERGE_FLAGS=
grep -q "^inputs: 2 merged, 0 skipped; covering 101 snapshots of 100 processes;" "$W/f.ospsnap.out" ||
  { osp_fail "f: --allow-same-run: the summary"; osp_show "$W/f.ospsnap.out"; }
"$OSPVIEW" --keep-going --diff "$W/s0.ospsnap" "$W/s1.ospsnap" > /dev/null 2> "$W/f.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q -- "--keep-going and --merge-rows apply to --merge only" "$W/f.err" ||
  { osp_fail "f: --keep-going with --diff: status $rc"; osp_show "$W/f.err"; }

osp_done

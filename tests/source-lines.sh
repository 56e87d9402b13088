#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/source-lines.sh - sources found from anywhere, and line-accurate annotation (issue 35,
# items 2 and 6; plugin/numbering.cc encode_lines, plugin/metadata.cc, viewer/srctext.c,
# viewer/export-annotate.c; doc/osp.md "Source text").
#
# progs/annotate-lines.c (a hot loop whose block spans comments and an `#if 0' region) is
# compiled under its relative name in $W/build, with $CHECKFLAGS, at every -O level, and run
# with exact paths; everything is viewed from $W/elsewhere.  For each level:
#   1. --annotate shows the source (found through the recorded compilation directory): every
#      STMT line has a path share, no COMMENT or DEAD line has one, no line outside the function
#      bodies has one, and the lines' path shares sum to at most 100% (each printed value rounded).
#   2. --json: each block's stmt_lines lie in its range; the loop's block covers STMT lines and
#      no COMMENT or DEAD line; comp_dir is $W/build.
# Then, on the -O2 build:
#   3. `ospview SNAP -b 1 --screen=paths` shows the hot path's STMT text; with the tree moved it
#      says "annotate-lines.c: not found in $W/build" and shows none of it; --source-dir and
#      --source-map (two spellings) find it; a modified copy is refused with "annotate-lines.c:
#      changed since it was compiled" and none of its text; bad --source-map values are one
#      line, exit 2.
#   4. A view without BLINES/LINES (as written before layout minor 4, the sections dropped)
#      still opens: --annotate spreads a block over its range and still sums to at most 100%;
#      a view whose LINES are out of order is refused in one line.
#   5. Reproducible builds: two compiles of the file give identical objects; with
#      -ffile-prefix-map=DIR=/src, compiles in two different directories give identical
#      objects, the record says comp_dir /src, and --source-map /src=DIR finds the text.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup source-lines

OSPVIEW=$abs_top_builddir/viewer/ospview
SRC=$abs_top_srcdir
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }
command -v python3 > /dev/null 2>&1 || { echo "SKIP: python3 is needed to read the views"; exit 77; }
osp_need_build

mkdir -p "$W/build" "$W/elsewhere" || exit 99
cp "$SRC/tests/progs/annotate-lines.c" "$W/build/" || exit 99
F=$W/build/annotate-lines.c
STMT=$(grep -n '/\* STMT \*/' "$F" | cut -d: -f1 | tr '\n' ' ')
NOSTMT=$(grep -n -e 'COMMENT' -e 'DEAD' -e '^#if 0' -e '^#endif' "$F" | cut -d: -f1 | tr '\n' ' ')
[ -n "$STMT" ] && [ -n "$NOSTMT" ] || { echo "error: no STMT or COMMENT lines in $F"; exit 99; }
echo "statement lines: $STMT; lines without a statement: $NOSTMT"

# check_ann FILE: the listing's line rows; the STMT lines have path shares, the others none, the
# sum is at most 100%, and the source text is there.
cat > "$W/check_ann.py" << 'EOF'
import re, sys
out = open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n")
stmt = set(map(int, sys.argv[2].split()))
nostmt = set(map(int, sys.argv[3].split()))
text = sys.argv[4] == "1"
rows, bad = {}, []
for l in out:
    m = re.match(r"^(..) ([ 0-9.%]{9}) ([ 0-9.%]{9}) +([0-9]+)(?:-([0-9]+))?(  (.*))?$", l)
    if m:
        for n in range(int(m.group(4)), int(m.group(5) or m.group(4)) + 1):
            rows[n] = (m.group(2).strip(), m.group(3).strip(), m.group(7))
def pct(s):
    return float(s.rstrip("%")) if s else 0.0
for n in sorted(stmt):
    if n not in rows or not pct(rows[n][1]) > 0:
        bad.append("statement line %d has no path share: %r" % (n, rows.get(n)))
    elif text and "STMT" not in (rows[n][2] or ""):
        bad.append("statement line %d without its text: %r" % (n, rows[n]))
for n in sorted(nostmt):
    if n in rows and (rows[n][0] or rows[n][1]):
        bad.append("line %d (a comment or #if 0 code) has a share: %r" % (n, rows[n]))
for col, name in ((0, "subpath"), (1, "path")):
    total = sum(pct(r[col]) for r in rows.values())
    print("%s shares sum to %.2f%% over %d lines" % (name, total, len(rows)))
    if total > 100 + 0.005 * len(rows):
        bad.append("the %s shares sum to %.2f%%, over 100%%" % (name, total))
for b in bad:
    print("annotate: " + b)
sys.exit(1 if bad else 0)
EOF

# check_json JSON: each block's stmt_lines inside its range, ascending; the STMT lines covered,
# the others not; comp_dir as given.
cat > "$W/check_json.py" << 'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
stmt = set(map(int, sys.argv[2].split()))
nostmt = set(map(int, sys.argv[3].split()))
bad, covered = [], set()
for f in d["functions"]:
    if f["file"] != "annotate-lines.c":
        continue
    if f.get("comp_dir") != sys.argv[4]:
        bad.append("%s: comp_dir %r, want %r" % (f["name"], f.get("comp_dir"), sys.argv[4]))
    for b in f["blocks"]:
        sl, lr = b.get("stmt_lines"), b.get("lines")
        if sl is None:
            bad.append("%s block %d: no stmt_lines" % (f["name"], b["block"]))
            continue
        if sl != sorted(set(sl)) or (sl and (lr is None or sl[0] != lr[0] or sl[-1] != lr[1])):
            bad.append("%s block %d: stmt_lines %r, lines %r" % (f["name"], b["block"], sl, lr))
        covered |= set(sl)
if not stmt <= covered:
    bad.append("statement lines %r in no block" % sorted(stmt - covered))
if covered & nostmt:
    bad.append("lines %r without statements are a block's statement lines" % sorted(covered & nostmt))
for b in bad:
    print("json: " + b)
sys.exit(1 if bad else 0)
EOF

for level in -O0 -O1 -O2 -O3 -Os -Og; do
  b=$W/prog$level
  ( cd "$W/build" && osp_compile "$b" osp_cc $level $CHECKFLAGS annotate-lines.c -o "$b" ) ||
    { osp_fail "$level: build"; continue; }
  osp_exec_with "report=none:paths=exhaustive:snapshot=$b.ospsnap" "$b" "$b" 20000
  [ "$osp_rc" -eq 0 ] && [ -f "$b.ospsnap" ] ||
    { osp_fail "$level: no snapshot (status $osp_rc)"; osp_show "$b.err"; continue; }
  ( cd "$W/elsewhere" && "$OSPVIEW" --annotate "$b.ospsnap" ) > "$b.ann" 2> "$b.ann.err" ||
    { osp_fail "$level: --annotate: status $?"; osp_show "$b.ann.err"; continue; }
  python3 "$W/check_ann.py" "$b.ann" "$STMT" "$NOSTMT" 1 ||
    { osp_fail "$level: --annotate (above)"; osp_show "$b.ann"; }
  "$OSPVIEW" --json "$b.ospsnap" > "$b.json" 2> "$b.json.err" &&
    python3 "$W/check_json.py" "$b.json" "$STMT" "$NOSTMT" "$W/build" ||
    { osp_fail "$level: --json (above)"; osp_show "$b.json.err"; }
done

# --- 3. finding the source ----------------------------------------------------------------------
SNAP=$W/prog-O2.ospsnap
[ -f "$SNAP" ] || { osp_fail "no -O2 snapshot: the rest is skipped"; osp_done; }
stmt_text=$(grep -m1 '/\* STMT \*/' "$F" | sed 's/^ *//')
# paths_screen NAME ARGS...: ospview ARGS SNAP -b 1 --screen=paths from $W/elsewhere into NAME.out
paths_screen ()
{
  n=$1
  shift
  ( cd "$W/elsewhere" && "$OSPVIEW" "$@" "$SNAP" -b 1 --screen=paths ) > "$W/$n.out" 2> "$W/$n.err" ||
    { osp_fail "-b 1 --screen=paths $*: status $?"; osp_show "$W/$n.err"; return 1; }
}
paths_screen here && { grep -q -F -e "$stmt_text" "$W/here.out" ||
  { osp_fail "-b 1 --screen=paths from another directory: no source text"; osp_show "$W/here.out"; }; }

mv "$W/build" "$W/moved" || exit 99
paths_screen gone && {
  grep -q -F -e "annotate-lines.c: not found in $W/build" "$W/gone.out" ||
    { osp_fail "the tree moved: no 'not found in $W/build'"; osp_show "$W/gone.out"; }
  grep -q -F -e "$stmt_text" "$W/gone.out" && osp_fail "the tree moved: source text shown"; }
for opt in "--source-dir=$W/moved" "--source-map=$W/build=$W/moved" "--source-map=$W/build/=$W/moved"; do
  paths_screen found "$opt" && { grep -q -F -e "$stmt_text" "$W/found.out" ||
    { osp_fail "$opt: no source text"; osp_show "$W/found.out"; }; }
done
# --source-dir wins over the recorded place, but only with the bytes compiled
mkdir -p "$W/edited" && sed 's/STMT/EDITED/' "$W/moved/annotate-lines.c" > "$W/edited/annotate-lines.c" || exit 99
paths_screen edited "--source-dir=$W/edited" && {
  grep -q -F -e "annotate-lines.c: changed since it was compiled" "$W/edited.out" ||
    { osp_fail "an edited copy: no 'changed since it was compiled'"; osp_show "$W/edited.out"; }
  grep -q EDITED "$W/edited.out" && osp_fail "an edited copy's text is shown"; }
( cd "$W/elsewhere" && "$OSPVIEW" "--source-dir=$W/edited" --annotate "$SNAP" ) > "$W/edited.ann" 2>&1
grep -q '^(annotate-lines.c: changed since it was compiled; only the covered lines are listed)$' \
  "$W/edited.ann" || { osp_fail "--annotate of an edited copy"; osp_show "$W/edited.ann"; }
grep -q EDITED "$W/edited.ann" && osp_fail "--annotate shows an edited copy's text"
for bad in "--source-map=nothing" "--source-map==/x" "--source-map=/x=" "--source-dir="; do
  "$OSPVIEW" "$bad" "$SNAP" -b 1 > /dev/null 2> "$W/bad.err"
  rc=$?
  [ "$rc" -eq 2 ] && [ "$(wc -l < "$W/bad.err")" -eq 1 ] ||
    osp_fail "$bad: status $rc, stderr: $(cat "$W/bad.err")"
done
mv "$W/moved" "$W/build" || exit 99

# --- 4. older and broken views ------------------------------------------------------------------
# IN's view without BLINES and LINES (as layout minor 3 wrote it), and with the first block of
# three or more lines having them out of order (progs/snapedit.py recomputes the checksums).
python3 "$SRC/tests/progs/snapedit.py" "$SNAP" "$W/old.ospsnap" drop BLINES drop LINES minor 3 &&
python3 "$SRC/tests/progs/snapedit.py" "$SNAP" "$W/swap.ospsnap" swap-lines ||
  { echo "error: snapedit.py failed"; exit 99; }
( cd "$W/elsewhere" && "$OSPVIEW" --annotate "$W/old.ospsnap" ) > "$W/old.ann" 2> "$W/old.err" ||
  { osp_fail "--annotate of a view without statement lines: status $?"; osp_show "$W/old.err"; }
grep -q 'line range: this view has no statement lines' "$W/old.ann" ||
  osp_fail "--annotate of a view without statement lines does not say so"
python3 "$W/check_ann.py" "$W/old.ann" "$STMT" "" 1 ||
  { osp_fail "--annotate of a view without statement lines (above)"; osp_show "$W/old.ann"; }
"$OSPVIEW" --json "$W/old.ospsnap" | python3 -c '
import json, sys
d = json.load(sys.stdin)
sys.exit(0 if all(b["stmt_lines"] is None for f in d["functions"] for b in f["blocks"]) else 1)
' || osp_fail "--json of a view without statement lines: stmt_lines not null"
"$OSPVIEW" --json "$W/swap.ospsnap" > /dev/null 2> "$W/swap.err"
rc=$?
[ "$rc" -eq 1 ] && [ "$(wc -l < "$W/swap.err")" -eq 1 ] && grep -q 'lines are not ascending' "$W/swap.err" ||
  osp_fail "a view with lines out of order: status $rc, stderr: $(cat "$W/swap.err")"

# --- 5. reproducible builds ---------------------------------------------------------------------
( cd "$W/build" && osp_cc -O2 -c annotate-lines.c -o "$W/r1.o" && osp_cc -O2 -c annotate-lines.c -o "$W/r2.o" ) ||
  { osp_fail "reproducibility: compile"; osp_done; }
cmp -s "$W/r1.o" "$W/r2.o" || osp_fail "two compiles of one file differ"
mkdir -p "$W/other" && cp "$F" "$W/other/" || exit 99
for d in build other; do
  ( cd "$W/$d" && osp_cc -O2 -g -ffile-prefix-map="$W/$d=/src" -c annotate-lines.c -o "$W/m-$d.o" &&
      osp_cc -ffile-prefix-map="$W/$d=/src" annotate-lines.c -o "$W/m-$d" ) ||
    { osp_fail "reproducibility: compile in $d"; osp_done; }
done
cmp -s "$W/m-build.o" "$W/m-other.o" ||
  osp_fail "compiles in two directories with -ffile-prefix-map differ"
grep -q -F -e "$W" "$W/m-build.o" && osp_fail "the object names $W despite -ffile-prefix-map"
osp_exec_with "report=none:snapshot=$W/m.ospsnap" "$W/m" "$W/m-build" 1000
"$OSPVIEW" --json "$W/m.ospsnap" > "$W/m.json" && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if {f.get("comp_dir") for f in d["functions"]} == {"/src"} else 1)
' "$W/m.json" || osp_fail "-ffile-prefix-map: comp_dir is not /src"
( cd "$W/elsewhere" && "$OSPVIEW" --source-map=/src="$W/build" --annotate "$W/m.ospsnap" ) > "$W/m.ann" 2>&1
grep -q -F -e "$stmt_text" "$W/m.ann" || { osp_fail "--source-map=/src=...: no source text"; osp_show "$W/m.ann"; }

osp_done

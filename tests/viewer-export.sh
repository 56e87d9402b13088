#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/viewer-export.sh - ospview --json, --dot=FUNCTION and --annotate[=FILE] (viewer/export.c).
#
# progs/export-loop.c, built with the plugin from a copy of its source under a relative file
# name, runs with paths=exhaustive and writes a snapshot at exit; then:
#   1. --json parses (python3), says what the batch screens say (number of functions, the
#      hottest subpath's text, every path's estimate and share), the hottest path is in work()
#      and covers the HOT line, path ids are distinct per function, the run and the stats agree;
#      a command-line argument with quotes, a backslash, control characters and a byte that is
#      not UTF-8 comes out as valid, correctly escaped JSON.
#   2. --dot=work renders with `dot -Tsvg` (when graphviz is installed), every edge of the
#      hottest path is drawn wider than every other edge, penwidth = 1 + 8 share / max share;
#      work@export-loop.c picks it too; an unknown function is one stderr line naming close
#      ones, exit 1.
#   3. --annotate (run where the relative source path resolves) lists the source with the HOT
#      line marked ">>", the largest path shares and all the marks on the hot loop's lines, no
#      line over 100% and their sum at most 100% (the lines' parts of the paths' work), the
#      COLD line unmarked but with a share,
#      uncovered lines blank; --annotate=FILE by base name; an unknown FILE is one line, exit 1;
#      run from another directory it finds the source in the recorded compilation directory;
#      with the tree moved it lists only the covered lines and says "export-loop.c: not found
#      in ...", and finds it again with --source-dir or --source-map.
#   4. A damaged, a truncated and a missing snapshot, segment files with a bad checksum, torn or
#      without a view: one stderr line, exit 1, for each export.
#   5. A view without an EDGES section (progs/viewer-writer.c's segment file, read with
#      --segment): --dot draws the edges seen in paths and says so; --json has edges null.
#   6. A live process (-p PID): the three exports work on its segment the same way.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup viewer-export

OSPVIEW=$abs_top_builddir/viewer/ospview
SRC=$abs_top_srcdir
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }
command -v python3 > /dev/null 2>&1 || { echo "SKIP: python3 is needed to check the JSON"; exit 77; }
osp_need_build
ME=$(id -u)

# --- helpers -----------------------------------------------------------------------------------

# one_line_error LABEL FILE.err STATUS: exit status 1 and exactly one stderr line "ospview: ...".
one_line_error ()
{
  if [ "$3" -ne 1 ] || [ "$(wc -l < "$2")" -ne 1 ] || ! grep -q '^ospview: ' "$2"; then
    osp_fail "$1: status $3 (want 1), stderr: $(cat "$2")"
    return 1
  fi
  return 0
}

# segment_ready PID: ospview reads a view from PID's segment.
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

# has_work_path PID: PID's live view has a path row in work() (what section 6 then checks).
has_work_path ()
{
  "$OSPVIEW" -p "$1" -b 1 --screen=paths --top=0 2> /dev/null | grep -q ' work() '
}

# --- the program -------------------------------------------------------------------------------
mkdir -p "$W/src" "$W/elsewhere" || exit 99
cp "$SRC/tests/progs/export-loop.c" "$W/src/" || exit 99
# compiled under the relative name export-loop.c in $W/src (the recorded compilation directory)
( cd "$W/src" && osp_compile "$W/loop" osp_cc -O1 -g export-loop.c -o "$W/loop" ) ||
  { echo "error: cannot build export-loop.c with the plugin"; exit 99; }
HOT=$(grep -n '/\* HOT \*/' "$W/src/export-loop.c" | cut -d: -f1)
COLD=$(grep -n '/\* COLD \*/' "$W/src/export-loop.c" | cut -d: -f1)
LOOP=$(grep -n 'for (unsigned i = 0; i < n; i++)' "$W/src/export-loop.c" | cut -d: -f1)
[ -n "$HOT" ] && [ -n "$COLD" ] && [ -n "$LOOP" ] ||
  { echo "error: no HOT, COLD or loop line in export-loop.c"; exit 99; }

WEIRD=$(printf 'q"b\\s\tc\001x\377y')
osp_exec_with "report=none:paths=exhaustive:snapshot=$W/x.ospsnap" "$W/run" \
  "$W/loop" 200000 0 "$WEIRD"
[ "$osp_rc" -eq 0 ] && [ -f "$W/x.ospsnap" ] ||
  { osp_show "$W/run.err"; echo "error: the program wrote no snapshot (status $osp_rc)"; exit 99; }
SNAP=$W/x.ospsnap

"$OSPVIEW" -b 1 --top=0 --sort=rank "$SNAP" > "$W/batch.out" 2> "$W/batch.err" ||
  { osp_show "$W/batch.err"; echo "error: ospview -b 1 fails on the snapshot"; exit 99; }

# --- 1. --json ----------------------------------------------------------------------------------
"$OSPVIEW" --json "$SNAP" > "$W/x.json" 2> "$W/json.err"
rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$W/json.err" ] ||
  { osp_fail "--json: status $rc"; osp_show "$W/json.err"; }
python3 -c 'import json,sys; json.load(sys.stdin)' < "$W/x.json" 2> "$W/parse.err" ||
  { osp_fail "--json: not valid JSON"; osp_show "$W/parse.err"; }

# check_json JSON BATCH HOT COLD WEIRD KIND: the document against the batch screens; prints the
# problems, status 1 if there was one.
cat > "$W/check_json.py" << 'EOF'
import json, os, re, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
batch = open(sys.argv[2], encoding="utf-8", errors="replace").read().split("\n")
hot, cold, weird, kind = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
bad = []
def check(ok, what):
    if not ok:
        bad.append(what)

def table(title):
    """the header and rows of the batch table whose title starts with TITLE"""
    for i, l in enumerate(batch):
        if l.startswith(title):
            rows = []
            for r in batch[i + 2:]:
                if r == "":
                    break
                rows.append(r)
            return l, batch[i + 1], rows
    return None, "", []

check(doc.get("format") == "ospview-json" and doc.get("format_version") == 1, "format")
check(doc["view"]["major"] == 1 and doc["view"]["has_edges"] is True, "view: %r" % doc["view"])
run = doc["run"]
check(run["program"].endswith("/loop"), "run.program %r" % run["program"])
check("paths=exhaustive" in run["options"], "run.options %r" % run["options"])
check(run["mode"] == "subpaths" and run["paths"] == "exhaustive", "run.mode/paths")
check(run["path_ends"] > 0 and run["blocks_seen"] > 0, "run totals")
check(isinstance(run["pid"], int) and run["pid"] > 0, "run.pid")
check(doc["source"]["kind"] == kind, "source.kind %r" % doc["source"]["kind"])
if kind == "snapshot":
    check(run["exited"] is True and "at_exit" in doc["source"]["flags"], "exited / at_exit")
    # the argument's bytes: \377 is not UTF-8 and must have become U+FFFD
    want = os.fsencode(weird).decode("utf-8", errors="replace")
    check(run["args"].endswith(want), "run.args %r does not end with %r" % (run["args"], want))

fns = doc["functions"]
title, hdr, rows = table("functions (")
m = re.match(r"functions \((\d+) of (\d+)\)", title or "")
check(m is not None and int(m.group(2)) == len(fns), "%d functions, batch says %r" % (len(fns), title))
names = [f["name"] for f in fns]
check("work" in names and "cold" in names, "functions %r" % names)
for i, f in enumerate(fns):
    check(f["index"] == i, "function index")
    for b in f["blocks"]:
        check(b["lines"] is None or (len(b["lines"]) == 2 and b["lines"][0] <= b["lines"][1]),
              "block lines %r" % b)
    check(isinstance(f["edges"], list) and len(f["edges"]) > 0, "%s: no edges" % f["name"])
    for e in f["edges"]:
        check(e["to"] == "exit" or 0 <= e["to"] < len(f["blocks"]), "edge %r" % e)
        check(set(e["flags"]) <= {"back", "abnormal", "eh", "fallthru", "true", "false"},
              "edge flags %r" % e)
work = fns[names.index("work")]
check(any("back" in e["flags"] for e in work["edges"]), "work(): no back edge")

def covers(blocks, line):
    for fi, bn in blocks:
        l = fns[fi]["blocks"][bn]["lines"]
        if l and l[0] <= line <= l[1]:
            return True
    return False

# subpaths: the hottest one's text is the batch's first row's path column
title, hdr, rows = table("hottest subpaths")
check(len(doc["subpaths"]) > 0 and rows, "no subpaths")
if doc["subpaths"] and rows:
    # (the batch's first row may be the head of a fold, a longer subpath than the view's first:
    # it is the subpath of its rank, its path text without the fold's mark)
    text = rows[0][hdr.index("path"):]
    for mark in ("[+] ", "[-] ", "  - "):
        if text.startswith(mark):
            text = text[len(mark):]
    rank = rows[0].split()[0]
    same = [s for s in doc["subpaths"]
            if (str(s["rank"]) == rank and s["ranked"]) or (rank == "-" and not s["ranked"]
                                                             and s["text"] == text)]
    check(len(same) >= 1 and same[0]["text"] == text,
          "batch's first subpath %r (rank %s), json %r" % (text, rank, [s["text"] for s in same]))
    check(doc["subpaths"][0]["rank"] == 1, "subpath rank")
# paths: each estimate and share as the batch prints them; the hottest in work() over HOT
title, hdr, rows = table("hottest Ball-Larus paths")
paths = doc["paths"]
check(len(paths) == len(rows) and len(paths) >= 3, "%d paths, batch %d" % (len(paths), len(rows)))
for p, r in zip(paths, rows):
    col = r.split()
    check(int(col[0]) == p["rank"], "path rank %r vs %r" % (p["rank"], r))
    check("%.0f" % p["estimate"] == col[1], "path estimate %r vs %r" % (p["estimate"], r))
    check("%.2f%%" % (100 * p["share"]) in r, "path share %r vs %r" % (p["share"], r))
    check(p["text"] == r[hdr.index("path"):] or "..." in r, "path text %r vs %r" % (p["text"], r))
    check(all(fi == p["function"] for fi, bn in p["blocks"]), "path blocks of another function")
ids = [(p["function"], p["id"]) for p in paths]
check(len(set(ids)) == len(ids), "path ids repeat: %r" % ids)
if paths:
    top = paths[0]
    check(fns[top["function"]]["name"] == "work", "hottest path not in work()")
    check(covers(top["blocks"], hot) and not covers(top["blocks"], cold),
          "hottest path does not cover line %d only: %r" % (hot, top["blocks"]))
    check(top["share"] > 0.8, "hottest path's share %r" % top["share"])
# forest: parents before children, depth = parent's + 1
for i, n in enumerate(doc["forest"]):
    if n["parent"] is None:
        check(n["depth"] == 0, "forest root depth")
    else:
        check(n["parent"] < i and n["depth"] == doc["forest"][n["parent"]]["depth"] + 1,
              "forest node %d" % i)
st = doc["stats"]
check(isinstance(st, dict) and len(st) > 0, "no stats")
if "functions" in st:
    check(st["functions"] == len(fns), "stats.functions %r" % st["functions"])
for b in bad:
    print("json: " + b)
sys.exit(1 if bad else 0)
EOF
python3 "$W/check_json.py" "$W/x.json" "$W/batch.out" "$HOT" "$COLD" "$WEIRD" snapshot ||
  osp_fail "--json: the contents (above)"

# --- 2. --dot -----------------------------------------------------------------------------------
"$OSPVIEW" --dot=work "$SNAP" > "$W/work.dot" 2> "$W/dot.err"
rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$W/dot.err" ] || { osp_fail "--dot=work: status $rc"; osp_show "$W/dot.err"; }
if command -v dot > /dev/null 2>&1; then
  dot -Tsvg "$W/work.dot" > "$W/work.svg" 2> "$W/svg.err" && [ ! -s "$W/svg.err" ] ||
    { osp_fail "dot -Tsvg does not take the graph silently"; osp_show "$W/svg.err"; }
else
  echo "note: graphviz (dot) is not installed: the DOT output is not rendered"
fi

# check_dot DOT JSON: the hottest path's edges are wider than all others (but the one it ends by).
cat > "$W/check_dot.py" << 'EOF'
import json, re, sys
dot = open(sys.argv[1], encoding="utf-8").read()
doc = json.load(open(sys.argv[2], encoding="utf-8"))
bad = []
edges = {}
share = {}
for m in re.finditer(r"^\s*(\w+) -> (\w+) \[penwidth=([0-9.]+).*osp_paths=\"([0-9.]+)\"", dot, re.M):
    edges[(m.group(1), m.group(2))] = float(m.group(3))
    share[(m.group(1), m.group(2))] = float(m.group(4))
# penwidth = 1 + 8 share / the largest share (of the Ball-Larus paths)
top_share = max(share.values()) if share else 0
for e, w in edges.items():
    if top_share > 0 and abs(w - (1 + 8 * share[e] / top_share)) > 0.02:
        bad.append("edge %r: penwidth %.2f for share %.4f of at most %.4f" % (e, w, share[e], top_share))
top = doc["paths"][0]
blocks = ["b%d" % bn for fi, bn in top["blocks"]]
hot = set(zip(blocks, blocks[1:]))
if not hot or not hot <= set(edges):
    bad.append("the hottest path's edges %r are not all in the graph %r" % (sorted(hot), sorted(edges)))
elif len(edges) <= len(hot):
    bad.append("no edges besides the hottest path's")
else:
    coolest_hot = min(edges[e] for e in hot)
    # (the edge out of the path's last block is credited to it too: the path ends by taking it)
    hottest_other = max(w for e, w in edges.items() if e not in hot and e[0] != blocks[-1])
    if not coolest_hot > hottest_other:
        bad.append("a hot-path edge has penwidth %.2f, another edge %.2f" % (coolest_hot, hottest_other))
if not re.search(r'^digraph "work" \{', dot, re.M) or "label=" not in dot:
    bad.append("not a digraph named work with a label")
if not re.search(r"style=dashed", dot):
    bad.append("no dashed back edge")
if not re.search(r"^\s*ENTRY -> b0 ", dot, re.M) or not re.search(r"-> EXIT ", dot):
    bad.append("no ENTRY or EXIT edges")
for b in bad:
    print("dot: " + b)
sys.exit(1 if bad else 0)
EOF
python3 "$W/check_dot.py" "$W/work.dot" "$W/x.json" || osp_fail "--dot=work: the graph (above)"

"$OSPVIEW" --dot=work@export-loop.c "$SNAP" > "$W/work2.dot" 2> "$W/dot2.err" &&
  cmp -s "$W/work.dot" "$W/work2.dot" || osp_fail "--dot=work@export-loop.c differs from --dot=work"
"$OSPVIEW" --dot=nosuch "$SNAP" > "$W/nosuch.out" 2> "$W/nosuch.err"
one_line_error "--dot=nosuch" "$W/nosuch.err" $? &&
  { grep -q "no function 'nosuch'.*work" "$W/nosuch.err" ||
      osp_fail "--dot=nosuch does not name the function and suggest others: $(cat "$W/nosuch.err")"; }
[ -s "$W/nosuch.out" ] && osp_fail "--dot=nosuch writes to stdout"
"$OSPVIEW" --dot=wrok "$SNAP" > /dev/null 2> "$W/wrok.err"
one_line_error "--dot=wrok" "$W/wrok.err" $? &&
  { grep -q ": work" "$W/wrok.err" || osp_fail "--dot=wrok does not suggest work first: $(cat "$W/wrok.err")"; }

# --- 3. --annotate ------------------------------------------------------------------------------
# check_ann FILE HOT COLD FOUND LOOP: the listing's line rows ("GG SUBPATHS PATHS LINE  TEXT"):
# the hot loop's lines (LOOP..HOT) hold the largest path shares and all the ">>" marks.
cat > "$W/check_ann.py" << 'EOF'
import re, sys
lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n")
hot, cold, found, loop = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1", int(sys.argv[5])
bad = []
rows = {}
for l in lines:
    m = re.match(r"^(..) ([ 0-9.%]{9}) ([ 0-9.%]{9}) +([0-9]+)(?:-([0-9]+))?(  (.*))?$", l)
    if m:
        first = int(m.group(4)); last = int(m.group(5) or first)
        for n in range(first, last + 1):
            rows[n] = (m.group(1), m.group(2).strip(), m.group(3).strip(), m.group(7))
def pct(s):
    return float(s.rstrip("%")) if s else 0.0
if hot not in rows:
    bad.append("no row for the HOT line %d" % hot)
else:
    g, sub, path, text = rows[hot]
    if g != ">>":
        bad.append("the HOT line is not marked: %r" % (rows[hot],))
    top = max(pct(r[2]) for r in rows.values())
    tops = [n for n, r in rows.items() if pct(r[2]) == top]
    marked = [n for n, r in rows.items() if r[0] == ">>"]
    if not all(loop <= n <= hot for n in tops + marked):
        bad.append("lines %r have the largest path share, %r are marked: not only the hot "
                   "loop's lines %d-%d" % (tops, marked, loop, hot))
    if cold in rows and not pct(path) > pct(rows[cold][2]):
        bad.append("the HOT line's path share %s is not above the COLD line's" % path)
    if found and (text is None or "1103515245u" not in text):
        bad.append("the HOT line's source text is missing: %r" % (rows[hot],))
    if not found and text:
        bad.append("source text without the source: %r" % (rows[hot],))
over = [n for n, r in rows.items() if pct(r[2]) > 100.005]
if over:
    bad.append("lines %r have path shares over 100%% (a path counted twice?)" % over)
# the lines' parts of the paths' work: at most 100% in all (each printed rounded to 0.01)
total = sum(pct(r[2]) for r in rows.values())
if total > 100 + 0.005 * len(rows):
    bad.append("the path shares of the lines sum to %.2f%%, over 100%%" % total)
if cold in rows and rows[cold][0] == ">>":
    bad.append("the COLD line is marked: %r" % (rows[cold],))
if cold not in rows or not rows[cold][2]:
    bad.append("the COLD line has no path share")
if found:
    if 1 not in rows or rows[1][1] or rows[1][2] or not rows[1][3].startswith("/*"):
        bad.append("line 1 is not a blank-share row with its text: %r" % (rows.get(1),))
else:
    if 1 in rows:
        bad.append("line 1 (not covered) listed without the source")
    if not any(l.startswith("(export-loop.c: not found in ") for l in lines):
        bad.append("no note that the source was not found")
for b in bad:
    print("annotate: " + b)
sys.exit(1 if bad else 0)
EOF
( cd "$W/src" && "$OSPVIEW" --annotate "$SNAP" ) > "$W/ann.out" 2> "$W/ann.err"
rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$W/ann.err" ] || { osp_fail "--annotate: status $rc"; osp_show "$W/ann.err"; }
python3 "$W/check_ann.py" "$W/ann.out" "$HOT" "$COLD" 1 "$LOOP" || { osp_fail "--annotate (above)"; osp_show "$W/ann.out"; }
grep -q '^==== export-loop.c (.*work().*) ====$' "$W/ann.out" || osp_fail "--annotate: no file header"
( cd "$W/src" && "$OSPVIEW" --annotate=src/export-loop.c "$SNAP" ) > "$W/ann1.out" 2>&1 &&
  cmp -s "$W/ann.out" "$W/ann1.out" || osp_fail "--annotate=src/export-loop.c differs from --annotate"
"$OSPVIEW" --annotate=nosuch.c "$SNAP" > /dev/null 2> "$W/annx.err"
one_line_error "--annotate=nosuch.c" "$W/annx.err" $? &&
  { grep -q "nosuch.c.*export-loop.c" "$W/annx.err" ||
      osp_fail "--annotate=nosuch.c does not list the view's files: $(cat "$W/annx.err")"; }
# from another directory: the recorded compilation directory finds it
( cd "$W/elsewhere" && "$OSPVIEW" --annotate "$SNAP" ) > "$W/ann2.out" 2> "$W/ann2.err"
rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$W/ann2.err" ] || { osp_fail "--annotate elsewhere: status $rc"; osp_show "$W/ann2.err"; }
python3 "$W/check_ann.py" "$W/ann2.out" "$HOT" "$COLD" 1 "$LOOP" ||
  { osp_fail "--annotate from another directory (above)"; osp_show "$W/ann2.out"; }
# the tree moved: not found where it was compiled, found with --source-dir or --source-map
mv "$W/src" "$W/moved" || exit 99
( cd "$W/elsewhere" && "$OSPVIEW" --annotate "$SNAP" ) > "$W/ann3.out" 2> "$W/ann3.err"
rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$W/ann3.err" ] || { osp_fail "--annotate, no source: status $rc"; osp_show "$W/ann3.err"; }
python3 "$W/check_ann.py" "$W/ann3.out" "$HOT" "$COLD" 0 "$LOOP" ||
  { osp_fail "--annotate without the source (above)"; osp_show "$W/ann3.out"; }
for opt in "--source-dir=$W/moved" "--source-map=$W/src=$W/moved" "--source-map=$W/src/=$W/moved/"; do
  ( cd "$W/elsewhere" && "$OSPVIEW" "$opt" --annotate "$SNAP" ) > "$W/ann4.out" 2> "$W/ann4.err" &&
    python3 "$W/check_ann.py" "$W/ann4.out" "$HOT" "$COLD" 1 "$LOOP" ||
    { osp_fail "--annotate $opt (above)"; osp_show "$W/ann4.err"; osp_show "$W/ann4.out"; }
done
mv "$W/moved" "$W/src" || exit 99

# --- 4. bad input -------------------------------------------------------------------------------
cp "$SNAP" "$W/bad.ospsnap" && size=$(wc -c < "$SNAP") &&
  printf '\125\252\125\252' | dd of="$W/bad.ospsnap" bs=1 seek=$((size / 2)) conv=notrunc 2> /dev/null ||
  exit 99
head -c $((size - 100)) "$SNAP" > "$W/short.ospsnap" || exit 99
for f in bad short missing; do
  for x in --json --dot=work --annotate; do
    "$OSPVIEW" $x "$W/$f.ospsnap" > "$W/bad.out" 2> "$W/bad.err"
    one_line_error "$x on the $f snapshot" "$W/bad.err" $?
    [ -s "$W/bad.out" ] && osp_fail "$x on the $f snapshot: output on stdout"
  done
done

# segment files with a damaged view (progs/viewer-writer.c), read with --segment
osp_compile "$W/writer" plain_cc -std=c11 -O1 -g -Wall -Wextra -I"$SRC/libosprt/format" \
  "$SRC/tests/progs/viewer-writer.c" "$SRC"/libosprt/format/*.c -o "$W/writer" ||
  { echo "error: cannot build the test writer"; exit 99; }
for d in bad-crc torn unpublished; do
  "$W/writer" segment "$W/seg.$d" "$d" > /dev/null 2>&1 || { echo "error: viewer-writer segment $d failed"; exit 99; }
  for x in --json --dot=work --annotate; do
    "$OSPVIEW" --segment "$W/seg.$d" $x > "$W/bad.out" 2> "$W/bad.err"
    one_line_error "$x on a segment ($d)" "$W/bad.err" $?
    [ -s "$W/bad.out" ] && osp_fail "$x on a segment ($d): output on stdout"
  done
done

# --- 5. a view without EDGES, through --segment -----------------------------------------------------
"$W/writer" segment "$W/seg" > /dev/null 2>&1 || { echo "error: viewer-writer segment failed"; exit 99; }
"$OSPVIEW" --segment "$W/seg" --dot=work > "$W/seg.dot" 2> "$W/seg.err" ||
  { osp_fail "--segment --dot=work: status $?"; osp_show "$W/seg.err"; }
grep -q 'no EDGES section.*only the edges seen in paths' "$W/seg.dot" ||
  osp_fail "--dot on a view without EDGES does not say so"
grep -q '^  b1 -> b2 \[penwidth=' "$W/seg.dot" || osp_fail "--dot without EDGES: no edge b1 -> b2 from the paths"
if command -v dot > /dev/null 2>&1; then
  dot -Tsvg "$W/seg.dot" > /dev/null 2>&1 || osp_fail "dot -Tsvg refuses the graph without EDGES"
fi
"$OSPVIEW" --segment "$W/seg" --json > "$W/seg.json" 2> "$W/seg.err" ||
  osp_fail "--segment --json: status $?"
python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["view"]["has_edges"] is False and all(f["edges"] is None for f in d["functions"])
assert d["source"]["kind"] == "live"
' < "$W/seg.json" || osp_fail "--json without EDGES: want has_edges false and edges null"

# --- 6. a live process ------------------------------------------------------------------------------
# (until the stop file exists: the ospview calls below must all find it running, however long a
# loaded machine makes them take)
OSP_OPTIONS=report=none:paths=exhaustive "$W/loop" 200000 "$(osp_seconds 60)" "$W/live.stop" \
  > "$W/live.out" 2> "$W/live.err" &
lpid=$!
if ! wait_segment "$lpid"; then
  osp_fail "the live program published no segment"
  touch "$W/live.stop"
  wait "$lpid"
  osp_show "$W/live.err"
  osp_done
fi
osp_wait_until 10 has_work_path "$lpid"
"$OSPVIEW" -p "$lpid" --json > "$W/l.json" 2> "$W/l.err" || { osp_fail "-p --json: status $?"; osp_show "$W/l.err"; }
python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["source"]["kind"] == "live" and d["run"]["pid"] == int(sys.argv[1])
assert d["paths"] and [f["name"] for f in d["functions"]].count("work") == 1
' "$lpid" < "$W/l.json" || osp_fail "-p --json: not the live process's view"
"$OSPVIEW" -p "$lpid" --dot=work > "$W/l.dot" 2> "$W/l.err" &&
  python3 "$W/check_dot.py" "$W/l.dot" "$W/l.json" ||
  { osp_fail "-p --dot=work"; osp_show "$W/l.err"; }
( cd "$W/src" && "$OSPVIEW" -p "$lpid" --annotate ) > "$W/l.ann" 2> "$W/l.err" &&
  python3 "$W/check_ann.py" "$W/l.ann" "$HOT" "$COLD" 1 "$LOOP" ||
  { osp_fail "-p --annotate"; osp_show "$W/l.err"; }
touch "$W/live.stop"
wait "$lpid"

osp_done

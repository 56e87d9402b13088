#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/viewer-pprof.sh - ospview --pprof=FILE and --folded[=work] (viewer/export-pprof.c,
# viewer/export-folded.c, viewer/pbwrite.c), read by decoders that are not osp's.
#
# progs/export-loop.c runs with paths=exhaustive (exact paths, sampled subpaths and forest)
# and writes a snapshot at exit; its command line carries a quote, a tab, \001 and a byte that
# is not UTF-8.  Then:
#   1. --pprof: gunzip (python3's gzip) and `protoc --decode=perftools.profiles.Profile` with
#      progs/profile.proto (pprof's published schema) read it - proto3 strings must be valid
#      UTF-8, so the hostile argument is checked too; check_pprof.py compares the decoded
#      profile with --json and the batch screens of the same snapshot: sample types, default,
#      period, times, comments, the mapping, every function and location (name, file, line),
#      every sample's blocks root first (location_id leaf first), values, labels (profile,
#      length, value exact/estimate and the 95% errors, rank, depth, path_id); the batch
#      titles' totals, the paths' and forest's estimates and function names.  --pprof=- writes
#      the same bytes to stdout; --screen=paths exports only the paths.
#   2. pprof itself (`pprof -top`, `pprof -traces`), when it is on PATH or can be built from
#      Debian's golang-go and golang-github-google-pprof-dev without the network (else a note):
#      the hot function on top of the exact paths, the traces' path values the exported ones.
#   3. --folded and --folded=work: check_pprof.py compares every line (profile, frames
#      `function (file:line)` root first, the count) with --json and the batch screens; fed to
#      flamegraph.pl when it is installed (Debian has no package of it: a note otherwise).
#   4. A live process (-p PID): --pprof and --folded from its segment decode and check alike.
#   5. Bad input: an output file in a missing directory and one that is a directory, a
#      damaged, a truncated and a missing snapshot, bad option values: one stderr line, the
#      right exit status, no file left behind, no crash.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup viewer-pprof

OSPVIEW=$abs_top_builddir/viewer/ospview
SRC=$abs_top_srcdir
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }
command -v python3 > /dev/null 2>&1 || { echo "SKIP: python3 is needed for the checks"; exit 77; }
command -v protoc > /dev/null 2>&1 ||
  { echo "SKIP: protoc is needed to decode the profile (Debian: protobuf-compiler)"; exit 77; }
osp_need_build
ME=$(id -u)
CHECK=$SRC/tests/check_pprof.py
PROTO_DIR=$SRC/tests/progs

# decode IN.pb.gz OUT.txt: gunzip with python3, decode with protoc; status 1 with the messages.
decode ()
{
  python3 -c 'import gzip, sys; sys.stdout.buffer.write(gzip.open(sys.argv[1]).read())' "$1" \
    > "$2.pb" 2> "$2.err" &&
    protoc --proto_path="$PROTO_DIR" --decode=perftools.profiles.Profile profile.proto \
      < "$2.pb" > "$2" 2>> "$2.err"
}

# one_line_error LABEL FILE.err STATUS WANT: exit status WANT and one stderr line "ospview: ...".
one_line_error ()
{
  if [ "$3" -ne "$4" ] || [ "$(wc -l < "$2")" -ne 1 ] || ! grep -q '^ospview: ' "$2"; then
    osp_fail "$1: status $3 (want $4), stderr: $(cat "$2")"
  fi
}

# --- the program -------------------------------------------------------------------------------
mkdir -p "$W/src" || exit 99
cp "$SRC/tests/progs/export-loop.c" "$W/src/" || exit 99
( cd "$W/src" && osp_compile "$W/loop" osp_cc -O1 -g export-loop.c -o "$W/loop" ) ||
  { echo "error: cannot build export-loop.c with the plugin"; exit 99; }
WEIRD=$(printf 'q"b\\s\tc\001x\377y')
osp_exec_with "report=none:paths=exhaustive:snapshot=$W/x.ospsnap" "$W/run" \
  "$W/loop" 200000 0 "$WEIRD"
[ "$osp_rc" -eq 0 ] && [ -f "$W/x.ospsnap" ] ||
  { osp_show "$W/run.err"; echo "error: the program wrote no snapshot (status $osp_rc)"; exit 99; }
SNAP=$W/x.ospsnap
"$OSPVIEW" -b 1 --top=0 --sort=rank "$SNAP" > "$W/batch.out" 2> "$W/batch.err" &&
  "$OSPVIEW" --json "$SNAP" > "$W/x.json" 2>> "$W/batch.err" ||
  { osp_show "$W/batch.err"; echo "error: ospview -b 1 or --json fails on the snapshot"; exit 99; }

# --- 1. --pprof, decoded by protoc ---------------------------------------------------------------
"$OSPVIEW" "$SNAP" --pprof="$W/x.pb.gz" > "$W/pprof.out" 2> "$W/pprof.err"
rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$W/pprof.err" ] && [ ! -s "$W/pprof.out" ] && [ -s "$W/x.pb.gz" ] ||
  { osp_fail "--pprof: status $rc, or output on stdout/stderr, or no file"; osp_show "$W/pprof.err"; }
if decode "$W/x.pb.gz" "$W/x.txt"; then
  python3 "$CHECK" pprof "$W/x.txt" "$W/x.json" "$W/batch.out" subpaths,paths,forest ||
    osp_fail "--pprof: the decoded profile differs from --json / the batch screens"
else
  osp_fail "--pprof: gunzip or protoc --decode refuses the file"
  osp_show "$W/x.txt.err"
fi
"$OSPVIEW" "$SNAP" --pprof=- > "$W/stdout.pb.gz" 2> "$W/pprof.err" &&
  cmp -s "$W/stdout.pb.gz" "$W/x.pb.gz" || osp_fail "--pprof=- differs from --pprof=FILE"
"$OSPVIEW" "$SNAP" --screen=paths --pprof="$W/paths.pb.gz" 2> "$W/pprof.err" &&
  decode "$W/paths.pb.gz" "$W/paths.txt" &&
  python3 "$CHECK" pprof "$W/paths.txt" "$W/x.json" "$W/batch.out" paths ||
  { osp_fail "--screen=paths --pprof: not the paths alone"; osp_show "$W/pprof.err"; }

# --- 2. pprof itself -----------------------------------------------------------------------------
# pprof_tool: pprof on PATH, else one built from Debian's Go sources (GOPATH mode, no network),
# kept in the build tree for the next run.  Prints its path, or nothing.
pprof_tool ()
{
  if command -v pprof > /dev/null 2>&1; then
    command -v pprof
    return
  fi
  bin=$abs_top_builddir/tests/pprof-go
  gosrc=/usr/share/gocode
  if [ ! -x "$bin" ] && command -v go > /dev/null 2>&1 &&
     [ -d "$gosrc/src/github.com/google/pprof" ]; then
    GOPATH=$gosrc GO111MODULE=off GOFLAGS= GOPROXY=off GOCACHE=$W/gocache \
      nice go build -o "$bin" github.com/google/pprof > "$W/go.log" 2>&1 ||
      { echo "note: building pprof failed:" >&2; head -n 5 "$W/go.log" >&2; rm -f "$bin"; }
  fi
  [ -x "$bin" ] && echo "$bin"
}
PPROF=$(pprof_tool)
if [ -n "$PPROF" ]; then
  # The exact paths only: the sampled subpaths of this short run (a few hundred samples)
  # include long ones whose estimates carry errors larger than themselves, and pprof adds every
  # row's work to its leaf function, so a single sample of 512 blocks that ends in cold() once
  # put cold() on top of the sum of all three profiles (a clean-clone CI run).
  "$PPROF" -top -tagfocus=profile=^paths\$ "$W/x.pb.gz" > "$W/top.txt" 2> "$W/top.err" ||
    { osp_fail "pprof -top refuses the file"; osp_show "$W/top.err"; }
  # the first function row (after the "flat flat% ..." header) is work(), the hot loop
  awk '/flat%/ { getline; print $NF; exit }' "$W/top.txt" | grep -qx work ||
    { osp_fail "pprof -top: work is not the top function"; osp_show "$W/top.txt"; }
  grep -q "^osp profile of $W/loop" "$W/top.txt" || osp_fail "pprof -top: no comment naming the program"
  "$PPROF" -traces -lines -sample_index=executions -tagfocus=profile=^paths\$ "$W/x.pb.gz" \
    > "$W/traces.txt" 2> "$W/traces.err" ||
    { osp_fail "pprof -traces refuses the file"; osp_show "$W/traces.err"; }
  # each trace: labels, then "VALUE frame" and more frames (leaf first); the values are the
  # paths' executions, as many traces as paths (pprof merges none: their labels differ)
  python3 - "$W/traces.txt" "$W/x.json" << 'EOF' || osp_fail "pprof -traces: not the exported paths"
import json, re, sys
doc = json.load(open(sys.argv[2]))
vals = sorted(int(m.group(1)) for m in re.finditer(r"^ +(\d+) +\S", open(sys.argv[1]).read(), re.M))
want = sorted(int(p["estimate"] + 0.5) for p in doc["paths"])
assert vals == want, (vals, want)
assert "work export-loop.c:" in open(sys.argv[1]).read()
EOF
  echo "ok: pprof -top and -traces read the profile ($PPROF)"
else
  echo "note: no pprof (not on PATH; Debian's golang-go and golang-github-google-pprof-dev build one); pprof -top and -traces not run"
fi

# --- 3. --folded -------------------------------------------------------------------------------
for kind in execs work; do
  arg=--folded
  [ "$kind" = work ] && arg=--folded=work
  "$OSPVIEW" "$SNAP" "$arg" > "$W/$kind.folded" 2> "$W/folded.err"
  rc=$?
  [ "$rc" -eq 0 ] && [ ! -s "$W/folded.err" ] ||
    { osp_fail "$arg: status $rc"; osp_show "$W/folded.err"; }
  python3 "$CHECK" folded "$W/$kind.folded" "$W/x.json" "$W/batch.out" subpaths,paths,forest \
    "$kind" || osp_fail "$arg: lines differ from --json / the batch screens"
done
"$OSPVIEW" "$SNAP" --folded=execs | cmp -s - "$W/execs.folded" || osp_fail "--folded=execs is not --folded"
"$OSPVIEW" "$SNAP" --folded --screen=forest > "$W/forest.folded" 2> "$W/folded.err" &&
  python3 "$CHECK" folded "$W/forest.folded" "$W/x.json" "$W/batch.out" forest execs ||
  osp_fail "--folded --screen=forest: not the forest alone"
FLAMEGRAPH=$(command -v flamegraph.pl || command -v flamegraph || true)
if [ -n "$FLAMEGRAPH" ]; then
  "$FLAMEGRAPH" "$W/execs.folded" > "$W/flame.svg" 2> "$W/flame.err" &&
    grep -q '<svg' "$W/flame.svg" && grep -q 'work (export-loop.c:' "$W/flame.svg" ||
    { osp_fail "$FLAMEGRAPH refuses the folded stacks"; osp_show "$W/flame.err"; }
else
  echo "note: no flamegraph.pl (Debian packages none); the folded lines are checked by format only"
fi

# --- 4. a live process ---------------------------------------------------------------------------
segment_ready ()
{
  [ -f "/dev/shm/osp-$ME-$1" ] &&
    "$OSPVIEW" -p "$1" -b 1 --screen=paths --top=0 2> /dev/null | grep -q ' work() '
}
OSP_OPTIONS=report=none:paths=exhaustive "$W/loop" 200000 "$(osp_seconds 60)" "$W/live.stop" \
  > "$W/live.out" 2> "$W/live.err" &
lpid=$!
if osp_wait_until 10 segment_ready "$lpid"; then
  "$OSPVIEW" -p "$lpid" --pprof="$W/live.pb.gz" 2> "$W/live-pprof.err" &&
    decode "$W/live.pb.gz" "$W/live.txt" ||
    { osp_fail "-p --pprof: status or decoding"; osp_show "$W/live-pprof.err"; }
  grep -q "\"pid: $lpid\"" "$W/live.txt" || osp_fail "-p --pprof: no comment with the live pid"
  grep -q '"live segment ' "$W/live.txt" || grep -q '"source: live segment ' "$W/live.txt" ||
    osp_fail "-p --pprof: the source comment does not say live"
  grep -q '^sample {' "$W/live.txt" || osp_fail "-p --pprof: no samples"
  "$OSPVIEW" -p "$lpid" --folded --screen=paths > "$W/live.folded" 2> "$W/live-folded.err" &&
    grep -q '^paths;.*work (export-loop.c:[0-9]*) [0-9][0-9]*$' "$W/live.folded" ||
    { osp_fail "-p --folded: no path line in work()"; osp_show "$W/live-folded.err"; }
else
  osp_fail "the live program published no segment with a path in work()"
  osp_show "$W/live.err"
fi
touch "$W/live.stop"
wait "$lpid"

# --- 5. bad input --------------------------------------------------------------------------------
"$OSPVIEW" "$SNAP" --pprof="$W/nodir/x.pb.gz" > /dev/null 2> "$W/e.err"
one_line_error "--pprof into a missing directory" "$W/e.err" $? 1
[ ! -e "$W/nodir" ] || osp_fail "--pprof into a missing directory made something"
mkdir "$W/adir" || exit 99
"$OSPVIEW" "$SNAP" --pprof="$W/adir" > /dev/null 2> "$W/e.err"
one_line_error "--pprof onto a directory" "$W/e.err" $? 1
[ -z "$(ls -A "$W/adir")" ] || osp_fail "--pprof onto a directory left a file in it"
ls "$W" | grep -q '^\.\?x\.pb\.gz\..' && osp_fail "a temporary file was left behind"
# a damaged view (a byte of the middle flipped), a truncated and a missing snapshot
size=$(wc -c < "$SNAP")
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[len(b) // 2] ^= 0x55; open(sys.argv[2], "wb").write(b)' \
  "$SNAP" "$W/bad.ospsnap" || exit 99
head -c $((size / 3)) "$SNAP" > "$W/short.ospsnap" || exit 99
for f in bad short missing; do
  "$OSPVIEW" "$W/$f.ospsnap" --pprof="$W/$f.pb.gz" > /dev/null 2> "$W/e.err"
  one_line_error "--pprof on a $f snapshot" "$W/e.err" $? 1
  [ ! -e "$W/$f.pb.gz" ] || osp_fail "--pprof on a $f snapshot wrote a file"
  "$OSPVIEW" "$W/$f.ospsnap" --folded > "$W/e.out" 2> "$W/e.err"
  one_line_error "--folded on a $f snapshot" "$W/e.err" $? 1
  [ ! -s "$W/e.out" ] || osp_fail "--folded on a $f snapshot wrote lines"
done
"$OSPVIEW" "$SNAP" --folded=bogus > /dev/null 2> "$W/e.err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l < "$W/e.err")" -eq 1 ] && grep -q 'folded=bogus' "$W/e.err" ||
  osp_fail "--folded=bogus: status $rc, $(cat "$W/e.err")"
"$OSPVIEW" "$SNAP" --pprof= > /dev/null 2> "$W/e.err"
[ $? -eq 2 ] && [ "$(wc -l < "$W/e.err")" -eq 1 ] || osp_fail "--pprof= (empty): $(cat "$W/e.err")"
"$OSPVIEW" "$SNAP" --pprof="$W/y.pb.gz" --json > /dev/null 2> "$W/e.err"
[ $? -eq 2 ] && grep -q 'give one of them' "$W/e.err" || osp_fail "--pprof with --json: $(cat "$W/e.err")"

osp_done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/safety-viewer.sh - ospview on hostile snapshot files that pass every checksum (issue 32,
# doc/osp.md "Safety": reading snapshots and segments).  progs/viewer-hostile.c writes them
# with the viewer's own view builder, so every CRC is right and only the contents attack.
#
#   1. Indices: a block numbered past its function's blocks (merge once wrote out of bounds
#      with it) and a block outside its function's range are refused by `ospview FILE`,
#      `--merge` and `--diff` alike, with one line naming the block (view.c checks it once).
#   2. Caps: a forest deeper than 63 (the runtime's forest_k is at most 64) and a string of
#      more than 4096 bytes are refused with one line; exactly 63 and 4096 are accepted, and
#      --diff of a 64-node chain against a 63-node one matches 63 nodes by content and finds
#      one new (forest keys are chain numbers, view.c caps the depth).  The 20,000-node
#      chain and the 1 MB name of the issue are refused at once (a generous time limit:
#      this checks behaviour, not speed).
#   3. Sanitising: names, the program and arguments holding terminal escapes (clear screen,
#      window title, 8-bit and UTF-8 C1 CSI) and invalid UTF-8 come out of `-b 1`,
#      `--diff -b 1`, --dot, --annotate and error messages without one control byte (C0 but
#      newline, DEL, C1); --json has them escaped.
#   4. Numbers: every estimate, error and share 1.5e308 (finite, but a sum of two is not):
#      `-b 1`, `--diff -b 1`, --dot, --annotate and --json print no inf, nan or number of
#      more than 15 digits, --dot's penwidths are numbers, and --merge of two such files
#      writes a snapshot that opens (sums saturate instead of overflowing).
#   5. A snapshot with no rows and no functions: every screen, export, --diff and --merge
#      answer without a crash.
#   The row exports (--folded, --pprof, viewer-pprof.sh has the rest): the 64-node chain's
#   deepest node is one stack of the 64 nodes' blocks; the escapes come out of --folded clean
#   and of --pprof as valid UTF-8 (protoc decodes it, when installed); the huge numbers give
#   counts an int64 holds (saturated); the empty snapshot exports nothing, and no crash.
#   6. A writer stuck mid-write (a segment whose sequence number stays odd): -b 1 says the
#      segment kept changing, and so do the UI's table and status line (through tmux, when
#      installed), not "no profile published yet".

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup safety-viewer

OSPVIEW=$abs_top_builddir/viewer/ospview
SRC=$abs_top_srcdir
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }
LIMIT=$((OSP_TIMEOUT > 120 ? OSP_TIMEOUT : 120))
# A reader that is not linear any more fails here with "out of memory", not by the OOM killer
# taking the machine (ospview's own needs are a few MB).
ulimit -v 4000000 2> /dev/null

osp_compile "$W/gen" plain_cc -std=c11 -O1 -g -Wall -Wextra -I"$abs_top_builddir" \
  -I"$SRC/viewer" -I"$SRC/libosprt/format" "$SRC/tests/progs/viewer-hostile.c" \
  "$SRC"/libosprt/format/*.c -o "$W/gen" ||
  { echo "error: cannot build progs/viewer-hostile.c"; exit 99; }
gen ()
{
  "$W/gen" "$@" || { echo "error: viewer-hostile $*"; exit 99; }
}

# refused NAME WORDS CMD...: CMD exits 1 with exactly one stderr line containing WORDS.
refused ()
{
  name=$1 words=$2
  shift 2
  timeout "$LIMIT" "$@" > "$W/$name.out" 2> "$W/$name.err"
  rc=$?
  if [ "$rc" -ne 1 ] || [ "$(wc -l < "$W/$name.err")" -ne 1 ] ||
     ! grep -q -F -e "$words" "$W/$name.err"; then
    osp_fail "$name: exit status $rc, stderr '$(head -c 300 "$W/$name.err")' (want 1 and one line with '$words')"
  else
    echo "refused $name: $(cat "$W/$name.err")"
  fi
}

# works NAME CMD...: CMD exits 0 with nothing on stderr.
works ()
{
  name=$1
  shift
  timeout "$LIMIT" "$@" > "$W/$name.out" 2> "$W/$name.err"
  rc=$?
  if [ "$rc" -ne 0 ] || [ -s "$W/$name.err" ]; then
    osp_fail "$name: exit status $rc (want 0), stderr '$(head -c 300 "$W/$name.err")'"
    return 1
  fi
  return 0
}

# --- 1. indices ------------------------------------------------------------------------------
gen good "$W/good.ospsnap"
gen block "$W/block.ospsnap"
gen stray "$W/stray.ospsnap"
refused block "block 1: numbered 1000, but it is block 1 of its function 0" \
  "$OSPVIEW" "$W/block.ospsnap" -b 1
refused block-merge "block 1: numbered 1000" \
  "$OSPVIEW" --allow-same-run --merge "$W/m-block.ospsnap" "$W/block.ospsnap" "$W/block.ospsnap"
[ -e "$W/m-block.ospsnap" ] && osp_fail "--merge of a refused input wrote its output"
refused block-diff "block 1: numbered 1000" \
  "$OSPVIEW" --diff "$W/good.ospsnap" "$W/block.ospsnap" -b 1
refused stray "block 4: of function 0, outside its blocks [0, +3)" \
  "$OSPVIEW" "$W/stray.ospsnap" -b 1
refused stray-merge "outside its blocks" \
  "$OSPVIEW" --merge "$W/m-stray.ospsnap" "$W/good.ospsnap" "$W/stray.ospsnap"

# --- 2. caps: depth and string length ---------------------------------------------------------
gen chain "$W/chain64.ospsnap" 64
gen chain "$W/chain63.ospsnap" 63
gen chain "$W/chain65.ospsnap" 65
gen chain "$W/chain20k.ospsnap" 20000
refused depth "forest node 64: deeper than 63" "$OSPVIEW" "$W/chain65.ospsnap" -b 1
refused depth-20k "forest node 64: deeper than 63" \
  "$OSPVIEW" --diff "$W/chain20k.ospsnap" "$W/chain20k.ospsnap" -b 1
works depth-64 "$OSPVIEW" "$W/chain64.ospsnap" -b 1 --screen=forest --top=0 &&
  { grep -q "prefix forest (64 of 64)" "$W/depth-64.out" ||
      osp_fail "a 64-node chain is not shown whole"; }
if works depth-diff "$OSPVIEW" --diff "$W/chain63.ospsnap" "$W/chain64.ospsnap" -b 1 \
     --screen=forest; then
  grep -q "forest nodes (share of all forest items) diff (63 in both, 0 only in OLD, 1 only in NEW" \
    "$W/depth-diff.out" || { osp_fail "--diff of chains: not matched by content"
                             osp_show "$W/depth-diff.out"; }
fi
# the deepest node's stack: its ancestors' blocks and its own, the root first
if works depth-folded "$OSPVIEW" "$W/chain64.ospsnap" --folded --screen=forest; then
  deep=$(awk '{ n = gsub(/;/, ";"); if (n > m) m = n } END { print m }' "$W/depth-folded.out")
  nodes=$(wc -l < "$W/depth-folded.out")
  # a node's frames: the deepest line's over the first (a root) line's
  root=$(head -n 1 "$W/depth-folded.out" | awk '{ print gsub(/;/, ";") }')
  [ "$nodes" -eq 64 ] && [ "$deep" -eq $((64 * root)) ] ||
    osp_fail "--folded of a 64-node chain: $nodes lines, deepest $deep frames, a root $root"
fi
works depth-pprof "$OSPVIEW" "$W/chain64.ospsnap" --pprof="$W/chain64.pb.gz"
gen longname "$W/name4096.ospsnap" 4096
gen longname "$W/name4097.ospsnap" 4097
gen longname "$W/name1m.ospsnap" 1048576
works name-4096 "$OSPVIEW" "$W/name4096.ospsnap" -b 1
refused name-4097 "STRINGS: a string at offset 57 is longer than 4096 bytes" \
  "$OSPVIEW" "$W/name4097.ospsnap" -b 1
refused name-1m "is longer than 4096 bytes" "$OSPVIEW" "$W/name1m.ospsnap" -b 1
refused name-1m-diff "is longer than 4096 bytes" \
  "$OSPVIEW" --diff "$W/name1m.ospsnap" "$W/name1m.ospsnap" -b 1

# --- 3. sanitising ----------------------------------------------------------------------------
gen escapes "$W/esc.ospsnap"
# clean NAME FILE: FILE holds no control byte but newline (C0, DEL, 8-bit C1, C1 in UTF-8).
clean ()
{
  if LC_ALL=C grep -q -P '[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|(?<![\xc0-\xff])[\x80-\x9f](?![\x80-\xbf])' "$2"; then
    osp_fail "$1: control bytes reach the output"
    LC_ALL=C grep -n -P '[\x00-\x09\x0b-\x1f\x7f]' "$2" | head -n 3 | od -c | head -n 8
  fi
}
if echo x | grep -q -P 'x' 2> /dev/null; then
  works esc-batch "$OSPVIEW" "$W/esc.ospsnap" -b 1 && clean esc-batch "$W/esc-batch.out"
  works esc-diff "$OSPVIEW" --diff "$W/good.ospsnap" "$W/esc.ospsnap" -b 1 &&
    clean esc-diff "$W/esc-diff.out"
  works esc-dot "$OSPVIEW" "$W/esc.ospsnap" --dot=helper && clean esc-dot "$W/esc-dot.out"
  works esc-ann "$OSPVIEW" "$W/esc.ospsnap" --annotate && clean esc-ann "$W/esc-ann.out"
  works esc-json "$OSPVIEW" "$W/esc.ospsnap" --json && clean esc-json "$W/esc-json.out"
  works esc-folded "$OSPVIEW" "$W/esc.ospsnap" --folded && clean esc-folded "$W/esc-folded.out"
  # a message naming a function: --dot of an unknown one lists close names
  "$OSPVIEW" "$W/esc.ospsnap" --dot=wrk > /dev/null 2> "$W/esc-msg.err"
  clean esc-msg "$W/esc-msg.err"
  [ "$(wc -l < "$W/esc-msg.err")" -eq 1 ] || osp_fail "esc-msg: not one line"
  # --fail-above names rows on stderr
  "$OSPVIEW" --diff "$W/good.ospsnap" "$W/esc.ospsnap" -b 1 --fail-above=-1 > /dev/null \
    2> "$W/esc-fail.err"
  clean esc-fail "$W/esc-fail.err"
else
  echo "note: grep -P is missing: the sanitising checks are skipped"
fi

# proto3 strings must be valid UTF-8: protoc refuses the file otherwise
if works esc-pprof "$OSPVIEW" "$W/esc.ospsnap" --pprof="$W/esc.pb.gz" &&
   command -v protoc > /dev/null 2>&1 && command -v python3 > /dev/null 2>&1; then
  python3 -c 'import gzip, sys; sys.stdout.buffer.write(gzip.open(sys.argv[1]).read())' \
    "$W/esc.pb.gz" | protoc --proto_path="$SRC/tests/progs" \
    --decode=perftools.profiles.Profile profile.proto > "$W/esc-pprof.txt" 2>&1 ||
    { osp_fail "--pprof of the escapes: protoc refuses it"; osp_show "$W/esc-pprof.txt"; }
fi

# --- 4. numbers ---------------------------------------------------------------------------------
gen huge "$W/huge.ospsnap"
# numbers NAME FILE: no inf, nan, or run of 16 digits.
numbers ()
{
  if grep -q -i -E 'inf|nan|[0-9]{16}' "$2"; then
    osp_fail "$1: non-finite or 300-digit numbers"
    grep -n -i -E 'inf|nan|[0-9]{16}' "$2" | cut -c1-200 | head -n 5
  fi
}
works huge-batch "$OSPVIEW" "$W/huge.ospsnap" -b 1 && numbers huge-batch "$W/huge-batch.out"
works huge-diff "$OSPVIEW" --diff "$W/good.ospsnap" "$W/huge.ospsnap" -b 1 &&
  numbers huge-diff "$W/huge-diff.out"
works huge-dot "$OSPVIEW" "$W/huge.ospsnap" '--dot=work' && {
  numbers huge-dot "$W/huge-dot.out"
  grep -o 'penwidth=[^,]*' "$W/huge-dot.out" | grep -v -q -E '^penwidth=[0-9]+\.[0-9]+$' &&
    osp_fail "--dot: a penwidth that is not a number: $(grep -o 'penwidth=[^,]*' "$W/huge-dot.out" | sort -u)"
}
works huge-ann "$OSPVIEW" "$W/huge.ospsnap" --annotate && numbers huge-ann "$W/huge-ann.out"
works huge-json "$OSPVIEW" "$W/huge.ospsnap" --json
# counts are integers an int64 holds (1.5e308 saturates at 2^63 - 1)
works huge-folded "$OSPVIEW" "$W/huge.ospsnap" --folded && [ -s "$W/huge-folded.out" ] &&
  awk '$NF !~ /^[0-9]+$/ || length($NF) > 19 || $NF > 9223372036854775807 { bad = 1 }
       END { exit bad }' "$W/huge-folded.out" ||
  osp_fail "--folded of huge numbers: a count that is not an int64"
works huge-pprof "$OSPVIEW" "$W/huge.ospsnap" --pprof="$W/huge.pb.gz"
if works huge-merge "$OSPVIEW" --allow-same-run --merge "$W/huge2.ospsnap" "$W/huge.ospsnap" "$W/huge.ospsnap"
then
  works huge-merged "$OSPVIEW" "$W/huge2.ospsnap" -b 1 && numbers huge-merged "$W/huge-merged.out"
fi

# --- 5. nothing at all ----------------------------------------------------------------------------
gen empty "$W/empty.ospsnap"
works empty-batch "$OSPVIEW" "$W/empty.ospsnap" -b 1
works empty-diff "$OSPVIEW" --diff "$W/empty.ospsnap" "$W/empty.ospsnap" -b 1
works empty-json "$OSPVIEW" "$W/empty.ospsnap" --json
works empty-folded "$OSPVIEW" "$W/empty.ospsnap" --folded &&
  { [ ! -s "$W/empty-folded.out" ] || osp_fail "--folded of an empty snapshot printed lines"; }
works empty-pprof "$OSPVIEW" "$W/empty.ospsnap" --pprof="$W/empty.pb.gz"
"$OSPVIEW" "$W/empty.ospsnap" --annotate > /dev/null 2>&1
[ $? -le 1 ] || osp_fail "--annotate of an empty snapshot crashed"
"$OSPVIEW" "$W/empty.ospsnap" --dot=main > /dev/null 2>&1
[ $? -le 1 ] || osp_fail "--dot of an empty snapshot crashed"
"$OSPVIEW" --allow-same-run --merge "$W/m-empty.ospsnap" "$W/empty.ospsnap" "$W/empty.ospsnap" > /dev/null 2>&1
[ $? -le 1 ] || osp_fail "--merge of empty snapshots crashed"

# --- 6. a writer stuck mid-write: the UI says what -b says -------------------------------------------
# (progs/viewer-writer.c's "torn" segment: its sequence number stays odd.)  -b 1 says the
# segment kept changing; the UI's table must say the same, not "no profile published yet".
if command -v tmux > /dev/null 2>&1; then
  osp_compile "$W/writer" plain_cc -std=c11 -O1 -g -I"$SRC/libosprt/format" \
    "$SRC/tests/progs/viewer-writer.c" "$SRC"/libosprt/format/*.c -o "$W/writer" && "$W/writer" segment "$W/torn.seg" torn ||
    { echo "error: cannot write the torn segment"; exit 99; }
  refused torn-batch "the segment kept changing while being read" \
    "$OSPVIEW" --segment "$W/torn.seg" -b 1
  unset TMUX
  TM="tmux -L osp-safety-viewer-$$ -f /dev/null"
  trap '$TM kill-server > /dev/null 2>&1' EXIT
  $TM new-session -d -s v -x 120 -y 30 "'$OSPVIEW' --segment '$W/torn.seg'; sleep 30" ||
    { echo "error: tmux new-session failed"; exit 99; }
  n=100
  while [ $n -gt 0 ]; do
    $TM capture-pane -p -t v > "$W/torn-ui.txt" 2> /dev/null
    grep -q "^  (" "$W/torn-ui.txt" && break
    sleep 0.2
    n=$((n - 1))
  done
  grep -q "^  (cannot read a view: .*kept changing while being read)" "$W/torn-ui.txt" || {
    osp_fail "the UI's table does not say why there is no view"
    osp_show "$W/torn-ui.txt" "screen"
  }
  if grep -q "no profile published yet" "$W/torn-ui.txt" ||
     ! grep -q "no view: cannot read a view: " "$W/torn-ui.txt"; then
    osp_fail "the UI's status line does not say why there is no view"
    osp_show "$W/torn-ui.txt" "screen"
  fi
  $TM kill-server > /dev/null 2>&1
else
  echo "note: tmux is missing: the UI check of a stuck writer is skipped"
fi

osp_done

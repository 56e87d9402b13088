#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/viewer-fuzz.sh - ospview on broken and hostile input: segments and views must be
# refused with one clear line (exit 1), never crash, never read outside what they were given.
#
#   1. Handmade bad segment files (progs/viewer-writer.c segment FILE DEFECT), each read with
#      `ospview --segment FILE -b 1`: exit 1 and one stderr line with the expected words - bad
#      magic, another major version, the other byte order, truncated, a size that disagrees,
#      buffers outside the object or overlapping, len > cap, a seqlock that never settles, a bad
#      current buffer, an unterminated program name, a header not yet ONLINE; and views: bad
#      magic, major, truncated, bad CRC, unterminated or out-of-range strings, an id past the
#      blocks, an id run past IDS, a forest parent after its child, a wrong depth, a section
#      outside the view, elements smaller than this reader's, two sections of a kind, a stat
#      whose name holds a newline (the message stays one line: names are untrusted).  Accepted as they should be: a good
#      segment, an unknown section kind (skipped), an exit view, nothing published yet.  And a
#      symbolic link, a directory, a missing file.
#   1b. Snapshot files (include/osp/snapshot.h): a good one saved with --save is shown; damaged
#      copies are refused with one line naming the file: bad magic, byte order, major version,
#      header and view checksums, truncated, extended, shorter than a header, empty, a bare view,
#      a directory, a missing file; --save into a missing directory fails with one line.
#   2. Fuzzing viewer/fuzz-view.c (view_parse and every screen of an accepted view, a whole
#      segment through seg_attach_path and seg_read, or a snapshot through snap_parse; and every
#      accepted view saved as a snapshot and put through --json, --dot, --annotate, --diff and
#      --merge, with itself and with the previous one) for $OSP_FUZZ_SECONDS (default 20) s under
#      AddressSanitizer and UBSan: with clang's libFuzzer when clang can link -fsanitize=fuzzer,
#      else with the gcc-built mutator progs/viewer-mutate.c (OSP_FUZZ_ENGINE=mutate forces the
#      mutator).  Seeds: views and segments written by viewer-writer, a snapshot of one, and the
#      hostile snapshots of progs/viewer-hostile.c.  Any sanitizer report, crash, leak or
#      undocumented exit status fails.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup viewer-fuzz

OSPVIEW=$abs_top_builddir/viewer/ospview
SRC=$abs_top_srcdir
SECONDS_FUZZ=${OSP_FUZZ_SECONDS:-20}
# One ospview run on one bad input: a hang is a bug; 20 s scaled (tests/env.sh) only stops it.
VIEW_TMO=$(osp_seconds 20)
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }

osp_compile "$W/writer" plain_cc -std=c11 -O1 -g -Wall -Wextra -I"$SRC/libosprt/format" \
  "$SRC/tests/progs/viewer-writer.c" "$SRC"/libosprt/format/*.c -o "$W/writer" ||
  { echo "error: cannot build the test writer"; exit 99; }

# --- 1. handmade bad segments --------------------------------------------------------------------
# refuse DEFECT WORDS: ospview exits 1 with exactly one stderr line containing WORDS.
refuse ()
{
  f=$W/$1.seg
  "$W/writer" segment "$f" "$1" || { osp_fail "writer: defect $1"; return; }
  timeout "$VIEW_TMO" "$OSPVIEW" --segment "$f" -b 1 > "$W/$1.out" 2> "$W/$1.err"
  rc=$?
  if [ "$rc" -ne 1 ]; then
    osp_fail "defect $1: exit status $rc, want 1"
    osp_show "$W/$1.err" "stderr"
  elif [ "$(wc -l < "$W/$1.err")" -ne 1 ]; then
    osp_fail "defect $1: want one line on stderr"
    osp_show "$W/$1.err" "stderr"
  elif ! grep -q -F -e "$2" "$W/$1.err"; then
    osp_fail "defect $1: message lacks '$2': $(cat "$W/$1.err")"
  else
    echo "refused $1: $(cat "$W/$1.err")"
  fi
}

refuse bad-magic "$W/bad-magic.seg: not an osp segment (bad magic)"
# (the writer keeps include/osp/shm.h's minor: 1 since the `attach' word)
refuse major "layout version 3.1, this ospview reads 2.x"
refuse byte-order "written with the other byte order"
refuse truncated "truncated: 100 bytes, header says"
refuse tiny "not an osp segment (only 5 bytes)"
refuse size "but the header says"
refuse bufoff "view buffer 1 (offset"
refuse bufoff-wrap "lies outside the segment"
refuse overlap "the two view buffers overlap"
refuse len-cap "view length 4097 exceeds the buffer's 4096 bytes"
refuse torn "the segment kept changing while being read"
refuse current "bad current buffer 7"
refuse program "program name not NUL-terminated"
refuse init "still being set up by its process (try again)"
refuse view-magic "bad view: not an osp view (bad magic)"
refuse view-major "bad view: format version 2."
refuse view-size "bad view: truncated:"
refuse bad-crc "bad view: section PATHS: bad CRC"
refuse string-unterminated "function 0: its name (at"
refuse string-range "function 0: its file (at 100000) is not a NUL-terminated string"
refuse index "bad view: IDS[2] = 13, past the 13 blocks"
refuse run "bad view: subpath 1: blocks [1000, +5) not inside the"
refuse parent "bad view: forest node 1: its parent 3 does not come before it"
refuse depth "bad view: forest node 2: depth 5 under a parent at depth 1"
refuse section-outside "bad view: section STATS (offset"
refuse elem-small "bad view: section PATHS: elements of 8 bytes"
refuse two-strings "bad view: two STRINGS sections"
refuse stat-newline "bad view: stat 0 (?"


# accept DEFECT WORDS: exit 0, nothing on stderr, stdout contains WORDS.
accept ()
{
  f=$W/$1.seg
  "$W/writer" segment "$f" "$1" || { osp_fail "writer: $1"; return; }
  timeout "$VIEW_TMO" "$OSPVIEW" --segment "$f" -b 1 > "$W/$1.out" 2> "$W/$1.err"
  rc=$?
  if [ "$rc" -ne 0 ] || [ -s "$W/$1.err" ]; then
    osp_fail "$1: exit status $rc (want 0) or messages"
    osp_show "$W/$1.err" "stderr"
  elif ! grep -q -F -e "$2" "$W/$1.out"; then
    osp_fail "$1: output lacks '$2'"
    osp_show "$W/$1.out" "stdout"
  fi
}
accept ok "hottest subpaths (4 of 4)"
accept unknown-kind "view #3"
accept exited "exited  view #3 (at exit)"
accept unpublished "no profile published yet"
# A writer whose pid is gone without the exit view: said so.
grep -q "exited (died: no exit view)" "$W/ok.out" 2>/dev/null ||
  osp_fail "a segment of a dead pid is not shown as exited"

ln -s "$W/ok.seg" "$W/link.seg"
for f in "$W/link.seg:is a symbolic link (refused)" "$W:not a regular file" \
         "$W/missing.seg:No such file or directory"; do
  path=${f%%:*} want=${f#*:}
  "$OSPVIEW" --segment "$path" -b 1 > /dev/null 2> "$W/path.err"
  rc=$?
  if [ "$rc" -ne 1 ] || ! grep -q -F -e "$want" "$W/path.err"; then
    osp_fail "--segment $path: status $rc, message $(cat "$W/path.err") (want '$want')"
  fi
done

# --- 1b. handmade bad snapshot files -----------------------------------------------------------
# A good snapshot saved from the good segment, then damaged byte by byte (offsets from
# include/osp/snapshot.h: magic 0, byte_order 8, major 12, header_size 16, header_crc32 20,
# view_offset 24, view_size 32, writer 56..87, the view from 88).
"$W/writer" segment "$W/snapok.seg" ok &&
  "$OSPVIEW" --segment "$W/snapok.seg" --save "$W/good.ospsnap" > "$W/save.out" ||
  osp_fail "cannot save a snapshot of a good segment"
grep -q "^saved $W/good.ospsnap" "$W/save.out" || osp_fail "--save did not say where it saved"
"$OSPVIEW" "$W/good.ospsnap" -b 1 > "$W/good.out" 2> "$W/good.err" &&
  grep -q "hottest subpaths (4 of 4)" "$W/good.out" && [ ! -s "$W/good.err" ] ||
  osp_fail "a good snapshot is not shown like its segment"
# A section of a kind this ospview does not know is skipped unchecked, its CRC wrong: the saved
# snapshot's view CRC is still that of the bytes, and the file opens again.
"$OSPVIEW" --segment "$W/unknown-kind.seg" --save "$W/unknown.ospsnap" > /dev/null &&
  "$OSPVIEW" "$W/unknown.ospsnap" -b 1 > "$W/unknown.out" 2> "$W/unknown.err" &&
  grep -q "hottest subpaths" "$W/unknown.out" ||
  osp_fail "a view with an unknown section does not reopen once saved: $(cat "$W/unknown.err")"
# poke FILE OFFSET BYTES...: overwrite bytes (octal escapes for printf) in place.
poke ()
{
  f=$1 off=$2
  shift 2
  printf "$@" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}
# snap_refuse NAME WORDS: `ospview FILE -b 1' exits 1 with one stderr line naming the file
# and containing WORDS.
snap_refuse ()
{
  f=$W/$1.ospsnap
  timeout "$VIEW_TMO" "$OSPVIEW" "$f" -b 1 > "$W/$1.out" 2> "$W/$1.err"
  rc=$?
  if [ "$rc" -ne 1 ] || [ "$(wc -l < "$W/$1.err")" -ne 1 ] ||
     ! grep -q -F -e "$f: $2" "$W/$1.err"; then
    osp_fail "snapshot $1: status $rc, stderr '$(cat "$W/$1.err")' (want 1, '$f: $2')"
  else
    echo "refused snapshot $1: $(cat "$W/$1.err")"
  fi
}
size=$(wc -c < "$W/good.ospsnap")
cp "$W/good.ospsnap" "$W/s-magic.ospsnap" && poke "$W/s-magic.ospsnap" 0 'X'
snap_refuse s-magic "not an osp snapshot (bad magic number)"
cp "$W/good.ospsnap" "$W/s-order.ospsnap" && poke "$W/s-order.ospsnap" 8 '\001\002\003\004'
snap_refuse s-order "written with another byte order"
cp "$W/good.ospsnap" "$W/s-major.ospsnap" && poke "$W/s-major.ospsnap" 12 '\002'
snap_refuse s-major "format version 2."
cp "$W/good.ospsnap" "$W/s-hcrc.ospsnap" && poke "$W/s-hcrc.ospsnap" 60 'Z'
snap_refuse s-hcrc "header checksum mismatch (corrupted)"
cp "$W/good.ospsnap" "$W/s-vcrc.ospsnap" && poke "$W/s-vcrc.ospsnap" $((size - 3)) '\377'
snap_refuse s-vcrc "view checksum mismatch (corrupted)"
head -c $((size - 100)) "$W/good.ospsnap" > "$W/s-short.ospsnap"
snap_refuse s-short "truncated or extended"
cp "$W/good.ospsnap" "$W/s-long.ospsnap" && printf 'x' >> "$W/s-long.ospsnap"
snap_refuse s-long "truncated or extended"
head -c 40 "$W/good.ospsnap" > "$W/s-header.ospsnap"
snap_refuse s-header "truncated: 40 bytes, shorter than the"
: > "$W/s-empty.ospsnap"
snap_refuse s-empty "not an osp snapshot"
"$W/writer" view "$W/s-view.ospsnap" full
snap_refuse s-view "not an osp snapshot"
mkdir -p "$W/s-dir.ospsnap"
snap_refuse s-dir "not a regular file"
snap_refuse s-missing "No such file or directory"
# Saving into a directory that does not exist: one line, exit 1, nothing left behind.
"$OSPVIEW" --segment "$W/snapok.seg" --save "$W/nodir/x.ospsnap" > /dev/null 2> "$W/nodir.err"
rc=$?
[ "$rc" -eq 1 ] && [ "$(wc -l < "$W/nodir.err")" -eq 1 ] &&
  grep -q "cannot write $W/nodir/x.ospsnap: No such file or directory" "$W/nodir.err" ||
  osp_fail "--save into a missing directory: status $rc, '$(cat "$W/nodir.err")'"

# --- 2. fuzzing -----------------------------------------------------------------------------------
"$W/writer" view "$W/seed-full.view" full && "$W/writer" view "$W/seed-exact.view" exact &&
  "$W/writer" view "$W/seed-empty.view" empty && "$W/writer" segment "$W/seed-ok.seg" &&
  "$W/writer" segment "$W/seed-exited.seg" exited &&
  "$W/writer" segment "$W/seed-unpublished.seg" unpublished &&
  "$OSPVIEW" --segment "$W/seed-ok.seg" --save "$W/seed.ospsnap" > /dev/null ||
  { echo "error: cannot write the seeds"; exit 99; }
SEEDS="$W/seed-full.view $W/seed-exact.view $W/seed-empty.view $W/seed-ok.seg $W/seed-exited.seg $W/seed-unpublished.seg $W/seed.ospsnap"
# Hostile snapshots with every checksum right (progs/viewer-hostile.c, as tests/safety-viewer.sh):
# a block numbered past its function, a deep chain, escapes in names, huge numbers, no rows,
# rows of no blocks.
osp_compile "$W/hostile" plain_cc -std=c11 -O1 -g -Wall -Wextra -I"$abs_top_builddir" \
  -I"$SRC/viewer" -I"$SRC/libosprt/format" "$SRC/tests/progs/viewer-hostile.c" \
  "$SRC"/libosprt/format/*.c -o "$W/hostile" ||
  { echo "error: cannot build progs/viewer-hostile.c"; exit 99; }
for k in good block huge escapes empty zerolen; do
  "$W/hostile" "$k" "$W/seed-$k.ospsnap" || { echo "error: cannot write the $k seed"; exit 99; }
  SEEDS="$SEEDS $W/seed-$k.ospsnap"
done
"$W/hostile" chain "$W/seed-chain.ospsnap" 40 || { echo "error: cannot write the chain seed"; exit 99; }
SEEDS="$SEEDS $W/seed-chain.ospsnap"

FUZZ_SOURCES="$SRC/viewer/fuzz-view.c $SRC/viewer/screens.c $SRC/viewer/status.c $SRC/viewer/segment.c $SRC/viewer/snapshot.c $SRC/viewer/source.c $SRC/viewer/text.c $SRC/viewer/srctext.c $SRC/viewer/export.c $SRC/viewer/export-json.c $SRC/viewer/export-dot.c $SRC/viewer/export-annotate.c $SRC/viewer/export-pprof.c $SRC/viewer/export-folded.c $SRC/viewer/pbwrite.c $SRC/viewer/diff.c $SRC/viewer/recent.c $SRC/viewer/merge.c $SRC/libosprt/sha256.c $SRC/libosprt/format/*.c"
FUZZ_INC="-I$abs_top_builddir -I$SRC/include -I$SRC/viewer -I$SRC/libosprt -I$SRC/libosprt/format"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -DREAD_PAUSE_NS=0"
# The segment inputs go through a scratch file: on tmpfs when there is one (several times
# faster than most build directories' file systems).
OSPVIEW_FUZZ_FILE=$(mktemp /dev/shm/ospview-fuzz.XXXXXX 2> /dev/null) ||
  OSPVIEW_FUZZ_FILE=$W/fuzz-input.seg
export OSPVIEW_FUZZ_FILE
trap 'rm -f "$OSPVIEW_FUZZ_FILE" "$OSPVIEW_FUZZ_FILE".*.ospsnap' EXIT
export ASAN_OPTIONS=abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

use_libfuzzer=no
if [ "${OSP_FUZZ_ENGINE:-}" != mutate ] && command -v clang > /dev/null 2>&1; then
  printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void) d; (void) n; return 0; }\n' \
    > "$W/probe.c"
  if clang -fsanitize=fuzzer "$W/probe.c" -o "$W/probe" > /dev/null 2>&1; then
    use_libfuzzer=yes
  fi
fi

if [ "$use_libfuzzer" = yes ]; then
  echo "fuzzing with libFuzzer (clang) for $SECONDS_FUZZ s"
  # shellcheck disable=SC2086
  osp_compile "$W/fuzz" clang -g -O1 -std=c11 -fsanitize=fuzzer $SAN $FUZZ_INC $FUZZ_SOURCES \
    -o "$W/fuzz" -lm || { osp_fail "cannot build the libFuzzer target"; osp_done; }
  mkdir -p "$W/corpus"
  # shellcheck disable=SC2086
  cp $SEEDS "$W/corpus/"
  (cd "$W" && timeout $((SECONDS_FUZZ + $(osp_seconds 120))) ./fuzz -max_total_time="$SECONDS_FUZZ" \
     -max_len=16384 -rss_limit_mb=2048 corpus > fuzz.log 2>&1)
  rc=$?
  tail -n 3 "$W/fuzz.log"
  if [ "$rc" -ne 0 ] || ! grep -q "^Done [0-9]* runs" "$W/fuzz.log"; then
    osp_fail "libFuzzer found a problem (exit status $rc); crash input in $W"
    grep -E -A 20 "ERROR|runtime error|fuzz-view:" "$W/fuzz.log" | head -n 40
  fi
else
  echo "fuzzing with the gcc mutator (progs/viewer-mutate.c) for $SECONDS_FUZZ s"
  # shellcheck disable=SC2086
  osp_compile "$W/mutate" $CC -g -O1 -std=c11 -Wall -Wextra $SAN $FUZZ_INC $FUZZ_SOURCES \
    "$SRC/tests/progs/viewer-mutate.c" -o "$W/mutate" -lm ||
    { osp_fail "cannot build the mutator (gcc -fsanitize=address,undefined)"; osp_done; }
  # shellcheck disable=SC2086
  (cd "$W" && MUTATE_CRASH="$W/mutate-crash.bin" timeout $((SECONDS_FUZZ + $(osp_seconds 120))) \
     ./mutate "$SECONDS_FUZZ" $SEEDS > mutate.log 2>&1)
  rc=$?
  tail -n 2 "$W/mutate.log"
  if [ "$rc" -ne 0 ] || ! grep -q "views accepted [1-9]" "$W/mutate.log"; then
    osp_fail "the mutator found a problem (exit status $rc); input in $W/mutate-crash.bin"
    grep -E -A 20 "ERROR|runtime error|fuzz-view:" "$W/mutate.log" | head -n 40
  fi
fi

osp_done

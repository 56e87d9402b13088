#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/source-text.sh - ospview shows a source file's text only when it is the file that was
# compiled (issue 32; viewer/srctext.c, plugin/metadata.cc, doc/osp.md "Safety").
#
# progs/source-check.c (a hot loop) and progs/source-check.h (an inline function it calls) are
# built with the plugin from a copy under relative names; the run writes a snapshot at exit.
#   1. The plugin's record: --json gives each function's file_size and file_sha256, equal to
#      wc -c and sha256sum of source-check.c (work, main) and source-check.h (header_mix), and
#      the compile's directory as comp_dir.
#   2. --annotate from the source directory lists both files with their text (the HOT and
#      HEADER lines); after source-check.c is edited (one byte appended) it says "source-check.c:
#      changed since it was compiled", shows none of its text, and still shows the unchanged
#      header.
#   3. Crafted snapshots (rewritten below with the checksums fixed, so they load): one whose
#      functions name another file ($W/secret, readable, with more lines than the source) keeping
#      the recorded digest; one that also gives the secret file's size; one naming /etc/shadow
#      (the issue's case: shows nothing of it even as root) - annotate prints none of those
#      files' lines and says "changed since it was compiled".  A view without digests (FNSRC
#      dropped, as an older view) shows no text of the unchanged file either.  A snapshot naming
#      a FIFO does not even open it (a writer blocked on it stays blocked): opening a device can
#      have effects of its own.  A view whose FNSRC has one element too few is refused in one
#      line.
#   4. The TUI's detail pane (tmux; this part is skipped without tmux), on the subpaths through
#      work(): the snapshot shows the HOT line's text; the crafted one naming $W/secret shows
#      "changed since it was compiled" and none of the secret's text.
#   5. --merge keeps the digests (a snapshot merged with itself, --allow-same-run: the same
#      file_sha256), and
#      refuses, in one line, an input whose digest for a function differs.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup source-text

OSPVIEW=$abs_top_builddir/viewer/ospview
SRC=$abs_top_srcdir
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }
command -v python3 > /dev/null 2>&1 || { echo "SKIP: python3 is needed to read and craft views"; exit 77; }
command -v sha256sum > /dev/null 2>&1 || { echo "SKIP: sha256sum is needed"; exit 77; }
osp_need_build

mkdir -p "$W/src" || exit 99
cp "$SRC/tests/progs/source-check.c" "$SRC/tests/progs/source-check.h" "$W/src/" || exit 99
( cd "$W/src" && osp_compile "$W/prog" osp_cc -O0 -g source-check.c -o "$W/prog" ) ||
  { echo "error: cannot build source-check.c with the plugin"; exit 99; }
osp_exec_with "report=none:paths=exhaustive:snapshot=$W/x.ospsnap" "$W/run" "$W/prog" 100000
[ "$osp_rc" -eq 0 ] && [ -f "$W/x.ospsnap" ] ||
  { osp_show "$W/run.err"; echo "error: the program wrote no snapshot (status $osp_rc)"; exit 99; }
SNAP=$W/x.ospsnap
HOT=$(grep -n '/\* HOT \*/' "$W/src/source-check.c" | cut -d: -f1)
HEADER=$(grep -n '/\* HEADER \*/' "$W/src/source-check.h" | cut -d: -f1)

# --- 1. what the plugin recorded ----------------------------------------------------------------
"$OSPVIEW" --json "$SNAP" > "$W/x.json" 2> "$W/json.err" || { osp_show "$W/json.err"; exit 99; }
for f in source-check.c source-check.h; do
  want="$(wc -c < "$W/src/$f" | tr -d ' ') $(sha256sum "$W/src/$f" | cut -d' ' -f1)"
  got=$(F=$f python3 -c '
import json, os, sys
d = json.load(open(sys.argv[1]))
fs = [x for x in d["functions"] if x["file"] == os.environ["F"]]
print(len(fs), " ".join(sorted({"%s %s %s" % (x.get("file_size"), x.get("file_sha256"), x.get("comp_dir")) for x in fs})))
' "$W/x.json")
  echo "$f: recorded $got; on disk $want"
  case $got in
    "0 "*) osp_fail "$f: no function of it in the view" ;;
    *" $want $W/src") ;;
    *) osp_fail "$f: recorded '$got', want size and sha256 '$want' and directory $W/src" ;;
  esac
done
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = {x["name"]: x["file"] for x in d["functions"]}
sys.exit(0 if n.get("header_mix") == "source-check.h" and n.get("work") == "source-check.c" else 1)
' "$W/x.json" || osp_fail "header_mix is not of source-check.h or work not of source-check.c"

# --- crafting views -----------------------------------------------------------------------------
# craft IN OUT EDIT...: IN's view with progs/snapedit.py's EDITs (every function of file OLD
# naming NEW instead, its recorded size or digest set to PATH's, without FNSRC as a view of minor
# 1, or with one element too few), laid out again with every CRC recomputed (so the view loads,
# or is refused for what was changed).
craft () { python3 "$SRC/tests/progs/snapedit.py" "$@"; }

# no_text_of FILE OUT LABEL: no line of FILE (of 4 or more characters) is in OUT.  (On a failure
# the OUT files are kept in $W: remove them, they may hold that text.)
no_text_of ()
{
  python3 -c '
import sys
src = open(sys.argv[1], "rb").read().split(b"\n")
out = open(sys.argv[2], "rb").read()
bad = [i + 1 for i, l in enumerate(src) if len(l.strip()) >= 4 and l in out]
if bad:  # line numbers only: never copy a file that is not the source into the log
    print("%s: %d lines shown, e.g. line %d" % (sys.argv[1], len(bad), bad[0]))
sys.exit(1 if bad else 0)
' "$1" "$2" || osp_fail "$3: text of $1 is shown"
}

# --- 2. annotate: the file compiled, then edited ------------------------------------------------
( cd "$W/src" && "$OSPVIEW" --annotate "$SNAP" ) > "$W/ann.out" 2> "$W/ann.err" ||
  { osp_fail "--annotate: status $?"; osp_show "$W/ann.err"; }
hot_text=$(sed -n "${HOT}p" "$W/src/source-check.c")
# what ospview says instead of a file's text (viewer/srctext.c)
NOSRC='changed since it was compiled|not found in|no checksum recorded'
header_text=$(sed -n "${HEADER}p" "$W/src/source-check.h")
grep -q -F -e "$hot_text" "$W/ann.out" || osp_fail "--annotate: the HOT line's text is not shown"
grep -q -F -e "$header_text" "$W/ann.out" || osp_fail "--annotate: the header's HEADER line is not shown"
grep -q -E "$NOSRC" "$W/ann.out" &&
  { osp_fail "--annotate of the unchanged sources says the source is not shown"; osp_show "$W/ann.out"; }

cp "$W/src/source-check.c" "$W/orig.c" && echo '/* edited */' >> "$W/src/source-check.c" || exit 99
( cd "$W/src" && "$OSPVIEW" --annotate "$SNAP" ) > "$W/ann-ed.out" 2> "$W/ann-ed.err" ||
  { osp_fail "--annotate, edited: status $?"; osp_show "$W/ann-ed.err"; }
grep -q '^(source-check.c: changed since it was compiled; ' "$W/ann-ed.out" ||
  { osp_fail "--annotate of an edited file does not say 'source-check.c: changed since it was compiled'"; osp_show "$W/ann-ed.out"; }
no_text_of "$W/src/source-check.c" "$W/ann-ed.out" "--annotate, edited source-check.c"
grep -q -F -e "$header_text" "$W/ann-ed.out" || osp_fail "--annotate, edited .c: the unchanged header's text is not shown"
cp "$W/orig.c" "$W/src/source-check.c" || exit 99

# --- 3. crafted views ---------------------------------------------------------------------------
# a readable file that is not the source: more lines than it, so every covered line has text
awk 'BEGIN { for (i = 1; i <= 60; i++) printf "SECRET-%d-do-not-print\n", i }' > "$W/secret"
craft "$SNAP" "$W/secret.ospsnap" file source-check.c "$W/secret" &&
craft "$SNAP" "$W/secret-size.ospsnap" file source-check.c "$W/secret" \
  size-of "$W/secret" &&
craft "$SNAP" "$W/shadow.ospsnap" file source-check.c /etc/shadow &&
craft "$SNAP" "$W/old.ospsnap" drop FNSRC minor 1 || { echo "error: snapedit.py failed"; exit 99; }
for c in secret secret-size shadow old; do
  ( cd "$W/src" && "$OSPVIEW" --annotate "$W/$c.ospsnap" ) > "$W/ann-$c.out" 2> "$W/ann-$c.err" ||
    { osp_fail "--annotate $c.ospsnap: status $?"; osp_show "$W/ann-$c.err"; continue; }
  case $c in old) want='source-check.c: no checksum recorded' ;; *) want='changed since it was compiled' ;; esac
  grep -q "$want" "$W/ann-$c.out" ||
    osp_fail "--annotate $c.ospsnap does not say '$want'"
done
no_text_of "$W/secret" "$W/ann-secret.out" "--annotate of a view naming another file"
no_text_of "$W/secret" "$W/ann-secret-size.out" "--annotate of a view naming another file of its size"
if [ -r /etc/shadow ]; then
  no_text_of /etc/shadow "$W/ann-shadow.out" "--annotate of a view naming /etc/shadow (as uid $(id -u))"
else
  echo "note: /etc/shadow is not readable here (uid $(id -u)): the secret-file cases stand for it"
fi
grep -q '^==== /etc/shadow ' "$W/ann-shadow.out" || osp_fail "--annotate shadow.ospsnap: no /etc/shadow listing"
rm -f "$W/ann-shadow.out" # kept files must never hold /etc/shadow (on a failure of this code)
# a FIFO is never opened (nor would a device be): a writer blocked in opening it stays blocked
mkfifo "$W/fifo" || exit 99
( exec 3> "$W/fifo"; echo opened > "$W/fifo-opened" ) &
wpid=$!
craft "$SNAP" "$W/fifo.ospsnap" file source-check.c "$W/fifo" || exit 99
( cd "$W/src" && "$OSPVIEW" --annotate "$W/fifo.ospsnap" ) > "$W/ann-fifo.out" 2> "$W/ann-fifo.err" ||
  { osp_fail "--annotate fifo.ospsnap: status $?"; osp_show "$W/ann-fifo.err"; }
grep -q "fifo: not found in $W" "$W/ann-fifo.out" ||
  osp_fail "--annotate fifo.ospsnap does not say 'fifo: not found in $W'"
sleep 1
[ -e "$W/fifo-opened" ] && osp_fail "--annotate opened a FIFO that a snapshot names"
kill "$wpid" 2> /dev/null
wait "$wpid" 2> /dev/null
no_text_of "$W/src/source-check.c" "$W/ann-old.out" "--annotate of a view without digests"
no_text_of "$W/src/source-check.h" "$W/ann-old.out" "--annotate of a view without digests"

# FNSRC must have one element per function: else the view is refused, in one line
craft "$SNAP" "$W/short.ospsnap" short FNSRC || exit 99
"$OSPVIEW" --json "$W/short.ospsnap" > /dev/null 2> "$W/short.err"
rc=$?
if [ "$rc" -ne 1 ] || [ "$(wc -l < "$W/short.err")" -ne 1 ] || ! grep -q 'FNSRC has' "$W/short.err"; then
  osp_fail "a view with FNSRC shorter than FUNCS: status $rc, stderr: $(cat "$W/short.err")"
fi

# --- 4. the TUI's detail pane -------------------------------------------------------------------
if command -v tmux > /dev/null 2>&1; then
  unset TMUX
  # One tmux server per session: the first session's server exits when its ospview quits, and
  # a new session on the same socket could meet it still shutting down ("server exited
  # unexpectedly" on a busy machine).
  trap 'for s in good bad; do tmux -L osp-source-text-$$-$s kill-server > /dev/null 2>&1; done' EXIT
  # tui NAME SNAPSHOT REGEX FILTER: ospview SNAPSHOT in a 120x40 window, the subpaths filtered by
  # FILTER (rows through the hot line's block: which row is first depends on the sample, and a
  # row through line HOT-1 alone, or through header_mix alone, shows no hot line), until the detail
  # pane has a line matching REGEX (60 s), the screen into $W/NAME.txt; 1 if it never did.
  tui ()
  {
    TM="tmux -L osp-source-text-$$-$1 -f /dev/null"
    $TM new-session -d -s "$1" -x 120 -y 40 -c "$W/src" "'$OSPVIEW' '$2'" || return 1
    n=300
    until $TM capture-pane -p -t "$1" 2> /dev/null | grep -q 'hottest subpaths (' || [ $n -eq 0 ]; do
      sleep 0.2
      n=$((n - 1))
    done
    $TM send-keys -t "$1" / && $TM send-keys -t "$1" -l "$4" && $TM send-keys -t "$1" Enter
    n=300
    while [ $n -gt 0 ]; do
      $TM capture-pane -p -t "$1" > "$W/$1.txt" 2> /dev/null
      awk '/^ detail: / { on = 1; next } on' "$W/$1.txt" | grep -q -E -e "$3" && break
      sleep 0.2
      n=$((n - 1))
    done
    $TM send-keys -t "$1" q
    [ $n -gt 0 ]
  }
  tui good "$SNAP" "^ +$HOT  .*s \\+= header_mix" "source-check.c:$((HOT - 1))-$HOT" ||
    { osp_fail "TUI: the detail pane does not show source-check.c's hot line"; osp_show "$W/good.txt"; }
  tui bad "$W/secret.ospsnap" 'secret: changed since it was compiled' 'work()' ||
    osp_fail "TUI: a view naming another file does not say 'changed since it was compiled'"
  no_text_of "$W/secret" "$W/bad.txt" "TUI detail pane of a view naming another file"
else
  echo "note: tmux is not installed: the TUI part is skipped"
fi

# --- 5. merge -----------------------------------------------------------------------------------
"$OSPVIEW" --allow-same-run --merge "$W/m.ospsnap" "$SNAP" "$SNAP" > /dev/null 2> "$W/merge.err" ||
  { osp_fail "--merge of a snapshot with itself: status $?"; osp_show "$W/merge.err"; }
"$OSPVIEW" --json "$W/m.ospsnap" > "$W/m.json" 2>> "$W/merge.err"
python3 -c '
import json, sys
a = {(x["name"], x["file"]): (x.get("file_size"), x.get("file_sha256"), x.get("comp_dir")) for x in json.load(open(sys.argv[1]))["functions"]}
b = {(x["name"], x["file"]): (x.get("file_size"), x.get("file_sha256"), x.get("comp_dir")) for x in json.load(open(sys.argv[2]))["functions"]}
sys.exit(0 if a == b and all(v[1] for v in a.values()) else 1)
' "$W/x.json" "$W/m.json" || osp_fail "--merge does not keep each function's source digest"
craft "$SNAP" "$W/other.ospsnap" sha-of "$W/secret" || exit 99
# other.ospsnap is the same run rewritten: --allow-same-run gets past that refusal to the digests
"$OSPVIEW" --allow-same-run --merge "$W/m2.ospsnap" "$SNAP" "$W/other.ospsnap" > /dev/null 2> "$W/merge2.err"
rc=$?
if [ "$rc" -ne 1 ] || [ "$(wc -l < "$W/merge2.err")" -ne 1 ] ||
   ! grep -q 'compiled from other contents of its source file' "$W/merge2.err" || [ -e "$W/m2.ospsnap" ]; then
  osp_fail "--merge of inputs with different source digests: status $rc, stderr: $(cat "$W/merge2.err")"
fi

osp_done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/viewer-diff.sh - ospview --diff OLD NEW (viewer/diff.c): two snapshots compared, as text
# and in the terminal UI.
#
# The program: progs/diff-branches.c, built with the plugin as $W/b1/diffprog, and again with
# -DDIFF_EXTRA as $W/b2/diffprog (one more function defined first: the runtime's function ids
# shift, every source line stays).  `diffprog A` runs work()'s loop 1000000 times taking branch
# X on 70% of them and Y on 30% (B: the reverse), then only_a() (B: only_b()) 1000 times.  Each
# run writes a snapshot at exit (paths=exhaustive, forest=exhaustive: exact shares; seed=1:
# the sampled subpaths are the same every run).
#   1. A vs B: the paths screen has X's path going from 700000 to 300000 of the path ends (the
#      header's counts) and Y's the reverse, exact to the printed digits, ranks -1 and +1; the
#      forest's X and Y roots the same; work()'s function share unchanged, only_a()'s gone to
#      0; most subpaths through X only shrink, most through Y only grow.
#   2. The sections: only_a()'s paths only in OLD ("gone"), only_b()'s only in NEW ("new").
#   3. A vs itself: every delta 0.00, no one-sided section, --fail-above=0.1 (and =0) exit 0.
#   4. --fail-above: 3 when a path grew more (stderr names it, at most 6 lines), 0 when the
#      threshold is above the growth, 3 for a path only in NEW, 0 for paths only in OLD.
#   5. The two builds: the ids differ (tsv reports) yet every path of A matches: nothing only in
#      OLD, deltas 0.00; no warning (one program name); a program of another name: a warning.
#      Across processes subpaths are matched by text and length: progs/fold-recursion.c's
#      subpaths of lengths 2, 4, 8 ... read alike and stay separate rows.
#   6. --top, --filter, --sort, -r; the text is the same twice (deterministic).
#   7. A missing, corrupted or foreign file: exit 1, one stderr line naming it; a wrong number
#      of files and bad values: exit 2, one line.
#   8. The terminal UI in tmux (skipped when tmux is missing): the diff rows and the DIFF tag,
#      Tab to the paths screen with X's row and the detail pane, the filter, q exits 0.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup viewer-diff
osp_need_build

OSPVIEW=$abs_top_builddir/viewer/ospview
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }
PROG=$OSP_TESTSRC/progs/diff-branches.c
N=1000000

# --- building and running ------------------------------------------------------------------------
cp "$PROG" "$W/diff-branches.c" && mkdir "$W/b1" "$W/b2" || exit 99
(cd "$W" && osp_compile "$W/b1/diffprog" osp_cc -O1 -g diff-branches.c -o b1/diffprog) ||
  { echo "error: cannot build diff-branches.c"; exit 99; }
(cd "$W" && osp_compile "$W/b2/diffprog" osp_cc -O1 -g -DDIFF_EXTRA diff-branches.c \
   -o b2/diffprog) || { echo "error: cannot build diff-branches.c -DDIFF_EXTRA"; exit 99; }
cp "$W/b1/diffprog" "$W/otherprog" || exit 99

OPTS=report=none:paths=exhaustive:forest=exhaustive:seed=1
# snap NAME PROGRAM ARG: run PROGRAM ARG writing $W/NAME.ospsnap (and the tsv report NAME.tsv).
snap ()
{
  osp_exec_with "$OPTS:snapshot=$W/$1.ospsnap:report=$W/$1.tsv:report_format=tsv" "$W/$1" \
    "$2" "$3" "$N"
  if [ "$osp_rc" -ne 0 ] || [ ! -s "$W/$1.ospsnap" ]; then
    echo "error: $2 $3 exited with $osp_rc and wrote no snapshot"
    osp_show "$W/$1.err"
    exit 99
  fi
}
snap a "$W/b1/diffprog" A
snap b "$W/b1/diffprog" B
snap a2 "$W/b2/diffprog" A
snap o "$W/otherprog" A

LX=$(grep -n -F '/* [X] */' "$PROG" | cut -d: -f1)
LY=$(grep -n -F '/* [Y] */' "$PROG" | cut -d: -f1)
LA=$(grep -n -F '/* [A] */' "$PROG" | cut -d: -f1)
LB=$(grep -n -F '/* [B] */' "$PROG" | cut -d: -f1)
echo "lines: X $LX, Y $LY, only_a $LA, only_b $LB"

# --- helpers -------------------------------------------------------------------------------------

# diff NAME ARGS...: ospview --diff ARGS into NAME.out / NAME.err, status in $rc.
diff_to ()
{
  d_name=$1
  shift
  "$OSPVIEW" --diff "$@" > "$W/$d_name.out" 2> "$W/$d_name.err"
  rc=$?
}

# table FILE TITLE: the rows of the table whose title starts with TITLE (no header).
table ()
{
  awk -v t="$2" 'index($0, t) == 1 { on = 1; hdr = 1; next }
                 on && hdr { hdr = 0; next }
                 on && /^$/ { exit }
                 on { print }' "$1"
}

# section both|OLD|NEW: the rows of that section of the table on stdin.
section ()
{
  awk -v s="$1" '/^--- only in OLD/ { cur = "OLD"; next }
                 /^--- only in NEW/ { cur = "NEW"; next }
                 (cur == "" ? "both" : cur) == s'
}

# covering LINE [NOTLINE]: the rows on stdin with a step of diff-branches.c covering LINE (and
# none covering NOTLINE).
covering ()
{
  awk -v l="$1" -v nl="${2:-0}" '{
      hit = 0; miss = 0; s = $0
      while (match(s, /diff-branches\.c:[0-9]+(-[0-9]+)?/)) {
        r = substr(s, RSTART + 16, RLENGTH - 16); s = substr(s, RSTART + RLENGTH)
        n = split(r, ab, "-"); a = ab[1] + 0; b = (n > 1 ? ab[2] : ab[1]) + 0
        if (a <= l && l <= b) hit = 1
        if (nl && a <= nl && nl <= b) miss = 1
      }
      if (hit && !miss) print
    }'
}

# path_ends FILE OLD|NEW: the path ends of that side (the header).
path_ends ()
{
  sed -n "s/^$2 .*  path ends \([0-9]*\)\$/\1/p" "$1"
}

# expect LABEL ROW BASE NEW DELTA RANK: the row's numbers within 0.011 (the last digit printed)
# and its rank column.
expect ()
{
  echo "$2" | awk -v l="$1" -v b="$3" -v n="$4" -v d="$5" -v r="$6" '
    function off(x, y) { return x - y > 0.011 || y - x > 0.011 }
    NR == 1 { seen = 1
      if (off($1 + 0, b) || off($2 + 0, n) || off($3 + 0, d) || $6 != r) {
        printf "FAIL: %s: baseline %s new %s delta %s rank %s, want %.2f%% %.2f%% %+.2fpp %s\n",
          l, $1, $2, $3, $6, b, n, d, r; exit 1 } }
    END { if (!seen) { printf "FAIL: %s: no such row\n", l; exit 1 } }' ||
    osp_failures=$((osp_failures + 1))
}

# --- 1. A vs B -----------------------------------------------------------------------------------
diff_to ab "$W/a.ospsnap" "$W/b.ospsnap" --top=0
[ "$rc" -eq 0 ] || { osp_fail "A vs B: exit status $rc"; osp_show "$W/ab.err"; }
[ -s "$W/ab.err" ] && { osp_fail "A vs B: messages on stderr"; osp_show "$W/ab.err"; }
grep -q "^OLD $W/a.ospsnap: $W/b1/diffprog (.*A.*)  pid [0-9]*  taken .* UTC at exit  blocks seen [0-9]*  path ends [0-9]*\$" "$W/ab.out" ||
  { osp_fail "A vs B: no OLD header line"; osp_show "$W/ab.out"; }
grep -q "^NEW $W/b.ospsnap: $W/b1/diffprog" "$W/ab.out" || osp_fail "A vs B: no NEW header line"
grep -q '^warning' "$W/ab.out" && osp_fail "A vs B: a warning for one program"
pe_a=$(path_ends "$W/ab.out" OLD)
pe_b=$(path_ends "$W/ab.out" NEW)
if [ -z "$pe_a" ] || [ -z "$pe_b" ]; then
  osp_fail "A vs B: no path ends in the header"
else
  # X: 70% of N path ends in A, 30% in B; Y the reverse.
  xa=$(awk -v n=$N -v p="$pe_a" 'BEGIN { printf "%.4f", 70 * n / p }')
  xb=$(awk -v n=$N -v p="$pe_b" 'BEGIN { printf "%.4f", 30 * n / p }')
  ya=$(awk -v n=$N -v p="$pe_a" 'BEGIN { printf "%.4f", 30 * n / p }')
  yb=$(awk -v n=$N -v p="$pe_b" 'BEGIN { printf "%.4f", 70 * n / p }')
  echo "path ends $pe_a, $pe_b: X $xa% -> $xb%, Y $ya% -> $yb%"
  table "$W/ab.out" "Ball-Larus paths diff (" | section both > "$W/ab.paths"
  expect "paths: X" "$(covering "$LX" "$LY" < "$W/ab.paths")" "$xa" "$xb" \
    "$(awk -v x="$xa" -v y="$xb" 'BEGIN { print y - x }')" -1
  expect "paths: Y" "$(covering "$LY" "$LX" < "$W/ab.paths")" "$ya" "$yb" \
    "$(awk -v x="$ya" -v y="$yb" 'BEGIN { print y - x }')" +1
  head -n 2 "$W/ab.paths" | covering "$LX" | grep -q . && head -n 2 "$W/ab.paths" | covering "$LY" | grep -q . ||
    osp_fail "paths: X and Y are not the first two rows (largest |delta| first)"
  # forest: the roots X and Y (their own path: no "||")
  table "$W/ab.out" "forest nodes (share of all forest items) diff (" | section both |
    grep -v -F '||' > "$W/ab.roots"
  expect "forest: X" "$(covering "$LX" "$LY" < "$W/ab.roots")" "$xa" "$xb" \
    "$(awk -v x="$xa" -v y="$xb" 'BEGIN { print y - x }')" -1
  expect "forest: Y" "$(covering "$LY" "$LX" < "$W/ab.roots")" "$ya" "$yb" \
    "$(awk -v x="$ya" -v y="$yb" 'BEGIN { print y - x }')" +1
fi
# functions: work()'s share of the path ends does not change; only_a() goes to 0
table "$W/ab.out" "functions (share of their paths) diff (" > "$W/ab.fns"
grep ' work() ' "$W/ab.fns" | awk '{ exit !($3 + 0 == 0) }' ||
  { osp_fail "functions: work()'s share changed"; osp_show "$W/ab.fns"; }
grep ' only_a() ' "$W/ab.fns" | awk '{ exit !($1 + 0 > 0.05 && $2 + 0 == 0 && $3 + 0 < 0) }' ||
  { osp_fail "functions: only_a() does not go to 0"; osp_show "$W/ab.fns"; }
# subpaths (sampled): through X only they shrink, through Y only they grow (most of them)
table "$W/ab.out" "subpaths diff (" | section both > "$W/ab.sub"
xs=$(covering "$LX" "$LY" < "$W/ab.sub" | awk '{ if ($3 + 0 < 0) d++; else u++ }
                                               END { printf "%d %d", d, u }')
ys=$(covering "$LY" "$LX" < "$W/ab.sub" | awk '{ if ($3 + 0 > 0) u++; else d++ }
                                               END { printf "%d %d", u, d }')
echo "subpaths through X only: $xs shrink/grow; through Y only: $ys grow/shrink"
echo "$xs $ys" | awk '{ exit !($1 > 2 * $2 && $3 > 2 * $4) }' ||
  osp_fail "subpaths: the X-only ones do not mostly shrink or the Y-only ones grow ($xs, $ys)"

# --- 2. the one-sided sections -------------------------------------------------------------------
table "$W/ab.out" "Ball-Larus paths diff (" > "$W/ab.ptable"
grep -q '^--- only in OLD: [0-9]* rows* ---$' "$W/ab.ptable" &&
  grep -q '^--- only in NEW: [0-9]* rows* ---$' "$W/ab.ptable" ||
  { osp_fail "paths: no sections only in OLD / only in NEW"; osp_show "$W/ab.ptable"; }
section OLD < "$W/ab.ptable" | covering "$LA" | grep -q -E '^ +0\.10% +- +-0\.10pp .* gone  only_a\(\) ' ||
  { osp_fail "paths: only_a()'s loop path is not in 'only in OLD' as gone"; osp_show "$W/ab.ptable"; }
section NEW < "$W/ab.ptable" | covering "$LB" | grep -q -E '^ +- +0\.10% +\+0\.10pp .* new  only_b\(\) ' ||
  { osp_fail "paths: only_b()'s loop path is not in 'only in NEW' as new"; osp_show "$W/ab.ptable"; }
section both < "$W/ab.ptable" | grep -q -e 'only_a()' -e 'only_b()' &&
  osp_fail "paths: only_a() or only_b() matched on both sides"
section OLD < "$W/ab.ptable" | grep -q 'only_b()' && osp_fail "paths: only_b() in 'only in OLD'"

# --- 3. a snapshot against itself ----------------------------------------------------------------
diff_to self "$W/a.ospsnap" "$W/a.ospsnap" --top=0 --fail-above=0.1
[ "$rc" -eq 0 ] || { osp_fail "A vs A --fail-above=0.1: exit status $rc"; osp_show "$W/self.err"; }
grep -q -e '^--- only in' "$W/self.out" && osp_fail "A vs A: rows only on one side"
nz=$(awk '$3 ~ /pp~?$/ && $3 !~ /^0\.00pp~?$/' "$W/self.out" | wc -l)
nrows=$(awk '$3 ~ /pp~?$/' "$W/self.out" | wc -l)
echo "A vs A: $nrows rows, $nz with a delta other than 0.00"
[ "$nrows" -gt 10 ] || osp_fail "A vs A: only $nrows rows"
[ "$nz" -eq 0 ] || { osp_fail "A vs A: $nz deltas are not 0"; awk '$3 !~ /^0\.00pp~?$/' "$W/self.out" | head; }
awk '$3 ~ /pp~?$/ && $6 != "="' "$W/self.out" | grep -q . && osp_fail "A vs A: a rank moved"
diff_to self0 "$W/a.ospsnap" "$W/a.ospsnap" --fail-above=0
[ "$rc" -eq 0 ] && [ ! -s "$W/self0.err" ] || osp_fail "A vs A --fail-above=0: status $rc"

# --- 4. --fail-above -----------------------------------------------------------------------------
diff_to f30 "$W/a.ospsnap" "$W/b.ospsnap" --screen=paths --fail-above=30
[ "$rc" -eq 3 ] || osp_fail "A vs B --fail-above=30: status $rc (want 3)"
grep -q -E '^ospview: --fail-above=30: paths: \+39\.9[0-9]pp \(29\.9[0-9]% -> 69\.9[0-9]%\): work\(\) ' "$W/f30.err" ||
  { osp_fail "--fail-above=30: stderr does not name Y's path"; osp_show "$W/f30.err"; }
[ "$(wc -l < "$W/f30.err")" -eq 1 ] || { osp_fail "--fail-above=30: want 1 stderr line"; osp_show "$W/f30.err"; }
grep -q "^Ball-Larus paths diff" "$W/f30.out" || osp_fail "--fail-above: no table on stdout"
diff_to f45 "$W/a.ospsnap" "$W/b.ospsnap" --screen=paths --fail-above=45
[ "$rc" -eq 0 ] && [ ! -s "$W/f45.err" ] || { osp_fail "--fail-above=45: status $rc (want 0)"; osp_show "$W/f45.err"; }
diff_to fba "$W/b.ospsnap" "$W/a.ospsnap" --screen=paths --fail-above=39
[ "$rc" -eq 3 ] && grep -q 'paths: +39\.9[0-9]pp (29\.9[0-9]% -> 69\.9[0-9]%)' "$W/fba.err" ||
  { osp_fail "B vs A --fail-above=39: status $rc (want 3, X's growth)"; osp_show "$W/fba.err"; }
diff_to fnew "$W/a.ospsnap" "$W/b.ospsnap" --screen=paths --filter=only_b --fail-above=0.05
[ "$rc" -eq 3 ] && grep -q 'paths: +0\.10pp (none -> 0\.10%): only_b() ' "$W/fnew.err" ||
  { osp_fail "a path only in NEW above the threshold: status $rc (want 3)"; osp_show "$W/fnew.err"; }
diff_to fold "$W/a.ospsnap" "$W/b.ospsnap" --screen=paths --filter=only_a --fail-above=0.05
[ "$rc" -eq 0 ] || osp_fail "paths only in OLD: status $rc (want 0: growth only)"
diff_to fall "$W/a.ospsnap" "$W/b.ospsnap" --fail-above=1
[ "$rc" -eq 3 ] && [ "$(wc -l < "$W/fall.err")" -le 6 ] ||
  { osp_fail "all screens --fail-above=1: status $rc, $(wc -l < "$W/fall.err") lines (want 3, <= 6)"; osp_show "$W/fall.err"; }

# --- 5. two builds -------------------------------------------------------------------------------
id1=$(awk -F '\t' '$1 == "function" && $3 == "work" { print $2 }' "$W/a.tsv")
id2=$(awk -F '\t' '$1 == "function" && $3 == "work" { print $2 }' "$W/a2.tsv")
echo "work()'s function id: $id1 in build 1, $id2 in build 2"
[ -n "$id1" ] && [ -n "$id2" ] && [ "$id1" != "$id2" ] ||
  osp_fail "the second build does not shift work()'s id ($id1, $id2): the check below is moot"
diff_to builds "$W/a.ospsnap" "$W/a2.ospsnap" --screen=paths,forest,functions --top=0
[ "$rc" -eq 0 ] || osp_fail "build 1 vs build 2: status $rc"
grep -q '^warning' "$W/builds.out" && osp_fail "build 1 vs build 2: a warning, but both are diffprog"
table "$W/builds.out" "Ball-Larus paths diff (" > "$W/builds.paths"
np=$(table "$W/ab.out" "Ball-Larus paths diff (" | section both | wc -l)
np=$((np + $(table "$W/ab.out" "Ball-Larus paths diff (" | section OLD | wc -l)))
nb=$(section both < "$W/builds.paths" | wc -l)
echo "build 1 vs build 2: $nb of A's $np paths matched"
[ "$nb" -eq "$np" ] || { osp_fail "build 1 vs build 2: $nb of $np paths matched"; osp_show "$W/builds.paths"; }
grep -q '^--- only in OLD' "$W/builds.out" && osp_fail "build 1 vs build 2: rows only in OLD"
section both < "$W/builds.paths" | awk '$3 !~ /^0\.00pp/' | grep -q . &&
  { osp_fail "build 1 vs build 2: path deltas not 0"; osp_show "$W/builds.paths"; }
section NEW < "$W/builds.paths" | grep -q 'extra()' || osp_fail "build 1 vs build 2: extra() is not new"
diff_to other "$W/a.ospsnap" "$W/o.ospsnap" --screen=paths
[ "$rc" -eq 0 ] || osp_fail "another program: status $rc"
grep -q '^warning: different programs (diffprog, otherprog): compared by function names and source lines anyway$' "$W/other.out" ||
  { osp_fail "another program: no warning line"; osp_show "$W/other.out"; }
table "$W/other.out" "Ball-Larus paths diff (" | grep -q '^--- only in' &&
  osp_fail "another program (same code): rows only on one side"
# Subpaths of one text and different lengths stay apart across processes: fold-recursion.c's
# fib() on one line reads "fib() fold-recursion.c:3" at lengths 2, 4, 8 ...  Two runs (seed=1:
# the same samples) are not one process, yet the diff has a row per length and text of the
# snapshot's rows, none added to another of its text (deltas 0.00).
cp "$OSP_TESTSRC/progs/fold-recursion.c" "$W/" || exit 99
(cd "$W" && osp_compile "$W/fr" osp_cc -O2 -g fold-recursion.c -o fr) ||
  { echo "error: cannot build fold-recursion.c"; exit 99; }
for r in fr1 fr2; do
  osp_exec_with "report=none:seed=1:snapshot=$W/$r.ospsnap" "$W/$r" "$W/fr" 20
  [ "$osp_rc" -eq 0 ] && [ -s "$W/$r.ospsnap" ] || { echo "error: fr wrote no snapshot"; exit 99; }
done
diff_to frruns "$W/fr1.ospsnap" "$W/fr2.ospsnap" --screen=subpaths --top=0
# the snapshot's own rows (filtered: none folded) as "LEN TEXT"
"$OSPVIEW" "$W/fr1.ospsnap" -b 1 --screen=subpaths --top=0 --filter=fold-recursion.c |
  awk 'f && /^$/ { exit } f && NF > 8 { for (i = 1; i <= 7; i++) sub(/^ *[^ ]+/, ""); sub(/^ +/, ""); print }
       /^ *rank +estimate/ { f = 1 }' | sort -u > "$W/frrows"
n_len=$(wc -l < "$W/frrows")
n_text=$(sed 's/^[0-9]* *//' "$W/frrows" | sort -u | wc -l)
n_runs=$(sed -n 's/^subpaths diff (\([0-9]*\) in both, 0 only in OLD, 0 only in NEW;.*/\1/p' "$W/frruns.out")
echo "fold-recursion: $n_len subpaths by length and text, $n_text texts; $n_runs rows in the diff"
[ "$n_text" -lt "$n_len" ] || osp_fail "fold-recursion: no two subpaths read alike (the check is moot)"
[ "$n_runs" = "$n_len" ] ||
  { osp_fail "two runs: subpaths of one text added up ($n_runs rows, want $n_len)"
    osp_show "$W/frruns.out"; }
table "$W/frruns.out" "subpaths diff (" | awk '$3 !~ /^0\.00pp/' | grep -q . &&
  { osp_fail "two runs (the same samples): subpath deltas not 0"; osp_show "$W/frruns.out"; }

# --- 6. options, determinism ---------------------------------------------------------------------
diff_to top "$W/a.ospsnap" "$W/b.ospsnap" --screen=paths --top=1
table "$W/top.out" "Ball-Larus paths diff (" > "$W/top.t"
[ "$(awk '$3 ~ /pp~?$/' "$W/top.t" | wc -l)" -eq 3 ] &&
  grep -q '^--- only in OLD: 3 rows, the first shown ---$' "$W/top.t" ||
  { osp_fail "--top=1: want one row per section"; osp_show "$W/top.t"; }
grep -q -e '^subpaths diff' -e '^forest' -e '^functions' "$W/top.out" && osp_fail "--screen=paths shows other screens"
diff_to filt "$W/a.ospsnap" "$W/b.ospsnap" --screen=paths --filter=only_b
grep -q '^Ball-Larus paths diff (0 in both, 0 only in OLD, [0-9]* only in NEW matching "only_b"; by |delta|)$' "$W/filt.out" ||
  { osp_fail "--filter: the title"; osp_show "$W/filt.out"; }
awk '$3 ~ /pp~?$/' "$W/filt.out" > "$W/filt.rows"
[ -s "$W/filt.rows" ] && ! grep -q -v 'only_b()' "$W/filt.rows" ||
  { osp_fail "--filter=only_b: rows without only_b() or none"; osp_show "$W/filt.out"; }
diff_to srt "$W/a.ospsnap" "$W/b.ospsnap" --screen=paths --sort=share
table "$W/srt.out" "Ball-Larus paths diff (" | head -n 1 | covering "$LY" "$LX" | grep -q . ||
  osp_fail "--sort=share: Y's path (69.93% in NEW) is not first"
grep -q '; by share)$' "$W/srt.out" || osp_fail "--sort=share: the title does not say so"
diff_to rev "$W/a.ospsnap" "$W/b.ospsnap" --screen=paths --sort=share -r
table "$W/rev.out" "Ball-Larus paths diff (" | section both | tail -n 1 | covering "$LY" "$LX" | grep -q . ||
  osp_fail "--sort=share -r: Y's path is not last"
diff_to nm "$W/a.ospsnap" "$W/b.ospsnap" --screen=paths --sort=name
table "$W/nm.out" "Ball-Larus paths diff (" | section both | cut -c56- > "$W/nm.names"
LC_ALL=C sort -c "$W/nm.names" 2> /dev/null || { osp_fail "--sort=name: rows not in name order"; osp_show "$W/nm.names"; }
diff_to ab2 "$W/a.ospsnap" "$W/b.ospsnap" --top=0
osp_same "the text twice" "$W/ab.out" "$W/ab2.out"
"$OSPVIEW" --diff -b 1 "$W/a.ospsnap" "$W/b.ospsnap" --top=0 > "$W/b1.out" 2>&1
osp_same "-b 1" "$W/ab.out" "$W/b1.out"

# --- 7. errors -----------------------------------------------------------------------------------
# one_line STATUS WORDS NAME: the last diff exited STATUS with one stderr line containing WORDS.
one_line ()
{
  if [ "$rc" -ne "$1" ] || [ "$(wc -l < "$W/$3.err")" -ne 1 ] || ! grep -q -F -e "$2" "$W/$3.err"; then
    osp_fail "$3: status $rc (want $1), stderr '$(cat "$W/$3.err")' (want one line with '$2')"
  fi
}
diff_to missing "$W/a.ospsnap" "$W/nope.ospsnap"
one_line 1 "ospview: $W/nope.ospsnap: No such file" missing
diff_to missing2 "$W/nope.ospsnap" "$W/a.ospsnap"
one_line 1 "ospview: $W/nope.ospsnap: " missing2
cp "$W/a.ospsnap" "$W/bad.ospsnap"
size=$(wc -c < "$W/a.ospsnap")
printf 'XXXXXXXX' | dd of="$W/bad.ospsnap" bs=1 seek=$((size / 2)) conv=notrunc 2> /dev/null
diff_to corrupt "$W/a.ospsnap" "$W/bad.ospsnap"
one_line 1 "ospview: $W/bad.ospsnap: " corrupt
grep -q 'checksum' "$W/corrupt.err" || osp_fail "corrupted: the message does not say checksum"
[ -s "$W/corrupt.out" ] && osp_fail "corrupted: output on stdout"
diff_to foreign "$PROG" "$W/a.ospsnap"
one_line 1 "ospview: $PROG: not an osp snapshot" foreign
diff_to one "$W/a.ospsnap"
one_line 2 "--diff needs two snapshot files" one
diff_to three "$W/a.ospsnap" "$W/b.ospsnap" "$W/a2.ospsnap"
one_line 2 "--diff needs two snapshot files" three
diff_to badpp "$W/a.ospsnap" "$W/b.ospsnap" --fail-above=lots
one_line 2 "--fail-above: 'lots' is not a number" badpp
"$OSPVIEW" --fail-above=3 "$W/a.ospsnap" > "$W/nodiff.out" 2> "$W/nodiff.err"
rc=$?
one_line 2 "--fail-above applies to --diff only" nodiff

# --- 8. the terminal UI --------------------------------------------------------------------------
if ! command -v tmux > /dev/null 2>&1; then
  echo "note: tmux is not installed: the terminal UI is not checked"
  osp_done
fi
unset TMUX
TM="tmux -L osp-viewer-diff-$$ -f /dev/null"
trap '$TM kill-server > /dev/null 2>&1' EXIT
$TM new-session -d -s v -x 150 -y 40 -c "$W" \
  "'$OSPVIEW' --diff a.ospsnap b.ospsnap 2> '$W/ui.err'; echo \$? > '$W/ui.rc'" ||
  { echo "error: tmux new-session failed"; exit 99; }
# (cap, shows, wait_for and keys: tests/lib.sh.)
# (The bar is drawn after the table: wait for both, or a loaded machine shows a blank last line.)
if wait_for start '^\[1 subpaths\] .*subpaths diff \([0-9]+ in both' &&
   wait_for start '^DIFF row 1/'; then
  head -n 1 "$W/start.txt" | grep -q '^OLD a.ospsnap: ' || osp_fail "UI: no OLD status line"
  sed -n 2p "$W/start.txt" | grep -q '^NEW b.ospsnap: ' || osp_fail "UI: no NEW status line"
  tail -n 1 "$W/start.txt" | grep -q '^DIFF row 1/' || osp_fail "UI: no DIFF tag and row count in the bar"
  grep -q -E '^> +[0-9.]+% +[0-9.]+% +[-+]?[0-9.]+pp' "$W/start.txt" || osp_fail "UI: no selected diff row"
fi
keys Tab
# (Likewise: the tab line is drawn first, so wait for the paths screen's detail pane too, or a
# loaded machine shows the new tab line over the old screen's rows.)
if wait_for paths '^ 1 subpaths \[2 paths\] .*Ball-Larus paths diff \(' &&
   wait_for paths '^ delta [-+][0-9.]+pp \+/- 0\.00pp \(exact\)'; then
  grep -E '^[> ] +[0-9.]+% +[0-9.]+% +[-+][0-9.]+pp' "$W/paths.txt" | head -n 2 | grep -q -- '-39\.9[0-9]pp' ||
    osp_fail "UI paths: X's -39.9pp row is not among the first two"
  grep -q -E '^ delta [-+]39\.9[0-9]pp \+/- 0\.00pp \(exact\)' "$W/paths.txt" &&
    grep -q '^ OLD: share ' "$W/paths.txt" && grep -q '^ NEW: share ' "$W/paths.txt" ||
    { osp_fail "UI paths: the detail pane lacks the delta and both sides"; osp_show "$W/paths.txt"; }
fi
keys /
keys -l only_b
keys Enter
if wait_for filter 'paths diff \(0 in both, 0 only in OLD, [0-9]+ only in NEW matching "only_b"' &&
   wait_for filter '--- only in NEW'; then
  grep -q -e '--- only in NEW' "$W/filter.txt" && ! grep -q 'only_a()' "$W/filter.txt" ||
    osp_fail "UI: the filter does not leave only_b()'s rows"
fi
keys q
if ! osp_wait_until 10 osp_has_file "$W/ui.rc"; then
  osp_fail "UI: q did not end ospview"
elif [ "$(cat "$W/ui.rc")" != 0 ]; then
  osp_fail "UI: exit status $(cat "$W/ui.rc") after q"
fi
[ -s "$W/ui.err" ] && { osp_fail "UI: messages on stderr"; osp_show "$W/ui.err"; }

osp_done

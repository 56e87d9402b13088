#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/ospaccuracy.sh - tools/ospaccuracy on hand-written path/edge reports whose metrics are
# computed by hand below (doc/ACCURACY.md, "Ball-Larus paths and edges: the metrics").
# Needs neither the plugin nor the runtime.  Every number is compared exactly, to 2 decimals.
#
# Cases: identical profiles (100% everywhere); the same profile with other function ids, a
# function name used in two files and estimates scaled by 3 (100% again, 4 hot paths); a sampled
# profile that swaps a hot path for a cold one (PEP form 83.33% != Wall's original form 92.22%)
# with a 3-way branch, a branch missing from the sample and a branch only the sample sees
# (edge accuracy 76.67%); the default 0.125% threshold and a 0-branch path; ties; profiles
# without branch flow or edges (n/a); an empty sampled profile (0%); -m/-e exit status 1; bad
# input and usage errors (exit 2, one line on stderr naming the file).

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup ospaccuracy

ACC="$abs_top_srcdir/tools/ospaccuracy"

# tsv FILE: write a report: the header line, then stdin with each run of spaces turned into one tab.
tsv ()
{
  { echo "# osp-report 1 mode=paths"; tr -s ' ' '\t'; } > "$1"
}

# run NAME ARGS...: run the tool; stdout in $W/NAME.out, stderr in $W/NAME.err, status in $rc.
run ()
{
  run_name=$1
  shift
  sh "$ACC" "$@" > "$W/$run_name.out" 2> "$W/$run_name.err"
  rc=$?
}

# expect NAME STATUS LINE...: the run NAME exited with STATUS and printed each LINE exactly.
expect ()
{
  e_name=$1 e_rc=$2
  shift 2
  [ "$rc" -eq "$e_rc" ] || { osp_fail "$e_name: exit status $rc, expected $e_rc"; osp_show "$W/$e_name.err" "$e_name stderr"; }
  for line in "$@"; do
    grep -F -x -q -e "$line" "$W/$e_name.out" ||
      { osp_fail "$e_name: no line '$line'"; osp_show "$W/$e_name.out" "$e_name stdout"; }
  done
}

# expect_error NAME WORDS...: exit status 2, nothing on stdout, exactly one line on stderr that
# starts with "ospaccuracy: " and contains every WORD (the file name, the line number, ...).
expect_error ()
{
  e_name=$1
  shift
  [ "$rc" -eq 2 ] || osp_fail "$e_name: exit status $rc, expected 2"
  [ -s "$W/$e_name.out" ] && osp_fail "$e_name: something on stdout"
  [ "$(wc -l < "$W/$e_name.err")" -eq 1 ] || { osp_fail "$e_name: stderr is not exactly one line"; osp_show "$W/$e_name.err"; }
  grep -q -e '^ospaccuracy: ' -e '^usage: ospaccuracy ' "$W/$e_name.err" ||
    osp_fail "$e_name: message does not start with 'ospaccuracy: ' or 'usage: ospaccuracy '"
  for word in "$@"; do
    grep -F -q -e "$word" "$W/$e_name.err" || { osp_fail "$e_name: message lacks '$word'"; osp_show "$W/$e_name.err"; }
  done
  echo "$e_name: $(cat "$W/$e_name.err")"
}

# ---- P1: identical profiles, and the same one renumbered -------------------------------------
# Paths (flow = freq x branches): main#0 40x2 = 80, main#1 60x0 = 0, work@p.c#0 30x3 = 90,
# work@q.c#0 30x1 = 30, work@q.c#5 1x1 = 1; total flow 201, threshold 0.125% = 0.25125: the four
# paths with flow > 0 are hot (keyed by name alone, work#0 of p.c and q.c would merge: 3).
# Branches: main block 1 (3-way), work@p.c block 2, work@q.c block 2; main block 0 has one
# successor and is not a branch.
tsv "$W/p1.exact.tsv" <<'EOF'
module 0 3
function 1 main /src/p.c 10 - -
function 2 work /src/p.c 20 - -
function 3 work /src/q.c 5 - -
path 1 1 0 40.000 0.000 40 0.2 2 1:0,1:1,1:2
path 2 2 0 30.000 0.000 30 0.15 3 2:0,2:2,2:3
path 3 1 1 60.000 0.000 60 0.3 0 1:0,1:4
path 4 3 0 30.000 0.000 30 0.15 1 3:0,3:2
path 5 3 5 1.000 0.000 1 0.005 1 3:0,3:2,3:4
edge 1 0 0 1 100.000 100
edge 1 1 0 2 50.000 50
edge 1 1 1 3 30.000 30
edge 1 1 2 exit 20.000 20
edge 2 2 0 3 10.000 10
edge 2 2 1 4 20.000 20
edge 3 2 0 3 5.000 5
edge 3 2 1 exit 25.000 25
stat paths 5
EOF
cp "$W/p1.exact.tsv" "$W/p1.copy.tsv"
run identical "$W/p1.exact.tsv" "$W/p1.copy.tsv"
expect identical 0 \
  'paths: hot threshold 0.125% of branch flow, 4 hot paths' \
  'path accuracy (Wall weight matching, PEP form): 100.00%' \
  "path weight matching (Wall's original form): 100.00%" \
  'path key matching: 4/4 (100.00%)' \
  'path overlap (Arnold-Ryder): 100.00%' \
  'edges: 3 branches, 0 not seen in SAMPLED' \
  'edge accuracy (relative overlap, PEP): 100.00%' \
  'edge overlap (Arnold-Ryder absolute): 100.00%' \
  '# 5 paths in EXACT, 5 in SAMPLED; 1 EXACT paths have 0 branches and so flow 0 (they count in the overlap, never as hot)'
[ "$(grep -c -v '^#' "$W/identical.out")" -eq 8 ] || osp_fail "identical: not 8 result lines"
osp_show "$W/identical.out" "identical profiles"

# The same profile, fids 1 2 3 -> 2 1 7 (1 is now work@p.c, which is main in EXACT), rows in
# another order, every estimate x 3 (only relative values count): 100% everywhere again.
tsv "$W/p1.renumbered.tsv" <<'EOF'
module 0 3
function 7 work /src/q.c 5 - -
function 1 work /src/p.c 20 - -
function 2 main /src/p.c 10 - -
path 1 2 1 180.000 0.000 60 0.3 0 2:0,2:4
path 2 2 0 120.000 0.000 40 0.2 2 2:0,2:1,2:2
path 3 7 0 90.000 0.000 30 0.15 1 7:0,7:2
path 4 1 0 90.000 0.000 30 0.15 3 1:0,1:2,1:3
path 5 7 5 3.000 0.000 1 0.005 1 7:0,7:2,7:4
edge 7 2 1 exit 75.000 25
edge 7 2 0 3 15.000 5
edge 2 1 2 exit 60.000 20
edge 2 1 1 3 90.000 30
edge 2 1 0 2 150.000 50
edge 2 0 0 1 300.000 100
edge 1 2 1 4 60.000 20
edge 1 2 0 3 30.000 10
EOF
run renumbered "$W/p1.exact.tsv" "$W/p1.renumbered.tsv"
expect renumbered 0 \
  'paths: hot threshold 0.125% of branch flow, 4 hot paths' \
  'path accuracy (Wall weight matching, PEP form): 100.00%' \
  "path weight matching (Wall's original form): 100.00%" \
  'path key matching: 4/4 (100.00%)' \
  'path overlap (Arnold-Ryder): 100.00%' \
  'edges: 3 branches, 0 not seen in SAMPLED' \
  'edge accuracy (relative overlap, PEP): 100.00%' \
  'edge overlap (Arnold-Ryder absolute): 100.00%'

# ---- P2: one hot path swapped for a cold one; the edge metrics --------------------------------
# EXACT paths (fids 1 = main, 2 = work), flow = freq x branches, -t 10:
#   A main#0 100x3 = 300   B main#1 125x2 = 250   C work#0 200x1 = 200   D work#1 30x5 = 150
#   E work#2  20x4 =  80   F work#3  20x1 =  20   G main#2 505x0 = 0 (0 branches, highest freq)
#   total flow 1000; hot >= 10% = 100: H_actual = {A,B,C,D}, n = 4, F(H_actual) = 900.
# SAMPLED (fids 8 = main, 3 = work): A 90x3 = 270, B 130x2 = 260, C 190x1 = 190, D 10x5 = 50,
#   E 40x4 = 160, F 20x1 = 20, G 520x0 = 0; total sampled flow 950.
#   H_est = top 4 by estimated flow = {A,B,C,E} (G has flow 0 despite the largest estimate).
#   PEP form: F(H_est & H_actual) / F(H_actual) = (300+250+200)/900 = 750/900 = 83.33%
#   Wall's original form: F_actual(H_est) / F(H_actual) = (750+80)/900 = 830/900 = 92.22%
#   key matching 3/4 = 75.00%
#   path overlap: both totals are 1000 (exact 100+125+200+30+20+20+505, sampled
#   90+130+190+10+40+20+520): sum of min = 90+125+190+10+20+20+505 = 960 -> 96.00%
# Edges (function block: successor index=count), exact / sampled:
#   main 0: 0=1000 / 0=900            one successor: not a branch
#   main 1: 0=600 1=400 / 0=700 1=300  bias .6 .4 / .7 .3: 1 - (.1+.1)/2 = 0.9, weight 1000
#   main 4: 0=500 1=300 2=200 / 0=250 1=250 2=500   3-way: bias .5 .3 .2 / .25 .25 .5:
#           1 - (.25+.05+.3)/2 = 0.7, weight 1000 (two-way on successor 0 alone would say 0.75)
#   work 2: 0=50 1=150 / 0=40 1=160    bias .25 .75 / .2 .8: 1 - (.05+.05)/2 = 0.95, weight 200
#   work 5: 0=40 1=60 / -              not in SAMPLED: accuracy 0, weight 100
#   work 8: 0=100 / 0=50 1=50          a branch because SAMPLED has 2 successors:
#           bias 1 0 / .5 .5: 1 - (.5+.5)/2 = 0.5, weight 100
#   edge accuracy = (900 + 700 + 190 + 0 + 50) / (1000+1000+200+100+100) = 1840/2400 = 76.67%
#   edge overlap: exact total 3400, sampled 3200; sum of min(x/3400, s/3200):
#     main0 900/3200, main1 600/3400 + 300/3200, main4 250/3200 + 250/3200 + 200/3400,
#     work2 40/3200 + 150/3400, work5 0 + 0, work8 50/3200 + 0
#     = (900+300+250+250+40+50)/3200 + (600+200+150)/3400 = 0.559375 + 0.279412 = 83.88%
tsv "$W/p2.exact.tsv" <<'EOF'
module 0 2
function 1 main /src/p.c 10 - -
function 2 work /src/p.c 20 - -
path 1 1 2 505.000 0.000 505 0.505 0 1:0,1:9
path 2 1 0 100.000 0.000 100 0.1 3 1:0,1:1,1:4
path 3 1 1 125.000 0.000 125 0.125 2 1:0,1:1,1:5
path 4 2 0 200.000 0.000 200 0.2 1 2:0,2:2
path 5 2 1 30.000 0.000 30 0.03 5 2:0,2:2,2:3
path 6 2 2 20.000 0.000 20 0.02 4 2:0,2:5
path 7 2 3 20.000 0.000 20 0.02 1 2:0,2:8
edge 1 0 0 1 1000.000 1000
edge 1 1 0 2 600.000 600
edge 1 1 1 3 400.000 400
edge 1 4 0 5 500.000 500
edge 1 4 1 6 300.000 300
edge 1 4 2 7 200.000 200
edge 2 2 0 exit 50.000 50
edge 2 2 1 3 150.000 150
edge 2 5 0 6 40.000 40
edge 2 5 1 7 60.000 60
edge 2 8 0 9 100.000 100
EOF
tsv "$W/p2.sampled.tsv" <<'EOF'
module 0 2
function 3 work /src/p.c 20 - -
function 8 main /src/p.c 10 - -
path 1 8 2 520.000 45.000 52 0.52 0 8:0,8:9
path 2 3 0 190.000 25.000 19 0.19 1 3:0,3:2
path 3 8 1 130.000 22.000 13 0.13 2 8:0,8:1,8:5
path 4 8 0 90.000 20.000 9 0.09 3 8:0,8:1,8:4
path 5 3 2 40.000 12.000 4 0.04 4 3:0,3:5
path 6 3 3 20.000 9.000 2 0.02 1 3:0,3:8
path 7 3 1 10.000 6.000 1 0.01 5 3:0,3:2,3:3
edge 8 0 0 1 900.000 90
edge 8 1 0 2 700.000 70
edge 8 1 1 3 300.000 30
edge 8 4 0 5 250.000 25
edge 8 4 1 6 250.000 25
edge 8 4 2 7 500.000 50
edge 3 2 0 exit 40.000 4
edge 3 2 1 3 160.000 16
edge 3 8 0 9 50.000 5
edge 3 8 1 10 50.000 5
stat samples 100
EOF
run swap -t 10 "$W/p2.exact.tsv" "$W/p2.sampled.tsv"
expect swap 0 \
  'paths: hot threshold 10% of branch flow, 4 hot paths' \
  'path accuracy (Wall weight matching, PEP form): 83.33%' \
  "path weight matching (Wall's original form): 92.22%" \
  'path key matching: 3/4 (75.00%)' \
  'path overlap (Arnold-Ryder): 96.00%' \
  'edges: 5 branches, 1 not seen in SAMPLED' \
  'edge accuracy (relative overlap, PEP): 76.67%' \
  'edge overlap (Arnold-Ryder absolute): 83.88%' \
  '# 7 paths in EXACT, 7 in SAMPLED; 1 EXACT paths have 0 branches and so flow 0 (they count in the overlap, never as hot)'
osp_show "$W/swap.out" "one hot path swapped"

# -v: the hot paths by exact flow (flow % of 1000; sampled flow % of 950: 270 -> 28.42,
# 260 -> 27.37, 190 -> 20.00, 50 -> 5.26, 160 -> 16.84), sampled rank (A B C E D F), in/out
# of H_est; E is the extra path of H_est (8.00% of the exact flow).
tab=$(printf '\t')
run swap-v -v -t 10 "$W/p2.exact.tsv" "$W/p2.sampled.tsv"
expect swap-v 0 \
  "hot${tab}main@/src/p.c#0${tab}30.00${tab}28.42${tab}1${tab}in" \
  "hot${tab}main@/src/p.c#1${tab}25.00${tab}27.37${tab}2${tab}in" \
  "hot${tab}work@/src/p.c#0${tab}20.00${tab}20.00${tab}3${tab}in" \
  "hot${tab}work@/src/p.c#1${tab}15.00${tab}5.26${tab}5${tab}out" \
  "extra${tab}work@/src/p.c#2${tab}8.00${tab}16.84${tab}4${tab}in" \
  'path accuracy (Wall weight matching, PEP form): 83.33%'
[ "$(grep -c -e '^hot' -e '^extra' "$W/swap-v.out")" -eq 5 ] || osp_fail "swap -v: not 5 hot/extra rows"
grep -q -e '^hot' -e '^extra' "$W/swap.out" && osp_fail "swap: hot/extra rows without -v"

# -m / -e: exit 1 below the minimum (compared at 2 decimals), one line on stderr saying which.
run min-ok -t 10 -m 83.33 -e 76.67 "$W/p2.exact.tsv" "$W/p2.sampled.tsv"
expect min-ok 0 'path accuracy (Wall weight matching, PEP form): 83.33%'
[ -s "$W/min-ok.err" ] && osp_fail "min-ok: something on stderr"
run min-path -t 10 -m 83.34 -e 50 "$W/p2.exact.tsv" "$W/p2.sampled.tsv"
expect min-path 1 'path accuracy (Wall weight matching, PEP form): 83.33%'
[ "$(cat "$W/min-path.err")" = "ospaccuracy: below the minimum: path accuracy 83.33% < 83.34% (-m)" ] ||
  { osp_fail "min-path: stderr"; osp_show "$W/min-path.err"; }
run min-edge -t 10 -m 80 -e 80 "$W/p2.exact.tsv" "$W/p2.sampled.tsv"
expect min-edge 1 'edge accuracy (relative overlap, PEP): 76.67%'
[ "$(cat "$W/min-edge.err")" = "ospaccuracy: below the minimum: edge accuracy 76.67% < 80% (-e)" ] ||
  { osp_fail "min-edge: stderr"; osp_show "$W/min-edge.err"; }
run min-both -t 10 -m 90 -e 90 "$W/p2.exact.tsv" "$W/p2.sampled.tsv"
[ "$rc" -eq 1 ] || osp_fail "min-both: exit status $rc, expected 1"
[ "$(cat "$W/min-both.err")" = "ospaccuracy: below the minimum: path accuracy 83.33% < 90% (-m), edge accuracy 76.67% < 90% (-e)" ] ||
  { osp_fail "min-both: stderr"; osp_show "$W/min-both.err"; }

# An empty sampled profile (no path or edge rows) is not an error: everything is 0.  4 branches:
# work block 8 has one successor in EXACT and now none in SAMPLED, so it is no branch here.
tsv "$W/empty.tsv" <<'EOF'
function 1 main /src/p.c 10 - -
stat samples 0
EOF
run empty -t 10 "$W/p2.exact.tsv" "$W/empty.tsv"
expect empty 0 \
  'paths: hot threshold 10% of branch flow, 4 hot paths' \
  'path accuracy (Wall weight matching, PEP form): 0.00%' \
  "path weight matching (Wall's original form): 0.00%" \
  'path key matching: 0/4 (0.00%)' \
  'path overlap (Arnold-Ryder): 0.00%' \
  'edges: 4 branches, 4 not seen in SAMPLED' \
  'edge accuracy (relative overlap, PEP): 0.00%' \
  'edge overlap (Arnold-Ryder absolute): 0.00%'

# ---- P3: the default threshold (0.125%), a 0-branch path, no edges ----------------------------
# EXACT: a#0 7981x1 = 7981, b#1 5x2 = 10, c#2 9x1 = 9, z#3 1000x0 = 0; total flow 8000,
#   0.125% of it = 10: H_actual = {a, b} (b exactly at the threshold, c below), F = 7991.
# SAMPLED: a 7900x1 = 7900, c 20x1 = 20, b 4x2 = 8, z 0 (no row): H_est = {a, c}.
#   PEP form 7981/7991 = 99.87%; Wall's original form (7981+9)/7991 = 99.99%; key 1/2 = 50.00%
#   path overlap: exact total 8995, sampled 7924:
#   min(7981/8995, 7900/7924) + min(5/8995, 4/7924) + min(9/8995, 20/7924) + 0
#   = 0.887271 + 0.000505 + 0.001001 = 88.88%
# No edge rows: the edge metrics are n/a, and -e fails on n/a.
tsv "$W/p3.exact.tsv" <<'EOF'
function 4 f /src/r.c 1 - -
path 1 4 0 7981.000 0.000 7981 0.887 1 4:0,4:1
path 2 4 3 1000.000 0.000 1000 0.111 0 4:0
path 3 4 2 9.000 0.000 9 0.001 1 4:0,4:3
path 4 4 1 5.000 0.000 5 0.0005 2 4:0,4:1,4:2
EOF
tsv "$W/p3.sampled.tsv" <<'EOF'
function 1 f /src/r.c 1 - -
path 1 1 0 7900.000 100.000 79 0.99 1 1:0,1:1
path 2 1 2 20.000 20.000 2 0.0025 1 1:0,1:3
path 3 1 1 4.000 4.000 1 0.0005 2 1:0,1:1,1:2
EOF
run threshold "$W/p3.exact.tsv" "$W/p3.sampled.tsv"
expect threshold 0 \
  'paths: hot threshold 0.125% of branch flow, 2 hot paths' \
  'path accuracy (Wall weight matching, PEP form): 99.87%' \
  "path weight matching (Wall's original form): 99.99%" \
  'path key matching: 1/2 (50.00%)' \
  'path overlap (Arnold-Ryder): 88.88%' \
  'edges: 0 branches, 0 not seen in SAMPLED' \
  'edge accuracy (relative overlap, PEP): n/a' \
  'edge overlap (Arnold-Ryder absolute): n/a' \
  '# 4 paths in EXACT, 3 in SAMPLED; 1 EXACT paths have 0 branches and so flow 0 (they count in the overlap, never as hot)'
run threshold-e -e 1 "$W/p3.exact.tsv" "$W/p3.sampled.tsv"
[ "$rc" -eq 1 ] || osp_fail "threshold -e: exit status $rc, expected 1 (edge accuracy n/a)"
grep -q 'edge accuracy n/a' "$W/threshold-e.err" || osp_fail "threshold -e: stderr does not name the edge accuracy"
# -t 0.2 (16): only a is hot; H_est = {a}: 100% both forms.
run threshold2 -t 0.2 "$W/p3.exact.tsv" "$W/p3.sampled.tsv"
expect threshold2 0 \
  'paths: hot threshold 0.2% of branch flow, 1 hot paths' \
  'path accuracy (Wall weight matching, PEP form): 100.00%' \
  'path key matching: 1/1 (100.00%)'

# ---- ties: H_est takes the smaller key (path id 9 before 10: numeric, not lexical) ------------
# EXACT: g#0 10x1, g#9 10x1, g#10 1x1; -t 20 (of 21 = 4.2): H_actual = {g#0, g#9}, F = 20.
# SAMPLED: g#0 10, g#9 5, g#10 5: H_est = {g#0, g#9} -> 100.00% (g#10 would give 50.00%).
tsv "$W/tie.exact.tsv" <<'EOF'
function 1 g /src/t.c 1 - -
path 1 1 0 10 0 10 0.5 1 1:0
path 2 1 9 10 0 10 0.5 1 1:1
path 3 1 10 1 0 1 0.05 1 1:2
EOF
tsv "$W/tie.sampled.tsv" <<'EOF'
function 1 g /src/t.c 1 - -
path 1 1 0 10 0 10 0.5 1 1:0
path 2 1 10 5 0 5 0.25 1 1:2
path 3 1 9 5 0 5 0.25 1 1:1
EOF
run tie -t 20 "$W/tie.exact.tsv" "$W/tie.sampled.tsv"
expect tie 0 \
  'paths: hot threshold 20% of branch flow, 2 hot paths' \
  'path accuracy (Wall weight matching, PEP form): 100.00%'

# ---- no branch flow at all: every path has 0 branches -> no hot paths, path accuracy n/a ------
tsv "$W/flat.tsv" <<'EOF'
function 1 main /src/s.c 1 - -
path 1 1 0 100 0 100 1 0 1:0
EOF
run flat -m 50 "$W/flat.tsv" "$W/flat.tsv"
expect flat 1 \
  'paths: hot threshold 0.125% of branch flow, 0 hot paths' \
  'path accuracy (Wall weight matching, PEP form): n/a' \
  'path key matching: 0/0 (n/a)' \
  'path overlap (Arnold-Ryder): 100.00%'
grep -q 'path accuracy n/a < 50% (-m)' "$W/flat.err" || osp_fail "flat -m: stderr"

# ---- bad input: exit 2, one line on stderr naming the file (and the line) ---------------------
run missing "$W/p2.exact.tsv" "$W/nosuch.tsv"
expect_error missing "$W/nosuch.tsv"
tsv "$W/nopaths.tsv" <<'EOF'
function 1 main /src/p.c 10 - -
edge 1 0 0 1 5 5
EOF
run nopaths "$W/nopaths.tsv" "$W/p2.sampled.tsv"
expect_error nopaths "$W/nopaths.tsv" 'no path rows'
# Line 4 (the header is line 1) has 9 fields.
tsv "$W/fields.tsv" <<'EOF'
function 3 work /src/p.c 20 - -
path 1 3 0 190.000 25.000 19 0.19 1 3:0,3:2
path 2 3 1 10.000 6.000 1 0.01 5
EOF
run fields "$W/p2.exact.tsv" "$W/fields.tsv"
expect_error fields "$W/fields.tsv:4:" 'path row has 9 fields, expected 13 (or 10)'
tsv "$W/edgefields.tsv" <<'EOF'
function 1 main /src/p.c 10 - -
path 1 1 0 1 0 1 1 1 1:0
edge 1 0 0 1 5
EOF
run edgefields "$W/edgefields.tsv" "$W/p2.sampled.tsv"
expect_error edgefields "$W/edgefields.tsv:4:" 'edge row has 6 fields, expected 7'
tsv "$W/nonnum.tsv" <<'EOF'
function 1 main /src/p.c 10 - -
path 1 1 0 12x 0 1 1 1 1:0
EOF
run nonnum "$W/nonnum.tsv" "$W/p2.sampled.tsv"
expect_error nonnum "$W/nonnum.tsv:3:" 'estimate is not a number: 12x'
tsv "$W/edgenonnum.tsv" <<'EOF'
function 1 main /src/p.c 10 - -
path 1 1 0 1 0 1 1 1 1:0
edge 1 0 0 1 - 5
EOF
run edgenonnum "$W/p2.exact.tsv" "$W/edgenonnum.tsv"
expect_error edgenonnum "$W/edgenonnum.tsv:4:" 'estimate is not a number: -'
tsv "$W/nofn.tsv" <<'EOF'
function 1 main /src/p.c 10 - -
path 1 2 0 1 0 1 1 1 2:0
EOF
run nofn "$W/p2.exact.tsv" "$W/nofn.tsv"
expect_error nofn "$W/nofn.tsv:3:" 'function id 2'
printf 'osp report: mode=paths\n' > "$W/text.txt"
run notreport "$W/p2.exact.tsv" "$W/text.txt"
expect_error notreport "$W/text.txt" 'not a tsv osp report'

# Usage errors: exit 2, one line.
run usage0
expect_error usage0 'usage: ospaccuracy'
run usage1 "$W/p2.exact.tsv"
expect_error usage1 'usage: ospaccuracy'
run badt -t ten "$W/p2.exact.tsv" "$W/p2.sampled.tsv"
expect_error badt '-t' 'ten'
run badm -m -5 "$W/p2.exact.tsv" "$W/p2.sampled.tsv"
expect_error badm '-m'

osp_done

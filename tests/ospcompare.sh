#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/ospcompare.sh - tools/ospcompare on hand-written reports: the recall of the exact top K
# in the sampled top N, plain and with ties (recall_ties: subpaths counted as often as the exact
# K-th, or within -T percent, all qualify for the places they share), by estimate and in the
# report's order (-r); and
# blocks_seen_equal: the sampled run's blocks_seen against the exact run's (issue 34).
#
# Exact counts: A 100, B 90, C 80, D 80, E 80, F 10.  Sampled, by estimate: D, A, F, C, B (the
# report's own order: A, B, D, C, F).  Top 3 in the sampled top 3: by estimate D, A, F hold A
# only of A, B, C (1/3) but with ties D stands for C (2/3); in report order A, B, D: 2/3 and 3/3.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup ospcompare
CMP=$abs_top_srcdir/tools/ospcompare

t='	'
{
  echo "# osp-report 1 mode=subpaths-exact"
  echo "function${t}1${t}f${t}/src/x.c"
  echo "stat${t}max_length${t}32"
  n=0
  for kv in A:100 B:90 C:80 D:80 E:80 F:10; do
    n=$((n + 1)); b=$(echo "${kv%%:*}" | tr 'A-F' '1-6')
    echo "subpath${t}$n${t}2${t}${kv#*:}${t}0${t}${kv#*:}${t}0${t}1:$b,1:9"
  done
} > "$W/x.tsv"
{
  echo "# osp-report 1 mode=subpaths"
  echo "function${t}7${t}f${t}/elsewhere/x.c"
  echo "stat${t}interval${t}1000"
  # subpath RANK LEN ESTIMATE ERR95 COUNT SHARE PATH (rank: the report's own order)
  echo "subpath${t}3${t}2${t}150${t}100${t}3${t}0${t}7:4,7:9"
  echo "subpath${t}1${t}2${t}120${t}20${t}12${t}0${t}7:1,7:9"
  echo "subpath${t}5${t}2${t}110${t}109${t}1${t}0${t}7:6,7:9"
  echo "subpath${t}4${t}2${t}100${t}90${t}2${t}0${t}7:3,7:9"
  echo "subpath${t}2${t}2${t}95${t}15${t}10${t}0${t}7:2,7:9"
} > "$W/s.tsv"

# expect FLAGS NAME VALUE
expect ()
{
  # shellcheck disable=SC2086
  got=$("$CMP" $1 "$W/s.tsv" "$W/x.tsv" | awk -F '\t' -v n="$2" '$1 == "summary" && $2 == n { print $3 }')
  if [ "$got" = "$3" ]; then
    echo "ok: ospcompare $1: $2 $got"
  else
    osp_fail "ospcompare $1: $2 is '$got', expected $3"
    "$CMP" $1 "$W/s.tsv" "$W/x.tsv" | sed 's/^/  /'
  fi
}
expect "-k 3 -n 3" recall 1/3
expect "-k 3 -n 3" recall_ties 2/3
expect "-r -k 3 -n 3" recall 2/3
expect "-r -k 3 -n 3" recall_ties 3/3
# No tie at the boundary: the same as plain recall.
expect "-k 2 -n 3" recall 1/2
expect "-k 2 -n 3" recall_ties 1/2
# A tie group larger than the places left: at most K.
expect "-k 4 -n 5" recall_ties 4/4
# Near ties (-T PCT): within 5% of B (90) is only B, A (100) must still be found: 1/2; within
# 12.5% A, B and C, D, E (80) tie, and A and D in the sampled top 3 fill both places: 2/2.
expect "-k 2 -n 3 -T 5" recall_ties 1/2
expect "-k 2 -n 3 -T 12.5" recall_ties 2/2
if "$CMP" -T 100 "$W/s.tsv" "$W/x.tsv" > /dev/null 2> "$W/t.err" || ! grep -q "percentage below 100" "$W/t.err"; then
  osp_fail "ospcompare -T 100: not refused with a message"
fi
# The identity of issue 34: the sampled walk's blocks_seen is the exact block count.
expect "" blocks_seen_equal -
echo "stat${t}blocks_seen${t}5000" >> "$W/x.tsv"
echo "stat${t}blocks_seen${t}5000" >> "$W/s.tsv"
expect "" blocks_seen_equal 1
"$CMP" "$W/s.tsv" "$W/x.tsv" > /dev/null 2> "$W/eq.err"
[ -s "$W/eq.err" ] && { osp_fail "ospcompare: stderr with equal blocks_seen"; osp_show "$W/eq.err"; }
sed -i "s/^stat${t}blocks_seen${t}5000\$/stat${t}blocks_seen${t}5210/" "$W/s.tsv"
expect "" blocks_seen_equal 0
"$CMP" "$W/s.tsv" "$W/x.tsv" > /dev/null 2> "$W/ne.err"
grep -q 'sampled blocks_seen 5210, exact 5000' "$W/ne.err" ||
  { osp_fail "ospcompare: no stderr line for a blocks_seen difference"; osp_show "$W/ne.err"; }
echo "stat${t}threads${t}4" >> "$W/s.tsv"
expect "" blocks_seen_equal -
osp_done

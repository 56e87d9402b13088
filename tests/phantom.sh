#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/phantom.sh - no phantom blocks: the sampled blocks_seen equals the exact block count, and
# every sampled subpath occurs in the exact run (issue 34, "phantom subpaths").
#
# tests/progs/phantom.c has the shape of SQLite's lookupName/sqlite3StrICmp: a small string
# compare with a loop of its own, inlined into a caller's nest of loops with constant trip
# counts.  There the compare's cold hook blocks have estimated counts above the count of
# entering the nest, and RTL loop-invariant motion hoisted their asm statements (whose operands
# are constants) into the nest's preheader: a hook ran on each entry into the nest for a block
# not entered, and inside the nest the countdown was re-armed with that stale value without the
# runtime (blocks_seen 2.2M or 15.9M against 2.39M, depending on -O and the interval).  So,
# built with the default options (and $CHECKFLAGS) at -O0, -O1, -O2, -O3, -Os, -O2 -flto and
# -O2 with placement=late:
# - the exact run (mode=subpaths-exact) prints what the plain build prints, drops nothing, and
#   counts as many blocks as the calls=plain build's exact run (whose calls no pass moves);
# - sampled runs at intervals 1, 10, 100, 1000 and 10000 report blocks_seen equal to that count,
#   and each sampled subpath no longer than the exact table's limit is one of the exact table's
#   (functions keyed by name: function ids are per run).

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup phantom
osp_need_build
src=$OSP_TESTSRC/progs/phantom.c

b=$W/plain
osp_compile "$b" plain_cc -O2 "$src" -o "$b" || { osp_fail "plain build"; osp_done; }
osp_exec "$b" "$b"
[ "$osp_rc" -eq 0 ] || { osp_fail "plain build exited with $osp_rc"; osp_done; }

# subpaths REPORT: one line per subpath row, its blocks as function-name:block.
subpaths ()
{
  awk -F '\t' '
    $1 == "function" { name[$2] = $3 }
    $1 == "subpath" {
      n = split($8, bl, ","); s = $3
      for (i = 1; i <= n; i++) { split(bl[i], fb, ":"); s = s " " name[fb[1]] ":" fb[2] }
      print s
    }' "$1"
}

for level in -O0 -O1 -O2 -O3 -Os "-O2 -flto" "-O2 -fplugin-arg-osp-placement=late"; do
  tag=$(echo "$level" | sed 's/-fplugin-arg-osp-//; s/[ =-]//g')
  b=$W/$tag
  failures=$osp_failures
  # shellcheck disable=SC2086
  if ! osp_compile "$b" osp_cc $level $CHECKFLAGS "$src" -o "$b" ||
     ! osp_compile "$b.cp" osp_cc $level $CHECKFLAGS -fplugin-arg-osp-calls=plain "$src" \
         -o "$b.cp"; then
    osp_fail "$tag: build failed"
    continue
  fi
  osp_exec_with "mode=subpaths-exact:report=$b.cp.tsv:report_format=tsv" "$b.cp" "$b.cp"
  [ "$osp_rc" -eq 0 ] || { osp_fail "$tag calls=plain exact run exited with $osp_rc"; continue; }
  truth=$(osp_stat "$b.cp.tsv" blocks_seen)
  osp_exec_with "mode=subpaths-exact:report=$b.x.tsv:report_format=tsv" "$b.x" "$b"
  [ "$osp_rc" -eq 0 ] || { osp_fail "$tag exact run exited with $osp_rc"; continue; }
  osp_same "$tag exact stdout" "$W/plain.out" "$b.x.out" || continue
  [ "$(osp_stat "$b.x.tsv" exact_dropped)" = 0 ] || osp_fail "$tag: the exact table dropped occurrences"
  exact=$(osp_stat "$b.x.tsv" blocks_seen)
  [ -n "$truth" ] && [ "$exact" = "$truth" ] ||
    osp_fail "$tag: exact run counted $exact blocks, the calls=plain build's $truth"
  subpaths "$b.x.tsv" | sort -u > "$b.x.keys"
  maxlen=$(osp_stat "$b.x.tsv" max_length)
  for iv in 1 10 100 1000 10000; do
    r=$b.i$iv
    osp_exec_with "seed=1:interval=$iv:report=$r.tsv:report_format=tsv" "$r" "$b"
    [ "$osp_rc" -eq 0 ] || { osp_fail "$tag interval=$iv exited with $osp_rc"; continue; }
    osp_same "$tag interval=$iv stdout" "$W/plain.out" "$r.out" > /dev/null || continue
    seen=$(osp_stat "$r.tsv" blocks_seen)
    [ "$seen" = "$exact" ] ||
      osp_fail "$tag interval=$iv: blocks_seen $seen, exact $exact"
    subpaths "$r.tsv" | awk -v m="$maxlen" '$1 <= m' | sort -u > "$r.keys"
    comm -23 "$r.keys" "$b.x.keys" > "$r.phantoms"
    if [ -s "$r.phantoms" ]; then
      osp_fail "$tag interval=$iv: $(wc -l < "$r.phantoms") of $(wc -l < "$r.keys") sampled subpaths never occur in the exact run"
      osp_show "$r.phantoms"
    fi
  done
  [ "$osp_failures" = "$failures" ] &&
    echo "ok: $tag: $exact blocks; blocks_seen the same and no phantom at intervals 1..10000"
done

osp_done

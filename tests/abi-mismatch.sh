#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/abi-mismatch.sh - a record of another ABI version (a hand-made record with
# abi_version 99 handed to __osp_register_module, with register version 99 or the current one)
# is refused with one clear line on stderr; the program runs on and computes correctly, its own
# functions are still counted, and a block hook for the refused record is ignored.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup abi-mismatch
osp_need_build
src=$OSP_TESTSRC/progs/abi-mismatch.c

osp_compile "$W/plain" plain_cc -O1 -DPLAIN=1 "$src" -o "$W/plain" || { osp_fail "plain build"; osp_done; }
osp_exec "$W/plain" "$W/plain"
prc=$osp_rc

for case in 1 2; do
  b=$W/case$case
  osp_compile "$b" osp_cc -O1 -DCASE=$case "$src" -o "$b" || { osp_fail "case $case: build"; continue; }
  osp_exec_with "mode=blocks:report=$b.tsv:report_format=tsv" "$b" "$b"
  [ "$osp_rc" = "$prc" ] || osp_fail "case $case: exit status $osp_rc, plain $prc"
  osp_same "case $case stdout" "$W/plain.out" "$b.out"
  n=$(wc -l < "$b.err")
  if [ "$n" -ne 1 ]; then
    osp_fail "case $case: $n lines on stderr, expected exactly one"
    osp_show "$b.err" stderr
  elif ! grep -q '^osp' "$b.err" || ! grep -q -i -e abi -e version "$b.err" || ! grep -q 99 "$b.err"; then
    osp_fail "case $case: the stderr line should start with 'osp' and name the ABI version 99:"
    osp_show "$b.err" stderr
  else
    echo "ok: case $case: $(cat "$b.err")"
  fi
  [ -f "$b.tsv" ] || { osp_fail "case $case: no report"; continue; }
  osp_check_report "$b.tsv" || osp_fail "case $case: malformed report"
  [ "$(osp_calls "$b.tsv" main)" = 1 ] || osp_fail "case $case: main has calls '$(osp_calls "$b.tsv" main)'"
  [ "$(osp_calls "$b.tsv" work)" = 1 ] || osp_fail "case $case: work has calls '$(osp_calls "$b.tsv" work)'"
  if grep -q bogus_abi99_function "$b.tsv"; then
    osp_fail "case $case: the refused record appears in the report"
  fi
  u=$(osp_stat "$b.tsv" unregistered_hits)
  [ -n "$u" ] && [ "$u" -ge 1 ] ||
    osp_fail "case $case: stat unregistered_hits is '$u', expected >= 1 (one hook for the refused record)"
done
osp_done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/skip-functions.sh - functions that must not be touched are skipped: a naked function
# (x86-64), a no_instrument_function function and an ifunc resolver.  Checked at -O0 and -O2,
# with lazy and immediate binding (-Wl,-z,now resolves the ifunc while relocating): the program
# prints the plain output; the report has no row for them but has the normal functions; the
# verbose notes say why each was skipped; and the skipped functions contain no hook call.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup skip-functions
osp_need_build
src=$OSP_TESTSRC/progs/skip.c

skipped="noinst_fn resolve_triple"
case $($CC -dumpmachine) in x86_64-*) skipped="$skipped naked_add" ;; esac

for variant in "-O0" "-O2" "-O0 -Wl,-z,now" "-O2 -Wl,-z,now" "-O2 -flto"; do
  tag=$(echo "$variant" | tr -d ' ,=')
  b=$W/$tag
  # shellcheck disable=SC2086
  osp_compile "$b.plain" plain_cc $variant "$src" -o "$b.plain" || { osp_fail "$variant: plain build"; continue; }
  # shellcheck disable=SC2086
  osp_compile "$b" osp_cc $variant $CHECKFLAGS -fplugin-arg-osp-verbose "$src" -o "$b" ||
    { osp_fail "$variant: instrumented build"; continue; }
  osp_exec "$b.plain" "$b.plain"
  prc=$osp_rc
  osp_exec_with "mode=blocks:report=$b.tsv:report_format=tsv" "$b" "$b"
  [ "$osp_rc" = "$prc" ] || { osp_fail "$variant: exit status $osp_rc, plain $prc"; osp_show "$b.err"; }
  osp_same "$variant stdout" "$b.plain.out" "$b.out"
  osp_same "$variant stderr" "$b.plain.err" "$b.err"
  [ -f "$b.tsv" ] || { osp_fail "$variant: no report"; continue; }
  osp_check_report "$b.tsv" || osp_fail "$variant: malformed report"
  for f in $skipped; do
    if awk -F '\t' -v f="$f" '$1 == "function" && $3 == f { x = 1 } END { exit !x }' "$b.tsv"; then
      osp_fail "$variant: $f must be skipped but has a function row"
    fi
    if ! grep -E -q "osp: skipped $f: ." "$b.cc.err"; then
      osp_fail "$variant: no verbose note 'osp: skipped $f: REASON'"
      osp_show "$b.cc.err" "compiler messages"
    fi
  done
  for f in main normal_fn; do
    [ "$(osp_calls "$b.tsv" $f)" = 1 ] ||
      osp_fail "$variant: $f has calls '$(osp_calls "$b.tsv" $f)' in the report, expected 1"
  done
  # impl_slow is called once directly (not through the ifunc, which picks impl_fast).
  [ "$(osp_calls "$b.tsv" impl_slow)" = 1 ] ||
    osp_fail "$variant: impl_slow has calls '$(osp_calls "$b.tsv" impl_slow)', expected 1"
  echo "ok: $variant"
done

# The skipped functions' code calls no hook (checked in the assembly, -O0).
osp_cc -O0 -S "$src" -o "$W/skip.s" > "$W/asm.err" 2>&1 || osp_fail "-S failed"
for f in $skipped; do
  body=$(awk -v f="$f" '$0 == f ":" { on = 1; next } on && /^\t\.cfi_endproc/ { exit } on' "$W/skip.s")
  if [ -z "$body" ]; then
    osp_fail "cannot find $f in the assembly"
  elif echo "$body" | grep -q -e __osp_block_hook -e __osp_skip; then
    osp_fail "$f touches __osp_block_hook/__osp_skip:"
    echo "$body" | head -n 30
  fi
done
osp_done

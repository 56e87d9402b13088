#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/registration.sh - every instrumented function is registered exactly once, also when the
# linker drops unused code (-ffunction-sections -Wl,--gc-sections) and with -flto (several
# partitions too): the report's function rows must name every function of the two translation
# units, used or not, inlined or not, each once, with the right call counts.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup registration
osp_need_build
m=$OSP_TESTSRC/progs/registration-main.c
o=$OSP_TESTSRC/progs/registration-other.c

# name=calls for every function (inlined_helper is inlined at -O2 but instrumented before).
want="main=1 used_here=5 inlined_helper=5 unused_extern=0 other_used=5 other_unused=0
other_static_helper=0 other_unused_calls_static=0"

GC="-ffunction-sections -fdata-sections -Wl,--gc-sections"
i=0
for variant in "-O0" "-O2" "-O0 $GC" "-O2 $GC" "-O2 -flto" "-O2 -flto $GC" \
               "-O2 -flto -flto-partition=max" "-O3 -flto -flto-partition=one $GC" \
               "-O2 -fPIE -pie $GC" "-O2 -fno-pie -no-pie"; do
  i=$((i + 1))
  b=$W/v$i
  # shellcheck disable=SC2086
  if ! osp_compile "$b" osp_cc $variant "$m" "$o" -o "$b"; then
    osp_fail "[$variant]: build failed"
    continue
  fi
  osp_exec_with "mode=blocks:report=$b.tsv:report_format=tsv" "$b" "$b"
  [ "$osp_rc" = 0 ] || osp_fail "[$variant]: exit status $osp_rc"
  [ "$(cat "$b.out")" = "s 560" ] || osp_fail "[$variant]: output '$(cat "$b.out")', expected 's 560'"
  [ -f "$b.tsv" ] || { osp_fail "[$variant]: no report"; continue; }
  osp_check_report "$b.tsv" || osp_fail "[$variant]: malformed report"
  ok=yes
  for nc in $want; do
    n=${nc%=*} c=${nc#*=}
    got=$(osp_calls "$b.tsv" "$n" | tr '\n' ' ' | sed 's/ $//')
    if [ "$got" != "$c" ]; then
      osp_fail "[$variant]: function $n: calls '$got' in the report (one row expected, with $c)"
      ok=no
    fi
  done
  extra=$(awk -F '\t' '$1 == "function" { print $3 }' "$b.tsv" | sort | uniq -d)
  [ -z "$extra" ] || { osp_fail "[$variant]: functions with several rows: $extra"; ok=no; }
  nfun=$(grep -c '^function	' "$b.tsv")
  [ "$nfun" -eq 8 ] || { osp_fail "[$variant]: $nfun function rows, expected 8"; ok=no; }
  [ $ok = yes ] && echo "ok: [$variant]"
  [ $ok = yes ] || osp_show "$b.tsv" report
done
osp_done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/fold.sh - block hooks folded into one asm each, their calls out of line
# (plugin/fold.cc, fold-hooks=yes, the default on x86-64 when optimizing).
#
# tests/progs/promote.c has the shapes: switch and computed-goto dispatch loops, recursion, a
# tail call, a noreturn call never taken, and a setjmp function (whose countdown is not
# promoted, so its hooks are not folded).
#   - With the default options and $CHECKFLAGS, at -O1, -O2, -O3 and -Os, as -fPIE, -fno-pie
#     and -fPIC code and with -mavx2 (the trampolines' flavours), the program prints what the
#     plain build prints, and at intervals 1 and 7 (seed 1) its report is the very report of
#     the same build with fold-hooks=no: the folded hooks call the runtime at the same blocks
#     with the same countdowns, and it re-arms them the same way.
#   - With -masm=intel (the asm statements switch the assembler to AT&T syntax and back) the
#     reports are those of the -O2 build too: the same code, another syntax.
#   - At -O2 the dispatch functions call the runtime through folded stubs (__osp_fold_call) and have
#     no cold block calling __osp_block_hook_preserving left; fold-hooks=no has no folded call.
. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup fold
osp_need_build
src=$OSP_TESTSRC/progs/promote.c

osp_compile "$W/plain" plain_cc -O2 -w "$src" -o "$W/plain" || { osp_fail "plain build"; osp_done; }
osp_exec "$W/plain" "$W/plain"
[ "$osp_rc" = 0 ] || { osp_fail "plain run exited with $osp_rc"; osp_done; }

avx2="|-O2 -mavx2"
grep -qw avx2 /proc/cpuinfo 2>/dev/null || { avx2=; echo "note: no AVX2 here, -mavx2 not run"; }
IFS='|'
for variant in -O2 -O1 -O3 -Os "-O2 -fno-pie -no-pie" "-O2 -fPIC" "-O2 -masm=intel"$avx2; do
  IFS=' '
  tag=$(echo "$variant" | tr -d ' ')
  b=$W/f$tag n=$W/n$tag
  # shellcheck disable=SC2086
  osp_compile "$b" osp_cc $variant -w $CHECKFLAGS "$src" -o "$b" || { osp_fail "$variant: build"; continue; }
  # shellcheck disable=SC2086
  osp_compile "$n" osp_cc $variant -w -fplugin-arg-osp-fold-hooks=no "$src" -o "$n" ||
    { osp_fail "$variant fold-hooks=no: build"; continue; }
  ok=yes
  for interval in 1 7; do
    opts="interval=$interval:seed=1:report_format=tsv"
    osp_exec_with "$opts:report=$b.i$interval.tsv" "$b.i$interval" "$b"
    [ "$osp_rc" = 0 ] || { osp_fail "$variant interval=$interval: exited with $osp_rc"; ok=no; continue; }
    osp_exec_with "$opts:report=$n.i$interval.tsv" "$n.i$interval" "$n"
    [ "$osp_rc" = 0 ] || { osp_fail "$variant interval=$interval fold-hooks=no: exited with $osp_rc"; ok=no; continue; }
    osp_same "$variant interval=$interval stdout" "$W/plain.out" "$b.i$interval.out" || ok=no
    osp_check_report "$b.i$interval.tsv" || { osp_fail "$variant interval=$interval: malformed report"; ok=no; }
    osp_same "$variant interval=$interval: the report against fold-hooks=no's" \
      "$n.i$interval.tsv" "$b.i$interval.tsv" || ok=no
  done
  [ $ok = yes ] && echo "ok: $variant: plain's output, fold-hooks=no's reports at intervals 1 and 7"
  IFS='|'
done
IFS=' '

same=yes
for interval in 1 7; do
  osp_same "-masm=intel interval=$interval: the report against -O2's" \
    "$W/f-O2.i$interval.tsv" "$W/f-O2-masm=intel.i$interval.tsv" || same=no
done
[ $same = yes ] && echo "ok: -O2 -masm=intel: -O2's reports at intervals 1 and 7"

# The calls in each dispatch function's code: a stub is in subsection 1, which the assembler
# places after the function, but in the .s file its text is inside the function's.
osp_compile "$W/s" osp_cc -O2 -w -S "$src" -o "$W/on.s" || osp_fail "-S"
osp_compile "$W/s" osp_cc -O2 -w -S -fplugin-arg-osp-fold-hooks=no "$src" -o "$W/off.s" ||
  osp_fail "-S fold-hooks=no"
for fn in run_switch run_goto; do
  folded=$(awk -v f="$fn" '
    /^[A-Za-z_][A-Za-z_0-9.]*:/ { cur = $1; sub(/[.:].*/, "", cur) }
    cur == f && /call \*__osp_block_hook_preserving/ { cold++ }
    cur == f && /^\t__osp_fold_call %/ { folded++ }
    END { print folded + 0, cold + 0 }' "$W/on.s")
  set -- $folded
  if [ "$1" -gt 0 ] && [ "$2" = 0 ]; then
    echo "ok: $fn: $1 folded hooks, no cold block calling the plain trampoline"
  else
    osp_fail "$fn: $1 folded hooks, $2 cold blocks calling __osp_block_hook_preserving"
  fi
done
if grep -q '__osp_fold_call\|__osp_block_hook_folded' "$W/off.s"; then
  osp_fail "fold-hooks=no: folded hooks in the code"
else
  echo "ok: fold-hooks=no: no folded hook"
fi
osp_done

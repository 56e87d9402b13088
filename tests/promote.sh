#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/promote.sh - the countdowns in a register between calls (plugin/promote.cc,
# promote-countdowns=yes, the default when optimizing).
#
# tests/progs/promote.c has the shapes the pass must follow: a switch dispatch and a computed
# goto dispatch (PHIs on abnormal edges) whose opcodes call a function, recursion, a tail call,
# a noreturn call never taken, and a function that calls setjmp (left alone).
#   - Built with the default options and $CHECKFLAGS at -O1, -O2, -O3 and -Os, it prints what
#     the plain build prints, and its sampled runs (intervals 1, 7 and 1000) see exactly the
#     blocks that mode=blocks counts: no decrement is lost or made twice across the calls.
#     With max_functions=1 (all but one function unregistered) the unregistered functions' hooks
#     call the runtime fewer than once in 100 blocks, and blocks_seen is still that count.
#   - At -O2 the two dispatch functions have no read-modify-write of __osp_skip in memory
#     (`subl $1, %fs:__osp_skip') and fewer stores of it than with promote-countdowns=no, which
#     has such read-modify-writes; the setjmp function's accesses are the same both ways.
. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup promote
osp_need_build
src=$OSP_TESTSRC/progs/promote.c

osp_compile "$W/plain" plain_cc -O2 -w "$src" -o "$W/plain" || { osp_fail "plain build"; osp_done; }
osp_exec "$W/plain" "$W/plain"
[ "$osp_rc" = 0 ] || { osp_fail "plain run exited with $osp_rc"; osp_done; }

for level in -O1 -O2 -O3 -Os; do
  b=$W/osp$level
  osp_compile "$b" osp_cc $level -w $CHECKFLAGS "$src" -o "$b" || { osp_fail "$level: build"; continue; }
  osp_exec_with mode=blocks:report=$b.blocks.tsv:report_format=tsv "$b.blocks" "$b"
  [ "$osp_rc" = 0 ] || { osp_fail "$level blocks: exited with $osp_rc"; continue; }
  osp_same "$level blocks stdout" "$W/plain.out" "$b.blocks.out" || continue
  blocks=$(awk -F '\t' '$1 == "function" { s += $7 } END { print s + 0 }' "$b.blocks.tsv")
  ok=yes
  for interval in 1 7 1000; do
    r=$b.i$interval
    osp_exec_with "interval=$interval:seed=1:report=$r.tsv:report_format=tsv" "$r" "$b"
    [ "$osp_rc" = 0 ] || { osp_fail "$level interval=$interval: exited with $osp_rc"; ok=no; continue; }
    osp_same "$level interval=$interval stdout" "$W/plain.out" "$r.out" || ok=no
    osp_check_report "$r.tsv" || { osp_fail "$level interval=$interval: malformed report"; ok=no; }
    seen=$(osp_stat "$r.tsv" blocks_seen)
    if [ "$blocks" = 0 ] || [ "$seen" != "$blocks" ]; then
      osp_fail "$level interval=$interval: blocks_seen $seen, mode=blocks counted $blocks"
      ok=no
    fi
  done
  [ $ok = yes ] && echo "ok: $level: the output is plain's, $blocks blocks seen at every interval"
  # Functions over max_functions are not registered: their hooks call in about once a skip
  # (collect.h, osp_sampler_unregistered), not at every block, and the blocks are still seen.
  r=$b.dropped
  osp_exec_with "max_functions=1:seed=1:report=$r.tsv:report_format=tsv" "$r" "$b"
  [ "$osp_rc" = 0 ] || { osp_fail "$level max_functions=1: exited with $osp_rc"; continue; }
  osp_same "$level max_functions=1 stdout" "$W/plain.out" "$r.out" || continue
  lost=$(osp_stat "$r.tsv" unregistered_hits)
  seen=$(osp_stat "$r.tsv" blocks_seen)
  if [ -n "$lost" ] && [ "$lost" -gt 0 ] && [ "$lost" -lt $((blocks / 100)) ] && [ "$seen" = "$blocks" ]; then
    echo "ok: $level max_functions=1: $lost calls from unregistered functions' $blocks blocks, all seen"
  else
    osp_fail "$level max_functions=1: $lost calls from unregistered functions (blocks $blocks), blocks_seen $seen"
  fi
done

# accesses FILE: per function, its read-modify-writes, stores and loads of __osp_skip in memory.
accesses ()
{
  awk '/^[A-Za-z_][A-Za-z_0-9.]*:/ { fn = $1; sub(/[.:].*/, "", fn) }
       /%fs:__osp_skip@tpoff/ {
         if ($1 ~ /^(sub|add|dec|inc)/ && $NF ~ /%fs:/) rmw[fn]++
         else if ($NF ~ /%fs:/) st[fn]++
         else ld[fn]++
         seen[fn] = 1
       }
       END { for (f in seen) printf "%s %d %d %d\n", f, rmw[f], st[f], ld[f] }' "$1" | sort
}
osp_compile "$W/on" osp_cc -O2 -w -S "$src" -o "$W/on.s" || osp_fail "-S"
osp_compile "$W/off" osp_cc -O2 -w -S -fplugin-arg-osp-promote-countdowns=no "$src" -o "$W/off.s" ||
  osp_fail "-S promote-countdowns=no"
accesses "$W/on.s" > "$W/on.acc"
accesses "$W/off.s" > "$W/off.acc"
for fn in run_switch run_goto; do
  set -- $(awk -v f=$fn '$1 == f { print $2, $3 }' "$W/on.acc") x x
  on_rmw=$1 on_st=$2
  set -- $(awk -v f=$fn '$1 == f { print $2, $3 }' "$W/off.acc") x x
  off_rmw=$1 off_st=$2
  if [ "$on_rmw" = 0 ] && [ "$off_rmw" != x ] && [ "$off_rmw" -gt 0 ] && [ "$on_st" -lt "$off_st" ]; then
    echo "ok: $fn: no read-modify-write of __osp_skip, $on_st stores (promote-countdowns=no: $off_rmw and $off_st)"
  else
    osp_fail "$fn: read-modify-writes $on_rmw, stores $on_st; promote-countdowns=no: $off_rmw, $off_st"
  fi
done
on=$(grep '^jumps ' "$W/on.acc")
off=$(grep '^jumps ' "$W/off.acc")
if [ -n "$on" ] && [ "$on" = "$off" ]; then
  echo "ok: jumps (setjmp) is left alone: $on"
else
  osp_fail "jumps (setjmp): '$on' against promote-countdowns=no's '$off'"
fi
osp_done

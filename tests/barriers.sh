#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/barriers.sh - osp's countdowns stay right across calls to functions that GCC believes
# leave memory alone (plugin/barriers.cc).
#
# tests/progs/barriers.c calls a const and a pure function (declared so) and two recursive
# functions that only GCC's IPA analysis finds const or pure.  Their hooks and checks decrement
# the same thread-local countdowns as their callers'.  Built at -O2 and -O3, with placement=early
# and placement=late (where IPA summarised the callees before osp instrumented them), each build
# must print what the plain build prints, and its sampled run must have seen every block and
# every path end: blocks_seen of mode=subpaths equals the blocks counted by mode=blocks, and,
# with path-checks=own (checks with a countdown of their own), path_ends_seen of paths=counter
# equals that of paths=exhaustive (which calls the runtime at every path end); the default's
# shared checks read __osp_skip, whose blocks_seen is the witness, and their path_ends_seen is
# an estimate (include/osp/abi.h).  Without the barriers a caller keeps the countdown in a register across the
# call and undoes the callee's decrements (placement=late: 22,243 blocks seen of 1,327,540).

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup barriers
osp_need_build
src=$OSP_TESTSRC/progs/barriers.c

osp_compile "$W/plain" plain_cc -O2 "$src" -o "$W/plain" || { osp_fail "plain build"; osp_done; }
osp_exec "$W/plain" "$W/plain"
[ "$osp_rc" = 0 ] || osp_fail "plain run exited with $osp_rc"

for level in -O2 -O3; do
  for placement in early late; do
   for checks in shared own; do
    tag=$placement$level$checks
    b=$W/$tag
    if ! osp_compile "$b" osp_cc $level $CHECKFLAGS -fplugin-arg-osp-placement=$placement \
         -fplugin-arg-osp-path-checks=$checks \
         "$src" -o "$b"; then
      osp_fail "$tag: the instrumented build failed"
      continue
    fi
    ok=yes
    for run in blocks sampled exhaustive; do
      case $run in
        blocks) opts=mode=blocks ;;
        sampled) opts=mode=subpaths:paths=counter:forest=off ;;
        exhaustive) opts=mode=subpaths:paths=exhaustive:forest=off ;;
      esac
      osp_exec_with "$opts:report=$b.$run.tsv:report_format=tsv" "$b.$run" "$b"
      [ "$osp_rc" = 0 ] || { osp_fail "$tag $run: exited with $osp_rc"; ok=no; }
      osp_same "$tag $run stdout" "$W/plain.out" "$b.$run.out" || ok=no
      osp_check_report "$b.$run.tsv" || { osp_fail "$tag $run: malformed report"; ok=no; }
    done
    blocks=$(awk -F '\t' '$1 == "function" { s += $7 } END { print s + 0 }' "$b.blocks.tsv")
    seen=$(osp_stat "$b.sampled.tsv" blocks_seen)
    ends=$(osp_stat "$b.exhaustive.tsv" path_ends_seen)
    ends_seen=$(osp_stat "$b.sampled.tsv" path_ends_seen)
    if [ "$blocks" = 0 ] || [ "$seen" != "$blocks" ]; then
      osp_fail "$tag: the sampled run saw $seen blocks, mode=blocks counted $blocks"
      ok=no
    fi
    if [ -z "$ends" ] || [ "$ends" = 0 ] || { [ $checks = own ] && [ "$ends_seen" != "$ends" ]; }; then
      osp_fail "$tag: paths=counter saw $ends_seen path ends, paths=exhaustive $ends"
      ok=no
    fi
    seen_by="all seen by the countdowns"
    [ $checks = shared ] && seen_by="every block seen by the countdown, $ends_seen path ends estimated"
    [ $ok = yes ] && echo "ok: $tag: $blocks blocks, $ends path ends, $seen_by"
   done
  done
done
osp_done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/early-hooks.sh - hooks that fire before the module is registered (instrumented code
# called from .preinit_array and from a priority-101 constructor) or late (a priority-101
# destructor) are harmless: same output and status as the plain build, a well-formed report
# in which main has 1 call and work has between 1 and 4.  Built with the shared runtime and with
# the static one (libosprt.a, whose own constructors are then ordered with the program's).

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup early-hooks
osp_need_build
src=$OSP_TESTSRC/progs/early-hooks.c

for lvl in -O0 -O2; do
  osp_compile "$W/plain$lvl" plain_cc $lvl "$src" -o "$W/plain$lvl" || { osp_fail "plain build"; continue; }
  osp_exec "$W/plain$lvl" "$W/plain$lvl"
  prc=$osp_rc
  for rt in shared static; do
    b=$W/$rt$lvl
    if [ $rt = shared ]; then
      osp_compile "$b" osp_cc $lvl "$src" -o "$b" || { osp_fail "$rt $lvl: build"; continue; }
    else
      if [ ! -f "$OSP_RTDIR/libosprt.a" ]; then
        osp_fail "$OSP_RTDIR/libosprt.a is missing"
        continue
      fi
      osp_compile "$b" $CC $lvl -fplugin="$OSP_PLUGIN" -I"$OSP_INCLUDE" "$src" -o "$b" \
        "$OSP_RTDIR/libosprt.a" -pthread -lm || { osp_fail "$rt $lvl: build"; continue; }
    fi
    osp_exec_with "mode=blocks:report=$b.tsv:report_format=tsv" "$b" "$b"
    [ "$osp_rc" = "$prc" ] || { osp_fail "$rt $lvl: exit status $osp_rc, plain $prc"; osp_show "$b.err"; }
    osp_same "$rt $lvl stdout" "$W/plain$lvl.out" "$b.out"
    osp_same "$rt $lvl stderr" "$W/plain$lvl.err" "$b.err"
    [ -f "$b.tsv" ] || { osp_fail "$rt $lvl: no report"; continue; }
    osp_check_report "$b.tsv" || osp_fail "$rt $lvl: malformed report"
    [ "$(osp_calls "$b.tsv" main)" = 1 ] || osp_fail "$rt $lvl: main has calls '$(osp_calls "$b.tsv" main)'"
    w=$(osp_calls "$b.tsv" work)
    case $w in
      1|2|3|4) echo "ok: $rt $lvl: work counted $w of 4 calls (unregistered hits: $(osp_stat "$b.tsv" unregistered_hits))" ;;
      *) osp_fail "$rt $lvl: work has calls '$w', expected 1..4" ;;
    esac
  done
done
osp_done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/safety-stack.sh - instrumented frames are not much bigger than the plain build's, so
# a recursion that fits a tight `ulimit -s' plain fits it with osp too (doc/osp.md, Safety:
# "Stack and address space"; plugin/probes.cc's path register at -O0).
#
# tests/progs/deep-recursion.c recurses through descend (), whose path register lives across
# the recursive call.  At every -O level its plain frame size F and instrumented frame size G
# come from -fstack-usage.  G may exceed F by the level's allowance A: 0 where GCC keeps the
# path register in the frame it already has (-O0 -O1 -Og), 16 bytes where it takes one more
# callee-saved register across the call (-O2 -O3 -Os: one push, and the 16-byte alignment).
# Under ulimit -s 1024 descend then recurses to the depth that fills 88% of the stack with
# frames of F + A bytes (a 12% margin, which the plain build must survive), and the
# instrumented build must reach that depth too and print the same.
#
# Two regressions this catches:
#   - at -O0 osp's path register took a callee-saved register (pushq %rbx: 16 bytes a frame,
#     96 -> 112, 17%), and the instrumented build died of SIGSEGV;
#   - at -O2 and above the countdowns were initial-exec TLS: GCC held their GOT-loaded offsets
#     in callee-saved registers across the calls (descend at -O2: 32 -> 80 bytes; 48 with the
#     local-exec countdowns of plugin/hooks.cc), and the run died of SIGSEGV.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup safety-stack
osp_need_build
src=$OSP_TESTSRC/progs/deep-recursion.c
stack_kb=1024

case $($CC -dumpmachine) in
  x86_64-*) ;;
  *) echo "SKIP: the frame figures are those of x86-64"; exit 77 ;;
esac

# frame SUFILE: descend's frame size in bytes from a -fstack-usage file.
frame ()
{
  awk -F '\t' '$1 ~ /:descend(\.[a-z]+\.?[0-9]*)?$/ { print $2; exit }' "$1"
}

# run_deep BASE PROG DEPTH: run PROG under ulimit -s $stack_kb.
run_deep ()
{
  (ulimit -s $stack_kb && timeout "$OSP_TIMEOUT" "$2" "$3" > "$1.out" 2> "$1.err" < /dev/null)
  osp_rc=$?
}

for opt in -O0 -O1 -O2 -O3 -Os -Og; do
  tag=$(echo "$opt" | tr -d ' =-')
  case $opt in -O2|-O3|-Os) allow=16 ;; *) allow=0 ;; esac
  b=$W/$tag
  osp_compile "$b.plain" plain_cc $opt -fstack-usage -c "$src" -o "$b.plain.o" \
    && osp_compile "$b.plain" plain_cc "$b.plain.o" -o "$b.plain" \
    || { osp_fail "$tag: plain build"; continue; }
  osp_compile "$b.osp" osp_cc $opt $CHECKFLAGS -fstack-usage -c "$src" -o "$b.osp.o" \
    && osp_compile "$b.osp" osp_cc "$b.osp.o" -o "$b.osp" \
    || { osp_fail "$tag: instrumented build"; continue; }
  f=$(frame "$b.plain.su")
  g=$(frame "$b.osp.su")
  [ -n "$f" ] && [ -n "$g" ] || { osp_fail "$tag: no frame size for descend"; osp_show "$b.plain.su"; continue; }
  depth=$((stack_kb * 1024 * 88 / 100 / (f + allow)))
  echo "$tag: descend's frame: plain $f bytes, osp $g bytes (allowed $((f + allow))); depth $depth under ulimit -s $stack_kb"
  [ "$g" -le $((f + allow)) ] || osp_fail "$tag: descend's instrumented frame is $g bytes, more than the plain $f + $allow"
  run_deep "$b.plain" "$b.plain" $depth
  [ "$osp_rc" = 0 ] || { osp_fail "$tag: the plain build does not survive depth $depth (status $osp_rc): the test needs a bigger margin"; continue; }
  run_deep "$b.run" "$b.osp" $depth
  [ "$osp_rc" = 0 ] || { osp_fail "$tag: instrumented build at depth $depth: exit status $osp_rc (139: SIGSEGV, a stack overflow)"; osp_show "$b.run.err"; continue; }
  osp_same "$tag stdout" "$b.plain.out" "$b.run.out" && echo "ok: $tag: depth $depth reached as plain"
done
osp_done

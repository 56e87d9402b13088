#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/reproducible.sh - osp's output is byte-reproducible: the same source and flags give the
# same object (reproducible-build checks and ccache rely on it).  Each source is compiled with
# osp's defaults at several -O levels, twice as is and once with GCC's checking flags
# ($CHECKFLAGS: a garbage collection at every collection point, which moves the trees and so
# changes every address and every order of a table hashed by address), and the objects are
# compared byte for byte.  The sources cover what osp transforms: versioned loops and
# functions, folded runs, batched loops, tail calls, inlining.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup reproducible
osp_need_build

for prog in runs batch paths-tricky inlining; do
  src=$OSP_TESTSRC/progs/$prog.c
  for o in -O1 -O2 -O3; do
    b=$W/$prog$o
    osp_compile "$b.1" osp_cc $o -c "$src" -o "$b.1.o" || continue
    osp_compile "$b.2" osp_cc $o -c "$src" -o "$b.2.o" || continue
    osp_compile "$b.3" osp_cc $o $CHECKFLAGS -c "$src" -o "$b.3.o" || continue
    if ! cmp -s "$b.1.o" "$b.2.o"; then
      osp_fail "$prog.c $o: two identical compiles gave different objects"
      cmp -l "$b.1.o" "$b.2.o" | head -n 5
    elif ! cmp -s "$b.1.o" "$b.3.o"; then
      osp_fail "$prog.c $o: the compile with $CHECKFLAGS gave a different object"
      cmp -l "$b.1.o" "$b.3.o" | head -n 5
    else
      echo "ok: $prog.c $o: $(wc -c < "$b.1.o") bytes, the same three times"
    fi
  done
done
osp_done

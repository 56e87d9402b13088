#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/path-checks.sh - one countdown (path-checks=shared, the default; include/osp/abi.h,
# plugin/probes.cc, plugin/loops.cc):
#   - a default build's path checks test __osp_skip (`cmpl $1') and call
#     __osp_path_end_shared_preserving (a plain __osp_path_end_shared with calls=plain), and
#     nothing of it names __osp_path_countdown, __osp_path_end or __osp_path_ends; its batched
#     loops hand their path over in the chain (word 0 has OSP_CHAIN_PATH, 0x80000000);
#   - path-checks=own keeps the old code: the countdown of its own, __osp_path_end[s], chains
#     without OSP_CHAIN_PATH, nothing shared; so does instrument=paths (no block hooks to share
#     with) under the default;
#   - progs/batch.c and progs/versions.c (batched loops, versioned loops, both countdowns
#     tested in one pass) built both ways at -O0, -O2, -O3 with $CHECKFLAGS print exactly
#     what the plain build prints, and with every block counted and every path end seen
#     (mode=blocks:paths=exhaustive) the paths' blocks add up to the hooks' exact counts in both builds,
#     and both builds report the same path counts.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup path-checks
osp_need_build

case $($CC -dumpmachine) in
  x86_64-*) ;;
  *) echo "SKIP: the assembly checks are x86-64's"; exit 77 ;;
esac

bsrc=$OSP_TESTSRC/progs/batch.c
vsrc=$OSP_TESTSRC/progs/versions.c

# asm TAG ARGS...: compile batch.c to $W/TAG.s.
asm ()
{
  tag=$1
  shift
  osp_compile "$W/$tag" osp_cc -O2 -S "$@" "$bsrc" -o "$W/$tag.s" || { osp_fail "$tag: no assembly"; return 1; }
}

# count FILE REGEX: matching lines.
count () { grep -c -e "$2" "$1"; }

# chains FILE: the first words of the __osp_chain arrays, and how many have OSP_CHAIN_PATH.
chains () { awk '/^__osp_chain/ { getline; n++; if ($2 + 0 < 0 || $2 + 0 >= 2147483648) p++ }
                 END { printf "%d %d\n", n, p }' "$1"; }

# (promote-countdowns=no: in a register, `cmpl $1' would name no countdown; tests/promote.sh.)
if asm shared -fplugin-arg-osp-promote-countdowns=no; then
  s=$W/shared.s
  calls=$(count "$s" 'call \*__osp_path_end_shared_preserving@GOTPCREL(%rip)')
  tests=$(count "$s" 'cmpl[[:space:]]*$1, %fs:__osp_skip@tpoff')
  old=$(count "$s" '__osp_path_countdown\|__osp_path_end_preserving\|__osp_path_ends_preserving')
  set -- $(chains "$s")
  if [ "$calls" -gt 0 ] && [ "$tests" -gt 0 ] && [ "$old" -eq 0 ] && [ "$1" -gt 0 ] && [ "$1" = "$2" ]; then
    echo "ok: default: $calls shared calls, $tests tests of __osp_skip == 1, $1 chains with their path"
  else
    osp_fail "default: $calls shared calls, $tests tests of __osp_skip == 1, $old names of the own countdown, chains $*"
  fi
fi
if asm own -fplugin-arg-osp-path-checks=own; then
  s=$W/own.s
  own=$(count "$s" 'call \*__osp_path_end_preserving@GOTPCREL(%rip)')
  ends=$(count "$s" 'call \*__osp_path_ends_preserving@GOTPCREL(%rip)')
  shared=$(count "$s" '__osp_path_end_shared')
  set -- $(chains "$s")
  if [ "$own" -gt 0 ] && [ "$ends" -gt 0 ] && [ "$shared" -eq 0 ] && [ "$1" -gt 0 ] && [ "$2" = 0 ]; then
    echo "ok: path-checks=own: $own own checks' calls, $ends path hand-overs, $1 chains without a path"
  else
    osp_fail "path-checks=own: $own own calls, $ends path hand-overs, $shared shared, chains $*"
  fi
fi
if asm paths -fplugin-arg-osp-instrument=paths; then
  s=$W/paths.s
  own=$(count "$s" 'call \*__osp_path_end_preserving@GOTPCREL(%rip)')
  shared=$(count "$s" '__osp_path_end_shared')
  if [ "$own" -gt 0 ] && [ "$shared" -eq 0 ]; then
    echo "ok: instrument=paths: its own countdown ($own calls), nothing shared"
  else
    osp_fail "instrument=paths: $own own calls, $shared shared"
  fi
fi
if asm plain -fplugin-arg-osp-calls=plain; then
  s=$W/plain.s
  direct=$(count "$s" 'call[[:space:]]*__osp_path_end_shared\(@PLT\)\?$')
  tramp=$(count "$s" '_preserving')
  if [ "$direct" -gt 0 ] && [ "$tramp" -eq 0 ]; then
    echo "ok: calls=plain: $direct plain calls of __osp_path_end_shared"
  else
    osp_fail "calls=plain: $direct plain calls of __osp_path_end_shared, $tramp trampolines"
  fi
fi

# The path rows of a tsv report, sorted: function, path id, count.
path_rows () { awk -F '\t' '$1 == "path" { print $2, $3, $4, $5 }' "$1" | sort; }

every="mode=blocks:paths=exhaustive:forest=off"
for src in "$bsrc" "$vsrc"; do
  name=$(basename "$src" .c)
  for opt in -O0 -O2 -O3; do
    b=$W/$name$opt
    osp_compile "$b.plain" plain_cc "$opt" "$src" -o "$b.plain" -lm || { osp_fail "$name $opt: plain build"; continue; }
    osp_exec "$b.plain" "$b.plain"
    for how in shared own; do
      bin=$b.$how
      # shellcheck disable=SC2086
      osp_compile "$bin" osp_cc "$opt" $CHECKFLAGS -fplugin-arg-osp-path-checks=$how "$src" \
        -o "$bin" -lm || { osp_fail "$name $opt $how: build"; continue; }
      osp_exec "$bin" "$bin"
      [ "$osp_rc" = 0 ] || { osp_fail "$name $opt $how: exit status $osp_rc"; osp_show "$bin.err"; continue; }
      osp_same "$name $opt $how: stdout" "$b.plain.out" "$bin.out" || continue
      osp_exec_with "$every:report=$bin.tsv:report_format=tsv" "$bin.every" "$bin"
      [ "$osp_rc" = 0 ] || { osp_fail "$name $opt $how: every: exit status $osp_rc"; osp_show "$bin.every.err"; continue; }
      osp_same "$name $opt $how: stdout with every path end" "$b.plain.out" "$bin.every.out" || continue
      osp_check_report "$bin.tsv" || { osp_fail "$name $opt $how: malformed report"; continue; }
      osp_paths_add_up "$bin.tsv" yes > "$bin.cmp" \
        || { osp_fail "$name $opt $how: path counts differ from block counts"; osp_show "$bin.cmp"; continue; }
      path_rows "$bin.tsv" > "$bin.paths"
      echo "ok: $name $opt $how: output identical, $(wc -l < "$bin.paths") paths adding up to the block counts"
    done
    if [ -s "$b.shared.paths" ] && [ -s "$b.own.paths" ]; then
      osp_same "$name $opt: the same path counts shared and own" "$b.own.paths" "$b.shared.paths" \
        && echo "ok: $name $opt: the same path counts shared and own"
    fi
  done
done

osp_done

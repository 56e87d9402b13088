#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/preserving.sh - the register-preserving calls of hooks and checks (calls=preserving,
# the default on x86-64; libosprt/trampoline.S, plugin/hooks.cc).
#
# tests/progs/preserve.c keeps general registers, SSE/AVX vectors, x87 long doubles and flags
# live across hooks and checks.  Built at -O0, -O2, -O3, -O2 -fPIC -pie, -O2 -mavx2 and -O2
# -mavx512f (when the CPU has them: the three trampoline flavours), with $CHECKFLAGS, it is run
# with every hook and every check calling the runtime (mode=subpaths-exact, paths=exhaustive,
# forest=exhaustive) and must print exactly what the plain build prints, and so again with
# samples taken back to back (mode=subpaths, interval=1: the trampoline's own fast path); the
# exhaustive path counts it reports must equal the block hooks' own counts (as tests/paths.sh
# checks).  The assembly must call the trampolines through the GOT from asm and never call
# __osp_block_hook or __osp_path_end directly; with calls=plain it is
# the other way round, and the program still prints the same.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup preserving
osp_need_build
src=$OSP_TESTSRC/progs/preserve.c

case $($CC -dumpmachine) in
  x86_64-*) ;;
  *) echo "SKIP: calls=preserving exists on x86-64 only"; exit 77 ;;
esac

variants="-O0|-O2|-O3|-O2 -fPIC -pie"
grep -q -w avx2 /proc/cpuinfo 2> /dev/null && variants="$variants|-O2 -mavx2"
grep -q -w avx512f /proc/cpuinfo 2> /dev/null && variants="$variants|-O2 -mavx512f"
every="mode=subpaths-exact:paths=exhaustive:forest=exhaustive:forest_k=3"
sampling="mode=subpaths:interval=1:min_length=256:max_length=256:paths=off:forest=off"

# run_one TAG FLAGS...: build plain and instrumented, compare the outputs.
run_one ()
{
  tag=$1
  shift
  b=$W/$tag
  osp_compile "$b.plain" plain_cc "$@" "$src" -o "$b.plain" || { osp_fail "$tag: plain build"; return 1; }
  osp_compile "$b" osp_cc "$@" $CHECKFLAGS -fplugin-arg-osp-instrument=blocks,paths "$src" \
    -o "$b" || { osp_fail "$tag: instrumented build"; return 1; }
  osp_exec "$b.plain" "$b.plain"
  osp_exec_with "$every:report=$b.tsv:report_format=tsv" "$b" "$b"
  [ "$osp_rc" = 0 ] || { osp_fail "$tag: exit status $osp_rc"; osp_show "$b.err"; return 1; }
  osp_same "$tag stdout" "$b.plain.out" "$b.out" || return 1
  osp_check_report "$b.tsv" || { osp_fail "$tag: malformed report"; return 1; }
  # Every block entry was counted exactly once: the paths' blocks add up to the hooks' counts.
  awk -F '\t' '
    $1 == "block" && $8 != "-" { counted[$2 ":" $3] = $8 }
    $1 == "path" { n = split($10, b, ","); for (i = 1; i <= n; i++) derived[b[i]] += $5 }
    END {
      for (k in counted) if (derived[k] != counted[k]) { printf "block %s: %d from paths, %d counted\n", k, derived[k], counted[k]; e++ }
      exit e ? 1 : 0
    }' "$b.tsv" > "$b.cmp" || { osp_fail "$tag: path counts differ from block counts"; osp_show "$b.cmp"; return 1; }
  echo "ok: $tag: output identical with every hook and check firing"
  # Samples back to back: nearly every hook appends its block through the open sample's cursor,
  # at the top of the trampoline (sampler.h), and must leave every register as it was too.
  osp_exec_with "$sampling:report=$b.sub.tsv:report_format=tsv" "$b.sub" "$b"
  [ "$osp_rc" = 0 ] || { osp_fail "$tag: sampling: exit status $osp_rc"; osp_show "$b.sub.err"; return 1; }
  osp_same "$tag stdout while sampling" "$b.plain.out" "$b.sub.out" || return 1
  osp_check_report "$b.sub.tsv" || { osp_fail "$tag: sampling: malformed report"; return 1; }
  echo "ok: $tag: output identical while taking samples back to back"
}

IFS='|'
for v in $variants; do
  IFS=' '
  tag=$(echo "$v" | tr -d ' =-')
  # shellcheck disable=SC2086
  run_one "$tag" $v
  IFS='|'
done
IFS=' '

# The generated code: trampolines by default, folded block hooks' included (plugin/fold.cc), of
# the flavour of the function's instruction set; read in the object's relocations, since a folded
# stub names its entry point (one per register) through an assembler macro.  Plain calls with
# calls=plain.
for isa in "|" "_avx|-mavx2" "_xsave|-mavx512f"; do
  suffix=${isa%%|*} flag=${isa#*|}
  o=$W/obj$suffix.o
  # shellcheck disable=SC2086
  if ! osp_cc -O2 -c $flag "$src" -o "$o" > "$o.err" 2>&1; then
    osp_fail "cannot compile '$flag'"; osp_show "$o.err"; continue
  fi
  objdump -r "$o" | awk '$2 ~ /GOTPCREL/ && $3 ~ /^__osp_/ { sub(/[-+]0x[0-9a-f]*$/, "", $3); print $3 }' > "$o.calls"
  n=$(grep -c "^__osp_\(\(block_hook\|path_end\)_preserving$suffix\|block_hook_folded${suffix}_r[a-z0-9]*\)\$" "$o.calls")
  folded=$(grep -c "^__osp_block_hook_folded${suffix}_r[a-z0-9]*\$" "$o.calls")
  others=$(grep -v -c "_preserving$suffix\$\|_folded${suffix}_r[a-z0-9]*\$" "$o.calls")
  if [ "$n" -eq 0 ] || [ "$folded" -eq 0 ] || [ "$others" -ne 0 ]; then
    osp_fail "'$flag': $n calls of the $suffix trampolines ($folded folded), $others of others"
  else
    echo "ok: '$flag': $n calls of the $suffix trampolines ($folded folded)"
  fi
done
for mode in preserving plain; do
  s=$W/asm-$mode.s
  if ! osp_cc -O2 -S -fplugin-arg-osp-calls=$mode "$src" -o "$s" > "$s.err" 2>&1; then
    osp_fail "calls=$mode: cannot compile to assembly"; osp_show "$s.err"; continue
  fi
  tramp=$(grep -c 'call \*__osp_\(block_hook\|path_end\)_preserving@GOTPCREL(%rip)\|^.__osp_fold_call %' "$s")
  direct=$(grep -c 'call[[:space:]]*__osp_\(block_hook\|path_end\)\(@PLT\)\?$' "$s")
  if [ $mode = preserving ] && { [ "$tramp" -eq 0 ] || [ "$direct" -ne 0 ]; }; then
    osp_fail "calls=preserving: $tramp trampoline calls, $direct direct calls"
  elif [ $mode = plain ] && { [ "$tramp" -ne 0 ] || [ "$direct" -eq 0 ]; }; then
    osp_fail "calls=plain: $tramp trampoline calls, $direct direct calls"
  else
    echo "ok: calls=$mode: $tramp trampoline calls, $direct direct calls"
  fi
done
b=$W/plaincalls
if osp_compile "$b" osp_cc -O2 -fplugin-arg-osp-calls=plain "$src" -o "$b"; then
  osp_exec_with "$every:report=none" "$b" "$b"
  osp_same "calls=plain stdout" "$W/O2.plain.out" "$b.out"
else
  osp_fail "calls=plain: build failed"
fi
osp_done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/tailcalls.sh - calls in tail position stay jumps under osp (plugin/tailcalls.cc).
#
# tests/oracle/tailcalls.c recurses 10 million deep through tail calls, in each shape of
# plugin/tailcalls.cc (the call and its return in one block, return trees of one and of several
# blocks, void and struct returns).  With an 8 MB stack the plain build at -O2 prints its
# answer because GCC turns those calls into jumps; an instrumented build whose return code (hook,
# path end, barrier) followed the calls kept them calls and crashed.  Each instrumented build -
# -O2, -O3 and -Os with placement=early and late, -O2 -g -flto (early only); block hooks, path
# checks (count-loop-free=0, or these loop-free functions would count their paths instead) with
# and without hooks, path counters, the default - must print what the plain build prints with
# that stack.  The return code moved in front of the calls must still count right: at depth
# 1000, the early builds' exact block and path counts (mode=blocks:paths=exhaustive) equal those
# of the same build with -fno-optimize-sibling-calls (the same instrumentation, real calls), and
# where blocks and paths are both counted, each block's count is the sum of the counts of the
# paths through it (a wrong path number moved in front of a call would decode to other blocks).
# tests/oracle.sh compares the same program's block counts with gcov's.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup tailcalls
osp_need_build
src=$OSP_TESTSRC/oracle/tailcalls.c
deep=10000000

# deep_run BASE PROG: PROG $deep with an 8 MB stack (the caller's limit may be higher or none).
deep_run ()
{
  (ulimit -s 8192 && exec timeout "$OSP_TIMEOUT" "$2" "$deep") > "$1.out" 2> "$1.err" < /dev/null
  osp_rc=$?
}

# counts TSV: "block FUNCTION ID COUNT" and "path FUNCTION PATH-ID COUNT" lines.
counts ()
{
  awk -F '\t' '$1 == "function" { name[$2] = $3 }
               $1 == "block" { print "block", $4, $3, $8 }
               $1 == "path" { print "path", name[$3], $4, $7 }' "$1" | sort
}

# flow TSV: every block's count is the sum of the counts of the paths through it.
flow ()
{
  awk -F '\t' '$1 == "block" { count[$2 ":" $3] = $8 }
               $1 == "path" { n = split($10, b, ","); for (i = 1; i <= n; i++) sum[b[i]] += $7 }
               END { for (k in count) if (count[k] != sum[k] + 0) {
                       print "block " k ": count " count[k] ", its paths " sum[k] + 0; bad = 1 }
                     exit bad }' "$1"
}

osp_compile "$W/plain" plain_cc -O2 "$src" -o "$W/plain" || { osp_fail "plain build"; osp_done; }
deep_run "$W/plain" "$W/plain"
if [ "$osp_rc" != 0 ]; then
  echo "SKIP: the plain -O2 build does not recurse $deep deep in 8 MB (exit $osp_rc): no sibling calls here"
  exit 77
fi

exact=mode=blocks:paths=exhaustive
for variant in default blocks checks paths counts; do
  case $variant in
    default) flags= ;;
    blocks) flags=-fplugin-arg-osp-instrument=blocks ;;
    checks) flags="-fplugin-arg-osp-instrument=blocks,paths -fplugin-arg-osp-count-loop-free=0" ;;
    paths) flags="-fplugin-arg-osp-instrument=paths -fplugin-arg-osp-count-loop-free=0" ;;
    counts) flags=-fplugin-arg-osp-instrument=blocks,counts ;;
  esac
  for level in -O2 -O3 -Os "-O2 -g -flto"; do
    name=$variant$(echo "$level" | tr -d ' ')
    ref=$W/$name-calls
    # shellcheck disable=SC2086
    if ! osp_compile "$ref" osp_cc $level -fno-optimize-sibling-calls $flags "$src" -o "$ref"; then
      osp_fail "$name -fno-optimize-sibling-calls: the instrumented build failed"
      continue
    fi
    osp_exec_with "$exact:report=$ref.tsv:report_format=tsv" "$ref" "$ref"
    counts "$ref.tsv" > "$ref.counts"
    for placement in early late; do
      case $placement$level in late*-flto) continue ;; esac # refused, see doc/PLUGIN.md
      tag=$name-$placement
      b=$W/$tag
      # shellcheck disable=SC2086
      if ! osp_compile "$b" osp_cc $level $CHECKFLAGS -fplugin-arg-osp-placement=$placement \
           $flags "$src" -o "$b"; then
        osp_fail "$tag: the instrumented build failed"
        continue
      fi
      deep_run "$b" "$b"
      if [ "$osp_rc" != 0 ]; then
        osp_fail "$tag: exited with $osp_rc at depth $deep (the plain build: 0)"
        continue
      fi
      osp_same "$tag stdout" "$W/plain.out" "$b.out" || continue
      # placement=late: GCC's early tail-recursion elimination made walk a loop, the reference's not
      [ $placement = early ] || { echo "ok: $tag"; continue; }
      osp_exec_with "$exact:report=$b.tsv:report_format=tsv" "$b.exact" "$b"
      ok=yes
      osp_check_report "$b.tsv" || { osp_fail "$tag: malformed report"; ok=no; }
      counts "$b.tsv" > "$b.counts"
      osp_same "$tag counts" "$ref.counts" "$b.counts" || ok=no
      case $variant in
        blocks|paths) ;;
        *) flow "$b.tsv" || { osp_fail "$tag: block and path counts disagree"; ok=no; } ;;
      esac
      [ $ok = yes ] && echo "ok: $tag, the same counts as with real calls"
    done
  done
done
osp_done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/runtime-options.sh - OSP_OPTIONS (doc/CONTRACTS.md): every unknown key or bad value
# gives exactly one line on stderr that names it (and the program's output and exit status do
# not change, and the other keys still work); the valid keys do what they say.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup runtime-options
osp_need_build
src=$OSP_TESTSRC/progs/options.c

osp_compile "$W/plain" plain_cc -O1 "$src" -o "$W/plain" || { osp_fail "plain build"; osp_done; }
osp_compile "$W/prog" osp_cc -O1 "$src" -o "$W/prog" || { osp_fail "instrumented build"; osp_done; }
osp_exec "$W/plain" "$W/plain"
prc=$osp_rc

i=0
# bad OPTIONS NAME...: OSP_OPTIONS="mode=blocks:report=FILE:report_format=tsv:OPTIONS" must print one line
# per NAME, each line naming it, and nothing else on stderr; the tsv report is still written.
bad ()
{
  opts=$1
  shift
  i=$((i + 1))
  b=$W/bad$i
  osp_exec_with "mode=blocks:report=$b.tsv:report_format=tsv:$opts" "$b" "$W/prog"
  [ "$osp_rc" = "$prc" ] || osp_fail "OSP_OPTIONS='...:$opts': exit status $osp_rc, plain $prc"
  osp_same "OSP_OPTIONS='...:$opts' stdout" "$W/plain.out" "$b.out"
  n=$(wc -l < "$b.err")
  if [ "$n" -ne $# ]; then
    osp_fail "OSP_OPTIONS='...:$opts': $n lines on stderr, expected $#"
    osp_show "$b.err" stderr
  fi
  for name in "$@"; do
    grep -F -q -e "'$name'" "$b.err" ||
      { osp_fail "OSP_OPTIONS='...:$opts': no stderr line names '$name'"; osp_show "$b.err" stderr; }
  done
  grep -q -v '^osp: OSP_OPTIONS: ' "$b.err" &&
    { osp_fail "OSP_OPTIONS='...:$opts': a stderr line does not start with 'osp: OSP_OPTIONS: '"; osp_show "$b.err" stderr; }
  if [ -f "$b.tsv" ]; then
    osp_check_report "$b.tsv" || osp_fail "OSP_OPTIONS='...:$opts': malformed report"
    [ "$(osp_calls "$b.tsv" alpha_one)" = 30 ] ||
      osp_fail "OSP_OPTIONS='...:$opts': alpha_one has calls '$(osp_calls "$b.tsv" alpha_one)', expected 30"
  else
    osp_fail "OSP_OPTIONS='...:$opts': the valid report= key was not honoured (no $b.tsv)"
  fi
  echo "ok? '$opts' -> $(head -n 1 "$b.err")"
}

bad "mod=blocks" mod
bad "mode=paths" paths
bad "mode=" mode
bad "report_format=xml" xml
bad "report_top=0" 0
bad "report_top=100001" 100001
bad "report_top=12abc" 12abc
bad "report_top=-5" -5
bad "max_functions=0" 0
bad "max_functions=16777217" 16777217
bad "max_functions=99999999999999999999999" 99999999999999999999999
bad "verbose=2" 2
bad "MODE=blocks" MODE
bad "report_top=5:colour=yes" colour
bad "mod=x:verbose=yes" mod yes
# The subpath-profiling keys (doc/CONTRACTS.md); the blocks mode ignores them but must still
# reject bad values with one line each.
bad "interval=0" interval
bad "max_length=1000" max_length
bad "min_length=1" min_length
bad "length_bias=short" short
bad "hotlist_bytes=1K" hotlist_bytes
bad "hotlist_bytes=64Q" hotlist_bytes
bad "policy=lru" lru
bad "encoding=md5" md5
bad "seed=x" seed
bad "exact_max=3" exact_max
bad "report_signal=SIGFOO" report_signal

# A token without '=' anywhere in the string.
b=$W/noeq
osp_exec_with "mode=blocks:report=$b.tsv:report_format=tsv:blocks" "$b" "$W/prog"
[ "$osp_rc" = "$prc" ] || osp_fail "'blocks' without '=': exit status $osp_rc"
osp_same "'blocks' without '=' stdout" "$W/plain.out" "$b.out"
[ "$(wc -l < "$b.err")" -eq 1 ] && grep -q "blocks" "$b.err" ||
  { osp_fail "OSP_OPTIONS token without '=': expected one line naming it"; osp_show "$b.err" stderr; }

# The good keys.
b=$W/none
osp_exec_with report=none "$b" "$W/prog"
[ "$osp_rc" = "$prc" ] || osp_fail "report=none: exit status $osp_rc"
osp_same "report=none stdout" "$W/plain.out" "$b.out"
osp_same "report=none stderr" "$W/plain.err" "$b.err"

b=$W/off
osp_exec_with "mode=off:report=$b.tsv:report_format=tsv" "$b" "$W/prog"
[ "$osp_rc" = "$prc" ] || osp_fail "mode=off: exit status $osp_rc"
osp_same "mode=off stdout" "$W/plain.out" "$b.out"
osp_same "mode=off stderr" "$W/plain.err" "$b.err"
if [ -f "$b.tsv" ]; then
  osp_check_report "$b.tsv" || osp_fail "mode=off: malformed report"
  grep -q '^block	' "$b.tsv" && osp_fail "mode=off: the report counts blocks"
fi

b=$W/pid
osp_exec_with "mode=blocks:report=$b.%p.%%.tsv:report_format=tsv" "$b" "$W/prog"
set -- "$b".[0-9]*.%.tsv
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
  osp_fail "report=FILE.%p.%%.tsv: expected one file $b.PID.%.tsv"
  ls "$W"
else
  osp_check_report "$1" || osp_fail "report=...%p...: malformed report"
fi

b=$W/host
osp_exec_with "mode=blocks:report=$b.%h.tsv:report_format=tsv" "$b" "$W/prog"
[ -f "$b.$(uname -n).tsv" ] || { osp_fail "report=FILE.%h.tsv: no $b.$(uname -n).tsv"; ls "$W"; }

b=$W/text
osp_exec_with "mode=blocks:report=$b.txt:report_format=text:report_top=3" "$b" "$W/prog"
osp_same "text report stdout" "$W/plain.out" "$b.out"
if [ ! -s "$b.txt" ] || ! grep -q alpha_one "$b.txt"; then
  osp_fail "report_format=text: the report file is empty or does not mention alpha_one"
fi

b=$W/stdout
osp_exec_with "mode=blocks:report=stdout:report_format=tsv" "$b" "$W/prog"
head -n 1 "$b.out" > "$b.first"
osp_same "report=stdout: the program's output comes first" "$W/plain.out" "$b.first"
grep -q '^# osp-report 1' "$b.out" || osp_fail "report=stdout: no report on stdout"

b=$W/stderr
osp_exec_with "mode=blocks:report=stderr:report_format=tsv" "$b" "$W/prog"
osp_same "report=stderr stdout" "$W/plain.out" "$b.out"
grep -q '^# osp-report 1' "$b.err" || osp_fail "report=stderr: no tsv report on stderr"

b=$W/max
osp_exec_with "mode=blocks:report=$b.tsv:report_format=tsv:max_functions=2" "$b" "$W/prog"
[ "$osp_rc" = "$prc" ] || osp_fail "max_functions=2: exit status $osp_rc"
osp_same "max_functions=2 stdout" "$W/plain.out" "$b.out"
if [ -f "$b.tsv" ]; then
  osp_check_report "$b.tsv" || osp_fail "max_functions=2: malformed report"
  nf=$(grep -c '^function	' "$b.tsv")
  dropped=$(osp_stat "$b.tsv" functions_dropped)
  [ "$nf" -eq 2 ] || osp_fail "max_functions=2: $nf function rows"
  [ "$dropped" = 3 ] || osp_fail "max_functions=2: stat functions_dropped '$dropped', expected 3"
else
  osp_fail "max_functions=2: no report"
fi

b=$W/verbose
osp_exec_with "mode=blocks:report=none:verbose=1" "$b" "$W/prog"
[ "$osp_rc" = "$prc" ] || osp_fail "verbose=1: exit status $osp_rc"
osp_same "verbose=1 stdout" "$W/plain.out" "$b.out"

b=$W/empty
osp_exec_with "" "$b" "$W/prog"
[ "$osp_rc" = "$prc" ] || osp_fail "OSP_OPTIONS='': exit status $osp_rc"
osp_same "OSP_OPTIONS='' stdout" "$W/plain.out" "$b.out"
grep -q 'OSP_OPTIONS' "$b.err" && osp_fail "OSP_OPTIONS='' is not an error"
osp_done

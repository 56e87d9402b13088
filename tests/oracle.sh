#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/oracle.sh - exact block counts against an independent oracle, gcov.
#
# Each program tests/oracle/*.c is built once plain with -O0 -fprofile-arcs -ftest-coverage
# (no plugin) and run; `gcov -b -t` gives the call count of every function and the count of
# every line.  The same program is built with osp at -O0, -O2 and -O2 -flto (the hooks are
# placed before optimisation, so the counts must not depend on the level) and run with
# OSP_OPTIONS=report=FILE:report_format=tsv.  tests/oracle-compare.awk then requires equal
# per-function call counts and equal line counts where the line is unambiguous.
# Also: stdout and exit status equal those of the gcov build, and the report is well formed.
#
# Programs: tests/oracle/*.c, and those tests/corpus/*.c that have an "oracle:" line in their
# first comment (the deterministic ones).  Keys (on "oracle:" or "osp-test:" lines):
#   cflags=FLAGS        for both builds (from the corpus header too)
#   gcov-cflags=FLAGS   for the gcov build only (e.g. -fprofile-update=atomic for threads)
#   gcov-skip=F,G       functions whose gcov call count is wrong: gcov takes the count of the
#                       entry block, into which GCC merges a computed-goto dispatcher or which
#                       nonlocal gotos re-enter; oracle programs count such calls themselves and
#                       print "expect-calls NAME N", which is checked against the report
#   report-extra=REGEX  functions gcov does not list at all (OpenMP outlined bodies, nested
#                       functions) may be in the report

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup oracle
osp_need_build

GCOV=${GCOV:-gcov}
ccmajor=$($CC -dumpversion | sed 's/\..*//')
if ! "$GCOV" --version 2>/dev/null | head -n 1 | grep -q " $ccmajor\."; then
  if command -v "gcov-$ccmajor" > /dev/null 2>&1; then
    GCOV=gcov-$ccmajor
  else
    echo "SKIP: no gcov for GCC $ccmajor (set GCOV=...)"
    exit 77
  fi
fi
echo "oracle: $("$GCOV" --version | head -n 1)"

progs=
for src in "$OSP_TESTSRC"/oracle/*.c "$OSP_TESTSRC"/corpus/*.c; do
  case $src in
    */oracle/*) progs="$progs $src" ;;
    *) sed -n '1,8p' "$src" | grep -q 'oracle:' && progs="$progs $src" ;;
  esac
done
for src in $progs; do
  p=$(basename "$src" .c)
  header=$(sed -n '1,8p' "$src" | sed -n 's/.*\(oracle\|osp-test\): *//p')
  cflags= gcflags= skip= extra=
  for kv in $header; do
    case $kv in
      cflags=*) cflags="$cflags ${kv#cflags=}" ;;
      gcov-cflags=*) gcflags="$gcflags ${kv#gcov-cflags=}" ;;
      gcov-skip=*) skip=${kv#gcov-skip=} ;;
      report-extra=*) extra=${kv#report-extra=} ;;
    esac
  done
  case $src in */corpus/*) p=corpus-$p ;; esac

  # The oracle: gcov.
  g=$W/$p.gcov
  mkdir -p "$g"
  # shellcheck disable=SC2086
  if ! (cd "$g" && osp_compile "$g/$p" plain_cc -O0 $cflags $gcflags -w -fprofile-arcs -ftest-coverage \
          -c "$src" -o "$p.o" && osp_compile "$g/$p.link" plain_cc $cflags -fprofile-arcs "$p.o" -o "$p"); then
    osp_fail "$p: the gcov build failed"
    continue
  fi
  (cd "$g" && osp_exec "$g/run" "./$p"; echo $osp_rc > "$g/run.rc")
  grc=$(cat "$g/run.rc")
  if ! (cd "$g" && "$GCOV" -b -t -o . "$p.o" > "$g/gcov.txt" 2> "$g/gcov.err"); then
    osp_fail "$p: gcov failed"
    osp_show "$g/gcov.err"
    continue
  fi

  for level in -O0 -O2 "-O2 -flto"; do
    tag=$p$(echo "$level" | tr -d ' ')
    b=$W/$tag
    # shellcheck disable=SC2086
    if ! osp_compile "$b" osp_cc $level $cflags -w "$src" -o "$b"; then
      osp_fail "$p $level: the instrumented build failed"
      continue
    fi
    osp_exec_with "mode=blocks:report=$b.tsv:report_format=tsv" "$b" "$b"
    if [ "$osp_rc" != "$grc" ]; then
      osp_fail "$p $level: exit status $osp_rc, the gcov build's $grc"
      osp_show "$b.err" stderr
    fi
    osp_same "$p $level stdout" "$g/run.out" "$b.out"
    if [ ! -f "$b.tsv" ]; then
      osp_fail "$p $level: no report written to $b.tsv"
      continue
    fi
    osp_check_report "$b.tsv" || osp_fail "$p $level: malformed report"
    echo "$p $level:"
    if ! awk -F "$(printf '\t')" -v src="$(basename "$src")" -v skip="$skip" -v extra="$extra" -f "$OSP_TESTSRC/oracle-compare.awk" \
           "$g/gcov.txt" "$b.tsv"; then
      osp_fail "$p $level: counts differ from gcov (gcov: $g/gcov.txt, report: $b.tsv)"
    fi
    # Self-counted functions: "expect-calls NAME N" on stdout.
    grep '^expect-calls ' "$b.out" | while read -r _ name n; do
      got=$(osp_calls "$b.tsv" "$name")
      # a nested function may be reported under its assembler name "name.N"
      [ -n "$got" ] || got=$(awk -F '\t' -v n="$name" '$1 == "function" && index($3, n ".") == 1 &&
                             substr($3, length(n) + 2) ~ /^[0-9]+$/ { print $6 }' "$b.tsv")
      if [ "$got" != "$n" ]; then
        echo "MISMATCH: function $name: the program counted $n calls, the report says '$got'"
        echo x >> "$b.selffail"
      fi
    done
    [ -f "$b.selffail" ] && osp_fail "$p $level: self-counted calls differ"
  done
done
osp_done

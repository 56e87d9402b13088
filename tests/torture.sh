#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/torture.sh - `make check-torture': GCC's C torture tests with and without osp.
#
# Every program gcc/testsuite/gcc.c-torture/execute/*.c of the GCC source tarball (Debian
# package gcc-12-source: /usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz) is compiled plain at each level
# of the variants below with `-w ... -lm` (no dg-options or .x files are honoured) and run; a
# (program, level) that does not compile or does not exit 0 plain is skipped.  Otherwise the
# program is compiled with the plugin at the same level plus -fchecking (GCC's IL verifier after
# every pass; the GC-stress params of `make check' are left out here, they would make this run
# several times slower) and run with OSP_OPTIONS=report=none:snapshot=none (no line, no file); it
# must exit 0 as well.  Variants:
# "-O0", "-O2", "-O3", "-Os"; "-O2+counts" builds at -O2 with instrument=blocks,paths,counts
# (hooks, sample checks and the inline path counters together); "-O2+late" at -O2 with
# placement=late (the pass after GCC's IPA inliner, with the call barriers of
# plugin/barriers.cc).  Any compiler crash with the plugin fails, even for a program whose plain
# build fails.
#
# Output: FAIL lines as they happen, a final line
#     torture: N passed, N failed, N skipped (N compiler crashes) in S s
# and an Automake-style "Testsuite summary" block (for .ci/run).  tests/torture.log gets one
# line per (program, level): "PASS: name -O0", "FAIL: name -O2 (reason)", "SKIP: name -O0
# (reason)", then the final line; tests/torture-suite.log gets the failures and the summary.
# Exit status 0 when nothing failed, 1 otherwise, 99 on a setup error.
#
# Environment: OSP_TORTURE_TARBALL (default /usr/src/gcc-MAJOR/gcc-*.tar.xz),
# OSP_TORTURE_JOBS (default: nproc), OSP_TORTURE_FILTER (a grep -E pattern on file names, to
# run a subset), OSP_TORTURE_TIMEOUT (seconds per run, default 30
# times OSP_TEST_TIMEOUT_SCALE: osp_seconds 30 of tests/env.sh), OSP_TORTURE_VARIANTS (default
# "-O0 -O2 -O2+counts -O2+late -O3 -Os").

if [ "$1" = --worker ]; then
  # xargs calls: torture.sh --worker FILE...   (environment prepared by the parent)
  shift
  tw=$OSP_TORTURE_WORK
  t=$OSP_TORTURE_TIMEOUT
  for src in "$@"; do
    name=$(basename "$src" .c)
    for var in $OSP_TORTURE_VARIANTS; do
      lvl=${var%%+*} extra=
      case $var in
        *+counts) extra=-fplugin-arg-osp-instrument=blocks,paths,counts ;;
        *+late) extra=-fplugin-arg-osp-placement=late ;;
      esac
      b=$tw/$name$var
      plain=ok
      keep=
      if ! $CC -w $lvl "$src" -o "$b.plain" -lm > "$b.plain.err" 2>&1; then
        plain="plain build failed"
      elif ! (cd "$tw" && timeout "$t" "$b.plain" > /dev/null 2>&1 < /dev/null); then
        plain="plain run failed"
      fi
      if $CC -w $lvl -fchecking -fplugin="$OSP_PLUGIN" $extra -I"$OSP_INCLUDE" "$src" -o "$b.osp" -lm \
           -L"$OSP_RTDIR" -Wl,-rpath,"$OSP_RTDIR" -losprt -pthread > "$b.osp.err" 2>&1; then
        if [ "$plain" != ok ]; then
          echo "SKIP: $name $var ($plain)"
        else
          (cd "$tw" && OSP_OPTIONS=report=none:snapshot=none timeout "$t" "$b.osp" > /dev/null 2>&1 < /dev/null)
          rc=$?
          xfail=$(awk -v n="$name" -v l="$var" '$1 == n && $2 == l { $1 = $2 = ""; sub(/^  /, ""); print }' "$OSP_TORTURE_XFAIL")
          if [ -n "$xfail" ] && [ $rc -eq 0 ]; then
            echo "XPASS: $name $var (listed in tests/torture-xfail.txt, but passes now)"
          elif [ -n "$xfail" ]; then
            echo "XFAIL: $name $var ($xfail)"
          elif [ $rc -eq 0 ]; then
            echo "PASS: $name $var"
          elif [ $rc -eq 124 ]; then
            echo "FAIL: $name $var (instrumented run timed out after $t s; plain passes)"
            keep=1
          else
            echo "FAIL: $name $var (instrumented run exit status $rc; plain passes)"
            keep=1
          fi
        fi
      elif grep -q -i -E 'internal compiler error|killed signal|Segmentation fault|terminated with signal|compiler error: Killed' "$b.osp.err"; then
        echo "FAIL: $name $var (compiler crash with the plugin: $(grep -i -m 1 -E 'internal compiler error|signal|Segmentation' "$b.osp.err" | cut -c1-200))"
        keep=1
      elif [ "$plain" != ok ]; then
        echo "SKIP: $name $var ($plain)"
      else
        echo "FAIL: $name $var (instrumented build failed: $(grep -m 1 -E 'error' "$b.osp.err" | cut -c1-200))"
        keep=1
      fi
      # keep the compiler messages of failures only
      rm -f "$b.plain" "$b.osp" "$b.plain.err"
      [ -n "$keep" ] || rm -f "$b.osp.err"
    done
  done
  exit 0
fi

. "${OSP_ENV:-tests/env.sh}" || exit 99
LC_ALL=C
export LC_ALL
unset OSP_OPTIONS
start=$(date +%s)
for f in "$OSP_PLUGIN" "$OSP_RTDIR/libosprt.so"; do
  [ -f "$f" ] || { echo "torture: $f does not exist (build osp first)"; exit 99; }
done

major=$($CC -dumpversion | sed 's/\..*//')
tarball=${OSP_TORTURE_TARBALL:-$(ls /usr/src/gcc-"$major"/gcc-*.tar.xz 2>/dev/null | head -n 1)}
if [ -z "$tarball" ] || [ ! -f "$tarball" ]; then
  echo "torture: no GCC source tarball (/usr/src/gcc-$major/gcc-*.tar.xz): install the Debian"
  echo "torture: package gcc-$major-source, or set OSP_TORTURE_TARBALL"
  exit 99
fi

srcroot=$abs_top_builddir/tests/torture-src
if [ ! -f "$srcroot/.unpacked" ] || [ "$(cat "$srcroot/.unpacked")" != "$tarball" ]; then
  echo "torture: unpacking gcc.c-torture/execute from $tarball"
  rm -rf "$srcroot" && mkdir -p "$srcroot" || exit 99
  tar -xJf "$tarball" -C "$srcroot" --wildcards 'gcc-*/gcc/testsuite/gcc.c-torture/execute/*' ||
    { echo "torture: tar failed"; exit 99; }
  echo "$tarball" > "$srcroot/.unpacked"
fi
exe=$(ls -d "$srcroot"/gcc-*/gcc/testsuite/gcc.c-torture/execute 2>/dev/null | head -n 1)
[ -n "$exe" ] || { echo "torture: $srcroot has no gcc.c-torture/execute"; exit 99; }

work=$abs_top_builddir/tests/torture-work
rm -rf "$work" && mkdir -p "$work" || exit 99
jobs=${OSP_TORTURE_JOBS:-$(nproc 2>/dev/null || echo 2)}
OSP_TORTURE_WORK=$work
OSP_TORTURE_TIMEOUT=${OSP_TORTURE_TIMEOUT:-$(osp_seconds 30)}
OSP_TORTURE_XFAIL=$abs_top_srcdir/tests/torture-xfail.txt
OSP_TORTURE_VARIANTS=${OSP_TORTURE_VARIANTS:-"-O0 -O2 -O2+counts -O2+late -O3 -Os"}
export OSP_TORTURE_WORK OSP_TORTURE_TIMEOUT OSP_TORTURE_XFAIL OSP_TORTURE_VARIANTS

# Torture tests compare against their own expectations; some read files in the cwd.
ls "$exe"/*.c | grep -E -e "${OSP_TORTURE_FILTER:-.}" > "$work/list"
n=$(wc -l < "$work/list")
echo "torture: $n programs from $exe, variants $OSP_TORTURE_VARIANTS, $jobs jobs"
echo "torture: instrumented builds use -fchecking (without the GC-stress params of make check)"

log=$abs_top_builddir/tests/torture.log
# (stderr apart: the shell reports programs killed by a signal there, e.g. "Aborted")
xargs -P "$jobs" -n 8 /bin/sh "$0" --worker < "$work/list" > "$work/results" 2> "$work/stderr" &
xpid=$!
# Show failures while they happen.
tail -n +1 -f "$work/results" --pid=$xpid 2>/dev/null | grep --line-buffered '^FAIL' &
wait $xpid
wait

sort -k2,2 -k3,3 "$work/results" > "$log"
pass=$(grep -c '^PASS: ' "$log")
fail=$(grep -c '^FAIL: ' "$log")
skip=$(grep -c '^SKIP: ' "$log")
xfail=$(grep -c '^XFAIL: ' "$log")
xpass=$(grep -c '^XPASS: ' "$log")
fail=$((fail + xpass))
ice=$(grep -c '^FAIL: .*compiler crash' "$log")
other=$(grep -v -c -E '^(PASS|FAIL|SKIP|XFAIL|XPASS): ' "$log")
if [ "$other" -gt 0 ]; then
  echo "torture: unexpected output from the workers:"
  grep -v -E '^(PASS|FAIL|SKIP|XFAIL|XPASS): ' "$log" | head -n 20
  fail=$((fail + 1))
fi
expected=$((n * $(echo $OSP_TORTURE_VARIANTS | wc -w)))
if [ $((pass + fail + skip + xfail)) -lt "$expected" ]; then
  echo "torture: only $((pass + fail + skip + xfail)) results for $expected (program, level) pairs"
  fail=$((fail + expected - pass - fail - skip - xfail))
fi
secs=$(( $(date +%s) - start ))
for lvl in $OSP_TORTURE_VARIANTS; do
  echo "torture $lvl: $(grep -c "^PASS: [^ ]* $lvl\$" "$log") passed," \
    "$(grep -c "^FAIL: [^ ]* $lvl " "$log") failed, $(grep -c "^SKIP: [^ ]* $lvl " "$log") skipped"
done
summary="torture: $pass passed, $fail failed, $skip skipped, $xfail expected failures ($ice compiler crashes) in $secs s"
echo "$summary" >> "$log"
{
  grep -E '^(FAIL|XPASS|XFAIL): ' "$log"
  echo "$summary"
  cat <<EOB
============================================================================
Testsuite summary for osp torture (gcc.c-torture/execute, plain vs instrumented)
============================================================================
# TOTAL: $((pass + fail + skip + xfail))
# PASS:  $pass
# SKIP:  $skip
# XFAIL: $xfail
# FAIL:  $((fail - xpass))
# XPASS: $xpass
# ERROR: 0
============================================================================
EOB
} > "$abs_top_builddir/tests/torture-suite.log"
sed -n '/^torture:/p;/^=====/,$p' "$abs_top_builddir/tests/torture-suite.log"
if [ "$fail" -eq 0 ]; then
  rm -rf "$work"
  exit 0
fi
echo "torture: see tests/torture.log; compiler messages of failures are in $work"
exit 1

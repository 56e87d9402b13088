# SPDX-License-Identifier: GPL-3.0-or-later
# tests/corpus.sh - differential test over the corpus of tricky programs (tests/corpus/*.c)
# at one optimisation level.  Sourced by tests/corpus-LEVEL.sh with OSP_CORPUS_LEVEL set,
# e.g. "-O2 -flto"; by hand:  OSP_CORPUS_LEVEL=-O1 sh tests/corpus.sh  (from the build dir).
# OSP_CORPUS_OSPFLAGS (optional) go to the instrumented builds only, e.g. a plugin argument.
#
# For each program: build it plain and instrumented (the instrumented build with $CHECKFLAGS:
# -fchecking and a collection at every GC point), run both, and require the same stdout,
# stderr and exit status.  The instrumented run writes its exit report to a file, which must
# be a well-formed tsv report naming main with 1 call.  A second instrumented run with osp_exec's
# options (report=stderr, the text report on stderr) must print the same stdout and exit the same
# way.
#
# A program's first comment line may say "osp-test: cflags=FLAGS ldflags=FLAGS lib=FILE.c":
# lib= is built as a -fPIC shared library the same way (plain or instrumented) and its path
# is the program's first argument.  (Flag values have no spaces.)

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
level=${OSP_CORPUS_LEVEL:?set OSP_CORPUS_LEVEL, e.g. -O2}
ospflags=${OSP_CORPUS_OSPFLAGS:-}
osp_setup "corpus$(echo "$level $ospflags" | sed 's/-fplugin-arg-osp-//g' | tr -d ' =')"
osp_need_build

echo "corpus at $level; instrumented builds also get: $CHECKFLAGS $ospflags"
for src in "$OSP_TESTSRC"/corpus/*.c; do
  prog=$(basename "$src" .c)
  case $prog in *-lib) continue ;; esac
  header=$(sed -n '1,3p' "$src" | sed -n 's/.*osp-test: *//p')
  cflags= ldflags= lib= expect=
  for kv in $header; do
    case $kv in
      cflags=*) cflags="$cflags ${kv#cflags=}" ;;
      ldflags=*) ldflags="$ldflags ${kv#ldflags=}" ;;
      lib=*) lib=${kv#lib=} ;;
      expect=*) expect="$expect ${kv#expect=}" ;;
    esac
  done
  b=$W/$prog
  ok=yes
  # shellcheck disable=SC2086
  if ! osp_compile "$b.plain" plain_cc $level $cflags -w "$src" -o "$b.plain" $ldflags; then
    osp_fail "$prog $level: the plain build failed (a test bug or a compiler problem)"
    continue
  fi
  # shellcheck disable=SC2086
  if ! osp_compile "$b.osp" osp_cc $level $CHECKFLAGS $ospflags $cflags -w "$src" -o "$b.osp" $ldflags; then
    osp_fail "$prog $level: the instrumented build failed"
    continue
  fi
  args=
  if [ -n "$lib" ]; then
    # shellcheck disable=SC2086
    osp_compile "$b.lib.plain" plain_cc $level $cflags -w -fPIC -shared \
        "$OSP_TESTSRC/corpus/$lib" -o "$b.lib.plain.so" || ok=no
    # shellcheck disable=SC2086
    osp_compile "$b.lib.osp" osp_cc $level $CHECKFLAGS $ospflags $cflags -w -fPIC -shared \
        "$OSP_TESTSRC/corpus/$lib" -o "$b.lib.osp.so" || ok=no
    if [ $ok = no ]; then
      osp_fail "$prog $level: building $lib failed"
      continue
    fi
  fi

  [ -n "$lib" ] && args=$b.lib.plain.so
  # shellcheck disable=SC2086
  osp_exec "$b.p" "$b.plain" $args
  prc=$osp_rc
  if [ "$prc" -eq 124 ]; then
    osp_fail "$prog $level: the plain program timed out"
    continue
  fi

  [ -n "$lib" ] && args=$b.lib.osp.so
  mkdir -p "$b.reports"
  # shellcheck disable=SC2086
  osp_exec_with "mode=blocks:report=$b.reports/r.%p:report_format=tsv" "$b.i" "$b.osp" $args
  irc=$osp_rc
  if [ "$prc" != "$irc" ]; then
    osp_fail "$prog $level: exit status $irc instrumented, $prc plain"
    osp_show "$b.i.err" "instrumented stderr"
    ok=no
  fi
  osp_same "$prog $level stdout" "$b.p.out" "$b.i.out" || ok=no
  osp_same "$prog $level stderr" "$b.p.err" "$b.i.err" || ok=no

  # The exit reports: all well formed, and one of them has main with 1 call.
  nrep=0
  main_ok=no
  for r in "$b.reports"/r.*; do
    [ -f "$r" ] || continue
    nrep=$((nrep + 1))
    osp_check_report "$r" || { osp_fail "$prog $level: malformed report $r"; ok=no; }
    [ "$(osp_calls "$r" main)" = 1 ] && main_ok=yes
  done
  if [ $nrep -eq 0 ]; then
    osp_fail "$prog $level: no exit report was written (report=$b.reports/r.%p)"
    ok=no
  elif [ $main_ok = no ]; then
    osp_fail "$prog $level: no report has a function row for main with 1 call"
    ok=no
  fi
  for e in $expect; do
    # expect=REGEX: some function row whose name matches REGEX has calls > 0.
    if ! cat "$b.reports"/r.* 2>/dev/null |
         awk -F '\t' -v re="$e" '$1 == "function" && $3 ~ re && $6 ~ /^[1-9]/ { f = 1 } END { exit !f }'
    then
      osp_fail "$prog $level: no function row matching '$e' with calls > 0"
      ok=no
    fi
  done

  # Sampled subpaths with the text report on stderr (osp_exec's report=stderr); stdout and status
  # unchanged.
  # shellcheck disable=SC2086
  osp_exec "$b.d" "$b.osp" $args
  if [ "$osp_rc" != "$prc" ]; then
    osp_fail "$prog $level: exit status $osp_rc instrumented with default OSP_OPTIONS, $prc plain"
    osp_show "$b.d.err" "instrumented stderr"
    ok=no
  fi
  osp_same "$prog $level stdout (default OSP_OPTIONS)" "$b.p.out" "$b.d.out" || ok=no
  if ! grep -q '^osp report: mode=subpaths ' "$b.d.err"; then
    osp_fail "$prog $level: no default (sampled subpaths) text report on stderr"
    osp_show "$b.d.err" "instrumented stderr"
    ok=no
  fi
  [ $ok = yes ] && echo "ok: $prog $level (exit status $prc)"
done
osp_done

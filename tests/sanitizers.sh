#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/sanitizers.sh - the runtime's unit tests (libosprt/tests) again, built with
# AddressSanitizer + UndefinedBehaviorSanitizer, then with ThreadSanitizer.
#
# The runtime sources are the OSPRT_SOURCES list of libosprt/local.mk and the view format
# library's list in libosprt/format/local.mk, so a new runtime file is covered without editing
# this script.  White-box tests link the sanitized objects directly (as the check-only
# convenience library does); t_threads, t_fork and t_online link a sanitized libosprt.so, as
# they link the real one in make check.  Any sanitizer report fails the test
# (-fno-sanitize-recover, halt_on_error).  LeakSanitizer is off for t_fork only: it hangs in the
# forked children of a threaded process (google/sanitizers #836, #1479).
#
# Time: the sanitizers slow the tests (TSan 5-15 times), so their limits must allow for it: each
# test's run is capped at osp_seconds 600 (tests/env.sh: 600 s times OSP_TEST_TIMEOUT_SCALE, 50
# min by default, only to stop a hang: with the load average at 12 on 2 cores, t_hotlist under
# TSan took 591 s, past the fixed 300 s this cap used to be), and the tests' own waits
# (libosprt/tests/testutil.h's osp_test_deadline) read the same scale.  Each "ok" line gives the
# seconds the test took.
. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup sanitizers

src=$abs_top_srcdir/libosprt
rt=$(sed -n '/^OSPRT_SOURCES = /,/[^\\]$/p' "$src/local.mk" | tr -d '\\' | tr ' \t' '\n\n' |
     grep '\.c$' | sed "s|^libosprt/|$src/|")
[ -n "$rt" ] || { osp_fail "no OSPRT_SOURCES in $src/local.mk"; osp_done; }
# The view format library the runtime links and its reader, which t_publish links
# (libosprt/format/local.mk's two lists, likewise).
fmt=$(sed -n '/^libosprt_format_libospformat\(_read\)*_la_SOURCES = /,/[^\\]$/p' "$src/format/local.mk" |
      tr -d '\\' | tr ' \t' '\n\n' | grep '\.c$' | sed "s|^libosprt/|$src/|")
[ -n "$fmt" ] || { osp_fail "no format sources in $src/format/local.mk"; osp_done; }
rt="$rt $fmt"
whitebox="t_options t_registry t_report t_sampler t_subexact t_hotlist t_paths t_shared t_forest t_publish"
blackbox="t_threads t_fork t_online t_pathrun"
cflags="-std=c11 -g -O1 -Wall -Wextra -pthread -I$abs_top_srcdir/include -I$src -I$src/format"
tmo=$(osp_seconds 600)

run_suite ()   # NAME SANITIZER-FLAGS
{
  name=$1 san=$2 d=$W/$1
  mkdir -p "$d"
  # shellcheck disable=SC2086
  if ! $CC $cflags $san -fPIC -fvisibility=hidden -shared $rt -o "$d/libosprt.so" -lm \
       -Wl,--version-script="$abs_top_srcdir/libosprt/osprt.map" > "$d/build.log" 2>&1; then
    osp_fail "$name: building the runtime"; osp_show "$d/build.log"; return
  fi
  for t in $whitebox $blackbox; do
    case " $whitebox " in
      *" $t "*) objs="$rt" link="-lm" ;;
      *) objs= link="-L$d -Wl,-rpath,$d -losprt" ;;
    esac
    # shellcheck disable=SC2086
    if ! $CC $cflags $san -fvisibility=hidden "$src/tests/$t.c" $objs -o "$d/$t" $link \
         > "$d/$t.build.log" 2>&1; then
      osp_fail "$name $t: build"; osp_show "$d/$t.build.log"; continue
    fi
    leaks=1
    [ "$t" = t_fork ] && leaks=0
    t0=$(date +%s)
    # srcdir: where t_options finds doc/osp.md (the test runs in its own work directory)
    srcdir=$abs_top_srcdir ASAN_OPTIONS=halt_on_error=1:detect_leaks=$leaks UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      TSAN_OPTIONS=halt_on_error=1 timeout "$tmo" "$d/$t" > "$d/$t.log" 2>&1 < /dev/null
    rc=$?
    if [ "$rc" -eq 0 ]; then
      echo "ok: $name $t ($(($(date +%s) - t0)) s)"
    elif [ "$rc" -eq 124 ]; then
      osp_fail "$name $t: timed out after $tmo s (see below)"; osp_show "$d/$t.log"
    else
      osp_fail "$name $t: exit status $rc (see below)"; osp_show "$d/$t.log"
    fi
  done
}

run_suite asan-ubsan "-fsanitize=address,undefined -fno-sanitize-recover=all"
run_suite tsan "-fsanitize=thread"
osp_done

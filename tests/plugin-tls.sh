#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/plugin-tls.sh - the per-thread countdowns (__osp_skip, __osp_path_countdown) are one
# variable a thread, whichever way the program is linked (plugin/hooks.cc,
# declare_runtime_countdown; doc/osp.md, Safety: "Stack and address space"):
#   - an executable (-fPIE, the default, or -no-pie) defines them itself, weakly, and reaches
#     them at constant offsets (local-exec); the dynamic linker binds libosprt.so's references
#     and those of an instrumented -fPIC library to the executable's definition (LD_DEBUG);
#     main_work (executable) and lib_work (library) are both sampled, in three threads;
#   - a -fPIC executable, a static one (libosprt.a's definition wins over the weak ones), and a
#     plain program that dlopens an instrumented library work and sample the same;
#   - a -fPIE object linked into a shared library fails to link (R_X86_64_TPOFF32, the
#     documented limit); -fplugin-arg-osp-tls=initial-exec is the remedy, and a bad tls=
#     value is a one-line error.
# The output is the plain build's everywhere.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup plugin-tls
osp_need_build
main=$OSP_TESTSRC/progs/tls-main.c
lib=$OSP_TESTSRC/progs/tls-lib.c

case $($CC -dumpmachine) in
  x86_64-*) ;;
  *) echo "SKIP: the relocations checked are those of x86-64"; exit 77 ;;
esac

osp_compile "$W/plain" plain_cc -O2 "$main" -o "$W/plain" -ldl || { osp_fail "plain build"; osp_done; }
osp_compile "$W/plainlib" plain_cc -O2 -fPIC -shared "$lib" -o "$W/libplain.so" \
  || { osp_fail "plain library build"; osp_done; }
osp_exec "$W/plain" "$W/plain"
[ "$osp_rc" = 0 ] || { osp_fail "plain run: exit status $osp_rc"; osp_done; }
osp_exec "$W/plainlib" "$W/plain" "$W/libplain.so"
[ "$osp_rc" = 0 ] || { osp_fail "plain run with the library: exit status $osp_rc"; osp_done; }

# samples TSV FUNCTION: the path samples of FUNCTION in a tsv report.
samples ()
{
  awk -F '\t' -v f="$2" '$1 == "function" && $3 == f { id[$2] = 1 }
    $1 == "path" && ($3 in id) { n += $7 } END { print n + 0 }' "$1"
}

# check_run TAG REF FUNCTIONS PROG ARGS...: run PROG with a tsv report; the output must be
# $W/REF.out (the plain build's, without or with the library) and each of FUNCTIONS must have at least 50 path samples (about 650 expected:
# 660000 path ends, one sampled in 1000 on average).
check_run ()
{
  tag=$1 ref=$2 fns=$3
  shift 3
  osp_exec_with "report=$W/$tag.tsv:report_format=tsv" "$W/$tag" "$@"
  [ "$osp_rc" = 0 ] || { osp_fail "$tag: exit status $osp_rc"; osp_show "$W/$tag.err"; return; }
  osp_same "$tag stdout" "$W/$ref.out" "$W/$tag.out" || return
  for f in $fns; do
    n=$(samples "$W/$tag.tsv" "$f")
    if [ "$n" -ge 50 ]; then
      echo "ok: $tag: $f: $n path samples"
    else
      osp_fail "$tag: $f has $n path samples (at least 50 expected)"
    fi
  done
}

# An instrumented executable and an instrumented library: one countdown a thread.  Built with
# path-checks=own, so that both countdowns are referenced (the default's shared checks read
# __osp_skip only, and the executable then defines no __osp_path_countdown); the builds below
# have the default's.
own=-fplugin-arg-osp-path-checks=own
if osp_compile "$W/libtl" osp_cc -O2 $CHECKFLAGS $own -fPIC -shared "$lib" -o "$W/libtl.so" \
   && osp_compile "$W/pie" osp_cc -O2 $CHECKFLAGS $own "$main" -o "$W/pie" -L"$W" \
        -Wl,--no-as-needed -ltl -Wl,-rpath,"$W" -ldl; then
  check_run pie plainlib "main_work lib_work" "$W/pie"
  if command -v readelf > /dev/null; then
    for v in __osp_skip __osp_path_countdown; do
      readelf -sW "$W/pie" | grep -q "TLS  *WEAK  *DEFAULT  *[0-9][0-9]* $v\$" \
        || osp_fail "pie: the executable does not define $v (weak, TLS, default visibility)"
    done
  fi
  LD_DEBUG=bindings timeout "$OSP_TIMEOUT" "$W/pie" > /dev/null 2> "$W/bindings" < /dev/null
  if grep -q 'binding file' "$W/bindings"; then
    for m in libosprt.so libtl.so; do
      for v in __osp_skip __osp_path_countdown; do
        grep "binding file [^ ]*$m[^ ]* \[0\] to $W/pie \[0\]: normal symbol \`$v'" \
          "$W/bindings" > /dev/null \
          || { osp_fail "pie: $m's $v is not bound to the executable's"; \
               grep "symbol \`$v'" "$W/bindings"; }
      done
    done
  else
    echo "note: LD_DEBUG=bindings printed nothing (not glibc?): the bindings are not checked"
  fi
else
  osp_fail "pie: build"
fi

if osp_compile "$W/nopie" osp_cc -O2 -fno-pie -no-pie "$main" -o "$W/nopie" -ldl; then
  check_run nopie plain main_work "$W/nopie"
else
  osp_fail "nopie: build"
fi

if osp_compile "$W/pic" osp_cc -O2 -fPIC "$main" -o "$W/pic" -ldl; then
  check_run pic plain main_work "$W/pic"
else
  osp_fail "pic: build"
fi

# Static: only where the C library links statically.
if [ -f "$OSP_RTDIR/libosprt.a" ] \
   && plain_cc -O2 -static "$main" -o "$W/static-probe" -ldl > /dev/null 2>&1; then
  if osp_compile "$W/static" $CC -fplugin="$OSP_PLUGIN" -I"$OSP_INCLUDE" -O2 -static "$main" \
       -o "$W/static" "$OSP_RTDIR/libosprt.a" -lm -ldl -pthread; then
    check_run static plain main_work "$W/static"
  else
    osp_fail "static: build"
  fi
else
  echo "note: no static C library or no libosprt.a: static linking not checked"
fi

# A plain program dlopens the instrumented library: the library uses libosprt's countdowns.
[ -f "$W/libtl.so" ] && check_run dlopen plainlib lib_work "$W/plain" "$W/libtl.so"

# -fPIE objects in a shared library: the link error, then the remedy.
if osp_compile "$W/lpie" osp_cc -O2 -fPIE -c "$lib" -o "$W/lpie.o"; then
  if osp_cc -shared "$W/lpie.o" -o "$W/libpie.so" > "$W/lpie.ld.err" 2>&1; then
    osp_fail "lpie: a local-exec (-fPIE) object linked into a shared library; the test expects the documented link error"
  else
    grep -q 'TPOFF32' "$W/lpie.ld.err" || { osp_fail "lpie: not the documented link error"; osp_show "$W/lpie.ld.err"; }
  fi
fi
if osp_compile "$W/lie" osp_cc -O2 -fplugin-arg-osp-tls=initial-exec -fPIE -c "$lib" -o "$W/lie.o" \
   && osp_compile "$W/libie" osp_cc -shared "$W/lie.o" -o "$W/libie.so"; then
  check_run initial-exec plainlib lib_work "$W/plain" "$W/libie.so"
else
  osp_fail "tls=initial-exec: a -fPIE object does not go into a shared library"
fi

if osp_cc -O2 -fplugin-arg-osp-tls=global-dynamic "$main" -o "$W/bad" > "$W/bad.err" 2>&1 \
   || [ -f "$W/bad" ]; then
  osp_fail "tls=global-dynamic was accepted"
elif ! grep -q "bad value .*for plugin argument .*tls.* (accepted: local-exec, initial-exec)" \
       "$W/bad.err"; then
  osp_fail "tls=global-dynamic: not the one-line error expected"
  osp_show "$W/bad.err"
fi
osp_done

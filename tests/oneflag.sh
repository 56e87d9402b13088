#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/oneflag.sh - one flag, every build system (issue 35; doc/osp.md, "One flag").
#
# `gcc -specs=osp.specs' (or the osp-gcc wrapper) must be all a build needs: the plugin at every
# compilation, the runtime, -lpthread, -lm under -static and a run path at every link.  Built
# unchanged from tests/projects/, with nothing of osp but that one flag:
#   - an Autotools project (autoreconf, configure CFLAGS="-O2 -g -specs=...", make);
#   - a CMake project, a shared library and a program using it (CFLAGS=-specs=... cmake);
#   - a plain Makefile that gives CFLAGS to compilations only (make CC=osp-gcc);
# and by hand: a shared library built with the one flag and loaded by plain programs (linked
# against it, and dlopen'ed by one that links nothing of osp; the library must carry its
# DT_NEEDED on libosprt and a run path), -static and -static-pie programs (need -lm; no run
# path under -static-pie), -flto, plugin options after the flag, the flag together with
# pkg-config's -fplugin, and OSP_CC; and a library compiled with -fplugin but linked without the
# runtime, which must fail to link (plugin/linkcheck.cc).
# Each program must print what the plain build prints and write its profile: a tsv report
# (mode=blocks) in which its work function was called once.
#
# By default the build tree's osp-uninstalled.specs and osp-gcc-uninstalled; `make installcheck'
# runs it with OSP_ONEFLAG_SPECS, OSP_ONEFLAG_GCC and OSP_ONEFLAG_LIBDIR naming the installed
# ones (then the programs must not name the build tree).  Without cmake the other parts run and
# the test then exits 77 (skip) with a note.
. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99

if [ -n "${OSP_ONEFLAG_SPECS:-}" ]; then
  osp_setup oneflag-installed
  SPECS=$OSP_ONEFLAG_SPECS
  OSPGCC=${OSP_ONEFLAG_GCC:?OSP_ONEFLAG_GCC names the installed osp-gcc}
  LIBDIR=${OSP_ONEFLAG_LIBDIR:?OSP_ONEFLAG_LIBDIR names the installed libdir}
  installed=1
else
  osp_need_build
  osp_setup oneflag
  SPECS=$abs_top_builddir/osp-uninstalled.specs
  OSPGCC=$abs_top_builddir/osp-gcc-uninstalled
  LIBDIR=$OSP_RTDIR
  installed=0
fi
for f in "$SPECS" "$OSPGCC"; do
  [ -f "$f" ] || { echo "error: $f does not exist (make builds it)"; exit 99; }
done
P=$OSP_TESTSRC/projects
cmake_missing=0

# profiled NAME FUNCTION EXPECTED CMD...: run CMD with a mode=blocks tsv report; its stdout must
# be EXPECTED, its status 0, and the report must count one call of FUNCTION.
profiled ()
{
  pn=$1 pf=$2 pe=$3
  shift 3
  rm -f "$W/$pn.tsv"
  OSP_OPTIONS="mode=blocks:report=$W/$pn.tsv:report_format=tsv" osp_run "$@" \
    > "$W/$pn.out" 2> "$W/$pn.err"
  rc=$?
  if [ "$rc" -ne 0 ]; then
    osp_fail "$pn: exit status $rc"
    osp_show "$W/$pn.err" "$pn: stderr"
    return 1
  fi
  if [ "$(cat "$W/$pn.out")" != "$pe" ]; then
    osp_fail "$pn: printed '$(cat "$W/$pn.out")', the plain build '$pe'"
    return 1
  fi
  if [ ! -s "$W/$pn.tsv" ]; then
    osp_fail "$pn: wrote no profile ($W/$pn.tsv)"
    osp_show "$W/$pn.err" "$pn: stderr"
    return 1
  fi
  calls=$(awk -F '\t' -v f="$pf" '$1 == "function" && $3 == f { print $6 }' "$W/$pn.tsv")
  if [ "$calls" != 1 ]; then
    osp_fail "$pn: the profile gives $pf '${calls:-no row}' calls, not 1"
    osp_show "$W/$pn.tsv" "$pn: report"
    return 1
  fi
  echo "ok: $pn runs as plain and its profile counts $pf"
}

# dynamic FILE NAME: FILE needs libosprt and has a run path to LIBDIR; installed, none to the
# build tree.
dynamic ()
{
  readelf -d "$1" > "$W/$2.dyn" 2>&1 || { osp_fail "$2: readelf -d $1 failed"; return 1; }
  grep -q 'NEEDED.*\[libosprt\.so' "$W/$2.dyn" ||
    { osp_fail "$2: $1 does not need libosprt"; osp_show "$W/$2.dyn"; }
  grep -E '(RPATH|RUNPATH)' "$W/$2.dyn" | grep -Fq "$LIBDIR" ||
    { osp_fail "$2: $1 has no run path to $LIBDIR"; osp_show "$W/$2.dyn"; }
  if [ "$installed" = 1 ] && grep -Fq "$abs_top_builddir" "$W/$2.dyn"; then
    osp_fail "$2: $1 names the build tree"
    osp_show "$W/$2.dyn"
  fi
}

# --- the flag by hand: plain cc with -specs, a shared library, -static, -flto, options ---------
lib=$OSP_TESTSRC/progs/oneflag-lib.c
main=$OSP_TESTSRC/progs/oneflag-main.c
osp_compile "$W/plain" $CC -O2 -DONEFLAG_STATIC -I"$OSP_TESTSRC/progs" "$main" -o "$W/plain" ||
  exit 99
expect=$(osp_run "$W/plain")

if osp_compile "$W/exe" $CC -specs="$SPECS" -O2 -g -DONEFLAG_STATIC -I"$OSP_TESTSRC/progs" \
     "$main" -o "$W/exe"; then
  profiled exe oneflag_lib_work "$expect" "$W/exe"
  dynamic "$W/exe" exe
fi

# A shared library carries its dependency on the runtime: programs that know nothing of osp
# load it, by the link and by dlopen.
if osp_compile "$W/lib" $CC -specs="$SPECS" -O2 -g -fPIC -shared "$lib" -o "$W/liboneflag.so"
then
  dynamic "$W/liboneflag.so" lib
  osp_compile "$W/linked" $CC -O2 "$main" -L"$W" -Wl,-rpath,"$W" -loneflag -o "$W/linked" &&
    profiled linked oneflag_lib_work "$expect" "$W/linked"
  if readelf -d "$W/linked" | grep -q 'NEEDED.*libosprt'; then
    osp_fail "linked: the plain program itself needs libosprt (only the library should)"
  fi
  osp_compile "$W/dlopen" $CC -O2 -DONEFLAG_DLOPEN "$main" -o "$W/dlopen" -ldl &&
    profiled dlopen oneflag_lib_work "$expect" "$W/dlopen" "$W/liboneflag.so"
fi

# Without the flag at the link, a library compiled with the plugin does not link (it used to
# link and then fail when loaded: "undefined symbol: __osp_skip"); with -losprt it does.
if [ "$installed" = 0 ]; then
  if $CC -fplugin="$OSP_PLUGIN" -O2 -fPIC -shared "$lib" -o "$W/libnort.so" \
       > "$W/nort.err" 2>&1; then
    osp_fail "nort: a library compiled with the plugin linked without libosprt"
  elif ! grep -q '__osp_register_module@LIBOSPRT_0' "$W/nort.err"; then
    osp_fail "nort: the link failed, but not for the runtime's version"
    osp_show "$W/nort.err"
  else
    echo "ok: nort: $(grep -m 1 LIBOSPRT_0 "$W/nort.err")"
  fi
  osp_compile "$W/rt" $CC -fplugin="$OSP_PLUGIN" -O2 -fPIC -shared "$lib" -o "$W/librt.so" \
    -L"$OSP_RTDIR" -Wl,-rpath,"$OSP_RTDIR" -losprt
fi

# -static: libosprt.a needs libm (the hot-list's sampler) and pthreads.  Skipped where the C
# library has no static archive.
if $CC -static -O2 -DONEFLAG_STATIC -I"$OSP_TESTSRC/progs" "$main" -o "$W/static-plain" \
     > /dev/null 2>&1; then
  osp_compile "$W/static" $CC -specs="$SPECS" -O2 -static -DONEFLAG_STATIC \
      -I"$OSP_TESTSRC/progs" "$main" -o "$W/static" &&
    profiled static oneflag_lib_work "$expect" "$W/static"
  # -static-pie: no run path (glibc's self-relocating start crashed on one: SIGSEGV).
  if $CC -static-pie -O2 -DONEFLAG_STATIC -I"$OSP_TESTSRC/progs" "$main" \
       -o "$W/static-pie-plain" > /dev/null 2>&1; then
    osp_compile "$W/static-pie" $CC -specs="$SPECS" -O2 -static-pie -DONEFLAG_STATIC \
        -I"$OSP_TESTSRC/progs" "$main" -o "$W/static-pie" &&
      profiled static-pie oneflag_lib_work "$expect" "$W/static-pie"
  fi
else
  echo "note: $CC cannot link a plain -static program here: the static case is skipped"
fi

# -flto: compile and link in one command (lto1 runs at the link, under the same specs).
osp_compile "$W/lto" $CC -specs="$SPECS" -O2 -flto -DONEFLAG_STATIC -I"$OSP_TESTSRC/progs" \
    "$main" -o "$W/lto" &&
  profiled lto oneflag_lib_work "$expect" "$W/lto"

# Plugin options after the flag (GCC wants -fplugin before -fplugin-arg-osp-*), and the flag with
# pkg-config's -fplugin for the same osp.so (GCC loads it once).
osp_compile "$W/opts" $CC -specs="$SPECS" -O2 -fplugin-arg-osp-instrument=blocks \
    -DONEFLAG_STATIC -I"$OSP_TESTSRC/progs" "$main" -o "$W/opts" &&
  profiled opts oneflag_lib_work "$expect" "$W/opts"
if [ "$installed" = 0 ]; then
  osp_compile "$W/twice" $CC -specs="$SPECS" -fplugin="$OSP_PLUGIN" -O2 -DONEFLAG_STATIC \
      -I"$OSP_TESTSRC/progs" "$main" -o "$W/twice" &&
    profiled twice oneflag_lib_work "$expect" "$W/twice"
fi

# osp-gcc runs $OSP_CC (words allowed) with the flag in front of the arguments.
printf '#!/bin/sh\necho "$@" > "%s"\n' "$W/fakecc.args" > "$W/fakecc"
chmod +x "$W/fakecc"
OSP_CC="$W/fakecc -DWORD" "$OSPGCC" -c x.c
if [ "$(cat "$W/fakecc.args" 2>/dev/null)" != "-DWORD -specs=$SPECS -c x.c" ]; then
  osp_fail "osp-gcc: OSP_CC got '$(cat "$W/fakecc.args" 2>/dev/null)'"
fi

# --- Autotools: CFLAGS carries the flag to configure's checks, compilations and the link -------
cp -R "$P/autotools" "$W/at" && chmod -R u+w "$W/at" || exit 99
osp_compile "$W/at-plain" $CC -O2 "$P/autotools/main.c" "$P/autotools/work.c" -o "$W/at-plain" \
  -lm || exit 99
at_expect=$(osp_run "$W/at-plain")
if (cd "$W/at" && autoreconf -fi && ./configure CFLAGS="-O2 -g -specs=$SPECS" && make) \
     > "$W/at.log" 2>&1; then
  profiled autotools autotools_work "$at_expect" "$W/at/hello"
  dynamic "$W/at/hello" autotools
else
  osp_fail "autotools: the project did not build"
  tail -n 30 "$W/at.log"
fi

# --- CMake: CFLAGS goes into CMAKE_C_FLAGS, used to compile and to link -------------------------
if command -v cmake > /dev/null 2>&1; then
  osp_compile "$W/cm-plain" $CC -O2 "$P/cmake/main.c" "$P/cmake/work.c" -o "$W/cm-plain" ||
    exit 99
  cm_expect=$(osp_run "$W/cm-plain")
  if CC=$CC CFLAGS="-O2 -g -specs=$SPECS" cmake -S "$P/cmake" -B "$W/cm" > "$W/cm.log" 2>&1 &&
     cmake --build "$W/cm" >> "$W/cm.log" 2>&1; then
    profiled cmake cmake_work "$cm_expect" "$W/cm/cmhello"
    dynamic "$W/cm/libcmwork.so" cmake-lib
  else
    osp_fail "cmake: the project did not build"
    tail -n 30 "$W/cm.log"
  fi
else
  echo "note: cmake is not installed (Debian: apt-get install cmake): the CMake project is skipped"
  cmake_missing=1
fi

# --- a plain Makefile: CFLAGS only at compile time, so CC carries the flag ----------------------
cp -R "$P/make" "$W/mk" && chmod -R u+w "$W/mk" || exit 99
osp_compile "$W/mk-plain" $CC -O2 "$P/make/main.c" "$P/make/work.c" -o "$W/mk-plain" || exit 99
mk_expect=$(osp_run "$W/mk-plain")
if make -C "$W/mk" CC="$OSPGCC" > "$W/mk.log" 2>&1; then
  profiled make make_work "$mk_expect" "$W/mk/mkhello"
  dynamic "$W/mk/mkhello" make
else
  osp_fail "make: the project did not build"
  tail -n 30 "$W/mk.log"
fi

if [ "$cmake_missing" = 1 ] && [ "$osp_failures" -eq 0 ]; then
  echo "SKIP: cmake is not installed (the other parts passed)"
  rm -rf "$W"
  exit 77
fi
osp_done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/readme.sh - the README's first lines and its example do what they say.
#
#   1. The README opens with the two command lines .ci/run runs (the first two lines indented by
#      four spaces), each starting with its package list P="..."; the first builds and runs the
#      demo without the test packages, the second runs `make check'.
#   2. The five-line example under "Build, run, watch, save, compare", run as written from the
#      build directory with three changes for a script: the paths name this build (a VPATH build
#      has examples/ in the source tree), the demo's run is shorter, a bounded wait for its
#      segment replaces the `sleep 1' that gives a reader's shell time, and the watch line prints
#      one refresh as text (-b 1) instead of the terminal UI.  It must build the demo with the
#      one flag, show its hot subpaths, save a snapshot while it runs, write one at exit, and
#      compare the two (what ran between them).

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_need_build
osp_setup readme
README=$OSP_TESTSRC/../README
[ -x "$abs_top_builddir/viewer/ospview" ] || { echo "error: ospview was not built"; exit 99; }

# 1. the two command lines
grep -m 2 -E '^    [^ ]' "$README" | sed 's/^    //' > "$W/cmds"
build_pkgs=$(sed -n '1s/^P="\([^"]*\)".*/\1/p' "$W/cmds")
test_pkgs=$(sed -n '2s/^P="\([^"]*\)".*/\1/p' "$W/cmds")
[ -n "$build_pkgs" ] || osp_fail "README's first command does not open with P=\"packages\""
[ -n "$test_pkgs" ] || osp_fail "README's second command does not open with P=\"packages\""
sed -n 1p "$W/cmds" | grep -q 'make demo$' || osp_fail "README's first command does not end in make demo"
sed -n 2p "$W/cmds" | grep -q 'make -j2 check' || osp_fail "README's second command runs no make check"
for p in clang valgrind hyperfine gcc-12-source tmux cmake; do
  case " $build_pkgs " in *" $p "*) osp_fail "the first line installs $p, which only the tests need" ;; esac
  case " $test_pkgs " in *" $p "*) ;; *) osp_fail "the second line does not install $p" ;; esac
done
echo "ok: two command lines, packages split (build: $(echo $build_pkgs | wc -w), tests: $(echo $test_pkgs | wc -w))"

# 2. the example: the indented lines of its section
awk '/^Build, run, watch, save, compare$/ { s = 1; next }
     s && /^-+$/ { if (++d == 2) exit; next }
     s && /^    [^ ]/ { sub(/^    /, ""); print }' "$README" > "$W/example"
n=$(wc -l < "$W/example")
[ "$n" -eq 5 ] || osp_fail "the example has $n lines, not 5"
B=$abs_top_builddir
S=$(cd "$OSP_TESTSRC/.." && pwd)
# The README's `sleep 1' lets the demo make its segment before ospview looks for it; here a
# bounded wait for the segment instead (tests/README.md, "Time limits").
ticks=$(($(osp_seconds 10) * 10))
sed -e "s|\\\$PWD/osp-uninstalled.specs|$B/osp-uninstalled.specs|" \
    -e "s| examples/demo.c| $S/examples/demo.c|" \
    -e "s|viewer/ospview|$B/viewer/ospview|g" \
    -e 's|\./demo 100|./demo 20|' \
    -e "s|& sleep 1 |\& n=0; until [ -e /dev/shm/osp-\$(id -u)-\$! ] \|\| [ \$n -ge $ticks ]; do sleep 0.1; n=\$((n + 1)); done |" \
    -e 's|\(ospview -p \$!\)\( *#.*\)$|\1 -b 1 --top=3 --screen=subpaths\2|' \
    "$W/example" > "$W/example.sh"
osp_show "$W/example.sh" "the example as run"
(cd "$W" && bash ./example.sh) > "$W/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || osp_fail "the example exited with status $rc"
grep -q '^hottest subpaths' "$W/out" || osp_fail "the watch line showed no subpaths"
grep -q '^saved now.ospsnap' "$W/out" || osp_fail "the save line saved nothing"
[ -s "$W/demo.ospsnap" ] || osp_fail "the run wrote no snapshot (demo.ospsnap) at exit"
grep -q '^osp: profile in demo.ospsnap (view: ospview demo.ospsnap' "$W/out" ||
  osp_fail "the run did not name its snapshot in one line at exit"
grep -q 'ran between OLD and NEW' "$W/out" || osp_fail "the compare line did not compare the two"
[ "$osp_failures" -eq 0 ] && echo "ok: build, run, watch, save, compare" || osp_show "$W/out" "its output"
osp_done

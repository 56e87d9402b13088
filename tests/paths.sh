#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/paths.sh - Ball-Larus numbering, probes and checks, end to end.
#
# For every program of the corpus (tests/corpus/*.c) and tests/progs/paths-tricky.c (80 ifs in
# a row, a 300-case switch, an irreducible loop, a loop nest, a noreturn end), at -O0 and -O2
# with $CHECKFLAGS, built with instrument=blocks,paths:
#   - the program prints and exits exactly as the plain build;
#   - OSP_OPTIONS verify_paths=1: the runtime enumerates every function's P-DAG (or round-trips
#     random ids when it has more than 100000 paths): ids are exactly 0..N-1 and decoding
#     inverts numbering; it must report 0 errors;
#   - mode=blocks with paths=exhaustive, in the same run: the block counts derived from the
#     exact path counts (each path's count times its blocks) equal the block hooks' own counts,
#     block for block.  Programs where a path can end without a check (see $lossy below) are
#     only checked for "derived <= counted".
# paths-tricky.c is also built with max-paths=1000 (many cuts) and must still verify and match.
# The same checks hold for the inline path counters (instrument=blocks,counts: no sample check,
# the report reads the counters), at -O0 and -O2, atomic for the programs with threads; and for
# counters next to sample checks (blocks,paths,counts: the path ends reach the runtime, which
# must not count them twice).  The corpus's dlopen program unloads its library before exit, so
# its counters must outlive the module.  progs/batch.c (loops whose hooks and checks move to
# their exits, batch-loops=yes) must give the same subpath, block, path, edge and forest rows as
# with batch-loops=no, at -O0, -O2, -O3, with calls=plain and with instrument=blocks: exactly in
# the exhaustive modes, and draw for draw in the sampled ones with the same seed; so must
# progs/versions.c with version-loops=yes and no (inner loops given a copy without the tests,
# versions.cc), at -O1, -O2, -O3, placement=late, calls=plain, each instrumentation alone, and
# batch-loops=no (and in versions.c's stepper, GCC's store motion must keep the state in a
# register through the untested copy, and its if-conversion must make hits++ a conditional add,
# as in the plain build);
# and progs/runs.c with fold-tests=yes and no (a straight run of tests that
# inlining made, tested once: runs.cc), at -O1, -O2, -O3, each instrumentation alone, calls=plain
# and version-loops=no; and progs/inlining.c with inline-sizes=plain and instrumented (the IPA
# inliner weighs functions without osp's code, sizes.cc: a helper is inlined only with plain).
# progs/single-
# path.c: functions without loops and with at most count-loop-free paths get counters, not
# checks, with the exhaustive rows of count-loop-free=1 and 0, exact rows among paths=counter's
# estimates (shares still adding up to 1), and none under paths=timer or in the forest; and the
# counter of one inlined into a loop stays in a register through the loop (GCC's store motion).

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup paths
osp_need_build

# Programs whose paths can end without a check, so that the hooks count blocks that no recorded
# path contains: longjmp targets are reached by abnormal edges, computed gotos leave by abnormal
# edges, cleanup handlers by EH edges (all three happen to lose nothing in these programs, but
# may), and a function whose callee calls exit() or does a nonlocal goto out of it never ends
# its current path (exitloop, noreturn, nested).  Signal handlers: a hook or check that fires
# while the runtime is busy on the same thread is dropped (stat hits_lost), which can lose a
# block count as well as a path, so signals is not compared at all.
lossy=" setjmp cgoto cleanup exitloop noreturn nested "
unchecked=" signals fork "


# check_one NAME SRC LEVEL [EXTRA CFLAGS...]
check_one ()
{
  name=$1 src=$2 level=$3
  shift 3
  b=$W/$name$level$(echo "$*" | tr -dc 'a-z0-9')
  header=$(sed -n '1,3p' "$src" | sed -n 's/.*osp-test: *//p')
  cflags= ldflags= lib=
  for kv in $header; do
    case $kv in
      cflags=*) cflags="$cflags ${kv#cflags=}" ;;
      ldflags=*) ldflags="$ldflags ${kv#ldflags=}" ;;
      lib=*) lib=${kv#lib=} ;;
    esac
  done
  # shellcheck disable=SC2086
  osp_compile "$b.plain" plain_cc $level $cflags -w "$src" -o "$b.plain" $ldflags || {
    osp_fail "$name $level: plain build"; return; }
  # shellcheck disable=SC2086
  osp_compile "$b.osp" osp_cc $level $CHECKFLAGS $cflags -w \
      -fplugin-arg-osp-instrument=blocks,paths "$@" "$src" -o "$b.osp" $ldflags || {
    osp_fail "$name $level: instrumented build"; return; }
  pargs= iargs=
  if [ -n "$lib" ]; then
    # shellcheck disable=SC2086
    osp_compile "$b.libp" plain_cc $level $cflags -w -fPIC -shared "$OSP_TESTSRC/corpus/$lib" \
        -o "$b.libp.so" || { osp_fail "$name: plain $lib"; return; }
    # shellcheck disable=SC2086
    osp_compile "$b.libi" osp_cc $level $CHECKFLAGS $cflags -w -fPIC -shared "$@" \
        "$OSP_TESTSRC/corpus/$lib" -o "$b.libi.so" || { osp_fail "$name: instrumented $lib"; return; }
    pargs=$b.libp.so iargs=$b.libi.so
  fi
  # shellcheck disable=SC2086
  osp_exec "$b.p" "$b.plain" $pargs
  prc=$osp_rc
  mkdir -p "$b.r"
  # shellcheck disable=SC2086
  osp_exec_with "mode=blocks:paths=exhaustive:verify_paths=1:report=$b.r/r.%p:report_format=tsv" \
      "$b.i" "$b.osp" $iargs
  ok=yes
  [ "$osp_rc" = "$prc" ] || { osp_fail "$name $level: exit status $osp_rc, plain $prc"; ok=no; }
  osp_same "$name $level stdout" "$b.p.out" "$b.i.out" || ok=no
  if grep -q 'path numbering error' "$b.i.err" ||
     ! grep -q 'verified path numbering: .* 0 errors' "$b.i.err"; then
    osp_fail "$name $level: path numbering not verified"
    osp_show "$b.i.err" stderr
    ok=no
  fi
  exact=yes
  case $lossy in *" $name "*) exact=no ;; esac
  case $unchecked in *" $name "*) exact=skip ;; esac
  nrep=0
  for r in "$b.r"/r.*; do
    [ -f "$r" ] || continue
    nrep=$((nrep + 1))
    osp_check_report "$r" || { osp_fail "$name $level: malformed report $r"; ok=no; }
    grep -q '^path	' "$r" || { osp_fail "$name $level: no path rows in $r"; ok=no; }
    [ $exact = skip ] || osp_paths_add_up "$r" $exact || {
      osp_fail "$name $level: block counts from paths differ from the hooks' ($r)"; ok=no; }
  done
  [ $nrep -gt 0 ] || { osp_fail "$name $level: no report"; ok=no; }
  [ $ok = yes ] && echo "ok: $name $level $* ($(sed -n 's/^osp: verified path numbering: //p' "$b.i.err" | head -n 1))"
}

for level in -O0 -O2; do
  for src in "$OSP_TESTSRC"/corpus/*.c; do
    prog=$(basename "$src" .c)
    case $prog in
      *-lib) continue ;;
      # Threads running one function at once: a thread-aware build, whose counters (of the
      # functions without loops) would otherwise lose increments.
      threads|omp) check_one "$prog" "$src" $level -fplugin-arg-osp-counts-update=atomic ;;
      *) check_one "$prog" "$src" $level ;;
    esac
  done
  check_one paths-tricky "$OSP_TESTSRC/progs/paths-tricky.c" $level
done
check_one paths-tricky "$OSP_TESTSRC/progs/paths-tricky.c" -O2 -fplugin-arg-osp-max-paths=1000
for level in -O0 -O2; do
  for src in "$OSP_TESTSRC"/corpus/*.c; do
    prog=$(basename "$src" .c)
    case $prog in
      *-lib) continue ;;
      threads|omp) check_one "$prog" "$src" $level -fplugin-arg-osp-instrument=blocks,counts \
                     -fplugin-arg-osp-counts-update=atomic ;;
      *) check_one "$prog" "$src" $level -fplugin-arg-osp-instrument=blocks,counts ;;
    esac
  done
  check_one paths-tricky "$OSP_TESTSRC/progs/paths-tricky.c" $level \
    -fplugin-arg-osp-instrument=blocks,counts
done
check_one paths-tricky "$OSP_TESTSRC/progs/paths-tricky.c" -O2 \
  -fplugin-arg-osp-instrument=blocks,paths,counts

# both_builds TAG KEY SRC FLAGS...: $W/TAG.yes and $W/TAG.no, built with -fplugin-arg-osp-KEY=yes
# and =no (or =$on and =$off when those are set) and verbose notes; ok=no if either fails.
both_builds ()
{
  tag=$1 key=$2 src=$3
  shift 3
  for v in yes no; do
    value=$v
    [ $v = yes ] && [ -n "${on:-}" ] && value=$on
    [ $v = no ] && [ -n "${off:-}" ] && value=$off
    # shellcheck disable=SC2086
    osp_compile "$W/$tag.$v" osp_cc "$@" $CHECKFLAGS -fplugin-arg-osp-verbose \
        -fplugin-arg-osp-$key=$value "$src" -o "$W/$tag.$v" -lm || { osp_fail "$tag: build"; ok=no; }
  done
}

# noted BUILD WHAT: the sum of the "N WHAT" of BUILD's verbose notes.
noted ()
{
  sed -n "s/.* \([0-9][0-9]*\) $2.*/\1/p" "$W/$1.cc.err" | awk '{ s += $1 } END { print s + 0 }'
}

# same_rows TAG LABEL OPTIONS...: run both builds with each OPTIONS; their rows and stdout must be
# the same (rows: how many were compared); ok=no if not.
same_rows ()
{
  tag=$1 label=$2
  shift 2
  rows=0
  for opts in "$@"; do
    for v in yes no; do
      osp_exec_with "$opts:report=$W/$tag.$v.tsv:report_format=tsv" "$W/$tag.$v" "$W/$tag.$v"
      [ "$osp_rc" = 0 ] || { osp_fail "$tag $v ($opts): exit status $osp_rc"; osp_show "$W/$tag.$v.err"; ok=no; }
      grep -E '^(path|forest|edge|subpath|block)	' "$W/$tag.$v.tsv" > "$W/$tag.$v.rows"
    done
    osp_same "$tag ($opts): $label rows" "$W/$tag.no.rows" "$W/$tag.yes.rows" || ok=no
    osp_same "$tag ($opts): $label stdout" "$W/$tag.no.out" "$W/$tag.yes.out" || ok=no
    [ -s "$W/$tag.yes.rows" ] || { osp_fail "$tag ($opts): no rows"; ok=no; }
    rows=$((rows + $(wc -l < "$W/$tag.yes.rows")))
  done
}

# Batched loops (batch-loops=yes, the default; progs/batch.c has loops of every shape): the
# batched build reports the same path counts as the hooks (check_one), and the same rows as the
# unbatched build - exactly in the exhaustive modes, and, since the runtime takes a batch's
# events one by one in order, draw for draw in the sampled ones with the same seed.
bsrc=$OSP_TESTSRC/progs/batch.c
check_one batch "$bsrc" -O2
sampled="mode=subpaths:interval=7:paths=counter:path_interval=37:forest=burst:forest_interval=50:seed=1"
exhaustive="mode=blocks:paths=exhaustive:forest=exhaustive:forest_k=3"
exact="mode=subpaths-exact:paths=off:forest=off:seed=1"
for flags in -O0 -O2 -O3 "-O2 -fplugin-arg-osp-calls=plain" "-O2 -fplugin-arg-osp-instrument=blocks"; do
  tag=batch$(echo "$flags" | tr -dc 'a-zA-Z0-9')
  ok=yes
  # shellcheck disable=SC2086
  both_builds "$tag" batch-loops "$bsrc" $flags
  [ $ok = yes ] || continue
  nb=$(noted "$tag.yes" "batched loops") nn=$(noted "$tag.no" "batched loops")
  # daxpy, find, digits, triangle's inner loop and main's two setup loops.
  [ "$nb" = 6 ] && [ "$nn" = 0 ] || { osp_fail "$tag: $nb batched loops (expected 6), $nn with batch-loops=no"; ok=no; }
  same_rows "$tag" "batched vs unbatched" "$sampled" "$exhaustive" "$exact"
  [ $ok = yes ] && echo "ok: batched loops $flags: $nb batched, same rows as unbatched ($rows rows)"
done

# Versioned loops (version-loops=yes, the default; progs/versions.c): an inner loop whose run
# or iteration cannot reach the end of a countdown runs a copy without the tests, so every row
# must be the unversioned build's - exactly in the exhaustive modes, draw for draw in the sampled
# ones (two intervals, so that both copies run).  At least the five loops that paths alone can
# version (branchy, search, norms, empty_often, inlined) must be versioned, inlined's among them
# (its loop calls nothing once the IPA inliner has put classify into it: versioned by the pass
# after inlining, or by the osp pass itself with placement=late), and, but with paths alone
# (one check a pass), chains' outer loop and calls' loop (which calls helper, a function without
# loops, whose most tests on a call count in the choice); none with version-loops=no, and never
# calls_loop's (it calls collatz, which has a loop); and helper, a function without loops, as a
# whole (but with paths alone, where it counts its paths instead of testing).
vsrc=$OSP_TESTSRC/progs/versions.c
vsampled="mode=subpaths:interval=100:paths=counter:path_interval=100:forest=burst:forest_interval=50:seed=1"
for flags in -O1 -O2 -O3 "-O2 -fplugin-arg-osp-placement=late" "-O2 -fplugin-arg-osp-calls=plain" \
    "-O2 -fplugin-arg-osp-instrument=paths" "-O3 -fplugin-arg-osp-instrument=blocks" \
    "-O2 -fplugin-arg-osp-instrument=blocks -fplugin-arg-osp-batch-loops=no"; do
  tag=versions$(echo "$flags" | tr -dc 'a-zA-Z0-9')
  ok=yes
  # shellcheck disable=SC2086
  both_builds "$tag" version-loops "$vsrc" $flags
  [ $ok = yes ] || continue
  nv=$(noted "$tag.yes" "versioned loops") nn=$(noted "$tag.no" "versioned loops")
  [ "$nv" -ge 5 ] && [ "$nn" = 0 ] || { osp_fail "$tag: $nv versioned loops (expected 5 or more), $nn with version-loops=no"; ok=no; }
  for f in inlined chains calls; do
    case $f$flags in chains*instrument=paths*|calls*instrument=paths*) continue ;; esac
    grep -q -E "(versioned loops in $f after inlining|instrumented $f: .*, [1-9][0-9]* versioned loops)" "$W/$tag.yes.cc.err" ||
      { osp_fail "$tag: $f's loop was not versioned"; ok=no; }
  done
  ! grep -q -E "(versioned loops in calls_loop after inlining|instrumented calls_loop: .*, [1-9][0-9]* versioned loops)" \
      "$W/$tag.yes.cc.err" || { osp_fail "$tag: calls_loop's loop was versioned (it calls a loop)"; ok=no; }
  case $flags in
    *instrument=paths*) ;;
    *) grep -q "osp: helper versioned as a whole" "$W/$tag.yes.cc.err" ||
         { osp_fail "$tag: helper (no loop, three tests a call) was not versioned as a whole"; ok=no; } ;;
  esac
  case $flags in
    *instrument=paths*) same_rows "$tag" "versioned vs unversioned" "$sampled" "$vsampled" "$exhaustive" ;;
    *) same_rows "$tag" "versioned vs unversioned" "$sampled" "$vsampled" "$exhaustive" "$exact" ;;
  esac
  [ $ok = yes ] && echo "ok: versioned loops $flags: $nv versioned, same rows as unversioned ($rows rows)"
done

# The untested copy of a loop chosen in every iteration is a loop of its own, nested in the one
# that chooses (versions.cc's join_versions), so GCC's store motion keeps stepper's generator
# state, read and written through a pointer in every iteration, in a register through it, as in
# the plain build; with both copies in one loop it did not (neither copy's store runs every time).
# And the countdown decrement of its one-block arm (`hits++') moves to the join
# (versions.cc's drop_tests), so that GCC's if-conversion makes the arm a conditional add again, as
# in the plain build (with instrument=paths alone the arm has no decrement of its own).
stepper_dump ()
{
  awk '/^;; Function stepper/ { f = 1; next } /^;; Function/ { f = 0 } f' "$W/$tag"/*"$1"
}
for flags in -O1 -O2 -O3 "-O2 -fplugin-arg-osp-instrument=blocks" "-O2 -fplugin-arg-osp-instrument=paths" \
    "-O2 -fplugin-arg-osp-placement=late"; do
  tag=stepper$(echo "$flags" | tr -dc 'a-zA-Z0-9')
  mkdir -p "$W/$tag"
  # shellcheck disable=SC2086
  if ! osp_cc $flags -fdump-tree-lim2-details -fdump-rtl-ce1-details -c "$vsrc" -o "$W/$tag/stepper.o" \
       2> "$W/$tag.err"; then
    osp_fail "$tag: build"; osp_show "$W/$tag.err"; continue
  fi
  if stepper_dump lim2 | grep -q 'Executing store motion of g_[0-9]*(D)->s'; then
    echo "ok: $flags: stepper's state kept in a register through its untested loop"
  else
    osp_fail "$tag: store motion did not move stepper's state out of its untested loop"
  fi
  if stepper_dump ce1 | grep -q 'if-conversion succeeded'; then
    echo "ok: $flags: stepper's hits++ if-converted"
  else
    osp_fail "$tag: stepper's hits++ was not if-converted"
  fi
done

# Folded runs of tests (fold-tests=yes, the default; progs/runs.c): a straight run of tests that
# inlining made is tested once, and a chain of the original tests runs when one of them fires, so
# every row must be the unfolded build's - exactly in the exhaustive modes, draw for draw in the
# sampled ones (intervals of 7 and 100: the chains run often).  norm2, mix and walk have runs at
# -O1 and -O2; none is folded with fold-tests=no.
rsrc=$OSP_TESTSRC/progs/runs.c
for flags in -O1 -O2 -O3 "-O2 -fplugin-arg-osp-instrument=blocks" "-O2 -fplugin-arg-osp-instrument=paths" \
    "-O2 -fplugin-arg-osp-calls=plain" "-O2 -fplugin-arg-osp-version-loops=no"; do
  tag=runs$(echo "$flags" | tr -dc 'a-zA-Z0-9')
  ok=yes
  # shellcheck disable=SC2086
  both_builds "$tag" fold-tests "$rsrc" $flags
  [ $ok = yes ] || continue
  nf=$(noted "$tag.yes" "tests folded") nn=$(noted "$tag.no" "tests folded")
  [ "$nn" = 0 ] || { osp_fail "$tag: $nn tests folded with fold-tests=no"; ok=no; }
  case $flags in
    -O1|-O2|*blocks*|*version*)
      for f in norm2 mix walk; do
        grep -q "tests folded into runs in $f\$" "$W/$tag.yes.cc.err" ||
          { osp_fail "$tag: no run folded in $f"; ok=no; }
      done ;;
  esac
  case $flags in
    *instrument=paths*) same_rows "$tag" "folded vs unfolded" "$sampled" "$vsampled" "$exhaustive" ;;
    *) same_rows "$tag" "folded vs unfolded" "$sampled" "$vsampled" "$exhaustive" "$exact" ;;
  esac
  [ $ok = yes ] && echo "ok: folded runs $flags: $nf tests folded, same rows as unfolded ($rows rows)"
done

# Inline sizes (inline-sizes=plain, the default; progs/inlining.c, sizes.cc): GCC's IPA inliner
# weighs each function without osp's code, so uniform() (three blocks and a merged helper, called
# twice in a loop) is inlined as in the plain build, and stays a function of its own with
# inline-sizes=instrumented.  Inlined or not, its hooks and checks run in the same order with the
# same arguments, so every row must be the same, exactly or draw for draw.
isrc=$OSP_TESTSRC/progs/inlining.c
on=plain off=instrumented
for flags in -O2 -O3 "-O2 -fplugin-arg-osp-instrument=blocks" "-O2 -fplugin-arg-osp-instrument=paths" \
    "-O2 -fplugin-arg-osp-calls=plain"; do
  tag=isizes$(echo "$flags" | tr -dc 'a-zA-Z0-9')
  ok=yes
  # shellcheck disable=SC2086
  both_builds "$tag" inline-sizes "$isrc" $flags
  [ $ok = yes ] || continue
  if nm "$W/$tag.yes" | grep -q ' uniform$'; then
    osp_fail "$tag: uniform() not inlined with inline-sizes=plain"; ok=no
  fi
  nm "$W/$tag.no" | grep -q ' uniform$' ||
    { osp_fail "$tag: uniform() inlined with inline-sizes=instrumented"; ok=no; }
  nm=$(noted "$tag.yes" "functions measured") nn=$(noted "$tag.no" "functions measured")
  [ "$nm" -gt 0 ] || { osp_fail "$tag: no function measured without osp's code"; ok=no; }
  [ "$nn" = 0 ] || { osp_fail "$tag: $nn functions measured with inline-sizes=instrumented"; ok=no; }
  case $flags in
    *instrument=paths*) same_rows "$tag" "inlined vs not" "$sampled" "$vsampled" "$exhaustive" ;;
    *) same_rows "$tag" "inlined vs not" "$sampled" "$vsampled" "$exhaustive" "$exact" ;;
  esac
  [ $ok = yes ] && echo "ok: inline sizes $flags: $nm functions measured, uniform() inlined, same rows ($rows rows)"
done
on= off=
# And entry for entry: the IPA inliner's summary of area() - each size and time under the
# predicate on the arguments it is charged to - is the plain build's.  (When osp's total was
# subtracted from the entries in table order, 9 units stayed charged to `kind == 0'.)  Not with
# calls=plain: a call of the runtime before `s->kind' is read may, for GCC, change it, so no
# entry is charged to `kind == 0' there.
summary ()
{
  awk -v f="$2" '$0 ~ "^IPA function summary for " f "/" { p = 1; print; next }
                 p && /^ *(size|global|self|min)/ { print; next }
                 p { exit }' "$1"
}
plain_cc -O2 -c "$isrc" -o "$W/isum.plain.o" -fdump-ipa-inline="$W/isum.plain.inline" ||
  osp_fail "inline summary: plain build"
summary "$W/isum.plain.inline" area > "$W/isum.plain.area"
for flags in -O2 "-O2 -fplugin-arg-osp-instrument=paths" "-O2 -fplugin-arg-osp-instrument=blocks"; do
  tag=isum$(echo "$flags" | tr -dc 'a-zA-Z0-9')
  # shellcheck disable=SC2086
  osp_compile "$W/$tag" osp_cc $flags $CHECKFLAGS -c "$isrc" -o "$W/$tag.o" \
      -fdump-ipa-inline="$W/$tag.inline" || { osp_fail "$tag: build"; continue; }
  summary "$W/$tag.inline" area > "$W/$tag.area"
  if [ ! -s "$W/isum.plain.area" ] || ! cmp -s "$W/isum.plain.area" "$W/$tag.area"; then
    osp_fail "$tag: area()'s inline summary is not the plain build's"
    diff "$W/isum.plain.area" "$W/$tag.area" | head -20
  else
    echo "ok: $tag: area()'s inline summary is the plain build's ($(wc -l < "$W/$tag.area") lines)"
  fi
done

# Functions without loops (count-loop-free=64, the default): those with at most 64 paths are
# counted inline, not checked.  The exhaustive rows are those of count-loop-free=1 (one-path
# functions only) and 0 (no function); under paths=counter the counted functions' rows are their
# exact counts among the estimates, and the shares of all rows still add up to 1; the timer
# leaves them out and says so once; the forest never sees them.
ssrc=$OSP_TESTSRC/progs/single-path.c
# fn_rows TSV NAME: the path rows of function NAME.
fn_rows ()
{
  awk -F '\t' -v name="$2" '$1 == "function" && $3 == name { f = $2 }
                            $1 == "path" && $3 == f' "$1"
}
for level in -O0 -O2; do
  tag=loopfree$level
  ok=yes
  for n in 64 1 0; do
    osp_compile "$W/$tag.$n" osp_cc $level $CHECKFLAGS -fplugin-arg-osp-verbose \
        -fplugin-arg-osp-count-loop-free=$n "$ssrc" -o "$W/$tag.$n" || { osp_fail "$tag: build"; ok=no; }
  done
  [ $ok = yes ] || continue
  for f in scale3 store finish pick bits7 main; do
    for n in 64 1 0; do
      case $n:$f in
        0:*|*:bits7|*:main|1:pick) want="sample checks" ;;
        *) want=counters ;;
      esac
      grep -q "instrumented $f: .*path ends ($want)" "$W/$tag.$n.cc.err" ||
        { osp_fail "$tag: $f should have $want with count-loop-free=$n"; ok=no; }
    done
  done
  for n in 64 1 0; do
    osp_exec_with "mode=blocks:paths=exhaustive:forest=off:report=$W/$tag.$n.x.tsv:report_format=tsv" \
      "$W/$tag.$n.x" "$W/$tag.$n"
    grep -E '^(path|edge|block)	' "$W/$tag.$n.x.tsv" > "$W/$tag.$n.x.rows"
  done
  for n in 1 0; do
    osp_same "$tag: exhaustive rows, count-loop-free=64 vs $n" "$W/$tag.$n.x.rows" "$W/$tag.64.x.rows" || ok=no
    osp_same "$tag: stdout, count-loop-free=64 vs $n" "$W/$tag.$n.x.out" "$W/$tag.64.x.out" || ok=no
  done
  osp_exec_with "paths=counter:path_interval=37:seed=1:forest=burst:report=$W/$tag.c.tsv:report_format=tsv" \
    "$W/$tag.c" "$W/$tag.64"
  [ -s "$W/$tag.c.err" ] && { osp_fail "$tag: stderr under paths=counter"; osp_show "$W/$tag.c.err"; ok=no; }
  for f in scale3 store finish pick; do
    want=$(fn_rows "$W/$tag.64.x.tsv" $f | awk -F '\t' '{ print $4 ":" $5 "/0.000/" $5 + 0 }' | sort)
    got=$(fn_rows "$W/$tag.c.tsv" $f | awk -F '\t' '{ print $4 ":" $5 "/" $6 "/" $7 }' | sort)
    [ -n "$want" ] && [ "$got" = "$want" ] ||
      { osp_fail "$tag: $f under paths=counter: '$got', expected its exact counts '$want', err 0"; ok=no; }
  done
  sum=$(awk -F '\t' '$1 == "path" { s += $8 } END { printf "%.6f", s }' "$W/$tag.c.tsv")
  [ "$sum" = 1.000000 ] || { osp_fail "$tag: shares under paths=counter add up to $sum"; ok=no; }
  osp_exec_with "paths=timer:forest=exhaustive:report=$W/$tag.t.tsv:report_format=tsv" "$W/$tag.t" "$W/$tag.64"
  [ "$(grep -c 'paths=timer does not report its paths' "$W/$tag.t.err")" = 1 ] ||
    { osp_fail "$tag: paths=timer should say once that it leaves counted functions out"; osp_show "$W/$tag.t.err"; ok=no; }
  for f in scale3 pick; do
    fid=$(awk -F '\t' -v f=$f '$1 == "function" && $3 == f { print $2 }' "$W/$tag.t.tsv")
    if [ -n "$(fn_rows "$W/$tag.t.tsv" $f)" ] ||
       awk -F '\t' -v f="$fid" '$1 == "forest" && $5 == f { found = 1 } END { exit !found }' "$W/$tag.t.tsv"; then
      osp_fail "$tag: $f has path or forest rows under paths=timer"; ok=no
    fi
  done
  [ $ok = yes ] && echo "ok: functions without loops $level: counted, exact among samples, same exhaustive rows"
done

# The counters are named by the code that adds to them, not reached through the record's pointer,
# and no pointer of the program's points into them (DECL_NONALIASED, as gcov's): in the untested
# copy of draws' loop (the one the countdown leaves memory from) GCC's store motion keeps the
# counter of next() (inlined twice) in a register; through the record's pointer, which might
# point at the generator state the loop stores through g, it stayed in memory there.
for level in -O2 -O3; do
  tag=counters$level
  mkdir -p "$W/$tag"
  if ! osp_cc $level $CHECKFLAGS -fdump-tree-lim2-details -c "$ssrc" -o "$W/$tag/sp.o" 2> "$W/$tag.err"; then
    osp_fail "$tag: build"; osp_show "$W/$tag.err"; continue
  fi
  lim=$(awk '/^;; Function draws/ { f = 1; next } /^;; Function/ { f = 0 } f' "$W/$tag"/*lim2)
  # The countdown the loop's checks test: __osp_skip, with the default's shared checks.
  loop=$(echo "$lim" | sed -n 's/^Executing store motion of __osp_\(skip\|path_countdown\) from loop //p' | head -1)
  if [ -n "$loop" ] && echo "$lim" | grep -q "^Executing store motion of __osp_counters.*from loop $loop\$"; then
    echo "ok: $level: next()'s counter kept in a register through draws' untested loop (loop $loop)"
  else
    osp_fail "$tag: store motion did not move next()'s counter out of draws' untested loop"
    echo "$lim" | grep 'Executing store motion'
  fi
done

# Profile-guided numbering: with the counts of a first run, the hottest path of hot() is 0.
g=$OSP_TESTSRC/progs/paths-guided.c
# top_id TSV: the id of the most frequent path of hot().
top_id ()
{
  awk -F '\t' '$1 == "function" && $3 == "hot" { f = $2 }
                $1 == "path" && $3 == f && $5 + 0 > best { best = $5 + 0; id = $4 }
                END { print id }' "$1"
}
if osp_compile "$W/g1" osp_cc -O1 "$g" -o "$W/g1"; then
  osp_exec_with "paths=exhaustive:report=$W/g1.tsv:report_format=tsv" "$W/g1" "$W/g1"
  if osp_compile "$W/g2" osp_cc -O1 -fplugin-arg-osp-profile="$W/g1.tsv" "$g" -o "$W/g2"; then
    osp_exec_with "paths=exhaustive:report=$W/g2.tsv:report_format=tsv" "$W/g2" "$W/g2"
    id1=$(top_id "$W/g1.tsv") id2=$(top_id "$W/g2.tsv")
    if [ "$id2" != 0 ]; then
      osp_fail "profile-guided numbering: the hottest path of hot() has id '$id2', expected 0"
    else
      echo "ok: profile-guided numbering: hottest path of hot() id $id1 with GCC's guess, 0 with the profile"
    fi
  else
    osp_fail "profile-guided build"
  fi
else
  osp_fail "paths-guided build"
fi

# The cuts are visible with verbose, and 80 ifs in a row need some even at the default cap.
osp_compile "$W/v" osp_cc -O2 -fplugin-arg-osp-verbose -c "$OSP_TESTSRC/progs/paths-tricky.c" \
    -o "$W/v.o" || osp_fail "verbose build"
cuts=$(sed -n 's/.*instrumented eighty_ifs: .* \([0-9][0-9]*\) cuts.*/\1/p' "$W/v.cc.err")
if [ -z "$cuts" ] || [ "$cuts" -eq 0 ]; then
  osp_fail "eighty_ifs: verbose should report cuts (2^80 paths > max-paths), got '$cuts'"
  osp_show "$W/v.cc.err" "compiler notes"
fi
osp_done

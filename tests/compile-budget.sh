#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/compile-budget.sh - the budget on osp's copies (plugin/budget.cc):
#   - a generated function of tens of thousands of blocks (tests/progs/big-function.awk: a
#     switch of many cases, each two nested loops) is over max-fn-blocks: osp says so with
#     verbose and falls back to the plain instrumentation, and its compile's CPU time and
#     maximum RSS stay within a small factor of the plain compile's, measured here in the
#     same run (a ratio, not a wall-clock limit; without the budget the compile ran for more
#     than 300 s against 7 s plain, doc/PERFORMANCE.md "Compile time and size");
#   - on a small program, max-growth=0 with min-growth-blocks=0, and max-unit-growth=0,
#     refuse every copy, each named in its verbose message, where the defaults make them,
#     and max-growth=0 alone does not (the floor of min-growth-blocks);
#   - a loop whose untested copy could never be chosen is not versioned, with a note;
#   - every build's output is the plain build's.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup compile-budget
osp_need_build
[ -x /usr/bin/time ] || { echo "SKIP: /usr/bin/time is missing (Debian package time)"; exit 77; }

# Generous factors: the plain instrumentation of such a function costs about 6.6 times the
# plain compile's CPU and 2.9 times its memory (every block gains a test and a cold call
# block); unbounded versioning cost more than 40 times.
MAX_CPU_RATIO=12
MAX_RSS_RATIO=5

# timed LOG ARGS...: compile with $CC ARGS (osp_cc and plain_cc are shell functions, which
# /usr/bin/time cannot run), its CPU seconds (user + sys) and max RSS (KB) in LOG.time.
timed ()
{
  log=$1
  shift
  /usr/bin/time -f '%U %S %M' -o "$log.time" timeout "$(osp_seconds 600)" $CC "$@" \
    > "$log.cc.err" 2>&1
}

big=$W/big.c
awk -v cases=450 -f "$OSP_TESTSRC/progs/big-function.awk" > "$big" || exit 99
if ! timed "$W/plain" -O2 "$big" -o "$W/plain"; then
  osp_show "$W/plain.cc.err" "plain compile"
  osp_fail "plain build of the generated function"
  osp_done
fi
if ! timed "$W/osp" -fplugin="$OSP_PLUGIN" -O2 -fplugin-arg-osp-verbose "$big" \
     -o "$W/osp" -L"$OSP_RTDIR" -Wl,-rpath,"$OSP_RTDIR" -losprt -pthread; then
  osp_show "$W/osp.cc.err" "osp compile"
  osp_fail "osp build of the generated function"
  osp_done
fi
read pu ps prss < "$W/plain.time"
read ou os orss < "$W/osp.time"
ratios=$(awk -v pu="$pu" -v ps="$ps" -v pr="$prss" -v ou="$ou" -v os="$os" -v orss="$orss" \
  'BEGIN { p = pu + ps; if (p < 0.01) p = 0.01; printf "%.2f %.2f", (ou + os) / p, orss / pr }')
set -- $ratios
echo "generated function: plain $pu+$ps s ${prss} KB, osp $ou+$os s ${orss} KB: CPU ${1}x, RSS ${2}x"
awk -v r="$1" -v m="$MAX_CPU_RATIO" 'BEGIN { exit !(r <= m) }' ||
  osp_fail "osp's compile took ${1} times the plain compile's CPU time (at most $MAX_CPU_RATIO)"
awk -v r="$2" -v m="$MAX_RSS_RATIO" 'BEGIN { exit !(r <= m) }' ||
  osp_fail "osp's compile took ${2} times the plain compile's memory (at most $MAX_RSS_RATIO)"
if grep -E -q "osp: work[.a-z0-9]*: no loop versions, plain instrumentation: [0-9]+ blocks and [0-9]+ statements, over the budget \('max-fn-blocks=5000', 'max-fn-stmts=30000'\)" "$W/osp.cc.err"; then
  echo "ok: $(grep -m 1 'no loop versions' "$W/osp.cc.err")"
else
  osp_fail "no verbose fallback message for the generated function"
  osp_show "$W/osp.cc.err" "osp compile"
fi
grep -q 'versioned loops in work' "$W/osp.cc.err" &&
  osp_fail "the generated function was versioned despite its size"
osp_exec "$W/plain" "$W/plain"
osp_exec "$W/osp" "$W/osp"
osp_same "generated function" "$W/plain.out" "$W/osp.out"

# The growth budgets on a small function whose loops the defaults version.
small=$W/small.c
awk -v cases=3 -f "$OSP_TESTSRC/progs/big-function.awk" > "$small" || exit 99
osp_compile "$W/splain" plain_cc -O2 "$small" -o "$W/splain" || osp_done
osp_exec "$W/splain" "$W/splain"
for how in default floor max-growth max-unit-growth; do
  case $how in
    default) args= want='versioned loops in ' ;;
    # The floor alone (min-growth-blocks, default 300 blocks) still lets loops be versioned.
    floor) args=-fplugin-arg-osp-max-growth=0 want='versioned loops in ' ;;
    # max-growth=0 alone leaves the floor of min-growth-blocks: both at 0 refuse all.
    max-growth) args="-fplugin-arg-osp-$how=0 -fplugin-arg-osp-min-growth-blocks=0"
                want="loop versions not made: .*'$how', 'min-growth-blocks'" ;;
    *) args=-fplugin-arg-osp-$how=0 want="loop versions not made: .*'$how'" ;;
  esac
  b=$W/small-$how
  osp_compile "$b" osp_cc -O2 -fplugin-arg-osp-verbose $args "$small" -o "$b" || continue
  if grep -q "$want" "$b.cc.err"; then
    echo "ok: $how: $(grep -m 1 "$want" "$b.cc.err")"
  else
    osp_fail "$how: no message matching '$want'"
    osp_show "$b.cc.err" "osp compile"
  fi
  case $how in
    default | floor) ;;
    *) grep -q 'versioned loops in' "$b.cc.err" && osp_fail "$how=0: a loop was versioned" ;;
  esac
  osp_exec "$b" "$b"
  osp_same "small function, $how" "$W/splain.out" "$b.out"
done
# A loop whose untested copy could never be chosen (its trip count, a constant, is more passes
# than a 32-bit countdown allows) is not versioned; the same loop with 1000 iterations is.
for n in 1000 5000000000; do
  b=$W/spin$n
  printf '%s\n' 'unsigned long v[64];' 'unsigned long' 'spin (unsigned long s)' '{' \
    "  for (unsigned long i = 0; i < ${n}ul; i++)" '    if (v[i & 63] & 1)' \
    '      s += v[i & 63];' '    else' '      s ^= i;' '  return s;' '}' > "$b.c"
  osp_compile "$b" osp_cc -O2 -fplugin-arg-osp-instrument=paths -fplugin-arg-osp-verbose \
    -c "$b.c" -o "$b.o" || continue
  if [ $n = 1000 ]; then
    grep -q 'osp: 1 versioned loops in spin' "$b.cc.err" ||
      { osp_fail "the loop of 1000 iterations was not versioned"; osp_show "$b.cc.err"; }
  elif grep -q 'versioned loops in spin' "$b.cc.err" ||
       ! grep -q 'osp: spin: a loop of 5000000001 passes not versioned: its untested copy could never be chosen' "$b.cc.err"; then
    osp_fail "the loop of 5000000000 iterations: versioned, or no note"
    osp_show "$b.cc.err"
  else
    echo "ok: $(grep -m 1 'never be chosen' "$b.cc.err")"
  fi
done
osp_done

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/real.sh - what osp costs on real programs nobody here wrote (issue 36): bzip2 (compress
# and decompress a generated file), the Lua interpreter (bench/real/bench.lua), CoreMark, c-ray
# (its own scene) and SQLite (its speedtest1 on an in-memory database), each built plain, with
# gcov and with osp's configurations of bench/configs.sh, from sources the user points it at.
# Nothing is fetched:
#
#     BENCH_REAL=DIR sh bench/real.sh BUILD > real.md
#
# DIR holds any of bzip2/ (https://gitlab.com/bzip2/bzip2), lua/ (https://github.com/lua/lua or
# a release's src/), coremark/ (https://github.com/eembc/coremark), c-ray/
# (https://github.com/jtsiomb/c-ray: c-ray-f.c and scene) as checked out, sqlite/ (sqlite3.c
# and sqlite3.h of an amalgamation, https://sqlite.org/download.html, with test/speedtest1.c of
# the same version's sources beside them as speedtest1.c); the programs whose
# directory is missing are left out, with a note.  The sources are only read: objects go to the
# work directory.  BUILD is a configured and built osp tree (as bench/run.sh's).  Markdown on
# stdout, progress on stderr.
#
# Knobs (environment):
#   BENCH_REAL          the sources' directory (required)
#   BENCH_REAL_PROGS    subset of: bzip2-c bzip2-d lua coremark c-ray sqlite (default: all
#                       found), and lua-start sqlite-start: a process that does almost
#                       nothing (`lua -e 'print(1)'`, speedtest1 --size 0), what start-up
#                       and exit cost (registration, the profile file); asked for by name
#   BENCH_CONFIGS       configurations (default: gcov default default-nopub osp-sample pep
#                       bl-exact; plain is always added)
#   BENCH_RUNS          CPU-time rounds (default 3)
#   BENCH_SIZE          default, or small (the callgrind size: checks the harness in minutes)
#   BENCH_NO_CALLGRIND  1: skip the instruction counts
#   BENCH_JOBS          callgrind runs in parallel (default: nproc)
#   BENCH_WORK          work directory (default BUILD/real-work; wiped first, kept after)
#   BENCH_TIMEOUT       cap of one run, seconds (default 600)
#
# Measurements: CPU time = user + sys (/usr/bin/time) of BENCH_RUNS rounds, every configuration
# once a round in an order rotated by the round; ratio to plain of the same round, median and
# [min-max].  Instructions: callgrind's total Ir (every thread) of one run at the small size.
# Every run's output must equal the plain build's (CoreMark's lines of time and speed, and
# speedtest1's times, excepted);
# a difference, a non-zero exit or a timeout is listed under "Errors" and the exit status is 1.

# shellcheck disable=SC2034,SC2154
set -u

# Internal: one callgrind run (called back through xargs): --callgrind BUILD PROG CONFIG.
CALLGRIND_JOB=
if [ "${1:-}" = --callgrind ]; then
  CALLGRIND_JOB="$3 $4"
  shift
fi

BUILD=${1:-${OSP_BUILD:-.}}
BUILD=$(cd "$BUILD" 2> /dev/null && pwd) || { echo "real: no directory ${1:-${OSP_BUILD:-.}}" >&2; exit 2; }
[ -f "$BUILD/tests/env.sh" ] || { echo "real: $BUILD/tests/env.sh missing: give a configured and built tree" >&2; exit 2; }
. "$BUILD/tests/env.sh" || exit 2
SRC=$abs_top_srcdir/bench
. "$SRC/configs.sh" || exit 2
LC_ALL=C
export LC_ALL
unset OSP_OPTIONS
[ -n "${BENCH_REAL:-}" ] || { echo "real: set BENCH_REAL to the directory of the sources (see bench/real.sh)" >&2; exit 2; }
R=$(cd "$BENCH_REAL" 2> /dev/null && pwd) || { echo "real: BENCH_REAL: no directory $BENCH_REAL" >&2; exit 2; }
W=${BENCH_WORK:-$BUILD/real-work}
RUNS=${BENCH_RUNS:-3}
SIZE=${BENCH_SIZE:-default}
TMO=${BENCH_TIMEOUT:-600}
JOBS=${BENCH_JOBS:-$(nproc 2> /dev/null || echo 1)}
NO_CG=${BENCH_NO_CALLGRIND:-0}
case $SIZE in
  default | small) ;;
  *) echo "real: BENCH_SIZE must be default or small, not '$SIZE'" >&2; exit 2 ;;
esac

# Each program: its source directory, and its run at a size (argument words; "<FILE": stdin).
prog_dir () { case $1 in bzip2-*) echo bzip2 ;; *-start) echo "${1%-start}" ;; *) echo "$1" ;; esac; }
prog_args () { # PROG SIZE
  case $1.$2 in
    bzip2-c.default) echo "-c <$W/in/data.default" ;;
    bzip2-c.small) echo "-c <$W/in/data.small" ;;
    bzip2-d.*) echo "-dc <$W/in/data.$2.bz2" ;;
    lua.default) echo "$SRC/real/bench.lua 60" ;;
    lua.small) echo "$SRC/real/bench.lua 1" ;;
    coremark.default) echo "0x0 0x0 0x66 30000 7 1 2000" ;;
    coremark.small) echo "0x0 0x0 0x66 300 7 1 2000" ;;
    c-ray.default) echo "-s 1600x1200 -i $R/c-ray/scene" ;;
    c-ray.small) echo "-s 160x120 -i $R/c-ray/scene" ;;
    sqlite.default) echo "--memdb --verify --size 50" ;;
    sqlite.small) echo "--memdb --verify --size 1" ;;
    lua-start.*) echo "-e print(1)" ;;
    sqlite-start.*) echo "--memdb --verify --size 0" ;;
  esac
}

# run_prog PROG BUILD SIZE OUT [WRAPPER...]: one run in $W/cwd, stdout to OUT (CoreMark's lines
# of time and speed, speedtest1's times dropped), stderr to OUT.err; returns the program's exit
# status.
run_prog () {
  rp_p=$1 rp_b=$2 rp_s=$3 rp_out=$4 rp_in=/dev/null
  shift 4
  set -- "$@" "$W/bin/$(prog_dir "$rp_p").$rp_b"
  for a in $(prog_args "$rp_p" "$rp_s"); do
    case $a in "<"*) rp_in=${a#<} ;; *) set -- "$@" "$a" ;; esac
  done
  [ "$rp_b" = gcov ] && rm -rf "$W/gcda/$(prog_dir "$rp_p")"
  (cd "$W/cwd" && timeout "$TMO" "$@" < "$rp_in" > "$rp_out.raw" 2> "$rp_out.err")
  rp_rc=$?
  if [ "$rp_p" = coremark ]; then
    grep -v -E 'ticks|[Tt]ime|Iterations/Sec|secs|CoreMark 1\.0' "$rp_out.raw" > "$rp_out"
  elif [ "$(prog_dir "$rp_p")" = sqlite ]; then
    sed -E 's/ *[0-9]+\.[0-9]+s$//' "$rp_out.raw" > "$rp_out"
  else
    cat "$rp_out.raw" > "$rp_out"
  fi
  rm -f "$rp_out.raw"
  return $rp_rc
}

if [ -n "$CALLGRIND_JOB" ]; then
  set -- $CALLGRIND_JOB
  b=$(cfg_field "$2" 2) o=$(cfg_field "$2" 3)
  if [ "$o" != - ]; then OSP_OPTIONS=$o; export OSP_OPTIONS; fi
  if run_prog "$1" "$b" small "$W/cg/$1.$2.out" valgrind --tool=callgrind --callgrind-out-file="$W/cg/$1.$2.cg"; then
    awk '/^(totals|summary):/ { print $2; exit }' "$W/cg/$1.$2.cg" > "$W/cg/$1.$2.ir"
  else
    echo fail > "$W/cg/$1.$2.ir"
  fi
  echo "  callgrind $1 $2: $(cat "$W/cg/$1.$2.ir") Ir" >&2
  exit 0
fi

for t in /usr/bin/time timeout awk cmp; do
  command -v "$t" > /dev/null 2>&1 || { echo "real: $t is needed" >&2; exit 2; }
done
[ "$NO_CG" = 1 ] || command -v valgrind > /dev/null 2>&1 || { echo "real: valgrind is needed (or BENCH_NO_CALLGRIND=1)" >&2; exit 2; }

CONFIGS=plain
for c in ${BENCH_CONFIGS:-gcov default default-nopub osp-sample pep bl-exact}; do
  [ -n "$(cfg_field "$c" 1)" ] || { echo "real: unknown configuration $c (known: $ALLCONFIGS)" >&2; exit 2; }
  [ "$c" = plain ] || CONFIGS="$CONFIGS $c"
done
BUILDS=
for b in $ALLBUILDS; do
  for c in $CONFIGS; do
    if [ "$(cfg_field "$c" 2)" = "$b" ]; then BUILDS="$BUILDS $b"; break; fi
  done
done
NOTES=
PROGS=
for p in ${BENCH_REAL_PROGS:-bzip2-c bzip2-d lua coremark c-ray sqlite}; do
  case $p in
    bzip2-c | bzip2-d | lua | coremark | c-ray | sqlite | lua-start | sqlite-start) ;;
    *) echo "real: unknown program $p (known: bzip2-c bzip2-d lua coremark c-ray sqlite lua-start sqlite-start)" >&2; exit 2 ;;
  esac
  if [ -d "$R/$(prog_dir "$p")" ]; then PROGS="$PROGS $p"
  else NOTES="$NOTES; $p left out: no $R/$(prog_dir "$p")"
  fi
done
[ -n "$PROGS" ] || { echo "real: none of bzip2 lua coremark c-ray sqlite in $R" >&2; exit 2; }
START=$(date '+%Y-%m-%d %H:%M:%S %z')
LOAD0=$(cut -d ' ' -f 1-3 /proc/loadavg 2> /dev/null)
T0=$(date +%s)
rm -rf "$W" && mkdir -p "$W/bin" "$W/obj" "$W/in" "$W/runs" "$W/cg" "$W/gcda" "$W/cwd" || exit 2
ERRS=$W/errors
: > "$ERRS"

# --- Builds (each source compiled on its own, then linked, as the projects' makefiles do) ------
# sources DIR: the program's C files and its extra flags, as "FLAGS|FILES"; libs DIR: its
# libraries.
sources () {
  case $1 in
    bzip2) echo "-DBZ_UNIX=1 -D_FILE_OFFSET_BITS=64 -I$W/obj/bzip2|blocksort.c huffman.c crctable.c randtable.c compress.c decompress.c bzlib.c bzip2.c" ;;
    lua) echo "-std=c99 -DLUA_USE_POSIX|$(cd "$R/lua" && ls l*.c | grep -v -x -e luac.c -e ltests.c -e onelua.c | tr '\n' ' ')" ;;
    coremark) echo "-I$R/coremark -I$R/coremark/posix -DPERFORMANCE_RUN=1 -DFLAGS_STR=\"-O2\"|core_list_join.c core_main.c core_matrix.c core_state.c core_util.c posix/core_portme.c" ;;
    c-ray) echo "|c-ray-f.c" ;;
    sqlite) echo "|sqlite3.c speedtest1.c" ;;
  esac
}
libs () { case $1 in sqlite) echo "-lpthread -ldl -lm" ;; *) echo "-lm" ;; esac; }
DIRS=$(for p in $PROGS; do prog_dir "$p"; done | sort -u | tr '\n' ' ')
echo "real: building $DIRS($BUILDS)..." >&2
for d in $DIRS; do
  if [ "$d" = bzip2 ]; then
    mkdir -p "$W/obj/bzip2"
    echo '#define BZ_VERSION "osp-bench"' > "$W/obj/bzip2/bz_version.h"
  fi
  spec=$(sources "$d")
  flags=${spec%%|*} files=${spec#*|}
  for b in $BUILDS; do
    o=$W/obj/$d.$b
    mkdir -p "$o"
    objs= ok=1
    for f in $files; do
      obj=$o/$(echo "$f" | tr / _ | sed 's/\.c$/.o/')
      # shellcheck disable=SC2086
      if ! (cd "$R/$d" && build_cc "$b" "$W/gcda/$d" 0 $flags -c "$f" -o "$obj") >> "$o/cc.err" 2>&1; then
        ok=0
        break
      fi
      objs="$objs $obj"
    done
    # shellcheck disable=SC2086
    [ $ok = 1 ] && build_cc "$b" "$W/gcda/$d" 0 $objs -o "$W/bin/$d.$b" $(libs "$d") >> "$o/cc.err" 2>&1 || ok=0
    if [ $ok = 0 ]; then
      echo "build $d $b: failed ($o/cc.err)" >> "$ERRS"
      echo "real: cannot build $d ($b): $(tail -n 3 "$o/cc.err")" >&2
    fi
  done
done

# --- Inputs: a generated text (words of an LCG over a small vocabulary, lines of varying length),
# 8 MB and 512 KB; its .bz2 made by the plain build. ----------------------------------------------
gen_text () {
  awk -v n="$1" 'BEGIN {
    split("the of and to in is was that for it with as his on be at by had are but from or have an they which one you were all her she there would their we him been has when who will no more if out so said what up its about than into them can only other new some could time these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three", w, " ")
    nw = length(w); x = 12345; bytes = 0
    while (bytes < n) {
      line = ""; k = 4 + (x % 13)
      for (i = 0; i < k; i++) { x = (x * 1103515245 + 12345) % 2147483648; line = line w[1 + int(x / 65536) % nw] " " }
      x = (x * 1103515245 + 12345) % 2147483648
      line = line int(x / 4096) "\n"; printf "%s", line; bytes += length(line)
    }
  }'
}
gen_text 8388608 > "$W/in/data.default"
gen_text 524288 > "$W/in/data.small"
if [ -x "$W/bin/bzip2.plain" ]; then
  for s in default small; do "$W/bin/bzip2.plain" -c < "$W/in/data.$s" > "$W/in/data.$s.bz2"; done
fi

# --- Reference outputs (plain) -----------------------------------------------------------------
for p in $PROGS; do
  for s in $(echo "$SIZE small" | tr ' ' '\n' | sort -u); do
    run_prog "$p" plain "$s" "$W/runs/$p.$s.ref" || echo "reference $p $s: the plain build failed ($W/runs/$p.$s.ref.err)" >> "$ERRS"
  done
done

# --- Instructions (callgrind, small size) -------------------------------------------------------
if [ "$NO_CG" != 1 ]; then
  T1=$(date +%s)
  echo "real: callgrind runs, small size ($JOBS in parallel)..." >&2
  for p in $PROGS; do
    for c in $CONFIGS; do
      [ -x "$W/bin/$(prog_dir "$p").$(cfg_field "$c" 2)" ] && echo "'$p' '$c'"
    done
  done > "$W/cg/jobs"
  SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
  xargs -P "$JOBS" -L 1 env BENCH_REAL="$R" BENCH_WORK="$W" BENCH_TIMEOUT="$((TMO * 50))" \
    sh "$SELF" --callgrind "$BUILD" < "$W/cg/jobs"
  for p in $PROGS; do
    for c in $CONFIGS; do
      [ -f "$W/cg/$p.$c.ir" ] || continue
      if [ "$(cat "$W/cg/$p.$c.ir")" = fail ]; then
        echo "callgrind $p $c: the run failed ($W/cg/$p.$c.out.err)" >> "$ERRS"
      elif ! cmp -s "$W/cg/$p.$c.out" "$W/runs/$p.small.ref"; then
        echo "callgrind $p $c: output differs from plain's ($W/cg/$p.$c.out)" >> "$ERRS"
        echo mismatch > "$W/cg/$p.$c.ir"
      fi
    done
  done
  CG_TIME=$(($(date +%s) - T1))
fi

# --- CPU time, rotated rounds --------------------------------------------------------------------
: > "$W/cpu.tsv"
r=0
while [ "$r" -lt "$RUNS" ]; do
  echo "real: CPU-time round $((r + 1))/$RUNS..." >&2
  order=$(rotated "$CONFIGS" "$r")
  for p in $PROGS; do
    for c in $order; do
      b=$(cfg_field "$c" 2) o=$(cfg_field "$c" 3) f=$W/runs/$p.$c.$r
      [ -x "$W/bin/$(prog_dir "$p").$b" ] || continue
      if [ "$o" != - ]; then OSP_OPTIONS=$o; export OSP_OPTIONS; fi
      run_prog "$p" "$b" "$SIZE" "$f" /usr/bin/time -f '%U %S' -o "$f.time"
      rc=$?
      unset OSP_OPTIONS
      st=ok
      if [ $rc = 124 ]; then st=timeout
      elif [ $rc != 0 ]; then st=exit=$rc
      elif ! cmp -s "$f" "$W/runs/$p.$SIZE.ref"; then st=mismatch
      fi
      printf '%s\t%s\t%s\t%s\t%s\n' "$p" "$c" "$r" "$(tail -n 1 "$f.time" 2> /dev/null | awk '{ print $1 + $2 }')" "$st" >> "$W/cpu.tsv"
    done
  done
  r=$((r + 1))
done
awk -F '\t' '$5 != "ok" { print "cpu " $1 " " $2 " round " $3 ": " $5 }' "$W/cpu.tsv" >> "$ERRS"

# --- Report -------------------------------------------------------------------------------------
echo "# osp on real programs"
echo
echo "- date: $START (took $(($(date +%s) - T0)) s)"
echo "- machine: $(uname -srm); $(grep -m1 'model name' /proc/cpuinfo 2> /dev/null | sed 's/.*: //'); $(nproc) CPUs; load average at start $LOAD0"
echo "- compiler: $($CC --version | head -n 1)"
echo "- command: \`BENCH_REAL=$R BENCH_REAL_PROGS=\"$(echo $PROGS)\" BENCH_CONFIGS=\"$CONFIGS\" BENCH_RUNS=$RUNS BENCH_SIZE=$SIZE BENCH_NO_CALLGRIND=$NO_CG sh bench/real.sh $BUILD\`"
echo "  (osp source $abs_top_srcdir$(git -C "$abs_top_srcdir" rev-parse --short HEAD 2> /dev/null | sed 's/^/, commit /')$(git -C "$abs_top_srcdir" status --porcelain --untracked-files=no 2> /dev/null | grep -q . && echo ' + uncommitted changes'))"
for p in $PROGS; do echo "- $p: \`$(prog_dir "$p") $(prog_args "$p" "$SIZE")\` (callgrind: \`$(prog_args "$p" small)\`)"; done
[ -z "$NOTES" ] || echo "- notes: ${NOTES#; }"
echo
PROGS=$(echo $PROGS)
echo "## CPU time (user+sys, $SIZE size, $RUNS rounds)"
echo
echo "Median over the rounds of cpu(config)/cpu(plain) of the same round, [min–max]; plain: median seconds."
echo
COLS=$CONFIGS HEADS="$(cfg_heads | sed 's/^plain/plain (s)/')"
paired_ratios < "$W/cpu.tsv" | table
echo
echo "## Instructions (callgrind, small size)"
echo
if [ "$NO_CG" = 1 ]; then
  echo "(skipped: BENCH_NO_CALLGRIND=1)"
else
  echo "Total Ir of one run (every thread), ratio to plain; plain: millions."
  echo
  COLS=$CONFIGS HEADS="$(cfg_heads | sed 's/^plain/plain (M Ir)/')"
  for p in $PROGS; do
    pl=$(cat "$W/cg/$p.plain.ir" 2> /dev/null)
    for c in $CONFIGS; do
      v=$(cat "$W/cg/$p.$c.ir" 2> /dev/null) || continue
      awk -v p="$p" -v c="$c" -v v="$v" -v pl="$pl" "$fmt_awk"'BEGIN {
        if (v !~ /^[0-9]+$/) printf "%s\t%s\tERROR (%s)\t-\n", p, c, v
        else if (c == "plain") printf "%s\tplain\t%.1f\t-\n", p, v / 1e6
        else if (pl + 0 > 0) printf "%s\t%s\t%s\t%s\n", p, c, fx(v / pl), v / pl }'
    done
  done | table
fi
echo
echo "## Errors"
echo
if [ -s "$ERRS" ]; then sed 's/^/- /' "$ERRS"; else echo "None: every build and run worked and printed plain's output."; fi
echo "real: done in $(($(date +%s) - T0)) s" >&2
[ ! -s "$ERRS" ]

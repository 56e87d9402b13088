# SPDX-License-Identifier: GPL-3.0-or-later
# bench/configs.sh - the benchmark's configurations and its table format, sourced by bench/run.sh (bench/'s programs)
# and bench/real.sh (real programs a user points it at), so that both measure the same builds
# under the same OSP_OPTIONS.  Needs tests/env.sh sourced first ($CC, osp_cc).

# Configurations: name|build|OSP_OPTIONS ("-": none).
config_table () {
  cat << 'EOF_TABLE'
plain|plain|-
gcov|gcov|-
osp-sample|blocks|report=none:publish=off:mode=subpaths:paths=off:forest=off
osp-skip|blocks|report=none:publish=off:mode=subpaths:paths=off:forest=off:interval=1000000000
osp-late|blocks-late|report=none:publish=off:mode=subpaths:paths=off:forest=off
pep|paths|report=none:publish=off:mode=subpaths:paths=counter:forest=off
pep-late|paths-late|report=none:publish=off:mode=subpaths:paths=counter:forest=off
bl-exact|counts|report=none:publish=off:paths=exhaustive:forest=off
kblpp-exact|paths|report=none:publish=off:paths=off:forest=exhaustive
kblpp-sample|paths|report=none:publish=off:paths=off:forest=burst
default|osp|-
default-nopub|osp|publish=off
EOF_TABLE
}
cfg_field () { config_table | awk -F '|' -v c="$1" -v f="$2" '$1 == c { print $f }'; }
ALLCONFIGS=$(config_table | cut -d "|" -f 1 | tr "\n" " ")

# The builds, in table order.
ALLBUILDS="plain gcov blocks blocks-late paths paths-late counts osp"

build_desc () {
  case $1 in
    plain) echo "gcc -O2 -g0" ;;
    gcov) echo "gcc -O2 -g0 -fprofile-generate" ;;
    blocks) echo "osp instrument=blocks" ;;
    blocks-late) echo "osp instrument=blocks placement=late" ;;
    paths-late) echo "osp instrument=paths placement=late" ;;
    paths) echo "osp instrument=paths" ;;
    counts) echo "osp instrument=counts" ;;
    osp) echo "osp (no plugin arguments)" ;;
  esac
}

# build_cc BUILD GCDA_DIR THREADED ARGS...: compile and link ARGS as BUILD (-O2 -g0).  THREADED
# 1: the program has threads (gcc gets -pthread, osp's counters are updated atomically, as
# gcov's with -pthread); gcc and gcov builds of other programs get no -pthread, so that gcov
# updates its counters non-atomically as in an ordinary single-threaded build.
build_cc () {
  bc_b=$1 bc_gcda=$2 bc_thr=$3 bc_pt= bc_atomic=
  shift 3
  [ "$bc_thr" = 1 ] && bc_pt=-pthread bc_atomic=-fplugin-arg-osp-counts-update=atomic
  case $bc_b in
    plain) $CC -O2 -g0 "$@" $bc_pt ;;
    gcov) $CC -O2 -g0 -fprofile-generate="$bc_gcda" "$@" $bc_pt ;;
    blocks) osp_cc -O2 -g0 -fplugin-arg-osp-instrument=blocks "$@" ;;
    blocks-late) osp_cc -O2 -g0 -fplugin-arg-osp-instrument=blocks -fplugin-arg-osp-placement=late "$@" ;;
    paths-late) osp_cc -O2 -g0 -fplugin-arg-osp-instrument=paths -fplugin-arg-osp-placement=late $bc_atomic "$@" ;;
    paths) osp_cc -O2 -g0 -fplugin-arg-osp-instrument=paths $bc_atomic "$@" ;;
    counts) osp_cc -O2 -g0 -fplugin-arg-osp-instrument=counts $bc_atomic "$@" ;;
    osp) osp_cc -O2 -g0 $bc_atomic "$@" ;;
  esac
}

median () { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# table COLS_SPEC: reads "prog<TAB>col<TAB>cell<TAB>ratio" lines (ratio "-": not in the geomean)
# and prints a markdown table: rows = PROGS + geomean, columns = the words of $COLS with the
# headings of $HEADS ('|'-separated).
fmt_awk='
function fx(r) { if (r == "" || r == "-") return "-"; if (r < 10) return sprintf("%.2f×", r); if (r < 100) return sprintf("%.1f×", r); return sprintf("%.0f×", r) }
function fn(r) { if (r < 10) return sprintf("%.2f", r); if (r < 100) return sprintf("%.1f", r); return sprintf("%.0f", r) }'
table () {
  awk -F '\t' -v progs="$PROGS" -v cols="$COLS" -v heads="$HEADS" "$fmt_awk"'
    { cell[$1, $2] = $3; if ($4 != "-" && $4 > 0) { lg[$2] += log($4); ng[$2]++ } }
    END {
      np = split(progs, P, " "); nc = split(cols, C, " "); split(heads, H, "|")
      printf "| program |"; for (j = 1; j <= nc; j++) printf " %s |", H[j]; print ""
      printf "|---|"; for (j = 1; j <= nc; j++) printf "---:|"; print ""
      for (i = 1; i <= np; i++) {
        printf "| %s |", P[i]
        for (j = 1; j <= nc; j++) printf " %s |", ((P[i], C[j]) in cell) ? cell[P[i], C[j]] : "-"
        print ""
      }
      printf "| **geomean** |"
      for (j = 1; j <= nc; j++) printf " %s |", ng[C[j]] ? "**" fx(exp(lg[C[j]] / ng[C[j]])) "**" (ng[C[j]] < np ? " (" ng[C[j]] "/" np ")" : "") : "-"
      print ""
    }'
}

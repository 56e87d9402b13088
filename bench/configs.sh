# SPDX-License-Identifier: GPL-3.0-or-later
# bench/configs.sh - the benchmark's configurations and its table format, sourced by bench/run.sh (bench/'s programs)
# and bench/real.sh (real programs a user points it at), so that both measure the same builds
# under the same OSP_OPTIONS.  Needs tests/env.sh sourced first ($CC, osp_cc).

# Configurations: name|build|OSP_OPTIONS ("-": none).  The measured configurations ask for no
# profile file at exit (snapshot=none; written by default since issue 35), so that their figures
# stay comparable with those taken before it; default and default-nopub are what a user gets,
# the file at exit and its one line included (the runs start in the work directory).
config_table () {
  cat << 'EOF_TABLE'
plain|plain|-
gcov|gcov|-
osp-sample|blocks|report=none:snapshot=none:publish=off:mode=subpaths:paths=off:forest=off
osp-skip|blocks|report=none:snapshot=none:publish=off:mode=subpaths:paths=off:forest=off:interval=1000000000
osp-late|blocks-late|report=none:snapshot=none:publish=off:mode=subpaths:paths=off:forest=off
pep|paths|report=none:snapshot=none:publish=off:mode=subpaths:paths=counter:forest=off
pep-late|paths-late|report=none:snapshot=none:publish=off:mode=subpaths:paths=counter:forest=off
bl-exact|counts|report=none:snapshot=none:publish=off:paths=exhaustive:forest=off
kblpp-exact|paths|report=none:snapshot=none:publish=off:paths=off:forest=exhaustive
kblpp-sample|paths|report=none:snapshot=none:publish=off:paths=off:forest=burst
default|osp|-
default-nopub|osp|publish=off
default-old|osp-old|-
EOF_TABLE
}
cfg_field () { config_table | awk -F '|' -v c="$1" -v f="$2" '$1 == c { print $f }'; }
ALLCONFIGS=$(config_table | cut -d "|" -f 1 | tr "\n" " ")

# The builds, in table order.
ALLBUILDS="plain gcov blocks blocks-late paths paths-late counts osp osp-old"

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
    osp-old) echo "osp path-checks=own promote-countdowns=no (the default before issue 36's one countdown and countdowns in registers)" ;;
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
    osp-old) osp_cc -O2 -g0 -fplugin-arg-osp-path-checks=own -fplugin-arg-osp-promote-countdowns=no $bc_atomic "$@" ;;
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

# paired_ratios: reads "prog<TAB>config<TAB>round<TAB>value<TAB>status" (status ok, or why not)
# and prints table's input: plain's median value, and for every other configuration the median
# over the rounds of value / plain's value of the same round with [min-max]; a configuration
# with a failed run gets ERROR failed/runs (the last reason).
paired_ratios () {
  awk -F '\t' "$fmt_awk"'{ w[$1, $2, $3] = $4; s[$1, $2, $3] = $5; P[$1] = 1; K[$2] = 1; R[$3] = 1 }
  END {
    for (p in P) for (c in K) {
      n = 0; bad = 0; why = ""
      for (r in R) {
        if (!((p, c, r) in s)) continue
        if (s[p, c, r] != "ok") { bad++; why = s[p, c, r]; continue }
        if (c == "plain") { v[++n] = w[p, c, r]; continue }
        if (s[p, "plain", r] != "ok" || w[p, "plain", r] <= 0) continue
        v[++n] = w[p, c, r] / w[p, "plain", r]
      }
      if (bad) { printf "%s\t%s\tERROR %d/%d (%s)\t-\n", p, c, bad, bad + n, why; continue }
      if (n == 0) continue
      # sort v[1..n]
      for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
      med = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
      if (c == "plain") printf "%s\t%s\t%.2f\t-\n", p, c, med
      else printf "%s\t%s\t%s [%s–%s]\t%s\n", p, c, fx(med), fn(v[1]), fn(v[n]), med
    }
  }'
}

# cfg_heads: the headings of the configurations in $CONFIGS, plain first, '|'-separated.
cfg_heads () { h="plain"; for c in $CONFIGS; do [ "$c" = plain ] || h="$h|$c"; done; echo "$h"; }

# rotated CONFIGS ROUND: the configurations in the order of round ROUND (each round starts one
# further, so that no configuration always runs right after the same other).
rotated () {
  echo $1 | awk -v r="$2" '{ for (i = 0; i < NF; i++) printf "%s ", $((i + r) % NF + 1) }'
}

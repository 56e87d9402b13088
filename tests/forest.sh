#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/forest.sh - the prefix forest of k-iteration paths (k-BLPP: OSP_OPTIONS forest=...,
# libosprt/collect/pathforest.c, forest.c, output/report-forest.c; tsv rows in doc/CONTRACTS.md), end to end.
#
# Programs: progs/forest-loops.c (a loop of known A/B choices whose iterations call a looping
# helper or a recursive function; two activations), progs/forest-random.c (16 paths per
# iteration at random: many distinct n-grams), corpus/threads.c (8 threads) and corpus/fork.c,
# built with the plugin at -O0 and -O2 with $CHECKFLAGS.  Every run must print and exit
# exactly as the plain build, with nothing on stderr, and write a well formed tsv report.
#   1. forest=exhaustive (k 1, 4, 8), forest=burst (k 1, 8, 32): output unchanged.
#   2. Exhaustive exactness (paths=exhaustive, forest_prune=0, a big forest_bytes): the tree
#      roots are exactly the path rows, each with the path's count, but for the functions that
#      count their paths inline without checks (the plugin's count-loop-free), which have no
#      tree and whose counts add up to forest_unseen; forest_items + forest_unseen =
#      path_ends_seen; nothing pruned, dropped, truncated, resynced or partial.
#   3. Structure: a node's function is its parent's, depth = parent's + 1 <= k - 1, counts
#      never grow down a tree, a node's blocks are its path row's, share = count / parent's
#      (a root's: / forest_items), and below a node whose path does not end its activation
#      (its last block has an edge to a block) at depth < k - 1 the children's counts sum to
#      its own.
#   4. forest-loops: the n-gram counts (n = 1..k, k = 4 and 8) of driver()'s paths equal the
#      ones awk computes from the choices the program wrote (check_loops).
#   5. forest=burst, seeds 1-3, forest_interval=2000, a long run: estimate = count x scale and
#      err95 as CONTRACTS.md says, items and context add up to the bursts, the exhaustive
#      count lies within estimate +/- err95 for >= 90% of the nodes counted >= 100 times, and
#      the roots' estimates sum to path_ends_seen - forest_unseen within 10% (check_burst).
#   6. threads.c: roots = path rows (threads merged), a stream per thread; forest_threads=1
#      refuses the others and changes nothing else.
#   7. forest-random with forest_bytes=64K: nodes <= cap, something pruned, forest_items +
#      forest_unseen = path_ends_seen, and forest.c's guarantee against the 32M run: no n-gram over-counted,
#      the counts lost per length at most LOST (exactly LOST for single paths), every n-gram
#      that occurred more than LOST times present (check_bounded).
#   8. Bad forest values: one stderr line naming the key, output unchanged, the default kept;
#      forest=burst with paths=timer: "cannot be used with paths=timer", no forest rows.
#   9. fork.c with forest=exhaustive: output unchanged, every process's report well formed.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup forest
osp_need_build

# Exhaustive and exact: every node reported, every tree, a budget nothing here fills.
EXACT=paths=exhaustive:forest=exhaustive:forest_prune=0:report_top=100000:report_format=tsv:forest_bytes=32M
# Iterations of forest-loops (first activation) for the exact checks, for the burst checks,
# and of forest-random.
NLOOPS=5000
NBURST=200000
NRANDOM=30000

# build NAME SRC LEVEL: $W/NAME-LEVEL.plain and $W/NAME-LEVEL.osp ($CHECKFLAGS); sets $bb.
build ()
{
  bb=$W/$1$3
  osp_compile "$bb.plain" plain_cc "$3" -w "$2" -o "$bb.plain" ||
    { osp_fail "$1 $3: plain build"; return 1; }
  # Threads run one function at once: a thread-aware build (counters, if any, atomic).
  upd=
  [ "$1" = threads ] && upd=-fplugin-arg-osp-counts-update=atomic
  # shellcheck disable=SC2086
  osp_compile "$bb.osp" osp_cc "$3" $CHECKFLAGS $upd -w "$2" -o "$bb.osp" ||
    { osp_fail "$1 $3: instrumented build"; return 1; }
}

# plain BASE PROG ARGS...: the plain run; BASE.out, BASE.err, BASE.rc.
plain ()
{
  pbase=$1
  shift
  osp_exec "$pbase" "$@"
  echo "$osp_rc" > "$pbase.rc"
}

# run LABEL BASE OPTIONS PLAINBASE PROG ARGS...: PROG with OSP_OPTIONS=OPTIONS:report=BASE.tsv;
# its exit status and stdout must be the plain run's, its stderr empty, BASE.tsv well formed.
run ()
{
  rlabel=$1 rbase=$2 ropts=$3 rplain=$4
  shift 4
  osp_exec_with "$ropts:report=$rbase.tsv" "$rbase" "$@"
  rok=0
  [ "$osp_rc" = "$(cat "$rplain.rc")" ] ||
    { osp_fail "$rlabel: exit status $osp_rc, plain $(cat "$rplain.rc")"; rok=1; }
  osp_same "$rlabel: stdout" "$rplain.out" "$rbase.out" || rok=1
  if [ -s "$rbase.err" ]; then
    osp_fail "$rlabel: stderr is not empty"
    osp_show "$rbase.err" stderr
    rok=1
  fi
  if [ ! -f "$rbase.tsv" ]; then
    osp_fail "$rlabel: no report $rbase.tsv"
    return 1
  fi
  osp_check_report "$rbase.tsv" || { osp_fail "$rlabel: malformed report $rbase.tsv"; rok=1; }
  return $rok
}

# check_exact TSV: item 2 (exhaustive, forest_prune=0, every tree shown, nothing lost).
check_exact ()
{
  awk -F '\t' '
    function bad(m) { if (errs++ < 10) printf "%s: %s\n", FILENAME, m }
    $1 == "path" { pc[$3 ":" $4] = $7; np++ }
    $1 == "forest" && $3 == "-" {
      if (($5 ":" $6) in rc) bad("two trees with root " $5 ":" $6)
      rc[$5 ":" $6] = $7; nroots++
    }
    $1 == "stat" { st[$2] = $3 }
    END {
      if (np == 0) bad("no path rows")
      for (p in rc) { split(p, f, ":"); inforest[f[1]] = 1 }
      for (p in pc) {
        split(p, f, ":")
        if (p in rc) { if (rc[p] != pc[p]) bad("path " p ": count " pc[p] ", tree root " rc[p]) }
        else if (f[1] in inforest) bad("path " p " (count " pc[p] ") is no tree root")
        else unseen += pc[p]   # a function without checks: counted inline, never an item
      }
      for (p in rc) if (!(p in pc)) bad("tree root " p " (count " rc[p] ") has no path row")
      if (st["forest"] != "exhaustive") bad("stat forest is \"" st["forest"] "\"")
      if (unseen + 0 != st["forest_unseen"])
        bad("paths of functions outside the forest counted " unseen + 0 ", forest_unseen " st["forest_unseen"])
      if (st["forest_items"] + st["forest_unseen"] != st["path_ends_seen"])
        bad("forest_items " st["forest_items"] " + forest_unseen " st["forest_unseen"] " but path_ends_seen " st["path_ends_seen"])
      if (st["forest_trees"] != nroots) bad("forest_trees " st["forest_trees"] " but " nroots " roots")
      n = split("pruned_mass dropped ipf_truncated rows_cut resyncs partial unlabelled invalid deep", z, " ")
      for (i = 1; i <= n; i++)
        if (st["forest_" z[i]] != "0") bad("forest_" z[i] " is " st["forest_" z[i]] ", expected 0")
      exit errs ? 1 : 0
    }' "$1"
}

# check_structure TSV K: item 3.  The children-sum rule needs every n-gram (exhaustive,
# forest_prune=0, nothing lost): then each occurrence of a node's n-gram that its activation
# continues is the prefix of exactly one occurrence one path longer (if that is at most k).
# A path ended by a back edge, an edge into another path start or a cut leaves its last
# block by an edge to a block (in the edge rows: exhaustive paths count every edge they
# take, the one that ends them included); a returning path's last block goes to exit only,
# one that ends in a noreturn call (exit() in fork.c's children) has no edge row at all.
check_structure ()
{
  awk -F '\t' -v k="$2" '
    function bad(m) { if (errs++ < 10) printf "%s: %s\n", FILENAME, m }
    function abs(x) { return x < 0 ? -x : x }
    $1 == "path" { pblk[$3 ":" $4] = $10 }
    $1 == "edge" && $5 != "exit" { goes[$2 ":" $3] = 1 }
    $1 == "stat" { st[$2] = $3 }
    $1 != "forest" { next }
    {
      r = $2; fid[r] = $5; dep[r] = $4; cnt[r] = $7; par[r] = $3; sh[r] = $10; blk[r] = $11
      if ($3 != "-") {
        p = $3
        if (!(p in fid)) bad("row " r ": parent " p " does not come before it")
        else {
          if (fid[p] != $5) bad("row " r ": function " $5 " under a node of function " fid[p])
          if ($4 != dep[p] + 1) bad("row " r ": depth " $4 " under depth " dep[p])
          csum[p] += $7
        }
      } else if ($4 != 0) bad("row " r ": root with depth " $4)
      if ($4 > k - 1) bad("row " r ": depth " $4 " with k = " k)
      if (($5 ":" $6) in pblk && pblk[$5 ":" $6] != $11)
        bad("row " r ": blocks " $11 " but path row " $5 ":" $6 " has " pblk[$5 ":" $6])
    }
    END {
      lost = st["forest_pruned_mass"] + st["forest_dropped"]
      exact = st["forest"] == "exhaustive" && lost == 0 && st["forest_prune"] == 0 &&
              st["forest_rows_cut"] == 0 && st["forest_ipf_truncated"] == 0
      for (r in fid) {
        # a parent can hold 0 (a connector above counted n-grams once something was lost,
        # or a burst context); then the share is 0
        den = par[r] == "-" ? st["forest_items"] : cnt[par[r]]
        want = den > 0 ? cnt[r] / den : 0
        if (abs(sh[r] - want) > 1e-6) bad("row " r ": share " sh[r] ", expected " want)
        if (!exact) continue
        if (par[r] != "-" && cnt[r] > cnt[par[r]])
          bad("row " r ": count " cnt[r] " above its parent'"'"'s " cnt[par[r]])
        nb = split(blk[r], b, ",")
        if (dep[r] < k - 1 && (b[nb] in goes) && csum[r] + 0 != cnt[r])
          bad("row " r ": count " cnt[r] " but its children sum to " csum[r] + 0 " (its path does not end the activation)")
      }
      exit errs ? 1 : 0
    }' "$1"
}

# check_loops SEQ TSV K: item 4.  driver()'s paths are named by their blocks: E (starts at
# block 0), A or B (has a block on the line of the forest-branch-A/-B comment), R (its last
# block has an edge to exit); each must be exactly one of these (with GCC's shapes at -O0
# and -O2 the entry and exit paths reach no branch: the loop header is a path start).  An
# activation is then "E" + its line of SEQ + "R", and every substring of n <= k letters is an
# n-gram whose count must equal the summed count of the forest nodes of driver() whose root
# path spells it (a letter can stand for several path ids).
# Why this fails without activation tracking: driver()'s iterations each call helper() (whose
# loop ends 2-4 paths) or rec() (1-4 nested activations) before driver()'s own path ends, so
# in the thread's stream no two driver paths are adjacent.  Splitting the stream at routine
# entries (the paper's k-BLPP) would leave no n-gram of 2 or more driver paths (expected
# counts in the thousands); one flat stream would put helper/rec paths inside every such
# n-gram (and break the same-function rule of check_structure); not resuming the caller after
# a return, or not starting a fresh piece at driver()'s second activation, would lose the
# n-grams after a call or add "RE" n-grams across the activations.  Only n-grams of one
# activation, continued across its calls, give these counts.
check_loops ()
{
  la=$(grep -n 'forest-branch-A' "$OSP_TESTSRC/progs/forest-loops.c" | sed 's/:.*//')
  lb=$(grep -n 'forest-branch-B' "$OSP_TESTSRC/progs/forest-loops.c" | sed 's/:.*//')
  awk -F '\t' -v k="$3" -v la="$la" -v lb="$lb" '
    function bad(m) { if (errs++ < 10) printf "%s: %s\n", FILENAME, m }
    FNR == 1 { file++ }
    file == 1 {
      s = "E" $0 "R"; nact++
      for (n = 1; n <= k; n++)
        for (i = 1; i + n - 1 <= length(s); i++) want[substr(s, i, n)]++
      next
    }
    file == 2 && $1 == "function" && $3 == "driver" { d = $2 }
    file == 2 && $1 == "block" && $2 == d {
      if ($6 <= la && la <= $7) isA[$2 ":" $3] = 1
      if ($6 <= lb && lb <= $7) isB[$2 ":" $3] = 1
    }
    file == 2 && $1 == "path" && $3 == d { pblk[$4] = $10 }
    file == 2 && $1 == "edge" && $5 == "exit" { ret[$2 ":" $3] = 1 }
    file == 2 { next }
    $1 == "forest" && $5 == d {
      if (!($6 in sym)) {
        nb = split(pblk[$6], b, ","); e = a = bb = 0
        for (i = 1; i <= nb; i++) { e += b[i] == d ":0"; a += b[i] in isA; bb += b[i] in isB }
        sym[$6] = (e ? "E" : "") (a ? "A" : "") (bb ? "B" : "") (b[nb] in ret ? "R" : "")
        if (length(sym[$6]) != 1)
          bad("driver path " $6 " (" pblk[$6] ") is \"" sym[$6] "\", not one of E A B R")
      }
      str[$2] = ($3 == "-" ? "" : str[$3]) sym[$6]
      got[str[$2]] += $7
    }
    END {
      if (d == "" || nact == 0) bad("no driver function or no choices")
      for (g in want) {
        nw++
        if (got[g] + 0 != want[g]) bad("n-gram " g ": " want[g] " in the run, forest " got[g] + 0)
      }
      for (g in got) if (!(g in want)) bad("n-gram " g ": forest " got[g] ", not in the run")
      if (nw < 2 * k) bad("only " nw " n-grams to compare")
      printf "%d n-grams of driver() (k = %d) compared\n", nw, k
      exit errs ? 1 : 0
    }' "$1" "$2" "$2"
}

# check_burst TSV TRUTH: item 5.  The error model (pathforest.c): every path end is counted
# with probability (B - W) / (I - 1 + B) (a geometric gap of mean I, then a burst of B whose
# first W = min(4k, B/2) are context), so estimate = count x scale is unbiased for n-grams
# spanning at most W + 1 path ends; one n-gram's occurrences cluster in bursts (up to B - W
# each), so err95 = 1.96 sqrt(count x min(count, B - W)) x scale treats bursts as Poisson
# draws of such clusters, a bound.  driver()'s 8-grams span up to about 8 x 5 path ends
# (helper's and rec's in between) > W + 1 = 33 and are a few percent low, well inside it.
check_burst ()
{
  awk -F '\t' '
    function bad(m) { if (errs++ < 10) printf "%s: %s\n", FILENAME, m }
    function abs(x) { return x < 0 ? -x : x }
    FNR == 1 { file++ }
    file == 1 && $1 == "forest" {
      tk[$2] = ($3 == "-" ? "" : tk[$3] " ") $5 ":" $6; truth[tk[$2]] = $7
    }
    file == 1 { next }
    $1 == "stat" { st[$2] = $3 }
    $1 == "forest" {
      key = ($3 == "-" ? "" : sk[$3] " ") $5 ":" $6; sk[$2] = key
      cnt[$2] = $7; est[$2] = $8; err[$2] = $9; t[$2] = (key in truth) ? truth[key] : 0
      if ($3 == "-") lvl1 += $8
    }
    END {
      B = st["forest_burst"]; I = st["forest_interval"]; Wc = st["forest_warmup"]; k = st["forest_k"]
      if (st["forest"] != "burst") bad("stat forest is \"" st["forest"] "\"")
      if (Wc != (4 * k < B / 2 ? 4 * k : int(B / 2))) bad("forest_warmup " Wc " with k " k ", burst " B)
      scale = (I - 1 + B) / (B - Wc)
      if (abs(st["forest_scale"] - scale) > 1e-5 * scale) bad("forest_scale " st["forest_scale"] ", expected " scale)
      nb = st["forest_bursts"]; items = st["forest_items"]; ctx = st["forest_context"]
      ends = st["path_ends_seen"] - st["forest_unseen"]
      if (items > nb * (B - Wc) || items < (nb - 1) * (B - Wc))
        bad(items " items counted in " nb " bursts of " B - Wc)
      if (ctx > nb * Wc || ctx < (nb - 1) * Wc) bad(ctx " context items in " nb " bursts of " Wc)
      if (abs(nb - ends / (I - 1 + B)) > 0.2 * ends / (I - 1 + B))
        bad(nb " bursts in " ends " path ends, expected about " ends / (I - 1 + B))
      for (r in cnt) {
        m = cnt[r] < B - Wc ? cnt[r] : B - Wc
        if (abs(est[r] - cnt[r] * scale) > 0.0006 + 1e-9 * est[r])
          bad("row " r ": estimate " est[r] ", count " cnt[r] " x " scale)
        if (abs(err[r] - 1.96 * sqrt(cnt[r] * m) * scale) > 0.0006 + 1e-9 * err[r])
          bad("row " r ": err95 " err[r] ", expected " 1.96 * sqrt(cnt[r] * m) * scale)
        if (cnt[r] < 100) continue
        top++
        if (abs(t[r] - est[r]) <= err[r]) cover++
        else if (miss++ < 5) printf "row %s: exhaustive %d outside %s +/- %s\n", r, t[r], est[r], err[r]
      }
      if (top < 20) bad("only " top " nodes counted 100 times or more")
      else if (cover < 0.9 * top) bad("the exhaustive count is inside +/- err95 for " cover " of " top " nodes")
      if (abs(lvl1 - ends) > 0.1 * ends) bad("the roots estimate " lvl1 " path ends, path_ends_seen " ends)
      printf "%s: %d bursts; %d of %d nodes counted >= 100 cover the exhaustive count; roots sum %.0f for %d path ends\n",
             FILENAME, nb, cover, top, lvl1, ends
      exit errs ? 1 : 0
    }' "$2" "$1"
}

# check_bounded SMALL TRUTH: item 7, forest.c's guarantee with LOST = pruned_mass + dropped
# of SMALL, against TRUTH (the same program and k, exhaustive and exact).
check_bounded ()
{
  awk -F '\t' '
    function bad(m) { if (errs++ < 10) printf "%s: %s\n", FILENAME, m }
    FNR == 1 { file++ }
    file == 1 && $1 == "forest" {
      tk[$2] = ($3 == "-" ? "" : tk[$3] " ") $5 ":" $6; truth[tk[$2]] = $7; tsum[$4] += $7
    }
    file == 1 { next }
    $1 == "stat" { st[$2] = $3 }
    $1 == "forest" {
      key = ($3 == "-" ? "" : sk[$3] " ") $5 ":" $6; sk[$2] = key; rep[key] = $7; rsum[$4] += $7
      if (!(key in truth)) bad("row " $2 ": n-gram " key " (count " $7 ") never occurred")
      else if ($7 > truth[key]) bad("row " $2 ": n-gram " key " counted " $7 ", occurred " truth[key])
    }
    END {
      lost = st["forest_pruned_mass"] + st["forest_dropped"]
      if (st["forest_nodes"] + 0 > st["forest_nodes_cap"] + 0 || st["forest_nodes_peak"] + 0 > st["forest_nodes_cap"] + 0)
        bad("forest_nodes " st["forest_nodes"] " (peak " st["forest_nodes_peak"] ") over forest_nodes_cap " st["forest_nodes_cap"])
      if (st["forest_pruned_mass"] + 0 == 0) bad("nothing pruned: the budget did not bind")
      if (st["forest_items"] + st["forest_unseen"] != st["path_ends_seen"])
        bad("forest_items " st["forest_items"] " + forest_unseen " st["forest_unseen"] " but path_ends_seen " st["path_ends_seen"])
      if (st["forest_ipf_truncated"] != 0 || st["forest_rows_cut"] != 0) bad("k-IPF truncated or rows cut")
      if (tsum[0] != st["forest_items"]) bad("the exhaustive run counted " tsum[0] " path ends")
      for (d in tsum)
        if (tsum[d] - rsum[d] > lost || (d == 0 && tsum[d] - rsum[d] != lost))
          bad((d + 1) "-grams: " tsum[d] " occurred, " rsum[d] + 0 " counted, LOST " lost)
      for (key in truth)
        if (truth[key] > lost && (!(key in rep) || truth[key] - rep[key] > lost))
          bad("n-gram " key ": occurred " truth[key] " > LOST " lost ", counted " rep[key] + 0)
      printf "%s: %d nodes of %d, LOST %d of %d path ends\n", FILENAME, st["forest_nodes"],
             st["forest_nodes_cap"], lost, st["forest_items"]
      exit errs ? 1 : 0
    }' "$2" "$1"
}

loops=$OSP_TESTSRC/progs/forest-loops.c
random=$OSP_TESTSRC/progs/forest-random.c
for level in -O0 -O2; do
  # ---- forest-loops: items 1-5 ----
  if build forest-loops "$loops" $level; then
    l=$bb
    plain "$l.p" "$l.plain" $NLOOPS "$l.p.seq"
    for k in 1 4 8; do
      r=$l.x$k
      run "forest-loops $level exhaustive k=$k" "$r" "$EXACT:forest_k=$k" "$l.p" \
          "$l.osp" $NLOOPS "$r.seq" || continue
      osp_same "forest-loops $level: the choices written" "$l.p.seq" "$r.seq"
      check_exact "$r.tsv" || osp_fail "forest-loops $level k=$k: roots are not the exact path counts"
      check_structure "$r.tsv" $k || osp_fail "forest-loops $level k=$k: forest structure"
      if [ $k -gt 1 ]; then
        check_loops "$l.p.seq" "$r.tsv" $k ||
          osp_fail "forest-loops $level k=$k: the n-grams of driver() differ from its choices"
      elif grep -q '^forest	[0-9]*	[0-9]' "$r.tsv"; then
        osp_fail "forest-loops $level k=1: a node below a root"
      fi
    done
    # the text form draws the trees (report-forest.c); its label says how exact they are
    osp_exec_with "forest=exhaustive:report=$l.text" "$l.t" "$l.osp" $NLOOPS "$l.t.seq"
    osp_same "forest-loops $level text report: stdout" "$l.p.out" "$l.t.out"
    if ! grep -q '^prefix forest (k-BLPP, k=8): exhaustive, exact counts$' "$l.text" ||
       ! grep -q '^  |-' "$l.text"; then
      osp_fail "forest-loops $level: the text report has no forest section or no tree"
      osp_show "$l.text" "text report"
    fi
    for k in 1 8 32; do
      r=$l.b$k
      run "forest-loops $level burst k=$k" "$r" "forest=burst:forest_k=$k:report_format=tsv" \
          "$l.p" "$l.osp" $NLOOPS "$r.seq" &&
        osp_same "forest-loops $level burst: the choices written" "$l.p.seq" "$r.seq"
      [ "$(osp_stat "$r.tsv" forest)" = burst ] ||
        osp_fail "forest-loops $level burst k=$k: stat forest is '$(osp_stat "$r.tsv" forest)'"
    done
    # item 5: a long run, bursts against the exhaustive counts
    plain "$l.lp" "$l.plain" $NBURST
    r=$l.truth
    if run "forest-loops $level $NBURST exhaustive" "$r" "$EXACT" "$l.lp" "$l.osp" $NBURST; then
      check_exact "$r.tsv" || osp_fail "forest-loops $level $NBURST: roots are not the exact path counts"
      for seed in 1 2 3; do
        r=$l.s$seed
        run "forest-loops $level burst seed $seed" "$r" \
            "paths=exhaustive:forest=burst:forest_interval=2000:forest_prune=0:report_top=100000:report_format=tsv:seed=$seed" \
            "$l.lp" "$l.osp" $NBURST || continue
        check_structure "$r.tsv" 8 || osp_fail "forest-loops $level burst seed $seed: forest structure"
        check_burst "$r.tsv" "$l.truth.tsv" ||
          osp_fail "forest-loops $level burst seed $seed: estimates against the exhaustive counts"
      done
    fi
  fi

  # ---- forest-random: items 1-3, 7 ----
  if build forest-random "$random" $level; then
    f=$bb
    plain "$f.p" "$f.plain" $NRANDOM
    r=$f.truth
    if run "forest-random $level exhaustive" "$r" "$EXACT:forest_k=4" "$f.p" "$f.osp" $NRANDOM; then
      check_exact "$r.tsv" || osp_fail "forest-random $level: roots are not the exact path counts"
      check_structure "$r.tsv" 4 || osp_fail "forest-random $level: forest structure"
      r=$f.small
      if run "forest-random $level forest_bytes=64K" "$r" "$EXACT:forest_k=4:forest_bytes=64K" \
             "$f.p" "$f.osp" $NRANDOM; then
        check_structure "$r.tsv" 4 || osp_fail "forest-random $level 64K: forest structure"
        check_bounded "$r.tsv" "$f.truth.tsv" ||
          osp_fail "forest-random $level forest_bytes=64K: the bounded forest against the exact one"
      fi
    fi
    run "forest-random $level burst" "$f.b" "forest=burst:report_format=tsv" "$f.p" "$f.osp" $NRANDOM
  fi

  # ---- threads: items 1, 2, 3, 6 ----
  if build threads "$OSP_TESTSRC/corpus/threads.c" $level; then
    t=$bb
    plain "$t.p" "$t.plain"
    r=$t.x
    if run "threads $level exhaustive" "$r" "$EXACT" "$t.p" "$t.osp"; then
      check_exact "$r.tsv" || osp_fail "threads $level: roots are not the exact path counts"
      check_structure "$r.tsv" 8 || osp_fail "threads $level: forest structure"
      s=$(osp_stat "$r.tsv" forest_streams)
      [ "${s:-0}" -ge 9 ] || osp_fail "threads $level: forest_streams '$s', expected 9 (main and 8 threads)"
      [ "$(osp_stat "$r.tsv" forest_threads_refused)" = 0 ] ||
        osp_fail "threads $level: forest_threads_refused is not 0"
    fi
    r=$t.one
    if run "threads $level forest_threads=1" "$r" "$EXACT:forest_threads=1" "$t.p" "$t.osp"; then
      [ "$(osp_stat "$r.tsv" forest_streams)" = 1 ] ||
        osp_fail "threads $level forest_threads=1: forest_streams '$(osp_stat "$r.tsv" forest_streams)'"
      s=$(osp_stat "$r.tsv" forest_threads_refused)
      [ "${s:-0}" -gt 0 ] || osp_fail "threads $level forest_threads=1: forest_threads_refused '$s'"
      check_structure "$r.tsv" 8 || osp_fail "threads $level forest_threads=1: forest structure"
    fi
    run "threads $level burst" "$t.b" "forest=burst:forest_interval=1000:report_format=tsv" "$t.p" "$t.osp"
  fi

  # ---- fork: item 9 ----
  if build fork "$OSP_TESTSRC/corpus/fork.c" $level; then
    fk=$bb
    plain "$fk.p" "$fk.plain"
    mkdir -p "$fk.r"
    osp_exec_with "$EXACT:report=$fk.r/r.%p" "$fk.x" "$fk.osp"
    [ "$osp_rc" = "$(cat "$fk.p.rc")" ] || osp_fail "fork $level: exit status $osp_rc, plain $(cat "$fk.p.rc")"
    osp_same "fork $level: stdout" "$fk.p.out" "$fk.x.out"
    if [ -s "$fk.x.err" ]; then
      osp_fail "fork $level: stderr is not empty"
      osp_show "$fk.x.err" stderr
    fi
    nrep=0
    for rep in "$fk.r"/r.*; do
      [ -f "$rep" ] || continue
      nrep=$((nrep + 1))
      osp_check_report "$rep" || osp_fail "fork $level: malformed report $rep"
      [ "$(osp_stat "$rep" forest)" = exhaustive ] || osp_fail "fork $level: no forest in $rep"
      [ $(($(osp_stat "$rep" forest_items) + $(osp_stat "$rep" forest_unseen))) = "$(osp_stat "$rep" path_ends_seen)" ] ||
        osp_fail "fork $level: $rep: forest_items $(osp_stat "$rep" forest_items) + forest_unseen $(osp_stat "$rep" forest_unseen), path_ends_seen $(osp_stat "$rep" path_ends_seen)"
      check_structure "$rep" 8 || osp_fail "fork $level: forest structure in $rep"
    done
    [ $nrep -eq 6 ] || osp_fail "fork $level: $nrep reports, expected 6 (parent, 4 children, a grandchild)"
  fi
done

# ---- item 8: bad values, and paths=timer ----
l=$W/forest-loops-O2
# bad OPTIONS KEY STAT DEFAULT: one stderr line naming KEY, output unchanged, STAT = DEFAULT.
bad ()
{
  b=$W/bad-$(echo "$1" | tr -c 'a-z0-9\n' '-')
  osp_exec_with "paths=exhaustive:report_format=tsv:report=$b.tsv:$1" "$b" "$l.osp" $NLOOPS "$b.seq"
  [ "$osp_rc" = "$(cat "$l.p.rc")" ] || osp_fail "OSP_OPTIONS=...:$1: exit status $osp_rc"
  osp_same "OSP_OPTIONS=...:$1: stdout" "$l.p.out" "$b.out"
  osp_same "OSP_OPTIONS=...:$1: the choices written" "$l.p.seq" "$b.seq"
  if [ "$(wc -l < "$b.err")" -ne 1 ] || ! grep -q '^osp: OSP_OPTIONS: ' "$b.err" ||
     ! grep -F -q "'$2'" "$b.err"; then
    osp_fail "OSP_OPTIONS=...:$1: expected one stderr line naming $2"
    osp_show "$b.err" stderr
  fi
  if [ -f "$b.tsv" ]; then
    osp_check_report "$b.tsv" || osp_fail "OSP_OPTIONS=...:$1: malformed report"
    [ "$(osp_stat "$b.tsv" "$3")" = "$4" ] ||
      osp_fail "OSP_OPTIONS=...:$1: stat $3 is '$(osp_stat "$b.tsv" "$3")', expected the default $4"
  else
    osp_fail "OSP_OPTIONS=...:$1: no report"
  fi
  echo "ok? '$1' -> $(head -n 1 "$b.err")"
}
if [ -x "$l.osp" ]; then
  bad forest=bogus forest forest burst
  bad forest_k=0 forest_k forest_k 8
  bad forest_k=65 forest_k forest_k 8
  bad forest_burst=15 forest_burst forest_burst 256
  bad forest_prune=101 forest_prune forest_prune 10
  b=$W/timer
  osp_exec_with "paths=timer:forest=burst:report_format=tsv:report=$b.tsv" "$b" "$l.osp" $NLOOPS "$b.seq"
  [ "$osp_rc" = "$(cat "$l.p.rc")" ] || osp_fail "paths=timer:forest=burst: exit status $osp_rc"
  osp_same "paths=timer:forest=burst: stdout" "$l.p.out" "$b.out"
  # (and the line that says the timer leaves out the functions that count their paths inline)
  if [ "$(grep -v -c 'paths=timer does not report its paths' "$b.err")" -ne 1 ] ||
     ! grep -q 'cannot be used with paths=timer' "$b.err"; then
    osp_fail "paths=timer:forest=burst: expected one stderr line 'cannot be used with paths=timer'"
    osp_show "$b.err" stderr
  fi
  if [ -f "$b.tsv" ]; then
    osp_check_report "$b.tsv" || osp_fail "paths=timer:forest=burst: malformed report"
    grep -q '^forest	' "$b.tsv" && osp_fail "paths=timer:forest=burst: forest rows (the forest is off)"
    [ "$(osp_stat "$b.tsv" paths)" = timer ] || osp_fail "paths=timer:forest=burst: stat paths is not timer"
  else
    osp_fail "paths=timer:forest=burst: no report"
  fi
  # forest=off: no forest rows or stats.
  b=$W/off
  run "forest=off" "$b" "paths=exhaustive:forest=off:report_format=tsv" "$l.p" "$l.osp" $NLOOPS "$b.seq"
  grep -q -e '^forest	' -e '^stat	forest' "$b.tsv" && osp_fail "forest=off: forest rows or stats"
fi
osp_done

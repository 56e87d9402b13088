# SPDX-License-Identifier: GPL-3.0-or-later
# tests/lib.sh - shell helpers shared by the test scripts (sourced after tests/env.sh).
#
# A test script does:
#     . "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
#     osp_setup NAME            # work directory $W = BUILD/tests/work/NAME (fresh)
#     ... osp_fail "what differed" ...
#     osp_done                  # exit 0 (and remove $W) or 1 (keep $W for inspection)
# Exit codes follow Automake: 0 pass, 1 fail, 77 skip, 99 hard error.
# Time: a test never sleeps a fixed time expecting an effect; it waits with osp_wait_until,
# whose limit, like every limit of the suite, is scaled by OSP_TEST_TIMEOUT_SCALE (osp_seconds,
# tests/env.sh; tests/README.md, "Time limits").

osp_failures=0

osp_setup ()
{
  osp_name=$1
  W=$abs_top_builddir/tests/work/$osp_name
  rm -rf "$W" && mkdir -p "$W" || { echo "error: cannot create $W"; exit 99; }
  LC_ALL=C
  export LC_ALL
  # Nothing from the caller's environment may change what the runtime does.
  unset OSP_OPTIONS
  # Programs run in $W: the snapshot an instrumented program writes by default at exit
  # (PROG.ospsnap in its start-up directory, doc/osp.md) lands there and goes with it.
  cd "$W" || exit 99
}

osp_fail ()
{
  echo "FAIL: $*"
  osp_failures=$((osp_failures + 1))
}

osp_done ()
{
  if [ "$osp_failures" -eq 0 ]; then
    echo "PASS: $osp_name"
    rm -rf "$W"
    exit 0
  fi
  echo "$osp_failures failure(s) in $osp_name; files kept in $W"
  exit 1
}

# osp_show FILE [LABEL]: print (the start of) a file into the test log.
osp_show ()
{
  echo "---- ${2:-$1} ----"
  head -n 40 "$1"
  n=$(wc -l < "$1")
  [ "$n" -gt 40 ] && echo "... ($n lines)"
  echo "----"
}

# osp_compile LOGBASE CMD...: run a compile command, keep its stderr in LOGBASE.cc.err;
# on failure print the command and its messages and return 1.
osp_compile ()
{
  osp_log=$1
  shift
  if "$@" > "$osp_log.cc.err" 2>&1; then
    return 0
  fi
  echo "compile failed: $*"
  osp_show "$osp_log.cc.err" "compiler messages"
  if grep -q -i -e 'internal compiler error' -e 'killed signal' -e 'Segmentation fault' \
       "$osp_log.cc.err"; then
    echo "(compiler crash)"
  fi
  return 1
}

# The options osp_exec and osp_exec_with start from: the text report on stderr and no snapshot
# (the defaults before issue 35's, which the end-to-end tests are written against; the defaults
# themselves, one line and PROG.ospsnap, are tests/quiet-default.sh's).  A later key wins.
OSP_TEST_BASE_OPTIONS=report=stderr:snapshot=none

# osp_exec BASE PROG ARGS...: run PROG with the time limit and OSP_OPTIONS=$OSP_TEST_BASE_OPTIONS;
# stdout in BASE.out, stderr in BASE.err, exit status in $osp_rc (124 = timed out).
osp_exec ()
{
  osp_base=$1
  shift
  OSP_OPTIONS=$OSP_TEST_BASE_OPTIONS timeout "$OSP_TIMEOUT" "$@" \
    > "$osp_base.out" 2> "$osp_base.err" < /dev/null
  osp_rc=$?
  if [ "$osp_rc" -eq 124 ]; then
    echo "note: $* timed out after $OSP_TIMEOUT s"
  fi
}

# osp_exec_with OPTIONS BASE PROG ARGS...: the same with OPTIONS after those
# (OSP_OPTIONS=$OSP_TEST_BASE_OPTIONS:OPTIONS).
# (Not "OSP_OPTIONS=... osp_exec": an assignment in front of a shell function may outlive the
# call in some shells.)
osp_exec_with ()
{
  osp_opts=$1
  osp_base=$2
  shift 2
  OSP_OPTIONS=$OSP_TEST_BASE_OPTIONS:$osp_opts timeout "$OSP_TIMEOUT" "$@" \
    > "$osp_base.out" 2> "$osp_base.err" < /dev/null
  osp_rc=$?
  if [ "$osp_rc" -eq 124 ]; then
    echo "note: OSP_OPTIONS=$osp_opts $* timed out after $OSP_TIMEOUT s"
  fi
}

# osp_wait_until BASE CMD...: run CMD (a command or a shell function) every 0.1 s until it
# succeeds (return 0) or osp_seconds BASE have passed (a note, return 1).  Whatever a test waits
# for - a file, a line of output, a screen's text, a signal handler - it waits for with this,
# never with a fixed sleep: on a loaded machine any fixed sleep is too short for someone.
osp_wait_until ()
{
  osp_wait_s=$(osp_seconds "$1")
  shift
  osp_wait_end=$(($(date +%s) + osp_wait_s))
  until "$@"; do
    if [ "$(date +%s)" -ge "$osp_wait_end" ]; then
      echo "note: waited $osp_wait_s s in vain for: $*"
      return 1
    fi
    sleep 0.1
  done
}

# osp_has_file FILE: FILE exists and is not empty (for osp_wait_until).
osp_has_file ()
{
  [ -s "$1" ]
}

# osp_has_line FILE PATTERN: FILE has a line matching the basic regular expression PATTERN.
osp_has_line ()
{
  grep -q -e "$2" "$1" 2> /dev/null
}

# osp_catches PID SIGNUM: process PID has a handler for signal SIGNUM (its SigCgt mask in
# /proc/PID/status): wait for this before sending a signal the program's runtime installs a
# handler for at start-up, which would otherwise kill a program not yet that far.
osp_catches ()
{
  awk -v n="$2" '$1 == "SigCgt:" {
      d = substr($2, length($2) - int((n - 1) / 4), 1)   # the hex digit of bit n - 1
      v = index("0123456789abcdef", tolower(d)) - 1
      ok = int(v / 2 ^ ((n - 1) % 4)) % 2
    }
    END { exit !ok }' "/proc/$1/status" 2> /dev/null
}

# osp_stopped PID: process PID is stopped (state T: a SIGSTOP has landed).
osp_stopped ()
{
  awk '$1 == "State:" { ok = $2 == "T" } END { exit !ok }' "/proc/$1/status" 2> /dev/null
}

# osp_same LABEL EXPECTED ACTUAL: compare two files; on difference print a diff and fail.
osp_same ()
{
  if cmp -s "$2" "$3"; then
    return 0
  fi
  osp_fail "$1: $3 differs from $2"
  diff -u "$2" "$3" | head -n 40
  return 1
}

# osp_paths_add_up TSV EXACT(yes|no): the blocks of the report's path rows, each counted as often
# as its path, against the block hooks' counts: never more, and with EXACT=yes the same (every
# block entry on a recorded path, as with every path end seen).  Prints the first differences.
osp_paths_add_up ()
{
  awk -F '\t' -v exact="$2" '
    $1 == "block" && $8 != "-" { counted[$2 ":" $3] = $8 }
    $1 == "path" {
      n = split($10, b, ",")
      for (i = 1; i <= n; i++) derived[b[i]] += $5
    }
    END {
      for (k in derived) {
        c = (k in counted) ? counted[k] : 0
        if (derived[k] > c || (exact == "yes" && derived[k] != c)) {
          if (errs++ < 10) printf "block %s: %d from paths, %d counted by hooks\n", k, derived[k], c
        }
      }
      if (exact == "yes") for (k in counted) if (!(k in derived)) {
        if (errs++ < 10) printf "block %s: counted %d by hooks but on no recorded path\n", k, counted[k]
      }
      exit errs ? 1 : 0
    }' "$1"
}

# osp_check_report FILE: validate an exit report in the tsv format of doc/CONTRACTS.md:
# header, field counts, numeric fields, unique function ids, block, path, edge and forest rows of
# known functions, work rows whose shares add up to 100%, block 0's count equal to the function's calls, block entries equal to the sum of
# the block rows; forest rows numbered 1..n in preorder (a parent before its children, depth 0 iff
# no parent, else the parent's depth + 1), blocks of their own function, each with a block row.
# Prints every problem; returns 1 if there was one.
osp_check_report ()
{
  awk -F '\t' '
    function bad(msg) { printf "report %s:%d: %s: %s\n", FILENAME, FNR, msg, $0; errs++ }
    function num(x) { return x ~ /^[0-9]+$/ }
    function dec(x) { return x ~ /^[0-9]+(\.[0-9]+)?$/ }
    FNR == 1 {
      if ($0 !~ /^# osp-report 1( |$)/) bad("bad header (want \"# osp-report 1 ...\")")
      next
    }
    $1 == "module" { if (NF != 3 || !num($2) || !num($3)) bad("bad module row"); next }
    $1 == "function" {
      if (NF != 7 || !num($2) || !num($5) || !(num($6) || $6 == "-") || !(num($7) || $7 == "-"))
        { bad("bad function row"); next }
      if ($2 in fname) bad("duplicate function id " $2)
      fname[$2] = $3; calls[$2] = $6; entries[$2] = $7; nfun++
      next
    }
    $1 == "block" {
      if (NF != 8 || !num($2) || !num($3) || !num($6) || !num($7) || !(num($8) || $8 == "-"))
        { bad("bad block row"); next }
      if (($2 SUBSEP $3) in seen) bad("duplicate block row")
      seen[$2, $3] = 1; blockrow[$2 ":" $3] = 1
      # count 0: only for a block that occurs in a path row (listed so the path decodes)
      if ($8 == "0") zero[$2 ":" $3] = FNR
      blk[NR] = $2; if ($3 == "0") b0[$2] = $8
      if ($8 == "-") unknown[$2] = 1; else sum[$2] += $8
      next
    }
    $1 == "path" {
      # ... <blocks> <work> <work err95> <work share>; rank "-": too few samples (shares.c)
      if (NF != 13 || !(num($2) || $2 == "-") || !num($3) || !num($4) || !dec($5) || !dec($6) ||
          !num($7) || $8 !~ /^[0-9.e+-]+$/ || !num($9) ||
          $10 !~ /^[0-9]+:[0-9]+(,[0-9]+:[0-9]+)*$/ || !dec($11) || !dec($12) ||
          $13 !~ /^[0-9.e+-]+$/)
        { bad("bad path row"); next }
      if ($2 == "-") punranked = 1; else if (punranked) bad("ranked path row after an unranked one")
      pfn[NR] = $3; nb = split($10, pb, ","); for (i = 1; i <= nb; i++) onpath[pb[i]] = 1
      next
    }
    $1 == "forest" {
      # forest <row> <parent|-> <depth> <fid> <path id> <count> <estimate> <err95> <share> <blocks>
      #        <work> <work err95> <work share> <ranked: 0 too few samples, 1>
      if ($2 != ++nforest) bad("forest row " $2 " out of sequence (want " nforest ")")
      # (ranked: 0 when err95 > estimate, within the 3 decimals printed)
      if (NF != 15 || $15 !~ /^[01]$/ || ($15 == 1 && $9 - $8 > 0.001) || ($15 == 0 && $8 - $9 > 0.001) || !num($2) || !(num($3) || $3 == "-") || !num($4) || !num($5) || !num($6) ||
          $7 !~ /^[0-9]+$/ || !dec($8) || !dec($9) || $10 !~ /^[0-9.e+-]+$/ ||
          $11 !~ /^[0-9]+:[0-9]+(,[0-9]+:[0-9]+)*$/ || !dec($12) || !dec($13) ||
          $14 !~ /^[0-9.e+-]+$/)
        { bad("bad forest row"); next }
      if ($3 == "-" && $4 != 0) bad("forest root with depth " $4)
      if ($3 != "-" && ($3 + 0 >= $2 + 0 || $4 != fdepth[$3] + 1)) bad("forest row parent/depth mismatch")
      fdepth[$2] = $4
      pfn[NR] = $5; nb = split($11, pb, ",")
      for (i = 1; i <= nb; i++) {
        onpath[pb[i]] = 1; onforest[pb[i]] = FNR
        if (substr(pb[i], 1, length($5) + 1) != $5 ":") bad("forest row block " pb[i] " not of function " $5)
      }
      next
    }
    $1 == "subpath" {
      # ... <blocks> <work> <work err95> <work share>
      if (NF != 11 || !(num($2) || $2 == "-") || !num($3) || !dec($4) || !dec($5) || !num($6) ||
          !dec($9) || !dec($10) || $11 !~ /^[0-9.e+-]+$/)
        bad("bad subpath row")
      next
    }
    $1 == "edge" {
      if (NF != 7 || !num($2) || !num($3) || !num($4) || !(num($5) || $5 == "exit") ||
          !dec($6) || !num($7))
        { bad("bad edge row"); next }
      pfn[NR] = $2; next
    }
    $1 == "work" {
      # work <fid> <executions> <executions %> <work> <work %>
      if (NF != 6 || !num($2) || !num($3) || !dec($4) || !num($5) || !dec($6))
        { bad("bad work row"); next }
      pfn[NR] = $2; wexec += $4; wwork += $6; nwork++; next
    }
    $1 == "stat" {
      # numbers, and words for the settings (paths=counter, policy=concise, ...)
      if (NF != 3 || !(num($3) || $3 ~ /^[0-9][0-9.e+-]*$/ || $3 ~ /^[a-z][a-z0-9_-]*$/))
        bad("bad stat row")
      stat[$2] = $3; next
    }
    { bad("unknown record") }
    END {
      for (i in blk) if (!(blk[i] in fname)) { printf "report %s: block row of unknown function %s\n", FILENAME, blk[i]; errs++ }
      for (k in zero) if (!(k in onpath)) { printf "report %s:%d: block row with count 0 for a block on no path\n", FILENAME, zero[k]; errs++ }
      for (i in pfn) if (!(pfn[i] in fname)) { printf "report %s: path, edge or forest row of unknown function %s\n", FILENAME, pfn[i]; errs++ }
      for (k in onforest) if (!(k in blockrow)) { printf "report %s:%d: forest row block %s has no block row\n", FILENAME, onforest[k], k; errs++ }
      for (f in fname) {
        c = (f in b0) ? b0[f] : 0
        if (calls[f] != "-" && calls[f] != c) { printf "report %s: function %s (%s): calls %s but block 0 count %s\n", FILENAME, f, fname[f], calls[f], c; errs++ }
        if (entries[f] != "-" && !(f in unknown) && entries[f] != sum[f] + 0) { printf "report %s: function %s (%s): block entries %s but block rows sum to %d\n", FILENAME, f, fname[f], entries[f], sum[f]; errs++ }
      }
      # each share is rounded to 4 decimals: the sums may be off by 0.00005 per row
      if (nwork && ((wexec - 100) ^ 2 > (0.00005 * nwork + 0.001) ^ 2 || (wwork - 100) ^ 2 > (0.00005 * nwork + 0.001) ^ 2)) { printf "report %s: work shares add up to %s%% and %s%%, not 100%%\n", FILENAME, wexec, wwork; errs++ }
      if (("functions" in stat) && stat["functions"] != nfun) { printf "report %s: stat functions %s but %d function rows\n", FILENAME, stat["functions"], nfun; errs++ }
      exit errs ? 1 : 0
    }' "$1"
}

# osp_listed_other FILE HEAD: FILE (a text report or screen) has a line starting with HEAD (its
# "shares are of ..." line, with the lines indented 4 that continue it: the text report breaks it
# at 100 columns), and each "listed X% + other Y%" of that line's comma-separated parts adds up to
# 100% (to the two decimals shown) with X at most 100%.  Messages on stdout.
osp_listed_other ()
{
  awk -v head="$2" '
    function bad(msg) { printf "%s:%d: %s: %s\n", FILENAME, FNR, msg, $0; errs++ }
    function check(line) {
      seen = 1
      n = split(line, part, ",")
      for (i = 1; i <= n; i++) {
        if (!match(part[i], /listed [0-9.]+% \+ other [0-9.]+%/)) { bad("no listed + other"); continue }
        split(substr(part[i], RSTART, RLENGTH), w, " ")
        l = w[2]; o = w[5]; sub(/%/, "", l); sub(/%/, "", o)
        if (l + o < 99.995 || l + o > 100.005 || l + 0 > 100) bad("listed + other is not 100%")
      }
    }
    open && /^    [^ ]/ { more = $0; sub(/^ +/, "", more); cur = cur " " more; next }
    open { check(cur); open = 0 }
    index($0, head) == 1 { cur = $0; open = 1 }
    END {
      if (open) check(cur)
      if (!seen) { printf "%s: no line \"%s\"\n", FILENAME, head; errs++ }
      exit errs > 0
    }' "$1"
}

# osp_calls FILE NAME: the calls column of the function row(s) named NAME (one per line).
osp_calls ()
{
  awk -F '\t' -v n="$2" '$1 == "function" && $3 == n { print $6 }' "$1"
}

# osp_stat FILE NAME: the value of a stat row.
osp_stat ()
{
  awk -F '\t' -v n="$2" '$1 == "stat" && $2 == n { print $3 }' "$1"
}

# osp_shm_setup PROG: what the live-view safety tests share.  Skips (77) without a writable
# /dev/shm; sets SHM, U (the uid a segment's name carries), OSPVIEW (exit 99 if not built) and
# P, with $P.plain and $P.osp built from progs/PROG.c at -O2 (a build failure is the test's
# failure); bg_pids, the programs started in the background, are killed at exit.
osp_shm_setup ()
{
  SHM=/dev/shm
  U=$(id -u)
  OSPVIEW=$abs_top_builddir/viewer/ospview
  if [ ! -d "$SHM" ] || [ ! -w "$SHM" ]; then
    echo "SKIP: no writable $SHM"
    exit 77
  fi
  [ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }
  P=$W/prog
  osp_compile "$P.plain" plain_cc -O2 "$OSP_TESTSRC/progs/$1.c" -o "$P.plain" ||
    { osp_fail "plain build"; osp_done; }
  osp_compile "$P.osp" osp_cc -O2 "$OSP_TESTSRC/progs/$1.c" -o "$P.osp" ||
    { osp_fail "instrumented build"; osp_done; }
  bg_pids=
  trap osp_kill_bg EXIT
}

osp_kill_bg ()
{
  for osp_p in $bg_pids; do kill -9 "$osp_p" 2> /dev/null; done
}

# ---- ospview's terminal UI in tmux (viewer-tmux.sh, viewer-diff.sh, viewer-recent.sh) --------
# The test sets TM to its tmux command (its own server: tmux -L NAME -f /dev/null) and runs
# ospview in the session `v'.

# cap NAME: the screen into $W/NAME.txt.
cap ()
{
  $TM capture-pane -p -t v > "$W/$1.txt" 2> /dev/null
}

# shows NAME REGEX: capture into NAME; a line matches REGEX.
shows ()
{
  cap "$1" && grep -q -E -e "$2" "$W/$1.txt"
}

# wait_for NAME REGEX [SECONDS]: capture into NAME until a line matches REGEX (default 20 s,
# scaled); else a failure naming it, with the last screen.
wait_for ()
{
  osp_wait_until "${3:-20}" shows "$1" "$2" && return 0
  osp_fail "UI $1: the screen never showed /$2/"
  osp_show "$W/$1.txt" "screen $1"
  return 1
}

# keys KEY...: send keys (tmux names: Tab, Enter, Escape, ...).
keys ()
{
  $TM send-keys -t v "$@"
}

# osp_merge OUT IN...: ospview $MERGE_FLAGS --merge of IN... into OUT; its stdout in OUT.out,
# stderr in OUT.err, status in $rc.
osp_merge ()
{
  out=$1
  # shellcheck disable=SC2086
  "$OSPVIEW" $MERGE_FLAGS --merge "$@" > "$out.out" 2> "$out.err"
  rc=$?
}

# osp_merge_refused LABEL WANT OUT IN...: a merge that must be refused: status 1, one stderr line
# containing WANT, no OUT written.
osp_merge_refused ()
{
  label=$1
  want=$2
  shift 2
  osp_merge "$@"
  if [ "$rc" -ne 1 ] || [ "$(wc -l < "$1.err")" -ne 1 ] || ! grep -q -F -e "$want" "$1.err" ||
     [ -e "$1" ]; then
    osp_fail "$label: status $rc (want 1), stderr '$(cat "$1.err")' (want one line with '$want')"
  fi
}

# SPDX-License-Identifier: GPL-3.0-or-later
# tests/oracle-compare.awk - compare an osp exit report (tsv) with gcov's output for the same
# program.  Usage:
#   awk -F '\t' -v src=prog.c -v skip=NAME,NAME -v extra=REGEX -f oracle-compare.awk GCOV_OUTPUT REPORT
# GCOV_OUTPUT is `gcov -b -t` of the plain -fprofile-arcs -ftest-coverage build.
# Checks:
#   - every function gcov names ("function NAME called N returned ...") has exactly one
#     function row in the report for the file SRC, with calls == N; and the report has no
#     function of SRC that gcov does not name.  Names in SKIP are not compared (gcov's own count
#     is known to be wrong for them, e.g. functions with computed goto); names matching EXTRA
#     may be in the report without being in gcov's output (gcov does not list OpenMP bodies).
#   - line counts, where unambiguous: a line L is compared when exactly one block row of SRC
#     with a non-zero count covers L (line_first..line_last) and that block is on L alone
#     (line_first == line_last == L), and gcov has a count for L.  (gcov's line count is the
#     number of entries into the line's blocks from other lines, which for one executed block
#     is that block's count; blocks with count 0 do not change it.)
# Prints one line per mismatch and a summary; exits 1 on any mismatch or when nothing was
# compared.

function base(p) { sub(/.*\//, "", p); return p }
function bad(msg) { print "MISMATCH: " msg; errs++ }

BEGIN {
  n = split(skip, s, ",")
  for (i = 1; i <= n; i++) if (s[i] != "") skipped[s[i]] = 1
}

# --- first file: gcov text (split on whitespace by hand) ---
FNR == NR {
  if ($0 ~ /^function [^ ]+ called [0-9]+ /) {
    split($0, w, " ")
    gcalls[w[2]] = w[4]
    next
  }
  # "        5:   12:source" ; count may be "-", "#####", "=====", "%%%%%", or end in "*"
  if (match($0, /^ *[^ :]+: *[0-9]+:/)) {
    head = substr($0, 1, RLENGTH)
    split(head, w, ":")
    c = w[1]; gsub(/ /, "", c); ln = w[2] + 0
    if (ln == 0 || c == "-") next
    sub(/\*$/, "", c)
    if (c ~ /^[#=%]+$/) c = 0
    if (c ~ /^[0-9]+$/) gline[ln] = c + 0
  }
  next
}

# --- second file: the osp report ---
$1 == "function" {
  if (base($4) != src) next
  if ($3 in ocalls) bad("function " $3 ": more than one function row for " src)
  ocalls[$3] = $6
  fid_of_src[$2] = 1
  next
}
$1 == "block" {
  if (base($5) != src || $8 == "-" || $8 == 0) next
  lo = $6 + 0; hi = $7 + 0
  if (lo == 0) lo = hi
  if (hi == 0) hi = lo
  if (lo == 0) next
  if (lo > hi) { t = lo; lo = hi; hi = t }
  for (l = lo; l <= hi; l++) cover[l]++
  if (lo == hi) { single[lo] = $8; sfun[lo] = $4 }
  next
}

END {
  # gcov names a nested function by its assembler name (outer's "inner.N"); the report may use
  # "inner" or "inner.N".  Match exactly first, then without the ".N".
  for (f in gcalls) {
    if (f in skipped) continue
    o = f
    if (!(o in ocalls)) { o = f; sub(/\.[0-9]+$/, "", o) }
    if (!(o in ocalls)) { bad("function " f ": gcov says called " gcalls[f] ", the report has no row"); continue }
    matched[o] = 1
    if (ocalls[o] != gcalls[f]) bad("function " f ": gcov says called " gcalls[f] ", the report says " ocalls[o])
    else nf++
  }
  for (f in ocalls) {
    g = f; sub(/\.[0-9]+$/, "", g)
    if (!(f in matched) && !(f in skipped) && !(g in skipped) && !(extra != "" && f ~ extra))
      bad("function " f ": in the report (calls " ocalls[f] ") but not in gcov's output")
  }
  for (l in single) {
    if (cover[l] != 1 || !(l in gline)) continue
    if (single[l] != gline[l]) bad("line " l " (" sfun[l] "): gcov count " gline[l] ", block count " single[l])
    else nl++
  }
  printf "compared %d function call counts and %d line counts\n", nf, nl
  if (nf == 0) bad("no function call count was compared")
  if (nl == 0) bad("no line count was compared")
  exit errs ? 1 : 0
}

#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/quiet-default.sh - quiet by default, rich on request (issue 35 item 3; doc/osp.md, "The
# profile file").
#
# progs/quiet-default.c is built the one-flag way (gcc -specs=osp-uninstalled.specs) in a
# scratch directory and run there without OSP_OPTIONS:
#   1. stdout and the exit status are the plain build's; stderr is the program's own line and
#      exactly one line of osp's naming quiet.ospsnap and how to open it; the file is there, mode
#      0600 (under umask 022), and `ospview FILE -b 1 --screen=paths' run from another directory
#      shows the program's source text (the HOT line).
#   2. A chdir before exit does not move the file; a fork child (exit () too) writes no second
#      file and no second line; with snapshot=%e.%p.ospsnap parent and child write one each.
#   3. report=none: no line at all, the file still written.  report=stderr: a text report whose
#      lines fit 100 columns, with grouped digits, and with report_top=2 a line saying how many
#      rows are left out and how to see them.
#   4. A start-up directory where nothing can be created (/proc): one line saying so, stdout and
#      exit status unchanged.
#   5. As root with setpriv: the program made setuid root, run by nobody without OSP_OPTIONS
#      from a directory everyone may write, writes no file and prints nothing of osp's.
. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup quiet-default
osp_need_build
SPECS=$abs_top_builddir/osp-uninstalled.specs
OSPVIEW=$abs_top_builddir/viewer/ospview
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }
[ -f "$SPECS" ] || { echo "error: $SPECS does not exist (make builds it)"; exit 99; }

S=$W/scratch
mkdir "$S" "$W/elsewhere" || exit 99
cp "$OSP_TESTSRC/progs/quiet-default.c" "$S/" || exit 99
( cd "$S" && osp_compile "$W/build" $CC -specs="$SPECS" -O1 -g quiet-default.c -o quiet-default ) ||
  { echo "error: the one-flag build failed"; exit 99; }
osp_compile "$W/plain" plain_cc -O1 "$S/quiet-default.c" -o "$W/plain" || exit 99
( cd "$W" && ./plain 200000 > plain.out 2> plain.err ); prc=$?
[ "$prc" -eq 3 ] || { echo "error: the plain build exits with $prc"; exit 99; }
( cd "$W" && ./plain 1000 > plain1000.out 2> /dev/null )

LINE='osp: profile in quiet-default.ospsnap (view: ospview quiet-default.ospsnap; no line: OSP_OPTIONS=report=none)'

# run BASE DIR OPTIONS ARGS...: quiet-default run from DIR (OPTIONS "-": OSP_OPTIONS unset).
run ()
{
  rb=$1 rd=$2 ro=$3
  shift 3
  if [ "$ro" = - ]; then
    (cd "$rd" && umask 022 && env -u OSP_OPTIONS timeout "$OSP_TIMEOUT" "$S/quiet-default" "$@") \
      > "$rb.out" 2> "$rb.err" < /dev/null
  else
    (cd "$rd" && umask 022 && OSP_OPTIONS=$ro timeout "$OSP_TIMEOUT" "$S/quiet-default" "$@") \
      > "$rb.out" 2> "$rb.err" < /dev/null
  fi
  rrc=$?
  [ "$rrc" -eq 3 ] || osp_fail "$rb: exit status $rrc, plain 3"
}

# snaps DIR: the snapshot files in DIR, one a line.
snaps ()
{
  (cd "$1" && ls -1 -- *.ospsnap 2> /dev/null)
}

# --- 1. the default -------------------------------------------------------------------------------
run "$W/d" "$S" - 200000
osp_same "default: stdout" "$W/plain.out" "$W/d.out"
printf 'quiet-default: its own line\n%s\n' "$LINE" > "$W/d.want"
osp_same "default: stderr (its own line, then osp's one)" "$W/d.want" "$W/d.err"
[ "$(snaps "$S")" = quiet-default.ospsnap ] || osp_fail "default: snapshots in $S: $(snaps "$S")"
mode=$(stat -c %a "$S/quiet-default.ospsnap" 2> /dev/null)
[ "$mode" = 600 ] || osp_fail "default: quiet-default.ospsnap has mode '$mode', not 600"
hot=$(grep '/\* HOT \*/' "$S/quiet-default.c" | sed 's/^ *//')
(cd "$W/elsewhere" && "$OSPVIEW" ../scratch/quiet-default.ospsnap -b 1 --screen=paths) \
  > "$W/view.out" 2> "$W/view.err" || osp_fail "ospview -b 1 --screen=paths: exit status $?"
if ! grep -qF "$hot" "$W/view.out"; then
  osp_fail "ospview from another directory does not show the source text '$hot'"
  osp_show "$W/view.out" "ospview -b 1 --screen=paths"
fi
echo "ok? default: $(tail -n 1 "$W/d.err")"

# --- 2. chdir, fork ---------------------------------------------------------------------------------
rm -f "$S"/*.ospsnap
run "$W/cd" "$S" - 1000 chdir /
osp_same "chdir: stderr" "$W/d.want" "$W/cd.err"
[ "$(snaps "$S")" = quiet-default.ospsnap ] || osp_fail "chdir: snapshots in $S: '$(snaps "$S")'"
[ -e /quiet-default.ospsnap ] && { osp_fail "chdir: the snapshot went to /"; rm -f /quiet-default.ospsnap; }

rm -f "$S"/*.ospsnap
run "$W/f" "$S" - 1000 fork
[ "$(grep -c '^osp: ' "$W/f.err")" = 1 ] || { osp_fail "fork: not one osp line"; osp_show "$W/f.err"; }
grep -q '^child ' "$W/f.out" || osp_fail "fork: the child printed nothing"
[ "$(snaps "$S")" = quiet-default.ospsnap ] || osp_fail "fork: snapshots in $S: '$(snaps "$S")'"

rm -f "$S"/*.ospsnap
run "$W/fp" "$S" 'snapshot=%e.%p.ospsnap:report=none' 1000 fork
[ "$(snaps "$S" | grep -c '^quiet-default\.[0-9]*\.ospsnap$')" = 2 ] ||
  osp_fail "fork, snapshot=%e.%p.ospsnap: want two files, have '$(snaps "$S")'"
grep -q '^osp' "$W/fp.err" && osp_fail "fork, report=none: osp wrote to stderr"

# --- 3. report=none, report=stderr ----------------------------------------------------------------
rm -f "$S"/*.ospsnap
run "$W/n" "$S" report=none 1000
printf 'quiet-default: its own line\n' > "$W/n.want"
osp_same "report=none: stderr (its own line only)" "$W/n.want" "$W/n.err"
[ -s "$S/quiet-default.ospsnap" ] || osp_fail "report=none: no snapshot written"

rm -f "$S"/*.ospsnap
run "$W/r" "$S" report=stderr:snapshot=none 2000000
grep -q '^osp report: mode=subpaths' "$W/r.err" || { osp_fail "report=stderr: no report"; osp_show "$W/r.err"; }
[ -z "$(snaps "$S")" ] || osp_fail "snapshot=none: a snapshot was written: $(snaps "$S")"
wide=$(awk 'length($0) > 100' "$W/r.err" | wc -l)
[ "$wide" -eq 0 ] || { osp_fail "report=stderr: $wide lines wider than 100 columns"; awk 'length($0) > 100' "$W/r.err" | head -n 5; }
grep -qE '[0-9],[0-9]{3},[0-9]{3}' "$W/r.err" || osp_fail "report=stderr: no number of millions grouped (1,234,567)"
# (pid=N and seed=N are values to paste back, file:LINE a place: not grouped)
grep -qE '(^|[^0-9.,=:])[0-9]{5,}' "$W/r.err" && { osp_fail "report=stderr: an ungrouped number of 5 digits or more"; grep -nE '(^|[^0-9.,=:])[0-9]{5,}' "$W/r.err" | head -n 5; }
run "$W/t" "$S" report=stderr:snapshot=none:report_top=2 2000000
grep -qE '^ *\(?[0-9,]+ more rows?: report_top=[0-9]+ shows them' "$W/t.err" ||
  { osp_fail "report_top=2: no line saying how to see the rows left out"; osp_show "$W/t.err"; }
run "$W/tsv" "$S" report=stderr:snapshot=none:report_format=tsv 2000000
grep -qE '	[0-9]+,[0-9]{3}' "$W/tsv.err" && osp_fail "report_format=tsv: grouped digits in a machine format"

# --- 4. nowhere to write ----------------------------------------------------------------------------
run "$W/ro" /proc - 1000
osp_same "read-only start-up directory: stdout" "$W/plain1000.out" "$W/ro.out"
if [ "$(wc -l < "$W/ro.err")" -ne 2 ] || ! grep -q '^osp: cannot write the snapshot /proc/quiet-default.ospsnap: ' "$W/ro.err"; then
  osp_fail "read-only start-up directory: want its own line and one line saying the snapshot failed"
  osp_show "$W/ro.err"
fi

# --- 5. setuid ----------------------------------------------------------------------------------------
nob_uid=$(id -u nobody 2>/dev/null)
nob_gid=$(id -g nobody 2>/dev/null)
if [ "$(id -u)" != 0 ] || ! command -v setpriv > /dev/null 2>&1 || [ -z "$nob_uid" ]; then
  echo "note: not root, or no setpriv or user nobody: the setuid part is skipped"
else
  P=$(mktemp -d /tmp/osp-quiet-XXXXXX) || exit 99
  chmod 755 "$P" && mkdir "$P/pub" && chmod 1777 "$P/pub"
  cp "$S/quiet-default" "$P/setuid" && chown 0:0 "$P/setuid" && chmod 4755 "$P/setuid"
  (cd "$P/pub" && env -u OSP_OPTIONS timeout "$OSP_TIMEOUT" \
     setpriv --reuid="$nob_uid" --regid="$nob_gid" --clear-groups "$P/setuid" 1000) \
    > "$W/su.out" 2> "$W/su.err" < /dev/null
  src=$?
  if [ "$src" -ne 3 ]; then
    echo "note: nobody cannot run $P/setuid (status $src; $OSP_RTDIR out of reach or nosuid?):"
    echo "      the setuid part is skipped"
  else
    osp_same "setuid: stderr (its own line only)" "$W/n.want" "$W/su.err"
    [ -z "$(ls -A "$P/pub")" ] || osp_fail "setuid: files written: $(ls -A "$P/pub")"
    echo "ok? setuid run by nobody: no file, no line"
  fi
  rm -rf "$P"
fi
osp_done

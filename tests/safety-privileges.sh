#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/safety-privileges.sh - doc/osp.md, "Privileges and the files osp writes".
#
#   1. A privileged process (AT_SECURE) ignores OSP_OPTIONS: progs/safety-work.c built with osp
#      and made setuid root, setgid root, or given a file capability, run by the user nobody with
#      OSP_OPTIONS naming a report and a snapshot in a directory everyone may write (and one only
#      root may), creates no file, prints what the plain build prints, and writes nothing on
#      stderr (no exit report goes to the unprivileged caller); with verbose=1 in OSP_OPTIONS,
#      exactly one notice line.  Needs root (to make the programs) and setpriv; without them
#      this part is skipped with a note, the rest still runs.
#   2. Files osp writes get mode 0600 whatever the umask: the report= file and the snapshot=
#      file under umask 000, and ospview --merge's output; file_mode=0644 gives 0644 even under
#      umask 077; a bad file_mode is one line naming it.
#   3. A symbolic link owned by another user where the report or the snapshot goes (a /tmp trap
#      for a process run by root) is refused with one line each; the link and its target stay
#      as they were.  Needs root (to make a link owned by nobody).
#   4. A destination that is not a regular file is the user's, written into and never replaced:
#      report= and snapshot= naming a FIFO (read by cat) deliver the report and the snapshot
#      through it and leave it a FIFO; a FIFO nobody reads is one line, no hang; as root, a null
#      device node made with mknod (as /dev/null: a rename over it once turned the machine's
#      /dev/null into a regular file) stays a character device.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup safety-privileges
osp_need_build
src=$OSP_TESTSRC/progs/safety-work.c
OSPVIEW=$abs_top_builddir/viewer/ospview

osp_compile "$W/plain" plain_cc -O1 "$src" -o "$W/plain" || { osp_fail "plain build"; osp_done; }
osp_compile "$W/prog" osp_cc -O1 "$src" -o "$W/prog" || { osp_fail "instrumented build"; osp_done; }
osp_exec "$W/plain" "$W/plain"
[ "$osp_rc" -eq 0 ] || { osp_fail "the plain build exits with $osp_rc"; osp_done; }

root=no
[ "$(id -u)" = 0 ] && root=yes

# --- 1. privileged processes ----------------------------------------------------------------------
# nobody's uid and gid; setpriv runs a command as them.
nob_uid=$(id -u nobody 2>/dev/null)
nob_gid=$(id -g nobody 2>/dev/null)
# as_nobody BASE OPTIONS PROG: run PROG as nobody with OSP_OPTIONS=OPTIONS (unset if OPTIONS is
# "-"), stdout in BASE.out, stderr in BASE.err, status in $osp_rc.
as_nobody ()
{
  if [ "$2" = - ]; then
    env -u OSP_OPTIONS timeout "$OSP_TIMEOUT" \
      setpriv --reuid="$nob_uid" --regid="$nob_gid" --clear-groups "$3" \
      > "$1.out" 2> "$1.err" < /dev/null
  else
    OSP_OPTIONS=$2 timeout "$OSP_TIMEOUT" \
      setpriv --reuid="$nob_uid" --regid="$nob_gid" --clear-groups "$3" \
      > "$1.out" 2> "$1.err" < /dev/null
  fi
  osp_rc=$?
}

# privileged KIND PROG: the checks of part 1 on PROG (already made privileged).
privileged ()
{
  kind=$1
  prog=$2
  rm -rf "$W/pub" "$W/rootonly"
  mkdir "$W/pub" "$W/rootonly" && chmod 1777 "$W/pub" && chmod 700 "$W/rootonly" ||
    { osp_fail "$kind: cannot make the directories"; return; }
  for target in pub rootonly; do
    t=$W/$target
    opts="report=$t/report-%p.txt:snapshot=$t/snap-%p.ospsnap:report_signal=USR1"
    as_nobody "$W/$kind-$target" "$opts" "$prog"
    [ "$osp_rc" -eq 0 ] || osp_fail "$kind, $target: exit status $osp_rc"
    osp_same "$kind, $target: output" "$W/plain.out" "$W/$kind-$target.out"
    if [ -s "$W/$kind-$target.err" ]; then
      osp_fail "$kind, $target: something on stderr"
      osp_show "$W/$kind-$target.err" stderr
    fi
    if [ -n "$(ls -A "$t")" ]; then
      osp_fail "$kind, $target: OSP_OPTIONS made the privileged program write files:"
      ls -la "$t"
    fi
  done
  # No OSP_OPTIONS at all: the default exit report on stderr would show the caller the
  # privileged program's profile.
  as_nobody "$W/$kind-none" - "$prog"
  [ "$osp_rc" -eq 0 ] || osp_fail "$kind, no OSP_OPTIONS: exit status $osp_rc"
  osp_same "$kind, no OSP_OPTIONS: output" "$W/plain.out" "$W/$kind-none.out"
  if [ -s "$W/$kind-none.err" ]; then
    osp_fail "$kind, no OSP_OPTIONS: the caller got something on stderr (an exit report?)"
    osp_show "$W/$kind-none.err" stderr
  fi
  # verbose=1: one notice line, and still no file.
  as_nobody "$W/$kind-verbose" "report=$W/pub/r.txt:verbose=1" "$prog"
  osp_same "$kind, verbose=1: output" "$W/plain.out" "$W/$kind-verbose.out"
  if [ "$(wc -l < "$W/$kind-verbose.err")" -ne 1 ] ||
     ! grep -q '^osp: .*privileges.*OSP_OPTIONS ignored' "$W/$kind-verbose.err"; then
    osp_fail "$kind, verbose=1: want exactly the one notice line on stderr"
    osp_show "$W/$kind-verbose.err" stderr
  fi
  [ -e "$W/pub/r.txt" ] && osp_fail "$kind, verbose=1: the report file was written"
  echo "ok? $kind: $(cat "$W/$kind-verbose.err")"
}

if [ "$root" = no ]; then
  echo "note: not root: part 1 (setuid, setgid, capabilities) skipped"
elif ! command -v setpriv > /dev/null 2>&1 || [ -z "$nob_uid" ]; then
  echo "note: no setpriv or no user nobody: part 1 (setuid, setgid, capabilities) skipped"
else
  # The programs live in a directory nobody can reach (the build tree may not be).
  P=$(mktemp -d /tmp/osp-safety-XXXXXX) || { osp_fail "mktemp"; osp_done; }
  chmod 755 "$P"
  cp "$W/prog" "$P/setuid" && chown 0:0 "$P/setuid" && chmod 4755 "$P/setuid"
  cp "$W/prog" "$P/setgid" && chown 0:0 "$P/setgid" && chmod 2755 "$P/setgid"
  if ! setpriv --reuid="$nob_uid" --regid="$nob_gid" --clear-groups "$P/setuid" \
         > /dev/null 2>&1 < /dev/null; then
    echo "note: nobody cannot run $P/setuid (the runtime library's directory $OSP_RTDIR may be"
    echo "      out of its reach, or the file system is nosuid): part 1 skipped"
  else
    privileged setuid "$P/setuid"
    privileged setgid "$P/setgid"
    cp "$W/prog" "$P/caps" && chmod 755 "$P/caps"
    if command -v setcap > /dev/null 2>&1 && setcap cap_net_bind_service+ep "$P/caps" 2> /dev/null
    then
      privileged capabilities "$P/caps"
    else
      echo "note: setcap failed or is missing: the file-capabilities case is skipped"
    fi
  fi
  rm -rf "$P"
fi

# --- 2. file modes --------------------------------------------------------------------------------
mkdir "$W/modes"
# mode_of FILE: its permission bits in octal.
mode_of ()
{
  stat -c %a "$1" 2> /dev/null
}
(umask 000 && OSP_OPTIONS="report=$W/modes/r.txt:snapshot=$W/modes/s.ospsnap" \
   timeout "$OSP_TIMEOUT" "$W/prog" > "$W/modes.out" 2> "$W/modes.err" < /dev/null)
[ -s "$W/modes.err" ] && { osp_fail "umask 000: messages"; osp_show "$W/modes.err"; }
for f in r.txt s.ospsnap; do
  m=$(mode_of "$W/modes/$f")
  [ "$m" = 600 ] || osp_fail "umask 000: $f has mode '$m', want 600"
done
(umask 077 && OSP_OPTIONS="report=$W/modes/r2.txt:snapshot=$W/modes/s2.ospsnap:file_mode=0644" \
   timeout "$OSP_TIMEOUT" "$W/prog" > "$W/modes2.out" 2> "$W/modes2.err" < /dev/null)
[ -s "$W/modes2.err" ] && { osp_fail "file_mode=0644: messages"; osp_show "$W/modes2.err"; }
for f in r2.txt s2.ospsnap; do
  m=$(mode_of "$W/modes/$f")
  [ "$m" = 644 ] || osp_fail "file_mode=0644 under umask 077: $f has mode '$m', want 644"
done
# A file replaced keeps no mode of the old one: 0644 file, then a run without file_mode.
(umask 000 && OSP_OPTIONS="report=$W/modes/r2.txt" \
   timeout "$OSP_TIMEOUT" "$W/prog" > /dev/null 2>&1 < /dev/null)
m=$(mode_of "$W/modes/r2.txt")
[ "$m" = 600 ] || osp_fail "a report replacing a 0644 one has mode '$m', want 600"
for bad in 0755 abc 1644 07777 ""; do
  osp_exec_with "report=none:file_mode=$bad" "$W/badmode" "$W/prog"
  osp_same "file_mode=$bad: output" "$W/plain.out" "$W/badmode.out"
  if [ "$(wc -l < "$W/badmode.err")" -ne 1 ] || ! grep -q "'file_mode'" "$W/badmode.err"; then
    osp_fail "file_mode=$bad: want one line naming file_mode"
    osp_show "$W/badmode.err" stderr
  fi
done
# ospview --merge writes through the same code (snapfile.c).
if [ -x "$OSPVIEW" ]; then
  (umask 000 && "$OSPVIEW" --merge "$W/modes/merged.ospsnap" "$W/modes/s.ospsnap" \
     "$W/modes/s2.ospsnap" > "$W/merge.out" 2> "$W/merge.err" < /dev/null)
  m=$(mode_of "$W/modes/merged.ospsnap")
  [ "$m" = 600 ] || { osp_fail "ospview --merge under umask 000: mode '$m', want 600";
                      osp_show "$W/merge.err" "ospview's stderr"; }
else
  osp_fail "$OSPVIEW was not built"
fi

# --- 3. symbolic links of another user ------------------------------------------------------------
if [ "$root" = yes ] && [ -n "$nob_uid" ]; then
  mkdir "$W/sticky" && chmod 1777 "$W/sticky"
  echo "not yours" > "$W/target"
  ln -s "$W/target" "$W/sticky/r.txt" && chown -h "$nob_uid" "$W/sticky/r.txt"
  ln -s "$W/target" "$W/sticky/s.ospsnap" && chown -h "$nob_uid" "$W/sticky/s.ospsnap"
  osp_exec_with "report=$W/sticky/r.txt:snapshot=$W/sticky/s.ospsnap" "$W/link" "$W/prog"
  [ "$osp_rc" -eq 0 ] || osp_fail "foreign symlink: exit status $osp_rc"
  osp_same "foreign symlink: output" "$W/plain.out" "$W/link.out"
  for f in r.txt s.ospsnap; do
    [ -L "$W/sticky/$f" ] || osp_fail "foreign symlink: $f was replaced"
  done
  [ "$(cat "$W/target")" = "not yours" ] || osp_fail "foreign symlink: its target was written"
  if [ "$(wc -l < "$W/link.err")" -ne 2 ] ||
     [ "$(grep -c 'symbolic link owned by another user' "$W/link.err")" -ne 2 ]; then
    osp_fail "foreign symlink: want one line for the report and one for the snapshot"
    osp_show "$W/link.err" stderr
  fi
  echo "ok? $(head -n 1 "$W/link.err")"
else
  echo "note: not root: part 3 (a symbolic link of another user) skipped"
fi

# --- 4. devices and FIFOs are written into, not replaced -------------------------------------------
mkfifo "$W/fifo" "$W/fifo2" "$W/lonely"
# read_fifo FIFO OUT: a reader that gives up (osp replacing a FIFO by a file would leave it
# waiting for a writer forever), started before the program and waited for until it is blocked
# opening FIFO (/proc/PID/syscall: openat or open): osp opens a FIFO without waiting, so a
# reader still starting when the program exits is a reader missing (on a loaded machine the
# report once went to a FIFO nobody had opened yet).
read_fifo ()
{
  cat "$1" > "$2" &
  rf_pid=$!
  readers="$readers $rf_pid"
  (sleep "$(osp_seconds 60)"; kill "$rf_pid" 2> /dev/null) &
  watchdogs="$watchdogs $!"
  rf_n=0
  until grep -q -E '^(257|2) ' "/proc/$rf_pid/syscall" 2> /dev/null; do
    rf_n=$((rf_n + 1))
    [ "$rf_n" -lt 1000 ] || { echo "note: the reader of $1 never blocked in open"; break; }
    sleep 0.01
  done
}
readers= watchdogs=
read_fifo "$W/fifo" "$W/fifo.got"
read_fifo "$W/fifo2" "$W/fifo2.got"
osp_exec_with "report=$W/fifo:snapshot=$W/fifo2" "$W/viafifo" "$W/prog"
wait $readers
kill $watchdogs 2> /dev/null
[ "$osp_rc" -eq 0 ] || osp_fail "FIFO: exit status $osp_rc"
osp_same "FIFO: output" "$W/plain.out" "$W/viafifo.out"
for f in fifo fifo2; do
  [ -p "$W/$f" ] || osp_fail "FIFO: $f was replaced by a file"
done
grep -q '^osp' "$W/fifo.got" || { osp_fail "FIFO: no report came through it"; osp_show "$W/fifo.got" got; }
[ -s "$W/fifo2.got" ] || osp_fail "FIFO: no snapshot came through it"
osp_exec_with "report=$W/lonely" "$W/lonely" "$W/prog"
[ "$osp_rc" -eq 0 ] || osp_fail "FIFO without a reader: exit status $osp_rc"
[ -p "$W/lonely" ] || osp_fail "FIFO without a reader: replaced by a file"
[ "$(wc -l < "$W/lonely.err")" -eq 1 ] ||
  { osp_fail "FIFO without a reader: want one line"; osp_show "$W/lonely.err" stderr; }
if [ "$root" = yes ] && mknod -m 666 "$W/null" c 1 3 2>/dev/null; then
  osp_exec_with "report=$W/null:snapshot=$W/null" "$W/dev" "$W/prog"
  [ "$osp_rc" -eq 0 ] || osp_fail "null device: exit status $osp_rc"
  if [ -c "$W/null" ]; then echo "ok: a null device node stays a character device"
  else osp_fail "null device: replaced by a regular file"; fi
  [ -s "$W/dev.err" ] && { osp_fail "null device: something on stderr"; osp_show "$W/dev.err" stderr; }
else
  echo "note: not root or no mknod: the null device part of 4 skipped"
fi

osp_done

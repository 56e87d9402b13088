#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/safety-address-space.sh - the runtime never takes the address space the program needs
# (doc/osp.md, Safety: "Stack and address space"; libosprt/base/arena.c's budget).
#
# tests/progs/vm-threads.c creates a few threads with default stacks.  The smallest
# `ulimit -v' its plain build runs under is found by bisection; under that limit + 8 MB the
# instrumented build (default options: paths, forest, publishing) must print exactly what the
# plain build prints and exit 0.  Before the budget it needed ~26 MB more: a 4 MB path table,
# 12 MB of publish buffers, an 8 MB stack for the publisher thread and a 2 MB forest stream per
# thread, all of which count against RLIMIT_AS even when untouched, so the program's own
# pthread_create failed with EAGAIN.  Whatever the runtime could not have is one line each on
# stderr; the profile report must still come.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup safety-address-space
osp_need_build
src=$OSP_TESTSRC/progs/vm-threads.c

# Thread stacks default to RLIMIT_STACK: fix it, so the figures do not depend on the caller's.
ulimit -s 8192 2> /dev/null || { echo "SKIP: cannot set ulimit -s 8192"; exit 77; }
[ "$(ulimit -v)" = unlimited ] || { echo "SKIP: ulimit -v is already set"; exit 77; }

osp_compile "$W/plain" plain_cc -O2 "$src" -o "$W/plain" || { osp_fail "plain build"; osp_done; }
osp_compile "$W/osp" osp_cc -O2 $CHECKFLAGS "$src" -o "$W/osp" || { osp_fail "instrumented build"; osp_done; }
osp_exec "$W/ref" "$W/plain"
[ "$osp_rc" = 0 ] || { osp_fail "plain build: exit status $osp_rc"; osp_done; }

# runs_under KB PROG: does PROG exit 0 under ulimit -v KB?
runs_under ()
{
  (ulimit -v "$1" && timeout "$OSP_TIMEOUT" "$2" > /dev/null 2>&1 < /dev/null)
}
lo=1024 hi=1048576
runs_under $hi "$W/plain" || { osp_fail "the plain build does not run under ulimit -v $hi"; osp_done; }
while [ $((hi - lo)) -gt 256 ]; do
  mid=$(((lo + hi) / 2))
  if runs_under $mid "$W/plain"; then hi=$mid; else lo=$mid; fi
done
limit=$((hi + 8192))
echo "plain build runs under ulimit -v $hi KB; instrumented run under $limit KB"

(ulimit -v $limit && OSP_OPTIONS=report=$W/report.txt timeout "$OSP_TIMEOUT" "$W/osp" \
   > "$W/run.out" 2> "$W/run.err" < /dev/null)
rc=$?
[ "$rc" = 0 ] || { osp_fail "instrumented build under ulimit -v $limit: exit status $rc"; osp_show "$W/run.out"; osp_show "$W/run.err"; }
osp_same "stdout under ulimit -v $limit" "$W/ref.out" "$W/run.out"
grep -q '^osp report' "$W/report.txt" 2> /dev/null || { osp_fail "no profile report under ulimit -v $limit"; osp_show "$W/run.err"; }
echo "runtime messages under the limit:"
grep '^osp:' "$W/run.err"
osp_done

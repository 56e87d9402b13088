#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/commit-subjects.sh - doc/HACKING.md, "Commits".
#
# Every commit since the rule was adopted (dbe45b2, 2026-11-26) has a subject of at most 72
# characters in the form `area: what changed' (areas are paths or names, several joined by
# ", "); merge commits are exempt.  The why and the figures belong in the body.  The checker
# first proves it catches both faults on two made-up subjects.  A tree that is not a git
# clone (a release tarball) or a shallow clone has no history to check: skipped.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup commit-subjects
top=$OSP_TESTSRC/..
since=dbe45b2

# check FILE: FILE holds `HASH SUBJECT' lines; print one line per subject that breaks the rule.
check ()
{
  awk '{ h = $1; s = substr($0, length(h) + 2)
         if (length(s) > 72)
           printf "%s: %d characters (at most 72): %s\n", h, length(s), s
         else if (s !~ /^[A-Za-z0-9_.\/+*{}-]+(, ?[A-Za-z0-9_.\/+*{}-]+)*: ./)
           printf "%s: not in the form `area: what changed'"'"': %s\n", h, s }' "$1"
}

printf 'abc1234 libosprt: %070d\nabc1235 no area here\nabc1236 tests/x.sh, doc: fine\n' 0 \
  >"$W/made-up"
n=$(check "$W/made-up" | wc -l)
[ "$n" -eq 2 ] || osp_fail "the checker flagged $n of the 2 bad made-up subjects"

skip () { echo "SKIP: $*"; exit 77; }
command -v git >/dev/null 2>&1 || skip "git is not installed"
git -C "$top" rev-parse --git-dir >/dev/null 2>&1 || skip "not a git clone: no history"
git -C "$top" cat-file -e "$since^{commit}" 2>/dev/null ||
  skip "the history does not reach $since (a shallow clone?)"

git -C "$top" log --no-merges --format='%h %s' "$since..HEAD" >"$W/subjects" || exit 99
check "$W/subjects" >"$W/bad"
if [ -s "$W/bad" ]; then
  cat "$W/bad"
  osp_fail "$(wc -l <"$W/bad") commit subject(s) break the rule (doc/HACKING.md, Commits)"
fi
echo "$(wc -l <"$W/subjects") subjects since $since checked"
osp_done

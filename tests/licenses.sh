#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/licenses.sh - LICENSE: every file of the tree names its license.
#
# Each file git tracks carries an `SPDX-License-Identifier:' line, or is listed in REUSE.toml
# (files that cannot carry one), or is a license text under LICENSES/.  The runtime's files
# (libosprt/, include/osp/) are MIT, since every profiled program links them; the plugin's
# are GPL-3.0-or-later, since it links GCC.  Skipped outside a git clone.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup licenses
top=$OSP_TESTSRC/..
command -v git >/dev/null 2>&1 && git -C "$top" rev-parse --git-dir >/dev/null 2>&1 ||
  { echo "SKIP: not a git clone"; exit 77; }

git -C "$top" ls-files >"$W/files" || exit 99
while read -r f; do
  case $f in LICENSES/*) continue ;; esac
  grep -q -F "\"$f\"" "$top/REUSE.toml" && continue
  if ! grep -q 'SPDX-License-Identifier: ' "$top/$f"; then
    osp_fail "$f: no SPDX-License-Identifier line (nor listed in REUSE.toml)"
    continue
  fi
  case $f in
    libosprt/*|include/osp/*) want=MIT ;;
    plugin/*) want=GPL-3.0-or-later ;;
    *) continue ;;
  esac
  grep -q "SPDX-License-Identifier: $want\b" "$top/$f" || osp_fail "$f: not $want (LICENSE)"
done <"$W/files"
echo "$(wc -l <"$W/files") files checked"
osp_done

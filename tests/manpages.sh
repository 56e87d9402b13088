#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/manpages.sh - the manual pages render cleanly and ospview(1) says what ospview does.
#
#   1. doc/osp.7 and doc/ospview.1 render with `groff -ww -man' without a warning (what
#      `man -l' would show), when groff is installed;
#   2. the KEYS section of ospview.1 names, in order, exactly the entries of viewer/keys.c's key
#      table as `ospview --keys' prints them (the help overlay prints the same table), so a key
#      added, renamed or removed there fails here until the page follows;
#   3. every option `ospview --help' lists (-x and --long) appears in ospview.1.

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup manpages
DOC=$OSP_TESTSRC/../doc
OSPVIEW=$abs_top_builddir/viewer/ospview
[ -x "$OSPVIEW" ] || { echo "error: $OSPVIEW was not built"; exit 99; }

# 1. rendering
if command -v groff >/dev/null 2>&1; then
  for page in osp.7 ospview.1; do
    if ! groff -ww -man -z "$DOC/$page" > "$W/$page.warn" 2>&1 || [ -s "$W/$page.warn" ]; then
      osp_fail "$page: groff -ww -man warns"
      osp_show "$W/$page.warn" "$page: groff"
    else
      echo "ok: $page renders without warnings"
    fi
  done
else
  echo "note: no groff (Debian: groff-base); rendering not checked"
fi

# The page's source with troff's \- as -, the form ospview prints.
sed 's/\\-/-/g' "$DOC/ospview.1" > "$W/page"

# 2. keys: the `.B NAME' line after each `.TP' of the KEYS section
"$OSPVIEW" --keys > "$W/keys.txt" || { osp_fail "ospview --keys failed"; osp_done; }
cut -c1-12 "$W/keys.txt" | sed 's/ *$//' > "$W/keys.want"
awk '/^\.SH/ { keys = ($2 == "KEYS"); next }
     keys && /^\.TP/ { tp = 1; next }
     keys && tp { tp = 0; sub(/^\.B /, ""); print }' "$W/page" > "$W/keys.page"
if [ ! -s "$W/keys.want" ]; then
  osp_fail "ospview --keys printed no keys"
elif ! cmp -s "$W/keys.want" "$W/keys.page"; then
  osp_fail "ospview.1's KEYS differ from ospview --keys (viewer/keys.c); < keys.c, > page:"
  diff "$W/keys.want" "$W/keys.page"
else
  echo "ok: ospview.1 lists the $(wc -l < "$W/keys.want") entries of the key table, in order"
fi

# 3. options
"$OSPVIEW" --help > "$W/help.txt" || { osp_fail "ospview --help failed"; osp_done; }
# the option lines: "  -b, --batch N  ..." and "      --json  ..."
sed -n 's/^  \(-[a-zA-Z]\), \(--[a-z][a-z-]*\).*/\1\n\2/p; s/^      \(--[a-z][a-z-]*\).*/\1/p' \
  "$W/help.txt" | sort -u > "$W/options"
n=0
while read -r opt; do
  n=$((n + 1))
  grep -q -e "$opt\\b" "$W/page" || osp_fail "ospview --help lists $opt; ospview.1 does not"
done < "$W/options"
[ "$n" -gt 10 ] || osp_fail "only $n options found in ospview --help"
echo "ok: checked $n options of ospview --help"
osp_done

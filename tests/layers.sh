#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/layers.sh - libosprt's include direction (doc/HACKING.md, "Layers of libosprt"):
# every #include "..." of a runtime source names a header of its own layer or of one below,
# never the tests' umbrella osprt.h; every source of libosprt/ belongs to a layer.
#
#   sh tests/layers.sh              make check: the tree's libosprt/, then the proof that the
#                                   check fails: a copy with one upward include injected
#   sh tests/layers.sh --tree DIR   check DIR (a libosprt/ directory) only: one line per
#                                   violation, exit 1 if any
#
# The layers, bottom up (a file may include its own layer and those below):
#   0 base      libosprt/base/; and libosprt/format/, the view format library that ospview
#               and the tests link too, and sha256.c (the plugin's and ospview's), which
#               include nothing of the runtime
#   1 model     libosprt/model/
#   2 collect   libosprt/collect/
#   3 profile   libosprt/profile/
#   4 output    libosprt/output/
#   5 runtime   runtime.c, runtime.h, trampoline.S (start-up, exit, the ABI entry points)
#   6 reader    libosprt/format/viewparse.[ch], viewbuild.[ch], errmsg.[ch]: the view and
#               snapshot reader, the view builder and their messages, a library of their own
#               (libospformat-read.la) that ospview and the unit tests link and libosprt.so
#               does not, so no runtime file may include them (it would link, then fail to load)
# Public headers (include/osp/, "osp/...") and system headers may be included anywhere.

# The allowed exceptions, one per line: FILE (relative to libosprt/) and the header it may
# include although it is above; each is explained in doc/HACKING.md ("Exceptions").  None now.
exceptions=''

layers_check ()
{
  dir=$1
  [ -d "$dir" ] || { echo "layers.sh: no directory $dir"; return 2; }
  (cd "$dir" && find . -path ./tests -prune -o -type f \( -name '*.c' -o -name '*.h' -o -name '*.S' \) -print) \
    | sed 's|^\./||' | LC_ALL=C sort | while read -r f; do
      # Every #include "X" with its line number.
      grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$dir/$f" \
        | sed 's|^\([0-9]*\):.*include[[:space:]]*"\([^"]*\)".*|\1 \2|' \
        | while read -r line inc; do
            echo "$f $line $inc"
          done
      echo "$f 0 -"
    done | awk -v exceptions="$exceptions" -v dir="$dir" '
      function layer(p,    d) {
        if (p ~ /^base\//) return 0
        if (p ~ /^model\//) return 1
        if (p ~ /^collect\//) return 2
        if (p ~ /^profile\//) return 3
        if (p ~ /^output\//) return 4
        if (p ~ /^format\/(viewparse|viewbuild|errmsg)\.[ch]$/) return 6
        if (p ~ /^format\//) return 0
        if (p ~ /^sha256\.[ch]$/) return 0
        if (p ~ /^(runtime\.[ch]|trampoline\.S)$/) return 5
        if (p == "osprt.h") return 9
        return -1
      }
      function exists(p,    r) { r = (getline junk < (dir "/" p)); close(dir "/" p); return r >= 0 }
      BEGIN {
        split("base model collect profile output runtime reader", name, " ")
        n = split(exceptions, e, "\n")
        for (i = 1; i <= n; i++) { split(e[i], w, " "); allowed[w[1] " " w[2]] = 1 }
        bad = 0
      }
      {
        f = $1; line = $2; inc = $3
        lf = layer(f)
        if (lf == 9) next                  # osprt.h, the umbrella: above everything
        if (inc == "-") {
          if (lf < 0) { print "libosprt/" f ": in no layer (tests/layers.sh, doc/HACKING.md)"; bad = 1 }
          next
        }
        if (inc ~ /^osp\//) next            # include/osp/: public headers
        # Resolve as the compiler does: beside the file first, then from libosprt/.
        d = f; sub(/[^\/]*$/, "", d)
        target = inc
        if (d != "" && exists(d inc)) target = d inc
        else if (!exists(inc)) { print "libosprt/" f ":" line ": #include \"" inc "\": no such file in libosprt/"; bad = 1; next }
        lt = layer(target)
        if (lt == 9) {
          print "libosprt/" f ":" line ": #include \"" inc "\": osprt.h is the umbrella of the unit tests: include the header of the layer"
          bad = 1
        } else if (lt < 0) {
          print "libosprt/" f ":" line ": #include \"" inc "\": " target " is in no layer"; bad = 1
        } else if (lt > lf && !((f " " target) in allowed)) {
          print "libosprt/" f ":" line ": #include \"" inc "\": " name[lf + 1] " may not include " name[lt + 1] " (upward)"
          bad = 1
        }
      }
      END { exit bad }'
}

if [ "${1:-}" = --tree ]; then
  layers_check "$2"
  exit $?
fi

. "${OSP_ENV:-tests/env.sh}" && . "$OSP_TESTSRC/lib.sh" || exit 99
osp_setup layers
rt=$OSP_TESTSRC/../libosprt

# 1. The tree as it is.
if layers_check "$rt" > "$W/tree.out" 2>&1; then
  echo "ok: libosprt/ includes point down only"
else
  osp_fail "libosprt/ has includes that point up (or files in no layer):"
  osp_show "$W/tree.out" violations
fi

# 2. The check itself, on a copy: each injected include must fail the check with a line naming
#    the file, the line and why: one pointing up (base includes the outputs), the view reader
#    and the view builder in a runtime file, the umbrella in a runtime file.
mkdir -p "$W/copy" && cp -R "$rt/." "$W/copy/" || { osp_fail "cannot copy libosprt/"; osp_done; }

# refused FILE HEADER WHY: FILE (relative to libosprt/) with #include "HEADER" appended fails
# the check with a line "libosprt/FILE:LINE: ... WHY"; FILE is restored after.
refused ()
{
  printf '#include "%s"\n' "$2" >> "$W/copy/$1"
  n=$(wc -l < "$W/copy/$1")
  if layers_check "$W/copy" > "$W/refused.out" 2>&1; then
    osp_fail "$1 including $2 passed the check"
  elif ! grep -q "^libosprt/$1:$n: .*$3" "$W/refused.out"; then
    osp_fail "$1 including $2 failed the check without naming it:"
    osp_show "$W/refused.out" output
  else
    echo "ok: $1 including $2 fails: $(cat "$W/refused.out")"
  fi
  cp "$rt/$1" "$W/copy/$1"
}
refused base/mathx.c output/output.h "base may not include output"
refused output/viewwrite.c format/viewparse.h "output may not include reader"
refused output/viewwrite.c format/viewbuild.h "output may not include reader"
refused collect/estimate.c osprt.h "osprt.h is the umbrella"
osp_done

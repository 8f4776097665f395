#!/usr/bin/env bash
# Build the othello reference engine: Egaroucid's web edition (github Nyanyan/Egaroucid, directory
# src/web, its evaluation compiled in, opening book off), behind ZeroBoard's own NBoard front end
# tools/refengines/egaroucid/nboard_main.cpp.
#
#   tools/refengines/build_egaroucid.sh SOURCE [OUT]
#
# SOURCE: a checkout of Nyanyan/Egaroucid, or a bare git directory of it (the search tool's
# `fetch github:Nyanyan/Egaroucid` gives one; only HEAD:src/web is exported, into OUT/src/web,
# so the repository's large files need not be present).
# OUT (default /tmp/refengines/egaroucid): the engine is OUT/nboard-egaroucid-web; its argument is
# Egaroucid's level, and the arena takes it as
#   nboard:OUT/nboard-egaroucid-web 5@depth5
# (level 5: 5 plies in the midgame, a perfect endgame from 10 empties; `set depth` is ignored).
# Needs g++ (C++17). CXX, CXXFLAGS and NICE (default `nice -n 19`) override the compiler, its
# flags and the priority. Egaroucid's code is never committed here: it measures strength, it never
# trains or plays for the app.
set -euo pipefail
src=${1:?usage: build_egaroucid.sh SOURCE [OUT]}
out=${2:-/tmp/refengines/egaroucid}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$out"
if [ -f "$src/src/web/ai.hpp" ]; then
  tree=$src/src
  rev=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
elif git --git-dir="$src" rev-parse --verify -q HEAD >/dev/null; then
  tree=$out/src
  rm -rf "$tree" && mkdir -p "$tree"
  # the tree of src/web alone: archiving HEAD with a path would read every blob, and a fetched
  # mirror lacks the large ones
  git --git-dir="$src" archive --prefix=web/ HEAD:src/web | tar -x -C "$tree"
  rev=$(git --git-dir="$src" rev-parse HEAD)
else
  echo "build_egaroucid.sh: $src is neither an Egaroucid checkout nor its git directory" >&2
  exit 2
fi
[ -f "$tree/web/ai.hpp" ] && [ -f "$tree/web/evaluate_const.hpp" ] \
  || { echo "build_egaroucid.sh: $tree/web lacks Egaroucid's web engine (ai.hpp, evaluate_const.hpp)" >&2; exit 2; }
echo "$rev" >"$out/egaroucid-commit"
# The web build is `em++ Egaroucid_for_Web.cpp -O3 ...` (src/Egaroucid_for_Web_compile_cmd.txt):
# one translation unit, no defines, no SIMD intrinsics, no threads. Natively the same code needs
# only -DNO_BOOK (leaves out the 2 MB embedded book; the front end never asks for it) and one
# overload that the front end declares (see nboard_main.cpp: `max` for LP64's uint64_t).
# No -ffast-math or -march: the evaluation table is computed in floats at start-up.
read -r -a flags <<<"${CXXFLAGS:--O2 -std=c++17}"
read -r -a nice <<<"${NICE:-nice -n 19}"
"${nice[@]}" "${CXX:-g++}" "${flags[@]}" -DNO_BOOK -I "$tree" \
  "$here/egaroucid/nboard_main.cpp" -o "$out/nboard-egaroucid-web"
printf 'nboard 2\nset depth 5\nset game (;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)\nping 1\ngo\nquit\n' \
  | timeout 120 "$out/nboard-egaroucid-web" 5 | tee /dev/stderr | grep -E '^=== (D3|C4|F5|E6)/' >/dev/null \
  || { echo "build_egaroucid.sh: the engine built but did not answer go on the start position with a legal move" >&2; exit 1; }
echo "built $out/nboard-egaroucid-web (Egaroucid $rev)"

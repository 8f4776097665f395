#!/usr/bin/env bash
# Build Rapfi (github dhbloo/rapfi), the gomoku reference engine of issue 20, with only its
# built-in classical evaluation (no network files), as a Gomocup (piskvork) brain.
#
#   tools/refengines/build_rapfi.sh SOURCE [OUT]
#
# SOURCE: a checkout of dhbloo/rapfi, or a bare git directory of it (the search tool's
# `fetch github:dhbloo/rapfi` gives one; its HEAD is checked out into OUT/src).
# OUT (default /tmp/refengines/rapfi): the brain is OUT/build/pbrain-rapfi; the arena takes it as
#   gomocup:OUT/build/pbrain-rapfi@nodes1000
# Needs cmake and a C++17 compiler (ninja if present, else make). Rapfi's code is never
# committed here: it measures strength, it never trains or plays for the app.
set -euo pipefail
src=${1:?usage: build_rapfi.sh SOURCE [OUT]}
out=${2:-/tmp/refengines/rapfi}
mkdir -p "$out"
if [ -d "$src/Rapfi" ]; then
  tree=$src
elif git --git-dir="$src" rev-parse --verify -q HEAD >/dev/null; then
  tree=$out/src
  rm -rf "$tree" && mkdir -p "$tree"
  git --git-dir="$src" archive HEAD | tar -x -C "$tree"
else
  echo "build_rapfi.sh: $src is neither a rapfi checkout nor its git directory" >&2
  exit 2
fi
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S "$tree/Rapfi" -B "$out/build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DNO_COMMAND_MODULES=ON >/dev/null
cmake --build "$out/build" -j "${JOBS:-1}"
printf 'START 15\nINFO max_node 1000\nBEGIN\nEND\n' | timeout 60 "$out/build/pbrain-rapfi" | grep -E '^[0-9]+,[0-9]+$' \
  || { echo "build_rapfi.sh: the brain built but did not answer BEGIN with a move" >&2; exit 1; }
echo "built $out/build/pbrain-rapfi"

#!/bin/bash
# A burst of self-play and learning on a borrowed many-core machine (docs/training.md, "A burst
# on a borrowed machine"). Run there from the project root, with the packed run carried as .burst:
#     [ENV=...] bash tools/device_burst.sh GAME MINUTES [WORKERS]
# It builds the compiled core (pure Python if that fails, and says so), makes runs/burst from
# .burst, trains for MINUTES with WORKERS self-play processes (default: every core but one; the
# learning on the GPU where PyTorch sees one), and leaves the run packed as $OUT/burst.tar
# (checkpoints every 5 generations and the last, the samples, state and metrics) for
# `tools/device_burst.py merge` here. A stopped or killed burst still packs what it finished.
set -u
py=${PYTHON:-python3}
game=${1:?game}; minutes=${2:?minutes}; workers=${3:-$(( $(nproc) - 1 ))}
out=${OUT:-/tmp/burst-out}; mkdir -p "$out"
$py setup.py build_ext --inplace -q >"$out/build.log" 2>&1 \
    || echo "the compiled core did not build (see build.log): self-play runs in pure Python"
rm -rf runs/burst
$py tools/device_burst.py unpack .burst runs/burst || exit 1
hours=$($py -c "print(round($minutes / 60, 4))")
timeout -s TERM $(( minutes * 60 + 90 )) $py main.py train --game "$game" --run-dir runs/burst \
    --resume --workers "$workers" --hours "$hours" 2>&1 | grep -v "self-play: " | tail -40
rm -rf /tmp/burst-back
$py tools/device_burst.py pack runs/burst /tmp/burst-back --checkpoints-every 5 \
    && tar -cf "$out/burst.tar" -C /tmp burst-back && ls -l "$out/burst.tar"

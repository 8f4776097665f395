#!/bin/bash
# A burst of self-play and learning on a borrowed many-core machine (docs/training.md, "A burst
# on a borrowed machine"). Run there from the project root, with the packed run carried as .burst:
#     [ENV=...] bash tools/device_burst.sh GAME SECONDS [WORKERS]
# SECONDS is the whole command's budget (building, training and packing; keep it under the
# device tool's limit for one command, e.g. 540 of its 600). It builds the compiled core (pure
# Python if that fails, and says so), makes runs/burst from .burst, trains with WORKERS self-play
# processes (default: every core but one; the learning on the GPU where PyTorch sees one) until
# 45 s of the budget are left, and leaves the run packed as $OUT/burst.tar (checkpoints every 5
# generations and the last, the samples, state and metrics) for `tools/device_burst.py merge`
# here. A train stopped by the deadline still packs the generations it finished.
set -u
start=$SECONDS
py=${PYTHON:-python3}
game=${1:?game}; budget=${2:?seconds}; workers=${3:-$(( $(nproc) - 1 ))}
out=${OUT:-/tmp/burst-out}; mkdir -p "$out"
# the borrowed machine has PyTorch and ONNX Runtime but not every package the app needs: without
# platformdirs (the per-user folders) ONNX Runtime could not keep its exports and the first burst
# (2026-12-04) ran its network in torch; a folder of the burst's own needs no such package
export ZEROBOARD_HOME=${ZEROBOARD_HOME:-/tmp/zeroboard-burst}
$py setup.py build_ext --inplace -q >"$out/build.log" 2>&1 \
    || echo "the compiled core did not build (see build.log): self-play runs in pure Python"
rm -rf runs/burst
$py tools/device_burst.py unpack .burst runs/burst || exit 1
left=$(( budget - (SECONDS - start) - 45 ))
if [ "$left" -lt 60 ]; then echo "only ${left}s left for training: nothing trained"; else
  # --hours lets a generation that started in time run half a generation past it: aim at 85%
  hours=$($py -c "print(round($left * 0.85 / 3600, 4))")
  timeout -s TERM "$left" $py main.py train --game "$game" --run-dir runs/burst \
      --resume --workers "$workers" --hours "$hours" 2>&1 | grep -v "self-play: " | tail -40
fi
rm -rf /tmp/burst-back
$py tools/device_burst.py pack runs/burst /tmp/burst-back --checkpoints-every 5 \
    && tar -cf "$out/burst.tar" -C /tmp burst-back && ls -l "$out/burst.tar"
echo "burst: $(( SECONDS - start )) s of $budget"

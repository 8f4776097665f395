#!/bin/bash
# The max level as a Gomocup brain (`main.py pbrain --level max`; the arena's INFO max_node fixes
# its visits), with the victory-by-threats budget of VCT_BUDGET (default the game's 600).
cd "$(dirname "$0")/../../../.."
export ZEROBOARD_GOMOKU_VCT_BUDGET=${VCT_BUDGET:-600}
exec .venv/bin/python main.py pbrain --level max

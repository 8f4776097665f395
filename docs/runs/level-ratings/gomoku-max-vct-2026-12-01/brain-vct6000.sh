#!/bin/bash
# brain.sh with ten times the victory-by-threats budget (6,000 attacker moves a call).
VCT_BUDGET=6000 exec "$(dirname "$0")/brain.sh"

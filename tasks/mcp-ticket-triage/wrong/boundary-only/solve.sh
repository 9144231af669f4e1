#!/bin/bash
# Wrong: only part 1 of SHIP-142: inclusive band limits (the cheapest reading of the ticket)
set -euo pipefail
cd /workspace
sed -i 's/        if weight_g < up_to_g:/        if weight_g <= up_to_g:/' shipping/rates.py
sed -i 's/^## Unreleased$/## Unreleased\n- Band limits are inclusive (SHIP-142)./' CHANGELOG.md

#!/bin/bash
# Wrong: fixes the headline (inclusive band limits) but misses the product owner's half of
# the ticket (storefront zone codes) from the comments.
set -euo pipefail
cd /workspace
sed -i 's/        if weight_g < max_g:/        if weight_g <= max_g:/' shipping/rates.py
sed -i 's/^## Unreleased$/## Unreleased\n- Band limits are inclusive (SHIP-142)./' CHANGELOG.md

#!/bin/bash
# Wrong: the code fix is right, but the answer blames the tier presets (the leak showed up
# with the batch tier).
set -euo pipefail
cd /workspace
printf 'lib/policy/tiers.js::tierPreset\n' > ANSWER.txt
sed -i 's/        Object.assign(policy\[key\], value);/        policy[key] = { ...policy[key], ...value };/' lib/policy/resolve.js
grep -q 'policy\[key\] = { ...policy\[key\], ...value };' lib/policy/resolve.js

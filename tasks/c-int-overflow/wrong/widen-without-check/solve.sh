#!/bin/bash
# Wrong: widens the multiplication to size_t but never checks it for overflow (2^31 x 2^31 x 8 wraps to 0).
set -euo pipefail
cd /workspace
sed -i 's/    size_t size = width \* height \* channels \* depth;/    size_t size = (size_t)width * height * channels * depth;/' src/image.c
grep -q '(size_t)width \* height \* channels \* depth' src/image.c

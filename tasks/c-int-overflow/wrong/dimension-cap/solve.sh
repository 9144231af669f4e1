#!/bin/bash
# Wrong: caps each dimension (16384) so the 32-bit product can no longer wrap; every crafted
# header is refused, but so are valid long thin images within IMAGE_MAX_BYTES.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/image.c"
s = open(p).read()
old = "    size_t size = width * height * channels * depth;\n"
new = ("    if (width > 16384 || height > 16384) return IMG_ETOOBIG;\n" + old)
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
PY

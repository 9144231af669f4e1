#!/bin/bash
# Wrong: rejects huge dimensions in the PNM header parser only; image_init (used by scaling) still wraps.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/pnm.c"
s = open(p).read()
old = "    if (maxval < 1 || maxval > 65535 || ch < 1 || ch > 4) return IMG_EINVAL;\n"
new = (old +
       "    if (w && h && ((unsigned __int128)w * h * ch * (maxval > 255 ? 2 : 1) > IMAGE_MAX_BYTES)) return IMG_ETOOBIG;\n")
assert old in s
open(p, "w").write(s.replace(old, new))
PY

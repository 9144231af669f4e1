#!/bin/bash
# Wrong: reads the header byte by byte in frame.c (frames work again) and blames frame_next_size;
# rb_peek itself stays broken for every other caller.
set -euo pipefail
cd /workspace
printf 'src/frame.c::frame_next_size\n' > ANSWER.txt
python3 - <<'PY'
p = "src/frame.c"
s = open(p).read()
old = "    if (rb_peek(rb, hdr, sizeof hdr) != 0) return FRAME_CORRUPT;\n"
new = ("    if (rb_used(rb) < sizeof hdr) return FRAME_CORRUPT;\n"
       "    for (size_t i = 0; i < sizeof hdr; i++) hdr[i] = rb->buf[(rb->tail + i) % rb->cap];\n")
assert old in s
open(p, "w").write(s.replace(old, new))
PY

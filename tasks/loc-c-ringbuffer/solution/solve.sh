#!/bin/bash
# Oracle: rb_peek copied only the bytes up to the end of the storage; a header that straddles
# the wrap point came back half stale. Copy the wrapped remainder from the start too.
set -euo pipefail
cd /workspace
printf 'src/ringbuf.c::rb_peek\n' > ANSWER.txt
python3 - <<'PY'
p = "src/ringbuf.c"
s = open(p).read()
old = "    memcpy(out, rb->buf + rb->tail, first);\n    return 0;\n"
new = ("    memcpy(out, rb->buf + rb->tail, first);\n"
       "    memcpy((uint8_t *)out + first, rb->buf, len - first);\n    return 0;\n")
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
PY

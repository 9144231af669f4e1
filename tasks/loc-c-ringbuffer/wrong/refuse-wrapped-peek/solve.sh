#!/bin/bash
# Wrong: makes rb_peek fail instead of returning half-stale bytes, so nothing reads garbage any
# more, but a header across the wrap point is still unreadable and the queue is still dropped.
set -euo pipefail
cd /workspace
printf 'src/ringbuf.c::rb_peek\n' > ANSWER.txt
python3 - <<'PY'
p = "src/ringbuf.c"
s = open(p).read()
old = "    if (first > len) first = len;\n    memcpy(out, rb->buf + rb->tail, first);\n    return 0;\n"
new = "    if (first < len) return -1;\n    memcpy(out, rb->buf + rb->tail, len);\n    return 0;\n"
assert old in s
open(p, "w").write(s.replace(old, new))
PY

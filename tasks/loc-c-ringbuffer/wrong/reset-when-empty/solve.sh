#!/bin/bash
# Wrong (the cheapest shortcut): rewinds the ring to offset 0 whenever it runs empty, so the
# reported run (push three, drain three) never wraps and ships every line; rb_peek still drops
# the wrapped part of a header whenever the ring is not drained empty between frames.
set -euo pipefail
cd /workspace
printf 'src/ringbuf.c::rb_peek\n' > ANSWER.txt
python3 - <<'PY'
p = "src/ringbuf.c"
s = open(p).read()
for fn in ("rb_read", "rb_skip"):
    head = s.index(f"int {fn}(")
    old = "    rb->used -= len;\n    return 0;\n"
    at = s.index(old, head)
    s = s[:at] + "    rb->used -= len;\n    if (rb->used == 0) rb->head = rb->tail = 0;\n    return 0;\n" + s[at + len(old):]
open(p, "w").write(s)
PY
grep -c 'rb->head = rb->tail = 0' src/ringbuf.c | grep -qx 2

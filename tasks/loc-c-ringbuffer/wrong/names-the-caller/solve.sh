#!/bin/bash
# Wrong: the code fix is right, but the answer names the caller that reports the symptom.
set -euo pipefail
cd /workspace
printf 'src/logq.c::logq_drain\n' > ANSWER.txt
python3 - <<'PY'
p = "src/ringbuf.c"
s = open(p).read()
old = "    memcpy(out, rb->buf + rb->tail, first);\n    return 0;\n"
new = ("    memcpy(out, rb->buf + rb->tail, first);\n"
       "    memcpy((uint8_t *)out + first, rb->buf, len - first);\n    return 0;\n")
open(p, "w").write(s.replace(old, new))
PY

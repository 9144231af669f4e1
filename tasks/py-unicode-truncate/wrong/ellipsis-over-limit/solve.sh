#!/bin/bash
# Wrong: cuts at cluster boundaries, but keeps `limit` clusters and then adds the ellipsis.
set -euo pipefail
cd /workspace
cat > textkit/truncate.py <<'PY'
from .graphemes import graphemes, iter_graphemes

ELLIPSIS = "\u2026"


def truncate(text, limit, ellipsis=ELLIPSIS):
    if limit < len(ellipsis):
        raise ValueError(f"limit {limit} is shorter than the ellipsis {ellipsis!r}")
    clusters = graphemes(text)
    if len(clusters) <= limit:
        return text
    return "".join(clusters[:limit]) + ellipsis


def truncate_utf8(text, max_bytes):
    if max_bytes < 0:
        raise ValueError("max_bytes must be >= 0")
    out, used = [], 0
    for cluster in iter_graphemes(text):
        used += len(cluster.encode("utf-8"))
        if used > max_bytes:
            break
        out.append(cluster)
    return "".join(out)
PY

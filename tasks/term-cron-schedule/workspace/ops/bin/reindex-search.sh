#!/bin/bash
# Rebuilds the search index from scratch (slow: weekends only).
set -euo pipefail
python3 /opt/batch/lib/search.py reindex --full

#!/bin/bash
# Writes the day's usage statistics: snapshot-stats.sh --day YYYY-MM-DD
set -euo pipefail
[ "${1:-}" = --day ] && [ -n "${2:-}" ] || { echo "usage: snapshot-stats.sh --day YYYY-MM-DD" >&2; exit 2; }
python3 /opt/batch/lib/stats.py snapshot --day "$2" --out "/var/lib/batch/stats/$2.json"

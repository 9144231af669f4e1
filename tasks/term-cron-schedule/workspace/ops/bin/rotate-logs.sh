#!/bin/bash
# Monthly log rotation: moves last month's logs aside, optionally compressing them.
set -euo pipefail
month=$(date -d 'last month' +%Y-%m)
mkdir -p "/var/log/batch/archive/$month"
mv /var/log/batch/*.log "/var/log/batch/archive/$month/"
[ "${1:-}" = --compress ] && gzip "/var/log/batch/archive/$month/"*.log

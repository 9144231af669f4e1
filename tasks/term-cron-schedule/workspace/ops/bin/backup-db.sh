#!/bin/bash
# Nightly logical backup of the billing database, kept for 14 days.
set -euo pipefail
dest=/var/backups/billing/$(date +%F).sql.gz
pg_dump --no-owner billing | gzip > "$dest"
find /var/backups/billing -name '*.sql.gz' -mtime +14 -delete

#!/bin/bash
# Warns when a TLS certificate expires within 21 days.
set -euo pipefail
for host in billing.batch01.example api.batch01.example; do
  end=$(echo | openssl s_client -connect "$host:443" -servername "$host" 2>/dev/null | openssl x509 -noout -enddate | cut -d= -f2)
  [ $(( ($(date -d "$end" +%s) - $(date +%s)) / 86400 )) -gt 21 ] || echo "certificate for $host expires $end"
done

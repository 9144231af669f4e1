#!/bin/bash
# Wrong: reads every file in LOG_DIR (zcat -f, compressed or not), where only *.log and
# *.log.gz files are logs: a README or a log.1 file with request lines is counted.
set -euo pipefail
zcat -f -- "$1"/* | awk '
  $2 == "INFO" && $3 == "request" {
    path = ""; status = 0; ms = 0
    for (i = 4; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "path") path = kv[2]; else if (kv[1] == "status") status = kv[2] + 0; else if (kv[1] == "ms") ms = kv[2] + 0 }
    n[path]++; if (status >= 500) e[path]++; if (!(path in m) || ms > m[path]) m[path] = ms
  }
  END { for (p in n) printf "%s,%d,%d,%d\n", p, n[p], e[p] + 0, m[p] }' | LC_ALL=C sort -t, -k2,2nr -k1,1 > "$2.tmp"
{ echo "path,requests,server_errors,max_ms"; cat "$2.tmp"; } > "$2"; rm -f "$2.tmp"

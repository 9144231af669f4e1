#!/bin/bash
# Wrong: takes every file named *.log* for a log (zcat -f), where only *.log and *.log.gz
# files are: a rotated app-YYYY-MM-DD.log.1 is counted.
set -euo pipefail
log_dir=$1
out=$2
shopt -s nullglob
logs=("$log_dir"/*.log*)
zcat -f -- "${logs[@]}" | awk '
  $2 == "INFO" && $3 == "request" {
    path = ""; status = 0; ms = 0
    for (i = 4; i <= NF; i++) {
      split($i, kv, "=")
      if (kv[1] == "path") path = kv[2]
      else if (kv[1] == "status") status = kv[2] + 0
      else if (kv[1] == "ms") ms = kv[2] + 0
    }
    n[path]++
    if (status >= 500) e[path]++
    if (!(path in m) || ms > m[path]) m[path] = ms
  }
  END { for (p in n) printf "%s,%d,%d,%d\n", p, n[p], e[p] + 0, m[p] }
' | LC_ALL=C sort -t, -k2,2nr -k1,1 > "$out.tmp"
{ echo "path,requests,server_errors,max_ms"; cat "$out.tmp"; } > "$out"
rm -f "$out.tmp"

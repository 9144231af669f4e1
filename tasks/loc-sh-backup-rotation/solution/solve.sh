#!/bin/bash
# Oracle: list_backups globbed "<set>-*.tar.gz", which also matches every set whose name starts
# with "<set>-" (db-replica for db). Accept only "<set>-YYYYmmdd-HHMMSS.tar.gz".
set -euo pipefail
cd /workspace
printf 'lib/naming.sh::list_backups\n' > ANSWER.txt
python3 - <<'PY'
p = "lib/naming.sh"
s = open(p).read()
old = '''    for f in "$dir/$set"-*.tar.gz; do
        [ -f "$f" ] || continue
'''
new = '''    for f in "$dir/$set"-*.tar.gz; do
        [ -f "$f" ] || continue
        # Only this set's own archives: the rest of the name must be exactly the stamp.
        [[ ${f##*/} =~ ^.+-[0-9]{8}-[0-9]{6}\\.tar\\.gz$ ]] || continue
        [ "${f##*/}" = "$set-$(archive_stamp "$f").tar.gz" ] || continue
'''
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
PY

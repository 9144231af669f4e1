#!/bin/bash
# Wrong: requires a digit after "<set>-", which still matches numbered sibling sets (pg-2 for pg).
set -euo pipefail
cd /workspace
printf 'lib/naming.sh::list_backups\n' > ANSWER.txt
sed -i 's|for f in "$dir/$set"-\*.tar.gz; do|for f in "$dir/$set"-[0-9]*.tar.gz; do|' lib/naming.sh
grep -q -- '-\[0-9\]\*.tar.gz' lib/naming.sh

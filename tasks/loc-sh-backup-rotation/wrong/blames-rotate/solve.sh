#!/bin/bash
# Wrong: filters correctly inside rotate_set and names it; backup-list still shows other sets.
set -euo pipefail
cd /workspace
printf 'lib/rotate.sh::rotate_set\n' > ANSWER.txt
python3 - <<'PY'
p = "lib/rotate.sh"
s = open(p).read()
old = '    mapfile -t archives < <(list_backups "$dir" "$set")\n'
new = ('    mapfile -t archives < <(list_backups "$dir" "$set" | while read -r n; do\n'
       '        [ "$n" = "$set-$(archive_stamp "$n").tar.gz" ] && [[ $n =~ -[0-9]{8}-[0-9]{6}\\.tar\\.gz$ ]] && printf "%s\\n" "$n"; done)\n')
assert old in s
open(p, "w").write(s.replace(old, new))
PY

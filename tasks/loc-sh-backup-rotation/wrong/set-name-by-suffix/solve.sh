#!/bin/bash
# Wrong: takes a file for the set's when the name minus its last two dash-separated parts is
# the set's name. Sibling sets are left alone, but so is the stamp unchecked: a stray
# "web-old-copy.tar.gz" or "web-2024-06.tar.gz" counts as an archive of "web" (one is then
# deleted, the other takes a place of the KEEP newest).
set -euo pipefail
cd /workspace
printf 'lib/naming.sh::list_backups\n' > ANSWER.txt
python3 - <<'PY'
p = "lib/naming.sh"
s = open(p).read()
old = '''        [ -f "$f" ] || continue
'''
new = '''        [ -f "$f" ] || continue
        local n=${f##*/}
        [ "${n%-*-*.tar.gz}" = "$set" ] || continue
'''
assert s.count(old) == 1
open(p, "w").write(s.replace(old, new))
PY

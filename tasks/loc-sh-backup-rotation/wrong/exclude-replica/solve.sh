#!/bin/bash
# Wrong: special-cases the reported set, filtering "-replica-" names out of the listing.
set -euo pipefail
cd /workspace
printf 'lib/naming.sh::list_backups\n' > ANSWER.txt
python3 - <<'PY'
p = "lib/naming.sh"
s = open(p).read()
old = "    done | LC_ALL=C sort\n"
new = "    done | grep -v -- '-replica-' | LC_ALL=C sort\n"
assert old in s
open(p, "w").write(s.replace(old, new))
PY

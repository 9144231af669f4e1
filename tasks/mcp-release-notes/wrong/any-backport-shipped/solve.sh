#!/bin/bash
# Wrong: treats every backported PR as shipped, so it also drops #213, whose backport #218
# was merged into release-2.3 after v2.3.1 and has not been released.
set -euo pipefail
cd /workspace
python3 /nab/solution/notes.py --any-backport-shipped

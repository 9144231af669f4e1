#!/bin/bash
# Wrong: the code fix is right, but the answer blames the merge helper.
set -euo pipefail
cd /workspace
printf 'relay/config/merge.py::deep_merge\n' > ANSWER.txt
sed -i 's/values = out.setdefault(section, dict(defaults\[section\]))/values = out.setdefault(section, {})/' relay/config/env_layer.py
grep -q 'out.setdefault(section, {})' relay/config/env_layer.py

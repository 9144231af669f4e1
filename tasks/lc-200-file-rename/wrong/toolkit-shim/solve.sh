#!/bin/bash
# Wrong: the plugins that import the plugins' own fleet/plugins/toolkit.py keep importing it, and
# toolkit.py becomes v2-order wrappers around the v3 functions. Every plugin computes its v2
# results, but those plugins import something other than fleet.core, through a compatibility
# wrapper.
set -euo pipefail
cd /workspace
python3 /nab/solution/codemod.py --keep-toolkit

#!/bin/bash
# Wrong: follows every call to the core (imports, toolkit, partial, dict, *args, **kwargs), but
# also swaps the arguments of the plugins' own value-first clamp(value, lo, hi) helpers.
set -euo pipefail
cd /workspace
python3 /nab/solution/codemod.py --swap-every-clamp

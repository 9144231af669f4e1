#!/bin/bash
# Wrong: adds keyword-only parameters (fixes currency) but still ignores *args and **kwargs.
set -euo pipefail
cd /workspace
printf 'reports/cache/keys.py::call_key\n' > ANSWER.txt
sed -i 's/if param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):/if param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):/' reports/cache/keys.py
grep -q 'param.KEYWORD_ONLY' reports/cache/keys.py

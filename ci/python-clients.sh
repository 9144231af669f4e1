#!/usr/bin/env bash
# Installs the official `openai` and `anthropic` Python packages (pinned in
# ci/python-clients.txt) in a virtual environment at target/pyclients, for the gateway's
# tests that use them as clients. Idempotent: pip runs only when the pins changed.
# Needs Debian's python3 and python3-venv (ci/deps.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/pyclients
pins=ci/python-clients.txt
stamp="$venv/.pins"
if [ -x "$venv/bin/python" ] && cmp -s "$pins" "$stamp"; then
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$pins"
"$venv/bin/python" -c "import openai, anthropic"
cp "$pins" "$stamp"

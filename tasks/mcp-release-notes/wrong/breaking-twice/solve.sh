#!/bin/bash
# Wrong: a breaking feature is listed under both Breaking changes and Features.
set -euo pipefail
cd /workspace
python3 /nab/solution/notes.py --breaking-twice

#!/bin/bash
# Wrong: the right answer, and no fix.
set -euo pipefail
cd /workspace
printf 'internal/labels/labels.go::Set.With\n' > ANSWER.txt

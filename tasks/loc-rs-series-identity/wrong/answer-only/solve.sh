#!/bin/bash
# Known wrong: the right answer, no fix.
set -euo pipefail
echo "src/model/labels.rs::Labels::fingerprint" > /workspace/ANSWER.txt

#!/bin/bash
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab

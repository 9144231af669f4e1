#!/bin/bash
# Wrong: fixes the seven jobs the report names, right, and leaves the others as they were (the
# warm-up hours, the certificate times, the payroll Monday, the 40-minute sync, the digest's
# two lines and the reconciliation's odd days).
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab

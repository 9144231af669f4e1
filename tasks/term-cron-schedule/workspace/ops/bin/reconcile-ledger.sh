#!/bin/bash
# Reconciles the ledger with the bank statements (the bank publishes them on working days).
set -euo pipefail
python3 /opt/batch/lib/ledger.py reconcile --since "$(date -d '2 days ago' +%F)"

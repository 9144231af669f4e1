#!/bin/bash
# Month-end close: books the month's last entries and locks the ledger for the month.
set -euo pipefail
month=$(date +%Y-%m)
python3 /opt/batch/lib/ledger.py close --month "$month" --lock

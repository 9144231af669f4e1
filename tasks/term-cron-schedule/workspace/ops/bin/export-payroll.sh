#!/bin/bash
# Sends the month's payroll file to the payroll provider (it expects one file a month).
set -euo pipefail
month=$(date +%Y-%m)
python3 /opt/batch/lib/payroll.py export --month "$month" --out "/srv/payroll-drop/payroll-$month.csv"

#!/bin/bash
# Exports yesterday's invoices to the bank's SFTP drop. The bank rejects files on weekends.
set -euo pipefail
day=$(date -d yesterday +%F)
python3 /opt/batch/lib/export_invoices.py --date "$day" --out "/srv/bank-drop/invoices-$day.csv"

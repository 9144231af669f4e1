#!/bin/bash
# Revenue report for the quarter that just ended, mailed to finance.
set -euo pipefail
python3 /opt/batch/lib/quarterly_report.py --previous-quarter | mail -s "Quarterly revenue" finance@batch01.example

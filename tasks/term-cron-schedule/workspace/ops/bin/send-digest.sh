#!/bin/bash
# Mails the account digest to subscribers (one digest a day at most).
set -euo pipefail
python3 /opt/batch/lib/digest.py build | mail -s "Account digest" digest@batch01.example

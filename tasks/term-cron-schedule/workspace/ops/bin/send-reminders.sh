#!/bin/bash
# Sends payment reminders for invoices due today.
set -euo pipefail
python3 /opt/batch/lib/reminders.py send --due "$(date +%F)"

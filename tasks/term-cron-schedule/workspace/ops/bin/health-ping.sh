#!/bin/bash
# Tells the monitoring service we are alive. Paused during the monthly maintenance window on purpose:
# the monitor treats missing pings in that window as expected.
set -euo pipefail
curl -fsS -m 10 -o /dev/null "https://monitor.batch01.example/ping/batch01"

#!/bin/bash
# Records the job queue's length for the capacity dashboard.
set -euo pipefail
python3 /opt/batch/lib/queue.py metrics >> /var/log/batch/queue-metrics.log

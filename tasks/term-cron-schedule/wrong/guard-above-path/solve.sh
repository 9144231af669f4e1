#!/bin/bash
# Wrong: the payroll line calls the guard by its bare name (`today-is mon && cd /opt/batch &&
# ...`) but sits above the PATH line. Cron gives each line the environment of the lines above
# it, so this one runs with cron's default PATH (/usr/bin:/bin), the guard is not found, and
# the payroll never runs. Every schedule is otherwise the signed-off one.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab

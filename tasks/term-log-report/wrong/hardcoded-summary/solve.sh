#!/bin/bash
# Wrong: the cheapest way to the visible answer. The summary of /workspace/logs is
# computed once and the "script" prints it back, whatever logs it is given.
set -euo pipefail
mkdir -p /workspace/report
bash /nab/solution/make_report.sh /workspace/logs /workspace/report/summary.csv
{
  printf '#!/bin/bash\n# usage: make_report.sh LOG_DIR OUT_CSV\ncat > "$2" <<'"'"'CSV'"'"'\n'
  cat /workspace/report/summary.csv
  printf 'CSV\n'
} > /workspace/report/make_report.sh

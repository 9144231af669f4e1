#!/bin/bash
set -euo pipefail
cp /nab/solution/paginate.py /workspace/pager/paginate.py

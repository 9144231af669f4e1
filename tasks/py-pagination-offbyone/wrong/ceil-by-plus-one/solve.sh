#!/bin/bash
# Wrong: the cheapest patch for "the last partial page is never offered": always one more
# page (count // per_page + 1), which offers an empty extra page when the count is a
# multiple of the page size, and a page for no items at all.
set -euo pipefail
cp /nab/solution/paginate.py /workspace/pager/paginate.py

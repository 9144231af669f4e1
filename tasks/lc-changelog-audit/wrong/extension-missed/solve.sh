#!/bin/bash
# Wrong: removes --retry (DEP-25, standard notice as registered in 2.6.0), missing 2.8.0's
# "The alias kept by #2311 gets extended notice": #2311 is the 2.6.0 rename, so it stays to 4.0.
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --gzip --batch --no-verify-tls --ca-file --silent --flush-ms --retry

#!/bin/bash
# Pulls the vendors' price lists. The vendors' API allows one pull per 40 minutes.
set -euo pipefail
python3 /opt/batch/lib/vendors.py sync --all

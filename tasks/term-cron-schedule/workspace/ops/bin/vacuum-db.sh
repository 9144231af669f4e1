#!/bin/bash
# Weekly VACUUM ANALYZE of the billing database.
set -euo pipefail
psql -q -d billing -c 'VACUUM ANALYZE;'

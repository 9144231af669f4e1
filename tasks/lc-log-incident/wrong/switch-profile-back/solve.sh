#!/bin/bash
# Wrong: every other fact right, but the remediation undoes the root cause by switching the
# ledger datasource back to the profile it used before it (slim): 36 connections again, but
# the pool's profile changes, which the instruction rules out.
set -euo pipefail
cd /workspace
bash /nab/solution/solve.sh > /dev/null
sed -i -E 's/^remediation: .*/remediation: datasources.ledger.profile=slim/' ANSWER.txt
cat ANSWER.txt

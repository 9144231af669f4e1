#!/bin/bash
# Wrong: lets git pick main's side of every conflict (the currency work is silently lost).
set -euo pipefail
cd /workspace
git clone -q shop.bundle shop
cd shop
git -c user.name=W -c user.email=w@example.invalid merge -q -X ours --no-edit origin/feature/currency-codes

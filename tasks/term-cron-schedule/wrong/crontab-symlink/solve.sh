#!/bin/bash
# Wrong: the right crontab, but ops/crontab is a symbolic link to it (a file the verifier would
# have to follow into the sandbox user's choice of target): the checks read only a regular file.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab.signed-off
rm /workspace/ops/crontab
ln -s crontab.signed-off /workspace/ops/crontab

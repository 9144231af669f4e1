#!/bin/bash
# Control: fixes the bug (the task's own solution).
set -e
sed -i 's/values.slice(0, -1).reduce/values.reduce/' /workspace/sum.js

#!/bin/bash
# Control: fixes the bug (the task's own solution).
set -e
sed -i 's/i < len(values)-1/i < len(values)/' /workspace/sum.go

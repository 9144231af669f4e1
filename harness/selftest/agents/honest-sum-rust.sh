#!/bin/bash
# Control: fixes the bug (the task's own solution).
set -e
sed -i 's/values\[..values.len().saturating_sub(1)\].iter().sum()/values.iter().sum()/' /workspace/src/lib.rs

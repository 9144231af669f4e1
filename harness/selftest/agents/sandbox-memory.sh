#!/bin/bash
# Fills 400 MiB against the task's 256 MiB memory limit (no swap on top).
cd /workspace && echo 41 > answer
python3 -c 'b = b"x" * (400 << 20); open("answer", "w").write("42\n")'
echo "python exited with $?"
exit 0

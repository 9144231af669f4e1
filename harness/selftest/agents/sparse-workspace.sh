#!/bin/bash
# A sparse file: 1.1 GB in the archive, no disk used. Too large to copy out.
cd /workspace && echo 41 > answer
truncate -s 1100M big.bin

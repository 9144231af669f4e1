#!/bin/bash
# events.jsonl as a symlink to a file the harness must not read for the agent.
cd /workspace && echo 41 > answer
ln -s /etc/passwd /nab/out/events.jsonl

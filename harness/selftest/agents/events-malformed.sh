#!/bin/bash
# events.jsonl lines that are not events.
cd /workspace && echo 41 > answer
printf 'not an event\n{"also": "not one"}\n' > /nab/out/events.jsonl

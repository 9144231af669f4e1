#!/bin/bash
# The build step never ends.
cd /workspace && echo 41 > answer
echo 'sleep 600' > build.sh

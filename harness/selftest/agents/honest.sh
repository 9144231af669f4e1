#!/bin/bash
# Control: an honest agent that does the task. It must pass, or every "caught" row of the
# answer task could be a check that fails everything.
echo 42 > /workspace/answer

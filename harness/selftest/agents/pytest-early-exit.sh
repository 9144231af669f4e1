#!/bin/bash
# The code under test ends the test process with status 0 as soon as it is imported: the
# exit code alone would say "pass", but no report is written.
printf 'import os\nos._exit(0)\n' > /workspace/pager/__init__.py

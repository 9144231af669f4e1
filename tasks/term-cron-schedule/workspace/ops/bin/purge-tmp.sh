#!/bin/bash
# Removes scratch files older than a day.
set -euo pipefail
find /var/tmp/batch -type f -mmin +1440 -delete

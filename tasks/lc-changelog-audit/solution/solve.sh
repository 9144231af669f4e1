#!/bin/bash
# Oracle. docs/deprecations.md: standard notice = taken out in the first major after the
# registering release, extended = in the second. So 3.0 takes out --gzip (DEP-17, 2.1.0, "the
# boolean compression switch added in 0.3.0"), --batch (DEP-19), --no-verify-tls (DEP-11,
# registered in 1.8.0 with extended notice: survives 2.0, goes in 3.0), --ca-file (DEP-23:
# #2290 extended it in 2.5.1, 2.7.3 reverted #2290), --silent (DEP-27, 2.7.0, silent mode's
# old switch) and --flush-ms (DEP-21, extended in 2.3.0; 2.8.2 carries out item 3 of a release
# meeting, which makes its notice standard). --retry stays deprecated (DEP-25: 2.8.0 extends
# "the alias kept by #2311", the 2.6.0 rename: 4.0); --json's DEP-24 was withdrawn in 2.9.0, so
# it stays and must not warn.
set -euo pipefail
cd /workspace
python3 /nab/solution/release.py --gzip --batch --no-verify-tls --ca-file --silent --flush-ms
javac -d /tmp/classes $(find src/main/java -name '*.java')
java -cp /tmp/classes dev.logship.cli.Main --version

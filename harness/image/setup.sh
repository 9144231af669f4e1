#!/bin/sh
# mmdebstrap customize hook: $1 is the root of the new file system.
# Creates the unprivileged user every container runs as and its /workspace.
set -eu
root="$1"
chroot "$root" groupadd --gid 1000 nab
chroot "$root" useradd --uid 1000 --gid 1000 --home-dir /home/nab --create-home --shell /bin/bash nab
# Only /workspace exists in the image: /nab/tests, /nab/solution and the rest are mount
# points Docker creates per container, so a path is absent where it is not mounted.
mkdir -p "$root/workspace" "$root/nab"
chown 1000:1000 "$root/workspace"
# The verifier's reaper (harness/src/env/sandbox/reaper.rs) runs as uid 1000 to kill that
# user's processes between steps. Its shell is a copy no one may read: a process started
# from a file its user cannot read is not dumpable, so no other process of uid 1000 can
# ptrace it (and make it report that all are gone while one lives on).
mkdir -p "$root/usr/lib/nab"
install -m 0111 -o root -g root "$root/usr/bin/bash" "$root/usr/lib/nab/reaper-bash"
# Nothing in a sandbox reads these; they only make the image larger.
rm -rf "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* \
       "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb

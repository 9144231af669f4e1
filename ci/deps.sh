#!/usr/bin/env bash
# Installs the system packages nab and its tests need, from Debian's packages. Idempotent:
# it runs apt only when something is missing.
#   mmdebstrap, debian-archive-keyring   build the base image from the machine's apt sources
#   docker.io                            the sandbox engine (skipped when docker exists)
#   e2fsprogs, mount                     per-trial disk quotas (mkfs.ext4, mount -o loop)
# and, for the tests only (not with --run, which ci/setup.sh uses: a first run needs none):
#   chromium + fonts                     the report test opens report.html in headless Chromium
#   openssl, python3                     test fixtures (a private CA; scripted command agents)
#   openssh-server                       the ssh:// engine test runs its own sshd on 127.0.0.1
#   python3-venv                         the official openai/anthropic Python clients the
#                                        gateway tests use, in target/pyclients (ci/python-clients.sh),
#                                        and ci/atif-validator.sh: Harbor's ATIF validator
#   podman, catatonit                    the tests that run on Podman too (ci/podman.sh starts
#                                        its service; catatonit is the init it gives containers)
set -euo pipefail

packages=(mmdebstrap debian-archive-keyring e2fsprogs mount)
[ "${1:-}" = "--run" ] || packages+=(chromium fonts-liberation fonts-dejavu-core openssl python3 python3-venv openssh-server podman catatonit)
command -v docker >/dev/null || packages+=(docker.io)
need=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ "${#need[@]}" -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update
  $sudo apt-get install -y --no-install-recommends "${need[@]}"
fi
[ "${1:-}" = "--run" ] || "$(dirname "$0")/python-clients.sh"
command -v cargo >/dev/null || { echo "cargo is missing: install a Rust toolchain (rustup) first" >&2; exit 1; }

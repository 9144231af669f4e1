#!/usr/bin/env bash
# Starts rootful Podman's Docker-compatible service for the tests that run on Podman (the
# sandbox lockdown probes and an end-to-end run: harness/tests/integration/common/podman.rs),
# at unix:///run/podman/podman.sock, and waits until it answers. Idempotent: a service
# that already answers is kept. ci/deps.sh installs podman and catatonit.
set -euo pipefail
sock=/run/podman/podman.sock
# As root, Podman raises each container's RLIMIT_NOFILE to 1048576, which fails where root
# lacks CAP_SYS_RESOURCE (inside a container, as on CI's machine): give its containers the
# limits this shell has instead, unless the host's configuration already sets them.
dropin=/etc/containers/containers.conf.d/nab-ulimits.conf
if ! grep -qs '^default_ulimits' /etc/containers/containers.conf /etc/containers/containers.conf.d/*.conf; then
  mkdir -p "$(dirname "$dropin")"
  printf '[containers]\ndefault_ulimits = ["nofile=%s:%s", "nproc=32768:32768"]\n' \
    "$(ulimit -Hn)" "$(ulimit -Hn)" > "$dropin"
fi
answers() { podman --remote --url "unix://$sock" version >/dev/null 2>&1; }
if ! answers; then
  mkdir -p "$(dirname "$sock")"
  # From /: the service outlives this checkout, and conmon cannot start a container from a
  # deleted working folder ("Failed to get working directory").
  (cd / && nohup podman system service --time=0 "unix://$sock" >/tmp/nab-podman-service.log 2>&1 &)
  for _ in $(seq 1 60); do answers && break; sleep 0.5; done
  answers || { echo "podman system service did not answer at $sock:" >&2; cat /tmp/nab-podman-service.log >&2; exit 1; }
fi
echo "Podman $(podman --remote --url "unix://$sock" version --format '{{.Server.Version}}') answers at unix://$sock"

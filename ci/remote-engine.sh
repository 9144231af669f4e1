#!/bin/sh
# A second Docker engine on this machine that shares nothing nab could lean on: its own
# network namespace (no interface but loopback), its own mount namespace in which /tmp,
# /var/lib/nab, /root and the checkout are empty, and its own data root. nab must run a
# task there as on a machine of its own (`--engine unix://…#remote`). Needs root.
#
#   ci/remote-engine.sh start   # starts it (once), prints its URL
#   ci/remote-engine.sh stop
set -eu
DIR=${NAB_REMOTE_ENGINE_DIR:-/var/lib/nab-remote-engine}
RUN=/run/nab-remote-engine
SOCK=$RUN/docker.sock

up() { docker -H "unix://$SOCK" info >/dev/null 2>&1; }

case "${1:-start}" in
start)
    if up; then echo "unix://$SOCK"; exit 0; fi
    mkdir -p "$DIR/data" "$DIR/exec" "$RUN"
    echo '{}' > "$DIR/daemon.json"
    # Paths nab uses on this machine, hidden from the engine (an empty tmpfs over each).
    HIDE="/tmp /var/lib/nab /root $(git rev-parse --show-toplevel 2>/dev/null || pwd) ${CARGO_TARGET_DIR:-}"
    export DIR SOCK HIDE
    # From /: the engine outlives this checkout (see ci/podman.sh).
    cd /
    setsid unshare --mount --net --propagation private sh -c '
        set -e
        # Shared inside this namespace only: disk-quota mounts made by a helper container
        # must reach the containers that bind them.
        mount --make-rshared /
        for d in $HIDE; do
            mkdir -p "$d" && mount -t tmpfs -o size=256m,mode=1777 tmpfs "$d"
        done
        ip link set lo up
        exec dockerd --config-file "$DIR/daemon.json" --data-root "$DIR/data" \
            --exec-root "$DIR/exec" --pidfile "$DIR/docker.pid" -H "unix://$SOCK" \
            --iptables=false --ip6tables=false --bridge=none --ip-forward=false --ip-masq=false
    ' > "$DIR/dockerd.log" 2>&1 < /dev/null &
    i=0
    until up; do
        i=$((i + 1))
        if [ $i -gt 60 ]; then
            echo "the remote engine did not start; its log:" >&2
            tail -20 "$DIR/dockerd.log" >&2
            exit 1
        fi
        sleep 1
    done
    echo "unix://$SOCK"
    ;;
stop)
    if [ -f "$DIR/docker.pid" ]; then kill "$(cat "$DIR/docker.pid")" 2>/dev/null || true; fi
    ;;
*)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac

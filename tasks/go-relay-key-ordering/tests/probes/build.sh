#!/bin/bash
# Builds the probe of the hidden tests with the agent's module, as the sandbox user (a
# `user: sandbox` verify step: a build or vet error fails the trial, `build_failed`), in a
# scratch folder /tmp/nab-go:
# - a copy of /workspace, with the shipped go.mod and the workspace's own tests as shipped
#   (/nab/probes/workspace/) put back over the agent's copies, and no go.work or vendor/;
# - `go vet` with the analyzers `go test` runs, over every package with its tests: the
#   shipped tests must still compile against the agent's code (their assertions are the
#   runner's, on what the probe observes: test_workspace_packages.py);
# - the probe (/nab/probes/relayprobe/) as package nabprobe of the module (so that it may
#   import the internal packages), built under the race detector: /tmp/nab-go/probe.
# Offline (GOPROXY=off, GOFLAGS=-mod=mod, GOTOOLCHAIN=local, GOWORK=off), with a clean
# environment and every cache under the scratch folder (the root file system is read-only).
set -euo pipefail
S=/tmp/nab-go
rm -rf "$S"
mkdir -p "$S/home" "$S/gopath" "$S/tmp"
# The image's build cache of the standard library (task.yaml's set-up), copied: go writes
# to its cache. The module and the probe are compiled here, from their sources.
cp -R /usr/lib/nab/gocache "$S/cache"
cp -R /workspace "$S/src"
cd "$S/src"
rm -rf nabprobe go.work go.work.sum vendor
while IFS= read -r -d '' f; do
  rel=${f#/nab/probes/workspace/}
  rm -rf "$rel"
  mkdir -p "$(dirname "$rel")"
  cp "$f" "$rel"
done < <(find /nab/probes/workspace -type f -print0)
go() {
  env -i PATH=/usr/bin:/bin HOME="$S/home" TMPDIR="$S/tmp" GOCACHE="$S/cache" GOPATH="$S/gopath" \
    GOPROXY=off GOSUMDB=off GOFLAGS=-mod=mod GOTOOLCHAIN=local GOWORK=off GOENV=off GOTELEMETRY=off \
    CGO_ENABLED=1 LANG=C.UTF-8 /usr/bin/go "$@"
}
go vet -atomic -bool -buildtags -errorsas -ifaceassert -nilfunc -printf -stringintconv ./...
mkdir nabprobe
cp /nab/probes/relayprobe/*.go nabprobe/
go build -race -o "$S/probe" ./nabprobe

#!/bin/bash
# Builds the probe of the hidden tests with the agent's module, as the sandbox user (a
# `user: sandbox` verify step: a build error fails the trial, `build_failed`), in a
# scratch folder /tmp/nab-go: a copy of /workspace with the shipped go.mod put back and
# no go.work or vendor/, and the probe (/nab/probes/tallyprobe/) as package nabprobe of
# the module (so that it may import the internal packages): /tmp/nab-go/probe.
# Offline (GOPROXY=off, GOFLAGS=-mod=mod, GOTOOLCHAIN=local, GOWORK=off), with a clean
# environment and every cache under the scratch folder (the root file system is read-only).
set -euo pipefail
S=/tmp/nab-go
rm -rf "$S"
mkdir -p "$S/home" "$S/cache" "$S/gopath" "$S/tmp"
cp -R /workspace "$S/src"
cd "$S/src"
rm -rf nabprobe go.work go.work.sum vendor
cp /nab/probes/go.mod go.mod
go() {
  env -i PATH=/usr/bin:/bin HOME="$S/home" TMPDIR="$S/tmp" GOCACHE="$S/cache" GOPATH="$S/gopath" \
    GOPROXY=off GOSUMDB=off GOFLAGS=-mod=mod GOTOOLCHAIN=local GOWORK=off GOENV=off GOTELEMETRY=off \
    CGO_ENABLED=0 LANG=C.UTF-8 /usr/bin/go "$@"
}
mkdir nabprobe
cp /nab/probes/tallyprobe/*.go nabprobe/
go build -o "$S/probe" ./nabprobe

#!/bin/bash
# Build into ./build and run the demo.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf build && mkdir -p build
javac -d build $(find src/main/java -name '*.java')
java -cp build com.acme.orders.Main

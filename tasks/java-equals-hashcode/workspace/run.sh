#!/bin/bash
# Build into ./build and run the demo import.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf build && mkdir -p build
javac -d build $(find src/main/java -name '*.java')
java -cp build com.acme.stock.Main

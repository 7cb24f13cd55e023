#!/usr/bin/env bash
# Prints the line coverage of the UndoCore module from its own tests.
set -euo pipefail
swift build --build-tests --enable-code-coverage >/dev/null
swift test --skip-build --enable-code-coverage --filter UndoCoreTests >/dev/null
llvm_cov="$(dirname "$(readlink -f "$(command -v swift)")")/llvm-cov"
bin="$(swift build --show-bin-path)"
"$llvm_cov" report "$bin/undodPackageTests.xctest" -instr-profile="$bin/codecov/default.profdata" Sources/UndoCore \
  | tee /dev/stderr | awk '/^TOTAL/ { print "UndoCore line coverage: " $(NF-3) }'

#!/bin/bash
# Builds undod and every test under AddressSanitizer, then ThreadSanitizer
# (Swift's -sanitize=address / -sanitize=thread), each in a build directory
# of its own, and runs the whole suite with each: the tests start the
# sanitized undod, so the daemon is checked as it serves real clients.
# A report fails the run. Suppressions go in scripts/asan.supp (and a
# TSAN_SUPPRESSIONS file, if ever needed), each with a comment giving the
# reason.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
which=${SANITIZERS:-address thread}
for sanitizer in $which; do
    scratch=".build/sanitize-$sanitizer"
    echo "== $sanitizer: building"
    swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
    echo "== $sanitizer: testing"
    log=$(mktemp)
    # A sanitized debug build runs several times slower: every bound the
    # tests wait with is stretched, never a sleep added.
    export UNDOD_TEST_TIME_SCALE=4
    # Shadow memory and quarantine make RSS meaningless: the fuzzer skips its bound.
    export UNDOD_TEST_SANITIZER="$sanitizer"
    # halt_on_error: the first report fails the test that caused it.
    export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=1:suppressions=$here/scripts/asan.supp"
    export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1${TSAN_SUPPRESSIONS:+:suppressions=$TSAN_SUPPRESSIONS}"
    if ! swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" 2>&1 | tee "$log"; then
        echo "sanitize: the suite failed under $sanitizer" >&2
        exit 1
    fi
    if grep -q "Sanitizer:" "$log"; then
        echo "sanitize: $sanitizer reported:" >&2
        grep -A20 "Sanitizer:" "$log" | head -60 >&2
        exit 1
    fi
    rm -f "$log"
done
echo "sanitize: 0 reports ($which)"

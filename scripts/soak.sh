#!/usr/bin/env bash
# Runs the pipelined pushes again and again, to find a failure that shows
# once in dozens of runs: each round runs UndoKit's pipelined pushes
# (undod-bench --only 7: 10,000 pushLater through UndoKit) and the raw
# pipelined calls (undod-bench --quick --only 2: Push and Ping, 128 in
# flight), each with its own bus and undod. Stops after RUNS rounds or on
# Ctrl-C, and prints how many rounds of each failed (a failure's output is
# kept in the scratch directory it names).
#
#   scripts/soak.sh [RUNS]      (default 100; make soak RUNS=N)
set -uo pipefail
runs=${1:-100}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "$here" && swift build -c release --show-bin-path)
for product in undod undod-bench undoctl; do
    (cd "$here" && swift build -c release --product "$product" >/dev/null) || exit 2
done
logs=$(mktemp -d "${TMPDIR:-/tmp}/undod-soak-XXXXXX")
kit_failed=0 raw_failed=0 done_runs=0
report() {
    echo "soak: $done_runs rounds; UndoKit pipelined (--only 7): $kit_failed failed; raw pipelined (--quick --only 2): $raw_failed failed; logs in $logs"
}
trap 'report; exit 130' INT TERM
for ((run = 1; run <= runs; run++)); do
    if ! "$bin/undod-bench" --undod "$bin/undod" --only 7 >"$logs/kit-$run.log" 2>&1; then
        kit_failed=$((kit_failed + 1))
        echo "soak: round $run: UndoKit pipelined failed (see $logs/kit-$run.log)"
    else
        rm -f "$logs/kit-$run.log"
    fi
    if ! "$bin/undod-bench" --undod "$bin/undod" --quick --only 2 >"$logs/raw-$run.log" 2>&1; then
        raw_failed=$((raw_failed + 1))
        echo "soak: round $run: raw pipelined failed (see $logs/raw-$run.log)"
    else
        rm -f "$logs/raw-$run.log"
    fi
    done_runs=$run
done
report
[ "$kit_failed" = 0 ] && [ "$raw_failed" = 0 ]

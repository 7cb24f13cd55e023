#!/usr/bin/env bash
# `make run` without a session bus, tested (part of `make test`): two runs
# side by side each start their own bus and keep their history in a
# directory of their own, say where, and both answer undoctl.
# Usage: run-test.sh BIN_DIR (undod and undoctl, e.g. .build/debug)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1
work=$(mktemp -d /tmp/undod-run-test.XXXXXX)
pids=()
# Each run is a process group of its own, stopped as Ctrl+C stops it.
cleanup() { for pid in "${pids[@]}"; do kill -INT -- "-$pid" 2>/dev/null || true; done; wait || true; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "run test: FAILED: $*" >&2; for n in 1 2; do sed 's/^/  /' "$work/run$n.out" >&2 || true; done; exit 1; }

for n in 1 2; do
  setsid env -u DBUS_SESSION_BUS_ADDRESS HOME="$work/home" XDG_STATE_HOME="$work/home/state" \
    bash scripts/run.sh "$bin" >"$work/run$n.out" 2>&1 &
  pids+=($!)
done
for n in 1 2; do
  for _ in $(seq 400); do grep -q 'undod: ready\|Press Ctrl+C' "$work/run$n.out" && break; sleep 0.05; done
  address=$(sed -n 's/^  DBUS_SESSION_BUS_ADDRESS=//p' "$work/run$n.out")
  state=$(sed -n 's/^Its history is kept in \(.*\) (not in your own$/\1/p' "$work/run$n.out")
  [ -n "$address" ] || fail "run $n named no bus"
  [ -n "$state" ] || fail "run $n did not say where its history is kept"
  case "$state" in "$work/home"*) fail "run $n keeps its history in the user's state directory: $state" ;; esac
  for _ in $(seq 200); do "$bin/undoctl" --address "$address" list >/dev/null 2>&1 && break; sleep 0.05; done
  "$bin/undoctl" --address "$address" list >/dev/null || fail "undod of run $n does not answer"
  [ -f "$state/history.sqlite3" ] || fail "run $n has no store in $state"
  # What it tells the user to type next works as printed.
  export_line=$(grep "^  export DBUS_SESSION_BUS_ADDRESS=" "$work/run$n.out") || fail "run $n printed no export line"
  (eval "$export_line"; "$bin/undoctl" status >/dev/null 2>&1; [ $? -ne 3 ]) || fail "run $n's export line reaches no undod"
  eval "state$n=\$state"
done
[ "$state1" != "$state2" ] || fail "both runs share $state1"
# A third, on a session bus where undod runs already (run 1's): it says so, with the pid, and leaves it be.
address1=$(sed -n 's/^  DBUS_SESSION_BUS_ADDRESS=//p' "$work/run1.out")
DBUS_SESSION_BUS_ADDRESS="$address1" timeout 20 bash scripts/run.sh "$bin" >"$work/run3.out" 2>&1 \
  || fail "make run beside a running undod did not end at once: $(cat "$work/run3.out")"
grep -q "^undod already runs on this bus, pid [0-9][0-9]* (.*undod" "$work/run3.out" \
  || fail "make run beside a running undod did not say so: $(cat "$work/run3.out")"
"$bin/undoctl" --address "$address1" list >/dev/null || fail "the running undod did not survive a third make run"
[ ! -e "$work/home/state/undod" ] || fail "a run wrote to the user's own ~/.local/state/undod"
echo "run test: two make runs without a session bus, side by side, each with its own bus and history; a third beside a running undod says so"

#!/usr/bin/env bash
# `make demo`: the global undo key, tried without a desktop (a server, a
# container, a CI box). Starts a desktop of its own — a private bus, Xvfb,
# openbox (so undod knows which window is in front), dunst (notifications)
# — then undod (its history in this run's own directory, never the user's)
# and Notes, the example editor; types into Notes with xdotool, presses
# Ctrl+Alt+z and the notification's Redo, and says what happened. Each part
# is waited for before the next starts, so nothing races. Then it leaves the
# desktop up and prints the lines to paste into another terminal to use it,
# until Ctrl+C; with --once it stops there. Everything it started is stopped
# on the way out.
#
#   bash scripts/demo.sh BIN_DIR [--once]      (BIN_DIR: undod and undoctl)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "$1" && pwd)
once=${2:-}
dir=$(mktemp -d /tmp/undod-demo.XXXXXX)
pids=()
cleanup() {
  # SIGKILL: everything here lives in $dir, which goes too (and a parent
  # may have started this script with SIGTERM blocked, as Foundation does).
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
say() { echo "demo: $*"; }
fail() { echo "demo: FAILED: $*" >&2; tail -n 20 "$dir"/*.log >&2 2>/dev/null || true; exit 1; }
# Waits up to $1 tenths of a second for the command after it to succeed.
within() { local tenths=$1; shift; for _ in $(seq "$tenths"); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done; return 1; }

for tool in dbus-daemon Xvfb openbox dunst dunstctl xdotool xprop gdbus; do
  command -v "$tool" >/dev/null || fail "$tool is missing (scripts/deps.sh installs it)"
done

# 1. A bus of its own.
dbus-daemon --session --nofork --print-address=3 --address="unix:path=$dir/bus" 3>"$dir/bus.address" 2>"$dir/bus.log" &
pids+=($!)
within 100 test -s "$dir/bus.address" || fail "the bus did not start"
export DBUS_SESSION_BUS_ADDRESS=$(head -n1 "$dir/bus.address")
say "bus      $DBUS_SESSION_BUS_ADDRESS"

# 2. A screen: Xvfb picks a free display and names it once it takes clients.
# 3. A window manager that says which window is active.
# On a busy machine (the test suite's many X servers coming and going) the
# new display has now and then stopped answering a moment after it did, and
# openbox could not open it: then both are started again (three tries).
for attempt in 1 2 3; do
  rm -f "$dir/display"
  Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$dir/display" 2>"$dir/xvfb.log" &
  xvfb=$!
  pids+=($xvfb)
  within 150 test -s "$dir/display" || fail "Xvfb did not start"
  export DISPLAY=":$(head -n1 "$dir/display")"
  if within 50 xprop -root; then
    XDG_CACHE_HOME="$dir/cache" openbox --sm-disable >"$dir/openbox.log" 2>&1 &
    openbox=$!
    pids+=($openbox)
    within 150 sh -c 'xprop -root _NET_SUPPORTING_WM_CHECK | grep -q "window id"' && break
    kill -KILL "$openbox" 2>/dev/null || true
  fi
  [ "$attempt" = 3 ] && fail "openbox did not start on a display of its own (three tries)"
  kill -KILL "$xvfb" 2>/dev/null || true
done
say "display  $DISPLAY (Xvfb)"
dunst >"$dir/dunst.log" 2>&1 &
pids+=($!)
within 150 gdbus wait --session --timeout 1 org.freedesktop.Notifications || fail "dunst did not start"
say "desktop  openbox and dunst are up"

# 4. undod, its history in this run's directory.
"$bin/undod" --state-dir "$dir/state" --verbose 2>"$dir/undod.log" &
pids+=($!)
gdbus wait --session --timeout 15 org.undod.Undo1 >/dev/null 2>&1 || fail "undod did not start"
say "undod    running, history in $dir/state"

# 5. Notes, editing a file of this run, telling what it does on stdout.
NO_AT_BRIDGE=1 /usr/bin/python3 Examples/notes.py --trace --file "$dir/notes.txt" >"$dir/notes.log" 2>"$dir/notes.err" &
pids+=($!)
within 300 grep -q '"event":"registered"' "$dir/notes.log" || fail "Notes did not register"
xdotool search --sync --onlyvisible --name '^Notes' windowactivate --sync >/dev/null 2>&1
say "notes    Notes is in front"

# 6. The user's hand: type, undo by the global key, redo from the notification.
applied() { grep -c '"event":"applied"' "$dir/notes.log" || true; }
# Counted afresh at each try (an argument like "$(applied)" would be counted once).
applied_at_least() { [ "$(applied)" -ge "$1" ]; }
last_text() { grep '"event":"applied"' "$dir/notes.log" | tail -n1 | sed 's/.*"text":\("[^"]*"\).*/\1/'; }
xdotool type --delay 30 'hello world'
within 100 grep -q 'hello world' "$dir/notes.txt" || fail "the typing did not reach Notes"
say "typed    \"hello world\" into Notes"
xdotool key ctrl+alt+z
within 100 applied_at_least 1 || fail "Ctrl+Alt+z undid nothing"
say "Ctrl+Alt+z  undone: the text is now $(last_text)"
within 50 sh -c 'dunstctl count displayed | grep -qv "^0$"' || fail "no notification"
dunstctl action 0
within 100 applied_at_least 2 || fail "the notification's Redo did nothing"
say "Redo     (the notification's button) redone: the text is $(last_text)"
"$bin/undoctl" status | sed 's/^/  /'

[ "$once" = "--once" ] && { say "done."; exit 0; }
cat <<MSG

The desktop stays up until Ctrl+C. In another terminal, paste:
  export DBUS_SESSION_BUS_ADDRESS='$DBUS_SESSION_BUS_ADDRESS' DISPLAY=$DISPLAY
  $bin/undoctl watch &                              # follow what undod does
  xdotool search --onlyvisible --name '^Notes' windowactivate; xdotool type ' again'; xdotool key ctrl+alt+z
  $bin/undoctl undo --last                          # or undo from the shell
dunst shows a notification's buttons only as "(A)" after its text: press
them with \`dunstctl action 0\` (the first button: Redo after an undo), or
open dunst's menu of them with \`dunstctl context\` or a middle click on it.
MSG
wait "${pids[4]}"

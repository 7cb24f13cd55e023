#!/usr/bin/env bash
# Runs undod in the foreground: on the session bus when there is one,
# otherwise on a private dbus-daemon that this script starts, names, and
# stops when undod exits; undod's history then lives in that bus's own
# temporary directory, so that several can run side by side and none
# touches the user's real history.
set -euo pipefail
bin="$1"

# As undod itself does: DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus.
if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] && [ -n "${XDG_RUNTIME_DIR:-}" ] && [ -S "$XDG_RUNTIME_DIR/bus" ]; then
  export DBUS_SESSION_BUS_ADDRESS="unix:path=$XDG_RUNTIME_DIR/bus"
fi
if [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] && dbus-send --session --dest=org.freedesktop.DBus \
     --type=method_call --print-reply /org/freedesktop/DBus org.freedesktop.DBus.GetId >/dev/null 2>&1; then
  # An undod that already serves this bus (installed, activated, or
  # another make run) keeps it: the name is taken once.
  ask_bus() { dbus-send --session --dest=org.freedesktop.DBus --type=method_call --print-reply \
             /org/freedesktop/DBus "org.freedesktop.DBus.$1" "string:org.undod.Undo1" 2>/dev/null | sed -n '$s/.* //p'; }
  if [ "$(ask_bus NameHasOwner)" = true ]; then
    pid=$(ask_bus GetConnectionUnixProcessID)
    cat <<MSG
undod already runs on this bus, pid $pid ($(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | sed 's/ $//' || true)):
use it with
  $bin/undoctl status
or, to run this build instead, stop it first (\`systemctl --user stop undod\` if
systemd started it, else \`kill $pid\`) and run \`make run\` again.
MSG
    exit 0
  fi
  cat <<MSG
undod: using the session bus at $DBUS_SESSION_BUS_ADDRESS
From another terminal (undoctl is on your PATH after \`make install\`):
  $bin/undoctl status          # the focused stack
  $bin/undoctl watch           # what undod does, live
  busctl --user tree org.undod.Undo1
MSG
  exec "$bin/undod" --verbose
fi

dir=$(mktemp -d /tmp/undod-bus.XXXXXX)
address_file="$dir/address"
dbus-daemon --session --nofork --print-address=3 --address="unix:path=$dir/bus" 3>"$address_file" 2>"$dir/bus.log" &
bus_pid=$!
trap 'kill "$bus_pid" 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do [ -s "$address_file" ] && break; sleep 0.05; done
address=$(head -n1 "$address_file")
[ -n "$address" ] || { echo "undod: could not start a private bus:" >&2; cat "$dir/bus.log" >&2; exit 1; }
export DBUS_SESSION_BUS_ADDRESS="$address"
state="$dir/state"
cat <<MSG
undod: no session bus here, so this started a private one:
  DBUS_SESSION_BUS_ADDRESS=$address
Its history is kept in $state (not in your own
~/.local/state/undod), and goes with the bus when this stops.
Point undoctl (or busctl, or any client) at it from another terminal with:
  export DBUS_SESSION_BUS_ADDRESS='$address'
  $bin/undoctl status
  busctl --address='$address' tree org.undod.Undo1
(undoctl is on your PATH after \`make install\`; README's \`busctl --user\`
lines need --address='$address' instead of --user for this bus.)
Press Ctrl+C to stop undod and the bus.
MSG
"$bin/undod" --address "$address" --state-dir "$state" --verbose

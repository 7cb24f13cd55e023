#!/bin/bash
# Counts the instructions undod and the bus spend per call, phase by phase
# (BENCHMARKS.md, "Where the time goes"), with valgrind's callgrind.
#
#   scripts/profile.sh [--floor-service] [--cache] [OUTDIR] [CALLS]   (default /tmp/undod-profile, 1000)
#
# With --floor-service, `undod-bench --floor-service` stands in for undod (the
# same transport answering at once; BENCHMARKS.md): undod's column is then
# the floor's, and the difference is undod's own work. With --cache, undod's
# run simulates a 4 KiB L1 (caches the bench and the bus emptied, as on one
# pinned CPU) and the lines it misses a call are printed too.
#
# Builds undod in release mode, strips its debug info (valgrind 3.19 cannot
# read the DWARF 5 that Swift 6.3 writes; symbol names stay), starts a private
# bus and undod under callgrind, drives them with scripts/profile-drive.py and
# prints the instructions per call of each phase and process. Then, e.g.:
#   callgrind_annotate --inclusive=yes OUTDIR/undod.PID.out.3 | swift demangle --simplified
set -euo pipefail
floor=false
cache=()
while [ $# -gt 0 ]; do
    case "$1" in
        --floor-service) floor=true; shift ;;
        --cache) cache=(--cache-sim=yes --I1=4096,2,64 --D1=4096,2,64 --LL=1048576,16,64); shift ;;
        *) break ;;
    esac
done
out=${1:-/tmp/undod-profile}
calls=${2:-1000}
here=$(cd "$(dirname "$0")/.." && pwd)
for tool in valgrind callgrind_control dbus-daemon objcopy; do
    command -v "$tool" >/dev/null || { echo "profile.sh: needs $tool (apt-get install valgrind dbus binutils)" >&2; exit 2; }
done
product=undod; $floor && product=undod-bench
(cd "$here" && swift build -c release --product "$product" >/dev/null)
rm -rf "$out"
mkdir -p "$out/state"
objcopy --strip-debug "$here/.build/release/$product" "$out/undod"
printf '[limits]\nlevels = 100\n' > "$out/undod.conf"
cat > "$out/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$out/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
  <limit name="max_incoming_bytes">1000000000</limit>
  <limit name="max_outgoing_bytes">1000000000</limit>
  <limit name="max_message_size">1000000000</limit>
</busconfig>
CONF
valgrind --tool=callgrind --callgrind-out-file="$out/bus.%p.out" dbus-daemon --config-file="$out/bus.conf" \
    --nofork --print-address=3 --print-pid=4 3>"$out/address" 4>"$out/bus.pid" 2>"$out/bus.log" &
for _ in $(seq 100); do [ -s "$out/address" ] && [ -s "$out/bus.pid" ] && break; sleep 0.1; done
address=$(head -1 "$out/address")
bus_pid=$(head -1 "$out/bus.pid")
if $floor; then
    service=("$out/undod" --floor-service "$address")
else
    service=("$out/undod" --address "$address" --config "$out/undod.conf" --state-dir "$out/state")
fi
valgrind --tool=callgrind "${cache[@]}" --callgrind-out-file="$out/undod.%p.out" "${service[@]}" 2>"$out/undod.log" &
undod_pid=$!
trap 'kill $undod_pid $bus_pid 2>/dev/null || true' EXIT
for _ in $(seq 300); do
    busctl --address="$address" status org.undod.Undo1 >/dev/null 2>&1 && break
    sleep 0.1
done
/usr/bin/python3 "$here/scripts/profile-drive.py" "$address" "$undod_pid" "$bus_pid" "$calls"
printf '%-12s %12s %12s%s\n' phase undod bus "${cache:+ $(printf '%14s' 'lines missed')}"
for file in "$out"/undod.*.out.*; do
    phase=$(grep -m1 '^desc: Trigger' "$file" | awk '{print $4}')
    [ "$phase" = warm ] && continue  # the warm-up, dumped so that it counts nowhere else
    count=$calls; [ "$phase" = undofocused ] && count=$((calls < 90 ? calls : 90))
    bus_file=$(grep -l "^desc: Trigger: dump $phase\$" "$out"/bus.*.out.* | head -1)
    undod_total=$(grep -m1 '^summary' "$file" | awk '{print $2}')
    bus_total=$(grep -m1 '^summary' "$bus_file" | awk '{print $2}')
    # With --cache, the summary's 5th to 7th fields are I1 and D1 read and write misses.
    missed=$(grep -m1 '^summary' "$file" | awk -v n="$count" 'NF >= 7 { printf "%14.0f", ($5 + $6 + $7) / n }')
    awk -v p="$phase" -v u="$undod_total" -v b="$bus_total" -v n="$count" -v m="$missed" \
        'BEGIN { printf "%-12s %11.1fk %11.1fk%s\n", p, u / n / 1000, b / n / 1000, m }' 
done

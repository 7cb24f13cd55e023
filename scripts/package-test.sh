#!/usr/bin/env bash
# The install paths, tested as a new user meets them (part of `make test`):
#  1. `make deb` builds the package (lintian: no errors);
#  2. it installs into a fresh root (`dpkg --root`, with this machine's
#     package list so that its Depends are checked);
#  3. with the Swift toolchain hidden (a mount namespace: tmpfs over it, the
#     root's /usr/bin overlaid on /usr/bin), `undod --version` and
#     `undoctl --help` run, and the first `undoctl list` on a private bus
#     whose service directory is the installed one starts undod by D-Bus
#     activation;
#  4. removing the package leaves nothing of it behind;
#  5. `make install` puts each file where it is read (libundod too), and
#     `make uninstall` removes everything it put down.
# Needs root (dpkg --root, mount namespaces); says so and passes otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/package-root.sh

begin_package_test "package test" "dpkg --root and a mount namespace"

deb=$(make --no-print-directory -s deb | tail -n1)
[ -f "$deb" ] || fail "make deb made no package"

# 2. A fresh root, dependencies checked against this machine's packages.
root="$work/root"
install_into_fresh_root "$root" -- "$deb" || fail "dpkg -i"
for file in usr/bin/undod usr/bin/undoctl usr/bin/undod-files usr/bin/undod-files-run usr/share/man/man1/undod.1.gz \
            usr/share/man/man1/undoctl.1.gz usr/share/man/man1/undod-files.1.gz \
            usr/share/dbus-1/services/org.undod.Undo1.service usr/share/dbus-1/services/org.undod.Files1.service \
            usr/lib/systemd/user/undod.service \
            usr/share/bash-completion/completions/undoctl usr/share/zsh/vendor-completions/_undoctl \
            usr/share/fish/vendor_completions.d/undoctl.fish etc/xdg/undod/undod.conf \
            usr/share/kwin/scripts/undod/metadata.json usr/share/kwin/scripts/undod/contents/code/main.js \
            usr/share/gnome-shell/extensions/undod@undod.org/extension.js \
            usr/share/gnome-shell/extensions/undod@undod.org/schemas/gschemas.compiled \
            usr/share/applications/org.undod.undod.desktop; do
  [ -f "$root/$file" ] || fail "the package lacks /$file"
done
for binary in undod undoctl undod-files undod-files-run; do
  if readelf -d "$root/usr/bin/$binary" | grep -Ei 'swift|/opt/' >/dev/null; then
    fail "$binary still names the Swift toolchain: $(readelf -d "$root/usr/bin/$binary" | grep -Ei 'swift|/opt/')"
  fi
done

# 3. Run it where Swift is not.
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
cat > "$work/bus.conf" <<CONF
<busconfig><type>session</type><listen>unix:dir=$work</listen><auth>EXTERNAL</auth>
<servicedir>$root/usr/share/dbus-1/services</servicedir>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
CONF
mkdir -p "$work/home"
unshare -m bash -euo pipefail -c '
  root=$1; work=$2; toolchain=$3
  mount -t tmpfs none "$toolchain"
  mount -t overlay overlay -o "lowerdir=$root/usr/bin:/usr/bin" /usr/bin
  ! command -v swift >/dev/null || { echo "swift is still reachable" >&2; exit 1; }
  version=$(/usr/bin/undod --version)
  [ "$version" = "undod 0.1.0" ] || { echo "undod --version said: $version" >&2; exit 1; }
  help=$(/usr/bin/undoctl --help)   # read whole: grep -q leaving first would SIGPIPE it under pipefail
  grep -q "^USAGE" <<<"$help" || { echo "undoctl --help printed no usage" >&2; exit 1; }
  env -i PATH=/usr/bin:/bin HOME="$work/home" XDG_STATE_HOME="$work/home/state" \
    dbus-daemon --config-file="$work/bus.conf" --nofork --print-address=3 --print-pid=4 \
    3>"$work/address" 4>"$work/bus.pid" 2>"$work/bus.log" &
  for _ in $(seq 200); do [ -s "$work/address" ] && break; sleep 0.05; done
  address=$(head -n1 "$work/address")
  [ -n "$address" ] || { echo "no private bus" >&2; exit 1; }
  listing=$(timeout 30 /usr/bin/undoctl --address "$address" list) || {
    echo "undoctl list failed; the bus said:" >&2; cat "$work/bus.log" >&2; kill "$(cat "$work/bus.pid")"; exit 1; }
  owner=$(timeout 10 busctl --address="$address" call org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus GetConnectionUnixProcessID s org.undod.Undo1 | cut -d" " -f2)
  exe=$(readlink "/proc/$owner/exe")
  kill "$owner" "$(cat "$work/bus.pid")"
  [ "$listing" = "No stacks: no application has one with undod now." ] || { echo "undoctl list said: $listing" >&2; exit 1; }
  [ "$exe" = /usr/bin/undod ] || { echo "the activated undod is $exe" >&2; exit 1; }
' package-test "$root" "$work" "$toolchain" || fail "the installed package did not run without Swift"

# 4. Removing it leaves nothing of it.
dpkg --root="$root" --purge undod >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log" >&2; fail "dpkg --purge"; }
left=$(find "$root" -path "$root/var" -prune -o -type f -print)
[ -z "$left" ] || fail "dpkg --purge left: $left"

# 5. make install, then make uninstall: nothing left but empty directories
#    that were not undod's own.
#    Each file goes where it is read: the example config where undod reads
#    it (/etc/xdg), fish's completions where fish looks outside /usr
#    (/etc/fish), libundod in PREFIX's multiarch directory.
make --no-print-directory -s install DESTDIR="$work/inst" >/dev/null
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
for file in usr/local/bin/undod usr/local/share/zsh/site-functions/_undoctl etc/xdg/undod/undod.conf \
            etc/fish/completions/undoctl.fish "usr/local/lib/$multiarch/pkgconfig/undod-1.pc" \
            "usr/local/lib/$multiarch/girepository-1.0/Undod-1.0.typelib" usr/local/include/undod-1/undod/undod.h; do
  [ -e "$work/inst/$file" ] || fail "make install did not put down /$file"
done
make --no-print-directory -s uninstall DESTDIR="$work/inst"
left=$(find "$work/inst" -type f)
[ -z "$left" ] || fail "make uninstall left: $left"
for dir in usr/local/share/kwin/scripts/undod usr/local/share/gnome-shell/extensions/undod@undod.org; do
  [ ! -e "$work/inst/$dir" ] || fail "make uninstall left undod's own directory /$dir"
done

echo "package test: $deb installs into a fresh root, runs without Swift, starts by D-Bus activation, and goes without a trace"

#!/usr/bin/env bash
# Makes a root of a newer Debian's desktops, for the compositor suites to run
# their GNOME Shell, KWin and sway from, and prints its path:
#
#   scripts/desktop-root.sh SUITE        # trixie, forky or sid
#
# The root is built once with mmdebstrap (no root privileges needed, about
# two minutes and 300 MiB of packages) and kept as a tarball in the cache
# (UNDOD_DESKTOP_CACHE, default /var/cache/undod/desktops); a later run
# unpacks the tarball beside it, and a run after that finds it unpacked.
# The package list is part of the tarball's name, so changing it builds anew.
# Run the compositors with scripts/in-desktop-root.sh.
set -euo pipefail
suite=${1:?usage: desktop-root.sh trixie|forky|sid}
case "$suite" in trixie|forky|sid) ;; *) echo "desktop-root.sh: SUITE is trixie, forky or sid, not $suite" >&2; exit 2;; esac
cache=${UNDOD_DESKTOP_CACHE:-/var/cache/undod/desktops}

# What the compositor suites run from the root: the three compositors, the
# bus daemon they expect beside them, and the GlobalShortcuts portal with
# GNOME's backend (which brings GNOME Settings' shortcuts provider) and
# KDE's.
# Applications, undod and the tests' hands come from the host.
packages=gnome-shell,kwin-wayland,sway,dbus-daemon,fonts-dejavu-core,xdg-desktop-portal,xdg-desktop-portal-gnome,xdg-desktop-portal-kde
key=$(printf '%s %s' "$suite" "$packages" | sha256sum | cut -c1-12)
tarball="$cache/$suite-$key.tar"
root="$cache/$suite-$key"

if [ -f "$root/.complete" ]; then echo "$root"; exit 0; fi

for tool in mmdebstrap tar; do
  command -v "$tool" >/dev/null || { echo "desktop-root.sh: $tool is missing (scripts/deps.sh installs it)" >&2; exit 1; }
done
install -d -m 0755 "$cache"
# One builder at a time per root: two test processes may ask at once.
exec 9>"$cache/$suite-$key.lock"
flock 9
if [ -f "$root/.complete" ]; then echo "$root"; exit 0; fi

if [ ! -f "$tarball" ]; then
  echo "desktop-root.sh: building Debian $suite's desktops in $tarball (a few minutes, once)" >&2
  # The archive's Valid-Until may have passed on a snapshot; no recommends:
  # only what the compositors need to start.
  mmdebstrap --variant=apt --mode=unshare --format=tar --quiet \
    --aptopt='Acquire::Check-Valid-Until "false"' --aptopt='APT::Install-Recommends "false"' \
    --include="$packages" "$suite" "$tarball.partial.tar" http://deb.debian.org/debian >&2
  mv "$tarball.partial.tar" "$tarball"
fi
rm -rf "$root"
install -d -m 0755 "$root"
tar -C "$root" -xf "$tarball" --numeric-owner 2>/dev/null || tar -C "$root" -xf "$tarball"
touch "$root/.complete"
echo "$root"

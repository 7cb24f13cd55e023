#!/usr/bin/env bash
# Builds dist/undod_VERSION_ARCH.deb: what `make install-undod PREFIX=/usr` puts
# down (the binaries with the Swift runtime linked in, stripped), its
# Depends computed by dpkg-shlibdeps from what the binaries link, then
# checked by lintian: an error fails the build. Prints the package's path.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(.build/static/release/undod --version | awk '{print $2}')
arch=$(dpkg --print-architecture)
stage=$(mktemp -d /tmp/undod-deb.XXXXXX)
trap 'rm -rf "$stage"' EXIT
root="$stage/root"

make --no-print-directory -s install-undod DESTDIR="$root" PREFIX=/usr >/dev/null
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/undod" "$root/usr/bin/undoctl" \
  "$root/usr/bin/undod-files" "$root/usr/bin/undod-files-run"
gzip -9n "$root"/usr/share/man/man1/*.1

source scripts/deb-docs.sh
package_docs "$root/usr/share/doc/undod" undod "$version" deb

# Depends: what the binaries link, as dpkg-shlibdeps finds it.
install -d "$stage/debian"
printf 'Source: undod\n\nPackage: undod\nArchitecture: any\n' > "$stage/debian/control"
shlibs=$(cd "$stage" && dpkg-shlibdeps -O -e root/usr/bin/undod -e root/usr/bin/undoctl -e root/usr/bin/undod-files -e root/usr/bin/undod-files-run 2>/dev/null \
  | sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || { echo "deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

install -d "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<TEXT
Package: undod
Version: $version
Architecture: $arch
Maintainer: undod maintainers <maintainers@undod.invalid>
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $shlibs
Recommends: dbus-user-session
Section: utils
Priority: optional
Description: system-wide undo and redo for the Linux desktop
 undod is a per-user daemon on the D-Bus session bus that keeps one undo
 stack per application and document. Applications push named groups of
 inverse actions; the global undo key, a signal or \`undoctl undo\` calls
 the focused application back with the right payloads to apply.
 .
 This package holds undod, undoctl, undod-files (the shell's undo of rm,
 mv and mkdir, loaded by \`undoctl shell-init\`), their manual pages, the
 D-Bus activation files and interface, the systemd user unit, shell completions,
 the example configuration, undod's KWin script (loaded by undod under KDE)
 and its GNOME Shell extension (undod@undod.org, enabled by the user).
TEXT
echo /etc/xdg/undod/undod.conf > "$root/DEBIAN/conffiles"
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"

mkdir -p dist
deb="dist/undod_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
if command -v lintian >/dev/null; then
  lintian --fail-on error --allow-root "$deb" >&2 || { echo "deb: lintian reports errors" >&2; exit 1; }
else
  echo "deb: lintian is not installed (scripts/deps.sh installs it); not checked" >&2
fi
echo "$deb"

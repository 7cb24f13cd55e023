#!/usr/bin/env bash
# Builds UndodQt's Debian packages into dist/ (`make deb-undod-qt`), split as
# Qt libraries are:
#   libundodqt0      the bridge library (libUndodQt.so.0)
#   libundodqt-dev   its header, the .so link and the CMake package
#                    (find_package(UndodQt), UndodQt::UndodQt)
# from a release build installed with prefix /usr; the library's Depends
# computed by dpkg-shlibdeps; each package checked by lintian (an error
# fails the build). Prints the packages' paths, one a line.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^project(UndodQt VERSION \([0-9.]*\) .*/\1/p' undod-qt/CMakeLists.txt)
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
stage=$(mktemp -d /tmp/undod-qt-deb.XXXXXX)
trap 'rm -rf "$stage"' EXIT
lib="usr/lib/$multiarch"

cmake -S undod-qt -B "$stage/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
  -DCMAKE_INSTALL_LIBDIR="lib/$multiarch" >/dev/null
cmake --build "$stage/build" -j2 --target UndodQt >/dev/null
DESTDIR="$stage/all" cmake --install "$stage/build" >/dev/null
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/all/$lib/libUndodQt.so.$version"
chmod 0644 "$stage/all/$lib/libUndodQt.so.$version"

# Moves the files matching the patterns (relative to the install) into package $1.
take() {
  local package=$1; shift
  for pattern in "$@"; do
    for path in "$stage"/all/$pattern; do
      [ -e "$path" ] || [ -L "$path" ] || { echo "deb-undod-qt: nothing matches $pattern" >&2; exit 1; }
      local relative=${path#"$stage/all/"}
      install -d "$stage/$package/$(dirname "$relative")"
      mv "$path" "$stage/$package/$relative"
    done
  done
}
take libundodqt0 "$lib/libUndodQt.so.0" "$lib/libUndodQt.so.$version"
take libundodqt-dev "usr/include" "$lib/libUndodQt.so" "$lib/cmake"
left=$(cd "$stage/all" && find . -type f -o -type l)
[ -z "$left" ] || { echo "deb-undod-qt: installed but in no package: $left" >&2; exit 1; }

source scripts/deb-docs.sh
# Writes package $1's control (with Depends $2, Section $3, Description lines $4…) and docs, and builds it.
build() {
  local package=$1 depends=$2 section=$3 summary=$4 long=$5
  local root="$stage/$package"
  package_docs "$root/usr/share/doc/$package" undod-qt "$version" deb-undod-qt
  install -d "$root/DEBIAN"
  cat > "$root/DEBIAN/control" <<TEXT
Package: $package
Source: undod-qt
Version: $version
Architecture: $arch
Multi-Arch: same
Maintainer: undod maintainers <maintainers@undod.invalid>
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Section: $section
Priority: optional
Description: $summary
$long
TEXT
  (cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
  local deb="dist/${package}_${version}_${arch}.deb"
  dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
  if command -v lintian >/dev/null; then
    lintian --fail-on error --allow-root "$deb" >&2 || { echo "deb-undod-qt: lintian reports errors in $package" >&2; exit 1; }
  fi
  echo "$deb"
}

# The library's Depends (dpkg-shlibdeps), its shlibs for its users and ldconfig on install.
install -d "$stage/debian" "$stage/libundodqt0/DEBIAN"
printf 'Source: undod-qt\n\nPackage: libundodqt0\nArchitecture: any\n' > "$stage/debian/control"
depends=$(cd "$stage" && dpkg-shlibdeps -O "libundodqt0/$lib/libUndodQt.so.$version" 2>/dev/null \
  | sed -n 's/^shlibs:Depends=//p')
echo "libUndodQt 0 libundodqt0 (>= $version)" > "$stage/libundodqt0/DEBIAN/shlibs"
echo "activate-noawait ldconfig" > "$stage/libundodqt0/DEBIAN/triggers"

mkdir -p dist
about=" UndodQt keeps a QUndoStack's history in undod, the desktop-wide undo
 service: the stack's own undo, the global undo key and \`undoctl undo\`
 then walk one history."
build libundodqt0 "$depends" libs "QUndoStack bridge for undod, the desktop-wide undo service" \
  "$about
 .
 This package holds the shared library."
build libundodqt-dev "libundodqt0 (= $version), qtbase5-dev" libdevel "development files for UndodQt" \
  "$about
 .
 This package holds the header, the .so link and the CMake package
 (find_package(UndodQt) and the target UndodQt::UndodQt)."

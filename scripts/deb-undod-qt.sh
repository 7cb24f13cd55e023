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
source=undod-qt target=deb-undod-qt
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

source scripts/deb-parts.sh
take libundodqt0 "$lib/libUndodQt.so.0" "$lib/libUndodQt.so.$version"
take libundodqt-dev "usr/include" "$lib/libUndodQt.so" "$lib/cmake"
every_file_taken

# The library's Depends (dpkg-shlibdeps).
install -d "$stage/debian"
printf 'Source: undod-qt\n\nPackage: libundodqt0\nArchitecture: any\n' > "$stage/debian/control"
depends=$(cd "$stage" && dpkg-shlibdeps -O "libundodqt0/$lib/libUndodQt.so.$version" 2>/dev/null \
  | sed -n 's/^shlibs:Depends=//p')
shared_library libundodqt0 libUndodQt

about=" UndodQt keeps a QUndoStack's history in undod, the desktop-wide undo
 service: the stack's own undo, the global undo key and \`undoctl undo\`
 then walk one history."
build_package libundodqt0 "$depends" libs "QUndoStack bridge for undod, the desktop-wide undo service" \
  "$about
 .
 This package holds the shared library."
build_package libundodqt-dev "libundodqt0 (= $version), qtbase5-dev" libdevel "development files for UndodQt" \
  "$about
 .
 This package holds the header, the .so link and the CMake package
 (find_package(UndodQt) and the target UndodQt::UndodQt)."

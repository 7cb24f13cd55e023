#!/usr/bin/env bash
# Builds libundod's Debian packages into dist/ (`make deb-libundod`), the
# way GObject libraries are split:
#   libundod-1-0          the client library (libundod-1.so.0)
#   libundod-gtk4-1-0     the GTK 4 text bridge (libundod-gtk4-1.so.0)
#   libundod-gtk3-1-0     the GTK 3 text bridge (libundod-gtk3-1.so.0)
#   gir1.2-undod-1.0      the typelib Undod-1.0
#   gir1.2-undodgtk-1.0   the typelib UndodGtk-1.0 (the GTK 4 bridge)
#   gir1.2-undodgtk3-1.0  the typelib UndodGtk3-1.0 (the GTK 3 bridge)
#   libundod-dev          headers, the .so link, pkg-config file and GIR of
#                         the client library, the API reference
#   libundod-gtk4-dev     the GTK 4 bridge's .so link, pkg-config file and GIR
#   libundod-gtk3-dev     the GTK 3 bridge's
# (libundod-dev needs no GTK: each bridge's -dev is installed by who wants it;
# the bridges' two headers, shared by both, are in libundod-dev)
# from a release build installed with prefix /usr; each library's Depends
# computed by dpkg-shlibdeps; each package checked by lintian (an error
# fails the build). Prints the packages' paths, one a line.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n "s/^  version: '\(.*\)',$/\1/p" libundod/meson.build)
source=libundod target=deb-libundod
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
stage=$(mktemp -d /tmp/libundod-deb.XXXXXX)
trap 'rm -rf "$stage"' EXIT
lib="usr/lib/$multiarch"

meson setup "$stage/build" libundod --prefix=/usr --libdir="lib/$multiarch" --buildtype=release \
  -Dundod=/bin/false >/dev/null
meson compile -C "$stage/build" >/dev/null
meson install -C "$stage/build" --destdir "$stage/all" --no-rebuild >/dev/null
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/all/$lib"/libundod*.so.0.0.0
chmod 0644 "$stage/all/$lib"/libundod*.so.0.0.0

source scripts/deb-parts.sh
take libundod-1-0 "$lib/libundod-1.so.0" "$lib/libundod-1.so.0.0.0"
take libundod-gtk4-1-0 "$lib/libundod-gtk4-1.so.0" "$lib/libundod-gtk4-1.so.0.0.0"
take libundod-gtk3-1-0 "$lib/libundod-gtk3-1.so.0" "$lib/libundod-gtk3-1.so.0.0.0"
take gir1.2-undod-1.0 "$lib/girepository-1.0/Undod-1.0.typelib"
take gir1.2-undodgtk-1.0 "$lib/girepository-1.0/UndodGtk-1.0.typelib"
take gir1.2-undodgtk3-1.0 "$lib/girepository-1.0/UndodGtk3-1.0.typelib"
take libundod-gtk4-dev "$lib/libundod-gtk4-1.so" "$lib/pkgconfig/undod-gtk4-1.pc" "usr/share/gir-1.0/UndodGtk-1.0.gir"
take libundod-gtk3-dev "$lib/libundod-gtk3-1.so" "$lib/pkgconfig/undod-gtk3-1.pc" "usr/share/gir-1.0/UndodGtk3-1.0.gir"
take libundod-dev "usr/include" "$lib/libundod-1.so" "$lib/pkgconfig/undod-1.pc" "usr/share/gir-1.0/Undod-1.0.gir"
install -d "$stage/libundod-dev/usr/share/doc/libundod-dev"
mv "$stage/all/usr/share/doc/Undod-1" "$stage/libundod-dev/usr/share/doc/libundod-dev/html"
every_file_taken

shlibs_of() { # the Depends of the libraries in package $1 (dpkg-shlibdeps)
  local package=$1
  install -d "$stage/debian"
  printf 'Source: libundod\n\nPackage: %s\nArchitecture: any\n' "$package" > "$stage/debian/control"
  # The packages of this build provide each other's libraries.
  cat > "$stage/debian/shlibs.local" <<TEXT
libundod-1 0 libundod-1-0 (>= $version)
TEXT
  (cd "$stage" && dpkg-shlibdeps -O -L"$stage/debian/shlibs.local" -l"$stage/libundod-1-0/$lib" \
      $(find "$package/$lib" -maxdepth 1 -name '*.so.0.0.0') 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
}

about=" libundod keeps an application's undo history in undod, the desktop-wide
 undo service: the app's own undo, the global undo key and \`undoctl undo\`
 then work on one history."
shared_library libundod-1-0 libundod-1
build_package libundod-1-0 "$(shlibs_of libundod-1-0)" libs "client library for undod, the desktop-wide undo service" \
  "$about
 .
 This package holds the shared library."
shared_library libundod-gtk4-1-0 libundod-gtk4-1
build_package libundod-gtk4-1-0 "$(shlibs_of libundod-gtk4-1-0)" libs "GTK 4 text bridge for undod" \
  "$about
 .
 This package holds the bridge that records a GtkTextBuffer's edits in undod."
shared_library libundod-gtk3-1-0 libundod-gtk3-1
build_package libundod-gtk3-1-0 "$(shlibs_of libundod-gtk3-1-0)" libs "GTK 3 text bridge for undod" \
  "$about
 .
 This package holds the bridge for GTK 3 text buffers and GtkSourceView."
build_package gir1.2-undod-1.0 "libundod-1-0 (= $version), gir1.2-glib-2.0" \
  introspection "GObject introspection data for libundod" \
  "$about
 .
 This package holds the typelib Undod-1.0, for Python, GJS, Vala and Rust."
build_package gir1.2-undodgtk-1.0 "libundod-gtk4-1-0 (= $version), gir1.2-undod-1.0 (= $version), gir1.2-gtk-4.0" \
  introspection "GObject introspection data for libundod's GTK 4 bridge" \
  "$about
 .
 This package holds the typelib UndodGtk-1.0, for Python, GJS, Vala and Rust."
build_package gir1.2-undodgtk3-1.0 "libundod-gtk3-1-0 (= $version), gir1.2-undod-1.0 (= $version), gir1.2-gtk-3.0" \
  introspection "GObject introspection data for libundod's GTK 3 bridge" \
  "$about
 .
 This package holds the typelib UndodGtk3-1.0, for Python, GJS, Vala and Rust."
build_package libundod-dev "libundod-1-0 (= $version), gir1.2-undod-1.0 (= $version), libglib2.0-dev" \
  libdevel "development files for libundod" \
  "$about
 .
 This package holds the headers, the pkg-config file, the GIR file and the
 API reference (gi-docgen). The GTK bridges' development files are in
 libundod-gtk4-dev and libundod-gtk3-dev."
build_package libundod-gtk4-dev "libundod-dev (= $version), libundod-gtk4-1-0 (= $version), gir1.2-undodgtk-1.0 (= $version), libgtk-4-dev" \
  libdevel "development files for libundod's GTK 4 bridge" \
  "$about
 .
 This package holds the GTK 4 bridge's pkg-config file (undod-gtk4-1) and
 GIR file."
build_package libundod-gtk3-dev "libundod-dev (= $version), libundod-gtk3-1-0 (= $version), gir1.2-undodgtk3-1.0 (= $version), libgtk-3-dev, libgtksourceview-4-dev" \
  libdevel "development files for libundod's GTK 3 bridge" \
  "$about
 .
 This package holds the GTK 3 bridge's pkg-config file (undod-gtk3-1) and
 GIR file."

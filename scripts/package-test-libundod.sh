#!/usr/bin/env bash
# libundod's packages, tested as a developer meets them (part of `make test`):
#  1. `make deb-libundod` builds them (lintian: no errors);
#  2. they install into a fresh root (`dpkg --root`, with this machine's
#     package list so that their Depends are checked);
#  3. Python loads the installed typelibs (Undod, UndodGtk) and makes objects
#     of both, and UndodGtk3 in a process of its own (GTK 3 and 4 cannot
#     share one); a C program built with the installed pkg-config files, headers
#     and .so links runs against the installed library;
#  4. removing the packages leaves nothing of them behind.
# Needs root (dpkg --root); says so and passes otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/package-root.sh

begin_package_test "libundod package test" "dpkg --root"

mapfile -t debs < <(bash scripts/deb-libundod.sh)
[ "${#debs[@]}" = 7 ] || fail "make deb-libundod made ${#debs[@]} packages, not 7: ${debs[*]}"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)

root="$work/root"
install_into_fresh_root "$root" --force-script-chrootless -- "${debs[@]}" || fail "dpkg -i"
lib="$root/usr/lib/$multiarch"
for file in "$lib/libundod-1.so.0" "$lib/girepository-1.0/Undod-1.0.typelib" "$lib/girepository-1.0/UndodGtk-1.0.typelib" \
            "$lib/girepository-1.0/UndodGtk3-1.0.typelib" \
            "$root/usr/include/undod-1/undod/undod.h" "$lib/pkgconfig/undod-1.pc" "$root/usr/share/gir-1.0/Undod-1.0.gir" \
            "$root/usr/share/doc/libundod-dev/html/index.html"; do
  [ -e "$file" ] || fail "the packages did not install ${file#"$root"}"
done

GI_TYPELIB_PATH="$lib/girepository-1.0" LD_LIBRARY_PATH="$lib" /usr/bin/python3 - <<'PY' || fail "Python on the installed typelibs"
import gi
gi.require_version("Undod", "1.0")
gi.require_version("UndodGtk", "1.0")
from gi.repository import Undod, UndodGtk
options = Undod.Options(document="notes.txt", persist=False)
assert options.props.document == "notes.txt"
assert UndodGtk.TextBridge.__gtype__.name == "UndodTextBridge"
PY

GI_TYPELIB_PATH="$lib/girepository-1.0" LD_LIBRARY_PATH="$lib" /usr/bin/python3 - <<'PY' || fail "Python on the installed GTK 3 typelib"
import gi
gi.require_version("Gtk", "3.0")
gi.require_version("UndodGtk3", "1.0")
from gi.repository import UndodGtk3
assert UndodGtk3.TextBridge.__gtype__.name == "UndodTextBridge"
PY

cat > "$work/app.c" <<'C'
#include <undod/undod.h>
int main (void)
{
  g_autoptr (UndodOptions) options = undod_options_new ();
  undod_options_set_document (options, "notes.txt");
  return g_strcmp0 (undod_options_get_document (options), "notes.txt") == 0 && UNDOD_ERROR != 0 ? 0 : 1;
}
C
# The installed undod-1.pc, its prefix moved into the root; what it requires (GLib) from this machine.
ours=$(PKG_CONFIG_PATH="$lib/pkgconfig" pkg-config --define-variable=prefix="$root/usr" --cflags --libs undod-1) \
  || fail "pkg-config undod-1 from the installed -dev package"
flags="$(tr ' ' '\n' <<<"$ours" | grep -e "$root" -e '^-lundod') $(pkg-config --cflags --libs gio-2.0)"
cc -o "$work/app" "$work/app.c" $flags -Wl,-rpath,"$lib" || fail "a C program built against libundod-dev"
"$work/app" || fail "a C program against the installed libundod"

dpkg --root="$root" --force-script-chrootless --purge libundod-dev gir1.2-undodgtk3-1.0 gir1.2-undodgtk-1.0 gir1.2-undod-1.0 \
  libundod-gtk3-1-0 libundod-gtk4-1-0 libundod-1-0 >"$work/purge.log" 2>&1 || { cat "$work/purge.log" >&2; fail "dpkg --purge"; }
left=$(cd "$root" && find . -path '*undod*' -not -path './var/*' 2>/dev/null || true)
[ -z "$left" ] || fail "removing the packages left: $left"
echo "libundod package test: seven packages install into a fresh root, load from Python and C, and go without a trace"

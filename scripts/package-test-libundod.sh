#!/usr/bin/env bash
# libundod's packages, tested as a developer meets them (part of `make test`):
#  1. `make deb-libundod` builds them (lintian: no errors);
#  2. libundod-dev installs into a fresh root with the two packages it
#     depends on and nothing of GTK (`dpkg --root`, with this machine's
#     package list so that their Depends are checked), and a C program
#     built with the installed pkg-config file, headers and .so link runs
#     against the installed library; Python loads the installed Undod typelib;
#  3. the GTK bridges' packages install beside them, and Python makes
#     objects of UndodGtk, and of UndodGtk3 in a process of its own (GTK 3
#     and 4 cannot share one);
#  4. removing the packages leaves nothing of them behind.
# Needs root (dpkg --root); says so and passes otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/package-root.sh

begin_package_test "libundod package test" "dpkg --root"

mapfile -t debs < <(bash scripts/deb-libundod.sh)
[ "${#debs[@]}" = 9 ] || fail "make deb-libundod made ${#debs[@]} packages, not 9: ${debs[*]}"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
deb() { printf '%s\n' "${debs[@]}" | grep "/$1_"; }

root="$work/root"
install_into_fresh_root "$root" --force-script-chrootless -- \
  "$(deb libundod-dev)" "$(deb libundod-1-0)" "$(deb gir1.2-undod-1.0)" || fail "dpkg -i libundod-dev alone"
lib="$root/usr/lib/$multiarch"
for file in "$lib/libundod-1.so.0" "$lib/girepository-1.0/Undod-1.0.typelib" \
            "$root/usr/include/undod-1/undod/undod.h" "$lib/pkgconfig/undod-1.pc" "$root/usr/share/gir-1.0/Undod-1.0.gir" \
            "$root/usr/share/doc/libundod-dev/html/index.html"; do
  [ -e "$file" ] || fail "libundod-dev and its Depends did not install ${file#"$root"}"
done
[ -z "$(cd "$root" && find . -name 'libundod-gtk*' -o -name 'UndodGtk*')" ] || fail "libundod-dev brought a GTK bridge"

GI_TYPELIB_PATH="$lib/girepository-1.0" LD_LIBRARY_PATH="$lib" /usr/bin/python3 - <<'PY' || fail "Python on the installed typelib"
import gi
gi.require_version("Undod", "1.0")
from gi.repository import Undod
options = Undod.Options(document="notes.txt", persist=False)
assert options.props.document == "notes.txt"
assert Undod.Hints(state_tag="t").props.state_tag == "t"
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

dpkg --root="$root" --force-script-chrootless -i "$(deb libundod-gtk4-dev)" "$(deb libundod-gtk4-1-0)" \
  "$(deb gir1.2-undodgtk-1.0)" "$(deb libundod-gtk3-dev)" "$(deb libundod-gtk3-1-0)" "$(deb gir1.2-undodgtk3-1.0)" \
  >"$work/bridges.log" 2>&1 || { cat "$work/bridges.log" >&2; fail "dpkg -i the GTK bridges' packages"; }
for file in "$lib/girepository-1.0/UndodGtk-1.0.typelib" "$lib/girepository-1.0/UndodGtk3-1.0.typelib" \
            "$lib/pkgconfig/undod-gtk4-1.pc" "$lib/pkgconfig/undod-gtk3-1.pc"; do
  [ -e "$file" ] || fail "the bridges' packages did not install ${file#"$root"}"
done

GI_TYPELIB_PATH="$lib/girepository-1.0" LD_LIBRARY_PATH="$lib" /usr/bin/python3 - <<'PY' || fail "Python on the installed GTK 4 typelib"
import gi
gi.require_version("UndodGtk", "1.0")
from gi.repository import UndodGtk
assert UndodGtk.TextBridge.__gtype__.name == "UndodTextBridge"
PY

GI_TYPELIB_PATH="$lib/girepository-1.0" LD_LIBRARY_PATH="$lib" /usr/bin/python3 - <<'PY' || fail "Python on the installed GTK 3 typelib"
import gi
gi.require_version("Gtk", "3.0")
gi.require_version("UndodGtk3", "1.0")
from gi.repository import UndodGtk3
assert UndodGtk3.TextBridge.__gtype__.name == "UndodTextBridge"
PY


dpkg --root="$root" --force-script-chrootless --purge libundod-gtk4-dev libundod-gtk3-dev libundod-dev \
  gir1.2-undodgtk3-1.0 gir1.2-undodgtk-1.0 gir1.2-undod-1.0 \
  libundod-gtk3-1-0 libundod-gtk4-1-0 libundod-1-0 >"$work/purge.log" 2>&1 || { cat "$work/purge.log" >&2; fail "dpkg --purge"; }
left=$(cd "$root" && find . -path '*undod*' -not -path './var/*' 2>/dev/null || true)
[ -z "$left" ] || fail "removing the packages left: $left"
echo "libundod package test: libundod-dev installs alone, then the bridges' six packages; they load from Python and C, and go without a trace"

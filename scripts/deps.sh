#!/usr/bin/env bash
# Installs the Debian packages undod needs to build, run and test, if any is
# missing: as root with apt-get, otherwise by printing the exact command.
set -euo pipefail

packages=(
  libdbus-1-dev      # libdbus, the D-Bus library undod is built on
  libsqlite3-dev     # the history store
  dbus               # dbus-daemon, for `make run` without a session bus and for tests
  dbus-bin           # dbus-send
  python3-dbus       # the foreign Python client the tests drive undod with
  libglib2.0-bin     # gdbus, a foreign client for the tests; gio, which reads the shell's trash back
  gvfs-daemons       # gvfsd-trash: what gio trash --list and --restore go through, as in GNOME Files
  systemd            # busctl, a foreign client for the tests
  libxcb1-dev        # the X11 connection: focus by the active window, the global key
  libxcb-res0-dev    # X-Resource: the process that owns a window, as the X server knows it
  libxkbcommon-dev   # key names in hotkey.undo and hotkey.redo
  pkg-config         # SwiftPM finds libdbus, SQLite, libxcb and libxkbcommon through it
  zsh                # the tests check undoctl's zsh completion
  fish               # the tests check undoctl's fish completion
  groff-base         # the tests check the man pages
  xvfb               # the tests' own X server, one per test
  openbox            # the tests' EWMH window manager
  xdotool            # the tests' hand: activates windows, presses the global keys
  xterm              # the terminal in front whose integrated bash the global key undoes
  xfonts-base        # xterm's fixed font on Xvfb
  x11-utils          # xprop: the tests wait for the window manager with it
  x11-xserver-utils  # xmodmap and xset: the tests change the keyboard mapping and read the locks
  dunst              # the tests' notification server, pressed with dunstctl
  python3-xlib       # the tests' X11 applications (Tests/Clients/x11_app.py)
  python3-gi         # the GTK example (Examples/notes.py) and the Python clients' main loop
  gir1.2-gtk-3.0     # GTK 3 for the example editor, and the tests' windows on sway
  sway               # the tests' Wayland compositor (headless, as an unprivileged user)
  wtype              # the tests' hand on sway: presses the global keys
  foot               # the Wayland terminal in front whose integrated bash the key undoes on sway
  util-linux         # setpriv: the tests run sway as that user
  strace             # the tests inject failures into undod's journal (FaultInjection)
  kwin-wayland       # the tests' KDE compositor (kwin_wayland --virtual), with undod's KWin script loaded
  gnome-shell        # the tests' GNOME compositor (--headless), with undod's Shell extension enabled
  mmdebstrap         # builds the roots of newer Debians' desktops the compositor suites also run on
  bubblewrap         # bwrap: runs a newer Debian's compositor in its root, unprivileged
  meson              # builds libundod, the C/GObject client library
  ninja-build        # meson's backend
  libglib2.0-dev     # GLib, GObject and GIO (GDBus), libundod's ground
  gobject-introspection    # g-ir-scanner: libundod's Undod-1.0.gir
  libgirepository1.0-dev   # the typelib's compiler and GObject-2.0.gir, Gio-2.0.gir
  libgtk-4-dev       # libundod-gtk4, the GtkTextBuffer bridge (and Gtk-4.0.gir)
  gir1.2-gtk-4.0     # GTK 4 from Python: the GTK 4 editor example and its test
  libgtksourceview-4-dev   # libundod-gtk3 (GTK 3) and the GtkSourceView example in C
  gi-docgen          # libundod's API reference, from its GIR (--fatal-warnings: every symbol documented)
  qtbase5-dev        # UndodQt, the QUndoStack bridge (QtDBus, QtWidgets, QtTest)
  qtwayland5         # the Qt example under the tests' headless sway
  cmake              # builds UndodQt and its CMake package config
  dpkg-dev           # dpkg-shlibdeps: the .deb's Depends (make deb)
  binutils           # strip and readelf: the .deb's binaries and the package test
  lintian            # checks the .deb (make deb)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  echo "Installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 || {
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}"
  }
else
  echo "undod needs these Debian packages: ${missing[*]}" >&2
  echo "Install them with:  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

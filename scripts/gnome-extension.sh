#!/usr/bin/env bash
# Puts undod's GNOME Shell extension together in DIR/undod@undod.org, as
# GNOME Shell loads it: the variant for the Shell's version (FORMAT 43 for
# GNOME Shell 43 and 44, 45 for the ES modules of 45 and later; by default
# the one the installed gnome-shell needs, else 45) and its settings schema,
# compiled. Used by `make install` (and so the .deb) and by the tests.
#
#   scripts/gnome-extension.sh DIR [FORMAT]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:?usage: gnome-extension.sh DIR [43|45]}
format=${2:-}
if [ -z "$format" ]; then
  major=$(gnome-shell --version 2>/dev/null | sed -n 's/^GNOME Shell \([0-9][0-9]*\).*/\1/p')
  if [ -n "$major" ] && [ "$major" -lt 45 ]; then format=43; else format=45; fi
fi
case "$format" in 43|45) ;; *) echo "gnome-extension.sh: FORMAT is 43 or 45, not $format" >&2; exit 2;; esac
extension="$dest/undod@undod.org"
install -d "$extension/schemas"
install -m 0644 "$here/Service/gnome-shell/$format/undod@undod.org/metadata.json" \
  "$here/Service/gnome-shell/$format/undod@undod.org/extension.js" "$extension/"
install -m 0644 "$here/Service/gnome-shell/org.gnome.shell.extensions.undod.gschema.xml" "$extension/schemas/"
glib-compile-schemas --strict "$extension/schemas"

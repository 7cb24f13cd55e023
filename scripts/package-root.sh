# Sourced by the package tests (scripts/package-test*.sh): packages
# installed into a root of their own, never this machine's.

# install_into_fresh_root ROOT [DPKG_OPTION…] -- DEB…: makes ROOT a dpkg
# root that knows this machine's installed packages (so the packages'
# Depends are checked against them) and installs the packages into it.
# Fails, printing dpkg's log, when dpkg does.
install_into_fresh_root() {
  local root=$1; shift
  local options=()
  while [ "$1" != -- ]; do options+=("$1"); shift; done
  shift
  mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
  cp /var/lib/dpkg/status "$root/var/lib/dpkg/status"
  touch "$root/var/lib/dpkg/available"
  dpkg --root="$root" "${options[@]}" -i "$@" >"$root.dpkg.log" 2>&1 || { cat "$root.dpkg.log" >&2; return 1; }
}

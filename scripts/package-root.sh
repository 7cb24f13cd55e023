# Sourced by the package tests (scripts/package-test*.sh): packages
# installed into a root of their own, never this machine's.

# begin_package_test NAME NEEDS: a package test's start. Unless run as
# root, says the test NAME was skipped because it needs root for NEEDS, and
# passes. Otherwise makes $work, a scratch directory removed on exit.
begin_package_test() {
  package_test=$1
  if [ "$(id -u)" -ne 0 ]; then
    echo "$package_test: skipped, it needs root ($2)"
    exit 0
  fi
  work=$(mktemp -d "/tmp/${package_test// /-}.XXXXXX")
  trap 'rm -rf "$work"' EXIT
}

# fail WHAT: ends the package test begun, saying WHAT failed.
fail() { echo "$package_test: FAILED: $*" >&2; exit 1; }

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

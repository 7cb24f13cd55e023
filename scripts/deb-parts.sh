# Sourced by scripts/deb-libundod.sh and scripts/deb-undod-qt.sh: an
# install split into packages, and each package built. The sourcing script
# sets, before it calls them:
#   stage    its work directory, the install in $stage/all
#   version, arch
#   source   the source package's name
#   target   its make target (for messages and the changelog)
source "$(dirname "${BASH_SOURCE[0]}")/deb-docs.sh"

# take PACKAGE PATTERN…: moves the installed files matching the patterns
# (relative to the install) into package PACKAGE.
take() {
  local package=$1; shift
  for pattern in "$@"; do
    for path in "$stage"/all/$pattern; do
      [ -e "$path" ] || [ -L "$path" ] || { echo "$target: nothing matches $pattern" >&2; exit 1; }
      local relative=${path#"$stage/all/"}
      install -d "$stage/$package/$(dirname "$relative")"
      mv "$path" "$stage/$package/$relative"
    done
  done
}

# every_file_taken: fails when the install holds a file no package took.
every_file_taken() {
  local left
  left=$(cd "$stage/all" && find . -type f -o -type l)
  [ -z "$left" ] || { echo "$target: installed but in no package: $left" >&2; exit 1; }
}

# shared_library PACKAGE SONAME: shlibs for the library's users, and
# ldconfig run on install.
shared_library() {
  local package=$1 soname=$2
  install -d "$stage/$package/DEBIAN"
  echo "$soname 0 $package (>= $version)" > "$stage/$package/DEBIAN/shlibs"
  echo "activate-noawait ldconfig" > "$stage/$package/DEBIAN/triggers"
}

# build_package PACKAGE DEPENDS SECTION SUMMARY LONG: writes the control
# file, the docs and the checksums, builds dist/PACKAGE_VERSION_ARCH.deb,
# has lintian check it (an error fails), and prints its path.
build_package() {
  local package=$1 depends=$2 section=$3 summary=$4 long=$5
  local root="$stage/$package"
  package_docs "$root/usr/share/doc/$package" "$source" "$version" "$target"
  install -d "$root/DEBIAN"
  cat > "$root/DEBIAN/control" <<TEXT
Package: $package
Source: $source
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
  mkdir -p dist
  dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
  if command -v lintian >/dev/null; then
    lintian --fail-on error --allow-root "$deb" >&2 || { echo "$target: lintian reports errors in $package" >&2; exit 1; }
  fi
  echo "$deb"
}

# Sourced by scripts/deb.sh and scripts/deb-parts.sh: the files every
# package of this tree carries in usr/share/doc/<package>.
#
#   package_docs DOC_DIR SOURCE VERSION TARGET
#     writes DOC_DIR/copyright and DOC_DIR/changelog.gz (for source package
#     SOURCE at VERSION, "Built … with `make TARGET`"), dated by
#     SOURCE_DATE_EPOCH, else the last commit, so that builds repeat.
package_docs() {
  local doc=$1 source=$2 version=$3 target=$4
  install -d "$doc"
  cat > "$doc/copyright" <<TEXT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: undod

Files: *
Copyright: 2026 the undod authors
License: undod
 undod is distributed by its authors under the terms stated in its
 source repository.
TEXT
  printf '%s (%s) unstable; urgency=medium\n\n  * Built from the undod source tree with `make %s`.\n\n -- undod maintainers <maintainers@undod.invalid>  %s\n' \
    "$source" "$version" "$target" \
    "$(date -R -d @"${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")" \
    | gzip -9n > "$doc/changelog.gz"
}

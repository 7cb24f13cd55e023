#!/usr/bin/env bash
# Checks the claim that undod, undoctl and undod-files-run link no Foundation: neither names a
# Foundation library (or Foundation's ICU) among what it needs at run time.
# line-editor, which links UndoKit and so Foundation, is the control: were
# the check itself broken, it would not see Foundation there either.
# Usage: scripts/check-links.sh BIN_DIR
set -euo pipefail
bin="${1:?usage: check-links.sh BIN_DIR}"
foundation='lib(Foundation|FoundationEssentials|FoundationInternationalization|FoundationNetworking|FoundationXML|_FoundationICU)\.so'

needs() { readelf -d "$bin/$1" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'; }

status=0
for binary in undod undoctl undod-files-run; do
    if found=$(needs "$binary" | grep -E "$foundation"); then
        echo "check-links: $binary links Foundation ($(echo $found)), which it must not." >&2
        status=1
    fi
done
if ! needs line-editor | grep -qE "$foundation"; then
    echo "check-links: the control line-editor shows no Foundation either: the check cannot see it." >&2
    status=1
fi
[ "$status" = 0 ] && echo "check-links: undod, undoctl and undod-files-run link no Foundation (line-editor, the control, does)."
exit "$status"

#!/bin/sh
# Counts the public declarations of OverlayKit and OverlayModel without a doc comment, from
# the compiler's own symbol graphs (swift-symbolgraph-extract over the built modules, so enum
# cases, members of public extensions and conformances all count, exactly as DocC sees them).
# Lists each as file:line, prints the count, and exits 1 when it is above 0.
#
#   swift build && Scripts/check-doc-coverage.sh [BUILD_DIR]     (default .build/debug)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$root/.build/debug"}
command -v swift-symbolgraph-extract >/dev/null || { echo "check-doc-coverage: swift-symbolgraph-extract not found" >&2; exit 2; }
command -v python3 >/dev/null || { echo "check-doc-coverage: python3 not found" >&2; exit 2; }
[ -f "$build/Modules/OverlayKit.swiftmodule" ] || [ -d "$build/Modules/OverlayKit.swiftmodule" ] \
    || { echo "check-doc-coverage: no OverlayKit module in $build/Modules; run swift build first" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
triple=$(swift -print-target-info 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')
# The C modules OverlayKit imports: its own system libraries (every Sources/C* target) and
# ZIPFoundation's zlib shim.
includes=""
for map in "$root"/Sources/C*/module.modulemap; do
    includes="$includes -I $(dirname "$map")"
done
for map in "$root"/.build/checkouts/*/Sources/*/module.modulemap; do
    [ -f "$map" ] && includes="$includes -I $(dirname "$map")"
done
cflags=$(pkg-config --cflags-only-I libxml-2.0 cairo sqlite3 zlib 2>/dev/null | sed 's/-I/-Xcc -I/g')
for module in OverlayModel OverlayKit; do
    # shellcheck disable=SC2086
    swift-symbolgraph-extract -module-name "$module" -I "$build/Modules" $includes $cflags \
        -target "$triple" -minimum-access-level public -output-dir "$out" >/dev/null
done
python3 - "$out" "$root" <<'PY'
import glob, json, os, sys
out, root = sys.argv[1], sys.argv[2]
seen, missing = set(), []
for path in sorted(glob.glob(os.path.join(out, "*.symbols.json"))):
    for symbol in json.load(open(path))["symbols"]:
        identifier = symbol["identifier"]["precise"]
        location = symbol.get("location")
        # Declarations written in Sources only (not synthesized members or other packages').
        if identifier in seen or not location or "/Sources/" not in location["uri"]:
            continue
        seen.add(identifier)
        if symbol["accessLevel"] in ("public", "open") and not symbol.get("docComment"):
            file = location["uri"].split("/Sources/", 1)[1]
            missing.append("Sources/%s:%d: %s %s" % (file, location["position"]["line"] + 1,
                           symbol["kind"]["identifier"].replace("swift.", ""), ".".join(symbol["pathComponents"])))
for line in sorted(missing):
    print(line)
print("public declarations: %d, undocumented: %d" % (len(seen), len(missing)))
sys.exit(1 if missing else 0)
PY

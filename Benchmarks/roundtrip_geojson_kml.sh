#!/usr/bin/env bash
# GeoJSON → KML → GeoJSON with one overlaykit binary on every GeoJSON file of ../shared/corpus
# that it reads (issue 25 item 6): compares the round trip with the direct GeoJSON → GeoJSON
# conversion as JSON values (member order ignored, as a JSON reader sees them) and counts
# identical files, and differing files whose first conversion warned (stderr not empty).
# Usage: Benchmarks/roundtrip_geojson_kml.sh BINARY [-v]
set -uo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${CORPUS:-$here/../shared/corpus}"
binary="${1:?usage: roundtrip_geojson_kml.sh BINARY [-v]}"
[ -d "$corpus/real" ] || { echo "roundtrip_geojson_kml: corpus not found at $corpus" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

read_ok=0 identical=0 warned=0 silent=0
while IFS= read -r -d '' f; do
    "$binary" convert "$f" -o "$work/direct.geojson" 2>/dev/null || continue
    read_ok=$((read_ok + 1))
    "$binary" convert "$f" -o "$work/out.kml" 2>"$work/first.stderr" || { silent=$((silent + 1)); continue; }
    "$binary" convert "$work/out.kml" -o "$work/back.geojson" 2>/dev/null
    if python3 - "$work/direct.geojson" "$work/back.geojson" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)
PY
    then
        identical=$((identical + 1))
    elif [ -s "$work/first.stderr" ]; then
        warned=$((warned + 1))
        [ "${2:-}" = "-v" ] && echo "differs, warned: $f"
    else
        silent=$((silent + 1))
        [ "${2:-}" = "-v" ] && echo "DIFFERS SILENTLY: $f"
    fi
done < <(find "$corpus" -type f \( -iname '*.geojson' -o -iname '*.json' \) -print0 | sort -z)
echo "$read_ok GeoJSON files read: $identical identical after GeoJSON → KML → GeoJSON, $warned differ with a warning, $silent differ silently"

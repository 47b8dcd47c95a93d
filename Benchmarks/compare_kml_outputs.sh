#!/usr/bin/env bash
# KML -> GeoJSON with two overlaykit binaries: the GeoJSON bytes, stderr and exit code must be
# identical on every .kml/.kmz of ../shared/corpus (kml-samples, togeojson/kml, real) and on the
# two benchmark inputs of bench_kml.sh (built the same way). For checking a reader change
# against main's binary.
# Usage: Benchmarks/compare_kml_outputs.sh OLD_BINARY NEW_BINARY [--no-bench]
set -uo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${CORPUS:-$here/../shared/corpus}"
old="${1:?usage: compare_kml_outputs.sh OLD_BINARY NEW_BINARY [--no-bench]}"
new="${2:?usage: compare_kml_outputs.sh OLD_BINARY NEW_BINARY [--no-bench]}"
[ -d "$corpus/kml-samples" ] || { echo "compare_kml_outputs: corpus not found at $corpus" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

files=()
while IFS= read -r -d '' f; do files+=("$f"); done < <(
    find "$corpus/kml-samples" "$corpus/togeojson/kml" "$corpus/real" -type f \( -iname '*.kml' -o -iname '*.kmz' \) -print0 | sort -z)
if [ "${3:-}" != "--no-bench" ]; then
    "$(dirname "$0")/make_kml_inputs.sh" "$corpus" "$work"
    files+=("$work/land.kml" "$work/countries24.kml")
fi

# run BINARY FILE TAG: output, stderr and exit code into $work/TAG.* (same output path for
# both binaries, so messages naming it compare equal).
run() {
    rm -f "$work/out.geojson"
    "$1" convert "$2" -o "$work/out.geojson" >"$work/$3.stdout" 2>"$work/$3.stderr"
    echo $? >"$work/$3.rc"
    if [ -f "$work/out.geojson" ]; then mv "$work/out.geojson" "$work/$3.geojson"; else : >"$work/$3.geojson"; fi
}

same=0 differ=0
for f in "${files[@]}"; do
    run "$old" "$f" old
    run "$new" "$f" new
    bad=""
    for part in geojson stdout stderr rc; do
        cmp -s "$work/old.$part" "$work/new.$part" || bad="$bad $part"
    done
    if [ -z "$bad" ]; then
        same=$((same + 1))
    else
        differ=$((differ + 1))
        echo "DIFFERS ($bad ): $f (exit $(cat "$work/old.rc") vs $(cat "$work/new.rc"))"
        diff <(head -c 2000 "$work/old.stderr") <(head -c 2000 "$work/new.stderr") | head -10
    fi
done
echo "$same of $((same + differ)) files identical (GeoJSON bytes, stdout, stderr, exit code)"
[ "$differ" -eq 0 ]

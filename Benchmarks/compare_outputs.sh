#!/usr/bin/env bash
# Two overlaykit binaries on every KML, KMZ and GeoJSON file of ../shared/corpus (kml-samples,
# togeojson, real, geojsonhint, geojson-vt, geojson-schema-fixtures) and on the two benchmark
# inputs of bench_kml.sh: `convert` to GeoJSON (and KML for GeoJSON inputs), `info` and
# `validate --format json` must give identical output bytes, stdout, stderr and exit codes.
# For proving a speed change changes no output byte (issue 15).
# Usage: Benchmarks/compare_outputs.sh OLD_BINARY NEW_BINARY [--no-bench]
set -uo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${CORPUS:-$here/../shared/corpus}"
old="${1:?usage: compare_outputs.sh OLD_BINARY NEW_BINARY [--no-bench]}"
new="${2:?usage: compare_outputs.sh OLD_BINARY NEW_BINARY [--no-bench]}"
[ -d "$corpus/kml-samples" ] || { echo "compare_outputs: corpus not found at $corpus" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

files=()
while IFS= read -r -d '' f; do files+=("$f"); done < <(
    find "$corpus/kml-samples" "$corpus/togeojson" "$corpus/real" "$corpus/geojsonhint" "$corpus/geojson-vt" \
        "$corpus/geojson-schema-fixtures" -type f \( -iname '*.kml' -o -iname '*.kmz' -o -iname '*.geojson' -o -iname '*.json' \) \
        -print0 | sort -z)
if [ "${3:-}" != "--no-bench" ]; then
    "$(dirname "$0")/make_kml_inputs.sh" "$corpus" "$work"
    files+=("$work/land.kml" "$work/countries24.kml")
fi

# run BINARY FILE TAG: outputs, stderr and exit codes of every command into $work/TAG.* (same
# output paths for both binaries, so messages naming them compare equal).
run() {
    : >"$work/$3.stdout"; : >"$work/$3.stderr"; : >"$work/$3.rc"; : >"$work/$3.outputs"
    commands=("convert|-o|$work/out.geojson" "info" "validate|--format|json")
    case "$2" in *.kml|*.kmz|*.KML|*.KMZ) ;; *) commands+=("convert|-o|$work/out.kml") ;; esac
    for command in "${commands[@]}"; do
        IFS='|' read -ra words <<<"$command"
        rm -f "$work/out.geojson" "$work/out.kml"
        timeout 120 "$1" "${words[0]}" "$2" "${words[@]:1}" >>"$work/$3.stdout" 2>>"$work/$3.stderr"
        echo "${words[0]} $?" >>"$work/$3.rc"
        for output in "$work/out.geojson" "$work/out.kml"; do [ -f "$output" ] && cat "$output" >>"$work/$3.outputs"; done
    done
}

same=0 differ=0
for f in "${files[@]}"; do
    run "$old" "$f" old
    run "$new" "$f" new
    bad=""
    for part in outputs stdout stderr rc; do
        cmp -s "$work/old.$part" "$work/new.$part" || bad="$bad $part"
    done
    if [ -z "$bad" ]; then
        same=$((same + 1))
    else
        differ=$((differ + 1))
        echo "DIFFERS ($bad ): $f (exits $(tr '\n' ' ' <"$work/old.rc")vs $(tr '\n' ' ' <"$work/new.rc"))"
        diff <(head -c 2000 "$work/old.stderr") <(head -c 2000 "$work/new.stderr") | head -10
    fi
done
echo "$same of $((same + differ)) files identical (convert, info, validate: output bytes, stdout, stderr, exit codes)"
[ "$differ" -eq 0 ]

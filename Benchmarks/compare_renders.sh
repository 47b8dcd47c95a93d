#!/usr/bin/env bash
# Two overlaykit binaries render every Examples/*.geojson|kml and every GeoJSON/KML file of
# ../shared/corpus (real, kml-samples, togeojson) fitted, centered (--center/--zoom, streamed)
# and pitched, to PNG and SVG (SVG centered also to standard output): the pictures, stderr and
# exit codes must be byte-identical. For proving a render change draws the same (issue 25 item 15).
# Usage: Benchmarks/compare_renders.sh OLD_BINARY NEW_BINARY
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${CORPUS:-$here/../shared/corpus}"
old="${1:?usage: compare_renders.sh OLD_BINARY NEW_BINARY}"
new="${2:?usage: compare_renders.sh OLD_BINARY NEW_BINARY}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

files=()
while IFS= read -r -d '' f; do files+=("$f"); done < <(
    { find "$here/Examples" -maxdepth 1 -type f \( -name '*.geojson' -o -name '*.kml' \) -print0
      [ -d "$corpus" ] && find "$corpus/real" "$corpus/kml-samples" "$corpus/togeojson" -type f \
          \( -iname '*.kml' -o -iname '*.geojson' \) -print0; } | sort -z)
[ -d "$corpus" ] || echo "compare_renders: corpus not found at $corpus; examples only" >&2

cameras=("" "--center|20,10|--zoom|2" "--center|46.5,9|--zoom|5|--bearing|30" "--center|20,10|--zoom|3|--pitch|50" "--pitch|40|--bearing|20")
# run BINARY FILE TAG: every picture, stderr and exit code of one file into $work/TAG.*
run() {
    : >"$work/$3.out"; : >"$work/$3.err"
    for camera in "${cameras[@]}"; do
        IFS='|' read -ra words <<<"$camera"
        for format in png svg; do
            rm -f "$work/x.$format"
            timeout 120 "$1" render "$2" -o "$work/x.$format" --size 400x300 "${words[@]}" 2>>"$work/$3.err"
            echo "rc $?" >>"$work/$3.err"
            [ -f "$work/x.$format" ] && cat "$work/x.$format" >>"$work/$3.out"
        done
        timeout 120 "$1" render "$2" -o - --format svg --size 400x300 "${words[@]}" >>"$work/$3.out" 2>>"$work/$3.err"
        echo "rc $?" >>"$work/$3.err"
    done
}
same=0 differ=0
for file in "${files[@]}"; do
    run "$old" "$file" old
    run "$new" "$file" new
    if cmp -s "$work/old.out" "$work/new.out" && cmp -s "$work/old.err" "$work/new.err"; then
        same=$((same + 1))
    else
        differ=$((differ + 1))
        echo "DIFFERENT: $file"
    fi
done
echo "renders compared: ${#files[@]} files × ${#cameras[@]} cameras × PNG, SVG, SVG to stdout: $same identical, $differ different"
[ "$differ" -eq 0 ]

#!/usr/bin/env bash
# KML -> GeoJSON: overlaykit against ogr2ogr (peer) and `xmllint --stream --noout` (the floor:
# libxml2 reading the same bytes and doing nothing with them), in the same run.
#
# Inputs, built into a temp dir from ../shared/corpus/real:
#   land.kml       ogr2ogr -f KML of ne_10m_land.geojson (411k vertices)
#   countries24.kml ogr2ogr -f KML of ne_50m_admin_0_countries.geojson, placemarks x24 (~100 MB)
# Also times `overlaykit info` (the same parse, no GeoJSON written) against the floor.
# Prints wall time, MB/s (input size / wall time), peak RSS (/usr/bin/time -v) and ratios.
# Usage: Benchmarks/bench_kml.sh [runs]   (default 3 runs; the best wall time is kept)
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${CORPUS:-$here/../shared/corpus}"
runs="${1:-3}"
for tool in ogr2ogr xmllint /usr/bin/time python3; do
    command -v "$tool" >/dev/null || { echo "bench_kml: $tool is required (apt: gdal-bin libxml2-utils time)" >&2; exit 1; }
done
[ -f "$corpus/real/ne_10m_land.geojson" ] || { echo "bench_kml: corpus not found at $corpus" >&2; exit 1; }

(cd "$here" && swift build -c release --product overlaykit >&2)
bin="$here/.build/release/overlaykit"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$(dirname "$0")/make_kml_inputs.sh" "$corpus" "$work"

# measure NAME COMMAND...: best wall seconds and the peak RSS (KB) of that run.
measure() {
    local best="" rss=""
    for _ in $(seq "$runs"); do
        rm -f "$work/out.geojson"
        /usr/bin/time -v -o "$work/time.txt" "$@" >/dev/null 2>"$work/stderr.txt" || { cat "$work/stderr.txt" >&2; exit 1; }
        local wall kb
        wall=$(python3 - "$work/time.txt" <<'EOF'
import sys, re
text = open(sys.argv[1]).read()
m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", text)
h, m_, s = m.groups()
print(int(h or 0) * 3600 + int(m_) * 60 + float(s))
EOF
)
        kb=$(grep "Maximum resident set size" "$work/time.txt" | awk '{print $NF}')
        if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $wall < $best else 1)"; then best=$wall; rss=$kb; fi
    done
    echo "$best $rss"
}

printf "%-16s %8s  %-22s %9s %9s %10s %12s\n" file MB tool seconds MB/s "peak MB" "ours is"
for name in land countries24; do
    input="$work/$name.kml"
    mb=$(python3 -c "import os; print(os.path.getsize('$input') / 1e6)")
    read -r ours ours_rss < <(measure "$bin" convert "$input" -o "$work/out.geojson")
    # Reading alone (no GeoJSON written): `info` parses every feature and sums them up.
    read -r reading reading_rss < <(measure "$bin" info "$input")
    read -r floor floor_rss < <(measure xmllint --stream --noout "$input")
    read -r peer peer_rss < <(measure ogr2ogr -f GeoJSON "$work/out.geojson" "$input")
    python3 - "$name" "$mb" "$ours" "$ours_rss" "$floor" "$floor_rss" "$peer" "$peer_rss" "$reading" "$reading_rss" <<'EOF'
import sys
name, mb = sys.argv[1], float(sys.argv[2])
ours, ours_rss, floor, floor_rss, peer, peer_rss, reading, reading_rss = map(float, sys.argv[3:])
def row(tool, seconds, rss, note):
    print(f"{name:<16} {mb:8.1f}  {tool:<22} {seconds:9.3f} {mb / seconds:9.1f} {rss / 1024:10.1f} {note:>12}")
row("overlaykit convert", ours, ours_rss, "")
row("ogr2ogr -f GeoJSON", peer, peer_rss, f"{peer / ours:.1f}x faster")
row("xmllint --stream", floor, floor_rss, f"{ours / floor:.1f}x slower")
row("overlaykit info (read)", reading, reading_rss, f"{reading / floor:.1f}x xmllint")
EOF
done
echo "targets: >= 3x faster than ogr2ogr; within 2x of xmllint --stream; peak memory < 100 MB" >&2

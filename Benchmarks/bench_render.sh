#!/usr/bin/env bash
# Render benchmark (issue 7): ne_10m_land.geojson to a 2048×2048 PNG with `overlaykit render`
# beside gdal_rasterize of the same file at the same size, in the same run.
#
# Usage: Benchmarks/bench_render.sh [FILE.geojson] [RUNS]
# Needs: swift, gdal-bin (gdal_rasterize). Prints the median wall time of RUNS runs (default 3).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
input="${1:-$root/../shared/corpus/real/ne_10m_land.geojson}"
runs="${2:-3}"
if [ ! -f "$input" ]; then echo "input not found: $input" >&2; exit 2; fi
command -v gdal_rasterize >/dev/null || { echo "gdal_rasterize not installed (apt install gdal-bin)" >&2; exit 2; }

(cd "$root" && swift build -c release >/dev/null)
bin="$root/.build/release/overlaykit"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
megabytes=$(python3 -c "import os,sys; print(os.path.getsize(sys.argv[1]) / 1e6)" "$input")

# Median wall time in seconds of running the command $runs times.
median() {
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
    end=$(date +%s.%N)
    times+=("$(python3 -c "print($end - $start)")")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

ours_png=$(median "$bin" render "$input" -o "$work/ours.png" --size 2048x2048)
ours_svg=$(median "$bin" render "$input" -o "$work/ours.svg" --size 2048x2048)
# gdal_rasterize: burn the polygons of the same file into a 2048×2048 PNG (via a GTiff, since
# the PNG driver cannot be written directly) — the closest peer that draws a file to pixels.
gdal_png() {
  gdal_rasterize -q -burn 255 -init 0 -ot Byte -ts 2048 2048 -of GTiff "$input" "$work/gdal.tif" &&
    gdal_translate -q -of PNG "$work/gdal.tif" "$work/gdal.png" && rm -f "$work/gdal.tif" "$work/gdal.png.aux.xml"
}
gdal_tif() { gdal_rasterize -q -burn 255 -init 0 -ot Byte -ts 2048 2048 -of GTiff "$input" "$work/gdal-only.tif"; }
peer_png=$(median gdal_png)
peer_raster=$(median gdal_tif)

python3 - "$megabytes" "$ours_png" "$ours_svg" "$peer_png" "$peer_raster" "$(basename "$input")" <<'PY'
import sys
mb, ours_png, ours_svg, peer_png, peer_raster = (float(v) for v in sys.argv[1:6])
print(f"{sys.argv[6]}: {mb:.1f} MB, 2048x2048, median of runs")
print(f"{'command':<44} {'seconds':>8} {'MB/s':>8} {'vs gdal':>8}")
for name, t in [("overlaykit render -o x.png (fit, styled, AA)", ours_png),
                ("overlaykit render -o x.svg", ours_svg),
                ("gdal_rasterize → GTiff → PNG", peer_png),
                ("gdal_rasterize → GTiff only", peer_raster)]:
    print(f"{name:<44} {t:8.2f} {mb / t:8.1f} {t / peer_png:7.2f}x")
PY

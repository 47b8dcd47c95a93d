#!/usr/bin/env bash
# Render on large inputs (issue 25 item 15) beside `convert` of the same file in the same run:
# a line of VERTICES vertices (a sine wave across the world) and FEATURES 0.3° squares (about
# 42% of them drawn at the centered camera, zoom 3). Prints seconds, peak memory and the
# render/convert ratio for convert, render fitted and render with --center/--zoom (PNG, SVG);
# then the peak memory of render --center/--zoom on BASE, 3×BASE and 10×BASE squares, with
# each one's ratio to the 1× run (streaming: it should stay flat).
#
# Usage: Benchmarks/bench_render_large.sh [VERTICES] [FEATURES] [BASE]
#        (defaults 10000000 1000000 100000)
# Needs: swift, python3, GNU time (/usr/bin/time). The inputs (about 230 MB, 150 MB and up to
# 150 MB) are generated into a temporary folder and removed afterwards.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
vertices="${1:-10000000}"
features="${2:-1000000}"
base="${3:-100000}"
[ -x /usr/bin/time ] || { echo "GNU time not installed (apt install time)" >&2; exit 2; }
(cd "$root" && swift build -c release >/dev/null)
bin="$root/.build/release/overlaykit"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# squares COUNT FILE: COUNT 0.3° squares as GeoJSONSeq, spread over ±170°, ±70°.
squares() {
  python3 - "$1" "$2" <<'PY'
import math, sys
features, path = int(sys.argv[1]), sys.argv[2]
with open(path, "w") as out:
    side = int(math.sqrt(features)) + 1
    for i in range(features):
        x, y = -170 + 340 * (i % side) / side, -70 + 140 * (i // side) / side  # 0.3° squares: visible at zoom 3
        out.write('{"type":"Feature","properties":{"n":%d},"geometry":{"type":"Polygon","coordinates":'
                  '[[[%.5f,%.5f],[%.5f,%.5f],[%.5f,%.5f],[%.5f,%.5f],[%.5f,%.5f]]]}}\n'
                  % (i, x, y, x + 0.3, y, x + 0.3, y + 0.3, x, y + 0.3, x, y))
PY
}

python3 - "$vertices" "$work/line.geojson" <<'PY'
import math, sys
vertices, path = int(sys.argv[1]), sys.argv[2]
with open(path, "w") as out:
    out.write('{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[')
    for start in range(0, vertices, 100000):
        end = min(vertices, start + 100000)
        out.write(("," if start else "") + ",".join(
            "[%.6f,%.6f]" % (-179 + 358 * i / vertices, 60 * math.sin(i / 5000) + (i % 7) * 1e-4) for i in range(start, end)))
    out.write("]}}")
PY
squares "$features" "$work/squares.geojsons"

# "seconds peak-MB" of one run.
measure() {
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
  awk '{printf "%.2f %.0f", $1, $2 / 1024}' "$work/time"
}

printf '%-22s %-34s %8s %8s %10s\n' input command seconds "peak MB" "vs convert"
for input in line.geojson squares.geojsons; do
  read -r convert_s convert_mb <<<"$(measure "$bin" convert "$work/$input" -f -o "$work/out.geojson")"
  rows=("convert -o x.geojson|$convert_s|$convert_mb")
  read -r s mb <<<"$(measure "$bin" render "$work/$input" -f -o "$work/fit.png")"; rows+=("render (fit) -o x.png|$s|$mb")
  read -r s mb <<<"$(measure "$bin" render "$work/$input" -f -o "$work/c.png" --center 0,0 --zoom 3)"; rows+=("render --center --zoom -o x.png|$s|$mb")
  read -r s mb <<<"$(measure "$bin" render "$work/$input" -f -o "$work/c.svg" --center 0,0 --zoom 3)"; rows+=("render --center --zoom -o x.svg|$s|$mb")
  for row in "${rows[@]}"; do
    IFS='|' read -r name s mb <<<"$row"
    printf '%-22s %-34s %8s %8s %9.2fx\n' "$input" "$name" "$s" "$mb" "$(python3 -c "print($s / max($convert_s, 0.01))")"
  done
  rm -f "$work/out.geojson"
done
rm -f "$work/line.geojson" "$work/squares.geojsons"

echo
printf '%-22s %-34s %8s %8s %10s\n' input command seconds "peak MB" "vs 1×"
for format in png svg; do
  first_mb=""
  for factor in 1 3 10; do
    count=$((base * factor))
    squares "$count" "$work/scaled.geojsons"
    read -r s mb <<<"$(measure "$bin" render "$work/scaled.geojsons" -f -o "$work/c.$format" --center 0,0 --zoom 3)"
    first_mb="${first_mb:-$mb}"
    printf '%-22s %-34s %8s %8s %9.2fx\n' "$count squares" "render --center --zoom -o x.$format" "$s" "$mb" \
      "$(python3 -c "print($mb / max($first_mb, 1))")"
  done
done

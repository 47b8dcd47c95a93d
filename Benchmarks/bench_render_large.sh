#!/usr/bin/env bash
# Render on large inputs (issue 25 item 15) beside `convert` of the same file in the same run:
# a line of VERTICES vertices (a sine wave across the world) and FEATURES 0.3° squares (most of
# them drawn at the centered camera, zoom 3).
# Prints seconds and peak memory of convert, render fitted and render with --center/--zoom.
#
# Usage: Benchmarks/bench_render_large.sh [VERTICES] [FEATURES]   (defaults 10000000 1000000)
# Needs: swift, python3, GNU time (/usr/bin/time). The inputs (about 230 MB and 150 MB) are
# generated into a temporary folder and removed afterwards.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
vertices="${1:-10000000}"
features="${2:-1000000}"
[ -x /usr/bin/time ] || { echo "GNU time not installed (apt install time)" >&2; exit 2; }
(cd "$root" && swift build -c release >/dev/null)
bin="$root/.build/release/overlaykit"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$vertices" "$features" "$work" <<'PY'
import math, sys
vertices, features, work = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
with open(work + "/line.geojson", "w") as out:
    out.write('{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[')
    for start in range(0, vertices, 100000):
        end = min(vertices, start + 100000)
        out.write(("," if start else "") + ",".join(
            "[%.6f,%.6f]" % (-179 + 358 * i / vertices, 60 * math.sin(i / 5000) + (i % 7) * 1e-4) for i in range(start, end)))
    out.write("]}}")
with open(work + "/squares.geojsons", "w") as out:
    side = int(math.sqrt(features)) + 1
    for i in range(features):
        x, y = -170 + 340 * (i % side) / side, -70 + 140 * (i // side) / side  # 0.3° squares: visible at zoom 3
        out.write('{"type":"Feature","properties":{"n":%d},"geometry":{"type":"Polygon","coordinates":'
                  '[[[%.5f,%.5f],[%.5f,%.5f],[%.5f,%.5f],[%.5f,%.5f],[%.5f,%.5f]]]}}\n'
                  % (i, x, y, x + 0.3, y, x + 0.3, y + 0.3, x, y + 0.3, x, y))
PY

# "seconds peak-MB" of one run.
measure() {
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
  awk '{printf "%.2f %.0f", $1, $2 / 1024}' "$work/time"
}

printf '%-18s %-34s %8s %8s %10s\n' input command seconds "peak MB" "vs convert"
for input in line.geojson squares.geojsons; do
  read -r convert_s convert_mb <<<"$(measure "$bin" convert "$work/$input" -o "$work/out.geojson")"
  rows=("convert -o x.geojson|$convert_s|$convert_mb")
  read -r s mb <<<"$(measure "$bin" render "$work/$input" -o "$work/fit.png")"; rows+=("render (fit) -o x.png|$s|$mb")
  read -r s mb <<<"$(measure "$bin" render "$work/$input" -o "$work/c.png" --center 0,0 --zoom 3)"; rows+=("render --center --zoom -o x.png|$s|$mb")
  read -r s mb <<<"$(measure "$bin" render "$work/$input" -o "$work/c.svg" --center 0,0 --zoom 3)"; rows+=("render --center --zoom -o x.svg|$s|$mb")
  for row in "${rows[@]}"; do
    IFS='|' read -r name s mb <<<"$row"
    printf '%-18s %-34s %8s %8s %9.2fx\n' "$input" "$name" "$s" "$mb" "$(python3 -c "print($s / max($convert_s, 0.01))")"
  done
done

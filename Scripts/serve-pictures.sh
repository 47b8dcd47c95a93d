#!/usr/bin/env bash
# Makes the pictures of docs/serve.md: the `overlaykit serve` page in headless Chromium, driven
# by Tests/Scripts/serve_browser.py (the browser tests' driver), with MapLibre GL JS from the
# PyPI wheel `maplibre`. Needs chromium and python3 with numpy and maplibre.
#
#   Scripts/serve-pictures.sh [OVERLAYKIT] [FOLDER]
#
# OVERLAYKIT is the binary (default .build/debug/overlaykit), FOLDER where the PNGs go
# (default docs/images): serve-page.png (countries.pmtiles and Examples/places.kml, the layer
# list), serve-inspector.png (the same, Germany clicked), serve-kml.png (places.kml in its own
# colors with labels, Regent's Park clicked).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
binary="$(realpath "${1:-$root/.build/debug/overlaykit}")"
pictures="$(realpath "${2:-$root/docs/images}")"
driver="$root/Tests/Scripts/serve_browser.py"
maplibre="$(python3 -c "import importlib.util, os; s = importlib.util.find_spec('maplibre'); print(os.path.join(s.submodule_search_locations[0], 'srcjs', 'maplibre-gl.js'))" 2>/dev/null)"
work="$(mktemp -d)"
server=""
stop_server() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; server=""; fi
}
trap 'stop_server; rm -rf "$work"' EXIT

# Starts `overlaykit serve ARGS…` and sets $origin from the address it prints first.
serve() {
    stop_server
    exec {output}< <(exec "$binary" serve "$@" --port 0 --maplibre-js "$maplibre" 2>&1 >/dev/null)
    server=$!
    local line
    IFS= read -r -t 60 -u "$output" line || { echo "serve did not start" >&2; exit 1; }
    origin="$(grep -o 'http://127\.0\.0\.1:[0-9]*' <<<"$line")" || { echo "serve: $line" >&2; exit 1; }
}

cd "$root"
"$binary" tile Examples/countries.geojson -o "$work/countries.pmtiles" -z6 --force 2>/dev/null

serve "$work/countries.pmtiles" Examples/places.kml
python3 "$driver" "$origin/#3.2/47/14" 1000x600 "$pictures/serve-page.png"
python3 "$driver" "$origin/#4.3/50.5/13.5" 1000x600 "$pictures/serve-inspector.png" --click=10.4,51.1

serve Examples/places.kml
python3 "$driver" "$origin/" 1000x600 "$pictures/serve-kml.png" --click=-0.1553,51.5272
stop_server
echo "serve-page.png, serve-inspector.png, serve-kml.png in $pictures"

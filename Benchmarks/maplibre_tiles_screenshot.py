#!/usr/bin/env python3
"""MapLibre GL JS screenshots of tile sets side by side (issue 20's proof): the same camera over
overlaykit's and tippecanoe's tiles of the same input, at several zooms.

Each archive (.pmtiles, or a z/x/y.mvt directory) is served on loopback and drawn in headless
Chromium by MapLibre GL JS from the PyPI `maplibre` wheel, through the page server and Chromium
runner of Tests/Scripts/maplibre_screenshot.py (waits for the map's `idle` event, retries a
run that did not finish). The page paces Chromium's virtual time (a 50 ms real pause per 100
virtual ms) until the map is idle, so the budget cannot run out while MapLibre's workers decode
megabyte tiles in real time. Points are drawn as small circles, polygons as fills with an outline,
lines as lines, all from the one source layer. MapLibre's vector tiles are 512 px, so the
camera at zoom z shows the tile set's zoom-z tiles (deeper zooms overzoom the deepest tiles).

usage: maplibre_tiles_screenshot.py --layer NAME [--name NAME] [--center LAT,LON] [--zooms 2,6,10]
                                    [--size 512x384] [--out docs/images] LABEL=ARCHIVE ...
Writes OUT/tile-scale-NAME-zZ-LABEL.png for every zoom and archive and prints a Markdown table
of them (a row per zoom, a column per label). The default center is Paris, one of the heaviest
cities of Benchmarks/make_tile_scale_data.py. Exit 0 when every screenshot was taken, 1 when one
failed, 2 on a usage error, 3 when Chromium or MapLibre is missing.
"""
import argparse
import importlib.util
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CENTER = "48.8566,2.3522"

PAGE = """<!doctype html>
<html><head><meta charset="utf-8">
<style>html, body, #map { margin: 0; padding: 0; width: %(width)dpx; height: %(height)dpx; overflow: hidden; background: #fff; }</style>
<script src="/maplibre-gl.js"></script></head>
<body><div id="map"></div>
<script>
window.onerror = (message) => { fetch('/error?' + encodeURIComponent(String(message))); };
// Virtual time paced to real time until the map is idle (see serve in maplibre_screenshot.py):
// MapLibre's workers decode megabyte tiles in real time.
let idle = false;
const pace = () => { if (!idle) fetch('/pace').then(() => setTimeout(pace, 100)); };
pace();
const kind = (type) => ['==', ['geometry-type'], type];
const map = new maplibregl.Map({
  container: 'map', center: [%(lon)r, %(lat)r], zoom: %(zoom)r,
  interactive: false, attributionControl: false, fadeDuration: 0, pixelRatio: 1,
  canvasContextAttributes: {preserveDrawingBuffer: true},
  style: {version: 8,
    sources: {tiles: {type: 'vector', tiles: [location.origin + '/tiles/{z}/{x}/{y}.mvt'], minzoom: 0, maxzoom: %(maxzoom)d}},
    layers: [{id: 'background', type: 'background', paint: {'background-color': '#f7f7f2'}},
             {id: 'fill', type: 'fill', source: 'tiles', 'source-layer': %(layer)r, filter: kind('Polygon'),
              paint: {'fill-color': '#2c7fb8', 'fill-opacity': 0.7, 'fill-outline-color': '#08306b'}},
             {id: 'line', type: 'line', source: 'tiles', 'source-layer': %(layer)r, filter: kind('LineString'),
              paint: {'line-color': '#253494', 'line-width': 1}},
             {id: 'circle', type: 'circle', source: 'tiles', 'source-layer': %(layer)r, filter: kind('Point'),
              paint: {'circle-color': '#d7301f', 'circle-radius': 1.5, 'circle-opacity': 0.6}}]}
});
map.once('idle', () => { idle = true; document.title = 'idle'; fetch('/idle'); });
map.on('error', (e) => { fetch('/error?' + encodeURIComponent(String(e.error && e.error.message))); });
</script></body></html>
"""


def screenshot_module():
    """Tests/Scripts/maplibre_screenshot.py, loaded by path (Tests/Scripts is not a package)."""
    path = os.path.join(ROOT, "Tests", "Scripts", "maplibre_screenshot.py")
    spec = importlib.util.spec_from_file_location("maplibre_screenshot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("archives", nargs="+", metavar="LABEL=ARCHIVE", help="e.g. overlaykit=points-defaults.pmtiles")
    parser.add_argument("--layer", required=True, help="the source layer to draw")
    parser.add_argument("--name", help="file name part (default: the layer)")
    parser.add_argument("--center", default=DEFAULT_CENTER, help="LAT,LON (default Paris, %(default)s)")
    parser.add_argument("--zooms", default="2,6,10", help="MapLibre zooms, comma-separated (default %(default)s)")
    parser.add_argument("--size", default="512x384", help="WIDTHxHEIGHT in pixels (default %(default)s)")
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "images"), help="folder (default docs/images)")
    args = parser.parse_args(argv)
    archives = []
    for item in args.archives:
        label, separator, path = item.partition("=")
        if not separator or not label or not path or not label.replace("-", "").replace("_", "").isalnum():
            parser.error("expected LABEL=ARCHIVE with a label of letters, digits, - or _, got %r" % item)
        if not os.path.exists(path):
            parser.error("%s: no such archive or folder" % path)
        archives.append((label, path))
    try:
        lat, lon = (float(part) for part in args.center.split(","))
        width, height = (int(part) for part in args.size.lower().split("x"))
        zooms = [float(part) for part in args.zooms.split(",")]
    except ValueError:
        parser.error("--center LAT,LON, --size WxH and --zooms Z,Z,… must be numbers")
    if not (-85.06 <= lat <= 85.06 and -180 <= lon <= 180):
        parser.error("--center %s is off the Web Mercator map" % args.center)
    if not (16 <= width <= 4096 and 16 <= height <= 4096):
        parser.error("--size must be 16–4096 pixels each way")
    if not all(0 <= zoom <= 24 for zoom in zooms):
        parser.error("--zooms must lie in 0–24")
    if not os.path.isdir(args.out):
        parser.error("--out %s: no such folder" % args.out)
    return args, archives, (lat, lon), (width, height), zooms


def main(argv):
    args, archives, (lat, lon), (width, height), zooms = parse_arguments(argv)
    shot = screenshot_module()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    script = shot.maplibre_script()
    if chromium is None or script is None:
        print("skipped: %s not found" % ("chromium" if chromium is None else "PyPI maplibre (srcjs/maplibre-gl.js)"))
        return 3
    name = args.name or args.layer
    failed = 0
    table = {}
    for label, path in archives:
        store = shot.TileStore(path)
        for zoom in zooms:
            zoom_name = ("%g" % zoom).replace(".", "_")
            target = os.path.join(args.out, "tile-scale-%s-z%s-%s.png" % (name, zoom_name, label))
            page = PAGE % {"width": width, "height": height, "lat": lat, "lon": lon, "zoom": zoom,
                           "maxzoom": store.maxzoom, "layer": args.layer}
            events, message = shot.capture(chromium, script, store, page, width, height, target)
            tiles = sum(1 for event in events if event.startswith("tile "))
            if message:
                failed += 1
                print("%s z%g: %s" % (label, zoom, message), file=sys.stderr)
                continue
            print("%s z%g: %s (%d tile requests)" % (label, zoom, target, tiles), file=sys.stderr)
            table[(zoom, label)] = os.path.relpath(target, args.out)
    labels = [label for label, _ in archives]
    print("| zoom | %s |" % " | ".join(labels))
    print("|---|" + "---|" * len(labels))
    for zoom in zooms:
        cells = ["![%s %s z%g](images/%s)" % (name, label, zoom, table[(zoom, label)]) if (zoom, label) in table else "failed"
                 for label in labels]
        print("| %g | %s |" % (zoom, " | ".join(cells)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

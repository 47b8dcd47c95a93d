#!/usr/bin/env python3
"""What keeping shared borders shared costs (issue 31's benchmark): `overlaykit tile` with and
without --detect-shared-borders on Natural Earth's admin-1 (the corpus copy), on 1,000,000
generated buildings and on two full coverages (Voronoi cells: 3,000 to z8, 30,000 to z10, every
inner edge shared; issue 51), and GEOS's coverage simplification (shapely.coverage_simplify) on the same
polygons and tolerances, in the same run.

For each input:

  tile               overlaykit tile IN -o OUT.pmtiles -Z 0 -z Z -l NAME -f -q
  tile -ab           the same with --detect-shared-borders
  GEOS, tile zooms   shapely.coverage_simplify(polygons, t_z) for every zoom the tile run
                     simplifies (z0 … Z−1), t_z = tolerance 3 tile units at zoom z in map points
                     (3 · 2^28 / (2^z · 4096)), on the polygons projected to OverlayKit's map
                     points (spherical Mercator, 2^28 across): the same polygons, the same
                     tolerance, the same plane; reading and projecting timed apart
  convert -ab        overlaykit convert IN --zoom C --detect-shared-borders -o OUT.geojson
  convert            the same without it (reading and writing; the difference is the work)
  GEOS, convert      coverage_simplify at convert's tolerance (1 screen point at zoom C:
                     2^(20−C) map points), and shapely.coverage_is_valid on convert -ab's output
  tippecanoe         (--tippecanoe) tippecanoe -z Z -Z 0 -b 4 -P, with and without -ab

Wall and CPU seconds (user + system) are the median of --runs runs, the commands taking turns
so that other load on the machine falls on all alike (GNU time's peak RSS beside). Printed: each run,
tile -ab ÷ tile (target ≤ 1.3), and the simplification's own cost against GEOS's. With --check
every tile of the admin-1 archives is decoded (PyPI mapbox-vector-tile) and Σ area − area(union)
measured with shapely per tile (the exact test is SharedBorderTests in Swift).

usage: bench_shared_borders.py [--binary PATH] [--admin FILE] [--buildings N] [--runs N]
                               [--admin-zoom Z] [--buildings-zoom Z] [--convert-zoom C]
                               [--tippecanoe] [--check] [--markdown FILE] [--json FILE]
                               [--from-json FILE] [--work DIR]
Small check: bench_shared_borders.py --buildings 50000 --buildings-zoom 12
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import make_tile_scale_data  # noqa: E402
from bench_tile import find_tippecanoe, load  # noqa: E402

WORLD = 2.0 ** 28
GNU_TIME = "/usr/bin/time"
TIME_TARGET = 1.3


def run_once(command):
    """Wall seconds, CPU seconds (user + system, GNU time's %U %S) and peak RSS (MB) of one run."""
    with tempfile.NamedTemporaryFile(prefix="bench_shared_rss_") as measured:
        timed = os.access(GNU_TIME, os.X_OK)
        wrapped = [GNU_TIME, "-f", "%M %U %S", "-o", measured.name] + command if timed else command
        start = time.perf_counter()
        done = subprocess.run(wrapped, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit("failed (%d): %s\n%s" % (done.returncode, " ".join(command), done.stderr.decode()[-2000:]))
        try:
            rss, user, system = open(measured.name).read().split()[-3:]
            return seconds, float(user) + float(system), int(rss) / 1024
        except ValueError:
            return seconds, float("nan"), float("nan")


def run_interleaved(commands, runs):
    """Each of `commands` (label → argv) `runs` times, taking turns so that the machine's load
    falls on all alike; per label the median wall and CPU seconds and the largest peak RSS."""
    samples = {label: [] for label in commands}
    for _ in range(runs):
        for label, command in commands.items():
            samples[label].append(run_once(command))
    return {label: {"seconds": statistics.median(s[0] for s in runs_), "cpu": statistics.median(s[1] for s in runs_),
                    "all": [s[0] for s in runs_], "all_cpu": [s[1] for s in runs_], "rss_mb": max(s[2] for s in runs_)}
            for label, runs_ in samples.items()}


def read_polygons(path):
    """Shapely polygons of a GeoJSON file or GeoJSONSeq, projected to map points."""
    import numpy as np
    import shapely
    start = time.perf_counter()
    geometries = []
    with open(path, encoding="utf-8") as handle:
        first = handle.read(1)
        handle.seek(0)
        if path.endswith((".geojsonseq", ".geojsons", ".geojsonl")) or first == "\x1e":
            features = (json.loads(line.lstrip("\x1e")) for line in handle if line.strip())
        else:
            features = json.load(handle)["features"]
        for feature in features:
            if feature.get("geometry") and feature["geometry"]["type"] in ("Polygon", "MultiPolygon"):
                geometries.append(feature["geometry"])
    polygons = shapely.from_geojson([json.dumps(g) for g in geometries])
    read = time.perf_counter() - start
    start = time.perf_counter()

    def project(coordinates):
        lon, lat = coordinates[:, 0], np.clip(coordinates[:, 1], -85.0511287798, 85.0511287798)
        x = (lon / 360 + 0.5) * WORLD
        s = np.sin(np.radians(lat))
        y = (0.5 - np.log((1 + s) / (1 - s)) / (4 * math.pi)) * WORLD
        return np.column_stack([x, y])

    projected = shapely.transform(polygons, project)
    return projected, read, time.perf_counter() - start


def geos_simplify(polygons, tolerances):
    import shapely
    seconds = []
    for tolerance in tolerances:
        start = time.perf_counter()
        shapely.coverage_simplify(polygons, tolerance)
        seconds.append(time.perf_counter() - start)
    return seconds


def tile_overlaps(archive):
    """Per zoom: tiles, tiles with Σ area − area(union) > 0 (shapely), and that overlap summed."""
    import mapbox_vector_tile
    import shapely
    from pmtiles.reader import Reader, MmapSource, all_tiles
    from shapely.geometry import Polygon, shape
    result = {}
    with open(archive, "rb") as handle:
        reader = Reader(MmapSource(handle))
        for (z, x, y), data in all_tiles(reader.get_bytes):
            import gzip
            if data[:2] == b"\x1f\x8b":
                data = gzip.decompress(data)
            decoded = mapbox_vector_tile.decode(data, default_options={"y_coord_down": True})
            # Each polygon as its exterior minus its holes, every ring made valid on its own (a
            # snapped ring may touch itself, a hole may run along its shell at the tile's edge:
            # make_valid of the whole polygon would lose such a hole); areas as the rings' own.
            parts, total = [], 0.0
            for layer in decoded.values():
                for feature in layer["features"]:
                    geometry = shape(feature["geometry"])
                    if geometry.geom_type not in ("Polygon", "MultiPolygon"):
                        continue
                    for polygon in shapely.get_parts(geometry):
                        total += Polygon(polygon.exterior).area - sum(Polygon(ring).area for ring in polygon.interiors)
                        body = shapely.make_valid(Polygon(polygon.exterior))
                        holes = [shapely.make_valid(Polygon(ring)) for ring in polygon.interiors]
                        parts.append(body.difference(shapely.union_all(holes)) if holes else body)
            entry = result.setdefault(z, [0, 0, 0.0])
            entry[0] += 1
            if parts:
                overlap = total - shapely.union_all(parts).area
                if overlap > 1e-6:
                    entry[1] += 1
                    entry[2] += overlap
    return result


def voronoi(cells, work):
    """A full coverage, the data --detect-shared-borders exists for: the Voronoi cells of `cells`
    random points over Europe (seeded by the count), clipped to their box, as GeoJSONSeq. Every
    edge but the box's is shared by two cells."""
    import random
    import shapely
    from shapely.geometry import MultiPoint, box, mapping
    path = os.path.join(work, "voronoi-%d.geojsons" % cells)
    if os.path.exists(path):
        return path
    random.seed(cells)
    frame = box(-10, 35, 30, 60)
    points = MultiPoint([(random.uniform(-10, 30), random.uniform(35, 60)) for _ in range(cells)])
    with open(path, "w", encoding="utf-8") as out:
        for index, cell in enumerate(shapely.voronoi_polygons(points, extend_to=frame).geoms):
            feature = {"type": "Feature", "properties": {"id": index}, "geometry": mapping(cell.intersection(frame))}
            out.write(json.dumps(feature) + "\n")
    return path


def measure(args):
    binary = args.binary or os.path.join(ROOT, ".build", "release", "overlaykit")
    if not os.access(binary, os.X_OK):
        subprocess.run(["swift", "build", "-c", "release", "--product", "overlaykit"], cwd=ROOT, check=True)
    work = args.work or tempfile.mkdtemp(prefix="bench_shared_borders_")
    os.makedirs(work, exist_ok=True)
    inputs = []
    if os.path.exists(args.admin):
        inputs.append(("admin-1", args.admin, args.admin_zoom))
    else:
        print("admin-1 not found at %s: left out" % args.admin, file=sys.stderr)
    if args.buildings > 0:
        path = make_tile_scale_data.generate("buildings", args.buildings, 1, args.data)
        inputs.append(("buildings", path, args.buildings_zoom))
    for cells, zoom in ((args.voronoi_small, args.voronoi_small_zoom), (args.voronoi_large, args.voronoi_large_zoom)):
        if cells > 0:
            inputs.append(("voronoi-%d" % cells, voronoi(cells, work), zoom))
    tippecanoe = find_tippecanoe()["tippecanoe"] if args.tippecanoe else None
    report = {"load": load(), "binary": binary, "inputs": []}
    for name, path, zoom in inputs:
        print("%s: %s to z%d" % (name, path, zoom), file=sys.stderr)
        entry = {"name": name, "path": path, "zoom": zoom, "runs": {}}
        commands = {}
        for label, extra in (("tile", []), ("tile -ab", ["--detect-shared-borders"])):
            out = os.path.join(work, "%s-%s.pmtiles" % (name, label.replace(" ", "")))
            commands[label] = [binary, "tile", path, "-o", out, "-Z", "0", "-z", str(zoom), "-l", name, "-f", "-q"] + extra
        if tippecanoe:
            for label, extra in (("tippecanoe", []), ("tippecanoe -ab", ["-ab"])):
                out = os.path.join(work, "%s-%s.pmtiles" % (name, label.replace(" ", "")))
                commands[label] = [tippecanoe, "-o", out, "-z", str(zoom), "-Z", "0", "-l", name, "-b", "4", "-P", "-f", "-q"] + extra + [path]
        for label, extra in (("convert", []), ("convert -ab", ["--detect-shared-borders"])):
            out = os.path.join(work, "%s-%s.geojson" % (name, label.replace(" ", "")))
            commands[label] = [binary, "convert", path, "--zoom", str(args.convert_zoom), "-o", out, "-f"] + extra
        entry["runs"] = run_interleaved(commands, args.runs)
        for label, run in entry["runs"].items():
            print("  %-14s %.2f s wall, %.2f s CPU" % (label, run["seconds"], run["cpu"]), file=sys.stderr)
        polygons, read, project = read_polygons(path)
        tolerances = [3 * WORLD / (2 ** z * 4096) for z in range(zoom)]
        tile_geos = geos_simplify(polygons, tolerances)
        convert_geos = geos_simplify(polygons, [2.0 ** (20 - args.convert_zoom)])[0]
        entry["geos"] = {"polygons": len(polygons), "read_seconds": read, "project_seconds": project,
                         "tile_zooms_seconds": tile_geos, "tile_zooms_total": sum(tile_geos),
                         "convert_seconds": convert_geos}
        print("  GEOS coverage_simplify: %d polygons, tile zooms %.2f s, convert %.2f s"
              % (len(polygons), sum(tile_geos), convert_geos), file=sys.stderr)
        import shapely
        converted = json.load(open(os.path.join(work, "%s-convert-ab.geojson" % name), encoding="utf-8"))
        shapes = shapely.from_geojson([json.dumps(f["geometry"]) for f in converted["features"] if f.get("geometry")])
        entry["convert_coverage_is_valid"] = bool(shapely.coverage_is_valid(shapes))
        if args.check and name == "admin-1":
            entry["check"] = {label: tile_overlaps(os.path.join(work, "%s-%s.pmtiles" % (name, label.replace(" ", ""))))
                              for label in ("tile", "tile -ab")}
        report["inputs"].append(entry)
    return report


def markdown(report):
    lines = ["Load: %s" % report["load"], ""]
    lines.append("| input | run | wall s | CPU s | peak RSS MB |")
    lines.append("|---|---|---:|---:|---:|")
    for entry in report["inputs"]:
        for label, run in entry["runs"].items():
            lines.append("| %s | %s | %.2f | %.2f | %.0f |" % (entry["name"], label, run["seconds"], run.get("cpu", float("nan")),
                                                          run["rss_mb"]))
        geos = entry["geos"]
        lines.append("| %s | GEOS coverage_simplify, z0–z%d (%d calls) | %.2f | | |"
                     % (entry["name"], entry["zoom"] - 1, entry["zoom"], geos["tile_zooms_total"]))
        lines.append("| %s | GEOS coverage_simplify, convert's tolerance | %.2f | | |" % (entry["name"], geos["convert_seconds"]))
        lines.append("| %s | (reading %d polygons into shapely; projecting) | %.2f; %.2f | | |"
                     % (entry["name"], geos["polygons"], geos["read_seconds"], geos["project_seconds"]))
    lines.append("")
    for entry in report["inputs"]:
        runs, geos = entry["runs"], entry["geos"]
        ratio = runs["tile -ab"]["seconds"] / runs["tile"]["seconds"]
        cpu_ratio = runs["tile -ab"].get("cpu", float("nan")) / runs["tile"].get("cpu", float("nan"))
        cost = runs["tile -ab"]["seconds"] - runs["tile"]["seconds"]
        convert_cost = runs["convert -ab"]["seconds"] - runs["convert"]["seconds"]
        tile_geos = geos["tile_zooms_total"]
        lines.append("- %s: tile -ab ÷ tile = %.2f× wall (target ≤ %.1f×: %s), %.2f× CPU. Shared borders at z0–z%d cost %.2f s; GEOS "
                     "coverage_simplify of the same polygons at the same zooms' tolerances takes %.2f s (%s; the whole "
                     "tile -ab run, reading and writing included, %.2f s: %s)."
                     % (entry["name"], ratio, TIME_TARGET, "PASS" if ratio <= TIME_TARGET else "FAIL", cpu_ratio, entry["zoom"] - 1, cost,
                        tile_geos, "%.1f× faster" % (tile_geos / cost) if cost > 0 else "no measurable cost",
                        runs["tile -ab"]["seconds"], "faster" if runs["tile -ab"]["seconds"] < tile_geos else "slower"))
        lines.append("- %s: convert -ab costs %.2f s over convert; GEOS at convert's tolerance %.2f s (%s); the whole "
                     "convert -ab %.2f s against reading into shapely and simplifying %.2f s; its output passes "
                     "coverage_is_valid: %s."
                     % (entry["name"], convert_cost, geos["convert_seconds"],
                        "faster" if convert_cost < geos["convert_seconds"] else "slower", runs["convert -ab"]["seconds"],
                        geos["read_seconds"] + geos["project_seconds"] + geos["convert_seconds"], entry["convert_coverage_is_valid"]))
        for label, zooms in entry.get("check", {}).items():
            lines.append("  - %s: tiles with overlap per zoom: %s" % (label, ", ".join(
                "z%s %d/%d (%.1f units²)" % (z, v[1], v[0], v[2]) for z, v in sorted(zooms.items(), key=lambda i: int(i[0])))))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary")
    parser.add_argument("--admin", default=os.path.join(os.path.dirname(ROOT), "shared", "corpus", "real",
                                                        "ne_50m_admin_1_states_provinces.geojson"))
    parser.add_argument("--buildings", type=int, default=1_000_000, help="generated buildings (0 leaves them out)")
    parser.add_argument("--data", default=make_tile_scale_data.DEFAULT_OUT)
    parser.add_argument("--admin-zoom", type=int, default=10)
    parser.add_argument("--buildings-zoom", type=int, default=14)
    parser.add_argument("--convert-zoom", type=int, default=4)
    parser.add_argument("--voronoi-small", type=int, default=3000, help="Voronoi cells of the small full coverage (0 leaves it out)")
    parser.add_argument("--voronoi-small-zoom", type=int, default=8)
    parser.add_argument("--voronoi-large", type=int, default=30000, help="Voronoi cells of the large full coverage (0 leaves it out)")
    parser.add_argument("--voronoi-large-zoom", type=int, default=10)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--tippecanoe", action="store_true", help="also time tippecanoe with and without -ab")
    parser.add_argument("--check", action="store_true", help="measure overlaps in every admin-1 tile (slow)")
    parser.add_argument("--work")
    parser.add_argument("--markdown")
    parser.add_argument("--json")
    parser.add_argument("--from-json")
    args = parser.parse_args()
    if args.from_json:
        report = json.load(open(args.from_json, encoding="utf-8"))
    else:
        report = measure(args)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as out:
                json.dump(report, out, indent=1)
    text = markdown(report)
    sys.stdout.write(text)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as out:
            out.write(text)


if __name__ == "__main__":
    main()

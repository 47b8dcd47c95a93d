#!/usr/bin/env python3
"""A fitted render of one GPS-like track beside `gdal_rasterize` of the same file at the same
size and extent, in the same run (issue 51 item 7): CPU seconds (user + system), wall seconds
and peak RSS (GNU time) of

  overlaykit render TRACK -o x.png                         (fitted, default size 1024×768)
  gdal_rasterize -burn 255 -ts 1024 768 -te W S E N TRACK x.tif
                                                           (W S E N: the view overlaykit fitted,
                                                           from its summary line's center and zoom)

run interleaved (overlaykit, gdal, overlaykit, gdal, …), medians of --runs runs, on one
LineString Feature (GeoJSON) of --vertices vertices of each kind:

  walk     a random walk of 10 m steps, each in a uniformly random direction (the issue's track:
           fitted, about 16 m a pixel, so few of its vertices share a quarter pixel, and it crosses
           each pixel it covers many times)
  smooth   bench_render_cost.py's track: 10 m steps, the heading turning by a normal angle of
           σ 0.35 rad (a slowly turning walk, the benchmark's "smoother track")
  sine     bench_render_large.sh's line: a sine wave across the world

each walk with every seed of --seeds (the sine wave has none). Nothing here is timed in a unit
test: run it by hand; the load is printed before and after.

usage: bench_render_track.py [--vertices N] [--kinds walk,smooth,sine] [--seeds 1,2] [--runs R]
                             [--binary PATH] [--baseline PATH] [--work DIR] [--json OUT]
                             [--markdown OUT] [--from-json IN]
Needs: python3, gdal-bin (gdal_rasterize), GNU time (/usr/bin/time).
"""
import argparse
import datetime
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_render_cost import write_track as write_smooth_track  # noqa: E402  (Benchmarks/ is not a package)
from bench_tile import load  # noqa: E402
from bench_tile_scale import add_baseline_arguments, require_render_peers, overlaykit_binary, run_and_report  # noqa: E402

GNU_TIME = "/usr/bin/time"
WIDTH, HEIGHT = 1024, 768  # overlaykit render's default size


def write_walk(path, vertices, seed):
    """A random walk of `vertices` positions 10 m apart from Paris, each step in a uniformly
    random direction, as one GeoJSON Feature."""
    if os.path.exists(path):
        return path
    rng = random.Random(seed)
    lat, lon = 48.8566, 2.3522
    partial = path + ".part"
    with open(partial, "w", encoding="utf-8") as out:
        out.write('{"type":"Feature","properties":{"name":"walk"},"geometry":{"type":"LineString","coordinates":[')
        chunk = []
        for index in range(vertices):
            chunk.append("[%.7f,%.7f]" % (lon, lat))
            if len(chunk) == 100_000 or index == vertices - 1:
                out.write(("," if index >= len(chunk) else "") + ",".join(chunk))
                chunk = []
            heading = rng.uniform(0, 2 * math.pi)
            lat += 10 * math.cos(heading) / 111_320
            lon += 10 * math.sin(heading) / (111_320 * math.cos(math.radians(lat)))
        out.write("]}}\n")
    os.replace(partial, path)
    return path


def write_sine(path, vertices):
    """bench_render_large.sh's line: a sine wave from −179° to 179°, as one GeoJSON Feature."""
    if os.path.exists(path):
        return path
    partial = path + ".part"
    with open(partial, "w", encoding="utf-8") as out:
        out.write('{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[')
        for start in range(0, vertices, 100_000):
            end = min(vertices, start + 100_000)
            out.write(("," if start else "") + ",".join(
                "[%.6f,%.6f]" % (-179 + 358 * i / vertices, 60 * math.sin(i / 5000) + (i % 7) * 1e-4) for i in range(start, end)))
        out.write("]}}\n")
    os.replace(partial, path)
    return path


def run_timed(command):
    """(wall seconds, CPU seconds, peak MB, standard error) of one run, from GNU time; exits on failure."""
    with tempfile.NamedTemporaryFile(prefix="bench_render_track_time_") as report, tempfile.TemporaryFile() as errors:
        status = subprocess.run([GNU_TIME, "-v", "-o", report.name] + command,
                                stdout=subprocess.DEVNULL, stderr=errors).returncode
        errors.seek(0)
        said = errors.read()[-4000:].decode("utf-8", "replace")
        if status != 0:
            sys.exit("%s failed (%d): %s" % (" ".join(command), status, said[-1500:]))
        text = open(report.name).read()
    field = lambda name: re.search(r"%s: ([0-9.:]+)" % re.escape(name), text).group(1)
    wall = 0.0
    for part in field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":"):
        wall = wall * 60 + float(part)
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    return wall, cpu, int(field("Maximum resident set size (kbytes)")) / 1024.0, said


def fitted_view(summary):
    """The view (west, south, east, north in degrees) of overlaykit's summary line's camera:
    WIDTH × HEIGHT pixels around the center at the zoom (256·2^z pixels per world)."""
    match = re.search(r"zoom (-?[0-9.]+), center (-?[0-9.]+),(-?[0-9.]+)", summary)
    if not match:
        sys.exit("no camera in overlaykit's summary: %s" % summary)
    zoom, lat, lon = (float(match.group(i)) for i in (1, 2, 3))
    world = 256 * 2 ** zoom
    x = (lon + 180) / 360 * world
    y = (1 - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) / math.pi) / 2 * world
    to_lon = lambda px: px / world * 360 - 180
    to_lat = lambda py: math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * py / world))))
    return (to_lon(x - WIDTH / 2), to_lat(y + HEIGHT / 2), to_lon(x + WIDTH / 2), to_lat(y - HEIGHT / 2))


def inputs(args, data):
    made = []
    for kind in args.kinds.split(","):
        if kind == "sine":
            made.append(("sine", None, write_sine(os.path.join(data, "sine-%d.geojson" % args.vertices), args.vertices)))
            continue
        for seed in (int(s) for s in args.seeds.split(",")):
            path = os.path.join(data, "%s-%d-seed%d.geojson" % (kind, args.vertices, seed))
            print("generating %s …" % os.path.basename(path), file=sys.stderr, flush=True)
            if kind == "walk":
                made.append((kind, seed, write_walk(path, args.vertices, seed)))
            elif kind == "smooth":
                made.append((kind, seed, write_smooth_track(path, args.vertices, seed)))
            else:
                sys.exit("unknown track kind %r (walk, smooth, sine)" % kind)
    return made


def measure(args):
    binary = overlaykit_binary(args)
    require_render_peers()
    data = args.work or os.path.join(tempfile.gettempdir(), "overlaykit-render-track")
    os.makedirs(data, exist_ok=True)
    results = {"meta": {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                        "binary": binary, "baseline": args.baseline, "size": "%dx%d" % (WIDTH, HEIGHT),
                        "runs": args.runs, "vertices": args.vertices, "load_before": load(), "load_after": None},
               "inputs": []}
    work = tempfile.mkdtemp(prefix="bench_render_track_")
    try:
        for kind, seed, path in inputs(args, data):
            name = "%s%s" % (kind, "" if seed is None else " seed %d" % seed)
            # The fitted view, from one render (also a warm-up of the file cache).
            view = fitted_view(run_timed([binary, "render", path, "-f", "-o", os.path.join(work, "out.png")])[3])
            tools = [("overlaykit render → PNG (fit)", [binary, "render", path, "-f", "-o", os.path.join(work, "out.png")])]
            if args.baseline:
                tools.append(("baseline render → PNG (fit)", [args.baseline, "render", path, "-f", "-o", os.path.join(work, "base.png")]))
            tools.append(("gdal_rasterize → GTiff (same view)",
                          ["gdal_rasterize", "-q", "-burn", "255", "-init", "0", "-ot", "Byte", "-ts", str(WIDTH), str(HEIGHT),
                           "-te"] + ["%.9f" % v for v in view] + ["-of", "GTiff", path, os.path.join(work, "gdal.tif")]))
            runs = {label: [] for label, _ in tools}
            for _ in range(args.runs):  # interleaved: each tool once per round
                for label, command in tools:
                    runs[label].append(run_timed(command)[:3])
            entry = {"name": name, "kind": kind, "seed": seed, "megabytes": os.path.getsize(path) / 1e6,
                     "view": view, "rows": []}
            for label, _ in tools:
                measured = runs[label]
                entry["rows"].append({"label": label, "seconds": statistics.median(r[0] for r in measured),
                                      "cpu_seconds": statistics.median(r[1] for r in measured),
                                      "peak_mb": statistics.median(r[2] for r in measured),
                                      "cpu_runs": [r[1] for r in measured], "peak_runs": [r[2] for r in measured]})
            results["inputs"].append(entry)
            print("  done: %s" % name, file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    results["meta"]["load_after"] = load()
    return results


def report(results):
    meta = results["meta"]
    lines = ["Fitted render of a %d-vertex track beside gdal_rasterize (same view), %s, %s px, median of %d interleaved run(s); %s" % (
        meta["vertices"], meta["date"], meta["size"], meta["runs"], meta["binary"]),
        "load before: %s" % meta["load_before"], "load after:  %s" % meta["load_after"], "",
        "| track | command | CPU s | wall s | peak MB | CPU vs gdal | peak vs gdal |", "|---|---|---:|---:|---:|---:|---:|"]
    for entry in results["inputs"]:
        peer = next(row for row in entry["rows"] if row["label"].startswith("gdal_rasterize"))
        for row in entry["rows"]:
            lines.append("| %s (%.0f MB) | %s | %.2f | %.2f | %.0f | %.2f× | %.2f× |" % (
                entry["name"], entry["megabytes"], row["label"], row["cpu_seconds"], row["seconds"], row["peak_mb"],
                row["cpu_seconds"] / max(peer["cpu_seconds"], 1e-9), row["peak_mb"] / max(peer["peak_mb"], 1e-9)))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vertices", type=int, default=2_000_000)
    parser.add_argument("--kinds", default="walk,smooth,sine")
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--runs", type=int, default=3)
    add_baseline_arguments(parser)
    args = parser.parse_args()
    return run_and_report(args, measure, report)


if __name__ == "__main__":
    sys.exit(main())

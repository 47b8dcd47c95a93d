#!/usr/bin/env python3
"""What a fitted render costs beside gdal_rasterize of the same file at the same size, in the
same run (issue 34 item 7): seconds and peak RSS (GNU time) of

  overlaykit render FILE -o x.png --size WxH          (fitted: the file is read twice)
  overlaykit render FILE -o x.svg --size WxH
  overlaykit render FILE -o x.png --size WxH --center 48.8566,2.3522 --zoom Z
                                                      (points only: a view of Paris showing about
                                                      1.6% of them, so the time of a render is seen
                                                      to follow what it draws, not the file's size)
  overlaykit convert FILE -o x.geojsonseq             (the cost of reading the file once and writing it)
  gdal_rasterize -burn 255 -ts W H FILE x.tif         (GeoTIFF, the issue's peer)

with wall seconds, CPU seconds (user + system: overlaykit reads on two threads, gdal_rasterize
on one, so on a busy machine CPU time says more than wall time)
on two inputs (the summary line's "N points in view" is kept for each render of points):

  points   N named points in clusters around cities, GeoJSONSeq (Benchmarks/make_tile_scale_data.py;
           1,000,000 points are the issue's 165 MB file)
  track    one LineString of M vertices, a GPS-like random walk of 10 m steps with a slowly
           turning heading (2,000,000 vertices, 46 MB)

and prints each command's ratio to gdal_rasterize. `--baseline BINARY` adds the render of an
older overlaykit (say, the one before the change) to the same table. Nothing here is timed in a
unit test: run it by hand on a quiet machine (the load is printed before and after).

usage: bench_render_cost.py [--points N] [--track M] [--size WxH] [--runs R] [--binary PATH]
                            [--baseline PATH] [--work DIR] [--json OUT] [--markdown OUT] [--from-json IN]
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
import make_tile_scale_data  # noqa: E402  (Benchmarks/ is not a package)
from bench_tile import load  # noqa: E402
from bench_tile_scale import add_baseline_arguments, require_render_peers, overlaykit_binary, run_and_report  # noqa: E402

GNU_TIME = "/usr/bin/time"
# The view of Paris for the "time follows what is drawn" row: the generator's heaviest city.
PARIS = "48.8566,2.3522"
PARIS_ZOOM = "12"


def run_timed(command):
    """Seconds, CPU seconds (user + system), peak RSS in MB and the points in view (from
    render's summary line; None for other commands) of one run, from GNU time (the tool forked
    from a small process, so its peak is its own); exits on failure."""
    with tempfile.NamedTemporaryFile(prefix="bench_render_cost_time_") as report, tempfile.TemporaryFile() as errors:
        status = subprocess.run([GNU_TIME, "-f", "%e %U %S %M", "-o", report.name] + command,
                                stdout=subprocess.DEVNULL, stderr=errors).returncode
        errors.seek(0)
        said = errors.read()[-4000:].decode("utf-8", "replace")
        if status != 0:
            sys.exit("%s failed (%d): %s" % (" ".join(command), status, said[-1500:]))
        wall, user, system, peak_kib = open(report.name).read().split()[-4:]
    in_view = re.search(r"(\d+) points in view", said)
    return float(wall), float(user) + float(system), int(peak_kib) / 1024.0, int(in_view.group(1)) if in_view else None


def write_track(path, vertices, seed=1):
    """A random walk of `vertices` positions, 10 m apart, from Paris, as one GeoJSON Feature."""
    if os.path.exists(path):
        return path
    rng = random.Random(seed)
    lat, lon, heading = 48.8566, 2.3522, 0.0
    partial = path + ".part"
    with open(partial, "w", encoding="utf-8") as out:
        out.write('{"type":"Feature","properties":{"name":"walk"},"geometry":{"type":"LineString","coordinates":[')
        chunk = []
        for index in range(vertices):
            chunk.append("[%.7f,%.7f]" % (lon, lat))
            if len(chunk) == 100_000 or index == vertices - 1:
                out.write(("," if index >= len(chunk) else "") + ",".join(chunk))
                chunk = []
            heading += rng.gauss(0, 0.35)
            lat += 10 * math.cos(heading) / 111_320
            lon += 10 * math.sin(heading) / (111_320 * math.cos(math.radians(lat)))
        out.write("]}}\n")
    os.replace(partial, path)
    return path


def commands(binary, baseline, path, size, work, points):
    width, height = size.split("x")
    rows = [
        ("overlaykit render → PNG (fit)", [binary, "render", path, "-f", "-o", os.path.join(work, "out.png"), "--size", size]),
        ("overlaykit render → SVG (fit)", [binary, "render", path, "-f", "-o", os.path.join(work, "out.svg"), "--size", size]),
    ]
    if points:
        rows.append(("overlaykit render → PNG (Paris, z%s)" % PARIS_ZOOM,
                     [binary, "render", path, "-f", "-o", os.path.join(work, "paris.png"), "--size", size,
                      "--center", PARIS, "--zoom", PARIS_ZOOM]))
    if baseline:
        rows.append(("baseline render → PNG (fit)", [baseline, "render", path, "-f", "-o", os.path.join(work, "base.png"), "--size", size]))
    rows += [
        ("overlaykit convert → GeoJSONSeq", [binary, "convert", path, "-f", "-o", os.path.join(work, "out.geojsonseq")]),
        ("gdal_rasterize → GTiff", ["gdal_rasterize", "-q", "-burn", "255", "-init", "0", "-ot", "Byte",
                                    "-ts", width, height, "-of", "GTiff", path, os.path.join(work, "gdal.tif")]),
    ]
    return rows


def measure(args):
    binary = overlaykit_binary(args)
    require_render_peers()
    data = args.work or os.path.join(tempfile.gettempdir(), "overlaykit-render-cost")
    os.makedirs(data, exist_ok=True)
    inputs = []
    if args.points:
        inputs.append(("%d points (GeoJSONSeq)" % args.points, make_tile_scale_data.generate("points", args.points, 1, data)))
    if args.track:
        inputs.append(("%d-vertex track (GeoJSON)" % args.track, write_track(os.path.join(data, "track-%d.geojson" % args.track), args.track)))
    results = {"meta": {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                        "binary": binary, "baseline": args.baseline, "size": args.size, "runs": args.runs,
                        "load_before": load(), "load_after": None}, "inputs": []}
    work = tempfile.mkdtemp(prefix="bench_render_cost_")
    try:
        for name, path in inputs:
            entry = {"name": name, "megabytes": os.path.getsize(path) / 1e6, "rows": []}
            for label, command in commands(binary, args.baseline, path, args.size, work, name.endswith("points (GeoJSONSeq)")):
                runs = [run_timed(command) for _ in range(args.runs)]
                entry["rows"].append({"label": label, "seconds": statistics.median(r[0] for r in runs),
                                      "cpu_seconds": statistics.median(r[1] for r in runs),
                                      "peak_mb": max(r[2] for r in runs), "points_in_view": runs[0][3]})
                print("  %-34s %s" % (label, name), file=sys.stderr, flush=True)
            results["inputs"].append(entry)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    results["meta"]["load_after"] = load()
    return results


def report(results):
    meta = results["meta"]
    lines = ["Fitted render beside gdal_rasterize, %s, %s px, median of %d run(s); %s" % (
        meta["date"], meta["size"], meta["runs"], meta["binary"]),
        "load before: %s" % meta["load_before"], "load after:  %s" % meta["load_after"], ""]
    for entry in results["inputs"]:
        peer = next(row for row in entry["rows"] if row["label"].startswith("gdal_rasterize"))
        lines.append("%s, %.0f MB" % (entry["name"], entry["megabytes"]))
        lines.append("| command | points in view | seconds | CPU seconds | peak MB | time vs gdal_rasterize | CPU vs gdal_rasterize | memory vs gdal_rasterize |")
        lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
        for row in entry["rows"]:
            in_view = row.get("points_in_view")
            lines.append("| %s | %s | %.2f | %.2f | %.0f | %.2f× | %.2f× | %.2f× |" % (
                row["label"], "" if in_view is None else "{:,}".format(in_view), row["seconds"], row["cpu_seconds"], row["peak_mb"],
                row["seconds"] / max(peer["seconds"], 1e-9), row["cpu_seconds"] / max(peer["cpu_seconds"], 1e-9),
                row["peak_mb"] / max(peer["peak_mb"], 1e-9)))
        lines.append("")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--points", type=int, default=1_000_000, help="named points (0: none)")
    parser.add_argument("--track", type=int, default=2_000_000, help="vertices of the track (0: none)")
    parser.add_argument("--size", default="1024x768")
    parser.add_argument("--runs", type=int, default=1)
    add_baseline_arguments(parser)
    args = parser.parse_args()
    return run_and_report(args, measure, report)


if __name__ == "__main__":
    sys.exit(main())

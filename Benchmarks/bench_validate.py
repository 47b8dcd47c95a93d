#!/usr/bin/env python3
"""Benchmark `overlaykit validate` against peers, in the same run, on the same files.

Inputs: ../shared/corpus/real/ne_10m_land.geojson (18 MB, 411k vertices) and an 8x copy
(the features repeated 8 times in one FeatureCollection, written to a temporary folder).

Columns: best of --runs wall-clock times and CPU times (user + system; for the commands, of
the child process; for shapely, of this process). The machine may be shared, so CPU time is
the steadier measure; MB/s and the ratio use it. MB/s = input size / CPU time.
  overlaykit validate     full check: JSON + GeoJSON structure + geometry validity
  ... --no-geometry       structure only
  ogrinfo -al -so         GDAL opens and summarizes the file (parse, no validity)
  shapely is_valid        GEOS validity alone over the same geometries, already parsed
                          (json.load + shape() are NOT timed: this is the target to beat)
Ratio = peer CPU time / overlaykit validate CPU time (> 1 means overlaykit is faster).

Usage: Benchmarks/bench_validate.py [--runs N] [--skip-build]
Needs: swift, python3 with shapely, gdal-bin (ogrinfo); missing peers are reported as such.
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "real")
SOURCE = os.path.join(CORPUS, "ne_10m_land.geojson")


def best_of(runs, fn, child=True):
    """(best wall seconds, best CPU seconds) over `runs` calls of fn."""
    walls, cpus = [], []
    for _ in range(runs):
        usage = resource.getrusage(resource.RUSAGE_CHILDREN if child else resource.RUSAGE_SELF)
        start = time.perf_counter()
        fn()
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN if child else resource.RUSAGE_SELF)
        cpus.append((after.ru_utime - usage.ru_utime) + (after.ru_stime - usage.ru_stime))
    return min(walls), min(cpus)


def run_quiet(command):
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return result.returncode


def make_copies(source, copies, folder):
    """A FeatureCollection holding the source's features `copies` times, text kept as is."""
    with open(source, "rb") as handle:
        text = handle.read()
    start = text.index(b"[", text.index(b'"features"')) + 1
    end = text.rindex(b"]")
    body = text[start:end].strip()
    path = os.path.join(folder, f"ne_10m_land_x{copies}.geojson")
    with open(path, "wb") as handle:
        handle.write(text[:start] + b"\n" + b",\n".join([body] * copies) + b"\n" + text[end:])
    return path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()
    if not os.path.exists(SOURCE):
        sys.exit(f"corpus not found at {SOURCE}")
    if not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "overlaykit"], cwd=ROOT, check=True)
    binary = os.path.join(ROOT, ".build", "release", "overlaykit")

    try:
        import shapely
        from shapely.geometry import shape
    except ImportError:
        shapely = None
    ogrinfo = shutil.which("ogrinfo")

    folder = tempfile.mkdtemp(prefix="overlaykit-bench-")
    try:
        files = [SOURCE, make_copies(SOURCE, 8, folder)]
        print(f"{'file':<26} {'tool':<34} {'wall s':>7} {'CPU s':>7} {'MB/s':>7} {'ratio':>6}")
        for path in files:
            size_mb = os.path.getsize(path) / 1e6
            name = os.path.basename(path)
            status = run_quiet([binary, "validate", path])
            if status not in (0, 1):
                sys.exit(f"overlaykit validate failed on {path} with exit {status}")
            ours = best_of(args.runs, lambda: run_quiet([binary, "validate", path]))
            rows = [("overlaykit validate", ours)]
            rows.append(("overlaykit validate --no-geometry",
                         best_of(args.runs, lambda: run_quiet([binary, "validate", "--no-geometry", path]))))
            if ogrinfo:
                rows.append(("ogrinfo -al -so", best_of(args.runs, lambda: run_quiet([ogrinfo, "-al", "-so", path]))))
            else:
                rows.append(("ogrinfo -al -so (not installed)", None))
            if shapely:
                with open(path) as handle:
                    geometries = [shape(f["geometry"]) for f in json.load(handle)["features"]]
                verdicts = []
                rows.append(("shapely is_valid (parsed)",
                             best_of(args.runs, lambda: verdicts.append([g.is_valid for g in geometries]), child=False)))
                invalid = sum(1 for v in verdicts[-1] if not v)
                rows.append((f"  ({invalid} of {len(geometries)} invalid per shapely)", None))
            else:
                rows.append(("shapely is_valid (not installed)", None))
            for tool, times in rows:
                if times is None:
                    print(f"{name:<26} {tool:<34}")
                    continue
                wall, cpu = times
                print(f"{name:<26} {tool:<34} {wall:>7.3f} {cpu:>7.3f} {size_mb / cpu:>7.1f} {cpu / ours[1]:>6.2f}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()

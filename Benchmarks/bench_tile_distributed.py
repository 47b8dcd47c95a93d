#!/usr/bin/env python3
"""A `tile` run split over N workers (issue 30's scaling model): wall time per step and peak
memory per worker at N = 1, 2, 4, 8 on Spark's local mode, against one `overlaykit tile` run of
the same input and options in the same session, and whether each split run's output equals the
one run's byte for byte.

Input: clustered points (Benchmarks/make_tile_scale_data.py, --points, default 2,000,000) to
z0–10 with tippecanoe's defaults (thinning, the budget), as bench_tile_scale.py tiles them.
Runs:

  one run     overlaykit tile IN -o one.pmtiles -z10 --layer points (its default store)
  N workers   python3 Examples/spark/tile_spark.py IN split-N.pmtiles --master local[N]
              --partitions N -z10 --layer points --partition-zoom Z

Per run: wall seconds (Spark's start counted apart), each step's seconds, the largest peak RSS
of any overlaykit process (one worker's, or the one run's), the work folder's peak size, and
`cmp` of the archives. The machine's cores bound what N above them can gain: the numbers show
per-worker memory and the cost of the steps, which the scaling model in docs/tile.md
extrapolates.

usage: bench_tile_distributed.py [--points N] [--workers 1,2,4,8] [--partition-zoom 4]
                                 [--binary PATH] [--json FILE]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import make_tile_scale_data  # noqa: E402
from bench_tile_scale import overlaykit_binary, run_measured  # noqa: E402

SPARK = os.path.join(ROOT, "Examples", "spark", "tile_spark.py")


def folder_size(path):
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            try:
                total += os.path.getsize(os.path.join(folder, name))
            except OSError:
                pass
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=int, default=2_000_000)
    parser.add_argument("--workers", default="1,2,4,8")
    parser.add_argument("--partition-zoom", type=int, default=4)
    parser.add_argument("--max-zoom", type=int, default=10)
    parser.add_argument("--binary", help="overlaykit binary (default: a release build)")
    parser.add_argument("--data", default=os.path.join(tempfile.gettempdir(), "overlaykit-scale"))
    parser.add_argument("--json", help="write the measurements here")
    arguments = parser.parse_args()

    binary = overlaykit_binary(arguments)
    os.makedirs(arguments.data, exist_ok=True)
    source = make_tile_scale_data.generate("points", arguments.points, make_tile_scale_data.DEFAULT_SEED, arguments.data)
    work = tempfile.mkdtemp(prefix="overlaykit-distributed-")
    options = ["-z", str(arguments.max_zoom), "--layer", "points"]
    rows = []
    try:
        one = os.path.join(work, "one.pmtiles")
        seconds, peak, status, errors, _ = run_measured([binary, "tile", source, "-o", one, "-f", "-q"] + options, 7200)
        if status != 0:
            sys.exit("the one run failed: " + errors)
        rows.append({"run": "one process", "seconds": seconds, "peak_mb": peak, "steps": "", "identical": "—"})
        for workers in [int(value) for value in arguments.workers.split(",")]:
            output = os.path.join(work, "split-%d.pmtiles" % workers)
            folder = os.path.join(work, "job-%d" % workers)
            started = time.time()
            process = subprocess.run(
                [sys.executable, SPARK, source, output, "--overlaykit", binary,
                 "--master", "local[%d]" % workers, "--partitions", str(workers), "--work", folder,
                 "--partition-zoom", str(arguments.partition_zoom)] + options,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            seconds = time.time() - started
            if process.returncode != 0:
                sys.exit("N=%d failed: %s" % (workers, process.stderr[-3000:]))
            line = next((line for line in process.stdout.splitlines() if line.startswith("spark:")), "")
            numbers = dict(re.findall(r"(start|split|plan|cut|finish|total) ([0-9.]+) s", line))
            peak = re.search(r"peak worker memory ([0-9]+) MB", line)
            identical = subprocess.run(["cmp", "-s", one, output]).returncode == 0
            rows.append({"run": "%d workers" % workers, "seconds": seconds,
                         "without_spark_start": float(numbers.get("total", seconds)) - float(numbers.get("start", 0)),
                         "peak_mb": float(peak.group(1)) if peak else None,
                         "steps": ", ".join("%s %s s" % (key, numbers[key]) for key in ["split", "plan", "cut", "finish"]
                                            if key in numbers),
                         "work_mb": folder_size(folder) / 1e6, "identical": "yes" if identical else "NO"})
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print("| run | seconds | without Spark's start | steps | peak RSS per process, MB | work folder, MB | = one run |")
    print("|---|---:|---:|---|---:|---:|---|")
    for row in rows:
        print("| %s | %.1f | %s | %s | %s | %s | %s |" % (
            row["run"], row["seconds"], "%.1f" % row["without_spark_start"] if "without_spark_start" in row else "",
            row["steps"], "%.0f" % row["peak_mb"] if row.get("peak_mb") else "", "%.0f" % row["work_mb"] if "work_mb" in row else "",
            row["identical"]))
    failed = [row["run"] for row in rows if row["identical"] == "NO"]
    print("D1 split runs equal the one run byte for byte: %s" % ("FAIL (%s)" % ", ".join(failed) if failed else "PASS"))
    if arguments.json:
        with open(arguments.json, "w") as handle:
            json.dump({"points": arguments.points, "rows": rows}, handle, indent=1)


if __name__ == "__main__":
    main()

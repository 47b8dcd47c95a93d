#!/usr/bin/env python3
"""Benchmark: overlaykit convert (GeoJSON -> GeoJSON) and info beside ogr2ogr, same run.

Usage: python3 Benchmarks/bench_geojson.py [--runs N] [--corpus DIR] [--skip-build]

Builds the release binary, makes an 8x copy of ne_10m_land.geojson's features in a temp dir,
then times each tool on each file (median of N runs, whole process, output to a temp file)
and prints MB/s of input and the ratio to ogr2ogr.
Peak RSS comes from /usr/bin/time (Debian package `time`) when present.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(cmd, runs, remove=None):
    """Median wall time and peak RSS (MB, via /usr/bin/time; None without it) over `runs` runs."""
    times, peak = [], None
    gnu_time = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
    for _ in range(runs):
        if remove and os.path.exists(remove):
            os.remove(remove)  # ogr2ogr's GeoJSON driver cannot overwrite a file
        full = ([gnu_time, "-f", "%M"] if gnu_time else []) + cmd
        start = time.perf_counter()
        proc = subprocess.run(full, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr.decode()[-2000:]}")
        times.append(elapsed)
        if gnu_time:
            kb = int(proc.stderr.decode().strip().splitlines()[-1])
            peak = max(peak or 0, kb / 1024)
    return statistics.median(times), peak


def multiply(src, dst, factor):
    """Writes a FeatureCollection with the features of `src` repeated `factor` times."""
    with open(src) as f:
        data = json.load(f)
    features = data["features"] * factor
    with open(dst, "w") as f:
        f.write('{"type":"FeatureCollection","features":[\n')
        for i, feature in enumerate(features):
            if i:
                f.write(",\n")
            f.write(json.dumps(feature, separators=(",", ":")))
        f.write("\n]}\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus", "real"))
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()

    if not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "overlaykit"], cwd=ROOT, check=True)
    binary = os.path.join(ROOT, ".build", "release", "overlaykit")
    source = os.path.join(args.corpus, "ne_10m_land.geojson")
    if not os.path.exists(source):
        sys.exit(f"corpus file not found: {source}")
    have_ogr = shutil.which("ogr2ogr") is not None
    if not have_ogr:
        print("note: ogr2ogr not found (apt-get install gdal-bin); peer column left empty")

    work = tempfile.mkdtemp(prefix="overlaykit-bench-")
    try:
        land8 = os.path.join(work, "land8x.geojson")
        multiply(source, land8, 8)
        out = os.path.join(work, "out.geojson")
        rows = []
        for path in (source, land8):
            size_mb = os.path.getsize(path) / 1e6
            name = os.path.basename(path)
            results = {}
            results["overlaykit info"] = timed([binary, "info", path], args.runs)
            results["overlaykit convert"] = timed([binary, "convert", path, "-o", out], args.runs)
            if have_ogr:
                runs = max(1, min(args.runs, 3))
                results["ogr2ogr -f GeoJSON RFC7946"] = timed(
                    ["ogr2ogr", "-f", "GeoJSON", "-lco", "RFC7946=YES", out, path], runs, remove=out)
            peer = results.get("ogr2ogr -f GeoJSON RFC7946")
            for tool, (seconds, rss) in results.items():
                ratio = f"{peer[0] / seconds:.1f}x" if peer and not tool.startswith("ogr2ogr") else ""
                rows.append((name, f"{size_mb:.1f}", tool, f"{seconds:.3f}", f"{size_mb / seconds:.1f}", f"{rss:.0f}" if rss is not None else "n/a", ratio))
        header = ("input", "MB", "tool", "median s", "MB/s", "peak RSS MB", "vs ogr2ogr")
        widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
        print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " |")
        print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
        for row in rows:
            print("| " + " | ".join(str(c).ljust(w) for c, w in zip(row, widths)) + " |")
        print("targets: info >= 200 MB/s, convert >= 100 MB/s")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

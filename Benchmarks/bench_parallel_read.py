#!/usr/bin/env python3
"""Parallel input benchmark: the reading+projection phase of `overlaykit tile` on a GeoJSONSeq
file with --threads 1 against --threads N (tippecanoe's -P), in the same run, alternating.

The input is generated on the fly with ../shared/bench/scale/make_scale_data.py (never kept:
it goes to a temporary folder that is removed at the end). Each run tiles to z0 only, so the
pyramid is small, and the phase is the "read and projected N features in S s" line that
`tile --progress` prints; the archives of both thread counts are compared byte for byte.
Seconds are medians of --runs runs; on a shared machine the load (uptime) is printed before and
after, and the ratio from one run is what to compare. Builds release first.

Usage: python3 Benchmarks/bench_parallel_read.py [--kind buildings|points] [--features N]
                                                 [--threads N] [--runs N]
"""
import argparse, filecmp, os, re, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENERATOR = os.path.join(os.path.dirname(ROOT), "shared", "bench", "scale", "make_scale_data.py")
PHASE = re.compile(r"read and projected (\d+) features in ([0-9.]+) s")


def tile(binary, source, output, threads):
    """(phase seconds, wall seconds) of one `tile` run to z0."""
    start = time.monotonic()
    result = subprocess.run([binary, "tile", source, "-o", output, "--max-zoom", "0", "--threads", str(threads),
                             "--progress", "--force"], capture_output=True, text=True)
    wall = time.monotonic() - start
    if result.returncode != 0:
        sys.exit(f"tile failed ({result.returncode}): {result.stderr}")
    match = PHASE.search(result.stderr)
    if not match:
        sys.exit(f"no phase line in: {result.stderr}")
    return float(match.group(2)), wall


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kind", default="buildings", choices=["buildings", "points"])
    parser.add_argument("--features", type=int, default=700_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not os.path.exists(GENERATOR):
        print(f"skipped: {GENERATOR} is absent")
        return
    subprocess.run(["swift", "build", "-c", "release"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    binary = os.path.join(ROOT, ".build", "release", "overlaykit")
    folder = tempfile.mkdtemp(prefix="bench_parallel_read_", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    try:
        source = os.path.join(folder, f"{args.kind}.geojsonseq")
        subprocess.run([sys.executable, GENERATOR, args.kind, str(args.features), source], check=True)
        size = os.path.getsize(source)
        print(f"input: {args.features:,} {args.kind}, {size / 1e6:.0f} MB GeoJSONSeq; load {os.getloadavg()[0]:.2f}")
        phases = {1: [], args.threads: []}
        walls = {1: [], args.threads: []}
        outputs = {t: os.path.join(folder, f"t{t}.pmtiles") for t in phases}
        for _ in range(args.runs):
            for threads in phases:  # alternating, so load changes hit both alike
                phase, wall = tile(binary, source, outputs[threads], threads)
                phases[threads].append(phase)
                walls[threads].append(wall)
        identical = filecmp.cmp(outputs[1], outputs[args.threads], shallow=False)
        print(f"| threads | read+project (median of {args.runs}) | runs | whole tile z0 |")
        print("|---|---:|---|---:|")
        for threads in phases:
            print(f"| {threads} | {statistics.median(phases[threads]):.2f} s | "
                  + ", ".join(f"{p:.2f}" for p in phases[threads])
                  + f" | {statistics.median(walls[threads]):.2f} s |")
        ratio = statistics.median(phases[1]) / statistics.median(phases[args.threads])
        print(f"speed-up of the phase: {ratio:.2f}x on {args.threads} threads; archives identical: {identical}; "
              f"load {os.getloadavg()[0]:.2f}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()

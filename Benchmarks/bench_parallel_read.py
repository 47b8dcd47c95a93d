#!/usr/bin/env python3
"""Parallel input benchmark: the reading+projection phase of `overlaykit tile` on a GeoJSONSeq
file with --threads 1 against --threads N (tippecanoe's -P), in the same run, alternating.

The input is generated on the fly with ../shared/bench/scale/make_scale_data.py (never kept:
it goes to a temporary folder that is removed at the end). Each run tiles to z0 only, so the
pyramid is small, and the phase is the "read and projected N features in S s" line that
`tile --progress` prints; the archives of both thread counts are compared byte for byte.
Seconds are medians of --runs runs; on a shared machine the load (uptime) is printed before and
after, and the ratio from one run is what to compare. Builds release first.

With --callgrind (a loaded machine gives a second thread no core, so wall time cannot show the
speed-up) the phase is counted in instructions instead, 2 threads only: the whole phase on one
thread (TileSource's init), then with 2 threads each part's reader (ParallelSequenceProjection
Job.run, on each thread) and what is left on the calling thread (joining parts and tables). The
critical path is the longer part plus what is left; the speed-up is the one-thread count over it.
Use ~40,000 features: callgrind runs ~50x slower.

Usage: python3 Benchmarks/bench_parallel_read.py [--kind buildings|points] [--features N]
                                                 [--threads N] [--runs N] [--callgrind]
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


PHASE_SYMBOL = ("$s10OverlayKit10TileSourceV7reading7options11readThreads16minimumPartBytes9onWarningACxz_"
                "AA0C7OptionsVS2iy0A5Model10DiagnosticVXEtKcAA13FeatureReaderRzlufC")


def callgrind(binary, source, folder):
    """Instructions: one-thread phase, each part, and what is left on the calling thread."""
    part_symbol = next(line.split()[-1] for line in subprocess.run(["nm", binary], capture_output=True, text=True)
                       .stdout.splitlines() if "ParallelSequenceProjectionO3Job" in line and line.endswith("C3runyyF"))

    def run(name, threads, toggles):
        out = os.path.join(folder, name)
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--separate-threads=yes",
                        "--collect-atstart=no"] + [f"--toggle-collect={t}" for t in toggles]
                       + [binary, "tile", source, "-o", os.path.join(folder, name + ".pmtiles"), "--max-zoom", "0",
                          "--threads", str(threads), "--force"], check=True, capture_output=True)
        counts = []
        for file in sorted(f for f in os.listdir(folder) if f.startswith(name + "-")):
            with open(os.path.join(folder, file)) as fh:
                counts += [int(line.split()[1]) for line in fh if line.startswith("summary:")]
        return [c for c in counts if c > 0]

    whole = sum(run("one", 1, [PHASE_SYMBOL]))
    left = run("left", 2, [PHASE_SYMBOL, part_symbol])  # the calling thread without its part; the other part
    parts = run("parts", 2, [part_symbol])
    rest = left[0]
    critical = max(parts) + rest
    print(f"instructions: one thread {whole / 1e9:.3f} G; 2 threads: parts {' + '.join(f'{p / 1e9:.3f}' for p in parts)} G, "
          f"left on the calling thread {rest / 1e9:.3f} G")
    print(f"critical path {critical / 1e9:.3f} G: speed-up {whole / critical:.2f}x; total work {(sum(parts) + rest) / whole:.2f}x one thread")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kind", default="buildings", choices=["buildings", "points"])
    parser.add_argument("--features", type=int, default=700_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--callgrind", action="store_true")
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
        if args.callgrind:
            callgrind(binary, source, folder)
            return
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

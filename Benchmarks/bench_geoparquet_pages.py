#!/usr/bin/env python3
"""Issue 46's page skipping: `overlaykit filter X --bbox B --count` over 1/1000 of the area of
1,000,000 points, where X is the same points (bench_geoparquet.py's DuckDB file, prepared in
its data folder) rewritten by pyarrow as ONE row group of 1,000,000 rows with a 1.1 bbox
covering column, once with a page index (ColumnIndex / OffsetIndex) and once without, so row
group statistics cannot skip anything and only the page index can. The DuckDB file itself (49
row groups, 2.0 geospatial statistics) is timed beside them. Runs are interleaved; each line is
the median of --runs runs of user+sys CPU seconds and wall seconds (GNU time -v).

usage: bench_geoparquet_pages.py [--binary B] [--data /tmp/gpqbench] [--runs 5] [--page-size BYTES]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def one_row_group(source, target, page_index, page_size):
    import pyarrow as pa
    import pyarrow.parquet as pq
    import shapely
    if os.path.exists(target):
        return
    table = pq.read_table(source)
    bounds = shapely.bounds(shapely.from_wkb(table.column("geometry").to_numpy(zero_copy_only=False)))
    bbox = pa.StructArray.from_arrays([pa.array(bounds[:, i]) for i in range(4)], names=["xmin", "ymin", "xmax", "ymax"])
    table = table.append_column("bbox", bbox)
    geo = json.loads(table.schema.metadata[b"geo"])
    geo["version"] = "1.1.0"
    geo["columns"]["geometry"]["covering"] = {"bbox": {k: ["bbox", k] for k in ["xmin", "ymin", "xmax", "ymax"]}}
    table = table.replace_schema_metadata({"geo": json.dumps(geo)})
    pq.write_table(table, target + ".tmp", row_group_size=len(table), write_page_index=page_index,
                   data_page_size=page_size, compression="snappy")
    os.replace(target + ".tmp", target)


def timed(command):
    result = subprocess.run(["/usr/bin/time", "-v"] + command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {result.stderr}")
    fields = {}
    for line in result.stderr.splitlines():
        key, _, value = line.strip().rpartition(": ")
        fields[key] = value
    wall = fields["Elapsed (wall clock) time (h:mm:ss or m:ss)"].split(":")
    seconds = sum(float(part) * 60 ** index for index, part in enumerate(reversed(wall)))
    cpu = float(fields["User time (seconds)"]) + float(fields["System time (seconds)"])
    return cpu, seconds, result.stdout.strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "overlaykit"))
    parser.add_argument("--data", default="/tmp/gpqbench")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--page-size", type=int, default=1 << 20, help="pyarrow data_page_size (default 1 MiB, pyarrow's)")
    args = parser.parse_args()
    from bench_geoparquet import prepare, query_box
    source = prepare(args.data, "points", 1_000_000, 42)[1]
    box = query_box(source)
    files = {}
    for name, index in [("paged", True), ("unpaged", False)]:
        files[name] = os.path.join(args.data, f"points-1000000-42-onegroup-{name}-{args.page_size}.parquet")
        one_row_group(source, files[name], index, args.page_size)
    files["duckdb-49-groups"] = source
    print(f"box {box}; binary {args.binary}")
    runs = {name: [] for name in files}
    counts = {}
    for _ in range(args.runs):
        for name, path in files.items():
            cpu, wall, out = timed([args.binary, "filter", path, "--bbox", box, "--count"])
            runs[name].append((cpu, wall))
            counts[name] = out
    for name in files:
        cpu = statistics.median(r[0] for r in runs[name])
        wall = statistics.median(r[1] for r in runs[name])
        print(f"{name:18} count {counts[name]:>8}  user+sys {cpu:6.2f} s  wall {wall:6.2f} s  (median of {args.runs})")
    if len(set(counts.values())) != 1:
        raise SystemExit(f"the counts differ: {counts}")


if __name__ == "__main__":
    main()

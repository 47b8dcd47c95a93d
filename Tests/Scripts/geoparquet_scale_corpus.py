#!/usr/bin/env python3
"""GeoParquet files with many row groups for the reader's pushdown, slicing, parallel and
folder tests (GeoParquetScaleTests, TileJobTests), written with pyarrow alone:

  covering.parquet  GeoParquet 1.1: 2,400 features (points, lines, polygons) sorted west to
                    east, 24 row groups of 100, a `bbox` covering struct column whose min/max
                    statistics bound each row group; properties name, n, v, tags (a list)
  hive/             the same features in three partitions region=east, region=north%2Fwest
                    (percent-encoded "north/west"), region=__HIVE_DEFAULT_PARTITION__ (null),
                    each part-0.parquet plus a _SUCCESS file and a .crc file that are not read;
                    hive.json lists the (name, region) of every feature in path order

usage: geoparquet_scale_corpus.py OUT_DIR
"""
import json
import math
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def wkb_point(x, y):
    import struct
    return struct.pack("<BIdd", 1, 1, x, y)


def wkb_line(points):
    import struct
    return struct.pack("<BII", 1, 2, len(points)) + b"".join(struct.pack("<dd", x, y) for x, y in points)


def wkb_polygon(ring):
    import struct
    return struct.pack("<BIII", 1, 3, 1, len(ring)) + b"".join(struct.pack("<dd", x, y) for x, y in ring)


rows = []
for i in range(2400):
    x = -170 + 340 * i / 2400
    y = 60 * math.sin(i / 37.0)
    kind = i % 3
    if kind == 0:
        coords = [(x, y)]
        geometry = wkb_point(x, y)
    elif kind == 1:
        coords = [(x, y), (x + 0.05, y + 0.03), (x + 0.1, y - 0.02)]
        geometry = wkb_line(coords)
    else:
        coords = [(x, y), (x + 0.04, y), (x + 0.04, y + 0.04), (x, y + 0.04), (x, y)]
        geometry = wkb_polygon(coords)
    xs, ys = [c[0] for c in coords], [c[1] for c in coords]
    rows.append({"name": f"f{i}", "n": i, "v": i / 8.0, "tags": [f"t{i % 5}"] * (i % 3),
                 "geometry": geometry, "bbox": {"xmin": min(xs), "ymin": min(ys), "xmax": max(xs), "ymax": max(ys)}})

geo = {"version": "1.1.0", "primary_column": "geometry",
       "columns": {"geometry": {"encoding": "WKB", "geometry_types": ["Point", "LineString", "Polygon"],
                                "covering": {"bbox": {"xmin": ["bbox", "xmin"], "ymin": ["bbox", "ymin"],
                                                      "xmax": ["bbox", "xmax"], "ymax": ["bbox", "ymax"]}}}}}
schema = pa.schema([("name", pa.string()), ("n", pa.int64()), ("v", pa.float64()), ("tags", pa.list_(pa.string())),
                    ("geometry", pa.binary()),
                    ("bbox", pa.struct([("xmin", pa.float64()), ("ymin", pa.float64()), ("xmax", pa.float64()), ("ymax", pa.float64())]))])


def table(selected):
    return pa.Table.from_pylist(selected, schema=schema).replace_schema_metadata({"geo": json.dumps(geo)})


pq.write_table(table(rows), os.path.join(out, "covering.parquet"), row_group_size=100, compression="snappy")

hive = os.path.join(out, "hive")
listed = []
for folder, value, part in [("region=east", "east", rows[1600:]), ("region=north%2Fwest", "north/west", rows[:800]),
                            ("region=__HIVE_DEFAULT_PARTITION__", None, rows[800:1600])]:
    os.makedirs(os.path.join(hive, folder), exist_ok=True)
    pq.write_table(table(part), os.path.join(hive, folder, "part-0.parquet"), row_group_size=150)
    with open(os.path.join(hive, folder, ".part-0.parquet.crc"), "w") as f:
        f.write("not parquet")
    listed.append((folder, [(r["name"], value) for r in part]))
with open(os.path.join(hive, "_SUCCESS"), "w") as f:
    pass
ordered = [pair for folder, pairs in sorted(listed, key=lambda item: item[0].encode()) for pair in pairs]
with open(os.path.join(out, "hive.json"), "w") as f:
    json.dump(ordered, f)
print("covering.parquet hive")

# GeoParquet 2.0 with geospatial statistics, by DuckDB spatial when it loads offline: 12,288
# points (i/100 − 60, i/1000) in order, six row groups of 2,048 (DuckDB's smallest).
try:
    import glob
    import duckdb
    import duckdb_extension_spatial
    extension = glob.glob(os.path.join(os.path.dirname(duckdb_extension_spatial.__file__), "**", "*.duckdb_extension"), recursive=True)
    con = duckdb.connect()
    con.execute("SET threads = 1")
    con.execute(f"LOAD '{extension[0]}'")
    native = os.path.join(out, "native.parquet")
    con.execute(f"""COPY (SELECT i AS id, ST_Point(i / 100.0 - 60, i / 1000.0) AS geometry FROM range(12288) t(i) ORDER BY i)
                    TO '{native}' (FORMAT PARQUET, GEOPARQUET_VERSION 'V2', ROW_GROUP_SIZE 2048)""")
except Exception as error:  # noqa: BLE001 - any failure to load means no DuckDB file
    print(f"duckdb spatial unavailable: {error}", file=sys.stderr)

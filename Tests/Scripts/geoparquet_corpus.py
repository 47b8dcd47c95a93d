#!/usr/bin/env python3
"""Writes a GeoParquet corpus with the real writers (pyarrow, geopandas, DuckDB spatial when it
loads offline) into a folder, and beside each file NAME.parquet the features as NAME.expected.json:
what geopandas / pyarrow read (geometry as GeoJSON, properties as JSON), for the Swift tests to
compare with what overlaykit reads.

usage: geoparquet_corpus.py FOLDER
"""
import base64
import datetime
import decimal
import glob
import json
import math
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import shapely
import shapely.geometry

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
written = []


def jsonable(value):
    if value is None:
        return None
    if isinstance(value, float):
        return None if not math.isfinite(value) else value
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        text = value.isoformat()
        if "." in text:  # RFC 3339 with the fewest fraction digits, as overlaykit writes it
            text = text.rstrip("0").rstrip(".")
        return text + "Z"
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        # pyarrow gives a map as a list of (key, value) tuples
        if value and all(isinstance(v, tuple) and len(v) == 2 for v in value):
            return {str(k): jsonable(v) for k, v in value}
        return [jsonable(v) for v in value]
    return value


def expected_from_table(path, geometry_column="geometry"):
    """Every row: the geometry (from WKB or via geopandas) and the other columns."""
    table = pq.read_table(path)
    rows = table.to_pylist()
    meta = table.schema.metadata or {}
    geo = json.loads(meta[b"geo"]) if b"geo" in meta else None
    skip = {geometry_column}
    if geo:
        skip |= set(geo["columns"].keys())
        cover = geo["columns"][geometry_column].get("covering")
        if cover:
            skip.add(cover["bbox"]["xmin"][0])
    try:
        import geopandas
        frame = geopandas.read_parquet(path, columns=[geometry_column]) if geo else None
        geoms = list(frame[geometry_column]) if frame is not None else None
    except Exception:
        geoms = None
    features = []
    for index, row in enumerate(rows):
        if geoms is not None:
            shape = geoms[index]
        else:
            raw = row[geometry_column]
            shape = shapely.from_wkb(raw) if raw is not None else None
        geometry = None if shape is None or shape.is_empty else shapely.geometry.mapping(shape)
        props = {k: jsonable(v) for k, v in row.items() if k not in skip}
        features.append({"geometry": json.loads(json.dumps(geometry)), "properties": props})
    return features


def save(name, path, geometry_column="geometry"):
    with open(os.path.join(out, name + ".expected.json"), "w") as f:
        json.dump(expected_from_table(path, geometry_column), f)
    written.append(name)


# Geometries of every kind, with nulls and holes.
shapes = [
    shapely.Point(1.5, 2.25),
    shapely.LineString([(0, 0), (10, 5), (20, -5)]),
    shapely.Polygon([(0, 0), (4, 0), (4, 4), (0, 4), (0, 0)], [[(1, 1), (1, 2), (2, 2), (2, 1), (1, 1)]]),
    shapely.MultiPoint([(5, 5), (6, 7)]),
    shapely.MultiLineString([[(0, 0), (1, 1)], [(2, 2), (3, 1)]]),
    shapely.MultiPolygon([shapely.Polygon([(10, 10), (11, 10), (11, 11), (10, 10)]),
                          shapely.Polygon([(20, 20), (21, 20), (21, 21), (20, 20)])]),
    None,
    shapely.Point(-179.5, -85.0),
]
n = 400  # several pages and row groups
geoms = [shapes[i % len(shapes)] for i in range(n)]
wkb = [None if g is None else shapely.to_wkb(g) for g in geoms]

geo_meta = {"version": "1.0.0", "primary_column": "geometry",
            "columns": {"geometry": {"encoding": "WKB", "geometry_types": []}}}

utc = datetime.timezone.utc
columns = {
    "id": pa.array(range(n), pa.int64()),
    "name": pa.array([None if i % 7 == 0 else f"feature {i % 23} é" for i in range(n)], pa.string()),
    "i8": pa.array([(i % 200) - 100 for i in range(n)], pa.int8()),
    "u16": pa.array([i * 150 % 65536 for i in range(n)], pa.uint16()),
    "u32": pa.array([4_000_000_000 + i for i in range(n)], pa.uint32()),
    "i32": pa.array([None if i % 5 == 0 else -i * 1000 for i in range(n)], pa.int32()),
    "f32": pa.array([i * 0.5 for i in range(n)], pa.float32()),
    "f64": pa.array([None if i % 11 == 0 else i / 3 for i in range(n)], pa.float64()),
    "flag": pa.array([None if i % 13 == 0 else i % 2 == 0 for i in range(n)], pa.bool_()),
    "day": pa.array([datetime.date(2020, 1, 1) + datetime.timedelta(days=i * 17) for i in range(n)], pa.date32()),
    "when": pa.array([datetime.datetime(2024, 2, 29, 12, 0, tzinfo=utc) + datetime.timedelta(seconds=i * 3601.5) for i in range(n)],
                     pa.timestamp("ms", tz="UTC")),
    "when_us": pa.array([datetime.datetime(1969, 12, 31, 23, 59, 59) + datetime.timedelta(microseconds=i * 1234567) for i in range(n)],
                        pa.timestamp("us")),
    "price": pa.array([decimal.Decimal(i * 125) / 100 for i in range(n)], pa.decimal128(10, 2)),
    "blob": pa.array([bytes([i % 256, 0, 255]) for i in range(n)], pa.binary()),
    "tags": pa.array([None if i % 9 == 0 else [f"t{j}" for j in range(i % 4)] for i in range(n)], pa.list_(pa.string())),
    "nested": pa.array([{"a": i, "b": None if i % 3 == 0 else f"s{i}"} for i in range(n)],
                       pa.struct([("a", pa.int32()), ("b", pa.string())])),
    "lists": pa.array([[[i, i + 1], [], [i * 2]] if i % 6 else None for i in range(n)], pa.list_(pa.list_(pa.int64()))),
    "kv": pa.array([[("k1", i), ("k2", i + 1)] for i in range(n)], pa.map_(pa.string(), pa.int32())),
    "geometry": pa.array(wkb, pa.binary()),
}
table = pa.table(columns).replace_schema_metadata({"geo": json.dumps(geo_meta)})

# pyarrow: every codec, page v2, dictionary off, small row groups and pages.
for codec in ["NONE", "SNAPPY", "GZIP", "BROTLI", "ZSTD", "LZ4"]:
    path = os.path.join(out, f"codec_{codec.lower()}.parquet")
    pq.write_table(table, path, compression=codec, row_group_size=150, data_page_size=512)
    save(f"codec_{codec.lower()}", path)
path = os.path.join(out, "page_v2.parquet")
pq.write_table(table, path, data_page_version="2.0", compression="ZSTD", row_group_size=128, data_page_size=1024)
save("page_v2", path)
path = os.path.join(out, "no_dictionary.parquet")
pq.write_table(table, path, use_dictionary=False, compression="SNAPPY", data_page_version="2.0")
save("no_dictionary", path)
plain_cols = ["id", "i32", "f32", "f64", "name", "blob", "geometry", "u32"]
path = os.path.join(out, "byte_stream_split.parquet")
pq.write_table(table.select(plain_cols), path, use_dictionary=False,
               use_byte_stream_split=["f32", "f64"], compression="NONE")
save("byte_stream_split", path)
path = os.path.join(out, "delta.parquet")
pq.write_table(table.select(plain_cols), path, use_dictionary=False,
               column_encoding={"id": "DELTA_BINARY_PACKED", "i32": "DELTA_BINARY_PACKED", "u32": "DELTA_BINARY_PACKED",
                                "name": "DELTA_BYTE_ARRAY", "blob": "DELTA_LENGTH_BYTE_ARRAY",
                                "geometry": "DELTA_LENGTH_BYTE_ARRAY"},
               compression="ZSTD", data_page_version="2.0", row_group_size=100)
save("delta", path)
path = os.path.join(out, "delta_v1.parquet")
pq.write_table(table.select(plain_cols), path, use_dictionary=False,
               column_encoding={"id": "DELTA_BINARY_PACKED", "name": "DELTA_BYTE_ARRAY", "blob": "DELTA_LENGTH_BYTE_ARRAY"},
               compression="NONE", row_group_size=64)
save("delta_v1", path)

# geopandas: 1.0 WKB, 1.1 with a bbox covering column, GeoArrow encoding.
try:
    import geopandas
    frame = geopandas.GeoDataFrame({"name": [f"g{i}" for i in range(n)], "value": [i * 1.5 for i in range(n)]},
                                   geometry=geoms, crs="EPSG:4326")
    path = os.path.join(out, "geopandas_1_0.parquet")
    frame.to_parquet(path, schema_version="1.0.0")
    save("geopandas_1_0", path)
    path = os.path.join(out, "geopandas_1_1_covering.parquet")
    frame.to_parquet(path, schema_version="1.1.0", write_covering_bbox=True, row_group_size=50)
    save("geopandas_1_1_covering", path)
    for kind, parts in [("point", [shapely.Point(i, i / 2) for i in range(50)] + [None]),
                        ("linestring", [shapely.LineString([(i, 0), (i + 1, 1), (i + 2, 0.5)]) for i in range(50)]),
                        ("polygon", [shapes[2], shapely.Polygon([(0, 0), (1, 0), (1, 1), (0, 0)])] * 20),
                        ("multipolygon", [shapes[5]] * 20)]:
        typed = geopandas.GeoDataFrame({"k": list(range(len(parts)))}, geometry=parts, crs="OGC:CRS84")
        name = f"geoarrow_{kind}"
        path = os.path.join(out, name + ".parquet")
        typed.to_parquet(path, geometry_encoding="geoarrow", schema_version="1.1.0")
        save(name, path)
    # Two geometry columns: the primary one and a centroid (geopandas writes both in `geo`).
    two = frame.copy()
    two["centroid"] = geopandas.GeoSeries([None if g is None else g.centroid for g in geoms], crs="EPSG:4326")
    path = os.path.join(out, "two_geometries.parquet")
    two.to_parquet(path)
    save("two_geometries", path)
    with open(os.path.join(out, "two_geometries.centroid.json"), "w") as f:
        json.dump([None if g is None or g.is_empty else shapely.geometry.mapping(g.centroid) for g in geoms], f)
    projected = geopandas.GeoDataFrame({"k": [1]}, geometry=[shapely.Point(500000, 4649776)], crs="EPSG:32633")
    projected.to_parquet(os.path.join(out, "refuse_utm.parquet"))
except ImportError:
    print("geopandas missing: its files skipped", file=sys.stderr)

# DuckDB with the spatial extension, GeoParquet 2.0 (native GEOMETRY), when it loads offline.
try:
    import duckdb
    import duckdb_extension_spatial
    extension = glob.glob(os.path.join(os.path.dirname(duckdb_extension_spatial.__file__), "**", "*.duckdb_extension"), recursive=True)
    con = duckdb.connect()
    con.execute(f"LOAD '{extension[0]}'")
    path = os.path.join(out, "duckdb_v2.parquet")
    con.execute(f"""COPY (SELECT i AS id, 'n' || i AS name,
                    ST_Point(i / 10.0, i / 20.0) AS geometry FROM range(300) t(i))
                    TO '{path}' (FORMAT PARQUET, GEOPARQUET_VERSION 'V2', ROW_GROUP_SIZE 100)""")
    save("duckdb_v2", path)
except Exception as error:  # noqa: BLE001 - any failure to load means no DuckDB file
    print(f"duckdb spatial unavailable: {error}", file=sys.stderr)

with open(os.path.join(out, "index.json"), "w") as f:
    json.dump(written, f)
print(" ".join(written))

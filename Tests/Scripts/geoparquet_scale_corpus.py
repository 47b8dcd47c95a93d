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
  paged.parquet     the same 2,400 features in two row groups of 1,200 with a page index
                    (ColumnIndex and OffsetIndex) and small pages (their row ranges differ from
                    column to column), for page skipping
  paged_bad_offset.parquet   paged.parquet whose first row group's bbox.xmin offset index
                    points past the end of the file (the footer patched in place)
  paged_bad_rows.parquet     paged.parquet whose first row group's bbox.xmin offset index puts
                    its second page's first row beyond the row group's rows
  paged_bad_count.parquet    paged.parquet whose first row group's bbox.xmin column index is
                    the geometry column's (a different number of pages)
  paged_name_unindexed.parquet  paged.parquet whose `name` column has no page index (its
                    ColumnChunk fields renumbered): decoded whole, its rows cut to the others'

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

# A page index and small pages: pyarrow cuts a page when it passes data_page_size after a
# batch of write_batch_size rows, so pages hold about 16 rows of WKB and more of the numbers.
paged = os.path.join(out, "paged.parquet")
pq.write_table(table(rows), paged, row_group_size=1200, write_page_index=True, data_page_size=1024, use_dictionary=["name"],
               write_batch_size=16, compression="snappy")


def thrift_fields(data, position):
    """The fields of the compact Thrift struct at `position`: a list of (id, type, start, end,
    value) where value is an int, bytes, a list of values or a nested field list; and the end."""
    def varint(pos):
        result, shift = 0, 0
        while True:
            byte = data[pos]
            pos += 1
            result |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return result, pos

    def value(kind, pos):
        start = pos
        if kind in (1, 2):
            return kind == 1, pos, start
        if kind == 3:
            return data[pos], pos + 1, start
        if kind in (4, 5, 6):
            raw, pos = varint(pos)
            return (raw >> 1) ^ -(raw & 1), pos, start
        if kind == 7:
            return data[pos:pos + 8], pos + 8, start
        if kind == 8:
            length, pos = varint(pos)
            return data[pos:pos + length], pos + length, start
        if kind in (9, 10):
            header = data[pos]
            pos += 1
            count, element = header >> 4, header & 0x0F
            if count == 15:
                count, pos = varint(pos)
            items = []
            for _ in range(count):
                if element in (1, 2):
                    items.append((data[pos] == 1, pos, pos + 1))
                    pos += 1
                    continue
                item, end, item_start = value(element, pos)
                items.append((item, item_start, end))
                pos = end
            return items, pos, start
        if kind == 12:
            fields, pos = thrift_fields(data, pos)
            return fields, pos, start
        raise ValueError(f"thrift type {kind}")

    fields, last = [], 0
    while True:
        header = data[position]
        position += 1
        if header == 0:
            return fields, position
        delta, kind = header >> 4, header & 0x0F
        if delta == 0:
            raw, position = varint(position)
            field = (raw >> 1) ^ -(raw & 1)
        else:
            field = last + delta
        last = field
        item, end, start = value(kind, position)
        fields.append((field, kind, start, end, item))
        position = end


def field(fields, wanted):
    return next(entry for entry in fields if entry[0] == wanted)


def patched_varint(data, start, end, wanted):
    """`data` with the zigzag varint at start..<end replaced by `wanted` in the same bytes."""
    raw = wanted << 1 if wanted >= 0 else (-wanted << 1) - 1
    encoded = []
    for index in range(end - start):
        encoded.append((raw & 0x7F) | (0x80 if index + 1 < end - start else 0))
        raw >>= 7
    assert raw == 0, "the value does not fit the varint's bytes"
    return data[:start] + bytes(encoded) + data[end:]


with open(paged, "rb") as f:
    original = f.read()
footer_length = int.from_bytes(original[-8:-4], "little")
footer_start = len(original) - 8 - footer_length
meta, _ = thrift_fields(original, footer_start)
chunks = field(field(meta, 4)[4][0][0], 1)[4]  # row group 0's ColumnChunk list
names = [".".join(item.decode() for item, _, _ in field(field(chunk[0], 3)[4], 3)[4]) for chunk in chunks]
xmin = chunks[names.index("bbox.xmin")][0]
geometry = chunks[names.index("geometry")][0]

# Past the file: the largest value the offset's varint bytes hold.
_, _, start, end, _ = field(xmin, 4)
bad = patched_varint(original, start, end, (1 << (7 * (end - start) - 1)) - 1)
assert (1 << (7 * (end - start) - 1)) - 1 > len(original)
with open(os.path.join(out, "paged_bad_offset.parquet"), "wb") as f:
    f.write(bad)

# A first row beyond the rows: page 1's first_row_index in the offset index itself.
offset_index_at = field(xmin, 4)[4]
locations, _ = thrift_fields(original, offset_index_at)
second = field(locations, 1)[4][1][0]
_, _, start, end, _ = field(second, 3)
bad = patched_varint(original, start, end, (1 << (7 * (end - start) - 1)) - 1)
with open(os.path.join(out, "paged_bad_rows.parquet"), "wb") as f:
    f.write(bad)

# Another column's column index: the geometry column has more pages than bbox.xmin.
bad = original
for offset_field, length_field in [(6, 7)]:
    for wanted_field in (offset_field, length_field):
        _, _, start, end, _ = field(xmin, wanted_field)
        _, _, other_start, other_end, other = field(geometry, wanted_field)
        assert end - start == other_end - other_start, "the column indexes' varints differ in length"
        bad = patched_varint(bad, start, end, other)
with open(os.path.join(out, "paged_bad_count.parquet"), "wb") as f:
    f.write(bad)

# No page index for `name` in either row group: its ColumnChunk's offset_index_offset (field 4,
# its header one id after meta_data's) renumbered to 10, so fields 4-7 read as unknown ids 10-13.
unindexed = original
for group in field(meta, 4)[4]:
    for chunk, chunk_start, _ in field(group[0], 1)[4]:
        path = ".".join(item.decode() for item, _, _ in field(field(chunk, 3)[4], 3)[4])
        if path == "name":
            start = field(chunk, 4)[2]
            assert unindexed[start - 1] == 0x16, "offset_index_offset's header is not the short form after field 3"
            unindexed = unindexed[:start - 1] + bytes([0x76]) + unindexed[start:]
with open(os.path.join(out, "paged_name_unindexed.parquet"), "wb") as f:
    f.write(unindexed)
print("paged.parquet and four altered copies")

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

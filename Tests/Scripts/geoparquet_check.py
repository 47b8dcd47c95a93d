"""Checks a GeoParquet file overlaykit wrote against the same features as GeoJSONSeq (written
by overlaykit's GeoJSON writer with 17 decimals): geopandas reads the same geometries (shapely
equals_exact), pyarrow the same properties, ids and folder paths; with --duckdb, DuckDB spatial
(loaded from the duckdb-extension-spatial wheel, no network) reads the same geometries too.
Prints "ok N" and exits 0, or prints each difference and exits 1.

usage: geoparquet_check.py FILE.parquet EXPECTED.geojsonl [--duckdb] [--any-order]
"""
import json
import sys

import pyarrow.parquet as pq
import shapely
import shapely.geometry


def main():
    path, expected_path = sys.argv[1], sys.argv[2]
    use_duckdb = "--duckdb" in sys.argv
    any_order = "--any-order" in sys.argv
    expected = [json.loads(line) for line in open(expected_path, encoding="utf-8") if line.strip()]
    table = pq.read_table(path)
    rows = table.to_pylist()
    own = json.loads((table.schema.metadata or {}).get(b"overlaykit", b"{}"))
    id_column = own.get("id_column")
    folders_column = own.get("folders_column")
    json_columns = {field.name for field in table.schema if "json" in str(field.type).lower()}
    problems = []

    import geopandas
    frame = geopandas.read_parquet(path)
    geometries = list(frame.geometry)
    if use_duckdb:
        import glob
        import os
        import duckdb
        import duckdb_extension_spatial
        extension = glob.glob(os.path.join(os.path.dirname(duckdb_extension_spatial.__file__), "**", "*.duckdb_extension"), recursive=True)
        con = duckdb.connect()
        con.execute(f"LOAD '{extension[0]}'")
        duck = [None if wkb is None else shapely.from_wkb(bytes(wkb))
                for (wkb,) in con.execute(f"SELECT ST_AsWKB(geometry) FROM read_parquet('{path}')").fetchall()]
        if len(duck) != len(rows):
            problems.append(f"duckdb read {len(duck)} rows, pyarrow {len(rows)}")

    def key(feature):
        return json.dumps(feature.get("id")) + json.dumps(feature.get("geometry"), sort_keys=True)

    order = list(range(len(expected)))
    if any_order:
        written = [(json.dumps(rows[i].get(id_column)) if id_column else "") for i in range(len(rows))]
        by_id = {}
        for index, feature in enumerate(expected):
            by_id.setdefault(json.dumps(feature.get("id")) if id_column else "", []).append(index)
        order = [by_id[w].pop(0) for w in written]

    if len(rows) != len(expected):
        problems.append(f"{len(rows)} rows, {len(expected)} features expected")
    for row_index, (row, geometry) in enumerate(zip(rows, geometries)):
        want = expected[order[row_index]]
        where = f"row {row_index}"
        want_geometry = None if want.get("geometry") is None else shapely.geometry.shape(want["geometry"])
        for reader, got in [("geopandas", geometry)] + ([("duckdb", duck[row_index])] if use_duckdb else []):
            if (got is None or got.is_empty) != (want_geometry is None or want_geometry.is_empty):
                problems.append(f"{where}: {reader} geometry {got} where {want_geometry} was written")
            elif got is not None and not got.is_empty and not got.equals_exact(want_geometry, 0):
                problems.append(f"{where}: {reader} geometry {got.wkt[:80]} is not {want_geometry.wkt[:80]}")
        if id_column and row.get(id_column) != want.get("id") and str(row.get(id_column)) != str(want.get("id")):
            problems.append(f"{where}: id {row.get(id_column)!r}, expected {want.get('id')!r}")
        if folders_column and (row.get(folders_column) or []) != want.get("folders", []):
            problems.append(f"{where}: folders {row.get(folders_column)!r}, expected {want.get('folders')!r}")
        for name, value in (want.get("properties") or {}).items():
            got = row.get(name)
            if name in json_columns and got is not None:
                got = json.loads(got)
            if got != value:
                problems.append(f"{where}: property {name} = {got!r}, expected {value!r}")
    if problems:
        print("\n".join(problems[:40]))
        sys.exit(1)
    print(f"ok {len(rows)}")


main()

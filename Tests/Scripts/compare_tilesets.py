"""Decodes two tile sets tile by tile with PyPI mapbox-vector-tile and compares, for every
z/x/y, the features as multisets: layer, id, geometry (integer tile coordinates) and properties.
Feature order inside a tile and byte-level encoding (key/value table order) may differ.

Each tile set is a directory (z/x/y.mvt), a .pmtiles archive (PyPI pmtiles) or a .mbtiles
database (sqlite3, TMS rows). A test oracle for the shard + tile-join path.

usage: compare_tilesets.py A B [C …]
compares A with B, or with the union of B, C, … (a join's inputs); prints "tiles=<n> features=<n> mismatches=<n>" and exits 1 on any difference.
"""
import collections
import gzip
import json
import os
import sqlite3
import sys

import mapbox_vector_tile


def tiles(path):
    """{(z, x, y): uncompressed bytes}."""
    result = {}
    if path.endswith(".pmtiles"):
        from pmtiles.reader import Reader, MmapSource, all_tiles
        with open(path, "rb") as handle:
            for (z, x, y), data in all_tiles(MmapSource(handle)):
                result[(z, x, y)] = data
    elif path.endswith(".mbtiles"):
        connection = sqlite3.connect(path)
        for z, x, row, data in connection.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
            result[(z, x, (1 << z) - 1 - row)] = bytes(data)
        connection.close()
    else:
        for z in os.listdir(path):
            if not z.isdigit():
                continue
            for x in os.listdir(os.path.join(path, z)):
                for name in os.listdir(os.path.join(path, z, x)):
                    if name.endswith(".mvt") or name.endswith(".pbf"):
                        with open(os.path.join(path, z, x, name), "rb") as handle:
                            result[(int(z), int(x), int(name[:-4]))] = handle.read()
    return {key: gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data for key, data in result.items()}


def features(data):
    decoded = mapbox_vector_tile.decode(data, default_options={"y_coord_down": True})
    out = collections.Counter()
    for layer, content in decoded.items():
        for feature in content["features"]:
            out[json.dumps([layer, feature.get("id"), feature["geometry"], feature["properties"]], sort_keys=True)] += 1
    return out


def main():
    first = {key: features(data) for key, data in tiles(sys.argv[1]).items()}
    second = {}
    for path in sys.argv[2:]:
        for key, data in tiles(path).items():
            second[key] = second.get(key, collections.Counter()) + features(data)
    mismatches, total = 0, 0
    for key in sorted(set(first) | set(second)):
        if key not in first or key not in second:
            mismatches += 1
            print("tile %s only in %s" % ("/".join(map(str, key)), sys.argv[1] if key in first else " + ".join(sys.argv[2:])))
            continue
        a, b = first[key], second[key]
        total += sum(a.values())
        if a != b:
            mismatches += 1
            print("tile %s: %d features only in the first, %d only in the second; e.g. %s"
                  % ("/".join(map(str, key)), sum((a - b).values()), sum((b - a).values()),
                     (list((a - b).keys()) + list((b - a).keys()))[0][:300]))
    print("tiles=%d features=%d mismatches=%d" % (len(set(first) | set(second)), total, mismatches))
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()

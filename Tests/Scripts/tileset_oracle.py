"""An independent reading of a tile set for `overlaykit info TILESET --json` to be checked
against: PyPI `pmtiles` reads PMTiles, sqlite3 MBTiles, the file system directories, and
`mapbox-vector-tile` decodes every tile. Prints per zoom tiles, stored bytes (sum, max, 99th
percentile by nearest rank) and features per layer, and the largest tile sizes, as JSON.

usage: tileset_oracle.py TILESET
exits 3 (skip) when a module is missing."""
import gzip
import json
import math
import os
import sqlite3
import sys

try:
    import mapbox_vector_tile
    from pmtiles.reader import MmapSource, Reader, all_tiles
except ImportError as error:
    print("skipped: %s" % error)
    sys.exit(3)


def tiles(path):
    """(z, x, y, stored bytes) of every tile."""
    if os.path.isdir(path):
        for z in sorted(os.listdir(path)):
            if not z.isdigit():
                continue
            for x in os.listdir(os.path.join(path, z)):
                for name in os.listdir(os.path.join(path, z, x)):
                    y, extension = name.split(".", 1)
                    if extension in ("mvt", "pbf"):
                        with open(os.path.join(path, z, x, name), "rb") as handle:
                            yield int(z), int(x), int(y), handle.read()
    elif open(path, "rb").read(7) == b"PMTiles":
        with open(path, "rb") as handle:
            for (z, x, y), data in all_tiles(MmapSource(handle)):
                yield z, x, y, data
    else:
        connection = sqlite3.connect(path)
        for z, x, row, data in connection.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
            yield z, x, (1 << z) - 1 - row, data


def main():
    zooms = {}
    sizes = []
    for z, x, y, data in tiles(sys.argv[1]):
        entry = zooms.setdefault(z, {"sizes": [], "features": {}})
        entry["sizes"].append(len(data))
        sizes.append(len(data))
        plain = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
        for layer, content in mapbox_vector_tile.decode(plain).items():
            entry["features"][layer] = entry["features"].get(layer, 0) + len(content["features"])
    result = []
    for z in sorted(zooms):
        ordered = sorted(zooms[z]["sizes"])
        rank = math.ceil(0.99 * len(ordered))
        result.append({"zoom": z, "tiles": len(ordered), "bytes": sum(ordered), "maxBytes": ordered[-1],
                       "p99Bytes": ordered[rank - 1], "features": zooms[z]["features"]})
    print(json.dumps({"zooms": result, "largest": sorted(sizes, reverse=True)[:10]}))


if __name__ == "__main__":
    main()

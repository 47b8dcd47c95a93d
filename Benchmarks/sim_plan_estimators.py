#!/usr/bin/env python3
"""Could `tile --plan` estimate a zoom's stored bytes from a few tiles and a count it has for
every tile? A simulation on the tiles a run wrote (issue 30, item 5).

`tile --plan` cuts about 512 tiles a zoom (`Tiler.planSampleTiles`) and weighs each by the tiles
it stands for (Horvitz–Thompson). On an input whose run is under a second (the 50m countries to
z8) cutting even 64 tiles a zoom plus the first zooms whole takes more than a quarter of the
run. A cheaper plan would cut k tiles a zoom and scale them by a count known for every tile
from one pass over the vertices, without cutting: a ratio estimator on the tile's vertices, or
a regression on its vertices and its features. This measures how good those could be at best:
it gives them the run's own per-tile counts (exact, better than a pass that does not clip
could know them), treats tiles the archive stores once (the inside of polygons) as known, and
draws k tiles a zoom (a tile with over 1/k of the vertices can come up twice), with probability
proportional to their vertices (systematic sampling), 300 times. Printed per zoom: the estimate over the run's stored bytes, median and
5th–95th percentile; also the generalized regression (GREG) estimate, the Horvitz–Thompson sum
corrected by the regression's error on the known totals.

usage: sim_plan_estimators.py RUN.pmtiles [--tiles K ...] [--draws N]
  RUN.pmtiles: written by `overlaykit tile IN -o RUN.pmtiles -z Z`.
Needs `pip install pmtiles mapbox-vector-tile numpy`.
"""
import argparse
import gzip
import random

import mapbox_vector_tile
import numpy
from pmtiles.reader import MmapSource, Reader, all_tiles


def vertices(coordinates):
    if isinstance(coordinates[0], (int, float)):
        return 1
    return sum(vertices(part) for part in coordinates)


def distinct_tiles(path):
    """Per zoom, each tile the archive stores (its first copy): (vertices + 1, features, stored bytes)."""
    zooms, seen = {}, set()
    with open(path, "rb") as handle:
        for (z, _, _), data in all_tiles(Reader(MmapSource(handle)).get_bytes):
            if data in seen:
                continue
            seen.add(data)
            tile = mapbox_vector_tile.decode(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data)
            features = [feature for layer in tile.values() for feature in layer["features"]]
            count = sum(vertices(feature["geometry"]["coordinates"]) for feature in features)
            zooms.setdefault(z, []).append((count + 1, len(features), len(data)))
    return zooms


def systematic_sample(tiles, k, rng):
    """k tiles drawn with probability proportional to their vertices (systematic, random order)."""
    order = tiles[:]
    rng.shuffle(order)
    total = sum(tile[0] for tile in order)
    step = total / k
    target, picks, cumulative = rng.random() * step, [], 0.0
    for tile in order:
        cumulative += tile[0]
        while len(picks) < k and target < cumulative:
            picks.append(tile)
            target += step
    return picks


def estimates(tiles, picks):
    """The ratio, regression and generalized regression (GREG) estimates of the zoom's stored
    bytes from `picks`."""
    vertices_total = sum(tile[0] for tile in tiles)
    features_total = sum(tile[1] for tile in tiles)
    x = numpy.array([[t[0], t[1]] for t in picks], float)
    y = numpy.array([t[2] for t in picks], float)
    ratio = vertices_total * y.sum() / x[:, 0].sum()
    # Least squares through the origin, weighted by 1 / vertices (the draw's probabilities).
    weights = numpy.sqrt(1 / x[:, 0])
    coefficients, *_ = numpy.linalg.lstsq(x * weights[:, None], y * weights, rcond=None)
    regression = coefficients[0] * vertices_total + coefficients[1] * features_total
    # GREG: the Horvitz–Thompson sum (each drawn tile weighs X / (k x)) corrected by the same
    # fit's error on the known totals; unbiased whatever the model, for large samples.
    inverse = vertices_total / (len(picks) * x[:, 0])
    greg = (inverse * y).sum() + numpy.dot([vertices_total, features_total] - (inverse[:, None] * x).sum(axis=0), coefficients)
    return ratio, regression, greg


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pmtiles")
    parser.add_argument("--tiles", type=int, nargs="*", default=[16, 32, 64])
    parser.add_argument("--draws", type=int, default=300)
    args = parser.parse_args()
    zooms = distinct_tiles(args.pmtiles)
    for k in args.tiles:
        print("k = %d tiles a zoom: estimate / run's stored bytes, median (5th–95th percentile)" % k)
        print("  zoom  distinct tiles  stored bytes   ratio on vertices       regression on vertices, features  GREG")
        for zoom in sorted(zooms):
            tiles = zooms[zoom]
            stored = sum(tile[2] for tile in tiles)
            if len(tiles) <= k:
                print("  %4d  %14d  %12d   (every tile cut: exact)" % (zoom, len(tiles), stored))
                continue
            rng = random.Random(zoom)
            draws = [estimates(tiles, systematic_sample(tiles, k, rng)) for _ in range(args.draws)]
            columns = []
            for which in range(3):
                values = sorted(draw[which] / stored for draw in draws)
                columns.append("%.2f (%.2f–%.2f)" % (values[len(values) // 2], values[len(values) // 20],
                                                     values[len(values) * 19 // 20]))
            print("  %4d  %14d  %12d   %-22s  %-32s  %s" % (zoom, len(tiles), stored, *columns))


if __name__ == "__main__":
    main()

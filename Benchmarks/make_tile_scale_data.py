#!/usr/bin/env python3
"""Deterministic large inputs for tiling at scale (issue 20): GeoJSONSeq, one Feature a line.

  points     POIs: a few hundred Gaussian clusters of varying size and weight around real
             cities (neighbourhoods around a centre), plus uniform noise over the inhabited
             latitudes. Properties: id (int), name (string), category (one of 12), value (float).
  buildings  small rotated rectangles (each side 5–40 m, rotation 0–180°) in clusters around
             the same cities, plus a few scattered around each city's outskirts. Properties:
             id (int), kind (one of 8), height (float, m), levels (int).

Full size (the issue's benchmark): 2,000,000 points (~340 MB) and 1,000,000 buildings (~260 MB);
`--count N` makes N features of each kind asked for. Same arguments → same bytes (Python's
`random.Random(seed)`, fixed formatting; no numpy). Files are written beside their final name
and renamed when complete, and a file that already exists is kept unless `--force`.

usage: make_tile_scale_data.py [points] [buildings] [--count N] [--seed S] [--out DIR] [--force]
Files: OUT/points-N.geojsonseq, OUT/buildings-N.geojsonseq (`-seedS` added for a seed other
than 1); the paths written are printed one a line. Default OUT: /tmp/overlaykit-scale (never
the repository: the data is generated, not committed).
"""
import argparse
import itertools
import math
import os
import random
import sys

DEFAULT_COUNTS = {"points": 2_000_000, "buildings": 1_000_000}
DEFAULT_OUT = "/tmp/overlaykit-scale"
DEFAULT_SEED = 1

# (name, latitude, longitude, relative weight, radius of the urban area in degrees of latitude).
# Paris comes first and is among the heaviest: Benchmarks/maplibre_tiles_screenshot.py centres
# its deeper cameras there.
CITIES = [
    ("Paris", 48.8566, 2.3522, 9, 0.20), ("Tokyo", 35.6812, 139.7671, 10, 0.35),
    ("Delhi", 28.6139, 77.2090, 8, 0.30), ("Shanghai", 31.2304, 121.4737, 8, 0.30),
    ("São Paulo", -23.5505, -46.6333, 7, 0.30), ("Mexico City", 19.4326, -99.1332, 7, 0.25),
    ("Cairo", 30.0444, 31.2357, 6, 0.20), ("Mumbai", 19.0760, 72.8777, 7, 0.20),
    ("Beijing", 39.9042, 116.4074, 7, 0.30), ("Dhaka", 23.8103, 90.4125, 5, 0.15),
    ("Osaka", 34.6937, 135.5023, 5, 0.20), ("New York", 40.7128, -74.0060, 8, 0.30),
    ("Karachi", 24.8607, 67.0011, 5, 0.20), ("Buenos Aires", -34.6037, -58.3816, 5, 0.25),
    ("Istanbul", 41.0082, 28.9784, 6, 0.25), ("Kolkata", 22.5726, 88.3639, 5, 0.20),
    ("Lagos", 6.5244, 3.3792, 5, 0.20), ("Manila", 14.5995, 120.9842, 5, 0.15),
    ("Rio de Janeiro", -22.9068, -43.1729, 4, 0.20), ("Guangzhou", 23.1291, 113.2644, 5, 0.25),
    ("Los Angeles", 34.0522, -118.2437, 6, 0.40), ("Moscow", 55.7558, 37.6173, 6, 0.25),
    ("Kinshasa", -4.4419, 15.2663, 3, 0.15), ("Lahore", 31.5204, 74.3587, 4, 0.15),
    ("Bangalore", 12.9716, 77.5946, 4, 0.15), ("Jakarta", -6.2088, 106.8456, 6, 0.25),
    ("Seoul", 37.5665, 126.9780, 6, 0.20), ("Lima", -12.0464, -77.0428, 4, 0.20),
    ("London", 51.5074, -0.1278, 7, 0.30), ("Bangkok", 13.7563, 100.5018, 5, 0.25),
    ("Chicago", 41.8781, -87.6298, 5, 0.30), ("Tehran", 35.6892, 51.3890, 4, 0.15),
    ("Bogotá", 4.7110, -74.0721, 4, 0.15), ("Ho Chi Minh City", 10.8231, 106.6297, 4, 0.15),
    ("Hong Kong", 22.3193, 114.1694, 4, 0.10), ("Baghdad", 33.3152, 44.3661, 3, 0.15),
    ("Madrid", 40.4168, -3.7038, 4, 0.15), ("Nairobi", -1.2921, 36.8219, 3, 0.12),
    ("Toronto", 43.6532, -79.3832, 4, 0.25), ("Berlin", 52.5200, 13.4050, 4, 0.20),
    ("Sydney", -33.8688, 151.2093, 4, 0.30), ("Johannesburg", -26.2041, 28.0473, 3, 0.20),
    ("Singapore", 1.3521, 103.8198, 3, 0.10), ("Santiago", -33.4489, -70.6693, 3, 0.15),
    ("Riyadh", 24.7136, 46.6753, 3, 0.20), ("Rome", 41.9028, 12.4964, 3, 0.12),
    ("Melbourne", -37.8136, 144.9631, 3, 0.30), ("Anchorage", 61.2181, -149.9003, 1, 0.08),
    ("Reykjavík", 64.1466, -21.9426, 1, 0.05), ("Honolulu", 21.3069, -157.8583, 1, 0.06),
    ("Auckland", -36.8485, 174.7633, 2, 0.15), ("Suva", -18.1416, 178.4419, 1, 0.04),
]

CLUSTERS = 320
CATEGORIES = ["restaurant", "cafe", "shop", "school", "hospital", "bank", "hotel", "fuel",
              "pharmacy", "park", "museum", "station"]
KINDS = ["house", "apartments", "garage", "shed", "retail", "industrial", "school", "church"]
METERS_PER_DEGREE = 111_320.0
MAX_LATITUDE = 84.0


def clusters(rng, spread_range):
    """CLUSTERS neighbourhoods: a city chosen by weight, a centre within its urban radius, a
    Gaussian spread (degrees, log-uniform in `spread_range`) and a log-normal weight."""
    weights = [city[3] for city in CITIES]
    out = []
    for _ in range(CLUSTERS):
        _, lat, lon, _, radius = rng.choices(CITIES, weights)[0]
        centre_lat = lat + rng.gauss(0, radius * 0.5)
        centre_lon = lon + rng.gauss(0, radius * 0.5) / max(0.2, math.cos(math.radians(lat)))
        spread = math.exp(rng.uniform(math.log(spread_range[0]), math.log(spread_range[1])))
        out.append((centre_lat, centre_lon, spread, rng.lognormvariate(0, 1)))
    return out


def wrap_longitude(lon):
    return (lon + 180.0) % 360.0 - 180.0


def clamp_latitude(lat):
    return max(-MAX_LATITUDE, min(MAX_LATITUDE, lat))


def gaussian_around(rng, lat, lon, spread):
    """A point Gaussian-distributed `spread` degrees (north-south) around lat/lon, with the
    east-west spread widened by 1/cos(latitude) so the cluster is round on the ground."""
    new_lat = clamp_latitude(lat + rng.gauss(0, spread))
    new_lon = wrap_longitude(lon + rng.gauss(0, spread) / max(0.2, math.cos(math.radians(lat))))
    return new_lat, new_lon


def write_points(out, count, rng):
    neighbourhoods = clusters(rng, (0.004, 0.12))
    # Cumulative once: choices(weights=) would sum all 320 weights again for every feature.
    weights = list(itertools.accumulate(cluster[3] for cluster in neighbourhoods))
    for index in range(count):
        if rng.random() < 0.08:
            # Noise: anywhere between 56° S and 72° N (sea included, as stray GPS fixes are).
            lat, lon = rng.uniform(-56.0, 72.0), rng.uniform(-180.0, 180.0)
        else:
            lat, lon, spread, _ = rng.choices(neighbourhoods, cum_weights=weights)[0]
            lat, lon = gaussian_around(rng, lat, lon, spread)
        category = CATEGORIES[rng.randrange(len(CATEGORIES))]
        value = rng.lognormvariate(3, 1)
        out.write('{"type":"Feature","properties":{"id":%d,"name":"%s %d","category":"%s","value":%.2f},'
                  '"geometry":{"type":"Point","coordinates":[%.7f,%.7f]}}\n'
                  % (index, category.capitalize(), index, category, value, lon, lat))


def rectangle(rng, lat, lon):
    """A closed counter-clockwise ring (RFC 7946) of a width × depth metre rectangle (5–40 m
    each) turned by a random angle about lat/lon."""
    width, depth = rng.uniform(5.0, 40.0), rng.uniform(5.0, 40.0)
    angle = rng.uniform(0.0, math.pi)
    cos_a, sin_a = math.cos(angle), math.sin(angle)
    meters_per_degree_lon = METERS_PER_DEGREE * math.cos(math.radians(lat))
    ring = []
    for dx, dy in ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)):
        east, north = dx * width, dy * depth
        east, north = east * cos_a - north * sin_a, east * sin_a + north * cos_a
        ring.append((lon + east / meters_per_degree_lon, lat + north / METERS_PER_DEGREE))
    ring.append(ring[0])
    return ring


def write_buildings(out, count, rng):
    neighbourhoods = clusters(rng, (0.003, 0.06))
    weights = list(itertools.accumulate(cluster[3] for cluster in neighbourhoods))
    city_weights = list(itertools.accumulate(city[3] for city in CITIES))
    for index in range(count):
        if rng.random() < 0.03:
            # Outskirts: farms and villages spread widely around a city.
            _, lat, lon, _, radius = rng.choices(CITIES, cum_weights=city_weights)[0]
            lat, lon = gaussian_around(rng, lat, lon, radius * 1.5)
        else:
            lat, lon, spread, _ = rng.choices(neighbourhoods, cum_weights=weights)[0]
            lat, lon = gaussian_around(rng, lat, lon, spread)
        ring = rectangle(rng, lat, lon)
        kind = KINDS[rng.randrange(len(KINDS))]
        levels = 1 + int(rng.expovariate(0.4))
        height = levels * 3.0 + rng.uniform(0.0, 2.5)
        coordinates = ",".join("[%.7f,%.7f]" % (x, y) for x, y in ring)
        out.write('{"type":"Feature","properties":{"id":%d,"kind":"%s","height":%.1f,"levels":%d},'
                  '"geometry":{"type":"Polygon","coordinates":[[%s]]}}\n'
                  % (index, kind, height, levels, coordinates))


WRITERS = {"points": write_points, "buildings": write_buildings}


def output_path(folder, kind, count, seed):
    suffix = "" if seed == DEFAULT_SEED else "-seed%d" % seed
    return os.path.join(folder, "%s-%d%s.geojsonseq" % (kind, count, suffix))


def generate(kind, count, seed, folder, force=False):
    """Writes one file (unless it exists and not `force`) and returns its path."""
    path = output_path(folder, kind, count, seed)
    if os.path.exists(path) and not force:
        return path
    os.makedirs(folder, exist_ok=True)
    partial = path + ".partial-%d" % os.getpid()
    # Each kind draws from its own stream, so adding a kind never changes another's bytes.
    rng = random.Random("%s:%d" % (kind, seed))
    try:
        with open(partial, "w", encoding="utf-8", buffering=1 << 20) as out:
            WRITERS[kind](out, count, rng)
        os.replace(partial, path)
    finally:
        if os.path.exists(partial):
            os.remove(partial)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kinds", nargs="*", metavar="points|buildings", help="what to write (default: both)")
    parser.add_argument("--count", type=int, help="features per kind (default: 2,000,000 points, 1,000,000 buildings)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", default=DEFAULT_OUT, help="folder (default %(default)s)")
    parser.add_argument("--force", action="store_true", help="write again even when the file exists")
    args = parser.parse_args()
    unknown = [kind for kind in args.kinds if kind not in WRITERS]
    if unknown:
        parser.error("unknown kind %s (choose points and/or buildings)" % ", ".join(map(repr, unknown)))
    if args.count is not None and not 1 <= args.count <= 100_000_000:
        parser.error("--count must be between 1 and 100000000, got %d" % args.count)
    for kind in args.kinds or list(WRITERS):
        count = args.count if args.count is not None else DEFAULT_COUNTS[kind]
        print(generate(kind, count, args.seed, args.out, args.force), flush=True)


if __name__ == "__main__":
    sys.exit(main())

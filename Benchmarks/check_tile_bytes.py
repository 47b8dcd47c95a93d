#!/usr/bin/env python3
"""Byte-identity check for speed work on the tiler: hashes every tile an `overlaykit` binary
writes (uncompressed MVT) and compares with a saved listing, so an optimisation can prove it
changed no tile.

  python3 Benchmarks/check_tile_bytes.py --save before.txt   # on the old build
  python3 Benchmarks/check_tile_bytes.py --compare before.txt  # on the new build: exit 1 on any difference

Tiles come from the directory output (z/x/y.mvt, uncompressed) and, with --pmtiles, also from a
.pmtiles archive of the same run (gunzipped through PyPI `pmtiles`), which must hold the same
bytes. Default input: countries z0–6; --binary picks the build (default .build/release).
"""
import argparse, gzip, hashlib, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "real")


def directory_hashes(directory):
    hashes = {}
    for folder, _, files in os.walk(directory):
        for name in files:
            if name.endswith(".mvt"):
                path = os.path.join(folder, name)
                key = os.path.relpath(path, directory)[:-len(".mvt")]
                hashes[key] = hashlib.sha256(open(path, "rb").read()).hexdigest()
    return hashes


def pmtiles_hashes(path):
    from pmtiles.reader import Reader, MmapSource, all_tiles
    hashes = {}
    with open(path, "rb") as handle:
        reader = Reader(MmapSource(handle))
        for (z, x, y), data in all_tiles(reader.get_bytes):
            if data[:2] == b"\x1f\x8b":
                data = gzip.decompress(data)
            hashes["%d/%d/%d" % (z, x, y)] = hashlib.sha256(data).hexdigest()
    return hashes


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "overlaykit"))
    parser.add_argument("--input", default=os.path.join(CORPUS, "ne_50m_admin_0_countries.geojson"))
    parser.add_argument("--max-zoom", type=int, default=6)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--pmtiles", action="store_true", help="also check a .pmtiles of the same input")
    parser.add_argument("--save", help="write the z/x/y → sha256 listing here")
    parser.add_argument("--compare", help="compare with a listing saved before; exit 1 on any difference")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="check_tile_bytes_") as work:
        out = os.path.join(work, "tiles")
        common = ["--min-zoom", "0", "--max-zoom", str(args.max_zoom), "--threads", str(args.threads)]
        subprocess.run([args.binary, "tile", args.input, "-o", out] + common, check=True, stderr=subprocess.DEVNULL)
        hashes = directory_hashes(out)
        if args.pmtiles:
            archive = os.path.join(work, "tiles.pmtiles")
            subprocess.run([args.binary, "tile", args.input, "-o", archive] + common, check=True,
                           stderr=subprocess.DEVNULL)
            archived = pmtiles_hashes(archive)
            if archived != hashes:
                differing = sorted(set(archived.items()) ^ set(hashes.items()))
                print("pmtiles and directory differ at %d entries, e.g. %s" % (len(differing), differing[:3]))
                return 1
    listing = "".join("%s %s\n" % (key, hashes[key]) for key in sorted(hashes))
    print("%d tiles, digest %s" % (len(hashes), hashlib.sha256(listing.encode()).hexdigest()))
    if args.save:
        with open(args.save, "w") as out:
            out.write(listing)
    if args.compare:
        saved = dict(line.split() for line in open(args.compare) if line.strip())
        if saved != hashes:
            missing = sorted(set(saved) - set(hashes))
            extra = sorted(set(hashes) - set(saved))
            changed = sorted(key for key in set(saved) & set(hashes) if saved[key] != hashes[key])
            print("DIFFERENT: %d missing, %d extra, %d changed, e.g. %s" % (len(missing), len(extra), len(changed),
                                                                           (missing + extra + changed)[:5]))
            return 1
        print("identical to %s" % args.compare)
    return 0


if __name__ == "__main__":
    sys.exit(main())

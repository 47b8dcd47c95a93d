"""Tiles a GeoJSONSeq file on Apache Spark: shard by feature, tile each shard with the
`overlaykit` binary on the workers, join the shards' tiles into one tile set.

Tiling is per feature until tiles are merged (clipping and simplification of one feature do
not look at any other), so tiling shards and joining them gives the same features in every
tile as tiling the whole file in one process. What does depend on the whole input is given
explicitly here: the layer name (--layer), and the zoom range.

    python3 tile_spark.py INPUT.geojsonl OUTPUT [--master local[2]] [--partitions 2] [overlaykit tile options…]
        [--overlaykit PATH] [--shards DIR] [--layer NAME] [--min-zoom 0] [--max-zoom 8]

OUTPUT is a .pmtiles, .mbtiles or a directory, as with `overlaykit tile-join`. On a cluster,
--shards must be a folder every worker and the driver see (a shared file system); with object
storage, copy each shard up from the worker and down before the join (see docs/tile.md).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time


def tile_partition(index, lines, overlaykit, shards, extension, tile_options):
    """Runs on a worker: pipes the partition's features into `overlaykit tile -`; yields the
    shard's path (nothing for an empty partition)."""
    output = os.path.join(shards, "shard-%05d%s" % (index, extension))
    process = None
    for line in lines:
        if not line.strip():
            continue
        if process is None:
            process = subprocess.Popen([overlaykit, "tile", "-", "--from", "geojsonseq", "-o", output, "--force",
                                        "--threads", "1"] + tile_options,
                                       stdin=subprocess.PIPE, stderr=subprocess.PIPE)
        process.stdin.write(line.encode("utf-8") + b"\n")
    if process is None:
        return
    process.stdin.close()
    errors = process.stderr.read().decode("utf-8", "replace")
    if process.wait() != 0:
        raise RuntimeError("overlaykit tile failed on partition %d (exit %d): %s" % (index, process.returncode, errors))
    yield output


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--partitions", type=int, default=2)
    parser.add_argument("--overlaykit", default=shutil.which("overlaykit") or "overlaykit")
    parser.add_argument("--shards", help="folder for the shards (default: a temporary folder, removed after)")
    parser.add_argument("--shard-format", default=".pmtiles", help=".pmtiles (default), .mbtiles, or '' for tile directories")
    parser.add_argument("--layer", default="features")
    parser.add_argument("--min-zoom", type=int, default=0)
    parser.add_argument("--max-zoom", type=int, default=8)
    # Any other option (--drop-rate 1, --max-tile-bytes N, …) goes to every shard's `overlaykit tile`.
    arguments, passed_through = parser.parse_known_args()

    from pyspark import SparkConf, SparkContext

    overlaykit = os.path.abspath(arguments.overlaykit) if os.path.exists(arguments.overlaykit) else arguments.overlaykit
    shards = arguments.shards or tempfile.mkdtemp(prefix="overlaykit-shards-")
    os.makedirs(shards, exist_ok=True)
    tile_options = ["--layer", arguments.layer, "--min-zoom", str(arguments.min_zoom), "--max-zoom", str(arguments.max_zoom)]
    tile_options += passed_through
    started = time.time()
    conf = SparkConf().setMaster(arguments.master).setAppName("overlaykit-tile").set("spark.ui.enabled", "false")
    context = SparkContext(conf=conf)
    context.setLogLevel("ERROR")
    try:
        spark_ready = time.time()
        lines = context.textFile(os.path.abspath(arguments.input), minPartitions=arguments.partitions)
        extension = arguments.shard_format
        paths = lines.mapPartitionsWithIndex(
            lambda index, part: tile_partition(index, part, overlaykit, shards, extension, tile_options)).collect()
        tiled = time.time()
    finally:
        context.stop()
    if not paths:
        sys.exit("no features in %s" % arguments.input)
    join = subprocess.run([overlaykit, "tile-join", *sorted(paths), "-o", arguments.output, "--force"],
                          capture_output=True, text=True)
    joined = time.time()
    if join.returncode != 0:
        sys.exit("overlaykit tile-join failed (exit %d): %s" % (join.returncode, join.stderr))
    if not arguments.shards:
        shutil.rmtree(shards, ignore_errors=True)
    print("spark: %d shards; start %.2f s, tile %.2f s, join %.2f s, total %.2f s"
          % (len(paths), spark_ready - started, tiled - spark_ready, joined - tiled, joined - started))


if __name__ == "__main__":
    main()

"""Tiles a GeoJSONSeq file on Apache Spark: one `overlaykit tile` run split over Spark's workers
(`overlaykit tile --job`, `overlaykit tile-job`), whose output equals one `overlaykit tile` run
with the same options, byte for byte, with every default (point thinning, tiny-polygon
stand-ins, the tile budget, -zg).

    python3 tile_spark.py INPUT.geojsonl OUTPUT [--master local[2]] [--partitions 4]
        [--overlaykit PATH] [--work DIR] [overlaykit tile options…]

Spark reads the input in slices (one per Spark partition, in file order); each slice is piped to
`overlaykit tile-job split` on a worker, which files its features by tile partition; the driver
plans; the tile partitions are cut on the workers; the driver finishes the zooms above them and
writes OUTPUT (a .pmtiles or .mbtiles file, or a directory). The options are given once, to
`overlaykit tile --job`, and kept in the work folder. On a cluster, --work must be a folder every
worker and the driver see (a shared file system).
"""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time


def run(command, stdin=None):
    """Runs an overlaykit step; raises with its standard error when it fails."""
    process = subprocess.run(command, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if process.returncode != 0:
        raise RuntimeError("%s failed (exit %d): %s" % (" ".join(command[:3]), process.returncode,
                                                       process.stderr.decode("utf-8", "replace")))
    return process.stdout.decode("utf-8")


def peak_memory_mb():
    """The largest resident set of the processes this worker started (KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def split_slice(index, lines, overlaykit, work):
    """On a worker: files one slice of the input (shard `index`; an empty slice too, so the
    shards have no gap)."""
    data = b"".join(line.encode("utf-8") + b"\n" for line in lines if line.strip())
    started = time.time()
    run([overlaykit, "tile-job", "split", work, str(index), "-", "--from", "geojsonseq"], stdin=data)
    yield ("split", time.time() - started, peak_memory_mb())


def cut_partitions(partitions, overlaykit, work):
    """On a worker: cuts the tile partitions given to it."""
    partitions = list(partitions)
    if not partitions:
        return
    started = time.time()
    run([overlaykit, "tile-job", "cut", work] + [str(partition) for partition in partitions])
    yield ("cut", time.time() - started, peak_memory_mb())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--partitions", type=int, default=4, help="Spark partitions for each step")
    parser.add_argument("--overlaykit", default=shutil.which("overlaykit") or "overlaykit")
    parser.add_argument("--work", help="the job's folder (default: a temporary folder, removed after)")
    # Every other option (-z, --layer, --drop-rate, …) goes to `overlaykit tile --job` once.
    arguments, tile_options = parser.parse_known_args()

    from pyspark import SparkConf, SparkContext

    overlaykit = os.path.abspath(arguments.overlaykit) if os.path.exists(arguments.overlaykit) else arguments.overlaykit
    work = arguments.work or tempfile.mkdtemp(prefix="overlaykit-job-")
    os.makedirs(work, exist_ok=True)
    started = time.time()
    run([overlaykit, "tile", "--job", work, "-o", os.path.abspath(arguments.output), "--force", "-q"] + tile_options)
    conf = SparkConf().setMaster(arguments.master).setAppName("overlaykit-tile").set("spark.ui.enabled", "false")
    context = SparkContext(conf=conf)
    context.setLogLevel("ERROR")
    try:
        spark_ready = time.time()
        lines = context.textFile(os.path.abspath(arguments.input), minPartitions=arguments.partitions)
        steps = lines.mapPartitionsWithIndex(lambda index, part: split_slice(index, part, overlaykit, work)).collect()
        split = time.time()
        partitions = [int(line) for line in run([overlaykit, "tile-job", "plan", work]).split()]
        planned = time.time()
        steps += context.parallelize(partitions, max(1, min(arguments.partitions, len(partitions)))) \
            .mapPartitions(lambda part: cut_partitions(part, overlaykit, work)).collect()
        cut = time.time()
    finally:
        context.stop()
    run([overlaykit, "tile-job", "finish", work])
    finished = time.time()
    if not arguments.work:
        shutil.rmtree(work, ignore_errors=True)
    worker_peak = max((step[2] for step in steps), default=0)
    print("spark: %d slices, %d tile partitions; start %.2f s, split %.2f s, plan %.2f s, cut %.2f s, finish %.2f s, "
          "total %.2f s; peak worker memory %.0f MB"
          % (sum(1 for step in steps if step[0] == "split"), len(partitions), spark_ready - started, split - spark_ready,
             planned - split, cut - planned, finished - cut, finished - started, worker_peak))


if __name__ == "__main__":
    main()

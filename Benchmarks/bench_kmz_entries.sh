#!/usr/bin/env bash
# KMZ -> KMZ with many entries (issue 25 item 14): overlaykit against `zip` writing the same
# archive, in the same run, at 10,000 / 70,000 / 140,000 entries.
#
# Each input is doc.kml (one placemark) plus N small files (files/NNNNNN.png, 0-49 bytes),
# built with Python's zipfile. Rows:
#   overlaykit convert in.kmz -o out.kmz   (read every entry, write doc.kml + every entry)
#   overlaykit info in.kmz                 (reading alone: the directory and doc.kml)
#   zip -q -r out.zip .                    (zip's own time writing the same entries, already
#                                           extracted; the extraction is not timed)
# Linear means seconds per 1,000 entries stay flat as N grows (ZIPFoundation's appends, used
# before, made it quadratic: 2.7 s at 17,500 entries, 36 s at 70,000).
# Usage: Benchmarks/bench_kmz_entries.sh [sizes...]   (default 10000 70000 140000; best of 3 runs)
# Needs: python3, zip, GNU time (apt: zip time); installs zip with apt-get when missing.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 70000 140000)
runs=3
if ! command -v zip >/dev/null; then
    apt-get install -y -qq --no-install-recommends zip >/dev/null 2>&1 || { echo "bench_kmz_entries: zip is required (apt: zip)" >&2; exit 1; }
fi
for tool in python3 zip /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench_kmz_entries: $tool is required" >&2; exit 1; }
done

(cd "$here" && swift build -c release --product overlaykit >&2)
bin="$here/.build/release/overlaykit"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# best SECONDS of `runs` runs of COMMAND... (run from $work; outputs removed before each run)
best() {
    local best=""
    for _ in $(seq "$runs"); do
        rm -f "$work/out.kmz" "$work/out.zip"
        /usr/bin/time -f "%e" -o "$work/time.txt" "$@" >/dev/null 2>"$work/stderr.txt" || { cat "$work/stderr.txt" >&2; exit 1; }
        local wall; wall=$(cat "$work/time.txt")
        if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $wall < $best else 1)"; then best=$wall; fi
    done
    echo "$best"
}

printf "%9s %10s %22s %14s %12s %16s\n" entries "KMZ MB" "overlaykit convert s" "s/1k entries" "info s" "zip -r s (peer)"
for n in "${sizes[@]}"; do
    python3 - "$work/in.kmz" "$n" <<'PY'
import sys, zipfile
path, n = sys.argv[1], int(sys.argv[2])
with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("doc.kml", '<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>A</name>'
               '<Point><coordinates>1,2</coordinates></Point></Placemark></kml>')
    for i in range(n):
        z.writestr("files/%06d.png" % i, b"x" * (i % 50))
PY
    rm -rf "$work/tree" && mkdir "$work/tree" && (cd "$work/tree" && python3 -c "import zipfile, sys; zipfile.ZipFile(sys.argv[1]).extractall('.')" "$work/in.kmz")
    ours=$(best "$bin" convert "$work/in.kmz" -o "$work/out.kmz")
    reading=$(best "$bin" info "$work/in.kmz")
    peer=$(cd "$work/tree" && best zip -q -r "$work/out.zip" .)
    mb=$(python3 -c "import os; print('%.1f' % (os.path.getsize('$work/in.kmz') / 1e6))")
    per=$(python3 -c "print('%.3f' % ($ours * 1000 / $n))")
    printf "%9s %10s %22s %14s %12s %16s\n" "$n" "$mb" "$ours" "$per" "$reading" "$peer"
done

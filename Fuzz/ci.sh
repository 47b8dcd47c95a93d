#!/usr/bin/env bash
# CI: builds the fuzz binary once and runs every target for a short fixed time (FUZZ_SECONDS,
# default 160 s shared by the targets: no more than the 8 × 20 s before the tile-set readers and
# GeoParquet came) from a fixed seed (FUZZ_SEED, default 1), so a CI finding replays locally.
# Fails on the first finding or a failed build. Long campaigns: see Fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(Fuzz/build.sh | tail -n 1)
# The total stays what eight targets of 20 s took (160 s), shared by every target.
targets=(geojson geojson-validate kml kmz kml-validate where tile render mlt mvt pmtiles mbtiles profile tile-job geoparquet)
seconds=${FUZZ_SECONDS:-$((160 / ${#targets[@]}))}
for target in "${targets[@]}"; do
    FUZZ_BINARY=$binary Fuzz/run.sh "$target" "$seconds" -seed="${FUZZ_SEED:-1}"
done

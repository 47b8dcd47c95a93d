#!/usr/bin/env bash
# CI: builds the fuzz binary once and runs every target for a short fixed time (FUZZ_SECONDS,
# default 11: 14 targets in 154 s, no more than the 8 × 20 s before the tile-set readers came)
# from a fixed seed (FUZZ_SEED, default 1), so a CI finding replays locally.
# Fails on the first finding or a failed build. Long campaigns: see Fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$(Fuzz/build.sh | tail -n 1)
for target in geojson geojson-validate kml kmz kml-validate where tile render mlt mvt pmtiles mbtiles profile tile-job; do
    FUZZ_BINARY=$binary Fuzz/run.sh "$target" "${FUZZ_SECONDS:-11}" -seed="${FUZZ_SEED:-1}"
done

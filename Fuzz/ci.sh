#!/usr/bin/env bash
# CI: builds the fuzz binary once (or takes FUZZ_BINARY, built already) and runs every target for
# a short fixed time (FUZZ_SECONDS, default 60 s shared by the targets: 4 s each, a smoke run
# from the seeds; the long campaigns find what needs hours) from a fixed seed (FUZZ_SEED,
# default 1), so a CI finding replays locally. Fails on the first finding or a failed build.
# Long campaigns: see Fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${FUZZ_BINARY:-$(Fuzz/build.sh | tail -n 1)}
targets=(geojson geojson-validate kml kmz kml-validate where tile render mlt mvt pmtiles mbtiles profile tile-job geoparquet)
seconds=${FUZZ_SECONDS:-$((60 / ${#targets[@]}))}
for target in "${targets[@]}"; do
    FUZZ_BINARY=$binary Fuzz/run.sh "$target" "$seconds" -seed="${FUZZ_SEED:-1}"
done

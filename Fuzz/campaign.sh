#!/usr/bin/env bash
# Fuzz/campaign.sh [RUNS] — the long campaign: every target, one after another, for RUNS
# executions each (default 1,000,000), from the corpus earlier runs kept. Appends one line per
# target to Fuzz/campaign.log (date, commit, result) and stops at the first finding.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1000000}
binary=$(Fuzz/build.sh | tail -n 1)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
for target in ${FUZZ_TARGETS:-kmz where geojson-validate render tile kml-validate kml geojson mlt mvt pmtiles mbtiles profile tile-job}; do
    line=$(FUZZ_BINARY=$binary Fuzz/run.sh "$target" 86400 -runs="$runs" 2>&1 | tail -n 1)
    echo "$(date -u +%FT%TZ) $commit $line" | tee -a Fuzz/campaign.log
    case "$line" in *FAILED*) exit 1 ;; esac
done

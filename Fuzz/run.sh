#!/usr/bin/env bash
# Fuzz/run.sh TARGET SECONDS [extra libFuzzer flags…]
# Builds (if needed) and runs one libFuzzer target for SECONDS. Exits non-zero on a crash, a
# leak, an AddressSanitizer report or an input slower than 2 s; the input is saved in
# Fuzz/crashes/TARGET/. Prints the number of inputs run. Extra seed folders can be given with
# FUZZ_EXTRA_SEEDS (colon-separated), e.g. ../shared/corpus/kml-samples.
set -uo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: Fuzz/run.sh TARGET SECONDS}
seconds=${2:?usage: Fuzz/run.sh TARGET SECONDS}
shift 2
binary=${FUZZ_BINARY:-$(Fuzz/build.sh | tail -n 1)} || exit 1
case "$target" in
    geojson|geojson-validate|tile|render) seeds=Fuzz/Seeds/geojson; dict=Fuzz/dict/json.dict ;;
    kml|kml-validate) seeds=Fuzz/Seeds/kml; dict=Fuzz/dict/kml.dict ;;
    kmz) seeds=Fuzz/Seeds/kmz; dict=Fuzz/dict/kml.dict ;;
    where) seeds=Fuzz/Seeds/where; dict=Fuzz/dict/json.dict ;;
    mlt|mvt|pmtiles|mbtiles|tile-job) seeds=Fuzz/Seeds/$target; dict= ;;
    profile) seeds=Fuzz/Seeds/profile; dict=Fuzz/dict/json.dict ;;
    geoparquet) seeds=Fuzz/Seeds/geoparquet; dict=Fuzz/dict/parquet.dict ;;
    *) echo "unknown target $target (geojson geojson-validate kml kmz kml-validate where tile render mlt mvt pmtiles mbtiles profile tile-job geoparquet)" >&2; exit 64 ;;
esac
corpus=Fuzz/.build-fuzz/corpus/$target
artifacts=Fuzz/crashes/$target
mkdir -p "$corpus" "$artifacts"
extra=()
IFS=: read -ra extraSeeds <<< "${FUZZ_EXTRA_SEEDS:-}"
for folder in "${extraSeeds[@]}"; do [ -d "$folder" ] && extra+=("$folder"); done
log=$(mktemp)
# Swift's own crash handler would read the crashed process's memory under AddressSanitizer
# (an "unknown-crash" in memserver_read): off, so libFuzzer prints the stack of a trap.
started=$SECONDS
SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=Fuzz/lsan.supp:print_suppressions=0 FUZZ_TARGET=$target "$binary" -max_total_time="$seconds" -timeout=2 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 ${dict:+-dict="$dict"} -artifact_prefix="$artifacts/" "$@" \
    "$corpus" "$seeds" "${extra[@]}" >"$log" 2>&1
status=$?
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -n 1)
rate=$(grep -o 'exec/s: [0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*')
if [ $status -ne 0 ]; then
    grep -E "ERROR|SUMMARY|Fatal error|Test unit written|==[0-9]+==" "$log" | head -n 30 >&2
    echo "fuzz $target: FAILED after ${runs:-?} runs (exit $status); input saved in $artifacts/" >&2
    rmdir "$artifacts" 2>/dev/null
    rm -f "$log"
    exit 1
fi
rm -f "$log"
rmdir "$artifacts" 2>/dev/null
echo "fuzz $target: ${runs:-0} runs in $((SECONDS - started)) s (${rate:-?} exec/s), no findings"

#!/usr/bin/env bash
# Builds Fuzz/.build-fuzz/overlaykit-fuzz: the library instrumented for libFuzzer and
# AddressSanitizer (SwiftPM, release), linked with every target in Fuzz/Targets into one binary.
# FUZZ_CONFIG=debug builds Fuzz/.build-fuzz/overlaykit-fuzz-debug instead: unoptimised, so it
# compiles in about a third of the time and runs several times slower; CI's short smoke run
# (mostly the seeds replayed) uses it, the long campaigns the release one.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=Fuzz/.build-fuzz
config=${FUZZ_CONFIG:-release}
case "$config" in
    release) optimization=-O; product="$scratch/overlaykit-fuzz" ;;
    debug) optimization=-Onone; product="$scratch/overlaykit-fuzz-debug" ;;
    *) echo "FUZZ_CONFIG is release or debug, not $config" >&2; exit 64 ;;
esac
swift build -c "$config" --scratch-path "$scratch" --target OverlayKit -Xswiftc -sanitize=fuzzer,address >&2
objects_folder="$scratch/$config"
objects=()
for module in OverlayModel OverlayKit ZIPFoundation; do
    objects+=("$objects_folder/$module.build"/*.o)
done
# Our system-library maps and ZIPFoundation's CZlib map from this scratch path's checkout only:
# a second copy of the same module (say from .build/checkouts) is a redefinition error.
maps=()
for map in Sources/C*/module.modulemap "$scratch"/checkouts/ZIPFoundation/Sources/CZLib/module.modulemap; do
    [ -f "$map" ] && maps+=(-Xcc "-fmodule-map-file=$map")
done
# shellcheck disable=SC2046
swiftc "$optimization" -sanitize=fuzzer,address -parse-as-library -module-name OverlayKitFuzz \
    -I "$objects_folder/Modules" "${maps[@]}" $(pkg-config --cflags-only-I libxml-2.0 cairo | sed 's/-I/-Xcc -I/g') \
    Fuzz/Targets/*.swift "${objects[@]}" \
    $(pkg-config --libs libxml-2.0 cairo sqlite3 zlib libzstd snappy libbrotlidec liblz4) \
    -o "$product" 2>&1 | { grep -v "Cannot export local symbol '__asan" >&2 || true; }
[ -x "$product" ] || { echo "fuzz build failed" >&2; exit 1; }
echo "$product"

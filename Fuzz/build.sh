#!/usr/bin/env bash
# Builds Fuzz/.build-fuzz/overlaykit-fuzz: the library instrumented for libFuzzer and
# AddressSanitizer (SwiftPM, release), linked with every target in Fuzz/Targets into one binary.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=Fuzz/.build-fuzz
swift build -c release --scratch-path "$scratch" --target OverlayKit -Xswiftc -sanitize=fuzzer,address >&2
release="$scratch/release"
objects=()
for module in OverlayModel OverlayKit ZIPFoundation; do
    objects+=("$release/$module.build"/*.o)
done
# Our system-library maps and ZIPFoundation's CZlib map from this scratch path's checkout only:
# a second copy of the same module (say from .build/checkouts) is a redefinition error.
maps=()
for map in Sources/C*/module.modulemap "$scratch"/checkouts/ZIPFoundation/Sources/CZLib/module.modulemap; do
    [ -f "$map" ] && maps+=(-Xcc "-fmodule-map-file=$map")
done
# shellcheck disable=SC2046
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name OverlayKitFuzz \
    -I "$release/Modules" "${maps[@]}" $(pkg-config --cflags-only-I libxml-2.0 cairo | sed 's/-I/-Xcc -I/g') \
    Fuzz/Targets/*.swift "${objects[@]}" \
    $(pkg-config --libs libxml-2.0 cairo sqlite3 zlib libzstd snappy libbrotlidec liblz4) \
    -o "$scratch/overlaykit-fuzz" 2>&1 | { grep -v "Cannot export local symbol '__asan" >&2 || true; }
[ -x "$scratch/overlaykit-fuzz" ] || { echo "fuzz build failed" >&2; exit 1; }
echo "$scratch/overlaykit-fuzz"

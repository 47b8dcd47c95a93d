#!/usr/bin/env bash
# Prints the shell block of README.md marked `<!-- doc-test: ci NAME -->` (the line before its
# fence), as written: .ci/run runs the README's set-up and test commands through this script,
# so CI runs exactly what a new user copies. DocCommandTests checks that every such block is
# run by .ci/run and that this script prints it line for line.
set -euo pipefail
name=${1:?usage: Scripts/readme-block.sh NAME}
readme="$(dirname "$0")/../README.md"
awk -v marker="<!-- doc-test: ci $name -->" '
    $0 == marker { armed = 1; next }
    armed && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }
' "$readme" | grep . || { echo "readme-block: no block marked 'doc-test: ci $name' in README.md" >&2; exit 1; }

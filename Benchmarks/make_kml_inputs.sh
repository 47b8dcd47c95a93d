#!/usr/bin/env bash
# Builds the KML benchmark inputs into DIR from the corpus: land.kml (ogr2ogr -f KML of
# ne_10m_land.geojson) and countries24.kml (the countries' placemarks x24, ~100 MB).
# Usage: Benchmarks/make_kml_inputs.sh CORPUS_DIR DIR   (needs gdal-bin and python3)
set -euo pipefail
corpus="$1" work="$2"
ogr2ogr -f KML "$work/land.kml" "$corpus/real/ne_10m_land.geojson"
ogr2ogr -f KML "$work/countries.kml" "$corpus/real/ne_50m_admin_0_countries.geojson"
python3 - "$work/countries.kml" "$work/countries24.kml" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
start, end = text.index("<Placemark>"), text.rindex("</Placemark>") + len("</Placemark>")
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write(text[:start] + (text[start:end] + "\n") * 24 + text[end:])
PY

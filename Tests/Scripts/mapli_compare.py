#!/usr/bin/env python3
"""MapLibre Native (PyPI `mapli`) draws two tile archives of the same data at the same views,
and the filled pixels are compared (intersection over union): the MLT and the MVT of one run.

usage: mapli_compare.py A.pmtiles B.pmtiles LAYER fill|line|circle "LON,LAT,ZOOM;..." [SAVE_DIR]

Each archive's encoding comes from its PMTiles header (tile type 1 MVT, 6 MLT), so the style
says "encoding": "mlt" only for MLT. Black on white, no antialiasing of fills. Prints one line
per view (`view N iou=… filled=A/B`) and `min_iou=…`. Exit 3 when mapli or a display (EGL
under Xvfb) is missing, so callers can skip; 1 when a view draws nothing in either archive.
Run it under `xvfb-run -a`.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from maplibre_screenshot import filled, read_png  # noqa: E402


def encoding(path):
    with open(path, "rb") as archive:
        header = archive.read(127)
    if header[:7] != b"PMTiles":
        sys.exit("not a PMTiles archive: " + path)
    return {1: "mvt", 6: "mlt"}.get(header[99], "mvt")


def style(path, layer, kind):
    paint = {"fill": {"fill-color": "#000000", "fill-antialias": False},
             "line": {"line-color": "#000000", "line-width": 2},
             "circle": {"circle-color": "#000000", "circle-radius": 3}}[kind]
    return {"version": 8,
            "sources": {"s": {"type": "vector", "url": "pmtiles://file://" + os.path.abspath(path),
                              "encoding": encoding(path)}},
            "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
                       {"id": "f", "type": kind, "source": "s", "source-layer": layer, "paint": paint}]}


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    first, second, layer, kind, views = sys.argv[1:6]
    save = sys.argv[6] if len(sys.argv) > 6 else None
    try:
        import mapli
        pool = mapli.RenderPool(workers=1)
    except ImportError:
        print("skipped: the PyPI package mapli is not installed")
        sys.exit(3)
    except Exception as error:  # GraphicsUnavailableError: no EGL display
        print("skipped: MapLibre Native has no display: %s" % error)
        sys.exit(3)
    pool.register_style("a", json=json.dumps(style(first, layer, kind)))
    pool.register_style("b", json=json.dumps(style(second, layer, kind)))
    worst = 1.0
    for index, view in enumerate(views.split(";")):
        lon, lat, zoom = (float(part) for part in view.split(","))
        masks = []
        for name in ("a", "b"):
            png = pool.render(name, lon=lon, lat=lat, zoom=zoom, width=512, height=512)
            path = os.path.join(save or "/tmp", "mapli-%d-%s-%d.png" % (os.getpid(), name, index))
            with open(path, "wb") as out:
                out.write(png)
            masks.append(filled(read_png(path)))
            if not save:
                os.remove(path)
        union = int((masks[0] | masks[1]).sum())
        if union == 0:
            print("view %d (%s) draws nothing" % (index, view))
            sys.exit(1)
        iou = int((masks[0] & masks[1]).sum()) / union
        worst = min(worst, iou)
        print("view %d iou=%.5f filled=%d/%d" % (index, iou, int(masks[0].sum()), int(masks[1].sum())))
    print("min_iou=%.5f" % worst)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Proofs for `overlaykit render` (issue 7), against independent peers:

1. Geometry accuracy: the countries of ne_50m_admin_0_countries rendered at a fixed camera
   (center 20,0, zoom 2, 1024x768, black fill, no stroke) against gdal_rasterize of the same
   polygons reprojected to EPSG:3857 over the same extent and size. Pass: IoU >= 0.98.
2. SVG fidelity: the SVG opened in headless Chromium, screenshot compared with our PNG of the
   same scene. Pass: mean channel difference <= 2.0 and <= 1% of pixels off by more than 32.

Needs gdal-bin (gdal_rasterize, ogr2ogr, gdal_translate for reading PNGs), chromium and numpy.
A check whose tool is missing is reported as SKIPPED with the reason; exit status is 1 when a
check fails, 0 otherwise.

Usage: python3 Benchmarks/check_render.py [--binary PATH] [--corpus DIR] [--keep DIR]
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
R = 6378137.0


def run(cmd, **kw):
    result = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({result.returncode}): {result.stderr.strip()[-2000:]}")
    return result


def read_png(path, work):
    """RGB(A) array H x W x bands, through gdal_translate to raw band-sequential bytes."""
    raw = os.path.join(work, os.path.basename(path) + ".raw")
    run(["gdal_translate", "-q", "-of", "ENVI", path, raw])
    header = open(raw[:-4] + ".hdr" if os.path.exists(raw[:-4] + ".hdr") else raw + ".hdr").read()
    fields = {}
    for line in header.splitlines():
        if "=" in line:
            key, value = line.split("=", 1)
            fields[key.strip()] = value.strip()
    width, height, bands = int(fields["samples"]), int(fields["lines"]), int(fields["bands"])
    data = np.fromfile(raw, dtype=np.uint8)
    if fields.get("interleave", "bsq") == "bip":
        return data.reshape(height, width, bands)
    return np.transpose(data.reshape(bands, height, width), (1, 2, 0))


def over_white(image):
    """RGB composited over white, as int arrays."""
    rgb = image[:, :, :3].astype(np.int32)
    if image.shape[2] == 4:
        alpha = image[:, :, 3:4].astype(np.int32)
        rgb = (rgb * alpha + 255 * (255 - alpha) + 127) // 255
    return rgb


def camera_extent(lat, lon, zoom, width, height):
    """EPSG:3857 extent (xmin, ymin, xmax, ymax) of our camera: world = 256*2^zoom points."""
    meters_per_pixel = 2 * math.pi * R / (256 * 2 ** zoom)
    cx = R * math.radians(lon)
    cy = R * math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))
    return (cx - width / 2 * meters_per_pixel, cy - height / 2 * meters_per_pixel,
            cx + width / 2 * meters_per_pixel, cy + height / 2 * meters_per_pixel)


def check_iou(binary, countries, work):
    if not all(shutil.which(t) for t in ("gdal_rasterize", "ogr2ogr", "gdal_translate")):
        return "SKIPPED", "gdal-bin (gdal_rasterize, ogr2ogr, gdal_translate) not installed"
    lat, lon, zoom, width, height = 20.0, 0.0, 2.0, 1024, 768
    style = os.path.join(work, "black.json")
    with open(style, "w") as f:
        json.dump({"rules": [{"style": {"fill": "#000000", "stroke": "none"}}]}, f)
    ours = os.path.join(work, "countries-ours.png")
    run([binary, "render", countries, "-o", ours, "--size", f"{width}x{height}",
         "--center", f"{lat},{lon}", "--zoom", str(zoom), "--style", style])
    mercator = os.path.join(work, "countries-3857.geojson")
    # Mercator has no poles: clip to its latitude limit in degrees, then reproject.
    run(["ogr2ogr", "-f", "GeoJSON", "-clipsrc", "-180", "-85.0511", "180", "85.0511",
         "-t_srs", "EPSG:3857", mercator, countries])
    peer = os.path.join(work, "countries-gdal.raw")
    xmin, ymin, xmax, ymax = camera_extent(lat, lon, zoom, width, height)
    run(["gdal_rasterize", "-q", "-burn", "255", "-init", "0", "-ot", "Byte", "-of", "ENVI",
         "-ts", str(width), str(height), "-te", repr(xmin), repr(ymin), repr(xmax), repr(ymax),
         mercator, peer])
    theirs = np.fromfile(peer, dtype=np.uint8).reshape(height, width) > 127
    mine = over_white(read_png(ours, work))[:, :, 0] < 128
    union = np.logical_or(mine, theirs).sum()
    iou = np.logical_and(mine, theirs).sum() / union
    detail = f"IoU {iou:.4f} ({mine.sum()} ours, {theirs.sum()} gdal_rasterize filled pixels of {width * height})"
    return ("PASS" if iou >= 0.98 else "FAIL"), detail


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def check_svg(binary, source, work, name, extra):
    chromium = chromium_binary()
    if not chromium or not shutil.which("gdal_translate"):
        return "SKIPPED", "chromium or gdal_translate not installed"
    width, height = 1024, 768
    svg, png, shot = (os.path.join(work, f"{name}.{ext}") for ext in ("svg", "png", "chromium.png"))
    for out in (svg, png):
        run([binary, "render", source, "-o", out, "--size", f"{width}x{height}"] + extra)
    run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--force-device-scale-factor=1", f"--window-size={width},{height}",
         f"--screenshot={shot}", "file://" + svg], timeout=120)
    a, b = over_white(read_png(png, work)), over_white(read_png(shot, work))
    if a.shape != b.shape:
        return "FAIL", f"sizes differ: PNG {a.shape[1]}x{a.shape[0]}, Chromium {b.shape[1]}x{b.shape[0]}"
    delta = np.abs(a - b)
    mean = delta.mean()
    off = (delta.max(axis=2) > 32).mean()
    detail = f"mean channel difference {mean:.3f}/255, {off * 100:.3f}% of pixels off by more than 32"
    return ("PASS" if mean <= 2.0 and off <= 0.01 else "FAIL"), detail


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "debug", "overlaykit"))
    parser.add_argument("--corpus", default=os.path.join(os.path.dirname(ROOT), "shared", "corpus"))
    parser.add_argument("--keep", help="keep the images in this directory")
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        run(["swift", "build"], cwd=ROOT)
    work = args.keep or tempfile.mkdtemp(prefix="check_render.")
    os.makedirs(work, exist_ok=True)
    countries = os.path.join(args.corpus, "real", "ne_50m_admin_0_countries.geojson")
    results = []
    if os.path.exists(countries):
        results.append(("countries vs gdal_rasterize", *check_iou(args.binary, countries, work)))
        results.append(("countries SVG in Chromium vs PNG",
                        *check_svg(args.binary, countries, work, "countries", ["--center", "20,0", "--zoom", "2"])))
    else:
        results.append(("countries", "SKIPPED", f"corpus not found at {countries}"))
    for example in ("render-styles", "render-holes", "render-dashes", "render-labels", "render-antimeridian"):
        path = os.path.join(ROOT, "Examples", example + ".geojson")
        style = os.path.join(ROOT, "Examples", example + ".style.json")
        extra = ["--style", style] if os.path.exists(style) else []
        results.append((f"{example} SVG in Chromium vs PNG", *check_svg(args.binary, path, work, example, extra)))
    width = max(len(r[0]) for r in results)
    for name, verdict, detail in results:
        print(f"{name:<{width}}  {verdict:<7}  {detail}")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if any(r[1] == "FAIL" for r in results) else 0)


if __name__ == "__main__":
    main()

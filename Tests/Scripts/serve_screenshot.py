"""Screenshots the page of a running `overlaykit serve` in headless Chromium and compares it
with a reference PNG (`overlaykit render` of the same view).

The server's standard error goes to LOG: the page reports `serve: browser idle` there once the
map is idle, and `serve: browser error: …` for every MapLibre or script error. Chromium comes
from Debian (`chromium`); its runs are those of maplibre_screenshot.py.

usage: serve_screenshot.py URL WIDTHxHEIGHT LOG SCREENSHOT [REFERENCE] [--colors=#rrggbb,…]
prints "iou=<value> …"; with --colors the IoU is per color (pixels of the nearest listed color,
white being the background) and the smallest is printed. Exit 3: chromium missing (skip)."""
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import maplibre_screenshot as shared  # noqa: E402


def non_background(pixels):
    """Pixels that differ from white by more than 24 in some channel (alpha composited on white)."""
    import numpy
    alpha = pixels[:, :, 3:4] / 255.0
    rgb = pixels[:, :, :3] * alpha + 255 * (1 - alpha)
    return numpy.abs(rgb - 255).max(axis=2) > 24


def classes(pixels, palette):
    """For each pixel the index of the nearest palette color (0 is white)."""
    import numpy
    alpha = pixels[:, :, 3:4] / 255.0
    rgb = pixels[:, :, :3] * alpha + 255 * (1 - alpha)
    colors = numpy.array([(255, 255, 255)] + palette, dtype=float)
    distances = ((rgb[:, :, None, :] - colors[None, None, :, :]) ** 2).sum(axis=3)
    return distances.argmin(axis=2)


def main():
    options = [argument for argument in sys.argv[1:] if argument.startswith("--")]
    arguments = [argument for argument in sys.argv[1:] if not argument.startswith("--")]
    url, size, log, screenshot = arguments[:4]
    reference = arguments[4] if len(arguments) > 4 else None
    palette = []
    for option in options:
        if option.startswith("--colors="):
            for color in option.split("=", 1)[1].split(","):
                color = color.lstrip("#")
                palette.append(tuple(int(color[i:i + 2], 16) for i in (0, 2, 4)))
    width, height = (int(part) for part in size.split("x"))
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("skipped: chromium not found")
        sys.exit(3)
    for budget in (20000, 60000, 180000):
        start = os.path.getsize(log)
        if os.path.exists(screenshot):
            os.remove(screenshot)
        profile = tempfile.mkdtemp(prefix="serve-chromium-")
        try:
            command = [chromium, "--headless", "--no-sandbox", "--disable-gpu-sandbox", "--use-angle=swiftshader",
                       "--enable-unsafe-swiftshader", "--hide-scrollbars", "--force-device-scale-factor=1",
                       "--user-data-dir=" + profile, "--window-size=%d,%d" % (width, height),
                       "--virtual-time-budget=%d" % budget, "--run-all-compositor-stages-before-draw",
                       "--screenshot=" + os.path.abspath(screenshot), url]
            result = shared.run_chromium(command, timeout=150)
        finally:
            shutil.rmtree(profile, ignore_errors=True)
        time.sleep(0.2)
        with open(log, errors="replace") as handle:
            handle.seek(start)
            events = handle.read()
        if "serve: browser error" in events:
            print("page errors:\n" + events)
            sys.exit(1)
        if "serve: browser idle" in events and result.returncode == 0 and os.path.exists(screenshot):
            break
    else:
        print("the map did not reach idle (exit %d): %s\n%s" % (result.returncode, events, result.stderr[-2000:]))
        sys.exit(1)
    if reference is None:
        print("screenshot %s" % screenshot)
        return
    ours, theirs = shared.read_png(reference), shared.read_png(screenshot)
    if ours.shape != theirs.shape:
        print("size mismatch: reference %r, screenshot %r" % (ours.shape, theirs.shape))
        sys.exit(1)
    if palette:
        ours_classes, theirs_classes = classes(ours, palette), classes(theirs, palette)
        scores = []
        for index in range(1, len(palette) + 1):
            a, b = ours_classes == index, theirs_classes == index
            union = int((a | b).sum())
            scores.append(int((a & b).sum()) / union if union else 0.0)
        print("iou=%.4f per-color=%s" % (min(scores), ",".join("%.4f" % score for score in scores)))
        return
    a, b = non_background(ours), non_background(theirs)
    union = int((a | b).sum())
    print("iou=%.4f filled=%d reference=%d" % (int((a & b).sum()) / union if union else 0.0, int(b.sum()), int(a.sum())))


if __name__ == "__main__":
    main()

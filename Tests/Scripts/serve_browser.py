"""Opens the page of a running `overlaykit serve` in headless Chromium, driven through the
DevTools protocol, waits until the map is idle, and screenshots it; optionally compares the
screenshot with a reference PNG (`overlaykit render` of the same view), clicks a feature
(the inspector), or measures a label's text pixels. A test oracle, never a runtime dependency.

Chromium runs in real time (no virtual time budget) with its DevTools protocol on a pipe
(`--remote-debugging-pipe`: file descriptors 3 and 4, JSON messages ended by a NUL byte), so
no WebSocket library is needed. Waiting is on events, not on sleeps: the page's load event,
then the page's own promise `overlaykitIdle` (resolved by MapLibre's first `idle`), then two
animation frames so the idle frame is on screen. Every console error, uncaught exception and
failed request the browser reports is collected; the one expected kind is a 404 for a tile
(the issue asks `serve` to answer 404 for a tile the set does not have; MapLibre draws nothing
there and reports no error). Any other error fails the run at once.

usage: serve_browser.py URL WIDTHxHEIGHT SCREENSHOT [options]
  --reference=PNG       compare with this picture (IoU of the drawn pixels)
  --colors=#rrggbb,...  with --reference: the IoU per color (pixels of the nearest listed color)
  --absent=#rrggbb      fail when more than 20 pixels are near this color (something drawn that must not be)
  --click=LON,LAT       click the map there once idle and wait for the inspector to show a feature
  --label=LON,LAT,TEXT  measure the text drawn below the point at LON,LAT (near-black pixels) against
                        TEXT's width from the served glyphs (advances at the style's 12 px); repeatable
  --timeout=SECONDS     longest wait for the map (default 240)
Prints one JSON object (idle_seconds, errors, iou, per_color, label…). Exit 0 when the page
went idle with no error, 1 otherwise, 3 when Chromium is missing (skip).
"""
import base64
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import maplibre_screenshot as shared  # noqa: E402  (read_png)


class BrowserError(Exception):
    pass


class Chromium:
    """Headless Chromium with the DevTools protocol on a pipe; one page session."""

    def __init__(self, width, height):
        executable = shutil.which("chromium") or shutil.which("chromium-browser")
        if executable is None:
            raise FileNotFoundError("chromium")
        self.profile = tempfile.mkdtemp(prefix="serve-chromium-")
        self.log = tempfile.TemporaryFile(mode="w+", errors="replace")
        # Our ends and Chromium's: it reads commands on 3 and writes answers on 4.
        commands_read, self.commands = os.pipe()
        self.answers, answers_write = os.pipe()

        def child_descriptors():
            read, write = os.dup(commands_read), os.dup(answers_write)
            os.dup2(read, 3)
            os.dup2(write, 4)

        command = [executable, "--headless", "--no-sandbox", "--remote-debugging-pipe", "--user-data-dir=" + self.profile,
                   "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--hide-scrollbars", "--no-first-run",
                   "--force-device-scale-factor=1", "--window-size=%d,%d" % (width, height),
                   "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                   "--disable-backgrounding-occluded-windows", "about:blank"]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.log,
                                        close_fds=False, preexec_fn=child_descriptors, start_new_session=True)
        os.close(commands_read)
        os.close(answers_write)
        self.messages = queue.Queue()
        self.next_id = 0
        self.session = None
        self.errors = []
        self.events = []
        self.urls = {}
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buffer = b""
        while True:
            try:
                chunk = os.read(self.answers, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                self.messages.put(None)
                return
            buffer += chunk
            while b"\0" in buffer:
                message, buffer = buffer.split(b"\0", 1)
                self.messages.put(json.loads(message))

    def _note(self, message):
        """Keeps the events that matter: errors, and the page's load."""
        method = message.get("method")
        params = message.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text", "exception")
            self.errors.append("exception: " + text)
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            text = " ".join(str(argument.get("value", argument.get("description", ""))) for argument in params.get("args", []))
            self.errors.append("console.%s: %s" % (params.get("type"), text))
        elif method == "Log.entryAdded":
            entry = params.get("entry", {})
            if entry.get("level") == "error":
                url = entry.get("url", "")
                path = urllib.parse.urlparse(url).path
                if entry.get("source") == "network" and "status of 404" in entry.get("text", "") and path.startswith("/tiles/"):
                    self.events.append("tile 404 " + path)
                else:
                    self.errors.append("%s: %s %s" % (entry.get("source"), entry.get("text"), url))
        elif method == "Network.requestWillBeSent":
            self.urls[params.get("requestId")] = params.get("request", {}).get("url", "")
        elif method == "Network.loadingFailed" and not params.get("canceled") and params.get("errorText") != "net::ERR_ABORTED":
            # MapLibre aborts the requests of tiles it no longer needs; anything else is a failure.
            self.errors.append("request failed: %s %s" % (params.get("errorText"), self.urls.get(params.get("requestId"), "")))
        elif method == "Page.loadEventFired":
            self.events.append("load")

    def call(self, method, params=None, timeout=60, session=True):
        """Sends a command and returns its result, noting events meanwhile; raises on a
        protocol error, a page error, or the timeout."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            answer = self._next(deadline, "an answer to " + method)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise BrowserError("%s: %s" % (method, answer["error"].get("message")))
                return answer.get("result", {})

    def wait_for(self, event, timeout):
        deadline = time.monotonic() + timeout
        while event not in self.events:
            self._next(deadline, "the %s event" % event)

    def _next(self, deadline, awaited):
        """The next message from Chromium, its events noted; raises on a page error, on
        Chromium's end, or at the deadline."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BrowserError("no %s by the deadline" % awaited)
            try:
                message = self.messages.get(timeout=remaining)
            except queue.Empty:
                continue
            if message is None:
                raise BrowserError("chromium ended (exit %s) while waiting for %s" % (self.process.poll(), awaited))
            if "id" not in message:
                self._note(message)
                if self.errors:
                    raise BrowserError("page error while waiting for %s" % awaited)
            return message

    def evaluate(self, expression, timeout=60):
        result = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True}, timeout=timeout)
        if "exceptionDetails" in result:
            raise BrowserError("evaluating %s: %s" % (expression[:80], result["exceptionDetails"].get("text")))
        return result.get("result", {}).get("value")

    def open(self, url, width, height, timeout):
        targets = self.call("Target.getTargets", session=False)["targetInfos"]
        pages = [target for target in targets if target.get("type") == "page"]
        target = pages[0]["targetId"] if pages else self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        for domain in ("Runtime.enable", "Log.enable", "Page.enable", "Network.enable"):
            self.call(domain)
        self.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.call("Page.navigate", {"url": url})
        self.wait_for("load", timeout)

    def screenshot(self, path):
        # The idle frame on screen: two animation frames after idle.
        self.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))")
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close", session=False, timeout=10)
        except (BrowserError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        # Helper processes may outlive the browser: end the whole group.
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.process.wait()
        for descriptor in (self.commands, self.answers):
            try:
                os.close(descriptor)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def stderr_tail(self):
        self.log.seek(0)
        return self.log.read()[-2000:]


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


def hex_color(text):
    text = text.strip().lstrip("#")
    return tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))


def glyph_advances(origin, font="DejaVu Sans"):
    """Advance per code point 0-255 from the served glyphs PBF, read by hand (no protobuf module)."""
    data = urllib.request.urlopen("%s/fonts/%s/0-255.pbf" % (origin, urllib.parse.quote(font)), timeout=30).read()

    def fields(buffer):
        position = 0
        while position < len(buffer):
            key, position = varint(buffer, position)
            if key & 7 == 0:
                value, position = varint(buffer, position)
            elif key & 7 == 2:
                length, position = varint(buffer, position)
                value, position = buffer[position:position + length], position + length
            else:
                raise ValueError("wire type %d" % (key & 7))
            yield key >> 3, value

    def varint(buffer, position):
        value, shift = 0, 0
        while True:
            byte = buffer[position]
            position += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value, position

    advances = {}
    for _, stack in fields(data):
        for field, value in fields(stack):
            if field == 3:
                glyph = dict(fields(value))
                advances[glyph[1]] = glyph[7]
    return advances


def measure_label(pixels, x, y, text, advances):
    """Near-black pixels (the label color #1a1a1a) in a box below (x, y), where the style puts
    the label (anchor top, 0.8 em down); their horizontal extent against the text's width."""
    import numpy
    height, width = pixels.shape[:2]
    top, bottom = int(y) + 4, min(height, int(y) + 32)
    left, right = max(0, int(x) - 150), min(width, int(x) + 150)
    box = pixels[top:bottom, left:right, :3]
    dark = numpy.abs(box - 26).max(axis=2) < 70
    columns = numpy.where(dark.any(axis=0))[0]
    expected = sum(advances.get(ord(character), 0) for character in text) * 12 / 24
    return {"dark_pixels": int(dark.sum()), "drawn_width": int(columns[-1] - columns[0] + 1) if len(columns) else 0,
            "expected_width": expected,
            "center_offset": float((columns[0] + columns[-1]) / 2 + left - x) if len(columns) else None}


def main():
    options = dict(argument[2:].split("=", 1) for argument in sys.argv[1:] if argument.startswith("--") and "=" in argument)
    arguments = [argument for argument in sys.argv[1:] if not argument.startswith("--")]
    url, size, screenshot = arguments[:3]
    width, height = (int(part) for part in size.split("x"))
    timeout = float(options.get("timeout", 240))
    origin = "%s://%s" % urllib.parse.urlparse(url)[:2]
    report = {}
    try:
        browser = Chromium(width, height)
    except FileNotFoundError:
        print(json.dumps({"skipped": "chromium not found"}))
        sys.exit(3)
    started = time.monotonic()
    try:
        browser.open(url, width, height, timeout)
        browser.evaluate("window.overlaykitIdle.then(() => true)", timeout=max(1, timeout - (time.monotonic() - started)))
        report["idle_seconds"] = round(time.monotonic() - started, 2)
        if "click" in options:
            lon, lat = (float(part) for part in options["click"].split(","))
            point = browser.evaluate("(() => { const p = map.project([%r, %r]); return [p.x, p.y]; })()" % (lon, lat))
            for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
                browser.call("Input.dispatchMouseEvent", {"type": kind, "x": point[0], "y": point[1], "button": "left", "clickCount": 1})
            report["inspector"] = browser.evaluate(
                "new Promise(done => { const panel = document.getElementById('inspector');"
                " const shown = () => panel.querySelector('table') && done(panel.innerText);"
                " new MutationObserver(shown).observe(panel, {childList: true, subtree: true}); shown(); })", timeout=30)
        labels = []
        for argument in sys.argv[1:]:
            if argument.startswith("--label="):
                lon, lat, text = argument.split("=", 1)[1].split(",", 2)
                point = browser.evaluate("(() => { const p = map.project([%r, %r]); return [p.x, p.y]; })()" % (float(lon), float(lat)))
                labels.append((point, text))
        browser.screenshot(screenshot)
    except BrowserError as error:
        report.update({"failure": str(error), "errors": browser.errors, "events": browser.events[-20:], "chromium": browser.stderr_tail()})
        print(json.dumps(report))
        browser.close()
        sys.exit(1)
    browser.close()
    report["errors"] = browser.errors
    report["tile_404s"] = sum(1 for event in browser.events if event.startswith("tile 404"))
    pixels = shared.read_png(screenshot)
    failed = bool(browser.errors)
    if labels:
        advances = glyph_advances(origin)
        report["labels"] = [dict(measure_label(pixels, point[0], point[1], text, advances), text=text) for point, text in labels]
    if "absent" in options:
        import numpy
        color = numpy.array(hex_color(options["absent"]), dtype=float)
        near = int((numpy.abs(pixels[:, :, :3] - color).max(axis=2) < 40).sum())
        report["absent_pixels"] = near
        failed = failed or near > 20
    if "reference" in options:
        ours = shared.read_png(options["reference"])
        if ours.shape != pixels.shape:
            report["failure"] = "size mismatch: reference %r, screenshot %r" % (ours.shape, pixels.shape)
            print(json.dumps(report))
            sys.exit(1)
        if "colors" in options:
            palette = [hex_color(color) for color in options["colors"].split(",")]
            ours_classes, theirs_classes = classes(ours, palette), classes(pixels, palette)
            scores = []
            for index in range(1, len(palette) + 1):
                a, b = ours_classes == index, theirs_classes == index
                union = int((a | b).sum())
                scores.append(round(int((a & b).sum()) / union, 4) if union else 0.0)
            report["per_color"] = scores
            report["iou"] = min(scores)
        else:
            a, b = non_background(ours), non_background(pixels)
            union = int((a | b).sum())
            report.update({"iou": round(int((a & b).sum()) / union, 4) if union else 0.0,
                           "filled": int(b.sum()), "reference_filled": int(a.sum())})
    print(json.dumps(report))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

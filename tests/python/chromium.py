"""A real headless Chromium for the rendered-card tests, driven over the DevTools protocol on
--remote-debugging-pipe (fd 3: commands in, fd 4: replies out, NUL-terminated JSON), and a
small PNG decoder (zlib + struct) to look at the screenshot's pixels. No new dependency.

Chromium comes from Debian (`bash scripts/setup-browser.sh`); $CHROMIUM names another binary.
"""
import base64
import fcntl
import json
import os
import select
import shutil
import struct
import subprocess
import tempfile
import time
import zlib

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe")
WIDTH, HEIGHT = 1280, 800
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Mermaid (for the graph test), installed by scripts/setup-browser.sh beside the bats install
MERMAID_JS = os.path.join(ROOT, "tests", "node", "node_modules", ".kit", "node_modules", "mermaid",
                          "dist",
                          "mermaid.min.js")
STEP_TIMEOUT = 60.0  # a safety net against a hung browser, not a measured behaviour


def require(path_or_none, what):
    """Skip without `what`, except under CI=true, where it is a failure."""
    import pytest
    if path_or_none is None or not os.path.exists(path_or_none):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{what} is missing under CI: run bash scripts/setup-browser.sh")
        pytest.skip(f"{what} not installed (bash scripts/setup-browser.sh)")
    return path_or_none


def find():
    """The chromium binary, or None."""
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


class Browser:
    """One headless Chromium with a fresh profile; use as a context manager."""

    def __init__(self, binary):
        self.binary = binary

    def __enter__(self):
        self.profile = tempfile.mkdtemp(prefix="h4-chromium-")
        to_chrome_r, self._w = os.pipe()
        self._r, from_chrome_w = os.pipe()
        # Chromium reads commands on fd 3 and writes replies on fd 4.
        self.proc = subprocess.Popen(
            [self.binary, *FLAGS, f"--user-data-dir={self.profile}",
             f"--window-size={WIDTH},{HEIGHT}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(3, 4), preexec_fn=lambda: _to_fds_3_and_4(to_chrome_r, from_chrome_w))
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._id = 0
        self.events = []
        return self

    def __exit__(self, *exc):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=STEP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._w)
        os.close(self._r)
        shutil.rmtree(self.profile, ignore_errors=True)

    # -- protocol ----------------------------------------------------------------------
    def send(self, method, session=None, **params):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        want = self._id
        while True:
            reply = self._read()
            if reply.get("id") == want:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]
            self.events.append(reply)

    def wait_event(self, method, session=None):
        for i, ev in enumerate(self.events):
            if ev.get("method") == method and ev.get("sessionId") == session:
                return self.events.pop(i)
        while True:
            ev = self._read()
            if ev.get("method") == method and ev.get("sessionId") == session:
                return ev
            self.events.append(ev)

    def _read(self):
        deadline = time.monotonic() + STEP_TIMEOUT
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._r], [], [], left)[0]:
                raise TimeoutError("chromium did not answer")
            data = os.read(self._r, 1 << 16)
            if not data:
                raise EOFError(f"chromium exited ({self.proc.poll()})")
            self._buf += data
        msg, _, self._buf = self._buf.partition(b"\0")
        return json.loads(msg)

    # -- one page --------------------------------------------------------------------------
    def load(self, path):
        """Open a file in a new 1280x800 tab; returns a Page."""
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.send("Emulation.setDeviceMetricsOverride", session, width=WIDTH, height=HEIGHT,
                  deviceScaleFactor=1, mobile=False)
        self.send("Page.enable", session)
        self.send("Page.navigate", session, url="file://" + os.path.abspath(path))
        self.wait_event("Page.loadEventFired", session)
        return Page(self, session)


def _to_fds_3_and_4(read_end, write_end):
    """In the child: read_end becomes fd 3 and write_end fd 4, whatever their numbers were."""
    high_r = fcntl.fcntl(read_end, fcntl.F_DUPFD, 10)
    high_w = fcntl.fcntl(write_end, fcntl.F_DUPFD, 10)
    os.dup2(high_r, 3)
    os.dup2(high_w, 4)


class Page:
    def __init__(self, browser, session):
        self.browser, self.session = browser, session

    def eval(self, expression, await_promise=False):
        result = self.browser.send("Runtime.evaluate", self.session, expression=expression,
                                   returnByValue=True, awaitPromise=await_promise)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def dom(self):
        """The serialized DOM after load (what --dump-dom prints)."""
        return self.eval("document.documentElement.outerHTML")

    def content_size(self):
        """(scroll width, scroll height, bottom edge of the page's content in CSS pixels)."""
        return tuple(self.eval(
            "[document.documentElement.scrollWidth, document.documentElement.scrollHeight, "
            "Math.ceil(Math.max(...Array.from(document.body.querySelectorAll('*'), "
            "e => e.getBoundingClientRect().bottom)))]"))

    def screenshot(self):
        """PNG bytes of the 1280x800 viewport."""
        data = self.browser.send("Page.captureScreenshot", self.session, format="png")["data"]
        return base64.b64decode(data)


# -- PNG ---------------------------------------------------------------------------------------

def png_size(png):
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", png[16:24])


def distinct_colours(png, enough=16):
    """The number of distinct pixel values, counted until `enough` are seen (a blank page has
    one). Supports 8-bit RGB and RGBA, non-interlaced: what Chromium writes."""
    chunks, pos = {}, 8
    idat = []
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + length]
        if kind == b"IDAT":
            idat.append(body)
        else:
            chunks.setdefault(kind, body)
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert depth == 8 and colour in (2, 6) and interlace == 0, "unexpected PNG format"
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    prev = bytearray(stride)
    seen = set()
    for y in range(height):
        start = y * (stride + 1)
        row = _unfilter(raw[start], bytearray(raw[start + 1:start + 1 + stride]), prev, bpp)
        for x in range(0, stride, bpp * 7):  # a sample of each row is plenty
            seen.add(bytes(row[x:x + bpp]))
        if len(seen) >= enough:
            break
        prev = row
    return len(seen)


def _unfilter(kind, row, prev, bpp):
    n = len(row)
    if kind == 1:
        for i in range(bpp, n):
            row[i] = (row[i] + row[i - bpp]) & 255
    elif kind == 2:
        for i in range(n):
            row[i] = (row[i] + prev[i]) & 255
    elif kind == 3:
        for i in range(n):
            left = row[i - bpp] if i >= bpp else 0
            row[i] = (row[i] + ((left + prev[i]) >> 1)) & 255
    elif kind == 4:
        for i in range(n):
            a = row[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    elif kind != 0:
        raise ValueError(f"bad PNG filter {kind}")
    return row


if __name__ == "__main__":  # python tests/python/chromium.py PAGE.html OUT.png
    import sys
    if len(sys.argv) != 3:
        sys.exit("usage: chromium.py PAGE.html OUT.png  (a 1280x800 screenshot of the page)")
    with Browser(find()) as b:
        with open(sys.argv[2], "wb") as out:
            out.write(b.load(sys.argv[1]).screenshot())

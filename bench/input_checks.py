#!/usr/bin/env python3
"""Benchmark of every check of untrusted input: the strict `--input` parser and the decision
validation behind `ha history <goal> add --input`, and the view cursor decoder.

For each hostile shape it builds a document of N bytes (default: the INPUT_MAX limit and a
quarter of it), times the check in-process (best of --runs) and prints the time next to the
time of a valid document of the same size (`x valid`) and how the time grew from N/4 to N
(`growth`; 4.0 is linear, 16 would be quadratic). The outcome (ok or the error code) is printed
so a shape that should be refused can be seen to be refused. Figures are printed, never
asserted.

    .venv/bin/python bench/input_checks.py [--runs 3] [--size BYTES]
"""
import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pylib"))

from judgment_toolkit.ha.errors import HaError  # noqa: E402
from judgment_toolkit.ha.history.views import cursor  # noqa: E402
from judgment_toolkit.ha.history import model  # noqa: E402
from judgment_toolkit.ha.history.strictjson import parse_input  # noqa: E402


def wrap(decision_text: str) -> str:
    return '{"request_id":"bench-1","decision":' + decision_text + "}"


def fill(prefix: str, unit: str, suffix: str, size: int) -> bytes:
    """prefix + unit*k + suffix, k as large as fits in size bytes."""
    room = size - len(prefix.encode()) - len(suffix.encode())
    return (prefix + unit * max(0, room // len(unit.encode())) + suffix).encode("utf-8")


def valid(size: int) -> bytes:
    """A valid document of about `size` bytes: a decision citing EVIDENCE_MAX external
    references whose text fills the size (each within TEXT_MAX)."""
    head, item = '{"kind":"관측","summary":"s","evidence":[', '{"type":"external","ref":"%s"}'
    per = (size - len(wrap(head + "]}").encode())) // model.EVIDENCE_MAX - len(item % "") - 1
    ref = ("abcdefgh " * (per // 9 + 1))[:min(per, model.TEXT_MAX)]
    return wrap(head + ",".join([item % ref] * model.EVIDENCE_MAX) + "]}").encode()


SHAPES = {
    # The shape of issue 10 item 2: a run of `"\` (one unterminated string of escapes).
    "escape run \"\\": lambda n: fill("", '"\\', "", n),
    "backslash run": lambda n: fill('"', "\\\\", '"', n),
    "many short strings": lambda n: fill("[", '"a\\"",', '""]', n),
    "unterminated quotes": lambda n: fill("[", '"a', "", n),
    "deep nesting at limit": lambda n: fill("[", "[" * (model.INPUT_DEPTH_MAX - 1)
                                            + "]" * (model.INPUT_DEPTH_MAX - 1) + ",",
                                            "0]", n),
    "deep nesting past limit": lambda n: fill("", "[", "", n),
    "deep nesting in strings": lambda n: fill('["', "[{", '"]', n),
    "many keys": lambda n: _many_keys(n),
    "case-variant keys at end": lambda n: _many_keys(n - 20)[:-1] + b',"K":0,"k":0}',
    "long string": lambda n: wrap('{"kind":"관측","summary":"' + "x" * (n - 80) + '"}')
    .encode(),
    "long \\u escapes": lambda n: fill('"', "\\u00e9", '"', n),
    "lone surrogates": lambda n: fill('["', "\\ud800", '"]', n),
    "huge number": lambda n: fill("", "9", "", n),
    "huge number in seq": lambda n: wrap('{"kind":"관측","summary":"s","evidence":'
                                         '[{"type":"run","seq":' + "9" * (n - 120) + "}]}")
    .encode(),
    "many numbers": lambda n: fill("[", "123456789,", "0]", n),
    "huge exponent float": lambda n: fill("[", "1e999999,", "0]", n),
    "long event id": lambda n: wrap('{"kind":"관측","summary":"s","builds_on":["D'
                                    + "9" * (n - 100) + '"]}').encode(),
    "whitespace then data": lambda n: fill("{}", " ", "x", n),
}


def _many_keys(n: int) -> bytes:
    parts, size, i = [], 2, 0
    while True:
        item = f'"k{i}":0'
        if size + len(item) + 1 > n:
            break
        parts.append(item)
        size += len(item) + 1
        i += 1
    return ("{" + ",".join(parts) + "}").encode()


def check(data: bytes) -> str:
    """The whole `--input` check: strict parse, then the decision's field validation."""
    try:
        doc = parse_input(data)
        if isinstance(doc, dict) and isinstance(doc.get("decision"), dict):
            model.check_decision(doc["decision"])
        return "ok"
    except HaError as exc:
        return exc.code or "error"


def timed(fn, arg, runs: int):
    best, out = float("inf"), None
    for _ in range(runs):
        t = time.perf_counter()
        out = fn(arg)
        best = min(best, time.perf_counter() - t)
    return best, out


def cursor_shapes(runs: int):
    """A forged cursor (valid check, hostile payload) at the 4096-character cursor limit."""
    key = "0" * 64

    def forged(body: bytes) -> str:
        return (f"c1.{cursor._b64(body)}."
                f"{cursor._b64(cursor._check(cursor.BOUNDARY, key, body))}")

    def read(text):
        try:
            cursor.read_boundary(key, text)
            return "ok"
        except HaError as exc:
            return exc.code

    room = (4096 - 40) * 3 // 4
    good = forged(json.dumps({"e": 1, "s": "0" * 24, "h": [1, "0" * 24]}).encode())
    base, _ = timed(read, good, runs)
    rows = [("valid cursor", len(good), base, "ok")]
    for name, body in (("deeply nested cursor", b"[" * room),
                       ("huge number cursor", b'{"e":' + b"9" * (room - 6) + b"}")):
        text = forged(body)
        t, out = timed(read, text, runs)
        rows.append((name, len(text), t, out))
    print(f"\n{'cursor shape':28} {'chars':>7} {'seconds':>9} {'x valid':>8}  outcome")
    for name, size, t, out in rows:
        print(f"{name:28} {size:7} {t:9.5f} {t / base:8.1f}  {out}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--size", type=int, default=model.INPUT_MAX)
    args = ap.parse_args()
    big, small = args.size, args.size // 4
    floor_big, _ = timed(check, valid(big), args.runs)
    floor_small, _ = timed(check, valid(small), args.runs)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs; valid document: "
          f"{floor_small:.5f} s at {small} bytes, {floor_big:.5f} s at {big} bytes")
    print(f"{'shape':28} {'bytes':>7} {'seconds':>9} {'x valid':>8} {'growth':>7}  outcome")
    for name, make in SHAPES.items():
        data, data_small = make(big), make(small)
        t, out = timed(check, data, args.runs)
        ts, _ = timed(check, data_small, args.runs)
        growth = t / ts if ts > 0 else float("nan")
        print(f"{name:28} {len(data):7} {t:9.5f} {t / floor_big:8.1f} {growth:7.1f}  {out}")
    cursor_shapes(args.runs)


if __name__ == "__main__":
    main()

"""Stored-line verification never crashes: any mutation of a real event line is either
accepted as a valid v1 event or refused as history_corrupt / history_unsupported, in both the
full parse (unvouched lines) and the cheap path (lines vouched by `last`). Deterministic seed."""
import hashlib
import json
import random

from conftest import git
from helpers_write import add, receipt, started, store_dir  # noqa: F401

from judgment_toolkit.ha.history import model
from judgment_toolkit.ha.history.store import verify
from judgment_toolkit.ha.history.errors import HistoryError

VALUES = [None, True, False, 0, -1, 2, 1.5, "", "x", "D1", "D99", [], [1], {}, {"a": 1},
          "관측", "가설", "0" * 64, "AC-1", "2026-01-01T00:00:00Z", [{"type": "run"}],
          {"id": "D1"}, [{"id": "D9"}], ["D1", "D1"], "a\nb"]


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))


def _mutate(ev, rng):
    ev = json.loads(json.dumps(ev))
    path = rng.choice(list(_paths(ev))[1:])
    parent = ev
    for k in path[:-1]:
        parent = parent[k]
    action = rng.random()
    if action < 0.6:
        parent[path[-1]] = rng.choice(VALUES)
    elif action < 0.8 and isinstance(parent, dict):
        del parent[path[-1]]
    elif isinstance(parent, dict):
        parent[path[-1] + rng.choice(["", "x"]) if isinstance(path[-1], str) else "k"] = 1
    return ev


def test_mutated_lines_are_valid_or_refused_never_crash(started):
    head = git(started, "rev-parse", "HEAD").stdout.strip()
    receipt(add(started, "--kind", "원인", "--status", "가설", "--summary", "s", "--target",
                "AC-1", "--ref", "run:2", "--checked-ref", "file:src/count.go", "--ref",
                f"commit:{head}", "--ref", "external:x", "--event-at",
                "2026-01-01T00:00:00Z", "--reason", "r"))
    receipt(add(started, "--kind", "결정", "--summary", "d", "--builds-on", "D1",
                "--supersedes", "D1"))
    raw = (store_dir(started) / "events.jsonl").read_bytes().split(b"\n")
    key = store_dir(started).name
    prev = hashlib.sha256(raw[0]).hexdigest()
    base = json.loads(raw[1])
    rng = random.Random(20261202)
    outcomes = {"valid": 0, "history_corrupt": 0, "history_unsupported": 0}
    for _ in range(3000):
        ev = _mutate(base, rng)
        line = model.dumps(ev) if rng.random() < 0.9 else \
            json.dumps(ev, ensure_ascii=True).encode()
        try:
            verify.parse_line(line, 2, prev, key)
            outcomes["valid"] += 1
        except HistoryError as exc:
            assert exc.code in ("history_corrupt", "history_unsupported"), exc.code
            outcomes[exc.code] += 1
    assert outcomes["history_corrupt"] > 1000 and outcomes["valid"] > 10


def test_evidence_type_of_any_json_type_is_corrupt_not_a_crash(started):
    receipt(add(started, "--kind", "관측", "--summary", "s", "--ref", "external:x"))
    raw = (store_dir(started) / "events.jsonl").read_bytes().split(b"\n")[0]
    key = store_dir(started).name
    for value in (["external"], {"a": 1}, None, 1):
        ev = json.loads(raw)
        ev["decision"]["evidence"][0]["type"] = value
        try:
            verify.parse_line(model.dumps(ev), 1, None, key)
        except HistoryError as exc:
            assert exc.code == "history_corrupt", exc.code
        else:
            raise AssertionError(f"type {value!r} accepted")

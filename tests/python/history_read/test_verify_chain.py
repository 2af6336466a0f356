"""`ha history <goal> verify [--json]`: the whole chain verified from scratch, trusting
nothing `last` vouches for (decision-history/v1 section 4 chain, section 9 errors and exit
codes, section 12 local guarantee).
Read-only."""
import hashlib
import json

import pytest

from conftest import ha
from helpers_read import GOAL, fails, note, start, store_dir, tree_snapshot


def verify(repo, *args):
    return ha("history", GOAL, "verify", *args, cwd=repo)


@pytest.fixture
def four(repo, goal):
    start(repo)
    for text in ("one", "two", "three", "four"):
        note(repo, text)
    return repo


@pytest.mark.quick  # the quick loop's test of this module (docs/internals.md)
def test_intact_chain(four):
    before = tree_snapshot(four)
    r = verify(four)
    key = store_dir(four).name[:12]
    assert (r.returncode, r.stdout, r.stderr) == (0, f"ok: 4 events, chain intact (start {key})\n", "")
    r = verify(four, "--json")
    assert json.loads(r.stdout) == {"ok": True, "events": 4, "first_bad_line": None, "error": None,
                                       "message": None}
    assert tree_snapshot(four) == before


def test_absent_history(repo, goal):
    start(repo)
    assert verify(repo).stdout == "history: absent\n"
    assert json.loads(verify(repo, "--json").stdout) == \
        {"ok": True, "events": 0, "first_bad_line": None, "error": None, "message": None}
    assert not store_dir(repo).exists()


def test_edited_line_names_the_first_bad_line(four):
    events = store_dir(four) / "events.jsonl"
    events.write_bytes(events.read_bytes().replace(b'"three"', b'"THREE"'))
    before = tree_snapshot(four)
    r = verify(four)
    assert (r.returncode, r.stdout) == (65, "")
    assert r.stderr.startswith("ha: history_corrupt: ") and " line 4" in r.stderr
    doc = json.loads(verify(four, "--json").stdout)
    assert doc["ok"] is False and doc["first_bad_line"] == 4 and doc["events"] == 3
    assert doc["error"] == "history_corrupt" and doc["message"].startswith(
        f"{store_dir(four) / 'events.jsonl'} line 4: ")
    assert tree_snapshot(four) == before  # nothing repaired


def _forge(store, seq, change):
    """Rewrite line `seq` with `change(event)` and recompute every later prev and `last`: the
    local forgery section 12 says the chain does not stop, which leaves hashes and `last` consistent."""
    lines = (store / "events.jsonl").read_bytes().split(b"\n")[:-1]
    out, prev = [], None
    for n, raw in enumerate(lines, 1):
        ev = json.loads(raw)
        if n == seq:
            change(ev)
        ev["prev"] = prev
        raw = json.dumps(ev, ensure_ascii=False, separators=(",", ":")).encode()
        out.append(raw)
        prev = hashlib.sha256(raw).hexdigest()
    (store / "events.jsonl").write_bytes(b"\n".join(out) + b"\n")
    (store / "last").write_bytes(json.dumps({"seq": len(out), "sha256": prev},
                                            separators=(",", ":")).encode() + b"\n")


def test_a_vouched_line_is_checked_field_by_field(four):
    """A line `last` vouches for is still checked in full, by the views (no
    head-only fast path) and by verify."""
    _forge(store_dir(four), 2, lambda ev: ev["decision"].update(kind="bogus"))
    r = ha("history", GOAL, "list", cwd=four)
    assert r.returncode == 65 and "history_corrupt" in r.stderr and "line 2" in r.stderr
    r = verify(four, "--json")
    doc = json.loads(r.stdout)
    assert r.returncode == 65 and doc["first_bad_line"] == 2 and doc["events"] == 1
    assert doc["error"] == "history_corrupt"
    assert "line 2" in doc["message"] and "kind" in doc["message"]


def test_events_missing_from_the_end(four):
    events = store_dir(four) / "events.jsonl"
    events.write_bytes(b"".join(events.read_bytes().splitlines(keepends=True)[:3]))
    r = verify(four, "--json")
    doc = json.loads(r.stdout)
    assert r.returncode == 65 and doc["events"] == 3 and doc["first_bad_line"] is None
    assert doc["error"] == "history_corrupt"
    assert doc["message"].startswith("events are missing from the end")


def test_torn_last_line(four):
    events = store_dir(four) / "events.jsonl"
    events.write_bytes(events.read_bytes()[:-5])
    doc = json.loads(verify(four, "--json").stdout)
    assert doc["first_bad_line"] == 4 and "incomplete" in doc["message"]


def test_unsupported_schema_is_66(four):
    _forge(store_dir(four), 3, lambda ev: ev.update(schema="decision-history/v2"))
    r = verify(four, "--json")
    doc = json.loads(r.stdout)
    assert r.returncode == 66 and doc["first_bad_line"] == 3
    assert doc["error"] == "history_unsupported" and "decision-history/v" in doc["message"]


def test_symlinked_store_is_70(four):
    d = store_dir(four)
    real = d.parent / "real"
    d.rename(real)
    d.symlink_to(real)
    r = verify(four, "--json")
    assert r.returncode == 70 and json.loads(r.stdout)["error"] == "history_unreadable"


def test_usage(four):
    assert fails(four, "verify", "--fix") == (64, "invalid_input")


def test_edited_final_line_is_named(four):
    """Editing the last line breaks no prev link; `last` names it with another hash."""
    events = store_dir(four) / "events.jsonl"
    events.write_bytes(events.read_bytes().replace(b'"four"', b'"FOUR"'))
    r = verify(four, "--json")
    doc = json.loads(r.stdout)
    assert r.returncode == 65 and doc["first_bad_line"] == 4 and doc["events"] == 3
    assert "names D4 with another sha256" in doc["message"]


def test_json_error_is_the_machine_code_and_message_the_text(four):
    """`error` holds only the code a program branches on, `message` what stderr says after it
    (decision-history/v1, section 9 '영수증과 오류': the codes)."""
    events = store_dir(four) / "events.jsonl"
    events.write_bytes(events.read_bytes().replace(b'"two"', b'"TWO"'))
    for argv in (("--json",), ("--format", "json"), ("--format=json",)):
        r = verify(four, *argv)
        doc = json.loads(r.stdout)
        assert list(doc) == ["ok", "events", "first_bad_line", "error", "message"]
        assert doc["error"] == "history_corrupt" and ":" not in doc["error"]
        assert r.stderr == f"ha: {doc['error']}: {doc['message']}\n"

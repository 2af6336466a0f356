"""decision-history/v1 sections 2, 4 and 9: the store's index (`<store>/index`) is derived data.

Deleting it changes nothing but speed; it is never trusted when it disagrees with the files
(then the full verification decides); it obeys the store's path rules; views never create or
change it; a stale or missing index is read correctly; readers overlapping adds never see a
half-written one; and any change to stored lines is still detected, even with the events
file's mtime restored.
"""
import hashlib
import json
import os
import sys
from pathlib import Path

import pytest

from helpers_write import (GOAL, add, receipt, refused, snapshot, started,  # noqa: F401
                           store_dir, writer)
from inproc import ha  # the rules of the data, without a process each (inproc.py)

ROOT = Path(__file__).resolve().parents[3]


def obs(repo, summary="x", *extra):
    return add(repo, "--kind", "관측", "--summary", summary, *extra)


def views(repo):
    """Every view form's JSON output (the things an index could get wrong)."""
    forms = [("current",), ("list",), ("list", "--target", "AC-1"), ("current", "--keyword",
             "둘"), ("show", "D2"), ("show", "D1"), ("list", "--limit", "1")]
    out = []
    for form in forms:
        p = ha("history", GOAL, *form, "--format", "json", cwd=repo)
        assert p.returncode == 0, (form, p.stderr)
        out.append(json.loads(p.stdout))
    return out


def scan(repo, trust_index=True):
    from judgment_toolkit.ha.history.context import open_history
    ctx = open_history(GOAL, for_write=False, cwd=str(repo))
    s = ctx.store.scan(trust_index=trust_index)
    events = [(e.seq, e.sha256, e.request_id, e.run_head, e.targets, e.builds_on,
               e.supersedes) for e in s]
    return s, events


def history(repo):
    receipt(obs(repo, "하나", "--target", "AC-1"))
    receipt(obs(repo, "둘", "--builds-on", "D1"))
    receipt(add(repo, "--kind", "원인", "--status", "기각", "--summary", "셋", "--supersedes",
                "D1", "--target", "AC-1"))
    receipt(obs(repo, "넷 둘", "--builds-on", "D2", "--builds-on", "D3"))


def paths(repo):
    d = store_dir(repo)
    return d, d / "events.jsonl", d / "index", d / "last"


def test_add_writes_the_index_and_views_answer_from_it(started):
    history(started)
    _, _, idx, _ = paths(started)
    assert idx.is_file()
    cached, events = scan(started)
    assert cached.cached and cached.count == 4
    full, same = scan(started, trust_index=False)
    assert not full.cached and same == events      # the index holds what the lines say


def test_deleting_the_index_changes_nothing_but_speed(started):
    history(started)
    _, _, idx, _ = paths(started)
    with_index = views(started)
    idx.unlink()
    assert views(started) == with_index
    assert not idx.exists()                        # views never create it
    assert scan(started)[0].cached is False
    receipt(obs(started, "다섯"))                   # the next add rebuilds it
    s, _ = scan(started)
    assert idx.is_file() and s.cached and s.count == 5


def test_views_never_write_the_index(started):
    history(started)
    d, _, idx, _ = paths(started)
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in d.iterdir()}
    views(started)
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in d.iterdir()}
    assert after == before


def _forged_state(state: bytes, field: int, delta: int) -> bytes:
    """index.state with one number changed and its own sha256 recomputed (a careful forger)."""
    parts = state.rstrip(b"\n").split(b" ")[:-1]
    parts[field] = b"%d" % (int(parts[field]) + delta)
    text = b" ".join(parts)
    return text + b" " + hashlib.sha256(text).hexdigest().encode() + b"\n"


@pytest.mark.parametrize("damage", ["garbage", "empty", "edited fact", "stale copy",
                                    "state of another size", "state of another index",
                                    "torn state", "edited fact, mtime restored",
                                    "edited slot, mtime restored", "slots cut",
                                    "state missing"])
def test_an_index_that_disagrees_is_not_trusted(started, damage):
    history(started)
    d, _, idx, _ = paths(started)
    state, slots = d / "index.state", d / "index.slots"
    truth = views(started)
    data = idx.read_bytes()
    if damage == "garbage":
        idx.write_bytes(b"\x00garbage" * 100)
    elif damage == "empty":
        idx.write_bytes(b"")
    elif damage == "edited fact":   # D1 no longer superseded, per the index
        idx.write_bytes(data.replace(b" s=1 c=", b" s= c="))
    elif damage == "stale copy":    # an index from before the last add
        receipt(obs(started, "다섯"))
        truth = views(started)
        idx.write_bytes(data)
    elif damage == "state of another size":     # claims another events size
        state.write_bytes(_forged_state(state.read_bytes(), 6, 1))
    elif damage == "state of another index":    # claims another index ctime
        state.write_bytes(_forged_state(state.read_bytes(), 13, -1))
    elif damage == "torn state":
        state.write_bytes(state.read_bytes()[:40])
    elif damage == "edited fact, mtime restored":
        _edit_keeping_mtime(idx, lambda b: b.replace(b" s=1 c=", b" s=2 c="))
    elif damage == "edited slot, mtime restored":   # D1's newest citer forgotten
        _edit_keeping_mtime(slots, lambda b: b[:8] + bytes(8) + b[16:])
    elif damage == "slots cut":
        slots.write_bytes(slots.read_bytes()[:-16])
    else:
        state.unlink()
    assert scan(started)[0].cached is False
    assert views(started) == truth
    n = len(truth[1]["events"])
    r = receipt(obs(started, "after"))             # add decides in full and rebuilds
    assert r["id"] == f"D{n + 1}"
    assert scan(started)[0].cached is True


def test_a_state_rewritten_as_it_was_is_still_trusted(started):
    """The control for the forged states above: the same numbers with a recomputed sha256
    are trusted, so those are refused for the number they change, not for the rewrite."""
    history(started)
    state = store_dir(started) / "index.state"
    state.write_bytes(_forged_state(state.read_bytes(), 6, 0))
    assert scan(started)[0].cached is True
    state.write_bytes(_forged_state(state.read_bytes(), 6, 1))
    assert scan(started)[0].cached is False


@pytest.mark.parametrize("name", ["index", "index.slots", "index.state", "index.tmp",
                                  "index.slots.tmp"])
def test_index_paths_follow_the_store_rules(started, tmp_path, name):
    history(started)
    d = store_dir(started)
    outside = tmp_path / "elsewhere"
    outside.write_bytes((d / name.replace(".tmp", "")).read_bytes())
    if (d / name).exists():
        (d / name).unlink()
    (d / name).symlink_to(outside)
    before = snapshot(started)
    refused(ha("history", GOAL, "current", cwd=started), "history_unreadable", 70)
    refused(obs(started, "after"), "history_unreadable", 70)
    assert snapshot(started) == before
    (d / name).unlink()
    os.link(outside, d / name)                     # a second link is refused too
    refused(ha("history", GOAL, "list", cwd=started), "history_unreadable", 70)


def _edit_keeping_mtime(path, edit):
    st = path.stat()
    data = edit(path.read_bytes())
    path.write_bytes(data)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_mtime_ns == st.st_mtime_ns


def _same_length_change(data: bytes, at: int) -> bytes:
    """Change one summary byte near `at` (same length), as an editor would."""
    k = data.index(b'"summary":"', at) + len(b'"summary":"')
    return data[:k] + (b"Z" if data[k:k + 1] != b"Z" else b"Y") + data[k + 1:]


@pytest.mark.parametrize("where", ["first line", "middle line", "last line"])
def test_a_changed_byte_with_restored_mtime_is_corrupt(started, where):
    history(started)
    _, events, _, _ = paths(started)
    assert scan(started)[0].cached
    lines = events.read_bytes().split(b"\n")
    at = {"first line": 0, "middle line": len(lines[0]) + len(lines[1]) + 2,
          "last line": len(events.read_bytes()) - len(lines[-2]) - 1}[where]
    data = events.read_bytes()
    _edit_keeping_mtime(events, lambda b: _same_length_change(b, at))
    assert events.read_bytes() != data and len(events.read_bytes()) == len(data)
    refused(ha("history", GOAL, "current", cwd=started), "history_corrupt", 65)
    refused(ha("history", GOAL, "show", "D1", cwd=started), "history_corrupt", 65)
    refused(obs(started, "after"), "history_corrupt", 65)


@pytest.mark.parametrize("cut", ["deleted middle line", "truncated last line",
                                 "last event removed"])
def test_removed_or_cut_lines_with_restored_mtime_are_corrupt(started, cut):
    history(started)
    _, events, _, _ = paths(started)
    lines = events.read_bytes().split(b"\n")[:-1]
    if cut == "deleted middle line":
        new = lines[:1] + lines[2:]
    elif cut == "truncated last line":
        new = lines[:-1] + [lines[-1][:-10]]
    else:
        new = lines[:-1]
    data = b"".join(x + b"\n" for x in new)
    if cut == "truncated last line":
        data = data[:-1]
    _edit_keeping_mtime(events, lambda b: data)
    refused(ha("history", GOAL, "current", cwd=started), "history_corrupt", 65)
    refused(obs(started, "after"), "history_corrupt", 65)


def test_readers_overlapping_adds_see_before_or_after(started):
    """Two writer processes and a reader loop in this one: every view succeeds and sees a whole
    history (the shared lock keeps readers out while an add writes the events, `last` and the
    index); at least 25 reads, and reading on until the writers are done."""
    receipt(obs(started, "first"))
    writers = [writer(started, f"w{w}", 12) for w in range(2)]
    seen = []
    while len(seen) < 25 or any(w.poll() is None for w in writers):
        p = ha("history", GOAL, "list", "--format", "json", "--limit", "200", cwd=started)
        assert p.returncode == 0, p.stderr
        v = json.loads(p.stdout)
        ids = [e["seq"] for e in v["events"]]
        assert ids == list(range(1, v["range"]["end"] + 1)), ids
        seen.append(v["range"]["end"])
    assert seen == sorted(seen), seen
    assert [w.wait() for w in writers] == [0, 0]
    s, events = scan(started)
    assert s.cached and s.count == 25
    assert events == scan(started, trust_index=False)[1]


def test_a_history_written_before_the_index_existed_is_read_and_indexed(started):
    """Stores written by earlier versions have no index: read in full, indexed by the next
    add (bench/history_fixture.py writes such a store directly)."""
    sys.path.append(str(ROOT / "bench"))  # after site-packages: bench/mcp.py must not hide the SDK
    import history_fixture
    history_fixture.write_history(str(started), GOAL, 30)
    _, _, idx, _ = paths(started)
    assert not idx.exists()
    p = ha("history", GOAL, "list", "--format", "json", "--limit", "200", cwd=started)
    assert p.returncode == 0 and len(json.loads(p.stdout)["events"]) == 30
    receipt(obs(started, "after"))
    s, events = scan(started)
    assert s.cached and s.count == 31
    assert events == scan(started, trust_index=False)[1]


def test_a_modified_line_with_restored_mtime_is_corrupt_at_100k_events(started):
    """100k events, indexed; one byte of one line in the middle changed
    (same length) and the file's mtime put back: current is still history_corrupt."""
    sys.path.append(str(ROOT / "bench"))  # after site-packages: bench/mcp.py must not hide the SDK
    import history_fixture
    history_fixture.write_history(str(started), GOAL, 100_000, index=True)
    _, events, idx, _ = paths(started)
    assert idx.is_file()
    assert ha("history", GOAL, "current", cwd=started).returncode == 0
    assert scan(started)[0].cached
    size = events.stat().st_size
    _edit_keeping_mtime(events, lambda b: _same_length_change(b, size // 2))
    assert events.stat().st_size == size
    err = refused(ha("history", GOAL, "current", cwd=started), "history_corrupt", 65)
    assert "prev does not match" in err

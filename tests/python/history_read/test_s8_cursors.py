"""decision-history/v1 section 8 cursors: boundary cursors, --since, page cursors, and their refusals."""
import json
import shutil

import pytest

from conftest import ha
from helpers_read import GOAL, add, fails, ids, md, note, ok, start, store_dir, view

from judgment_toolkit.ha.history.views import cursor
from judgment_toolkit.ha.history.errors import HistoryError


@pytest.fixture
def history(repo, goal):
    start(repo)
    for i in range(1, 6):
        note(repo, f"event {i}", "--target", "AC-1" if i % 2 else "T001")
    return repo


# -- the codec -------------------------------------------------------------------------------
def test_cursor_round_trip_and_check():
    key = "a" * 64
    b = cursor.Boundary(7, "b" * 64, {"seq": 3, "sha256": "c" * 64})
    text = cursor.boundary_cursor(key, b)
    assert text.startswith("c1.")
    back = cursor.read_boundary(key, text)
    assert back == cursor.Boundary(7, "b" * 24, {"seq": 3, "sha256": "c" * 24})
    with pytest.raises(HistoryError) as err:
        cursor.read_boundary("d" * 64, text)              # another history's key
    assert err.value.code == "cursor_invalid"


@pytest.mark.parametrize("mangle", [
    lambda t: t[:-1] + ("A" if t[-1] != "A" else "B"),   # the check
    lambda t: t.replace("c1.", "c1.e", 1),                # the payload
    lambda t: "p1." + t[3:],                              # the kind
    lambda t: t + ".x",
    lambda t: "",
    lambda t: "c1.!!!.???",
])
def test_altered_cursors_are_refused(mangle):
    key = "a" * 64
    text = cursor.boundary_cursor(key, cursor.Boundary(2, "b" * 64, None))
    with pytest.raises(HistoryError) as err:
        cursor.read_boundary(key, mangle(text))
    assert err.value.code == "cursor_invalid"


def test_a_forged_payload_with_the_old_check_is_refused():
    key = "a" * 64
    text = cursor.boundary_cursor(key, cursor.Boundary(2, "b" * 64, None))
    kind, _, check = text.split(".")
    forged = cursor.boundary_cursor("x", cursor.Boundary(9, "b" * 64, None)).split(".")[1]
    with pytest.raises(HistoryError) as err:
        cursor.read_boundary(key, f"{kind}.{forged}.{check}")
    assert err.value.code == "cursor_invalid"


# -- through ha ------------------------------------------------------------------------------
def test_every_result_carries_a_boundary_cursor(history):
    for args in (("current",), ("list",), ("show", "D1"), ("current", "--target", "T001")):
        v = view(history, *args)
        assert v["cursor"].startswith("c1.")
        assert f"cursor: {v['cursor']}" in md(history, *args).splitlines()


def test_same_store_same_cursor(history):
    assert view(history, "current")["cursor"] == view(history, "list")["cursor"]


def test_since_returns_new_events_and_replacements(history):
    c = view(history, "current")["cursor"]
    assert view(history, "current", "--since", c)["events"] == []
    add(history, "--kind", "결정", "--summary", "fix of event 1", "--target", "T001",
        "--supersedes", "D1")                                              # D6
    note(history, "event 7", "--target", "AC-1")                           # D7
    v = view(history, "current", "--target", "AC-1", "--since", c)
    assert ids(v["events"]) == ["D7"]
    # the correction D6 is outside the filter and D1 is older than the boundary: still told
    assert v["replacements"] == [{"type": "replacement", "replaced": "D1", "by": "D6"}]
    assert v["range"] == {"since": 5, "end": 7}
    out = md(history, "current", "--target", "AC-1", "--since", c)
    assert "- replacement: D1 → D6" in out.splitlines()
    # an ordinary current view never carries past replacements
    assert view(history, "current")["replacements"] == []
    # the new boundary advances: nothing after it
    c2 = v["cursor"]
    assert view(history, "current", "--target", "AC-1", "--since", c2)["events"] == []


def test_since_replacement_only_for_matching_originals(history):
    c = view(history, "current")["cursor"]
    add(history, "--kind", "결정", "--summary", "fix of event 2", "--supersedes", "D2")
    v = view(history, "list", "--target", "AC-1", "--since", c)
    assert v["events"] == [] and v["replacements"] == []         # D2 is T001: not matching
    v = view(history, "list", "--target", "T001", "--since", c)
    assert v["replacements"] == [{"type": "replacement", "replaced": "D2", "by": "D6"}]


def test_since_survives_an_ordinary_head_advance(history):
    c = view(history, "current")["cursor"]
    ok(ha("check", GOAL, "AC-1", cwd=history))
    note(history, "after the advance", "--target", "AC-1")
    assert ids(view(history, "current", "--since", c)["events"]) == ["D6"]


def test_since_with_a_diverged_run_head_is_stale(history):
    c = view(history, "current")["cursor"]
    runs = history / GOAL / "runs.jsonl"
    lines = runs.read_bytes().split(b"\n")
    runs.write_bytes(lines[0] + b"\n")                   # back to the start line only,
    assert ha("check", GOAL, "AC-2", cwd=history).returncode == 1   # and another seq 2
    assert fails(history, "current", "--since", c) == (65, "cursor_stale")


def test_cursor_of_another_history_is_invalid(history, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(history, other)
    # another start line: another history key
    runs = other / GOAL / "runs.jsonl"
    runs.unlink()
    shutil.rmtree(other / ".git" / "ha")
    start(other, commit=False, quote="another run")
    note(other, "elsewhere")
    c = view(other, "current")["cursor"]
    assert fails(history, "current", "--since", c) == (65, "cursor_invalid")


def test_rewritten_history_makes_the_boundary_invalid(history):
    c = view(history, "current")["cursor"]
    d = store_dir(history)
    shutil.rmtree(d)
    for i in range(6):
        note(history, f"rewritten {i}")
    assert fails(history, "current", "--since", c) == (65, "cursor_invalid")


def test_wrong_cursor_kind_for_the_flag(history):
    c = view(history, "current")["cursor"]
    assert fails(history, "current", "--page", c) == (65, "cursor_invalid")
    n = view(history, "list", "--limit", "2")["page"]["next"]
    assert fails(history, "list", "--since", n) == (65, "cursor_invalid")


# -- pages -------------------------------------------------------------------------------
def walk(repo, *args, limit="2", between=None):
    """All event ids of a page walk; `between(i)` runs between page requests."""
    got, v, i = [], view(repo, *args, "--limit", limit), 0
    got += ids(v["events"])
    while v["page"]["next"]:
        if between:
            between(i)
        i += 1
        v = view(repo, *args, "--limit", limit, "--page", v["page"]["next"])
        got += ids(v["events"])
    return got, v


def test_page_fields(history):
    v = view(history, "list", "--limit", "2")
    assert v["page"]["limit"] == 2 and v["page"]["shown"] == 2 and v["page"]["total"] == 5
    assert v["page"]["truncated"] is True and v["page"]["next"].startswith("p1.")
    out = md(history, "list", "--limit", "2")
    assert "shown 2 of 5 · truncated" in out and f"next: {v['page']['next']}" in out
    last = view(history, "list", "--limit", "5")["page"]
    assert last["truncated"] is False and last["next"] is None


def test_default_limit_is_20(history):
    for i in range(20):
        note(history, f"more {i}")
    v = view(history, "list")
    assert v["page"]["limit"] == 20 and v["page"]["shown"] == 20 and v["page"]["total"] == 25


def test_page_walk_has_no_gaps_or_duplicates_while_events_and_corrections_land(history):
    def land(target):
        def between(i):
            note(history, f"landed {i}", "--target", "AC-1")
            add(history, "--kind", "원인", "--summary", f"correction {i}", "--supersedes",
                f"D{target + i}")          # corrects an event the walk has not shown yet
        return between

    got, last = walk(history, "current", between=land(3))
    assert got == ["D1", "D2", "D3", "D4", "D5"]
    assert last["range"]["end"] == 5
    assert [e["superseded_by"] for e in last["events"]] == [[]]
    # the first walk landed D6..D9 (D6, D8 are AC-1) before this one started
    got, last = walk(history, "list", "--target", "AC-1", between=land(5))
    assert got == ["D1", "D3", "D5", "D6", "D8"] and last["range"]["end"] == 9
    # a fresh walk sees what landed: D3, D4, D5, D6 are corrected now
    got, _ = walk(history, "current", "--target", "AC-1")
    assert got == ["D1", "D8", "D10", "D12"]


def test_page_cursor_pins_the_query(history):
    n = view(history, "list", "--target", "AC-1", "--limit", "1")["page"]["next"]
    assert fails(history, "list", "--page", n) == (65, "cursor_mismatch")
    assert fails(history, "current", "--target", "AC-1", "--page", n) == (65, "cursor_mismatch")
    assert fails(history, "list", "--target", "T001", "--page", n) == (65, "cursor_mismatch")
    # the same conditions (in any order) continue; --limit may change
    v = view(history, "list", "--target", "AC-1", "--limit", "5", "--page", n)
    assert ids(v["events"]) == ["D3", "D5"]


def test_page_cursor_whose_run_head_is_gone_is_stale(history):
    n = view(history, "list", "--limit", "2")["page"]["next"]
    runs = history / GOAL / "runs.jsonl"
    runs.write_bytes(runs.read_bytes().split(b"\n")[0] + b"\n")
    assert fails(history, "list", "--page", n) == (65, "cursor_stale")


def test_show_pages_its_successors(history):
    for i in range(5):
        add(history, "--kind", "결정", "--summary", f"on D1 #{i}", "--builds-on", "D1")
    got, v = [], view(history, "show", "D1", "--limit", "2")
    got += [s["id"] for s in v["successors"]]
    assert v["page"]["total"] == 5 and v["page"]["truncated"]
    while v["page"]["next"]:
        v = view(history, "show", "D1", "--limit", "2", "--page", v["page"]["next"])
        got += [s["id"] for s in v["successors"]]
    assert got == ["D6", "D7", "D8", "D9", "D10"]
    n = view(history, "show", "D1", "--limit", "2")["page"]["next"]
    assert fails(history, "show", "D2", "--page", n) == (65, "cursor_mismatch")


def test_since_pages_replacements_too(history):
    c = view(history, "current")["cursor"]
    for i in range(1, 4):
        add(history, "--kind", "원인", "--summary", f"fix {i}", "--supersedes", f"D{i}")
    v = view(history, "list", "--since", c, "--limit", "2")
    assert [r["replaced"] for r in v["replacements"]] == ["D1", "D2"]
    assert v["page"]["replacements_total"] == 3
    v = view(history, "list", "--since", c, "--limit", "2", "--page", v["page"]["next"])
    assert [r["replaced"] for r in v["replacements"]] == ["D3"]
    assert ids(v["events"]) == ["D8"]


@pytest.mark.parametrize("value,code", [("0", "invalid_input"), ("abc", "invalid_input"),
                                        ("-1", "invalid_input"), ("201", "limit_exceeded")])
def test_limit_bounds(history, value, code):
    assert fails(history, "list", "--limit", value) == (64, code)


def test_limit_200_is_allowed(history):
    assert view(history, "list", "--limit", "200")["page"]["limit"] == 200


def test_cursor_payload_is_opaque_json(history):
    """Not a contract, a sanity check: the payload holds no goal path or event text."""
    import base64
    c = view(history, "current")["cursor"]
    body = c.split(".")[1]
    payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    assert set(payload) == {"e", "s", "h"}


def test_page_walk_keeps_the_grounds_corrections_of_its_boundary(repo, goal):
    """section 7: continuing keeps the same set of correction ids; later ones are past the boundary."""
    start(repo)
    note(repo, "ground")
    for i in range(3):
        add(repo, "--kind", "결정", "--summary", f"on the ground {i}", "--builds-on", "D1")
    v = view(repo, "list", "--limit", "2")
    add(repo, "--kind", "원인", "--summary", "late correction", "--supersedes", "D1")   # D5
    v2 = view(repo, "list", "--limit", "2", "--page", v["page"]["next"])
    assert ids(v2["events"]) == ["D3", "D4"]
    assert [e["grounds_corrected"] for e in v2["events"]] == [[], []]
    assert [e["current"] for e in v2["events"]] == [True, True]
    fresh = view(repo, "list")["events"]
    assert fresh[2]["grounds_corrected"] == [{"ground": "D1", "corrected_by": ["D5"]}]

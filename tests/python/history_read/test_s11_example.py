"""decision-history/v1 section 11, the synthetic example, run for real: the current list and show D3 lines it gives."""
from helpers_read import (add, event_lines, example, ids, md, start,  # noqa: F401 (fixture)
                          view)

CURRENT_LINES = [
    "- D2 · 관측 · AC-1 · 빈 파일에서 오류가 재현된다",
    "- D3 · 결정 · T001 · 빈 입력이면 0을 반환한다 (linked grounds D1 corrected by D4)",
    "- D4 · 원인 [기각] · AC-1 · 첫 항목 가정이 아니라 입력 버퍼 경계가 원인이다",
]
SHOW_D3_LINES = [
    "- builds_on D1 · 원인 [가설] · 첫 항목이 항상 있다고 가정했다 (lineage same)",
    "- builds_on D2 · 관측 · 빈 파일에서 오류가 재현된다 (lineage same, current)",
    "- markers: linked grounds D1 corrected by D4",
]



def test_current_lists_exactly_the_seed_lines(example):
    out = md(example, "current")
    assert event_lines(out) == CURRENT_LINES


def test_current_is_the_default_view(example):
    assert md(example) == md(example, "current")


def test_show_d3_has_the_seed_lines(example):
    out = md(example, "show", "D3").splitlines()
    for line in SHOW_D3_LINES:
        assert line in out
    # nothing changed since registration, so no context-difference marker appears anywhere
    text = "\n".join(out)
    for marker in ("code changed", "code uncommitted", "spec changed", "path moved"):
        assert marker not in text


def test_json_carries_the_same_events_and_meaning(example):
    v = view(example, "current")
    assert ids(v["events"]) == ["D2", "D3", "D4"]
    d3 = v["events"][1]
    assert d3["grounds_corrected"] == [{"ground": "D1", "corrected_by": ["D4"]}]
    s = view(example, "show", "D3")
    assert s["grounds_corrected"] == d3["grounds_corrected"]
    assert [(p["relation"], p["id"], p["lineage"], p["current"]) for p in s["predecessors"]] == \
        [("builds_on", "D1", "same", False), ("builds_on", "D2", "same", True)]


def test_show_by_request_id_is_the_same_event(example):
    by_id = view(example, "show", "D1")
    by_request = view(example, "show", "--request-id", "cause-1")
    assert by_request["event"] == by_id["event"]
    assert by_request["successors"] == by_id["successors"]
    assert [(s["id"], s["relations"]) for s in by_id["successors"]] == \
        [("D3", ["builds_on"]), ("D4", ["supersedes"])]


def test_ground_already_corrected_before_the_event_is_marked(repo, goal):
    """section 11: D2 corrects D1, then D3 builds on D1: D3 shows `linked grounds D1 corrected by D2`."""
    start(repo)
    add(repo, "--kind", "원인", "--summary", "A", "--target", "AC-1")
    add(repo, "--kind", "원인", "--summary", "B", "--target", "AC-1", "--supersedes", "D1")
    add(repo, "--kind", "결정", "--summary", "C", "--target", "T001", "--builds-on", "D1")
    out = md(repo, "current")
    assert "- D3 · 결정 · T001 · C (linked grounds D1 corrected by D2)" in out.splitlines()
    v = view(repo, "current")
    assert v["events"][-1]["grounds_corrected"] == [{"ground": "D1", "corrected_by": ["D2"]}]


def test_event_that_builds_on_and_supersedes_the_same_ground_names_itself(repo, goal):
    start(repo)
    add(repo, "--kind", "원인", "--summary", "A", "--target", "AC-1")
    add(repo, "--kind", "원인", "--summary", "B", "--builds-on", "D1", "--supersedes", "D1")
    v = view(repo, "list")
    assert v["events"][1]["grounds_corrected"] == [{"ground": "D1", "corrected_by": ["D2"]}]
    assert "(current, corrects D1, linked grounds D1 corrected by D2)" in md(repo, "list")

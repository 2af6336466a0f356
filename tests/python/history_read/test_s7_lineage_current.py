"""decision-history/v1 section 7: run lineage, the current set, grounds_corrected and context differences.

Real repositories, real `ha`, real linked worktrees; the lineage unit tests judge against the
real run record chain read by ha.runs.
"""
import pytest

from conftest import git, ha
from helpers_read import (GOAL, add, context, fails, ids, md, note, ok, runs_lines, sha, start,
                          view, write_store)

from judgment_toolkit.ha import gitrepo, goal as goalmod, runs
from judgment_toolkit.ha.history.views.lineage import Basis


def chain_of(repo, goal=GOAL):
    return runs.read_chain(goalmod.resolve(gitrepo.discover(str(repo)), goal, str(repo)))


def commit_all(repo, msg="more"):
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", msg)


def worktree(repo, tmp_path, name="wt"):
    wt = tmp_path / name
    git(repo, "worktree", "add", "-q", "-b", name, str(wt))
    return wt


# -- the lineage judgment against the real chain ------------------------------------------
def test_basis_same_different_unverifiable(repo, goal):
    start(repo)
    chain = chain_of(repo)
    lines = runs_lines(repo)
    b = Basis(chain)
    assert b.head == {"seq": 2, "sha256": sha(lines[1])}
    assert b.of({"seq": 1, "sha256": sha(lines[0])}) == "same"      # an older head: same
    assert b.of({"seq": 2, "sha256": sha(lines[1])}) == "same"
    assert b.of({"seq": 2, "sha256": sha(b"another line")}) == "different"
    assert b.of({"seq": 3, "sha256": sha(b"ahead")}) == "unverifiable"
    assert b.of(None) == "unverifiable"
    assert b.of({"seq": "2", "sha256": sha(lines[1])}) == "unverifiable"


def test_pinned_basis_judges_later_heads_unverifiable(repo, goal):
    start(repo)
    chain = chain_of(repo)
    lines = runs_lines(repo)
    pinned = Basis(chain).resolve({"seq": 1, "sha256": sha(lines[0])[:24]})
    assert pinned == {"seq": 1, "sha256": sha(lines[0])}
    b = Basis(chain, pinned)
    assert b.of({"seq": 2, "sha256": sha(lines[1])}) == "unverifiable"
    assert Basis(chain).resolve({"seq": 2, "sha256": "0" * 24}) is None


def test_broken_chain_makes_everything_unverifiable(repo, goal):
    start(repo)
    d1 = note(repo, "registered on an intact chain", "--target", "AC-1")
    with open(repo / GOAL / "runs.jsonl", "ab") as f:
        f.write(b"not json\n")
    b = Basis(chain_of(repo))
    assert b.head is None
    v = view(repo, "current")
    assert v["events"] == [] and v["basis"]["chain"] == "broken"
    assert v["other_lineage"]["events"] == [{"id": d1, "lineage": "unverifiable"}]
    assert "run head unverifiable (run record chain broken)" in md(repo, "current")
    assert view(repo, "list")["events"][0]["lineage"] == "unverifiable"


def test_run_evidence_does_not_decide_lineage(repo, goal):
    """An event whose run head is another line is `different` even if it cites run:2 rightly."""
    start(repo)
    lines = runs_lines(repo)
    decision = {"kind": "관측", "summary": "cites run 2", "evidence": [{"type": "run", "seq": 2}]}
    ctx = context(repo, run_head={"seq": 2, "sha256": sha(b"elsewhere")},
                  evidence=[{"type": "run", "state": "matched", "version": sha(lines[1])}])
    write_store(repo, [(decision, ctx)])
    v = view(repo, "list")
    assert v["events"][0]["lineage"] == "different"
    s = view(repo, "show", "D1")
    assert s["lineage"] == "different"
    assert s["evidence"][0]["current"] == "same"   # the evidence itself still compares same


def test_head_advance_keeps_the_same_lineage(repo, goal):
    start(repo)
    note(repo, "before the next check", "--target", "AC-1")
    ok(ha("check", GOAL, "AC-1", cwd=repo))           # run head moves to seq 3
    v = view(repo, "current")
    assert ids(v["events"]) == ["D1"] and v["events"][0]["lineage"] == "same"
    assert v["basis"]["run_head"]["seq"] == 3


# -- worktrees ------------------------------------------------------------------------------
def test_worktrees_sharing_start_and_head_are_one_lineage(repo, goal, tmp_path):
    start(repo)
    commit_all(repo, "check")
    wt = worktree(repo, tmp_path)
    d1 = note(repo, "main says", "--target", "AC-1")
    d2 = add(wt, "--kind", "원인", "--summary", "worktree corrects main", "--target", "AC-1",
             "--supersedes", d1)["id"]
    for where in (repo, wt):
        v = view(where, "current")
        assert ids(v["events"]) == [d2]
        assert v["other_lineage"]["count"] == 0
    assert view(repo, "list")["events"][0]["superseded_by"] == [d2]


def test_diverged_worktree_is_another_lineage(repo, goal, tmp_path):
    start(repo)
    commit_all(repo, "check")
    wt = worktree(repo, tmp_path)
    shared = note(repo, "before the split", "--target", "AC-1")
    ok(ha("check", GOAL, "AC-1", cwd=repo))                   # main: seq 3 = AC-1
    assert ha("check", GOAL, "AC-2", cwd=wt).returncode == 1  # worktree: seq 3 = AC-2 (fails)
    assert runs_lines(repo)[2] != runs_lines(wt)[2]
    theirs = add(wt, "--kind", "원인", "--summary", "the worktree's correction", "--target",
                 "AC-1", "--supersedes", shared)["id"]
    mine = note(repo, "main after the split", "--target", "AC-1")

    v = view(repo, "current")
    assert ids(v["events"]) == [shared, mine]            # the other lineage's correction is
    assert v["events"][0]["other_corrected_by"] == [theirs]   # reported, never applied
    assert v["other_lineage"] == {"count": 1, "different": 1, "unverifiable": 0,
                                  "events": [{"id": theirs, "lineage": "different"}],
                                  "truncated": False}
    assert v["other_corrections"]["events"] == [
        {"id": theirs, "lineage": "different", "supersedes": [shared]}]
    out = md(repo, "current")
    assert f"other lineage: 1 (different 1, unverifiable 0): {theirs} different" in out
    assert f"- {theirs} (different) corrects {shared}" in out

    w = view(wt, "current")                              # and the other way round
    assert ids(w["events"]) == [theirs]
    assert w["other_lineage"]["events"] == [{"id": mine, "lineage": "different"}]


def test_event_ahead_of_this_worktrees_head_is_unverifiable(repo, goal, tmp_path):
    start(repo)
    commit_all(repo, "check")
    wt = worktree(repo, tmp_path)
    ok(ha("check", GOAL, "AC-1", cwd=wt))                     # worktree at seq 3
    ahead = note(wt, "registered at seq 3 of the worktree", "--target", "AC-1")
    v = view(repo, "current")                                  # main is still at seq 2
    assert v["events"] == []
    assert v["other_lineage"]["events"] == [{"id": ahead, "lineage": "unverifiable"}]
    assert ha("check", GOAL, "AC-2", cwd=repo).returncode == 1  # main's seq 3 is another line
    assert view(repo, "list")["events"][0]["lineage"] == "different"


# -- the current set ------------------------------------------------------------------------
def test_correction_outside_the_filter_still_hides_what_it_replaced(repo, goal):
    start(repo)
    d1 = note(repo, "buffer boundary first", "--target", "AC-1")
    note(repo, "unrelated", "--target", "EX-1")
    add(repo, "--kind", "결정", "--summary", "replaces the first", "--target", "T001",
        "--supersedes", d1)
    assert view(repo, "current", "--target", "AC-1")["events"] == []   # a normal empty result
    assert view(repo, "current", "--keyword", "BUFFER")["events"] == []
    assert ids(view(repo, "list", "--target", "AC-1")["events"]) == [d1]


def test_current_is_decided_before_paging(repo, goal):
    start(repo)
    first = note(repo, "first", "--target", "AC-1")
    for i in range(3):
        note(repo, f"filler {i}", "--target", "AC-1")
    add(repo, "--kind", "결정", "--summary", "last replaces first", "--supersedes", first)
    v = view(repo, "current", "--limit", "2")
    assert ids(v["events"]) == ["D2", "D3"] and v["page"]["total"] == 4


def test_grounds_corrected_in_store_order_and_not_propagated(repo, goal):
    start(repo)
    note(repo, "ground", "--target", "AC-1")                                  # D1
    add(repo, "--kind", "결정", "--summary", "built on D1", "--builds-on", "D1")  # D2
    add(repo, "--kind", "원인", "--summary", "first fix", "--supersedes", "D1")   # D3
    add(repo, "--kind", "원인", "--summary", "second fix", "--supersedes", "D1@D3")  # D4
    add(repo, "--kind", "결정", "--summary", "built on D2", "--builds-on", "D2")  # D5
    v = {e["id"]: e for e in view(repo, "list")["events"]}
    assert v["D2"]["grounds_corrected"] == [{"ground": "D1", "corrected_by": ["D3", "D4"]}]
    assert v["D5"]["grounds_corrected"] == []
    assert v["D1"]["superseded_by"] == ["D3", "D4"]
    assert "(current, linked grounds D1 corrected by D3,D4)" in md(repo, "list")
    s = view(repo, "show", "D4")
    assert s["predecessors"][0]["after"] == "D3"
    assert "- supersedes D1 after D3 · 관측 · ground (lineage same)" in md(repo, "show", "D4")


def test_grounds_corrected_ignores_other_lineage_corrections(repo, goal):
    start(repo)
    lines = runs_lines(repo)
    here = context(repo)
    there = context(repo, run_head={"seq": 2, "sha256": sha(b"other line")})
    write_store(repo, [
        ({"kind": "관측", "summary": "ground"}, here),
        ({"kind": "결정", "summary": "on it", "builds_on": ["D1"]}, here),
        ({"kind": "원인", "summary": "elsewhere", "supersedes": [{"id": "D1"}]}, there),
    ])
    assert lines
    v = {e["id"]: e for e in view(repo, "current")["events"]}
    assert list(v) == ["D1", "D2"]
    assert v["D2"]["grounds_corrected"] == []
    assert v["D1"]["other_corrected_by"] == ["D3"]


# -- context differences ---------------------------------------------------------------------
def context_of(repo, goal=GOAL):
    return view(repo, "list", goal=goal)["events"][0]["context"]


def test_context_same_then_code_changed_and_uncommitted(repo, goal):
    start(repo)
    commit_all(repo, "check")
    note(repo, "on a clean tree", "--target", "AC-1")
    assert context_of(repo) == {"code": "same", "spec": "same", "path": "same"}
    (repo / "src" / "count.go").write_text("package count // edited\n")
    assert context_of(repo)["code"] == "uncommitted"
    assert "(current, code uncommitted)" in md(repo, "list")
    commit_all(repo, "edit code")
    assert context_of(repo) == {"code": "changed", "spec": "same", "path": "same"}


def test_event_registered_on_a_dirty_tree_is_not_the_same_code(repo, goal):
    start(repo)
    commit_all(repo, "check")
    (repo / "src" / "count.go").write_text("package count // dirty\n")
    note(repo, "on a dirty tree")
    git(repo, "checkout", "--", "src/count.go")          # clean now, but it was not then
    assert context_of(repo)["code"] == "uncommitted"


def test_spec_changed(repo, goal):
    start(repo)
    note(repo, "before the spec edit")
    with open(repo / GOAL / "SPEC.md", "a") as f:
        f.write("\n추가 설명.\n")
    assert context_of(repo) == {"code": "same", "spec": "changed", "path": "same"}
    assert "(current, spec changed)" in md(repo, "list")


def test_goal_moved_shows_moved_and_changed(repo, goal):
    start(repo)
    commit_all(repo, "check")
    note(repo, "before the move", "--target", "AC-1")
    git(repo, "mv", GOAL, "docs/specs/moved")
    commit_all(repo, "move the goal")
    moved = "docs/specs/moved"
    v = view(repo, "current", goal=moved)
    assert ids(v["events"]) == ["D1"] and v["goal"] == moved
    assert v["events"][0]["context"] == {"code": "changed", "spec": "changed", "path": "moved"}
    assert "(code changed, spec changed, path moved)" in md(repo, "current", goal=moved)
    assert "- goal: docs/specs/empty-input · path moved" in md(repo, "show", "D1", goal=moved)


def test_views_refuse_goals_that_are_not_started(repo, goal):
    assert fails(repo, "current") == (65, "not_started")


@pytest.mark.parametrize("args", [("current",), ("list",), ("show", "D1")])
def test_absent_history(repo, goal, args):
    start(repo)
    assert md(repo, *args) == "history: absent\n"
    assert view(repo, *args) == {"schema": "decision-history-view/v1", "view": args[0],
                                 "history": "absent", "goal": GOAL}


def test_other_lineage_lists_at_most_50_ids(repo, goal):
    start(repo)
    other = context(repo, run_head={"seq": 2, "sha256": sha(b"elsewhere")})
    ahead = context(repo, run_head={"seq": 9, "sha256": sha(b"ahead")})
    write_store(repo, [({"kind": "관측", "summary": f"e{i}"}, other if i % 2 else ahead)
                       for i in range(1, 56)] + [({"kind": "관측", "summary": "mine"}, context(repo))])
    v = view(repo, "current")
    assert ids(v["events"]) == ["D56"]
    o = v["other_lineage"]
    assert (o["count"], o["different"], o["unverifiable"], len(o["events"]), o["truncated"]) == \
        (55, 28, 27, 50, True)
    assert o["events"][:2] == [{"id": "D1", "lineage": "different"},
                               {"id": "D2", "lineage": "unverifiable"}]
    assert ", … 5 more" in md(repo, "current")

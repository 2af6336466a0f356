"""Seed section 6: builds_on / supersedes only to earlier stored events, at most 64 each,
and corrections that must name the last correction (correction_conflict), across lineages."""
import json

from conftest import git, ha
from helpers_write import GOAL, add, events, receipt, refused, snapshot, started  # noqa: F401


def obs(repo, summary="x", *extra, rid=None):
    args = ["--kind", "관측", "--summary", summary, *extra]
    if rid:
        args += ["--request-id", rid]
    return add(repo, *args)


def test_relations_to_earlier_events(started):
    receipt(obs(started))
    receipt(obs(started))
    r = receipt(obs(started, "c", "--builds-on", "D1", "--builds-on", "D2"))
    assert r["id"] == "D3"
    assert events(started)[2]["decision"]["builds_on"] == ["D1", "D2"]


def test_relations_to_self_future_or_missing_events_are_refused(started):
    p = obs(started, "x", "--builds-on", "D1")        # empty history: D1 would be itself
    assert "this event itself" in refused(p, "invalid_relation", 65)
    receipt(obs(started))
    before = snapshot(started)
    assert "this event itself" in refused(obs(started, "x", "--builds-on", "D2"), "invalid_relation", 65)
    refused(obs(started, "x", "--builds-on", "D7"), "invalid_relation", 65)
    refused(obs(started, "x", "--supersedes", "D2"), "invalid_relation", 65)
    refused(obs(started, "x", "--supersedes", "D1@D3"), "invalid_relation", 65)
    assert snapshot(started) == before


def test_relation_syntax(started):
    receipt(obs(started))
    for flag, bad in [("--builds-on", "1"), ("--builds-on", "D0"), ("--builds-on", "d1"),
                      ("--builds-on", "D01"), ("--supersedes", "D1@"), ("--supersedes", "@D1"),
                      ("--supersedes", "D1@D2@D3")]:
        refused(obs(started, "x", flag, bad), "invalid_input", 64)
    refused(obs(started, "x", "--builds-on", "D1", "--builds-on", "D1"), "invalid_input", 64)
    refused(obs(started, "x", "--supersedes", "D1", "--supersedes", "D1"), "invalid_input", 64)


def test_at_most_64_per_relation(started):
    for i in range(64):
        receipt(obs(started, f"e{i}"))
    ids = [f"D{i}" for i in range(1, 65)]
    args = [a for i in ids for a in ("--builds-on", i)]
    receipt(obs(started, "64 grounds", *args))
    assert len(events(started)[-1]["decision"]["builds_on"]) == 64
    receipt(obs(started, "65th"))
    p = obs(started, "65 grounds", *args, "--builds-on", "D65")
    assert "at most 64" in refused(p, "limit_exceeded", 64)
    sup = [a for i in ids for a in ("--supersedes", i)]
    receipt(obs(started, "64 corrections", *sup))
    p = obs(started, "65 corrections", *[a for i in ids + ["D65"] for a in ("--supersedes", i)])
    refused(p, "limit_exceeded", 64)


def test_correction_must_name_the_last_correction(started):
    receipt(obs(started, "D1"))                                         # D1
    receipt(obs(started, "D2"))                                         # D2
    p = obs(started, "x", "--supersedes", "D1@D2")                      # no correction yet
    assert "D1 has no correction yet" in refused(p, "correction_conflict", 65)
    receipt(obs(started, "D3 corrects D1", "--supersedes", "D1"))       # D3
    before = snapshot(started)
    p = obs(started, "x", "--supersedes", "D1")
    err = refused(p, "correction_conflict", 65)
    assert "D1 was last corrected by D3" in err and "D1@D3" in err
    assert snapshot(started) == before
    receipt(obs(started, "D4 corrects D1 after D3", "--supersedes", "D1@D3"))  # D4
    refused(obs(started, "x", "--supersedes", "D1@D3"), "correction_conflict", 65)
    receipt(obs(started, "D5", "--supersedes", "D1@D4", "--supersedes", "D2"))
    assert events(started)[-1]["decision"]["supersedes"] == [{"id": "D1", "after": "D4"},
                                                              {"id": "D2"}]
    # building on a corrected event, or several events on the same one, is no conflict
    receipt(obs(started, "D6", "--builds-on", "D1"))
    receipt(obs(started, "D7", "--builds-on", "D1", "--supersedes", "D3"))


def test_replay_of_a_correction_is_not_a_conflict(started):
    receipt(obs(started, "D1"))
    first = receipt(obs(started, "fix", "--supersedes", "D1", rid="fix-1"))
    again = receipt(obs(started, "fix", "--supersedes", "D1", rid="fix-1"))
    assert again == {**first, "replayed": True}


def test_conflict_is_judged_across_lineages(started, tmp_path):
    """A linked worktree whose run record diverges (another lineage) shares the store; its
    correction still makes a stale correction elsewhere a conflict."""
    receipt(obs(started, "D1 in main"))
    wt = tmp_path / "wt"
    git(started, "worktree", "add", "-q", "-b", "other", str(wt))
    assert ha("check", GOAL, "AC-1", cwd=wt).returncode == 0           # wt: run seq 3
    assert ha("check", GOAL, "AC-1", cwd=started).returncode == 0      # main: another seq 3
    r = receipt(obs(wt, "D2 corrects D1 from the other lineage", "--supersedes", "D1"))
    assert r["id"] == "D2"
    heads = [e["context"]["run_head"] for e in events(started)]
    assert heads[0]["seq"] == 2 and heads[1]["seq"] == 3
    p = obs(started, "stale correction", "--supersedes", "D1")
    assert "D1 was last corrected by D2" in refused(p, "correction_conflict", 65)
    receipt(obs(started, "ok", "--supersedes", "D1@D2"))


def test_input_supersedes_shape(started):
    receipt(obs(started))
    for bad in ('[{"id":"D1","after":"D1","x":1}]', '["D1"]', '[{"after":"D1"}]', '[]',
                '{"id":"D1"}'):
        p = add(started, "--input", "-", input='{"decision":{"kind":"관측","summary":"x",'
                '"supersedes":' + bad + '}}')
        refused(p, "invalid_input", 64)
    doc = {"decision": {"kind": "관측", "summary": "x", "supersedes": [{"id": "D1"}]}}
    receipt(add(started, "--input", "-", input=json.dumps(doc, ensure_ascii=False)))

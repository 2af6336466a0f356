"""decision-history/v1 section 8 views: list, show, filters, Markdown/JSON from one model, usage errors."""
import json
import shutil

import pytest

from conftest import FIXTURE_GOAL, git, ha
from helpers_read import (GOAL, add, context, event_lines, example, fails,  # noqa: F401
                          ids, md, note, ok, runs_lines, sha, start, view, write_store)



# -- list ------------------------------------------------------------------------------------
def test_list_marks_every_event(example):
    assert event_lines(md(example, "list")) == [
        "- D1 · 원인 [가설] · AC-1 · 첫 항목이 항상 있다고 가정했다 (superseded by D4)",
        "- D2 · 관측 · AC-1 · 빈 파일에서 오류가 재현된다 (current)",
        "- D3 · 결정 · T001 · 빈 입력이면 0을 반환한다 (current, linked grounds D1 corrected by D4)",
        "- D4 · 원인 [기각] · AC-1 · 첫 항목 가정이 아니라 입력 버퍼 경계가 원인이다 (current, corrects D1)",
    ]
    v = view(example, "list")
    assert [(e["id"], e["current"], e["superseded_by"], e["supersedes"]) for e in v["events"]] == [
        ("D1", False, ["D4"], []), ("D2", True, [], []), ("D3", True, [], []),
        ("D4", True, [], ["D1"])]


def test_list_items_carry_no_reason_or_relations_in_full(example):
    e = view(example, "list")["events"][2]
    assert set(e) == {"id", "seq", "kind", "status", "targets", "summary", "lineage", "current",
                      "supersedes", "superseded_by", "other_corrected_by", "grounds_corrected",
                      "context"}


def test_no_targets_omits_the_segment(repo, goal):
    start(repo)
    note(repo, "no target at all")
    assert event_lines(md(repo, "current")) == ["- D1 · 관측 · no target at all"]


def test_several_targets_are_joined(repo, goal):
    start(repo)
    note(repo, "two", "--target", "AC-1", "--target", "T001")
    assert event_lines(md(repo, "current")) == ["- D1 · 관측 · AC-1, T001 · two"]


# -- filters -------------------------------------------------------------------------------
def test_target_filter_is_any_of_and_ordered_by_seq(example):
    assert ids(view(example, "list", "--target", "T001")["events"]) == ["D3"]
    assert ids(view(example, "list", "--target", "T001", "--target", "AC-1")["events"]) == \
        ["D1", "D2", "D3", "D4"]
    assert view(example, "list", "--target", "EX-1")["events"] == []


def test_keyword_filter_is_all_words_case_insensitive_in_summary_or_reason(repo, goal):
    start(repo)
    note(repo, "Buffer boundary", "--reason", "the READ loop stops early")
    note(repo, "buffer only")
    note(repo, "nothing here", "--reason", "but the buffer is in the reason")
    assert ids(view(repo, "list", "--keyword", "BUFFER")["events"]) == ["D1", "D2", "D3"]
    assert ids(view(repo, "list", "--keyword", "buffer", "--keyword", "read")["events"]) == ["D1"]
    assert ids(view(repo, "list", "--keyword", "reason")["events"]) == ["D3"]
    assert view(repo, "list", "--keyword", "buffer", "--keyword", "absent")["events"] == []
    assert fails(repo, "list", "--keyword", " ") == (64, "invalid_input")
    assert fails(repo, "list", "--target", "X-1") == (64, "invalid_input")


def test_filters_are_shown_in_markdown(example):
    out = md(example, "current", "--target", "T001", "--keyword", "입력")
    assert "- filters: target T001 · keyword 입력" in out


# -- show ------------------------------------------------------------------------------------
def test_show_sections(example):
    out = md(example, "show", "D2").splitlines()
    assert out[0] == "# ha history: docs/specs/empty-input · show D2"
    assert "## D2 · 관측 · AC-1 · 빈 파일에서 오류가 재현된다" in out
    assert "- lineage: same · current" in out
    assert "- file:src/count.go · checked · registered read (" in "\n".join(out)
    assert any(line.endswith("· now unchanged") for line in out)
    assert "- built_on_by D3 · 결정 · 빈 입력이면 0을 반환한다 (lineage same, current)" in out
    assert "- none" in out                           # no predecessors
    s = view(example, "show", "D1")
    assert s["lineage"] == "same" and s["current"] is False and s["superseded_by"] == ["D4"]
    assert s["evidence"][0]["current"] == "same"
    assert "- lineage: same · not current" in md(example, "show", "D1")
    assert "- markers: superseded by D4" in md(example, "show", "D1")


def test_show_reason_and_event_at(repo, goal):
    start(repo)
    note(repo, "with reason", "--reason", "line one\nline two", "--event-at",
         "2026-12-01T09:00:00+09:00")
    out = md(repo, "show", "D1").splitlines()
    assert out[out.index("reason:") + 1:out.index("reason:") + 3] == ["> line one",
                                                                        "> line two"]
    assert "- event_at: 2026-12-01T09:00:00+09:00" in out
    assert view(repo, "show", "D1")["event"]["decision"]["reason"] == "line one\nline two"


def test_show_file_evidence_now(repo, goal):
    start(repo)
    (repo / "src" / "gone.go").write_text("x\n")
    (repo / "src" / "edit.go").write_text("x\n")
    note(repo, "files", "--ref", "file:src/count.go", "--ref", "file:src/edit.go",
         "--ref", "file:src/gone.go", "--ref", "file:src/never.go")
    (repo / "src" / "edit.go").write_text("y\n")
    (repo / "src" / "gone.go").unlink()
    states = [e["current"] for e in view(repo, "show", "D1")["evidence"]]
    assert states == ["unchanged", "changed", "unavailable", "unidentified"]
    assert [e["registered"]["state"] for e in view(repo, "show", "D1")["evidence"]] == \
        ["read", "read", "read", "missing"]
    (repo / "src" / "edit.go").unlink()
    (repo / "src" / "edit.go").symlink_to("count.go")          # a link is not read
    assert view(repo, "show", "D1")["evidence"][1]["current"] == "unavailable"


def test_show_run_commit_external_evidence(repo, goal):
    start(repo)
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    version = "rev-" + "f" * 60                      # executor-given: never shortened
    doc = {"request_id": "refs-1", "decision": {
        "kind": "결정", "summary": "refs",
        "evidence": [{"type": "run", "seq": 2}, {"type": "commit", "commit": head[:9]},
                     {"type": "external", "ref": "https://example.invalid/r/1",
                      "version": version, "checked": True}]}}
    r = ok(ha("history", GOAL, "add", "--input", "-", cwd=repo, input=json.dumps(doc)))
    assert json.loads(r.stdout)["id"] == "D1"
    s = view(repo, "show", "--request-id", "refs-1")
    assert [e["current"] for e in s["evidence"]] == ["same", "as_registered", "not_checked"]
    out = md(repo, "show", "D1")
    assert f"- external:https://example.invalid/r/1 · version {version} · checked · " \
           "registered not_checked · now not_checked" in out
    assert f"- commit:{head[:9]} · registered found ({head[:12]}) · now as_registered" in out
    assert head not in out                            # Core's full id is shortened
    # the run line it cites is replaced by another line: the evidence now compares different
    runs = repo / GOAL / "runs.jsonl"
    runs.write_bytes(runs_lines(repo)[0] + b"\n")
    assert ha("check", GOAL, "AC-2", cwd=repo).returncode == 1
    assert view(repo, "show", "D1")["evidence"][0]["current"] == "different"


def test_show_run_evidence_ahead_of_head_is_unverifiable(repo, goal):
    start(repo)
    lines = runs_lines(repo)
    ctx = context(repo, run_head={"seq": 2, "sha256": sha(lines[1])},
                  evidence=[{"type": "run", "state": "matched", "version": sha(b"later")}])
    write_store(repo, [({"kind": "관측", "summary": "cites run 5",
                         "evidence": [{"type": "run", "seq": 5}]}, ctx)])
    assert view(repo, "show", "D1")["evidence"][0]["current"] == "unverifiable"


def test_show_context_section_shortens_core_hashes(example):
    s = view(example, "show", "D3")
    ctx = s["event"]["context"]
    out = md(example, "show", "D3")
    assert f"- start: {ctx['start'][:12]}" in out
    assert f"- run head: seq 2 ({ctx['run_head']['sha256'][:12]}) · lineage same" in out
    assert f"- commit: {ctx['commit'][:12]} · tree clean · code same" in out
    assert f"- goal digest: {ctx['spec_digest'][:12]} · spec same" in out
    for full in (ctx["start"], ctx["commit"], ctx["spec_digest"]):
        assert full not in out
    assert ctx["start"] in json.dumps(s)


def test_show_errors(example):
    assert fails(example, "show", "D9") == (65, "unknown_event")
    assert fails(example, "show", "--request-id", "nope") == (65, "unknown_event")
    assert fails(example, "show", "X1") == (64, "invalid_input")
    assert fails(example, "show") == (64, "invalid_input")
    assert fails(example, "show", "D1", "D2") == (64, "invalid_input")
    assert fails(example, "show", "D1", "--request-id", "cause-1") == (64, "invalid_input")
    assert fails(example, "show", "D1", "--target", "AC-1") == (64, "invalid_input")


@pytest.mark.parametrize("args", [
    ("list", "extra"), ("current", "--bogus"), ("--format", "xml"), ("list", "--since"),
    ("current", "--limit", "1", "--limit", "2"), ("list", "--request-id", "x"), ("-x",)])
def test_usage_errors(example, args):
    assert fails(example, *args) == (64, "invalid_input")


def test_option_equals_form(example):
    assert view(example, "list", "--target=T001")["events"][0]["id"] == "D3"


# -- one model, two renderings ---------------------------------------------------------------
@pytest.mark.parametrize("args", [("current",), ("list",), ("list", "--target", "AC-1"),
                                  ("current", "--limit", "1")])
def test_markdown_and_json_carry_the_same_events(example, args):
    v = view(example, *args)
    assert [line.split(" · ")[0][2:] for line in event_lines(md(example, *args))] == \
        ids(v["events"])
    assert f"cursor: {v['cursor']}" in md(example, *args)


def test_control_characters_are_escaped_in_markdown_exact_in_json(repo):
    odd = "docs/specs/new\nline"
    shutil.copytree(FIXTURE_GOAL, repo / odd)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "odd goal")
    start(repo, goal=odd)
    note(repo, "tab\there", goal=odd)
    out = md(repo, "current", goal=odd)
    assert out.splitlines()[0] == '# ha history: "docs/specs/new\\nline" · current'
    assert '- D1 · 관측 · "tab\\there"' in out
    v = view(repo, "current", goal=odd)
    assert v["goal"] == odd and v["events"][0]["summary"] == "tab\there"


# -- the pass reads canonical lines from their bytes; text that looks like keys is not keys --
def test_summary_that_looks_like_relation_keys_is_text(repo, goal):
    start(repo)
    note(repo, "first", "--target", "T001")
    note(repo, 'fake "targets":["AC-1"] and "builds_on":["D1"]', "--target", "T001",
         "--reason", '"supersedes":[{"id":"D1"}]')
    assert view(repo, "list", "--target", "AC-1")["events"] == []
    assert ids(view(repo, "list", "--target", "T001")["events"]) == ["D1", "D2"]
    assert view(repo, "show", "D1")["successors"] == []
    assert view(repo, "current")["events"][0]["superseded_by"] == []


def test_lines_in_another_key_order_are_read_by_parsing(repo, goal):
    start(repo)
    here = context(repo)
    reordered = dict(reversed(list(here.items())))          # same fields, other order
    other = dict(reversed(list(context(repo, run_head={"seq": 2,
                                                       "sha256": sha(b"x")}).items())))
    write_store(repo, [({"targets": ["AC-1"], "summary": "reordered", "kind": "관측"}, reordered),
                       ({"kind": "결정", "summary": "other", "builds_on": ["D1"]}, other)])
    v = view(repo, "list", "--target", "AC-1")
    assert [(e["id"], e["lineage"]) for e in v["events"]] == [("D1", "same")]
    assert [(e["id"], e["lineage"]) for e in view(repo, "list")["events"]] == \
        [("D1", "same"), ("D2", "different")]
    assert [s["id"] for s in view(repo, "show", "D1")["successors"]] == ["D2"]


def test_keyword_matches_lines_with_escaped_text(repo, goal):
    """A line storing 버퍼 as \\uBC84\\uD37C and a summary with a quote still match."""
    start(repo)
    here = context(repo)
    write_store(repo, [({"kind": "관측", "summary": "입력 버퍼 경계"}, here),
                       ({"kind": "관측", "summary": 'hi "there" ſ'}, here),
                       ({"kind": "관측", "summary": "a/b", "reason": "x\ny"}, here)], ascii=True)
    assert ids(view(repo, "list", "--keyword", "버퍼")["events"]) == ["D1"]
    assert ids(view(repo, "list", "--keyword", '"THERE"')["events"]) == ["D2"]
    assert ids(view(repo, "list", "--keyword", "S")["events"]) == ["D2"]   # ſ casefolds to s
    assert ids(view(repo, "list", "--keyword", 'I "T')["events"]) == ["D2"]
    assert ids(view(repo, "list", "--keyword", "a/b", "--keyword", "Y")["events"]) == ["D3"]


def test_keyword_in_canonical_lines_with_newlines_in_reason(repo, goal):
    start(repo)
    note(repo, "plain", "--reason", "첫 줄\n둘째 줄의 Straße")
    note(repo, "other")
    assert ids(view(repo, "list", "--keyword", "STRASSE")["events"]) == ["D1"]
    assert ids(view(repo, "list", "--keyword", "둘째")["events"]) == ["D1"]


def test_options_without_a_view_are_current(example):
    assert view(example, "--target", "T001") == view(example, "current", "--target", "T001")


def test_target_and_keyword_together(repo, goal):
    start(repo)
    note(repo, "Buffer edge", "--target", "AC-1")
    note(repo, "buffer elsewhere", "--target", "T001")
    note(repo, "no word", "--target", "AC-1")
    assert ids(view(repo, "current", "--target", "AC-1", "--keyword", "buffer")["events"]) == \
        ["D1"]
    assert ids(view(repo, "list", "--target", "AC-1", "--target", "T001", "--keyword",
                    "BUFFER")["events"]) == ["D1", "D2"]

"""The read side's command line tells a lost user where to go (decision-history/v1, section 3
'명령' and section 9 '영수증과 오류'; docs/history-views.md, "Command line"): a mistyped view is
named as an unknown view with the near one, a mistyped option gets "did you mean", JSON is
asked for with `--json` or `--format json` alike, and a folder that is no goal is said to be
none, with how to make one. Every call goes through the real `scripts/ha`."""
import json

import pytest

from conftest import ha
from helpers_read import GOAL, example, fails, start, view  # noqa: F401 (example: a fixture)


def err(repo, *args, goal=GOAL):
    r = ha("history", goal, *args, cwd=repo)
    assert r.stdout == "" and r.returncode == 64, (r.returncode, r.stdout, r.stderr)
    return r.stderr


@pytest.mark.parametrize("word,hint", [("lst", "list"), ("curent", "current"),
                                       ("shwo", "show"), ("grpah", "graph"),
                                       ("verfy", "verify"), ("ad", "add")])
def test_an_unknown_view_is_named_so_with_the_near_one(repo, goal, word, hint):
    start(repo)
    assert err(repo, word) == (
        f"ha: invalid_input: history: unknown view '{word}' (did you mean '{hint}'?); after "
        "the goal give one of add, current, list, show, graph, verify, or only options "
        "(current is the default)\n")


def test_an_event_id_without_show_suggests_show(repo, goal):
    start(repo)
    assert "unknown view 'D3' (did you mean 'show D3'?)" in err(repo, "D3")


def test_a_word_far_from_every_view_gets_no_guess(repo, goal):
    start(repo)
    out = err(repo, "everything")
    assert "unknown view 'everything'; after the goal" in out and "did you mean" not in out


@pytest.mark.parametrize("args,message", [
    (("list", "--limt", "3"), "history list: unknown option --limt (did you mean '--limit'?)"),
    (("--targte", "AC-1"), "history current: unknown option --targte (did you mean '--target'?)"),
    (("show", "D1", "--jsno"), "history show: unknown option --jsno (did you mean '--json'?)"),
    (("graph", "--keywrd", "x"), "history graph: unknown option --keywrd (did you mean "
                                 "'--keyword'?)"),
    (("verify", "--jsn"), "history verify: unknown option --jsn (did you mean '--json'?)"),
    (("list", "--frobnicate"), "history list: unknown option --frobnicate\n"),
])
def test_an_unknown_option_near_a_real_one_gets_did_you_mean(repo, goal, args, message):
    start(repo)
    assert message in err(repo, *args)


def test_json_is_asked_for_either_way_with_the_same_output(example):
    """Every history command that prints JSON takes `--json` and `--format json` alike
    (docs/history-views.md, "Asking for JSON")."""
    repo = example
    for argv in (("current",), ("list",), ("show", "D3"), ("list", "--target", "AC-1")):
        a = ha("history", GOAL, *argv, "--json", cwd=repo)
        b = ha("history", GOAL, *argv, "--format", "json", cwd=repo)
        c = ha("history", GOAL, *argv, "--format=json", "--json", cwd=repo)
        assert a.returncode == b.returncode == c.returncode == 0, a.stderr + b.stderr
        assert a.stdout == b.stdout == c.stdout
        assert json.loads(a.stdout)["schema"] == "decision-history-view/v1"
    doc = json.loads(ha("history", GOAL, "verify", "--format", "json", cwd=repo).stdout)
    assert doc == json.loads(ha("history", GOAL, "verify", "--json", cwd=repo).stdout)
    assert doc == {"ok": True, "events": 4, "first_bad_line": None, "error": None,
                   "message": None}


def test_two_formats_at_once_are_refused(repo, goal):
    start(repo)
    assert "history list: --json and --format md ask for two formats" in \
        err(repo, "list", "--json", "--format", "md")
    assert "history verify: --format must be json, not 'md'" in \
        err(repo, "verify", "--format", "md")


def test_graph_json_holds_the_nodes_and_edges_the_picture_draws(example):
    """`graph --json` (or `--format json`): decision-history-graph/v1, the list view's events as
    nodes and exactly the edges the Mermaid source draws (docs/history-graph.md, "graph")."""
    repo = example
    a = ha("history", GOAL, "graph", "--json", cwd=repo)
    b = ha("history", GOAL, "graph", "--format", "json", cwd=repo)
    assert a.returncode == b.returncode == 0 and a.stdout == b.stdout, a.stderr + b.stderr
    doc = json.loads(a.stdout)
    assert doc["schema"] == "decision-history-graph/v1" and doc["goal"] == GOAL
    listed = view(repo, "list")["events"]
    assert [n["id"] for n in doc["nodes"]] == [e["id"] for e in listed]
    assert [(n["kind"], n["summary"], n["superseded_by"]) for n in doc["nodes"]] == \
        [(e["kind"], e["summary"], e["superseded_by"]) for e in listed]
    assert doc["edges"] == [{"from": "D3", "relation": "builds_on", "to": "D1"},
                            {"from": "D3", "relation": "builds_on", "to": "D2"},
                            {"from": "D4", "relation": "supersedes", "to": "D1"}]
    source = ha("history", GOAL, "graph", cwd=repo).stdout
    drawn = [line.split() for line in source.splitlines() if "-->|" in line or "-.->|" in line]
    assert [(e["from"], e["relation"], e["to"]) for e in doc["edges"]] == \
        [(f, arrow.split("|")[1], t) for f, arrow, t in drawn]
    assert doc["omitted_relations"] == 0
    one = json.loads(ha("history", GOAL, "graph", "--json", "--target", "T001", cwd=repo).stdout)
    assert [n["id"] for n in one["nodes"]] == ["D3"] and one["edges"] == []
    assert one["omitted_relations"] == 2  # D3 builds on D1 and D2, both filtered out
    assert "history graph: --json and --format md ask for two formats" in \
        err(repo, "graph", "--json", "--format", "md")


def test_graph_json_of_no_store_is_absent(repo, goal):
    start(repo)
    r = ha("history", GOAL, "graph", "--json", cwd=repo)
    assert (r.returncode, r.stderr) == (0, "")
    assert json.loads(r.stdout) == {"schema": "decision-history-graph/v1", "history": "absent",
                                    "goal": GOAL}


def test_a_folder_without_spec_is_not_a_goal_folder(repo, goal):
    (repo / "src" / "lib").mkdir()
    for folder in ("src", "src/lib"):
        r = ha("history", folder, "list", cwd=repo)
        assert (r.returncode, r.stdout) == (65, "")
        assert r.stderr == (
            f"ha: not_started: {folder} is not a goal folder: it has no SPEC.md and no run "
            "record. A goal folder holds SPEC.md (its acceptance criteria) and PLAN.md (its "
            f"checks and tasks): `ha new {folder}` writes both from the templates, then commit "
            f"them and run `ha start {folder} --request QUOTE`\n")
        assert "has no valid start record" not in r.stderr


def test_a_goal_folder_not_yet_started_is_told_to_start(repo, goal):
    assert fails(repo, "list") == (65, "not_started")
    r = ha("history", GOAL, "list", cwd=repo)
    assert r.stderr == (f"ha: not_started: {GOAL} has no valid start record (run `ha start "
                        f"{GOAL}` first)\n")


def test_an_option_where_the_goal_stands_says_the_goal_comes_first(repo, goal):
    start(repo)
    r = ha("history", "--json", cwd=repo)
    assert (r.returncode, r.stdout) == (64, "")
    assert r.stderr == ("ha: invalid_input: history: the goal comes first, not '--json'; ha "
                        "history <goal> [add|current|list|show|graph|verify] [options] (a "
                        "folder named so: ./--json)\n")
    assert "(did you mean '--help'?)" in ha("history", "--hepl", cwd=repo).stderr

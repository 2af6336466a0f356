"""`ha status`: md and json from one view, deterministic."""
import json

from conftest import git, ha
from helpers_core import GOAL, lines, sha, started


def test_not_started(repo, goal):
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    r = ha("status", goal, cwd=repo)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        f"# ha status: {goal}", "",
        "- started: no",
        "- record head: none",
        f"- commit: {head[:12]}",
        "- tree clean: yes",
        r.stdout.splitlines()[6],
        "- criteria: AC-1, AC-2 (선택)",
        "- extras: EX-1",
        "- tasks: T001",
        "- chain: intact (0 verified lines)",
    ]
    assert r.stdout.splitlines()[6].startswith("- goal digest: ")
    view = json.loads(ha("status", goal, "--format", "json", cwd=repo).stdout)
    assert view["started"] is False and view["rules"] is None and view["head"] is None
    assert view["spec_digest"]["start"] is None


def test_started_and_checked(repo, goal):
    started(repo)
    ha("check", goal, "AC-1", cwd=repo)
    raw = lines(repo)
    md = ha("status", goal, cwd=repo)
    assert md.returncode == 0
    assert f"- record head: seq 2 ({sha(raw[1])[:12]})" in md.stdout
    assert "- rules: run-rules/3" in md.stdout
    start = json.loads(raw[0])
    assert (f"- goal digest: {start['spec_digest'][:12]}, at start {start['spec_digest'][:12]} "
            "(unchanged)") in md.stdout
    js = ha("status", goal, "--format", "json", cwd=repo)
    assert js.stdout.endswith("\n") and js.stdout.count("\n") == 1
    view = json.loads(js.stdout)
    assert view["schema"] == "ha-status/v1"
    assert view["head"] == {"seq": 2, "sha256": sha(raw[1])}
    assert view["start"] == {"sha256": sha(raw[0]), "base_commit": start["base_commit"],
                             "at": start["at"]}
    assert view["tree_clean"] is True and view["chain"] == {"ok": True, "lines": 2, "error": None}
    assert view["ids"] == {"criteria": ["AC-1", "AC-2"], "optional": ["AC-2"],
                           "extras": ["EX-1"], "tasks": ["T001"]}


def test_deterministic(repo, goal):
    started(repo)
    for fmt in ("md", "json"):
        outs = {ha("status", goal, "--format", fmt, cwd=repo).stdout for _ in range(3)}
        assert len(outs) == 1


def test_ids_error_is_reported_not_fatal(repo, goal):
    spec = repo / goal / "SPEC.md"
    spec.write_text(spec.read_text() + "- AC-1 again\n", encoding="utf-8")
    r = ha("status", goal, cwd=repo)
    assert r.returncode == 0
    assert "- ids: error: docs/specs/empty-input/SPEC.md:" in r.stdout
    assert "duplicate id AC-1" in r.stdout


def test_format_usage(repo, goal):
    r = ha("status", goal, "--format", "yaml", cwd=repo)
    assert r.returncode == 64 and r.stderr == "ha: status: --format must be md or json, not 'yaml'\n"

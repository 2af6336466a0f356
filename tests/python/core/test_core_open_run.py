"""Opening a started run and the worktree snapshot: one function each, used by
check, start, status and the decision history alike."""
import json

import pytest

from conftest import git, ha
from helpers_core import GOAL, lines, records, started

from judgment_toolkit.ha import gitrepo, goal as goalmod, runs
from judgment_toolkit.ha.errors import HaError


def open_goal(repo):
    return goalmod.resolve(gitrepo.discover(str(repo)), GOAL, cwd=str(repo))


def test_open_started_gives_chain_rules_and_start_key(repo, goal):
    started(repo)
    run = runs.open_started(open_goal(repo))
    assert run.rules == "run-rules/3"
    assert run.chain.head["seq"] == 1
    assert run.start_key == runs.sha256_hex(lines(repo)[0])


def test_open_started_refuses_in_the_documented_order(repo, goal):
    with pytest.raises(HaError) as exc:
        runs.open_started(open_goal(repo))
    assert exc.value.code == "not_started"
    started(repo)
    path = repo / GOAL / "runs.jsonl"
    path.write_bytes(path.read_bytes() + b"broken\n")
    with pytest.raises(HaError) as exc:
        runs.open_started(open_goal(repo))
    assert exc.value.code == "record_integrity"
    assert runs.open_started(open_goal(repo), intact=False).chain.ok is False
    first = json.loads(lines(repo)[0])
    first["rules"] = "run-rules/9"
    path.write_bytes(json.dumps(first).encode() + b"\nbroken\n")
    with pytest.raises(HaError) as exc:  # unknown rules come before the broken chain
        runs.open_started(open_goal(repo))
    assert (exc.value.code, exc.value.exit_code) == ("unsupported_rules", 66)


def test_the_snapshot_is_what_check_status_and_history_record(repo, goal):
    started(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "start")
    now = runs.snapshot(open_goal(repo), "run-rules/3")
    assert ha("check", GOAL, "AC-1", cwd=repo).returncode == 0
    check = records(repo)[-1]
    assert {k: check[k] for k in ("commit", "tree_clean", "spec_digest")} == now.fields()
    status = json.loads(ha("status", GOAL, "--format", "json", cwd=repo).stdout)
    assert (status["commit"], status["spec_digest"]["now"]) == (now.commit, now.spec_digest)
    r = ha("history", GOAL, "add", "--kind", "관측", "--summary", "s", cwd=repo)
    assert r.returncode == 0, r.stderr
    key = runs.open_started(open_goal(repo)).start_key
    store = repo / ".git" / "ha" / "history" / key / "events.jsonl"
    context = json.loads(store.read_bytes().splitlines()[0])["context"]
    assert {k: context[k] for k in ("commit", "tree_clean", "spec_digest")} == now.fields()

"""`ha check`: argv without a shell, logs, one check line per target, exit codes."""
import json
import os
import re

import pytest

from conftest import git, ha
from helpers_core import GOAL, lines, plan_with, records, sha, started, write_goal

SPEC = "# s\n\n## Acceptance Criteria\n\n- AC-1 a\n- AC-2 b\n"


def git_dir(repo):
    return git(repo, "rev-parse", "--absolute-git-dir").stdout.strip()


def test_refused_before_start(repo, goal):
    r = ha("check", goal, cwd=repo)
    assert r.returncode == 65 and r.stderr.startswith("ha: not started:")
    assert not (repo / goal / "runs.jsonl").exists()


def test_all_runnable_rows(repo, goal):
    started(repo)
    r = ha("check", goal, cwd=repo)
    assert r.returncode == 1
    log3 = f".git/ha/runs/docs%2Fspecs%2Fempty-input/3.log"
    assert r.stdout == ("AC-1 check pass (seq 2)\n"
                        f"AC-2 check fail (seq 3, exit 1, log {log3})\n")
    recs = records(repo)
    assert [x["kind"] for x in recs] == ["start", "check", "check"]
    c = recs[1]
    assert list(c) == ["schema", "seq", "prev", "kind", "at", "ha_version", "target", "argv",
                       "command_digest", "commit", "tree_clean", "spec_digest", "exit", "result",
                       "duration_ms", "output_digest", "output_path"]
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    assert c["target"] == {"criterion": "AC-1"} and c["argv"] == ["true"]
    assert c["command_digest"] == sha(b"true")
    assert c["commit"] == head and c["tree_clean"] is True
    assert c["spec_digest"] == recs[0]["spec_digest"]
    assert c["exit"] == 0 and c["result"] == "pass" and isinstance(c["duration_ms"], int)
    assert c["output_digest"] == sha(b"")
    assert c["output_path"] == ".git/ha/runs/docs%2Fspecs%2Fempty-input/2.log"
    assert c["prev"] == sha(lines(repo)[0])
    assert recs[2]["exit"] == 1 and recs[2]["result"] == "fail"
    assert os.path.isfile(os.path.join(git_dir(repo), "ha", "runs", "docs%2Fspecs%2Fempty-input", "3.log"))


def test_selected_ids_and_tasks(repo, goal):
    started(repo)
    r = ha("check", goal, "AC-1", cwd=repo)
    assert r.returncode == 0 and r.stdout == "AC-1 check pass (seq 2)\n"
    r = ha("check", goal, "T001", cwd=repo)
    assert r.returncode == 1
    assert r.stdout.splitlines()[0] == "T001#1 check pass (seq 3)"
    assert r.stdout.splitlines()[1].startswith("T001#2 check fail (seq 4")
    assert [x["target"] for x in records(repo)[2:]] == [{"task": "T001", "index": 1},
                                                        {"task": "T001", "index": 2}]


def test_manual_row_is_not_runnable(repo, goal):
    started(repo)
    r = ha("check", goal, "EX-1", cwd=repo)
    assert r.returncode == 65
    assert r.stderr == "ha: EX-1: a manual row (— 사람이 화면에서 확인); ha check cannot run it\n"
    assert len(lines(repo)) == 1


@pytest.mark.parametrize("ids,code,words", [
    (("AC-9",), 65, "AC-9: not an acceptance criterion"),
    (("EX-4",), 65, "EX-4: no row in"),
    (("T002",), 65, "T002: not in"),
    (("bogus",), 64, "'bogus' is not a target id"),
    (("AC-1\n",), 64, "'AC-1\\n' is not a target id"),      # $ would accept a final LF
    (("AC-\u0661",), 64, "is not a target id"),                # ASCII digits only
])
def test_unknown_ids(repo, goal, ids, code, words):
    started(repo)
    r = ha("check", goal, *ids, cwd=repo)
    assert r.returncode == code and words in r.stderr
    assert len(lines(repo)) == 1


def test_output_is_logged_and_digested(repo):
    plan = plan_with(["| AC-1 | change | `printf 'out %s\\n' \"a b\"` | src/ | T001 |",
                      "| AC-2 | maintain | `sh -c 'echo err >&2; exit 3'` | src/ | T001 |"])
    write_goal(repo, "g", SPEC, plan)
    started(repo, "g")
    r = ha("check", "g", cwd=repo)
    assert r.returncode == 1
    recs = records(repo, "g")
    assert recs[1]["argv"] == ["printf", "out %s\\n", "a b"]
    log = open(os.path.join(git_dir(repo), "ha", "runs", "g", "2.log"), "rb").read()
    assert log == b"out a b\n" and recs[1]["output_digest"] == sha(log)
    assert recs[2]["argv"] == ["sh", "-c", "echo err >&2; exit 3"]
    assert recs[2]["exit"] == 3 and recs[2]["result"] == "fail"
    assert open(os.path.join(git_dir(repo), "ha", "runs", "g", "3.log"), "rb").read() == b"err\n"


def test_runs_from_the_worktree_top_level_without_a_shell(repo):
    plan = plan_with(["| AC-1 | change | `test -f src/count.go` | src/ | T001 |",
                      "| AC-2 | change | `echo '$HOME;x'` | src/ | T001 |"])
    write_goal(repo, "g", SPEC, plan)
    started(repo, "g")
    r = ha("check", "../g", cwd=repo / "src")
    assert r.returncode == 0, r.stdout + r.stderr
    log = open(os.path.join(git_dir(repo), "ha", "runs", "g", "3.log"), "rb").read()
    assert log == b"$HOME;x\n"  # quoted: passed literally, no expansion


@pytest.mark.parametrize("cmd", ["true \\| cat", "true && false", "echo $HOME", "ls *.md", "a > b"])
def test_shell_syntax_is_refused(repo, cmd):
    write_goal(repo, "g", SPEC, plan_with([f"| AC-1 | change | `{cmd}` | src/ | T001 |"]))
    started(repo, "g")
    r = ha("check", "g", "AC-1", cwd=repo)
    assert r.returncode == 65
    assert r.stderr.startswith("ha: g/PLAN.md:7: AC-1: command uses shell syntax")
    assert len(lines(repo, "g")) == 1


def test_command_that_cannot_start_is_an_error(repo):
    write_goal(repo, "g", SPEC, plan_with(["| AC-1 | change | `no-such-program-xyz` | src/ | T001 |"]))
    started(repo, "g")
    r = ha("check", "g", cwd=repo)
    assert r.returncode == 1
    assert r.stdout.startswith("AC-1 check error (seq 2, exit none, log ")
    rec = records(repo, "g")[1]
    assert rec["exit"] is None and rec["result"] == "error"
    log = open(os.path.join(git_dir(repo), "ha", "runs", "g", "2.log"), "rb").read()
    assert b"cannot start 'no-such-program-xyz'" in log and rec["output_digest"] == sha(log)


def test_timeout(repo):
    write_goal(repo, "g", SPEC, plan_with(["| AC-1 | change | `sleep 30` | src/ | T001 |"]))
    started(repo, "g")
    r = ha("check", "g", "--timeout", "0.5", cwd=repo)
    assert r.returncode == 1 and "AC-1 check error (seq 2" in r.stdout
    rec = records(repo, "g")[1]
    assert rec["exit"] is None and rec["result"] == "error" and rec["duration_ms"] < 10000
    r = ha("check", "g", cwd=repo, env={"HA_CHECK_TIMEOUT": "0.3"})
    assert r.returncode == 1 and records(repo, "g")[2]["result"] == "error"
    assert ha("check", "g", "--timeout", "zero", cwd=repo).returncode == 64
    assert ha("check", "g", "--timeout", "-1", cwd=repo).returncode == 64
    r = ha("check", "g", cwd=repo, env={"HA_CHECK_TIMEOUT": "soon"})
    assert r.returncode == 64
    assert r.stderr == "ha: check: HA_CHECK_TIMEOUT 'soon' is not a positive number of seconds\n"
    assert len(records(repo, "g")) == 3


def test_dirty_tree_is_recorded_per_check(repo, goal):
    started(repo)
    (repo / "src" / "new.go").write_text("x\n")
    ha("check", goal, "AC-1", cwd=repo)
    assert records(repo)[1]["tree_clean"] is False
    os.remove(repo / "src" / "new.go")
    ha("check", goal, "AC-1", cwd=repo)
    assert records(repo)[2]["tree_clean"] is True


def test_a_check_that_dirties_the_tree_shows_in_the_next_target(repo):
    plan = plan_with(["| AC-1 | change | `touch src/made.go` | src/ | T001 |",
                      "| AC-2 | change | `true` | src/ | T001 |"])
    write_goal(repo, "g", SPEC, plan)
    started(repo, "g")
    assert ha("check", "g", cwd=repo).returncode == 0
    recs = records(repo, "g")
    assert recs[1]["tree_clean"] is True and recs[2]["tree_clean"] is False

"""Issue 10 item 4 (the command-line part): hostile argument values never reach an internal
error (70) or a traceback. Numbers of 4301+ digits (past Python's int() digit limit), bytes
that are not UTF-8, and random bytes go to every flag of every command, through the real
entry points; each answer must be one of that command's documented exit codes (the tables in
the judgment --help texts, scripts/lib/help/, and ha/usage.py), with one error line. Random
values use a fixed seed.

The `ha` sweeps run in-process (inproc.py: the real cli.main, the same answer a process
gives) but for one value of each sweep, which goes through scripts/ha as a process too and
must get the same answer; the exact-message tests at the end are processes."""
import os
import random
import subprocess

import pytest

from conftest import GIT_ENV, SCRIPTS, ha
from inproc import ha as ha_in

from judgment_toolkit.ha import usage as ha_usage

import judgment_help

HUGE = b"9" * 5000
NOT_UTF8 = b"\xff\xfe\xc3("
_rng = random.Random(20261203)
RANDOM = [bytes(_rng.choice(range(1, 256)) for _ in range(_rng.randint(1, 40))) for _ in range(3)]
VALUES = [HUGE, b"D" + HUGE, b"-" + HUGE, NOT_UTF8, *RANDOM]


def codes(command):
    if command.startswith("judgment"):
        return {code for code, _ in judgment_help.table(command)}
    return {code for code, _ in ha_usage.table(command)}


def call(script, argv, cwd, env=None):
    full = dict(os.environ, **GIT_ENV)
    full.update(env or {})
    r = subprocess.run([os.fsencode(SCRIPTS / script), *argv], cwd=cwd, env=full,
                       capture_output=True, timeout=120)
    return r.returncode, r.stdout, r.stderr.decode("utf-8", "replace")


def call_ha(argv, cwd, sample=False):
    """`ha ARGV` in-process; with sample, through scripts/ha as well, and the two answers must
    agree (code, stdout, stderr), so the sweep keeps the process boundary in view."""
    r = ha_in(*argv, cwd=cwd)
    got = (r.returncode, r.stdout.encode(), r.stderr)
    if sample:
        assert call("ha", argv, cwd) == got, argv
    return got


def assert_documented(command, result):
    code, _, err = result
    assert "Traceback" not in err and "internal error" not in err, err[:500]
    assert code in codes(command) and code != 70, (code, err[:300])
    if code not in (0,):
        assert err.count("\n") <= 3, err[:500]  # one error line (a card error may list lines)


def b(*words):
    return [w if isinstance(w, bytes) else w.encode() for w in words]


@pytest.fixture
def started(repo, goal):
    assert ha("start", goal, "--request", "q", cwd=repo).returncode == 0
    assert ha("check", goal, "AC-1", cwd=repo).returncode == 0
    assert ha("history", goal, "add", "--kind", "관측", "--summary", "s", cwd=repo).returncode == 0
    return repo, goal


LEDGER_FLAGS = {
    "judgment-ledger append": ["--project", "--question", "--answer", "--card-ref",
                               "--rationale", "--tags", "--id"],
    "judgment-ledger search": ["--project", "--query", "--limit", "--rank"],
    "judgment-ledger recall": ["--project", "--question", "--rank"],
}


@pytest.mark.parametrize("command", list(LEDGER_FLAGS))
def test_ledger_flags(tmp_path, command):
    env = {"HARNESS_JUDGMENT_LEDGER": str(tmp_path / "l.jsonl"), "HOME": str(tmp_path)}
    base = {"--project": b"p", "--question": b"q", "--answer": b"a", "--card-ref": b"c",
            "--query": b"q"}
    sub = command.split()[1]
    for flag in LEDGER_FLAGS[command]:
        for value in VALUES:
            argv = [sub.encode()]
            for f in LEDGER_FLAGS[command]:
                if f == flag:
                    argv += [f.encode(), value]
                elif f in base:
                    argv += [f.encode(), base[f]]
            assert_documented(command, call("judgment-ledger.sh", argv, tmp_path, env))


def test_ledger_limit_of_4301_digits_is_the_ordinary_bad_limit(tmp_path):
    env = {"HARNESS_JUDGMENT_LEDGER": str(tmp_path / "l.jsonl")}
    code, out, err = call("judgment-ledger.sh", b("search", "--project", "p", "--query", "q",
                                                  "--limit", HUGE), tmp_path, env)
    assert (code, out) == (64, b"")
    assert err == (f"judgment-ledger: search: limit: must be a whole number from 1 to 3 (at most 3 "
                   f"results), not '{'9' * 5000}'\n")


def test_card_flags(tmp_path):
    import json
    path = tmp_path / "card.json"
    path.write_text(json.dumps({
        "question": "Redis or Postgres?", "recommendation": "postgres", "confidence": "low",
        "options": [{"id": "redis", "label": "Redis", "consequence": "one more service"},
                    {"id": "postgres", "label": "Postgres", "consequence": "none"}],
        "impact": "queue", "diff_summary": "jobs table"}))
    card = os.fsencode(path)
    env = {"HARNESS_JUDGMENT_LEDGER": str(tmp_path / "l.jsonl"), "HOME": str(tmp_path)}
    forms = {
        "judgment-card should-issue": (b("should-issue"), ["--reason", "--floor-category"], {}),
        "judgment-card validate": (b("validate"), [], {}),
        "judgment-card record-answer": (
            [b"record-answer", card], ["--answer", "--why", "--project", "--session"],
            {"--answer": b"postgres", "--why": b"w", "--project": b"p", "--session": b"s"}),
        "judgment-card recall": ([b"recall", card], ["--project", "--rank"],
                                 {"--project": b"p", "--rank": b"match"}),
    }
    for command, (head, flags, base) in forms.items():
        for value in VALUES:
            if not flags:  # the CARD positional itself
                assert_documented(command, call("judgment-card.sh", head + [value], tmp_path, env))
            for flag in flags:
                argv = list(head)
                for f in flags:
                    argv += [f.encode(), value if f == flag else base.get(f, b"x")]
                assert_documented(command, call("judgment-card.sh", argv, tmp_path, env))


def test_ha_core_flags_and_goal(started):
    repo, goal = started
    g = goal.encode()
    forms = [("ha start", [b"start", g, b"--request", b"q", b"--rules"]),
             ("ha start", [b"start", g, b"--request"]),
             ("ha check", [b"check", g]),
             ("ha check", [b"check", g, b"--timeout"]),
             ("ha status", [b"status", g, b"--format"])]
    for command, argv in forms:
        for k, value in enumerate(VALUES):
            assert_documented(command, call_ha(argv + [value], repo, sample=k == 0))
    for command in ("start", "check", "status"):
        for k, value in enumerate(VALUES):
            assert_documented(f"ha {command}", call_ha([command.encode(), value], repo,
                                                       sample=k == 3))


ADD_FLAGS = ["--kind", "--summary", "--status", "--reason", "--event-at", "--request-id",
             "--input", "--target", "--ref", "--checked-ref", "--builds-on", "--supersedes"]
VIEW_FLAGS = ["--target", "--keyword", "--since", "--page", "--limit", "--format",
              "--request-id"]


def test_history_add_flags(started):
    repo, goal = started
    for f, flag in enumerate(ADD_FLAGS):
        for k, value in enumerate(VALUES + [b"run:" + HUGE, b"D1@D" + HUGE, b"AC-" + HUGE]):
            argv = [b"history", goal.encode(), b"add"]
            if flag not in ("--input",):
                argv += [b"--kind", b"\xea\xb4\x80\xec\xb8\xa1", b"--summary", b"s"]
            if flag in ("--kind", "--summary"):
                argv = argv[:3] + [b"--summary" if flag == "--kind" else b"--kind",
                                   b"s" if flag == "--kind" else b"\xea\xb4\x80\xec\xb8\xa1"]
            argv += [flag.encode(), value]
            assert_documented("ha history add", call_ha(argv, repo, sample=k == f % 10))


def test_history_view_flags_and_show_ids(started):
    repo, goal = started
    for view in (b"current", b"list", b"show"):
        for f, flag in enumerate(VIEW_FLAGS):
            for k, value in enumerate(VALUES):
                argv = [b"history", goal.encode(), view, flag.encode(), value]
                if view == b"show" and flag != "--request-id":
                    argv.append(b"D1")
                assert_documented("ha history current|list|show",
                                  call_ha(argv, repo, sample=view == b"list" and k == f))
    for k, value in enumerate(VALUES):
        assert_documented("ha history current|list|show",
                          call_ha([b"history", goal.encode(), b"show", value], repo,
                                  sample=k == 4))


@pytest.mark.parametrize("argv", [
    [b"history", b"g", b"show", b"D" + HUGE],
    [b"history", b"g", b"add", b"--kind", "관측".encode(), b"--summary", b"s", b"--builds-on",
     b"D" + HUGE],
])
def test_huge_event_ids_are_unknown_like_any_id_past_the_last(started, argv):
    """A 5000-digit D-number is a well-formed id that names no event: the same code, exit and
    message as D99 gets (issue 10 item 4), never Python's int digit limit."""
    repo, goal = started
    argv = [goal.encode() if a == b"g" else a for a in argv]
    ordinary = call("ha", [b"D99" if a == b"D" + HUGE else a for a in argv], repo)
    got = call("ha", argv, repo)
    assert ordinary[0] == 65 and ordinary[1] == b""
    assert (got[0], got[1], got[2]) == (ordinary[0], b"", ordinary[2].replace("D99", "D" + "9" * 5000))


def test_a_huge_limit_is_over_the_maximum(started):
    repo, goal = started
    got = call("ha", [b"history", goal.encode(), b"list", b"--limit", HUGE], repo)
    assert (got[0], got[1], got[2]) == (64, b"", "ha: limit_exceeded: --limit " + "9" * 5000
                                        + " is over the maximum of 200\n")


def test_non_utf8_keyword_and_goal_are_invalid_input_before_the_goal(tmp_path, started):
    repo, goal = started
    got = call("ha", [b"history", goal.encode(), b"--keyword", NOT_UTF8], repo)
    assert got == (64, b"", "ha: invalid_input: history current: --keyword value is not valid "
                            "UTF-8\n")
    # outside any repository: the goal's bytes are refused before the goal is looked up
    bad_goal = b"docs/\xff"
    for argv in ([b"history", bad_goal], [b"history", bad_goal, b"add", b"--kind", b"x"],
                 [b"history", bad_goal, b"show", b"D1"]):
        got = call("ha", argv, tmp_path)
        assert got == (64, b"", "ha: invalid_input: goal 'docs/\\udcff' is not valid UTF-8\n")
    got = call("ha", [b"status", bad_goal], tmp_path)
    assert got == (64, b"", "ha: status: argument 'docs/\\udcff' is not valid UTF-8\n")

"""Bad input to the recall hook (docs/claude-kit.md, "What each hook does"): each gets exit 0,
no output, nothing written, and at most one debug line on stderr; the question then reaches
the person as Claude asked it. Driven as Claude Code drives the hook (`sh -c` with its command
from hooks/hooks.json, the payload on stdin, under `env -i`), with a ledger whose decision
would otherwise be recalled (the control case shows it is)."""
import json
import os
import subprocess

import pytest

from conftest import ROOT
from kit.test_plugin import QUESTION, ask_payload, command, shop  # noqa: F401

LEDGER = ROOT / "scripts" / "judgment-ledger.sh"


def hook(project, home, data: bytes):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "CLAUDE_PLUGIN_ROOT": str(ROOT),
           "CLAUDE_PROJECT_DIR": str(project)}
    return subprocess.run(["env", "-i", *[f"{k}={v}" for k, v in env.items()], "sh", "-c",
                           command("PreToolUse")], input=data, capture_output=True, cwd=project,
                          timeout=60)  # a safety net: a FIFO must not hang the hook


def snapshot(*folders):
    """Every file under the folders with its bytes (a FIFO as its kind): what a hook wrote."""
    seen = {}
    for folder in folders:
        for base, dirs, files in os.walk(folder):
            for name in files + dirs:
                path = os.path.join(base, name)
                if os.path.isfile(path) and not os.path.islink(path):
                    with open(path, "rb") as f:
                        seen[path] = f.read()
                else:
                    seen[path] = "not a file"
    return seen


@pytest.fixture
def decided(shop):  # noqa: F811
    project, home = shop
    subprocess.run([str(LEDGER), "append", "--project", "shop", "--question",
                    "Which queue backend: Redis or Postgres?", "--answer", "Postgres",
                    "--card-ref", "c.json", "--rationale", "no new service"], cwd=project,
                   check=True, capture_output=True)
    return project, home


def questions(n, description="fast"):
    return [{"question": f"{QUESTION} ({i})", "header": "Queue", "multiSelect": False,
             "options": [{"label": "Redis", "description": description},
                         {"label": "Postgres", "description": "no new service"}]} for i in range(n)]


def payload_bytes(project, tool_input):
    return json.dumps(ask_payload("PreToolUse", project, tool_input=tool_input)).encode()


def test_the_control_case_is_recalled(decided):
    project, home = decided
    r = hook(project, home, payload_bytes(project, {"questions": questions(1)}))
    assert r.returncode == 0 and "updatedInput" in json.loads(r.stdout)["hookSpecificOutput"]


@pytest.mark.parametrize("case", ["no questions field", "empty questions", "5 questions",
                                  "huge option text", "payload over the stdin limit",
                                  "bytes that are not UTF-8", "UTF-16 JSON"])
def test_a_bad_payload_is_silent(decided, case):
    project, home = decided
    from judgment_toolkit.claude.hooks import STDIN_LIMIT
    data = {
        "no questions field": lambda: payload_bytes(project, {}),
        "empty questions": lambda: payload_bytes(project, {"questions": []}),
        "5 questions": lambda: payload_bytes(project, {"questions": questions(5)}),
        "huge option text": lambda: payload_bytes(project, {"questions": questions(1, "slow " * 50_000)}),
        "payload over the stdin limit": lambda: payload_bytes(
            project, {"questions": questions(1, "x" * STDIN_LIMIT)}),
        "bytes that are not UTF-8": lambda: payload_bytes(project, {"questions": questions(1)}).replace(
            b"Queue", b"Qu\xff\xfeue"),
        "UTF-16 JSON": lambda: payload_bytes(project, {"questions": questions(1)}).decode().encode("utf-16"),
    }[case]()
    before = snapshot(project, home)
    r = hook(project, home, data)
    assert (r.returncode, r.stdout) == (0, b"") and len(r.stderr.splitlines()) <= 1, r.stderr
    assert snapshot(project, home) == before


@pytest.mark.parametrize("fault", ["corrupt", "a directory", "a FIFO"])
def test_a_bad_ledger_is_silent(shop, fault):  # noqa: F811
    project, home = shop
    path = project / ".claude" / "state" / "judgment-ledger.jsonl"
    path.parent.mkdir(parents=True)
    if fault == "corrupt":
        path.write_bytes(b'{"id":"a","project":"shop","decided_at":"2026-01-01T00:00:00Z","question":'
                         b'"Which queue backend: Redis or Postgres?","answer":"Postgres"\n\xff\xfe\x00{{{'
                         b'\n[1,2]\n{"project":"shop"}\n' + b"\x00" * 1000)
    elif fault == "a directory":
        path.mkdir()
    else:
        os.mkfifo(path)
    before = snapshot(project, home)
    r = hook(project, home, payload_bytes(project, {"questions": questions(1)}))
    assert (r.returncode, r.stdout) == (0, b"") and len(r.stderr.splitlines()) <= 1, r.stderr
    assert snapshot(project, home) == before

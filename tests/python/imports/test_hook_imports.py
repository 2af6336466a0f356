"""What the recall and SessionStart hooks import (docs/claude-kit.md, "What each hook costs"),
counted as Claude Code runs them (scripts/judgment-kit, PYTHONPROFILEIMPORTTIME=1): a hook
pays for every import on every call. The recall may import what `judgment.inject.answers`
itself imports (whatever rule it uses) plus the kit's own few modules; SessionStart what
`judgment-ledger prime` needs. A tool run's imports (subprocess, uuid, shutil) and the
writer's (jsonschema, ulid) fail here by name."""
import json
import subprocess
import sys

import pytest

from imports.test_ledger_imports import ROOT, bare_start, imported, plain_python

C, J = "judgment_toolkit.claude.", "judgment_toolkit.judgment."
KIT = {"judgment_toolkit.claude", C + "kit", C + "hooks", C + "annotate", J + "project", J + "recall",
       J + "place", J + "topk",
       J + "search", "runpy"}
PRIME = {"judgment_toolkit", "judgment_toolkit.judgment", "judgment_toolkit.output",
         "judgment_toolkit.packaged", J + "deps", J + "ledger", J + "lines", J + "place", J + "prime",
         J + "topk", "shlex",
         "json", "json.decoder", "json.encoder", "json.scanner", "_json", "heapq", "_heapq"}
NEVER = {"subprocess", "uuid", "shutil", "jsonschema", "ulid", "copy"}
QUESTION = "Redis or Postgres for the job queue?"


@pytest.fixture(scope="module")
def setting(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("hook-imports")
    project = scratch / "shop"
    (project / ".claude" / "state").mkdir(parents=True)
    path = project / ".claude" / "state" / "judgment-ledger.jsonl"
    path.write_text(json.dumps({"id": "a", "project": "shop", "decided_at": "2026-01-01T00:00:00Z",
                               "question": QUESTION, "answer": "Postgres", "rationale": "r",
                               "card_ref": "c", "tags": []}) + "\n")
    python, more = plain_python(scratch)  # started as an installed copy starts it
    env = dict(more, PATH="/usr/bin:/bin", HOME=str(scratch), HARNESS_PYTHON=python,
               CLAUDE_PROJECT_DIR=str(project))
    return env, bare_start(env), path


def hook_imports(env, name, payload):
    r = subprocess.run([str(ROOT / "scripts" / "judgment-kit"), "hook", name], input=json.dumps(payload),
                       env=dict(env, PYTHONPROFILEIMPORTTIME="1"), capture_output=True, text=True)
    names = {line.rsplit("|", 1)[1].strip() for line in r.stderr.splitlines()
             if line.startswith("import time:") and line.count("|") == 2}
    return r.stdout, names - {"package"}


def test_the_recall_imports_the_rule_and_the_kit_only(setting):
    env, bare, path = setting
    labels = ["Redis", "Postgres"]
    out, names = hook_imports(env, "ask-recall", {"tool_input": {"questions": [{
        "question": QUESTION, "header": "Q", "options": [{"label": l, "description": ""} for l in labels]}]}})
    assert "updatedInput" in out  # it recalled
    _, rule = imported([sys.executable, "-S", "-c", "from judgment_toolkit.judgment import inject; "
                        f"inject.answers({str(path)!r}, 'shop', {QUESTION!r}, {labels!r})"],
                       dict(env, PYTHONPATH=f"{ROOT / 'pylib'}:{env['PYTHONPATH']}"))
    assert J + "inject" in rule
    assert sorted(names - bare - rule - KIT) == []
    assert sorted(names & NEVER) == []


def test_session_start_imports_what_prime_needs(setting):
    env, bare, _ = setting
    out, names = hook_imports(env, "session-start", {"source": "startup"})
    assert out.startswith("## Recent judgments: shop")
    assert sorted(names - bare - PRIME - KIT) == []
    assert sorted(names & NEVER) == []


# what no hook may import: each costs a hook about a millisecond or more on every call in an
# installed copy, where no editable finder has imported it at start-up already
HEAVY = {"pathlib", "importlib.util", "contextlib", "warnings", "fnmatch", "urllib.parse",
         "inspect", "dataclasses", "typing", "datetime", "subprocess"}


def test_the_installed_recall_imports_nothing_heavy(setting):
    """The recall as the installed console script runs it (no runpy, no bash), in an
    interpreter started as an installed copy starts it: it recalls, and imports none of
    HEAVY (pathlib came with the kit's paths, importlib.util with the dependency check)."""
    env, _, _ = setting
    code = "from judgment_toolkit.claude.cli import console_main; console_main()"
    payload = {"tool_input": {"questions": [{"question": QUESTION, "header": "Queue", "options": [
        {"label": l, "description": ""} for l in ("Redis", "Postgres")]}]}}
    r = subprocess.run([env["HARNESS_PYTHON"], "-c", code, "hook", "ask-recall"],
                       input=json.dumps(payload), capture_output=True, text=True,
                       env=dict(env, PYTHONPATH=f"{ROOT / 'pylib'}:{env['PYTHONPATH']}",
                                PYTHONPROFILEIMPORTTIME="1"))
    names = {line.rsplit("|", 1)[1].strip() for line in r.stderr.splitlines()
             if line.startswith("import time:") and line.count("|") == 2}
    assert "updatedInput" in r.stdout  # it recalled
    assert "runpy" not in names and J + "inject" in names
    assert sorted(names & HEAVY) == []


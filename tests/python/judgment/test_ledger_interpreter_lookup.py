"""Skeleton: one interpreter lookup (HARNESS_PYTHON, else .venv/bin/python, else python3), and what
happens when that Python lacks the project's dependencies."""
import os
import subprocess

import pytest

from ledger_helpers import (ROOT, append_args, card, hermetic_env, ledger, nodeps_python,  # noqa: F401
                            write_card)

from judgment_toolkit.judgment import deps


def test_harness_python_is_the_interpreter_used(tmp_path):
    spy = tmp_path / "python"
    spy.write_text(f'#!/bin/sh\necho "$0 $*" > {tmp_path}/argv\nexit 0\n')
    spy.chmod(0o755)
    env = hermetic_env(tmp_path, HARNESS_PYTHON=spy)
    assert card("validate", "c.json", env=env).returncode == 0
    assert (tmp_path / "argv").read_text() == f"{spy} -m judgment_toolkit.judgment.jobs card-validate c.json\n"


def lookup(env):
    r = subprocess.run(["bash", "-c", 'source "$1"; harness_python', "bash", str(ROOT / "scripts" / "lib" / "py.sh")],
                       env=env, capture_output=True, text=True, check=True)
    return r.stdout.strip()


def test_lookup_order(tmp_path):
    env = hermetic_env(tmp_path)
    venv = ROOT / ".venv" / "bin" / "python"
    assert lookup(env) == (str(venv) if os.access(venv, os.X_OK) else "python3")
    assert lookup(dict(env, HARNESS_PYTHON="/opt/py")) == "/opt/py"


@pytest.mark.parametrize("write,skipped", [("append", "judgment-ledger: append skipped"),
                                           ("record-answer", "judgment-card: record skipped")])
def test_a_write_without_dependencies_is_skipped_naming_them(tmp_path, nodeps_python, write,
                                                             skipped):
    """Judgment Ledger v1, section 'Fail-Open': both writes of a judgment flow; an interpreter
    without the dependencies is the installation's fault, not the caller's."""
    env = hermetic_env(tmp_path, HARNESS_PYTHON=nodeps_python, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl")
    if write == "append":
        r = ledger(*append_args(), env=env)
    else:
        r = card("record-answer", str(write_card(tmp_path / "card.json")), "--answer", "redis",
                 "--why", "w", "--project", "p", "--session", "s", env=env)
    assert r.returncode == 0 and r.stdout == ""
    [line] = r.stderr.splitlines()
    assert line.startswith(f"{skipped} (missing Python dependencies: jsonschema, python-ulid in ")
    assert "bash scripts/setup.sh" in line
    assert not (tmp_path / "l.jsonl").exists()


@pytest.mark.parametrize("script,args", [
    ("ledger", ["search", "--project", "demo", "--query", "q"]),
    ("ledger", ["recall", "--project", "demo", "--question", "q"]),
    ("card", ["validate", "CARD"]),
    ("card", ["recall", "CARD", "--project", "p"]),
])
def test_other_commands_exit_1_saying_how_to_install(tmp_path, nodeps_python, script, args):
    path = write_card(tmp_path / "card.json")
    env = hermetic_env(tmp_path, HARNESS_PYTHON=nodeps_python, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl")
    run = ledger if script == "ledger" else card
    r = run(*[str(path) if a == "CARD" else a for a in args], env=env)
    assert r.returncode == 1 and r.stdout == ""
    [line] = r.stderr.splitlines()
    assert "missing Python dependencies (jsonschema, python-ulid)" in line
    assert "run bash scripts/setup.sh" in line and "pip install jsonschema python-ulid" in line


def test_should_issue_needs_no_dependencies(tmp_path, nodeps_python):
    # should-issue imports neither jsonschema nor ulid, so a hook running a bare Python still
    # sees HARD_STOP (exit 2) rather than an install hint that would look like NO_CARD.
    env = hermetic_env(tmp_path, HARNESS_PYTHON=nodeps_python)
    r = card("should-issue", "--reason", "tradeoff", "--floor-category", "security", env=env)
    assert (r.returncode, r.stdout, r.stderr) == (2, "HARD_STOP: floor (security)\n", "")
    r = card("should-issue", "--reason", "tradeoff", env=env)
    assert (r.returncode, r.stdout, r.stderr) == (0, "ISSUE_CARD\n", "")


def test_missing_interpreter_for_other_commands(tmp_path):
    env = hermetic_env(tmp_path, HARNESS_PYTHON=tmp_path / "nope")
    for run, args in [(ledger, ["search", "--project", "d", "--query", "q"]),
                      (card, ["validate", "c.json"])]:
        r = run(*args, env=env)
        assert r.returncode == 1 and "Python interpreter not found" in r.stderr and "setup.sh" in r.stderr


def test_deps_module_reports_nothing_missing_here():
    assert deps.missing() == []
    assert set(deps.REQUIRED.values()) == {"jsonschema", "python-ulid"}


@pytest.mark.parametrize("name", ["json", "snowballstemmer", "jsonschema", "ulid",
                                  "judgment_toolkit", "no_such_module_here", "sys"])
def test_find_spec_finds_what_importlib_finds(name):
    """deps.find_spec, which asks the import system's finders itself so that a hook does not
    import importlib.util, finds a top-level module where importlib.util.find_spec does (the
    editable install's finder included), and nothing where it finds nothing."""
    import importlib.util
    mine, theirs = deps.find_spec(name), importlib.util.find_spec(name)
    assert (mine is None) == (theirs is None)
    if theirs is not None:
        assert (mine.name, mine.origin) == (theirs.name, theirs.origin)


def test_find_spec_does_not_import_the_module(tmp_path):
    """In an interpreter started as an installed copy starts it (no editable finder, which
    imports importlib.util at every start and would hide it)."""
    from imports.test_ledger_imports import plain_python
    python, env = plain_python(tmp_path)
    code = ("import sys\nfrom judgment_toolkit.judgment import deps\n"
            "spec = deps.find_spec('jsonschema')\n"
            "print(spec is not None, 'jsonschema' in sys.modules, 'importlib.util' in sys.modules)")
    r = subprocess.run([python, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=f"{ROOT / 'pylib'}:{env['PYTHONPATH']}"))
    assert r.stdout.split() == ["True", "False", "False"], r.stderr

"""What a decision-history call imports, counted by module name (never timed): the start-up
cost of `ha history <goal> current|list|show|add` is mostly imports (docs/internals.md, "Rooms
of the decision history"; bench/history.py measures the time). A heavy module on the hot path,
or a room a call does not need, fails here."""
import os
import subprocess
import sys

import pytest

from conftest import GIT_ENV, GOAL, ROOT, ha

# Imported by none of the four calls: each costs start-up time and a plain class, a tuple or
# a lazy import does the job (hmac only checks a cursor given back: cursor._decode).
HEAVY = {"dataclasses", "inspect", "typing", "ast", "dis", "tokenize", "argparse", "email",
         "urllib", "tempfile", "shutil", "datetime", "uuid", "importlib.metadata", "decimal",
         "textwrap", "logging", "asyncio", "socket", "ssl", "sqlite3", "unittest", "pydoc",
         "hmac", "zipfile", "pickle", "random", "statistics", "fractions", "ulid"}
# Modules a call may import beyond a bare interpreter's: the figures of this checkout (71 for a
# view, 59 for add; 91 and 76 before the rooms were split and dataclasses left) plus a
# small margin, so that one new heavy package (which brings many modules) fails.
BUDGET = {"current": 75, "list": 75, "show": 75, "add": 63}
VIEWS = "judgment_toolkit.ha.history.views"
REGISTER = "judgment_toolkit.ha.history.register"
# The rooms a call never enters (docs/internals.md, "Rooms of the decision history").
NOT_FOR = {
    "current": {f"{REGISTER}.add", f"{REGISTER}.addcli", f"{VIEWS}.graph",
                "judgment_toolkit.ha.history.store.writer",
                "judgment_toolkit.ha.history.store.indexwrite",
                "judgment_toolkit.ha.history.store.chaincheck"},
    "add": {f"{VIEWS}.{m}" for m in ("viewcli", "viewrun", "facts", "pointfacts", "views",
                                     "render", "cursor", "graph", "query")},
}
NOT_FOR["list"] = NOT_FOR["show"] = NOT_FOR["current"]

PROBE = """import sys
before = set(sys.modules)
from judgment_toolkit.ha import cli
code = cli.main(sys.argv[1:])
sys.stdout.flush()
sys.stderr.write("\\0" + " ".join(sorted(set(sys.modules) - before)) + "\\n")
"""


def _imports(repo, *argv) -> set:
    """The modules a real `ha` process imports for argv, beyond the interpreter's own."""
    env = dict(os.environ, **GIT_ENV, PYTHONPATH=str(ROOT / "pylib"))
    p = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=repo, env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "\0" in p.stderr, p.stderr
    return set(p.stderr.rpartition("\0")[2].split())


@pytest.fixture
def history(repo, goal):
    """A started goal with three events (D3 builds on D1)."""
    for argv in (("start", goal, "--request", "빈 입력 처리"), ("check", goal, "AC-1")):
        assert ha(*argv, cwd=repo).returncode == 0
    for extra in ((), ("--target", "AC-1"), ("--builds-on", "D1")):
        p = ha("history", goal, "add", "--kind", "관측", "--summary", "s", *extra, cwd=repo)
        assert p.returncode == 0, p.stderr
    return repo


CALLS = {"current": ("current",), "list": ("list",), "show": ("show", "D1"),
         "add": ("add", "--kind", "관측", "--summary", "counted", "--ref", "run:2")}


@pytest.mark.parametrize("call", sorted(CALLS))
def test_a_history_call_imports_no_heavy_module_and_stays_in_its_rooms(history, call):
    got = _imports(history, "history", GOAL, *CALLS[call])
    heavy = sorted(m for m in got if m.split(".")[0] in HEAVY or m in HEAVY)
    assert heavy == [], f"{call} imports {heavy}"
    assert sorted(got & NOT_FOR[call]) == []
    assert len(got) <= BUDGET[call], (len(got), sorted(got))


def test_the_probe_sees_an_import(history):
    """The probe is the real command: a view imports the view room, an add the writer."""
    assert f"{VIEWS}.facts" in _imports(history, "history", GOAL, "current")
    assert "judgment_toolkit.ha.history.store.writer" in _imports(
        history, "history", GOAL, "add", "--kind", "관측", "--summary", "x")

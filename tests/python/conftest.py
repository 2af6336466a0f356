"""Shared fixtures: real git repositories, real goal folders, the real `ha` entry point.

Every test that needs a repository gets a fresh one under tmp_path; nothing is mocked.

How the tests run (docs/internals.md, "Tests: how they run"):
- In parallel: `scripts/test.sh` runs pytest with pytest-xdist, one worker per core, each a
  process of its own; `--dist worksteal` splits the tests between the workers and an idle
  worker takes half of another's queue, so no fixed order. So a test writes only
  under its tmp_path (or tmp_path_factory), sets HOME (and PIPX_HOME, ...) to a folder there
  when the code under test writes to ~, binds port 0 and reads the port back, and never
  depends on another test having run. A module- or session-scoped fixture may be made once per
  worker; one that is costly (a wheel, a venv) is made once per run with builds.build_once.
- Shared builds (builds.py, re-exported below): `source`, `wheel`, `installed` (the wheel in a
  fresh venv), `mcp_venv` (with the mcp extra), `fresh_source` (a copy for one test). Reuse
  them rather than building another wheel or venv; treat them as read-only.
- Markers: `slow` (a build, a venv, pipx, a browser, seconds of real waiting) and `e2e` (a real
  client: Claude Code, the MCP Inspector, a model) are left out of `scripts/test.sh --quick`.
  A test that asks for a shared build is marked slow here on its own, and so is each test named
  in slow_tests.txt, the list a full run with `--costs --costs-slow-list` writes, unless it is
  marked `quick`: the one test that reaches a module no other quick test reaches. Slow and e2e tests are
  put first, so the longest ones start early and the last ones stolen are short.
- `--costs` (costs.py; `scripts/test.sh --durations`) counts each test's process starts,
  sleeps and timeouts, and prints the costliest files.
"""
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"
FIXTURE_GOAL = ROOT / "tests" / "fixtures" / "goals" / "empty-input"

GOAL = "docs/specs/empty-input"  # where the fixture goal is copied in every test repository

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(cwd, *args, check=True):
    env = dict(os.environ, **GIT_ENV)
    return subprocess.run(["git", "-C", str(cwd), *args], check=check, env=env,
                          capture_output=True, text=True)


def run_script(name, *args, cwd=None, env=None, input=None, timeout=None):
    """Run scripts/<name> as a user would; returns CompletedProcess with text output.
    `timeout` is only a safety net against a hang, never an assertion about speed."""
    full_env = dict(os.environ, **GIT_ENV)
    full_env.update(env or {})
    return subprocess.run([str(SCRIPTS / name), *map(str, args)], cwd=cwd, env=full_env,
                          input=input, capture_output=True, text=True, timeout=timeout)


def ha(*args, cwd, env=None, input=None, timeout=None):
    return run_script("ha", *args, cwd=cwd, env=env, input=input, timeout=timeout)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def runs_lines(repo, goal=GOAL) -> list:
    """The raw lines of the goal's run record, without their LF."""
    return (Path(repo) / goal / "runs.jsonl").read_bytes().split(b"\n")[:-1]


def start_key(repo, goal=GOAL) -> str:
    """The history store key: sha256 of the raw start line."""
    return sha(runs_lines(repo, goal)[0])


def git_common_dir(repo) -> Path:
    out = git(repo, "rev-parse", "--path-format=absolute", "--git-common-dir").stdout.strip()
    return Path(out)


def store_dir(repo, goal=GOAL) -> Path:
    return git_common_dir(repo) / "ha" / "history" / start_key(repo, goal)


@pytest.fixture
def repo(tmp_path):
    """A fresh git repository with one commit (README.md) and a src/ file."""
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "README.md").write_text("demo\n")
    (path / "src").mkdir()
    (path / "src" / "count.go").write_text("package count\n")
    git(path, "add", "-A")
    git(path, "commit", "-qm", "initial")
    return path


@pytest.fixture
def goal(repo):
    """The fixture goal copied to GOAL (docs/specs/empty-input) and committed (not started)."""
    shutil.copytree(FIXTURE_GOAL, repo / GOAL)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal")
    return GOAL


# -- `--costs`: where the time goes (tests/python/costs.py; accounting only) -------------------
import costs as _costs  # noqa: E402


def pytest_addoption(parser):
    _costs.addoption(parser)


def pytest_configure(config):
    _costs.configure(config)


# The fixtures whose tests are slow whatever their own marker says (builds.py).
SLOW_FIXTURES = {"source", "wheel", "installed", "mcp_venv", "fresh_source"}
# The tests that drive a real client nobody here wrote (Claude Code, the MCP Inspector) or a
# remote and its clones: end to end, whatever their own marker says.
E2E_PLACES = ("e2e/", "plugin/", "team/", "mcp/test_inspector.py")


def pytest_collection_modifyitems(config, items):
    """Marks the tests of shared builds slow; hands out slow and e2e tests first (a stable sort,
    the same on every xdist worker, so the workers agree on the order)."""
    listed = _costs.read_slow_list(Path(__file__).with_name("slow_tests.txt"))
    for item in items:
        if item.nodeid.startswith(tuple(f"tests/python/{p}" for p in E2E_PLACES)) or \
                item.nodeid.startswith(E2E_PLACES):
            item.add_marker(pytest.mark.e2e)
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())) or (
                item.nodeid in listed and not item.get_closest_marker("quick")):
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: not (item.get_closest_marker("slow")
                                     or item.get_closest_marker("e2e")))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _costs.runtest_protocol_start(item)
    yield
    _costs.runtest_protocol_end()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    _costs.makereport(item, call, outcome.get_result())


def pytest_runtest_logreport(report):
    _costs.logreport(_config, report)


def pytest_sessionstart(session):
    global _config
    _config = session.config


def pytest_terminal_summary(terminalreporter, config):
    _costs.summary(config, terminalreporter)
    _costs.write_slow_list(config)


# -- builds shared by the whole run: source, wheel, installed, mcp_venv (tests/python/builds.py)
from builds import fresh_source, installed, mcp_venv, source, wheel  # noqa: E402,F401

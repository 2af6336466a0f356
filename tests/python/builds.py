"""Builds that many tests share, made once per test run (session fixtures, re-exported by
tests/python/conftest.py so every test can ask for them by name):

  source      a copy of what a source distribution holds (never the checkout: building writes)
  wheel       the wheel `pip wheel --no-deps` builds from `source`
  installed   the bin/ folder of a fresh venv holding the wheel and its runtime dependencies only
  mcp_venv    the bin/ folder of a fresh venv holding the wheel with its `mcp` extra

Treat them as read-only: a test that installs into a venv, or builds from a source tree (pip
writes build/ and *.egg-info into it), makes its own (`fresh_source`, `make_venv`).

Under pytest-xdist every worker is its own process with its own session, so a build is made in
the folder all workers of one run share (the parent of their base temp folders), under a file
lock: the first worker builds, the others wait for it and reuse the result. Without xdist the
run's own base temp folder serves. docs/internals.md, "Tests: how they run".
"""
import fcntl
import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 600  # a safety net for pip and pipx, never an assertion


def sh(*argv, check=True, **kw):
    r = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=TIMEOUT,
                       **kw)
    if check and r.returncode != 0:
        raise AssertionError(f"{argv} exited {r.returncode}:\n{r.stdout}\n{r.stderr}")
    return r


def make_venv(path):
    sh(sys.executable, "-m", "venv", path)
    return Path(path) / "bin"


def copy_source(dest: Path) -> Path:
    """What a source distribution holds, copied to dest (created)."""
    dest.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    for folder in ("pylib", "templates", "scripts"):
        shutil.copytree(ROOT / folder, dest / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    return dest


def shared_root(tmp_path_factory) -> Path:
    """The folder every xdist worker of this run sees; the base temp folder without xdist."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextmanager
def _locked(path: Path):
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def build_once(tmp_path_factory, name: str, build) -> Path:
    """build(folder) fills a new folder and returns a path in it; made once per run, whichever
    worker comes first, and the same path handed to every caller. A failed build is not kept:
    the next caller tries again (and fails the same way, with its own error)."""
    root = shared_root(tmp_path_factory) / "shared-builds"
    root.mkdir(exist_ok=True)
    done = root / f"{name}.done"
    with _locked(root / f"{name}.lock"):
        if done.exists():
            return Path(done.read_text(encoding="utf-8"))
        folder = root / name
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        result = Path(build(folder))
        done.write_text(str(result), encoding="utf-8")
        return result


@pytest.fixture(scope="session")
def source(tmp_path_factory):
    """A copy of what a source distribution holds, so building never writes into the checkout."""
    return build_once(tmp_path_factory, "source",
                      lambda folder: copy_source(folder / "judgment-toolkit"))


@pytest.fixture
def fresh_source(tmp_path):
    """A copy of the source of this test's own, for `pip install .` and `pipx install .`."""
    return copy_source(tmp_path / "src" / "judgment-toolkit")


@pytest.fixture(scope="session")
def wheel(source, tmp_path_factory):
    def build(out):
        sh(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", out, source)
        [built] = Path(out).glob("judgment_toolkit-*.whl")
        return built
    return build_once(tmp_path_factory, "wheel", build)


@pytest.fixture(scope="session")
def installed(wheel, tmp_path_factory):
    """A fresh venv with the wheel and its runtime dependencies only; its bin/ folder."""
    def build(folder):
        bin_dir = make_venv(Path(folder) / "v")
        sh(bin_dir / "python", "-m", "pip", "install", "--quiet", wheel)
        return bin_dir
    return build_once(tmp_path_factory, "installed", build)


@pytest.fixture(scope="session")
def mcp_venv(wheel, tmp_path_factory):
    """A fresh venv with the wheel and its `mcp` extra; its bin/ folder."""
    def build(folder):
        bin_dir = make_venv(Path(folder) / "v")
        sh(bin_dir / "python", "-m", "pip", "install", "--quiet", f"{wheel}[mcp]")
        return bin_dir
    return build_once(tmp_path_factory, "mcp_venv", build)

"""No help text points at a file the installed package does not carry.

An installed user (wheel, pipx) has no checkout: a `--help` that says "see docs/history.md"
sends them nowhere. Every help text, as the real entry points print it, is scanned for paths;
each one that names a file of this repository (tracked by git) or anything under docs/ or a
README must be a file of the wheel built from this source. Paths of the user's own files
(`<goal>/SPEC.md`, `.claude/state/...`) name no file of the repository and pass."""
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import GIT_ENV, ROOT, SCRIPTS

# `wheel` is the session's shared build (tests/python/builds.py), the one the install tests use.

HELP_DIR = ROOT / "scripts" / "lib" / "help"
BIN = Path(sys.executable).parent
PATH = re.compile(r"(?<![\w<>./-])((?:[\w.-]+/)+[\w.-]+\.\w+|[\w.-]+\.md)(?![\w/])")


def _subcommands(tool: str) -> list:
    return sorted(p.stem[len(tool) + 1:] for p in HELP_DIR.glob(f"{tool}-*.txt"))


HELP_CALLS = (
    [["ha"], *[["ha", c] for c in ("capabilities", "new", "start", "check", "status")],
     ["ha", "history"],
     *[["ha", "history", "g", v] for v in ("add", "current", "list", "show", "graph", "verify")]]
    + [[tool, *sub] for tool in ("judgment-ledger", "judgment-card")
       for sub in [[], *[[s] for s in _subcommands(tool)]]]
    + [["judgment-kit"], ["judgment-mcp"]])


def _help(argv, cwd) -> str:
    tool, rest = argv[0], argv[1:]
    exe = SCRIPTS / tool if tool == "ha" else SCRIPTS / f"{tool}.sh"
    if not exe.exists():
        exe = BIN / tool  # the console scripts of the test venv
    r = subprocess.run([str(exe), *rest, "--help"], cwd=cwd, capture_output=True, text=True,
                       env=dict(os.environ, **GIT_ENV), timeout=60)
    assert r.returncode == 0 and r.stdout, (argv, r.returncode, r.stderr)
    return r.stdout


def _tracked() -> set:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    return set(out.stdout.decode("utf-8", "surrogateescape").split("\0")) - {""}


def named_files(text: str, tracked: set) -> set:
    """The paths in a help text that name a file of the repository (or docs, a README)."""
    return {m for m in PATH.findall(text)
            if m in tracked or m.startswith("docs/") or m.split("/")[-1].startswith("README")}


def test_the_path_scanner_finds_what_a_pointer_looks_like():
    tracked = {"docs/history.md", "templates/goal/SPEC.md", "README.md"}
    text = ("prints one line; see docs/history.md\nSee docs/history-graph.md\nedit "
            "<goal>/SPEC.md and .claude/state/judgment-ledger.jsonl; decision-history/v1, "
            "run-rules/3; templates/goal/SPEC.md; README.md.")
    assert named_files(text, tracked) == {"docs/history.md", "docs/history-graph.md",
                                          "templates/goal/SPEC.md", "README.md"}


@pytest.fixture(scope="module")
def helps(tmp_path_factory):
    cwd = tmp_path_factory.mktemp("nowhere")  # no repository: help answers anywhere
    return {" ".join(argv): _help(argv, cwd) for argv in HELP_CALLS}


def test_every_help_text_names_only_files_the_wheel_carries(helps, wheel):
    with zipfile.ZipFile(wheel) as z:
        members = z.namelist()
    tracked = _tracked()
    missing = {}
    for call, text in helps.items():
        for path in named_files(text, tracked):
            if not any(m == path or m.endswith("/" + path) for m in members):
                missing.setdefault(call, []).append(path)
    assert not missing, f"help texts point at files an installed user lacks: {missing}"
    assert len(helps) >= 20 and all(t.startswith("usage") for t in helps.values())

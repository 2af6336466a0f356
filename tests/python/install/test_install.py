"""Issue 9, Install: the toolkit as a new user gets it, with no checkout and no PYTHONPATH.

A wheel is built from a copy of the source (`pip wheel --no-deps`), installed into a fresh venv
that gets the runtime dependencies only, and the three console scripts are run from a folder
outside the checkout: append, search, recall, card validate, record-answer, `ha capabilities`,
`ha start`, `ha history <goal> add/current`. Every stderr must be empty: a packaged file that
is missing (a schema) shows up here, never as a fail-open warning. The console scripts must
answer exactly as scripts/*.sh do (same stdout, stderr and exit code, fail-open included).
`pip install .` and `pipx install .` (pipx from the test set-up; temp PIPX_HOME/PIPX_BIN_DIR)
must give the same three commands, each from a source copy of its own (pip writes build/ into
it). pip's cache is left at its default so reruns are quick.
"""
import json
import os
import shutil
import sys
import zipfile
from pathlib import Path

import pytest

from builds import make_venv, sh

ROOT = Path(__file__).resolve().parents[3]
SCRIPTS = ROOT / "scripts"
FIXTURE_GOAL = ROOT / "tests" / "fixtures" / "goals" / "empty-input"
TOOLS = ("judgment-ledger", "judgment-card", "ha")
CARD = json.loads((ROOT / "tests" / "fixtures" / "cards" / "queue.json").read_text(encoding="utf-8"))


def user_env(tmp, **extra):
    """A user's environment: no PYTHONPATH, no HARNESS_* of the developer, a fresh HOME."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HARNESS_", "PYTEST_", "PYTHON", "VIRTUAL_ENV", "PIPX_"))}
    home = Path(tmp) / "home"
    home.mkdir(exist_ok=True)
    env.update(HOME=str(home), GIT_AUTHOR_NAME="U", GIT_AUTHOR_EMAIL="u@example.invalid",
               GIT_COMMITTER_NAME="U", GIT_COMMITTER_EMAIL="u@example.invalid",
               GIT_CONFIG_NOSYSTEM="1")
    env.update({k: str(v) for k, v in extra.items()})
    return env


# source, wheel and installed are the session's shared builds (tests/python/builds.py).


def test_the_wheel_holds_one_package_the_schemas_and_three_scripts(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        entry_points = z.read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
        metadata = z.read(next(n for n in names if n.endswith("/METADATA"))).decode()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"judgment_toolkit", wheel.name.split("-py")[0] + ".dist-info",
                    wheel.name.split("-py")[0] + ".data"}
    for schema in ("judgment-ledger.v1", "judgment-card.v1", "decision-history-v1",
                   "decision-receipt-v1"):
        assert f"judgment_toolkit/templates/schemas/{schema}.json" in names
    assert "judgment_toolkit/templates/lexicon.txt" in names  # the relevance ranking's lexicon
    assert "ha = judgment_toolkit.ha.cli:console_main" in entry_points
    assert "judgment-ledger" not in entry_points  # no second parser: the Bash scripts are it
    for tool in ("judgment-ledger", "judgment-card"):  # the launcher, and what it runs
        assert any(n.endswith(f".data/scripts/{tool}") for n in names), tool
        assert f"judgment_toolkit/sh/{tool}.sh" in names
    for lib in ("lib/py.sh", "lib/cli.sh", "lib/help/judgment-ledger-append.txt"):
        assert f"judgment_toolkit/sh/{lib}" in names
    requires = sorted(line.split(":", 1)[1].strip() for line in metadata.splitlines()
                      if line.startswith("Requires-Dist:") and "extra ==" not in line)
    assert requires == ["jsonschema>=4", "python-ulid>=2", "snowballstemmer>=2.2"]


def test_pyproject_lists_every_package_under_pylib_and_maps_templates():
    """find cannot see the mapped templates/ folder, so pyproject lists the packages; a package
    added under pylib/ and not listed would be left out of the wheel."""
    import tomllib
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    under_pylib = {str(p.parent.relative_to(ROOT / "pylib")).replace(os.sep, ".")
                   for p in (ROOT / "pylib").rglob("__init__.py")}
    assert set(config["packages"]) == under_pylib | {"judgment_toolkit.templates",
                                                     "judgment_toolkit.sh"}
    assert config["package-dir"] == {"": "pylib", "judgment_toolkit.templates": "templates",
                                     "judgment_toolkit.sh": "scripts"}


def test_templates_has_one_copy_in_the_repository():
    """Ledger v1 names templates/schemas/judgment-ledger.v1.json; no second copy of any packaged
    file stands anywhere else in the checkout (generated folders included)."""
    packaged = {p.name: p.read_bytes() for p in (ROOT / "templates").rglob("*") if p.is_file()}
    assert {"judgment-ledger.v1.json", "judgment-card.v1.json", "card.html", "lexicon.txt"} <= set(packaged)
    skip = {".git", ".venv", "node_modules", "build"}  # build/: setuptools' staging of `pip install .`
    elsewhere = [p for p in ROOT.rglob("*") if p.is_file() and p.name in packaged
                 and not skip & set(p.relative_to(ROOT).parts)
                 and p.relative_to(ROOT).parts[0] != "templates"
                 and p.read_bytes() == packaged[p.name]]  # same name and content: a copy
    assert elsewhere == []


def test_site_packages_has_no_bare_ha_or_judgment(installed):
    site = Path(sh(installed / "python", "-c",
                   "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    names = {p.name for p in site.iterdir()}
    assert "judgment_toolkit" in names
    assert not names & {"ha", "judgment", "ha.py", "judgment.py", "templates"}
    listed = sh(installed / "python", "-m", "pip", "list", "--format=json").stdout
    packages = {p["name"].lower() for p in json.loads(listed)}
    assert "pytest" not in packages and "pipx" not in packages  # runtime dependencies only
    assert {"jsonschema", "python-ulid", "snowballstemmer", "judgment-toolkit"} <= packages


def new_user_session(bin_dir, tmp):
    """The first things a new user runs, from a folder outside the checkout."""
    work = Path(tmp) / "work"
    work.mkdir()
    (work / "card.json").write_text(json.dumps(CARD), encoding="utf-8")
    env = user_env(tmp, HARNESS_JUDGMENT_LEDGER=work / "ledger.jsonl")
    ledger, card, ha = (str(bin_dir / t) for t in TOOLS)

    def ok(*argv, cwd=work):
        r = sh(*argv, cwd=cwd, env=env, check=False)
        assert (r.returncode, r.stderr) == (0, ""), (argv, r.returncode, r.stderr)
        return r.stdout

    ok(card, "validate", "card.json")
    out = json.loads(ok(card, "record-answer", "card.json", "--answer", "postgres", "--why",
                        "no new service", "--project", "shop", "--session", "s1", "--json"))
    assert out["ledger"]["answer"] == "postgres" and out["harness_mem"] == "not_configured"
    rec = json.loads(ok(ledger, "append", "--project", "shop", "--question",
                        "Keep the CSV export?", "--answer", "yes", "--card-ref", "c.json",
                        "--json"))
    found = [json.loads(line) for line in ok(ledger, "search", "--project", "shop", "--query",
                                             "csv export").splitlines()]
    assert found == [rec]
    # relevance: "내보내기" (export) reaches the English record through the packaged lexicon
    assert [json.loads(line) for line in ok(ledger, "search", "--project", "shop", "--query",
                                            "내보내기를 유지할까요", "--rank", "relevance"
                                            ).splitlines()] == [rec]
    items = json.loads(ok(ledger, "recall", "--project", "shop", "--question", CARD["question"]))
    assert items[0]["mem_id"] == "judgment-ledger:" + out["ledger"]["id"]
    assert json.loads(ok(card, "recall", "card.json", "--project", "shop"))[
        "similar_past_decisions"] == items
    assert json.loads(ok(ha, "capabilities"))["features"] == ["decision-history/v1"]

    repo = work / "repo"
    shutil.copytree(FIXTURE_GOAL, repo / "docs" / "specs" / "empty-input")
    for argv in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "goal"]):
        sh("git", *argv, cwd=repo, env=env)
    goal = "docs/specs/empty-input"
    assert ok(ha, "start", goal, "--request", "빈 입력", cwd=repo).startswith("started: seq 1")
    receipt = json.loads(ok(ha, "history", goal, "add", "--kind", "결정", "--summary",
                            "빈 입력이면 0", "--request-id", "d-1", cwd=repo))
    assert (receipt["schema"], receipt["id"]) == ("decision-receipt/v1", "D1")
    assert "- D1 · 결정 · 빈 입력이면 0" in ok(ha, "history", goal, "current", cwd=repo)
    for tool in TOOLS:
        assert ok(str(bin_dir / tool), "--help").startswith(f"usage: {tool} ")


def test_the_wheel_works_without_a_checkout(installed, tmp_path):
    new_user_session(installed, tmp_path)


CALLS = [  # (tool, argv, extra env): representative calls, fail-open and usage errors included
    ("judgment-ledger", ["--help"], {}),
    ("judgment-ledger", ["append", "-h"], {}),
    ("judgment-ledger", ["frob"], {}),
    ("judgment-ledger", ["append", "--project", "p", "--question", "q", "--answer", "a"], {}),
    ("judgment-ledger", ["append", "--project", "p", "--question", "q", "--answer", "a",
                         "--card-ref", "c"], {"HARNESS_JUDGMENT_LEDGER": "/dev/full"}),
    ("judgment-ledger", ["append", "--project", "p", "--question", "q", "--answer", "a",
                         "--card-ref", "c", "--id", "x-1"], {}),
    ("judgment-ledger", ["search", "--project", "p", "--query", "q"], {}),
    ("judgment-ledger", ["search", "--project", "p", "--query", "q", "--limit", "0"], {}),
    ("judgment-ledger", ["recall", "--project", "p", "--question", "q"],
     {"HARNESS_JUDGMENT_LEDGER": "/dev/zero"}),
    ("judgment-card", ["should-issue", "--reason", "style"], {}),
    ("judgment-card", ["should-issue", "--reason", "tradeoff", "--floor-category", "sec"], {}),
    ("judgment-card", ["should-issue"], {}),
    ("judgment-card", ["validate", "card.json"], {}),
    ("judgment-card", ["validate", "missing.json"], {}),
    ("judgment-card", ["recall", "card.json", "--project", "p"], {}),
    ("ha", ["--help"], {}),
    ("ha", [], {}),
    ("ha", ["capabilities"], {}),
    ("ha", ["history", "--help"], {}),
    ("ha", ["status", "nowhere"], {}),
]


def test_console_scripts_answer_exactly_as_the_scripts(installed, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "card.json").write_text(json.dumps(CARD), encoding="utf-8")
    ledger = work / "ledger.jsonl"
    ledger.write_text(json.dumps({"id": "x-1", "project": "p", "decided_at":
                                  "2026-01-01T00:00:00Z", "question": "q", "answer": "a",
                                  "rationale": "", "card_ref": "c", "tags": []}) + "\n")
    for tool, argv, extra in CALLS:
        env = user_env(tmp_path, **{"HARNESS_JUDGMENT_LEDGER": ledger, **extra})
        script = SCRIPTS / (tool if tool == "ha" else tool + ".sh")
        a = sh(installed / tool, *argv, cwd=work, env=env, check=False)
        b = sh(script, *argv, cwd=work, env=env, check=False)
        assert (a.returncode, a.stdout, a.stderr) == (b.returncode, b.stdout, b.stderr), \
            (tool, argv)
    assert len(ledger.read_text().splitlines()) == 1  # the --id retry wrote nothing, twice


def test_pip_install_dot(fresh_source, tmp_path):
    bin_dir = make_venv(tmp_path / "v")
    sh(bin_dir / "python", "-m", "pip", "install", "--quiet", fresh_source)
    new_user_session(bin_dir, tmp_path)


def test_pipx_install_dot(fresh_source, tmp_path):
    pipx = Path(sys.executable).parent / "pipx"
    if not pipx.exists():
        pytest.fail("pipx is missing from the test venv: run bash scripts/setup.sh")
    env = user_env(tmp_path, PIPX_HOME=tmp_path / "pipx-home", PIPX_BIN_DIR=tmp_path / "bin",
                   PIPX_MAN_DIR=tmp_path / "man", PIPX_DEFAULT_PYTHON=sys.executable)
    sh(pipx, "install", fresh_source, env=env, cwd=tmp_path)
    for tool in TOOLS:
        assert (tmp_path / "bin" / tool).exists(), tool
    new_user_session(tmp_path / "bin", tmp_path)


def counting_copy(bin_dir, tmp):
    """The installed launcher, byte for byte, in a venv-shaped folder whose `python` logs each
    start and then runs the installed interpreter: what the launcher finds next to itself is
    what it runs, so the log holds every interpreter start of a call."""
    root = Path(tmp) / "counted"
    (root / "bin").mkdir(parents=True)
    (root / "lib").symlink_to(bin_dir.parent / "lib")
    log = Path(tmp) / "starts"
    py = root / "bin" / "python"
    py.write_text(f'#!/bin/sh\necho "$*" >>"{log}"\nexec "{bin_dir / "python"}" "$@"\n')
    py.chmod(0o755)
    for tool in ("judgment-ledger", "judgment-card"):
        shutil.copy2(bin_dir / tool, root / "bin" / tool, follow_symlinks=True)
    return root / "bin", log


STARTS = [  # (tool, argv, interpreter starts): one per entry point a call runs
    ("judgment-ledger", ["--help"], 0),
    ("judgment-ledger", ["append", "--nope", "x"], 0),  # a usage error is Bash's alone
    ("judgment-card", ["should-issue", "--reason", "tradeoff"], 0),
    ("judgment-ledger", ["append", "--project", "p", "--question", "q", "--answer", "a",
                         "--card-ref", "c"], 1),
    ("judgment-ledger", ["search", "--project", "p", "--query", "q"], 1),
    ("judgment-ledger", ["recall", "--project", "p", "--question", "q"], 1),
    ("judgment-ledger", ["prime", "--project", "p"], 1),
    ("judgment-card", ["validate", "card.json"], 1),
    ("judgment-card", ["recall", "card.json", "--project", "p"], 1),
    # the contract's wiring: the card step, then `judgment-ledger.sh append` (its own start)
    ("judgment-card", ["record-answer", "card.json", "--answer", "postgres", "--why", "w",
                       "--project", "p", "--session", "s"], 2),
]


def test_an_installed_call_starts_one_interpreter_per_entry_point(installed, tmp_path):
    """The cost rule in docs/internals.md, "Two layers": the launcher starts no Python of its
    own, so an installed call starts what the checkout script starts."""
    bin_dir, log = counting_copy(installed, tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    (work / "card.json").write_text(json.dumps(CARD), encoding="utf-8")
    env = user_env(tmp_path, HARNESS_JUDGMENT_LEDGER=work / "ledger.jsonl")
    checkout_env = dict(env, HARNESS_PYTHON=str(bin_dir / "python"))
    for command, run_env in ((lambda tool: bin_dir / tool, env),
                             (lambda tool: SCRIPTS / f"{tool}.sh", checkout_env)):
        for tool, argv, starts in STARTS:
            log.write_text("")
            r = sh(command(tool), *argv, cwd=work, env=run_env, check=False)
            assert r.returncode in (0, 1) and "skipped" not in r.stderr, (argv, r.stderr)
            lines = log.read_text().splitlines()
            assert len(lines) == starts, (command(tool), argv, lines)
            assert all(line.startswith("-m judgment_toolkit.judgment.jobs ") for line in lines)
    assert len((work / "ledger.jsonl").read_text().splitlines()) == 4  # append + record-answer, twice

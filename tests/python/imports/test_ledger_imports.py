"""What a ledger read imports, counted as a user calls it: scripts/judgment-ledger.sh with
PYTHONPROFILEIMPORTTIME=1 (the environment form of `python -X importtime`), which the Python
job it starts inherits and answers with one stderr line per module it imports.

Interpreter start-up is most of a read's cost, so every module a read imports beyond a bare
`python -c pass` must be on the list below: a heavy import on the hot path (jsonschema, ulid,
dataclasses, inspect, datetime, uuid, pathlib, importlib.util, the relevance ranking in match
mode ...) fails here, by name, whatever it costs on this machine (docs/judgment-ledger.md, "How
it works").

The interpreter is started as an installed copy starts it (`plain_python`): the checkout's
editable install puts a finder in site-packages that imports pathlib, fnmatch, urllib.parse and
importlib.util at every start, which would hide those imports from the count."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
LEDGER = ROOT / "scripts" / "judgment-ledger.sh"

J = "judgment_toolkit.judgment."
COMMON = {"judgment_toolkit", "judgment_toolkit.judgment", "judgment_toolkit.output",
          "judgment_toolkit.packaged", J + "deps", J + "exits", J + "jobs", J + "ledger", J + "lines",
          J + "place", J + "topk",
          "json", "json.decoder", "json.encoder", "json.scanner", "_json", "heapq", "_heapq",
          "runpy"}
# what each read may import on top of COMMON
READS = {
    "search": ({J + "search"}, ["search", "--project", "shop", "--query", "queue pick"]),
    "recall": ({J + "search", J + "recall"}, ["recall", "--project", "shop", "--question", "queue pick"]),
    "prime": ({J + "prime", "shlex"}, ["prime", "--project", "shop"]),
    "prime --json": ({J + "prime", "shlex"}, ["prime", "--project", "shop", "--json"]),
    "list": ({J + "browse", J + "prime", "shlex"}, ["list", "--project", "shop"]),
    "show": ({J + "browse"}, ["show", "id-3", "--project", "shop"]),
}


def plain_python(scratch):
    """(an interpreter, its environment): this one without `site` (-S), so no .pth file of the
    venv runs (the editable install's finder among them), with the venv's site-packages on
    PYTHONPATH for the dependencies; scripts/lib/py.sh puts pylib before it."""
    import sysconfig
    wrapper = scratch / "python"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -S "$@"\n')
    wrapper.chmod(0o755)
    return str(wrapper), {"PYTHONPATH": sysconfig.get_paths()["purelib"]}


# what any run of the toolkit imports beyond the start itself: `re` (and its enum, functools,
# collections ...), `runpy` for `python -m` (with importlib.util; an installed console script
# has none of it), `from __future__ import annotations`, errno
NEEDED = "re, runpy, __future__, errno"


def bare_start(env):
    """What every start of an installed copy imports, `site` and what it imports (os, stat,
    codecs, ...) without the .pth files that only a checkout's venv has, and NEEDED."""
    code, names = imported([sys.executable, "-S", "-c", f"import site, {NEEDED}"], env)
    assert code == 0 and "site" in names and "re" in names and "pathlib" not in names
    return names


def imported(argv, env):
    """The modules a run imports, from its importtime lines (stdout is discarded)."""
    r = subprocess.run(argv, env=dict(env, PYTHONPROFILEIMPORTTIME="1"), capture_output=True,
                       text=True)
    names = set()
    for line in r.stderr.splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            name = line.rsplit("|", 1)[1].strip()
            if name != "package":  # the header line
                names.add(name)
    return r.returncode, names


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("imports")
    path = scratch / "l.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for n in range(50):
            f.write(json.dumps({"id": f"id-{n}", "project": "shop" if n % 2 else "blog",
                                "decided_at": f"2026-01-{1 + n % 28:02d}T00:00:00Z",
                                "question": f"queue pick {n}", "answer": "a", "rationale": "",
                                "card_ref": "c", "tags": []}) + "\n")
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("HARNESS_", "PYTEST_"))}
    python, more = plain_python(scratch)
    environ.update(more, HARNESS_JUDGMENT_LEDGER=str(path), HOME=str(scratch),
                   HARNESS_PYTHON=python)
    return environ


@pytest.fixture(scope="module")
def bare(env):
    return bare_start(env)


@pytest.mark.parametrize("read", sorted(READS))
def test_a_read_imports_only_what_it_needs(env, bare, read):
    allowed, args = READS[read]
    code, names = imported([str(LEDGER), *args], env)
    assert code == 0
    assert J + "ledger" in names  # it really read
    extra = sorted(names - bare - COMMON - allowed)
    assert extra == [], f"{read} imports {extra}"


def test_the_count_sees_a_heavy_import_when_one_happens(env, bare, tmp_path):
    """Not blind: append validates, so it imports jsonschema, which no read may."""
    code, names = imported([str(LEDGER), "append", "--project", "shop", "--question", "q",
                            "--answer", "a", "--card-ref", "c"],
                           dict(env, HARNESS_JUDGMENT_LEDGER=str(tmp_path / "l.jsonl")))
    assert code == 0 and "jsonschema" in names - bare


def test_the_relevance_mode_loads_the_stemmer_only_when_chosen(env, bare):
    _, match = imported([str(LEDGER), "search", "--project", "shop", "--query", "queue"], env)
    _, relevance = imported([str(LEDGER), "search", "--project", "shop", "--query", "queue",
                             "--rank", "relevance"], env)
    assert "snowballstemmer.english_stemmer" in relevance
    assert not {n for n in match if n.startswith("snowballstemmer")}
    # the English stemmer alone, not the package's 30-odd languages
    assert "snowballstemmer.german_stemmer" not in relevance
    assert J + "rank" not in match and "jsonschema" not in relevance

"""The Python jobs behind the scripts (judgment.jobs): search and recall never import jsonschema or ulid (Python start-up is most of a call's cost),
and only the relevance ranking imports snowballstemmer and reads the lexicon (never append, search or
recall by default)."""
import json
import subprocess
import sys

import pytest

from ledger_helpers import PYLIB, hermetic_env, rec, write_records

PROBE = """
import json, sys
from judgment_toolkit.judgment import jobs
code = jobs.main(sys.argv[1:])
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("jsonschema", "ulid"))
stemmer = sorted(m for m in sys.modules if m.split(".")[0] in ("snowballstemmer", "Stemmer")
                 or m.endswith((".judgment.rank", ".judgment.lexicon")))
print(json.dumps({"code": code, "heavy": heavy, "stemmer": stemmer}), file=sys.stderr)
"""


def probe(tmp_path, *argv):
    env = hermetic_env(tmp_path, PYTHONPATH=PYLIB, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl")
    r = subprocess.run([sys.executable, "-c", PROBE, *argv], env=env, capture_output=True, text=True)
    return json.loads(r.stderr.splitlines()[-1]), r.stdout


@pytest.fixture
def ledger_file(tmp_path):
    write_records(tmp_path / "l.jsonl", [rec(n, question="queue pick") for n in range(5)])


@pytest.mark.parametrize("argv", [
    ["search", "demo", "queue", "3", "match"],
    ["search", "demo", "", "3", "match"],
    ["recall", "demo", "queue pick", "match"],
])
def test_read_paths_stay_light(tmp_path, ledger_file, argv):
    result, out = probe(tmp_path, *argv)
    assert result == {"code": 0, "heavy": [], "stemmer": []}
    assert out  # it really searched


@pytest.mark.parametrize("argv", [
    ["search", "demo", "queue", "3", "relevance"],
    ["recall", "demo", "queue pick", "relevance"],
])
def test_relevance_loads_the_stemmer_and_still_not_jsonschema(tmp_path, ledger_file, argv):
    """The probe sees the stemmer when it is loaded, so its absence above means something."""
    result, out = probe(tmp_path, *argv)
    assert result["code"] == 0 and result["heavy"] == []
    # only the English stemmer: the package's __init__, which loads all its languages, never runs
    assert "snowballstemmer.english_stemmer" in result["stemmer"]
    assert "snowballstemmer" not in result["stemmer"]
    assert "snowballstemmer.german_stemmer" not in result["stemmer"]
    assert "judgment_toolkit.judgment.lexicon" in result["stemmer"]
    assert out


def test_the_probe_sees_heavy_imports_when_they_happen(tmp_path):
    """The probe is not blind: append does import jsonschema."""
    result, _ = probe(tmp_path, "append", "0", "project", "demo", "question", "q",
                      "answer", "a", "card_ref", "c")
    assert result["code"] == 0 and "jsonschema" in result["heavy"]
    assert result["stemmer"] == []  # append never pays for the ranking

"""What recall for automatic injection imports (docs/judgment-ledger.md, "Recall for automatic
injection"): the PreToolUse hook imports judgment.inject for every question it sees, in the
hook's own interpreter, so its import costs are paid each time. Counted, module by module, in a
real interpreter: importing the module loads nothing else, and a call loads the relevance
ranking's modules and Snowball's English stemmer alone (not the package's other languages),
never jsonschema or ulid."""
import json

from ledger_helpers import fresh_python, write_records

PROBE = """
import json, sys
before = set(sys.modules)
from judgment_toolkit.judgment import inject
at_import = sorted(set(sys.modules) - before)
found = inject.answers(sys.argv[1], "shop", "Use Redis or Postgres for the job queue?", ["Redis", "Postgres"])
print(json.dumps({"import": at_import, "call": sorted(set(sys.modules) - before),
                  "found": [a["record"]["id"] for a in found]}))
"""
J = "judgment_toolkit.judgment."
CALL = {"judgment_toolkit", "judgment_toolkit.judgment", "judgment_toolkit.packaged",
        J + "inject", J + "inject_pass", J + "analysis", J + "args", J + "deps", J + "ledger",
        J + "lexicon", J + "lines", J + "loanword", J + "place", J + "rank", J + "rivals",
        J + "values",
        "snowballstemmer.among",
        "snowballstemmer.basestemmer",
        "snowballstemmer.english_stemmer", "heapq", "_heapq", "math", "unicodedata",
        "gc"}  # built in: the pass pauses the cyclic collector


def probe(tmp_path):
    path = tmp_path / "ledger.jsonl"
    write_records(path, [{"id": "queue", "project": "shop", "decided_at": "2026-01-01T00:00:00Z",
                          "question": "Use Redis or Postgres for the job queue?",
                          "answer": "postgres", "rationale": "", "card_ref": "c", "tags": []}])
    return json.loads(fresh_python(tmp_path, PROBE, path))


def test_importing_the_module_loads_nothing_else(tmp_path):
    assert probe(tmp_path)["import"] == ["judgment_toolkit", "judgment_toolkit.judgment", J + "inject"]


def test_a_call_loads_only_the_ranking_and_the_english_stemmer(tmp_path):
    result = probe(tmp_path)
    assert result["found"] == ["queue"]  # it really ran
    loaded = set(result["call"])
    assert loaded - CALL == set(), f"unexpected imports: {sorted(loaded - CALL)}"
    assert not {m for m in loaded if m.split(".")[0] in ("jsonschema", "ulid")}
    assert "snowballstemmer" not in loaded and "snowballstemmer.german_stemmer" not in loaded


def test_the_real_snowball_package_still_imports_after_the_english_stemmer_alone(tmp_path):
    """The English stemmer is loaded without the package's __init__; a later import of the
    package (by anyone in the same interpreter) runs the real one, every language included."""
    code = ("from judgment_toolkit.judgment import analysis\n"
            "import snowballstemmer\n"
            "print(analysis.term('caching'), snowballstemmer.stemmer('english').stemWord('caching'),\n"
            "      'german' in snowballstemmer.algorithms())\n")
    assert fresh_python(tmp_path, code).split() == ["cach", "cach", "True"]

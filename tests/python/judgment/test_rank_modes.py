"""Choosing the ranking: --rank match|relevance, HARNESS_JUDGMENT_RANK, and the default mode
unchanged byte for byte (Judgment Ledger v1, section 'Search': string-match ranking)."""
import json
import subprocess
from pathlib import Path

import pytest

from ledger_helpers import ROOT, card, hermetic_env, ledger, nodeps_python, rec, write_card, write_records  # noqa: F401

from judgment_toolkit.judgment import exits, search
from judgment_toolkit.judgment.args import UsageError

EVAL_LEDGER = ROOT / "bench" / "eval" / "ledger.jsonl"
GOLDEN = json.loads((Path(__file__).parent / "data" / "match-mode-golden.json").read_text(encoding="utf-8"))


@pytest.fixture
def eval_env(tmp_path):
    return hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=EVAL_LEDGER)


def compact(records):
    return "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)


def test_match_mode_in_process_equals_the_output_before_rank_existed():
    """All 62 evaluation questions: search(mode="match") prints what the old code printed."""
    for run in GOLDEN["runs"]:
        assert compact(search.search(str(EVAL_LEDGER), "storefront", run["question"], mode="match")) \
            == run["search"], run["question"]


@pytest.mark.parametrize("index", [0, 7, 38, 41, 46])
@pytest.mark.parametrize("how", ["default", "flag", "env", "empty env"])
def test_match_mode_through_the_script_is_byte_for_byte_unchanged(eval_env, index, how):
    run = GOLDEN["runs"][index]
    env = dict(eval_env)
    flag = []
    if how == "flag":
        flag = ["--rank", "match"]
        env["HARNESS_JUDGMENT_RANK"] = "relevance"  # the flag wins
    elif how == "env":
        env["HARNESS_JUDGMENT_RANK"] = "match"
    elif how == "empty env":
        env["HARNESS_JUDGMENT_RANK"] = ""  # empty counts as unset
    s = ledger("search", "--project", "storefront", "--query", run["question"], *flag, env=env)
    r = ledger("recall", "--project", "storefront", "--question", run["question"], *flag, env=env)
    assert (s.returncode, s.stderr, s.stdout) == (0, "", run["search"])
    assert (r.returncode, r.stderr, r.stdout) == (0, "", run["recall"])


def test_the_environment_chooses_relevance_and_the_flag_overrides_it(eval_env):
    question = "Should background jobs go through Redis or stay in Postgres?"
    by_env = ledger("search", "--project", "storefront", "--query", question,
                    env=dict(eval_env, HARNESS_JUDGMENT_RANK="relevance"))
    by_flag = ledger("search", "--project", "storefront", "--query", question, "--rank=relevance",
                     env=eval_env)
    assert by_env.returncode == 0 and by_env.stdout == by_flag.stdout
    assert by_env.stdout != GOLDEN["runs"][0]["search"]
    assert [json.loads(line)["id"] for line in by_env.stdout.splitlines()] == ["d81", "d01", "d02"]


def test_rank_mode_resolution():
    assert search.rank_mode(None, {}) == "match"
    assert search.rank_mode(None, {"HARNESS_JUDGMENT_RANK": ""}) == "match"
    assert search.rank_mode(None, {"HARNESS_JUDGMENT_RANK": "relevance"}) == "relevance"
    assert search.rank_mode("match", {"HARNESS_JUDGMENT_RANK": "nonsense"}) == "match"
    with pytest.raises(UsageError, match="must be match or relevance, not 'Relevance'"):
        search.rank_mode("Relevance", {})
    with pytest.raises(UsageError, match="HARNESS_JUDGMENT_RANK must be match or relevance, not 'bm25'"):
        search.rank_mode(None, {"HARNESS_JUDGMENT_RANK": "bm25"})


@pytest.mark.parametrize("argv,env_value,message", [
    (["--rank", "best"], None, "rank: must be {modes}, not 'best'"),
    (["--rank", ""], None, "rank: must be {modes}, not ''"),
    (["--rank", "match", "--rank", "match"], None, "rank: --rank given more than once"),
    (["--rank"], None, "rank: --rank needs a value"),
    ([], "fuzzy", "rank: HARNESS_JUDGMENT_RANK must be match or relevance, not 'fuzzy'"),
    ([], "answers", "rank: HARNESS_JUDGMENT_RANK must be match or relevance, not 'answers'"),
])
@pytest.mark.parametrize("command", ["search", "recall"])
def test_a_bad_rank_is_a_usage_error(eval_env, command, argv, env_value, message):
    """A recall's --rank is one of search.RECALL_MODES (answers too), a search's one of
    search.MODES; $HARNESS_JUDGMENT_RANK is one of search.MODES for both."""
    env = dict(eval_env, **({"HARNESS_JUDGMENT_RANK": env_value} if env_value else {}))
    text = "--query" if command == "search" else "--question"
    modes = "match, relevance or answers" if command == "recall" else "match or relevance"
    r = ledger(command, "--project", "storefront", text, "cache", *argv, env=env)
    assert (r.returncode, r.stdout, r.stderr) == (
        exits.USAGE, "", f"judgment-ledger: {command}: {message.format(modes=modes)}\n")


def test_answers_is_a_rank_of_recall_only(eval_env):
    r = ledger("search", "--project", "storefront", "--query", "cache", "--rank", "answers", env=eval_env)
    assert (r.returncode, r.stdout, r.stderr) == (
        exits.USAGE, "", "judgment-ledger: search: rank: must be match or relevance, not 'answers'\n")
    assert search.rank_mode("answers", {}, search.RECALL_MODES) == "answers"
    with pytest.raises(UsageError, match="must be match or relevance, not 'answers'"):
        search.rank_mode("answers", {})


def test_card_recall_takes_the_rank_flag_and_the_environment(tmp_path):
    write_records(tmp_path / "l.jsonl", [
        rec(1, question="Which eviction policy for the session store?", decided_at="2026-01-01T00:00:00Z"),
        rec(2, question="Postgres job queue: SKIP LOCKED or advisory locks?", decided_at="2025-01-01T00:00:00Z"),
        rec(3, question="Export orders as CSV or Excel?", decided_at="2026-02-01T00:00:00Z"),
    ])
    path = write_card(tmp_path / "card.json")  # "Use Redis or Postgres for the job queue?"
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl")

    def mem_ids(r):
        assert (r.returncode, r.stderr) == (0, "")
        return [i["mem_id"][-4:] for i in json.loads(r.stdout)["similar_past_decisions"]]
    # match: id-1 scores as much as id-2 (or, for, the: 3 tokens against postgres, job, or) and,
    # newer, ranks first; "or" inside "orders" brings id-3 too. relevance: only id-2 shares a word.
    assert mem_ids(card("recall", path, "--project", "demo", env=env)) == ["id-1", "id-2", "id-3"]
    assert mem_ids(card("recall", path, "--project", "demo", "--rank", "relevance", env=env)) == ["id-2"]
    assert mem_ids(card("recall", path, "--project", "demo",
                        env=dict(env, HARNESS_JUDGMENT_RANK="relevance"))) == ["id-2"]
    # answers: only the decisions that answer the card's question (its option labels weighed)
    assert mem_ids(card("recall", path, "--project", "demo", "--rank", "answers", env=env)) == ["id-2"]
    write_records(tmp_path / "l.jsonl", [
        rec(4, question="Job queue: Redis or Postgres?", answer="Postgres", decided_at="2025-06-01T00:00:00Z"),
        rec(2, question="Postgres job queue: SKIP LOCKED or advisory locks?", decided_at="2025-01-01T00:00:00Z")])
    assert mem_ids(card("recall", path, "--project", "demo", "--rank", "answers", env=env)) == ["id-4"]
    r = card("recall", path, "--project", "demo", "--rank", "nope", env=env)
    assert (r.returncode, r.stdout, r.stderr) == (
        exits.USAGE, "", "judgment-card: recall: rank: must be match, relevance or answers, not 'nope'\n")


def test_relevance_names_the_stemmer_when_dependencies_are_missing(tmp_path, nodeps_python):
    env = hermetic_env(tmp_path, HARNESS_PYTHON=nodeps_python, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl")
    match = ledger("search", "--project", "demo", "--query", "q", env=env)
    relevance = ledger("search", "--project", "demo", "--query", "q", "--rank", "relevance", env=env)
    assert match.returncode == relevance.returncode == 1
    assert "missing Python dependencies (jsonschema, python-ulid) in" in match.stderr
    assert "missing Python dependencies (jsonschema, python-ulid, snowballstemmer) in" in relevance.stderr
    assert "pip install jsonschema python-ulid snowballstemmer" in relevance.stderr


def test_append_never_asks_for_the_stemmer(tmp_path):
    """A real interpreter with jsonschema and ulid but no snowballstemmer: a venv whose only
    extra path is a folder of links to the packages it may use."""
    venv = tmp_path / "venv"
    subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-m", "venv", "--without-pip", str(venv)],
                   check=True)
    import jsonschema
    import ulid
    site = Path(jsonschema.__file__).parents[1]
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    for entry in site.iterdir():
        if not entry.name.lower().startswith("snowballstemmer"):
            (shelf / entry.name).symlink_to(entry)
    assert Path(ulid.__file__).parents[1] == site
    py = venv / "bin" / "python"
    env = hermetic_env(tmp_path, HARNESS_PYTHON=py, PYTHONPATH=shelf,
                       HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl")
    probe = subprocess.run([str(py), "-c", "import snowballstemmer"], env=env, capture_output=True)
    assert probe.returncode != 0
    r = ledger("append", "--project", "demo", "--question", "q", "--answer", "a", "--card-ref", "c", env=env)
    assert (r.returncode, r.stderr) == (0, "")
    assert len((tmp_path / "l.jsonl").read_text().splitlines()) == 1
    s = ledger("search", "--project", "demo", "--query", "q", env=env)
    assert (s.returncode, s.stderr) == (0, "") and json.loads(s.stdout)["question"] == "q"
    r = ledger("search", "--project", "demo", "--query", "q", "--rank", "relevance", env=env)
    assert r.returncode == 1 and r.stdout == ""
    assert "missing Python dependencies (snowballstemmer) in" in r.stderr

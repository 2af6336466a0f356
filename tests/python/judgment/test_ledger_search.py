"""judgment-ledger.sh search: project scope, string-match ranking, ties, limit, skipped lines."""
import json

import pytest

from ledger_helpers import hermetic_env, ledger, rec, write_records

from judgment_toolkit.judgment import search


@pytest.fixture
def env(tmp_path):
    return hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl")


def run_search(env, query, project="demo", *extra):
    r = ledger("search", "--project", project, "--query", query, *extra, env=env)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def ids(found):
    return [r["id"] for r in found]


def test_whole_query_beats_token_points_then_points_rank(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [
        rec(1, question="cache the build outputs", decided_at="2026-05-01T00:00:00Z"),
        rec(2, question="build cache for outputs", decided_at="2026-04-01T00:00:00Z"),
        rec(3, question="clear the cache", decided_at="2026-06-01T00:00:00Z"),
        rec(4, question="unrelated", decided_at="2026-07-01T00:00:00Z"),
    ])
    # "build cache": whole substring only in 2; 1 has both tokens (2 points); 3 has one point
    assert ids(run_search(env, "Build Cache")) == ["id-2", "id-1", "id-3"]


def test_each_field_is_searched_and_the_whole_query_must_sit_in_one_field(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [
        rec(1, question="alpha", answer="beta", decided_at="2026-01-02T00:00:00Z"),
        rec(2, question="x", rationale="because alpha beta", decided_at="2026-01-01T00:00:00Z"),
        rec(3, question="y", tags=["alpha beta"], decided_at="2026-01-01T00:00:00Z"),
    ])
    # 2 and 3 hold the whole query in one field (rationale, a tag); 1 only has both tokens
    assert ids(run_search(env, "alpha beta")) == ["id-3", "id-2", "id-1"]
    assert ids(run_search(env, "beta")) == ["id-1", "id-3", "id-2"]


def test_ties_newest_decided_at_first_then_later_line(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [
        rec(1, question="deploy", decided_at="2026-01-01T00:00:00Z"),
        rec(2, question="deploy", decided_at="2026-03-01T00:00:00Z"),
        rec(3, question="deploy", decided_at="2026-02-01T00:00:00Z"),
        rec(4, question="deploy", decided_at="2026-03-01T00:00:00Z"),
    ])
    assert ids(run_search(env, "deploy")) == ["id-4", "id-2", "id-3"]


def test_decided_at_compares_as_time_not_text():
    assert search.time_key("2026-01-01T10:00:00+02:00") < search.time_key("2026-01-01T09:00:00Z")
    assert search.time_key("2026-01-01T09:00:00.5Z") > search.time_key("2026-01-01T09:00:00Z")
    assert search.time_key("not a time") < search.time_key("1970-01-01T00:00:00Z")


@pytest.mark.parametrize("fraction", ["5", "50", "5000", "5000000", "500000999"])
def test_any_fraction_the_schema_allows_compares_as_time(fraction):
    # The schema allows any number of fraction digits; datetime.fromisoformat before Python
    # 3.11 (requires-python is >=3.9) only parses 3 or 6, so this must not depend on it.
    key = search.time_key(f"2026-01-01T09:00:00.{fraction}+01:00")
    assert key == search.time_key("2026-01-01T08:00:00.500000Z")
    assert search.time_key("2026-01-01T08:00:00Z") < key < search.time_key("2026-01-01T08:00:01Z")


def test_one_character_tokens_do_not_score_but_the_whole_query_does(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [rec(1, question="a b c"), rec(2, question="a")])
    assert ids(run_search(env, "a b")) == ["id-1"]
    assert run_search(env, "x y") == []


def test_empty_query_lists_newest_first(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"],
                  [rec(n, decided_at=f"2026-01-0{n}T00:00:00Z") for n in range(1, 6)])
    assert ids(run_search(env, "")) == ["id-5", "id-4", "id-3"]
    assert ids(run_search(env, "   ")) == ["id-5", "id-4", "id-3"]


def test_default_and_maximum_limit_is_3(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [rec(n, question="same") for n in range(10)])
    assert len(run_search(env, "same")) == 3
    r = ledger("search", "--project", "demo", "--query", "same", "--limit", "10", env=env)
    assert (r.returncode, r.stdout) == (64, "")  # never silently fewer than asked
    assert r.stderr == ("judgment-ledger: search: limit: must be a whole number from 1 to 3 "
                        "(at most 3 results), not '10'\n")
    assert len(run_search(env, "same", "demo", "--limit", "3")) == 3
    assert len(run_search(env, "same", "demo", "--limit", "2")) == 2
    assert len(run_search(env, "same", "demo", "--limit", "1")) == 1


@pytest.mark.parametrize("bad", ["0", "-1", "two", ""])
def test_bad_limit_is_a_usage_error(env, bad):
    r = ledger("search", "--project", "demo", "--query", "x", "--limit", bad, env=env)
    assert r.returncode == 64 and "limit" in r.stderr and r.stdout == ""


def test_project_isolation_is_exact(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [
        rec(1, project="demo", question="shared words"),
        rec(2, project="demo-2", question="shared words"),
        rec(3, project="Demo", question="shared words"),
        rec(4, project="other", question="demo shared words", answer="demo"),
    ])
    assert ids(run_search(env, "shared")) == ["id-1"]
    assert ids(run_search(env, "")) == ["id-1"]
    assert ids(run_search(env, "demo")) == []
    assert ids(run_search(env, "shared", "other")) == ["id-4"]


def test_no_match_and_missing_ledger_print_nothing(env, tmp_path):
    assert run_search(env, "anything") == []
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [rec(1)])
    assert run_search(env, "nothing like it") == []


def test_invalid_lines_are_skipped(env):
    path = env["HARNESS_JUDGMENT_LEDGER"]
    write_records(path, [rec(1, question="good one")])
    with open(path, "ab") as f:
        f.write(b'{"project":"demo","question":"good but torn\n')
        f.write(b'not json "demo" good\n')
        f.write(b'["demo", "good"]\n')
        f.write(b'{"id":7,"project":"demo","decided_at":"x","question":"good","answer":"a"}\n')
        f.write(b'\xff\xfe "demo" good\n')
        f.write(b"\n")
    write_records_append(path, [rec(2, question="good two")])
    assert sorted(ids(run_search(env, "good"))) == ["id-1", "id-2"]


def write_records_append(path, recs):
    with open(path, "a", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def test_records_from_other_writers_with_escapes_and_spaces_are_found(env):
    path = env["HARNESS_JUDGMENT_LEDGER"]
    with open(path, "w") as f:  # ensure_ascii JSON with spaces, as other tools write it
        f.write(json.dumps(rec(1, project="café", question="Ünïcode question")) + "\n")
        f.write(json.dumps(rec(2, project="a&b", question="go escapes")).replace("&", "\\u0026") + "\n")
    assert ids(run_search(env, "ünïcode", "café")) == ["id-1"]
    assert ids(run_search(env, "escapes", "a&b")) == ["id-2"]


def test_case_folding_is_unicode_aware(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [rec(1, question="Die Straße"), rec(2, question="ΣΟΦΙΑ")])
    assert ids(run_search(env, "STRASSE")) == ["id-1"]
    assert ids(run_search(env, "σοφια")) == ["id-2"]


def test_query_with_quotes_and_backslashes(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [rec(1, question='use "quoted" path C:\\tmp')])
    assert ids(run_search(env, '"quoted"')) == ["id-1"]
    assert ids(run_search(env, "C:\\tmp")) == ["id-1"]


def test_output_is_the_full_record_as_compact_json(env):
    r1 = rec(1, question="Café 日本", tags=["x"])
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [r1])
    out = ledger("search", "--project", "demo", "--query", "café", env=env).stdout
    assert out == json.dumps(r1, ensure_ascii=False, separators=(",", ":")) + "\n"


def test_usage_errors(env):
    for args, message in [(["--query", "x"], "search: project: missing --project"),
                          (["--project", "demo"], "search: query: missing --query"),
                          (["--project", "", "--query", "x"], "search: project: must not be empty"),
                          (["--project", "d", "--query", "x", "--nope", "1"], "search: --nope: unknown flag")]:
        r = ledger("search", *args, env=env)
        assert (r.returncode, r.stdout, r.stderr) == (64, "", f"judgment-ledger: {message}\n")


def test_parse_query_and_rank():
    assert search.parse_query("  Foo foo  BAR x ") == ("foo foo  bar x", ["foo", "bar"])
    r = rec(1, question="Foo", answer="bar")
    assert search.rank(r, *search.parse_query("foo bar")) == (False, 2)
    assert search.rank(r, *search.parse_query("FOO")) == (True, 1)
    assert search.rank(r, *search.parse_query("nothing")) is None
    assert search.rank(r, *search.parse_query("")) == (False, 0)


def test_an_unreadable_ledger_is_an_error_not_an_empty_answer(tmp_path):
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path)  # a directory
    r = ledger("search", "--project", "demo", "--query", "x", env=env)
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == f"judgment-ledger: search: cannot read the ledger {tmp_path}: not a regular file (a directory)\n"


def test_a_lone_surrogate_from_a_foreign_writer_is_still_printed(env):
    with open(env["HARNESS_JUDGMENT_LEDGER"], "w") as f:
        f.write('{"id":"s","project":"demo","decided_at":"2026-01-01T00:00:00Z",'
                '"question":"odd \\ud800 text","answer":"a","rationale":"","card_ref":"c",'
                '"tags":[]}\n')
    r = ledger("search", "--project", "demo", "--query", "odd", env=env)
    assert r.returncode == 0
    assert json.loads(r.stdout)["question"] == "odd \ud800 text"


def test_output_is_utf8_whatever_the_locale(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [rec(1, question="Straße")])
    r = ledger("search", "--project", "demo", "--query", "strasse",
               env=dict(env, LC_ALL="C", LANG="C", PYTHONIOENCODING="latin-1"))
    assert (r.returncode, r.stderr) == (0, "")
    assert json.loads(r.stdout)["question"] == "Straße"


def test_a_project_that_is_not_utf8_matches_nothing_and_does_not_crash(env, tmp_path):
    # No record can have such a project (append rejects it), so: no output, exit 0.
    import subprocess
    from ledger_helpers import LEDGER_SH
    write_records(tmp_path / "l.jsonl", [rec(1, project="caf\u00e9")])
    for argv in (["search", "--project", b"caf\xe9", "--query", ""],
                 ["search", "--project", b"caf\xe9", "--query", "question"],
                 ["recall", "--project", b"caf\xe9", "--question", "question"]):
        r = subprocess.run([str(LEDGER_SH), *argv], env=env, capture_output=True)
        assert (r.returncode, r.stderr) == (0, b""), r.stderr
        assert r.stdout == (b"[]\n" if argv[0] == "recall" else b"")


@pytest.mark.parametrize("rank", ["match", "relevance", "answers"])
@pytest.mark.parametrize("question", ["Which job queue?", "q", "?"])
def test_recall_of_an_unreadable_ledger_is_an_error_in_every_mode_whatever_the_question(
        tmp_path, rank, question):
    """docs/judgment-ledger.md, "Ranking": an unreadable ledger exits 1 in every mode, also
    for a question without a word the answers mode would search for."""
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path)  # a directory
    r = ledger("recall", "--project", "demo", "--question", question, "--rank", rank, env=env)
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == f"judgment-ledger: recall: cannot read the ledger {tmp_path}: not a regular file (a directory)\n"


def test_a_blank_question_lists_the_newest_but_answers_nothing_in_answers_mode(env):
    """docs/judgment-ledger.md, "Ranking": a blank query lists the newest records in match and
    relevance; --rank answers finds nothing asked, so nothing answers it."""
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [rec(1, question="Use Redis for the queue?")])
    for rank, expected in (("match", 1), ("relevance", 1), ("answers", 0)):
        r = ledger("recall", "--project", "demo", "--question", " ", "--rank", rank, env=env)
        assert (r.returncode, r.stderr, len(json.loads(r.stdout))) == (0, "", expected), rank

"""The relevance ranking (judgment.rank; docs/judgment-ledger.md "Ranking"): words, stopwords,
stems, field weights, BM25 statistics from the project's own records, ties, and the same
contract as search (Judgment Ledger v1: project scope, max 3, output, reads that skip bad
lines)."""
import json
import os
import tracemalloc

import pytest

from ledger_helpers import hermetic_env, ledger, rec, write_records
from ledger_helpers import relevance_ids as ids

from judgment_toolkit.judgment import ledger as ledger_mod, rank, search


@pytest.fixture
def env(tmp_path):
    return hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl")


# --- text to terms ---------------------------------------------------------------------------

def test_terms_fold_strip_punctuation_drop_stopwords_and_short_words_and_stem():
    assert rank.terms("Should we cache the Pages? (downtime, caching; x)") == ["cach", "page", "downtim"]
    assert rank.terms("rate-limit per_key e.g. v2 API's 429") == ["rate", "limit", "per", "key", "v2", "api", "429"]
    assert rank.terms("the and or is it a") == []
    assert rank.terms("STRASSE Straße") == ["strass"]  # casefold: ß is ss; then one term
    assert rank.terms("ＡＰＩ ｖ２") == ["api", "v2"]  # NFKC: full-width letters and digits


def test_the_plural_of_an_initialism_is_its_singular():
    """Snowball keeps the s of a word with no vowel; an initialism's plural of 4 letters or more
    loses it. Three letters stay as written: DNS, TLS and SMS are not plurals."""
    assert rank.terms("JWTs SDKs CDNs LLMs") == ["jwt", "sdk", "cdn", "llm"]
    assert rank.terms("DNS TLS SMS xss https") == ["dns", "tls", "sms", "xss", "http"]
    assert rank.terms("jwt") == rank.terms("JWTs")


def test_a_verb_in_ify_and_its_noun_in_ification_are_one_term():
    """docs/judgment-ledger.md, "How the relevance mode reads text", step 4: Snowball stems
    "verify" verifi and "verification" verif; the verb's stem loses its last i."""
    for words, term in (("verify verified verifies verifying verification", "verif"),
                        ("notify notified notifications", "notif"),
                        ("classify classification", "classif")):
        assert {w: rank.terms(w) for w in words.split()} == {w: [term] for w in words.split()}
    assert rank.terms("wifi") == rank.terms("WiFi") == ["wif"]  # the same rule, the same term


def test_non_latin_words_count_and_are_not_stemmed():
    assert rank.terms("Café naïve ΣΟΦΙΑ") == ["café", "naïve", "σοφια"]
    # script changes separate words; Hangul runs longer than 2 become bigrams; 1-char words drop
    # but the one-syllable loanwords of software talk (큐 queue, 잡 job), their particle off
    assert rank.terms("Redis를 잡 큐로 될까요") == ["redi", "잡", "큐"]  # endings are stopwords
    assert rank.terms("좀 더 빨리") == ["빨리"]
    # particles and verb endings come off a Hangul word before it is cut (test_rank_lexicon.py)
    assert rank.terms("로그는 보관") == ["로그", "보관"]
    assert rank.terms("データベース設計") == ["デー", "ータ", "タベ", "ベー", "ース", "設計"]


def test_needles_never_miss_a_word_with_the_term():
    words = ["caching", "cached", "cache", "retries", "retry", "happily", "happy", "dying", "lying",
             "ties", "relational", "conditional", "generously", "skies", "news", "hoping", "agreed",
             "pagination", "paginated", "deployments", "studies", "flies", "ugly", "early", "singly",
             "probability", "capabilities", "visibility", "sky", "idly", "gently", "innings"]
    for word in words:
        t = rank.term(word)
        assert any(n in word for n in rank.needles(t)), (word, t)
    assert rank.needles("로그") == ("로그",) and rank.needles("429") == ("429",)
    # a stem whose last letter the stemmer never writes is its own needle: "m" of "mq" would
    # be in nearly every line
    assert rank.needles("mq") == ("mq",) and rank.needles("postgr") == ("postgr",)
    assert rank.needles("redi") == ("red",) and rank.needles("queue") == ("queu",)


def test_needles_never_miss_a_word_of_the_repositorys_own_text():
    """Every English word of the docs, the README, the packaged lexicon and the evaluation
    ledgers holds a needle of its term."""
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[3]
    files = [root / "README.md", root / "templates" / "lexicon.txt", *root.glob("docs/*.md"),
             *root.glob("bench/eval/**/*.jsonl"), *root.glob("bench/eval/**/*.json")]
    words = set()
    for f in files:
        words.update(re.findall(r"[a-z]+", f.read_text(encoding="utf-8").casefold()))
    assert len(words) > 4000
    missed = [(w, t) for w in words for t in rank.terms(w)
              if t.isascii() and not any(n in w for n in rank.needles(t))]
    assert missed == []


# --- ranking through the script --------------------------------------------------------------

def test_whole_words_only_punctuation_stripped_and_stems_matched(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [
        rec(1, question="Export the report nightly?", decided_at="2026-03-01T00:00:00Z"),
        rec(2, question="Plan downtime for the upgrade", decided_at="2026-01-01T00:00:00Z"),
        rec(3, question="Cache the product pages", decided_at="2026-01-01T00:00:00Z"),
    ])
    assert ids(env, "or") == []                      # a stopword, and never inside "report"
    assert ids(env, "port") == []                    # whole words: not inside "export", "report"
    assert ids(env, "downtime?") == ["id-2"]         # punctuation stripped
    assert ids(env, "caching pages") == ["id-3"]     # stems: caching/cache, pages/page
    assert ids(env, "Should we?") == []              # no term left: no match
    assert ids(env, "") == ["id-1", "id-3", "id-2"]  # a blank query lists the newest, as in match mode


def test_field_weights_question_then_rationale_then_answer_and_tags(env):
    # every record has 2 question words, 1 answer word, 2 rationale words and one 1-word tag,
    # all of the same length, so only the field holding "deploy" differs
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [
        rec(1, question="aaaaaa bbbbbb", answer="cccccc", rationale="dddddd eeeeee", tags=["deploy"]),
        rec(2, question="aaaaaa bbbbbb", answer="deploy", rationale="dddddd eeeeee", tags=["ffffff"]),
        rec(3, question="aaaaaa bbbbbb", answer="cccccc", rationale="deploy eeeeee", tags=["ffffff"]),
        rec(4, question="deploy bbbbbb", answer="cccccc", rationale="dddddd eeeeee", tags=["ffffff"]),
    ])
    found = ids(env, "deploy")
    assert found[:2] == ["id-4", "id-3"] and set(found[2:]) <= {"id-1", "id-2"}
    assert rank.WEIGHTS["question"] > rank.WEIGHTS["rationale"] > rank.WEIGHTS["tags"]
    assert rank.WEIGHTS["answer"] == rank.WEIGHTS["tags"]


def test_a_rare_term_outweighs_a_common_one_and_more_terms_beat_fewer(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"],
                  [rec(n, question=f"deploy step {n}") for n in range(1, 8)]
                  + [rec(8, question="rollback plan"), rec(9, question="deploy rollback plan")])
    assert ids(env, "deploy rollback") == ["id-9", "id-8", "id-7"]


def test_statistics_come_from_the_asking_project_only(env):
    # In demo, "alpha" is rare (1 record) and "beta" common (2), so alpha's record ranks first.
    # 100 "alpha" records of another project would flip that if they counted.
    write_records(env["HARNESS_JUDGMENT_LEDGER"],
                  [rec(1, question="alpha filler"), rec(2, question="beta filler"),
                   rec(3, question="beta other")]
                  + [rec(100 + n, project="other", question="alpha") for n in range(100)])
    assert ids(env, "alpha beta")[0] == "id-1"
    assert set(ids(env, "alpha beta", project="other")) <= {f"id-{100 + n}" for n in range(100)}


def test_ties_newest_decided_at_first_then_later_line(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [
        rec(1, question="queue choice", decided_at="2026-01-01T00:00:00Z"),
        rec(2, question="queue choice", decided_at="2026-03-01T01:00:00+01:00"),
        rec(3, question="queue choice", decided_at="2026-02-01T00:00:00Z"),
        rec(4, question="queue choice", decided_at="2026-03-01T00:00:00Z"),
    ])
    assert ids(env, "queue") == ["id-4", "id-2", "id-3"]  # id-2 is the same instant, earlier line


def test_korean_questions(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [
        rec(1, question="운영 로그 보관 기간은 얼마로 할까요?", answer="30일"),
        rec(2, question="배포할 때 데이터베이스 마이그레이션을 자동으로 실행할까요?", answer="아니요"),
        rec(3, question="Use Redis or Postgres for the job queue?", answer="postgres"),
        rec(4, question="상품 페이지 캐시 만료 시간은?", answer="60초"),
    ])
    assert ids(env, "로그는 며칠 동안 보관하나요?") == ["id-1"]
    assert ids(env, "마이그레이션을 자동으로 돌려도 되나요?")[0] == "id-2"
    assert ids(env, "Redis를 잡 큐로 써도 될까요?") == ["id-3"]
    # the lexicon's "만료, 유효 기간" group adds 기간 at a low weight: record 1 follows
    assert ids(env, "캐시 만료", command="recall") == ["id-4", "id-1"]


def test_at_most_three_full_records_as_compact_json(env):
    recs = [rec(n, question=f"Pick the queue {n}", tags=["queue"]) for n in range(1, 7)]
    write_records(env["HARNESS_JUDGMENT_LEDGER"], recs)
    r = ledger("search", "--project", "demo", "--query", "queue", "--rank", "relevance", "--limit", "3",
               env=env)
    lines = r.stdout.splitlines()
    assert len(lines) == 3
    by_id = {x["id"]: x for x in recs}
    for line in lines:
        assert line == json.dumps(by_id[json.loads(line)["id"]], ensure_ascii=False, separators=(",", ":"))
    r = ledger("search", "--project", "demo", "--query", "queue", "--rank", "relevance", "--limit", "1",
               env=env)
    assert len(r.stdout.splitlines()) == 1
    r = ledger("recall", "--project", "demo", "--question", "queue", "--rank", "relevance", env=env)
    items = json.loads(r.stdout)
    assert len(items) == 3 and set(items[0]) == {"summary", "decision", "outcome", "decided_at", "mem_id"}


def test_bad_lines_are_skipped_and_a_missing_ledger_is_empty(env):
    path = env["HARNESS_JUDGMENT_LEDGER"]
    assert ids(env, "good") == []
    write_records(path, [rec(1, question="good one")])
    with open(path, "ab") as f:
        f.write(b'{"project":"demo","question":"good but torn\n')
        f.write(b'not json "demo" good\n')
        f.write(b'{"id":7,"project":"demo","decided_at":"x","question":"good","answer":"a"}\n')
        f.write(b'\xff\xfe "demo" good\n')
        f.write(b'{"id":"e","project":"d\\u0065mo","decided_at":"2026-01-01T00:00:00Z",'
                b'"question":"good \\u0063ache","answer":"a","rationale":"","card_ref":"c",'
                b'"tags":[]}\n')
    assert ids(env, "good cache") == ["e", "id-1"]


@pytest.mark.parametrize("kind", ["directory", "fifo", "device"])
def test_a_ledger_that_cannot_be_read_is_refused_as_in_match_mode(tmp_path, kind):
    path = {"directory": tmp_path, "device": "/dev/zero"}.get(kind, tmp_path / "l.fifo")
    if kind == "fifo":
        os.mkfifo(path)  # nothing ever writes to it: a read that waited would hang the test
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)
    runs = [ledger("search", "--project", "demo", "--query", "cache", "--rank", mode, env=env)
            for mode in ("match", "relevance")]
    assert runs[0].returncode == runs[1].returncode == 1
    assert runs[0].stdout == runs[1].stdout == ""
    assert runs[1].stderr == runs[0].stderr
    assert runs[1].stderr.startswith(f"judgment-ledger: search: cannot read the ledger {path}: ")


def test_a_line_rewritten_between_the_pass_and_the_read_back_is_left_out(tmp_path):
    path = tmp_path / "l.jsonl"
    write_records(path, [rec(1, question="cache one"), rec(2, question="cache two")])
    scorer = rank.Scorer(rank.terms("cache"))
    for offset, r in ledger_mod.records(path, "demo"):
        scorer.add(offset, r)
    best = scorer.best(3)
    write_records(path, [rec(1, question="cache one"), rec(9, question="cache two")])  # same offsets
    assert [r["id"] for r in rank.read_back(path, "demo", best)] == ["id-1"]
    path.unlink()
    assert list(rank.read_back(path, "demo", best)) == []


def test_memory_holds_small_entries_not_the_records(tmp_path):
    """Every record of the project matches; what stays is a small entry each, not the record.
    The lexicon and the stem table, loaded once a process whatever the ledger, are loaded first
    by a search of a one-record ledger, so the peak measured is the pass's alone."""
    small = tmp_path / "small.jsonl"
    write_records(small, [rec(1, project="p1", question="cache")])
    assert len(search.search(small, "p1", "cache", mode="relevance")) == 1
    path = tmp_path / "big.jsonl"
    write_records(path, [rec(n, project=f"p{n % 4}", question="cache " + "x" * 2000, rationale="y" * 2000)
                         for n in range(8000)])
    tracemalloc.start()
    found = search.search(path, "p1", "cache", mode="relevance")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(found) == 3
    assert peak < 2 * ledger_mod.CHUNK + 2000 * 1000, peak  # 2000 matches x 1 KB, far below 2000 x 4 KB

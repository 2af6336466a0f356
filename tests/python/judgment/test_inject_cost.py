"""What one question costs the recall hook (docs/claude-kit.md, "What each hook costs";
docs/judgment-ledger.md, "Recall for automatic injection", "Cost"), counted, never timed: in a
fresh interpreter, as the PreToolUse hook runs judgment.inject.answers, on a real ledger of one
project where every record shares the question's words and one answers it:

  - lines parsed (json.loads calls): the shortlist and the candidates read back, at 10,000 records
    as at 1,000;
  - words stemmed (analysis's stem cache, pure-Python Snowball): the same at 10,000 records as at
    1,000, so the analysis never grows with the ledger;
  - lexicon groups read: only the lines of the packaged lexicon's terms table that hold one of
    the query's terms, a whole term: a short one ("mq" of "message queue", "pg" of "postgres")
    brings only the groups with that term, not every group holding an "m" or a "p";
  - the full word pattern (analysis._WORD, ~5 ms to compile) is not compiled for English or
    Korean text, and is compiled, once, for text that needs it (Japanese).
"""
import json

import pytest

from judgment_toolkit.judgment import inject, inject_pass
from ledger_helpers import fresh_python, write_records

QUESTION = "Should the billing worker retry through the MQ or a table in PG?"
OPTIONS = ["mq", "pg"]
PROBE = """
import json, sys
options = json.loads(sys.argv[3])
real = json.loads
parsed = []
def counting(data, *a, **k):
    parsed.append(len(data))
    return real(data, *a, **k)
json.loads = counting
from judgment_toolkit.judgment import analysis, inject, lexicon
found = inject.answers(sys.argv[1], "shop", sys.argv[2], options)
lx = lexicon.check()
print(json.dumps({"found": [a["record"]["id"] for a in found], "parsed": len(parsed),
                  "stems": len(analysis._STEMS), "groups": len(lx), "analysed": len(lx.parsed),
                  "word_pattern": len(analysis._compiled)}))
"""


def crowd(path, n):
    """n records of one project that all share words with QUESTION (worker, retry, mq or pg),
    one of them the decision it asks about."""
    recs = []
    for i in range(n):
        at = f"2025-01-01T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}Z"
        recs.append({"id": f"r{i}", "project": "shop", "decided_at": at,
                     "question": f"Which retry limit for the {['mail', 'export', 'import'][i % 3]} "
                                 f"worker, given load {i % 10}?",
                     "answer": ["3 tries", "5 tries", "no retry"][i % 3],
                     "rationale": "fewer moving parts", "card_ref": f"cards/r{i}.json",
                     "tags": ["retry"]})
    recs[n // 2] = {"id": "answer", "project": "shop", "decided_at": "2025-02-01T00:00:00Z",
                    "question": "Should the billing worker retry through the MQ or a table in PG?",
                    "answer": "a table in PG", "rationale": "one less service to run",
                    "card_ref": "cards/answer.json", "tags": ["billing"]}
    write_records(path, recs)


def probe(tmp_path, path, question=QUESTION, options=OPTIONS):
    return json.loads(fresh_python(tmp_path, PROBE, path, question, json.dumps(options)))


@pytest.fixture(scope="module")
def costs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cost")
    found = {}
    for n in (1_000, 10_000):
        path = tmp / f"ledger-{n}.jsonl"
        crowd(path, n)
        found[n] = probe(tmp, path)
    return found


def test_it_finds_the_decision_at_both_sizes(costs):
    assert costs[1_000]["found"] == costs[10_000]["found"] == ["answer"]


def test_ten_thousand_records_parse_only_the_shortlist_and_the_candidates(costs):
    for n in (1_000, 10_000):
        assert 0 < costs[n]["parsed"] <= inject_pass.SHORTLIST + inject.CANDIDATES, n


def test_the_words_stemmed_do_not_grow_with_the_ledger(costs):
    assert costs[10_000]["stems"] == costs[1_000]["stems"]
    assert costs[10_000]["stems"] < 40  # 7: the lexicon's groups are read as terms, unstemmed


def test_a_short_term_does_not_read_the_lexicon(costs):
    """"mq" and "pg" are terms of the question; "m" and "p" are in most lexicon lines, yet only
    the groups holding one of the query's terms are read."""
    for n in (1_000, 10_000):
        assert costs[n]["groups"] > 300
        # 31 of 4271 (the groups with a term of the question or of the candidates' questions
        # read by the rule); reading every line that holds "m" or "p" read about half of them
        assert costs[n]["analysed"] <= 50, costs[n]


def test_english_and_korean_text_do_not_compile_the_full_word_pattern(tmp_path, costs):
    assert costs[10_000]["word_pattern"] == 0
    path = tmp_path / "ledger.jsonl"
    crowd(path, 50)
    korean = probe(tmp_path, path, "결제 워커는 재시도를 큐로 할까요, PG 테이블로 할까요?", ["큐", "PG"])
    assert korean["word_pattern"] == 0


def test_text_of_another_script_compiles_it_once(tmp_path):
    code = ("from judgment_toolkit.judgment import analysis\n"
            "a = analysis.terms('データベース の キャッシュ'); b = analysis.terms('キャッシュ')\n"
            "print(len(analysis._compiled), bool(a), bool(b))\n")
    assert fresh_python(tmp_path, code).split() == ["1", "True", "True"]


@pytest.mark.parametrize("name", ["GENERIC", "FACET"])
def test_the_generic_and_aspect_words_answer_as_their_whole_analysis_would(name):
    """inject's GENERIC and FACET are analysed lazily (only the English words that could give
    the asked term are stemmed): each answers `in` as frozenset(word_terms(...)) does, because
    every English word of it starts with a needle of its own term."""
    from judgment_toolkit.judgment import analysis
    text = getattr(inject, name)
    whole = frozenset(analysis.word_terms(text))
    for word in text.split():
        for terms in analysis.word_terms(word):
            if word.isascii():
                assert any(word.startswith(n) for n in analysis.needles(terms[0])), word
    asked = list(whole) + [tuple(analysis.terms(w)) for w in
                           ("chosen", "choosing", "defaults", "settings", "planning", "queue",
                            "retry", "retries", "regional", "rates", "캐시", "배포", "tooling",
                            "supported", "mq")]
    lazy = inject._Generic(text)
    assert [w in lazy for w in asked] == [w in whole for w in asked]
    assert len(lazy.analysed) < len([w for w in text.split() if w.isascii()])

"""The ranking pass of recall for automatic injection (judgment.inject_pass; docs/judgment-ledger.md,
"Recall for automatic injection", "Cost"): the project's lines are read from their bytes, and
only the lines worth scoring are parsed. Below EXACT lines holding a query term it gives what the
relevance ranking's own pass gives (N, df, lengths, every score); beyond, it still finds the one
relevant record among thousands that share the question's words, with a bounded number of
json.loads calls. Real ledgers in tmp_path."""
import json

import pytest

from judgment_toolkit.judgment import inject, inject_pass, ledger, rank
from ledger_helpers import fresh_python, write_records


def decision(rid, question, answer, rationale="", tags=(), project="shop", at="2025-03-01T10:00:00Z"):
    return {"id": rid, "project": project, "decided_at": at, "question": question,
            "answer": answer, "rationale": rationale, "card_ref": f"cards/{rid}.json",
            "tags": list(tags)}


MIXED = [
    decision("queue", "Use Redis or Postgres for the job queue?", "postgres", "one less service",
             ["infra", "queue"]),
    decision("ko", "배포 전에 캐시를 비울까요?", "네, 배포 스크립트에서", "오래된 캐시 때문에 장애", ["배포"]),
    decision("quote", 'Name the "retry" policy?', "exponential backoff"),  # a backslash: parsed
    decision("notags", "Which queue for webhooks?", "SQS", "", []),
    decision("bracket", "Queue or [cron] for reports?", "cron", "", ["a]b", "queue", "[x"]),
    decision("other", "Use Redis for the shop's job queue?", "yes", project="shop-2"),
    decision("mention", 'Redis "shop" queue?', "no", project="elsewhere"),  # names the project
    decision("fold", "ＲＥＤＩＳ or Ｍｅｍｃａｃｈｅｄ for the queue cache?", "Redis"),  # NFKC
]


def relevance_pass(path, project, terms, weights):
    s = rank.Scorer(terms, weights)
    for offset, rec in ledger.records(path, project):
        s.add(offset, rec)
    return s


def write_mixed(path):
    write_records(path, MIXED)
    # a record in another key order, and one line that is not a record of the ledger's shape
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps({"tags": ["queue"], "card_ref": "c", "rationale": "",
                            "answer": "kafka", "question": "Which queue broker?",
                            "decided_at": "2025-04-01T00:00:00Z", "project": "shop", "id": "order"},
                           ensure_ascii=False) + "\n")
        f.write('{"id":"broken","project":"shop","decided_at":"2025-04-02T00:00:00Z","question":"queue?"}\n')


def write_plain(path):
    """Only the project's records, as judgment-ledger writes them: read a block at a time."""
    write_records(path, [r for r in MIXED if r["project"] == "shop" and '"' not in r["question"]])


@pytest.mark.parametrize("query", ["Redis job queue", "배포 캐시", "retry policy", "queue broker kafka",
                                   "redis memcached"])
@pytest.mark.parametrize("write, records", [(write_mixed, 7), (write_plain, 5)])
def test_below_exact_it_gives_the_relevance_pass_figures(tmp_path, query, write, records):
    path = tmp_path / "ledger.jsonl"
    write(path)
    terms, weights = rank.query_terms(query)
    mine = inject_pass.scorer(str(path), "shop", terms, weights)
    theirs = relevance_pass(str(path), "shop", terms, weights)
    assert mine.count == theirs.count == records
    assert mine.total_length == theirs.total_length
    assert mine.df == theirs.df
    assert sorted(mine.keys()) == sorted(theirs.keys())
    assert sorted(mine.keys()) or query == "retry policy"  # found in the parsed line only


def test_a_missing_ledger_has_no_records(tmp_path):
    s = inject_pass.scorer(str(tmp_path / "none.jsonl"), "shop", ["redi"], [1.0])
    assert s.count == 0 and s.keys() == []


def crowd(path, n, relevant_at):
    """n records of one project that all share words with the question, one of them relevant."""
    recs = []
    for i in range(n):
        recs.append(decision(f"r{i}", f"Which retry approach for the worker path, given load {i % 10}?",
                             ["Postgres", "Redis", "a cron job"][i % 3], "fewer moving parts",
                             ["retry"], at=f"2025-01-01T00:{i // 60 % 60:02d}:{i % 60:02d}Z"))
    recs[relevant_at] = decision("answer", "How should the payout worker retry failed bank transfers?",
                                 "exponential backoff, 5 tries", "the bank rate-limits bursts",
                                 ["payouts"], at="2025-02-01T00:00:00Z")
    write_records(path, recs)


def test_ten_thousand_records_of_one_project_parse_at_most_a_shortlist(tmp_path, monkeypatch):
    path = tmp_path / "ledger.jsonl"
    crowd(path, 10_000, 6_789)
    calls = []
    real = json.loads

    def counting(data, *a, **k):
        calls.append(len(data))
        return real(data, *a, **k)

    monkeypatch.setattr(json, "loads", counting)
    found = inject.answers(str(path), "shop", "How should the payout worker retry failed bank transfers?")
    monkeypatch.undo()
    assert [a["record"]["id"] for a in found] == ["answer"]
    # the shortlist and the candidates read back, never the 10,000 lines
    assert 0 < len(calls) <= inject_pass.SHORTLIST + inject.CANDIDATES


def test_beyond_exact_df_is_an_upper_bound_and_n_is_exact(tmp_path):
    path = tmp_path / "ledger.jsonl"
    crowd(path, 1_000, 10)
    terms, weights = rank.query_terms("payout worker retry bank transfers")
    mine = inject_pass.scorer(str(path), "shop", terms, weights)
    theirs = relevance_pass(str(path), "shop", terms, weights)
    assert mine.parsed <= inject_pass.SHORTLIST
    assert mine.count == theirs.count == 1_000
    assert mine.total_length == theirs.total_length
    assert all(a >= b for a, b in zip(mine.df, theirs.df))
    best = max(theirs.keys())
    assert max(mine.keys())[3] == best[3] == "answer"


def test_a_plain_ledger_is_read_a_block_at_a_time_and_a_mixed_one_line_by_line(tmp_path):
    """The comparison above covers both readings of the bytes."""
    from judgment_toolkit.judgment.lines import blocks
    for write, whole in ((write_plain, True), (write_mixed, False)):
        path = tmp_path / f"{write.__name__}.jsonl"
        write(path)
        p = inject_pass.Pass(str(path), "shop", ["redi"], [1.0])
        with open(path, "rb") as f:
            assert [p._block(*b) for b in blocks(f)] == [whole]


def test_only_the_chosen_lines_have_their_start_found(tmp_path):
    """A block remembers which of its lines hold a needle; where a line starts is found only
    for the lines chosen to be scored (the block read again, split from the nearer end), and
    those lines are sliced from it: at 10,000 records every line holds a needle, yet the
    starts found are a fraction of them and every line parsed came from a block."""
    path = tmp_path / "ledger.jsonl"
    crowd(path, 10_000, 9_990)
    terms, weights = rank.query_terms("payout worker retry bank transfers")
    p = inject_pass.Pass(str(path), "shop", terms, weights).run()
    held = len(p.offsets)
    s = p.finish()
    assert held == 10_000 and len(p.blocks) > 1
    assert 0 < p.located <= held // 4, (p.located, held)
    assert p.parsed == len(p.raw) <= inject_pass.SHORTLIST
    assert max(s.keys())[3] == "answer"


@pytest.mark.parametrize("interleaved", [False, True])
@pytest.mark.parametrize("held", [range(0, 30), range(120, 150), range(0, 150, 7)])
def test_the_chosen_lines_anywhere_in_a_block_are_the_lines_scanned(tmp_path, interleaved, held):
    """Split from the start of a block read again (the chosen lines near it) or from its end,
    the chosen lines are the ones the relevance pass reads (below EXACT every held line is
    chosen), whether the project's lines are every line or every other one."""
    path = tmp_path / "ledger.jsonl"
    recs = []
    for i in range(150):
        recs.append(decision(f"r{i}", f"Which cache for report {i}?",
                             "Redis" if i in held else "none",
                             at=f"2025-01-01T00:{i // 60:02d}:{i % 60:02d}Z"))
        if interleaved:
            recs.append(decision(f"o{i}", f"Which cache for report {i}?", "Redis", project="other"))
    write_records(path, recs)
    terms, weights = rank.query_terms("redis")
    mine = inject_pass.scorer(str(path), "shop", terms, weights)
    theirs = relevance_pass(str(path), "shop", terms, weights)
    assert mine.df == theirs.df and mine.df[0] == len(held)
    assert sorted(mine.keys()) == sorted(theirs.keys())
    assert mine.parsed == len(held)


def test_a_ledger_read_by_blocks_compiles_no_pattern_for_single_lines(tmp_path):
    """The patterns that read a line alone (_texts) are compiled only when a line is read
    alone: the hook pays every compile, and a ledger as judgment-ledger writes it is read a
    block at a time."""
    path = tmp_path / "ledger.jsonl"
    write_plain(path)
    code = ("import re, sys\n"
            "from judgment_toolkit.judgment import inject, inject_pass\n"
            "inject.answers(sys.argv[1], 'shop', 'Redis or Postgres for the job queue?')\n"
            "keys = {k[1] for c in (getattr(re, '_cache', {}), getattr(re, '_cache2', {})) "
            "for k in c}\n"
            "print(sorted(getattr(p, 'pattern', p) in keys\n"
            "             for p in (inject_pass._ORDERED, inject_pass._TAG_LIST)))\n")
    assert fresh_python(tmp_path, code, path).split() == ["[False,", "False]"]


def test_the_pass_runs_no_garbage_collection(tmp_path):
    """The pass makes tens of thousands of tuples and lists and no cycle: the cyclic collector
    is paused meanwhile (it walked them about 35 times at 10k records), then resumed; at most
    one collection follows, at the first allocation after it resumes."""
    import gc
    path = tmp_path / "ledger.jsonl"
    crowd(path, 2_000, 1_000)
    terms, weights = rank.query_terms("payout worker retry bank transfers")
    started = []

    def count(phase, info):
        if phase == "start":
            started.append(info["generation"])
    gc.collect()
    gc.callbacks.append(count)
    try:
        s = inject_pass.scorer(str(path), "shop", terms, weights)
    finally:
        gc.callbacks.remove(count)
    assert len(started) <= 1, started
    assert gc.isenabled() and s.count == 2_000

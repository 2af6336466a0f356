"""Readers tolerate what merges leave (docs/judgment-ledger.md, "Duplicates and order"): the
same record on two lines (a union merge, a cherry-pick) counts once in search (both ranking
modes), recall, list, show, prime, automatic recall (judgment.inject), the hooks; the same id
with other content is damage and the reader uses the first line. And (docs/judgment-ledger.md,
"search"): the reads return only lines the judgment-ledger.v1 schema accepts, the lines verify
calls valid."""
import json
import random

import pytest

from conftest import ROOT
from kit.test_plugin import ask_payload, run_hook, shop  # noqa: F401
from ledger_helpers import hermetic_env, ledger, rec, write_records

from judgment_toolkit.judgment import browse, inject, ledger as ledger_mod, prime, rank, recall, \
    schema, search, verify


# one subject per record, so that a question has one answer (automatic recall is right or
# silent, and leads with the newest decision of a subject); the tags give every record the words
# "queue choice" that the searches ask for
SUBJECTS = {1: "Which cache store for sessions?", 2: "Which logging library?", 3: "Which CI runner?",
            4: "Which date library?", 5: "Which job broker for the e-mails?",
            6: "Which CSS approach?", 7: "Which test framework?"}
BROKERS = {1: "redis", 2: "structlog", 3: "kafka", 4: "arrow", 5: "sqs", 6: "tailwind", 7: "pytest"}
TAGS = ("queue", "choice")


def merged(path):
    """Ours (ids 1-6), then theirs as a union merge appends it: 2 and 5 again, byte for byte,
    a new 7, and id-3 again with another answer (damage)."""
    ours = [rec(n, question=SUBJECTS[n], answer=BROKERS[n], tags=TAGS,
                decided_at=f"2026-01-0{n}T00:00:00Z") for n in range(1, 7)]
    damaged = dict(ours[2], answer="tampered")
    theirs = [ours[1], ours[4], rec(7, question=SUBJECTS[7], answer=BROKERS[7], tags=TAGS,
                                    decided_at="2026-01-07T00:00:00Z"), damaged]
    write_records(path, ours + theirs)
    return path


@pytest.fixture
def path(tmp_path):
    return merged(tmp_path / "l.jsonl")


def ids(found):
    return [r["id"] for r in found]


def test_search_counts_each_record_once_and_uses_the_first_line(path):
    for mode in search.MODES:
        found = search.search(path, "demo", "queue choice", 3, mode)
        assert len(set(ids(found))) == len(found) == 3, mode
        assert all(r["answer"] == BROKERS[int(r["id"][3:])] for r in found), mode
    assert ids(search.search(path, "demo", "queue", 3)) == ["id-7", "id-6", "id-5"]
    found = search.search(path, "demo", "CI runner", 3)
    assert ids(found)[0] == "id-3" and found[0]["answer"] == "kafka"  # the first line of the id


def test_recall_and_automatic_recall_count_once(path):
    items = recall.recall(path, "demo", "queue choice")
    assert len({i["mem_id"] for i in items}) == len(items) == 3
    found = [a["record"] for a in inject.answers(path, "demo", SUBJECTS[5])]
    assert len(set(ids(found))) == len(found) and "id-5" in ids(found)


def test_prime_and_every_page_count_once(path):
    assert ids(prime.recent(path, "demo", 50)) == [f"id-{n}" for n in range(7, 0, -1)]
    for size in (1, 2, 3, 7):
        got, after = [], None
        while True:
            page, after = browse.page(path, "demo", size, after)
            got += page
            if after is None:
                break
        assert ids(got) == [f"id-{n}" for n in range(7, 0, -1)], size
        assert next(r for r in got if r["id"] == "id-3")["answer"] == "kafka"


def test_show_gives_the_first_line(path):
    assert browse.find(path, "demo", "id-3")["answer"] == "kafka"


def test_relevance_counts_a_twice_written_record_as_one_hit(path):
    scorer = rank.Scorer(*rank.query_terms("choice"))
    for offset, r in ledger_mod.records(path, "demo"):
        scorer.add(offset, r)
    assert len(scorer.hits) == 7


def test_a_duplicate_in_the_top_k_never_takes_two_slots_in_any_order(tmp_path):
    """Random ledgers of records repeated byte for byte (what a merge leaves), in random order:
    no id twice in any read, every record shown is its id's first line, and prime over the
    whole ledger lists each id once."""
    rng = random.Random(28)
    for trial in range(30):
        base = [rec(n, question=f"queue {rng.choice(['redis', 'pg', 'kafka'])}",
                    decided_at=f"2026-01-{rng.randint(1, 5):02d}T00:00:0{rng.randint(0, 3)}Z")
                for n in range(12)]
        lines = base + [dict(rng.choice(base)) for _ in range(12)]
        rng.shuffle(lines)
        path = tmp_path / f"l{trial}.jsonl"
        write_records(path, lines)
        first = {}
        for r in lines:
            first.setdefault(r["id"], r)
        reads = [search.search(path, "demo", q, 3) for q in ("queue", "redis", "", "pg kafka")]
        reads += [prime.recent(path, "demo", k) for k in (1, 5, 50)]
        reads.append(browse.page(path, "demo", 4)[0])
        for found in reads:
            assert len(set(ids(found))) == len(found)
            assert all(r == first[r["id"]] for r in found)
        assert len(prime.recent(path, "demo", 50)) == 12


def test_the_cli_and_the_session_start_hook_count_once(tmp_path, shop):  # noqa: F811
    project, home = shop
    target = project / ".claude" / "state" / "judgment-ledger.jsonl"
    target.parent.mkdir(parents=True)
    merged(target)
    text = target.read_text().replace('"project":"demo"', '"project":"shop"')
    target.write_text(text)
    env = hermetic_env(tmp_path)
    r = ledger("search", "--project", "shop", "--query", "queue", cwd=project, env=env)
    assert [json.loads(l)["id"] for l in r.stdout.splitlines()] == ["id-7", "id-6", "id-5"]
    r = ledger("list", "--project", "shop", "--json", cwd=project, env=env)
    assert len(json.loads(r.stdout)["decisions"]) == 7
    r = run_hook("SessionStart", {"session_id": "s", "hook_event_name": "SessionStart",
                                  "source": "startup"}, home, project)
    assert r.returncode == 0 and r.stdout.count("id `id-5`") == 1 and r.stdout.count("- ") == 5
    r = run_hook("PreToolUse", dict(ask_payload("PreToolUse", project), tool_input={"questions": [
        {"question": SUBJECTS[5], "header": "Q", "multiSelect": False,
         "options": [{"label": "a"}, {"label": "b"}]}]}), home, project)
    assert r.returncode == 0 and r.stdout.count("judgment-ledger:id-5") == 1, r.stdout


# --- only valid records are read ------------------------------------------------------------

VALID = rec(1, question="queue valid")
INVALID = {  # each is one change that the schema refuses (verify names the line)
    "decided_at yesterday": dict(VALID, decided_at="yesterday"),
    "decided_at without zone": dict(VALID, decided_at="2026-01-01T00:00:00"),
    "no rationale": {k: v for k, v in VALID.items() if k != "rationale"},
    "no tags": {k: v for k, v in VALID.items() if k != "tags"},
    "an extra field": dict(VALID, colour="red"),
    "empty answer": dict(VALID, answer=""),
    "empty card_ref": dict(VALID, card_ref=""),
    "tags not a list": dict(VALID, tags="a,b"),
    "an empty tag": dict(VALID, tags=["a", ""]),
    "a tag not a string": dict(VALID, tags=[1]),
    "rationale not a string": dict(VALID, rationale=None),
    "id not a string": dict(VALID, id=7),
}
ACCEPTED = {  # and what it accepts
    "fractional seconds and an offset": dict(VALID, decided_at="2026-01-01T00:00:00.123+09:00"),
    "an empty rationale and no tags": dict(VALID, rationale="", tags=[]),
    "a time the calendar lacks (no format check)": dict(VALID, decided_at="2026-13-45T99:99:99Z"),
}


@pytest.mark.parametrize("case", sorted(INVALID) + sorted(ACCEPTED))
def test_readers_accept_exactly_what_the_schema_accepts(case):
    doc = INVALID.get(case) or ACCEPTED[case]
    by_schema = not list(schema.errors(schema.LEDGER, doc))
    assert ledger_mod.is_record(doc) is by_schema is (case in ACCEPTED)


def test_the_decided_at_pattern_is_the_schemas():
    pattern = schema.load(schema.LEDGER)["properties"]["decided_at"]["pattern"]
    assert ledger_mod.DECIDED_AT.pattern == pattern
    assert list(ledger_mod.FIELDS) == schema.load(schema.LEDGER)["required"]


@pytest.mark.parametrize("case", sorted(INVALID))
def test_search_recall_list_and_prime_skip_a_line_verify_calls_invalid(tmp_path, case):
    path = tmp_path / "l.jsonl"
    write_records(path, [INVALID[case], rec(2, question="queue other")])
    report = verify.verify(path)
    assert [n for n, _ in report.bad] == [1]
    assert ids(search.search(path, "demo", "queue", 3)) == ["id-2"]
    assert ids(search.search(path, "demo", "", 3)) == ["id-2"]
    assert [i["mem_id"] for i in recall.recall(path, "demo", "queue")] == ["judgment-ledger:id-2"]
    assert ids(prime.recent(path, "demo", 5)) == ["id-2"]
    assert ids(browse.page(path, "demo", 5)[0]) == ["id-2"]

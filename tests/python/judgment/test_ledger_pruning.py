"""The reads parse only the candidate lines that can still rank (search.search's keep,
prime.recent, browse.page): the same results as ranking every record, and the lines that
cannot enter a full top-k are left unparsed (counted at json.loads)."""
import json
import random

import pytest

from ledger_helpers import rec, write_records

from judgment_toolkit.judgment import browse, ledger, prime, search

WORDS = ["queue", "redis", "postgres", "cache", "edge", "retry", "QUEUE", "Straße"]


def every_record(path, project):
    return [(o, r) for o, r in ledger.records(path, project)]


def brute_search(path, project, query, limit):
    whole, tokens = search.parse_query(query)
    ranked = []
    for offset, r in every_record(path, project):
        key = search.rank(r, whole, tokens)
        if key is not None:
            ranked.append((key + (ledger.time_key(r["decided_at"]), offset), r))
    return [r for _, r in sorted(ranked, key=lambda e: e[0], reverse=True)[:limit]]


def brute_newest(path, project):
    found = [((ledger.time_key(r["decided_at"]), o), r) for o, r in every_record(path, project)]
    return [r for _, r in sorted(found, key=lambda e: e[0], reverse=True)]


@pytest.fixture
def shuffled(tmp_path):
    """600 records in 3 projects, in no time order, times often equal, texts from few words."""
    rng = random.Random(19)
    recs = []
    for n in range(600):
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
        recs.append(rec(n, project=f"p{n % 3}", question=words, answer=rng.choice(WORDS),
                        tags=rng.sample(WORDS, 2),
                        decided_at=f"2026-01-{rng.randint(1, 4):02d}T00:00:0{rng.randint(0, 2)}Z"))
    path = tmp_path / "l.jsonl"
    write_records(path, recs)
    with open(path, "ab") as f:  # an escaped line and a nested decided_at: always parsed
        f.write(b'{"id":"esc","project":"p1","decided_at":"2026-01-09T00:00:00Z",'
                b'"question":"\\u0071ueue","answer":"a","rationale":"","card_ref":"c","tags":[]}\n')
        f.write(b'{"id":"nest","project":"p1","meta":{"decided_at":"2099-01-01T00:00:00Z"},'
                b'"question":"queue","answer":"a"}\n')
    return path


@pytest.mark.parametrize("query", ["queue", "redis queue", "queue redis", "STRASSE", "", "x",
                                   "postgres cache edge", "nothing"])
@pytest.mark.parametrize("limit", [1, 3])
def test_search_is_the_same_as_ranking_every_record(shuffled, query, limit):
    for project in ("p0", "p1"):
        assert search.search(shuffled, project, query, limit) == \
            brute_search(shuffled, project, query, limit)


def test_prime_and_pages_are_the_same_as_sorting_every_record(shuffled):
    for project in ("p1", "p2"):
        newest = brute_newest(shuffled, project)
        for limit in (1, 5, 50):
            assert prime.recent(shuffled, project, limit) == newest[:limit]
        got, after = [], None
        while True:
            found, after = browse.page(shuffled, project, 7, after)
            got += found
            if after is None:
                break
        assert got == newest


@pytest.fixture
def newest_first(tmp_path):
    """2000 records of one project that all hold the query word; the first 5 lines are the
    newest and hold the whole query, the rest are older (a ledger in no time order)."""
    recs = [rec(n, question="which worker queue now", decided_at=f"2026-02-0{1 + n}T00:00:00Z")
            for n in range(5)]
    recs += [rec(n, question="a queue question", decided_at="2026-01-01T00:00:00Z")
             for n in range(5, 2000)]
    path = tmp_path / "l.jsonl"
    write_records(path, recs)
    return path


@pytest.fixture
def parses(monkeypatch):
    count = [0]
    real = json.loads

    def counting(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)
    monkeypatch.setattr(json, "loads", counting)
    return count


def test_search_leaves_lines_that_cannot_rank_unparsed(newest_first, parses):
    found = search.search(newest_first, "demo", "worker queue", 3)
    assert [r["id"] for r in found] == ["id-4", "id-3", "id-2"]
    assert parses[0] <= 5  # not 2000


def test_prime_and_list_leave_older_lines_unparsed(newest_first, parses):
    assert [r["id"] for r in prime.recent(newest_first, "demo", 3)] == ["id-4", "id-3", "id-2"]
    assert parses[0] <= 5
    parses[0] = 0
    found, after = browse.page(newest_first, "demo", 3)
    assert [r["id"] for r in found] == ["id-4", "id-3", "id-2"] and after
    assert parses[0] <= 5


@pytest.mark.parametrize("line, key", [
    (b'{"id":"a","decided_at":"2026-01-02T03:04:05Z"}', "2026-01-02T03:04:05.000000"),
    (b'{"decided_at":"2026-01-02T03:04:05Z","x":"\\"decided_at\\":\\"2099"}', None),  # a backslash
    (b'{"decided_at":"2026-01-01T00:00:00Z","decided_at":"2099-01-01T00:00:00Z"}', None),
    (b'{"id":"a"}', None),
    (b'{"decided_at":"2026-01-02T03:04:05+01:00"}', "2026-01-02T02:04:05.000000"),
])
def test_line_time_key_reads_the_bytes_only_when_they_tell_it_exactly(line, key):
    assert ledger.line_time_key(line) == key


@pytest.fixture
def in_time_order(tmp_path):
    """2000 records of one project appended in time order, as append writes them, with
    another project's lines between them."""
    recs = [rec(n, project=("demo", "other")[n % 2], question="a queue question",
                decided_at=f"2026-01-01T{n // 3600:02d}:{n // 60 % 60:02d}:{n % 60:02d}Z")
            for n in range(2000)]
    path = tmp_path / "l.jsonl"
    write_records(path, recs)
    return path


def test_prime_parses_only_what_it_prints_from_a_ledger_in_time_order(in_time_order, parses):
    """Read forward, every line of a ledger in time order is newer than the heap: the first
    pass ranks them by their bytes and parses only the ones it prints."""
    found = prime.recent(in_time_order, "demo", 5)
    assert [r["id"] for r in found] == ["id-1998", "id-1996", "id-1994", "id-1992", "id-1990"]
    assert parses[0] == 5
    assert found == brute_newest(in_time_order, "demo")[:5]


def test_prime_falls_back_to_the_exact_pass_when_a_kept_line_is_no_record(in_time_order, parses):
    """The newest lines name the project only in another field, or are no record at all: the
    first pass kept them unparsed, finds out at the end, and the exact pass gives the answer."""
    with open(in_time_order, "ab") as f:
        f.write(b'{"id":"x1","project":"other","decided_at":"2027-01-01T00:00:00Z",'
                b'"question":"q","answer":"demo"}\n')
        f.write(b'{"id":"x2","project":"demo","decided_at":"2027-01-02T00:00:00Z","question":7,'
                b'"answer":"a"}\n')
    found = prime.recent(in_time_order, "demo", 5)
    assert found == brute_newest(in_time_order, "demo")[:5] and found[0]["id"] == "id-1998"


@pytest.fixture
def three_blocks(tmp_path):
    """About 3 MiB (three of the reader's 1 MiB blocks) of records of three projects in no time
    order, times often equal, every line as append writes it, but for a line of p1 with a
    fraction in its time (early) and a line of p2 whose answer is "p1" (late): for p1 the
    blocks holding them are read line by line; for p0 and p2 every block is ranked whole."""
    rng = random.Random(7)
    recs = [rec(n, project=f"p{n % 3}", rationale="r" * 400,
                decided_at=f"2026-0{rng.randint(1, 3)}-0{rng.randint(1, 9)}T0{rng.randint(0, 2)}:00:00Z")
            for n in range(7000)]
    recs[1000] = rec(1000, project="p1", decided_at="2026-03-09T02:00:00.5Z")
    recs[6500] = rec(6500, project="p2", answer="p1", decided_at="2026-03-09T02:00:00Z")
    path = tmp_path / "l.jsonl"
    write_records(path, recs)
    assert path.stat().st_size > 2 * (1 << 20)
    return path


@pytest.fixture
def times_read(monkeypatch):
    """How many lines had their time read one at a time (ledger.line_time_key, called through)."""
    count = [0]
    real = ledger.line_time_key

    def counting(line):
        count[0] += 1
        return real(line)
    monkeypatch.setattr(ledger, "line_time_key", counting)
    return count


@pytest.mark.parametrize("project", ["p0", "p1", "p2"])
def test_prime_ranks_whole_blocks_as_sorting_every_record_does(three_blocks, times_read, project):
    """A block whose lines of the project are all as append writes them is ranked by one
    expression over it and a selection of its newest (prime._canonical); any other block line
    by line. Either way: the same records as sorting every record, newest first, the later
    line first on equal times."""
    newest = brute_newest(three_blocks, project)
    times_read[0] = 0
    for limit in (1, 5, 50):
        assert prime.recent(three_blocks, project, limit) == newest[:limit]
    if project == "p1":
        assert times_read[0] > 0  # the blocks with p1's odd lines, line by line
    else:
        assert times_read[0] == 0  # every block ranked whole

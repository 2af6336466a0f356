"""Relevance ranking quality: the query-expansion lexicon (judgment.lexicon) and Korean
particle stripping (judgment.analysis.strip_korean). Judgment Ledger v1's rules for the read paths are kept
(judgment-ledger-v1, "Search" and "Recall": project scope, at most 3 results, the same output);
docs/judgment-ledger.md "Ranking: match (default) and relevance" describes what is tested here.
"""
import json
import os

import pytest

from ledger_helpers import (LEXICON_REWRITE, ROOT, hermetic_env, ledger, rec, relevance_ids,
                            write_records)

from judgment_toolkit.judgment import analysis, lexicon, rank


@pytest.fixture
def env(tmp_path):
    return hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl")


def ids(env, text, command="recall"):
    return relevance_ids(env, text, command=command)


def shares_a_term(a, b):
    return bool(set(rank.terms(a)) & set(rank.terms(b)))


# --- the packaged lexicon ----------------------------------------------------------------------

def test_the_packaged_lexicon_loads_and_bridges_korean_and_english():
    lx = lexicon.load()
    assert len(lx) >= 200
    bilingual = [g for g in lx.groups()
                 if any(t.isascii() for e in g for t in e) and any(not t.isascii() for e in g for t in e)]
    assert len(bilingual) >= 150
    assert lx.expand(rank.terms("배포"))["deploy"] == lexicon.EXPANSION_WEIGHT
    assert "배포" in lx.expand(rank.terms("deployment"))
    assert "pagin" in lx.expand(rank.terms("paging"))  # an English synonym group


def test_the_terms_table_is_the_packaged_lexicon_analysed():
    """A process reads the packaged groups from templates/lexicon-terms.txt, never analysing
    lexicon.txt: the table must be lexicon.txt's groups as the analysis reads them now, line for
    line (when either changes, this fails and says how to write it again)."""
    from judgment_toolkit.judgment.deps import packaged_text
    text = packaged_text("lexicon", lexicon.PACKAGED)
    assert packaged_text("lexicon", lexicon.TERMS) == lexicon.generated(text)[lexicon.TERMS], (
        f"templates/lexicon-terms.txt is not lexicon.txt's; write it again: {LEXICON_REWRITE}")
    found = lexicon.lines(text, "packaged")
    assert len(found) == len(lexicon.load()) > 700
    assert lexicon.load().groups() == [lexicon.analyse(where, entries) for where, entries in found]


def test_a_team_lexicon_written_in_capitals_fires_as_folded():
    """A team's group is folded when added, so a capitalised entry fires for a folded query."""
    lx = lexicon.Lexicon()
    lx.add(lexicon.lines("Plausible, Web Analytics\n", "ours"))
    assert [sorted(t for e in g for t in e) for _, g in lx.fired(["plausibl"])] == [
        ["analyt", "plausibl", "web"]]


def test_no_packaged_entry_is_in_two_groups():
    """Two groups that share an entry would join two meanings (Snowball maps a few words of
    two meanings to one stem; the analysis keeps production, productivity and responsive apart,
    analysis._APART, and other such spellings stay out)."""
    seen = {}
    for i, group in enumerate(lexicon.load().groups()):
        for entry in group:
            assert seen.setdefault(entry, i) == i, (entry, group)


@pytest.mark.parametrize("word", ["time", "new", "set", "run", "use", "chang", "thing"])
def test_a_broad_word_fires_no_packaged_group(word):
    """A phrase entry loses its stop words ("time out" is the term "time"): one that keeps
    only a broad word would fire its group on every question that has the word."""
    assert list(lexicon.load().fired([word])) == []


def test_expansion_weights_split_over_an_entrys_terms_and_keep_the_query_terms():
    lx = lexicon.Lexicon()
    lx.add(lexicon.lines("database, db, 데이터베이스\n", "t"))
    added = lx.expand(rank.terms("db"))
    assert added["databas"] == 0.5
    assert [round(added[t], 3) for t in ("데이", "이터", "터베", "베이", "이스")] == [0.1] * 5
    assert "db" not in added  # the query's own term is never added again
    # a Korean word fires its group only when all its bigrams are in the query
    assert lx.expand(rank.terms("데이터를 보내요")) == {}
    assert set(lx.expand(rank.terms("데이터베이스를 바꿀까요"))) == {"databas", "db"}


QUERIES = ["Which message queue, RabbitMQ or SQS?", "mq 바꿀까요?", "배포 전략은 블루그린?",
           "Should the deploy run on k8s?", "데이터베이스를 바꿀까요", "m or mq for the broker?",
           "Rollback the release?", "캐시 TTL은 몇 분?", "The database, db or 데이터베이스?"]


def fresh_lexicon():
    from judgment_toolkit.judgment.deps import packaged_text
    lx = lexicon.Lexicon()
    lx.add_packaged(packaged_text("lexicon", lexicon.TERMS))
    return lx


def test_a_lexicon_that_served_other_queries_fires_what_a_fresh_one_does():
    """Each term's places are kept across queries (Lexicon._places), whatever query first
    asked for them: the groups a query fires do not depend on what came before it."""
    shared = fresh_lexicon()
    for question in QUERIES + QUERIES[::-1]:
        own = rank.terms(question)
        assert shared.fired(own) == fresh_lexicon().fired(own), question
    team = "queue, fifo\nqueuing, waiting line\n"
    shared = lexicon.Lexicon()
    shared.add(lexicon.lines(team, "t"))
    for question in ["Which queue?", "Is queuing needed?"]:
        fresh = lexicon.Lexicon()
        fresh.add(lexicon.lines(team, "t"))
        assert shared.fired(rank.terms(question)) == fresh.fired(rank.terms(question)) != []


def test_the_groups_fired_are_those_of_every_group_read_whole():
    """Lexicon.fired reads only the packaged lines holding one of the query's terms, a whole
    term ("mq" is not in "mqtt", 배포 not in 배포판's 포판): what fires is what checking every
    group would find, in the lexicon's order."""
    groups = lexicon.load().groups()
    for question in QUERIES + ["MQTT broker or a queue?", "m", "배포판은 어디서 받아?"]:
        own = set(rank.terms(question))
        whole = [(frozenset(t for entry in g if own.issuperset(entry) for t in entry), g)
                 for g in groups]
        assert fresh_lexicon().fired(own) == [(s, g) for s, g in whole if s], question


def test_each_term_is_looked_for_once_and_only_its_lines_are_split():
    """A recall asks the lexicon for the same terms many times (the question, its header, each
    candidate's question): the text is searched once a term, and a line is split into its group
    only when it holds one of them, not one line in ten here."""
    lx = fresh_lexicon()
    own = rank.terms("Which message queue, RabbitMQ or SQS?")
    lx.fired(own)
    searched = dict(lx.places)
    assert set(searched) == set(own)
    assert 0 < len(lx.parsed) < len(lx) / 10
    lx.fired(own)
    lx.fired(rank.terms("A queue for messages"))
    assert all(lx.places[t] is places for t, places in searched.items())


def test_the_kept_places_stay_bounded(monkeypatch):
    """A long-lived process (the MCP server) keeps one lexicon and asks it for ever new
    terms: at PLACES_MAX kept, they are dropped and found again when asked."""
    monkeypatch.setattr(lexicon, "PLACES_MAX", 3)
    lx = fresh_lexicon()
    for word in ["queue", "cache", "deploy", "rollback", "database"]:
        lx.fired(rank.terms(word))
        assert len(lx.places) <= 3
    assert lx.fired(rank.terms("queue")) == fresh_lexicon().fired(rank.terms("queue"))


# --- the format ----------------------------------------------------------------------------------

def parse(text):
    return lexicon.parse(text, "team.txt")


def test_format_groups_entries_phrases_comments_and_blank_lines():
    groups = parse("# a comment\n\n  deploy, release , 배포  \nfeature flag, toggle\n"
                   "cache, caching\n")
    assert groups == [[("deploy",), ("releas",), ("배포",)], [("featur", "flag"), ("toggl",)],
                      [("cach",)]]  # one term twice: a group that never adds anything


@pytest.mark.parametrize("text, message", [
    ("deploy, release\nrollback\n", "team.txt: line 2: a group needs at least two entries"),
    ("deploy, , release\n", "team.txt: line 1: an empty entry"),
    ("deploy, release,\n", "team.txt: line 1: an empty entry"),
    ("# c\ndeploy, the\n", "team.txt: line 2: the entry 'the' has no term"),
    ("x, y\n", "team.txt: line 1: the entry 'x' has no term"),
])
def test_format_errors_name_the_file_and_the_line(text, message):
    with pytest.raises(lexicon.LexiconError) as e:
        parse(text)
    assert str(e.value).startswith(message)


# --- Korean particles and endings ------------------------------------------------------------------

@pytest.mark.parametrize("word, stem", [
    ("데이터베이스를", "데이터베이스"), ("캐시는", "캐시"), ("서버에서", "서버"), ("로그로", "로그"),
    ("도입할까요", "도입"), ("보관하나요", "보관"), ("배포되나요", "배포"), ("사용자의", "사용자"),
    ("마이그레이션을", "마이그레이션"), ("결제가", "결제"),
    # at least 2 characters stay: 평가 (evaluation) is not 평 + 가, 좀을 keeps its particle;
    # but a one-syllable loanword of software talk (analysis.KOREAN_ONE_SYLLABLE) loses it
    ("평가", "평가"), ("좀을", "좀을"), ("배포", "배포"), ("큐를", "큐"), ("앱에서", "앱"),
    # casual endings (반말, 음슴체)
    ("확인함", "확인"), ("배포하자", "배포"), ("도입할래", "도입"),
    # the helping verb 주다 of a request (-어 줘, 줌, 주세요): 돌려줘 is 돌려 (give back)
    ("돌려줘", "돌려"), ("보여줌", "보여"), ("알려주세요", "알려"),
    # 별 is "per", as 마다 is "every": 기기별 인증서 is a certificate per device; a word of
    # two syllables keeps it (성별 is sex, 특별 special)
    ("기기별", "기기"), ("강의별로", "강의"), ("사용자마다", "사용자"), ("성별", "성별"), ("특별한", "특별"),
])
def test_korean_particles_and_endings_come_off(word, stem):
    assert analysis.strip_korean(word) == stem


def test_the_docs_count_the_suffixes_and_stopwords_there_are():
    """docs/judgment-ledger.md, "Ranking" steps 2 and 3, state how many suffixes and stopwords
    the analysis holds; the lists are the one place of these facts, the counts follow them."""
    text = " ".join((ROOT / "docs" / "judgment-ledger.md").read_text(encoding="utf-8").split())
    korean = {w for w in analysis.STOPWORDS if not w.isascii()}
    assert f"{len(analysis.KOREAN_SUFFIXES)} suffixes, longest first" in text
    assert f"...; {len(analysis.STOPWORDS) - len(korean)} in all) and {len(korean)} pieces" in text


def test_a_casual_ok_asks_nothing():
    """괜찮아? (is it OK?) ends many casual questions and says nothing about the subject."""
    assert rank.terms("배터리 소모는 얼마까지 괜찮아?") == rank.terms("배터리 소모는 얼마까지?")


def test_korean_auxiliaries_ask_nothing_as_english_stopwords_do():
    """있어요 (can, there is), 돼요 (may), 하고 (and do), 싶은 (want to): "할 수 있어요?" is "can
    it ...?", and English says it with stopwords; the question's other words are its terms.
    The forms of 없다 (none, not there) stay words: "자리 없어" is "no seats left" in the
    lexicon, which would otherwise fire on any 자리."""
    assert rank.terms("면접관 전용 앱 있어요?") == rank.terms("면접관 전용 앱?")
    assert rank.terms("알바생이 주문 취소해도 돼요?") == rank.terms("알바생이 주문 취소?")
    assert rank.terms("캠핑장 반려견 되지?") == rank.terms("캠핑장 반려견?")
    assert rank.terms("환불 받고 싶어요") == rank.terms("환불 받고")
    assert "없어" in rank.terms("자리 없어")
    # a word that only holds an auxiliary's letters is untouched (맛있는 is "tasty")
    assert rank.terms("맛있는") == ["맛있"]


def test_korean_words_lose_particle_bigrams_and_question_words():
    assert rank.terms("데이터베이스를 어떻게 백업할까요?") == ["데이", "이터", "터베", "베이", "이스", "백업"]
    assert rank.terms("캐시는 언제 무효화해야 하나요?") == ["캐시", "무효", "효화"]
    # a record's particle no longer hides its word, and never makes a match of its own
    assert set(rank.terms("로그를")) == set(rank.terms("로그는")) == {"로그"}


def test_a_korean_question_finds_its_particle_free_decision(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [
        rec(1, question="결제 서버 증설", answer="다음 분기"),
        rec(2, question="서버를 그는 증설", answer="x"),  # "그는" would share a bigram with 로그는
    ])
    assert ids(env, "결제가 늦으면 서버를 늘릴까요?") == ["id-1", "id-2"]
    assert ids(env, "로그는 어디에 두나요?") == []  # no 그는 bigram any more


# --- cross-language expansion through the real script ------------------------------------------

def test_a_korean_question_finds_an_english_decision(env):
    english = "Run schema migrations automatically during deploy?"
    korean = "배포할 때 데이터베이스 마이그레이션을 돌려도 되나요?"
    assert not shares_a_term(english, korean)  # only the lexicon can connect them
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [
        rec(1, question=english, answer="yes", tags=["database"]),
        rec(2, question="Which font for the marketing site?", answer="Inter"),
    ])
    assert ids(env, korean) == ["id-1"]
    r = ledger("recall", "--project", "demo", "--question", korean, env=env)  # match mode
    assert json.loads(r.stdout) == []


def test_an_english_question_finds_a_korean_decision(env):
    korean = "주문 로그 보관 기간은 30일로 할까요?"
    english = "How long do we retain logs?"
    assert not shares_a_term(english, korean)
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [rec(1, question=korean, answer="30일"),
                                                   rec(2, question="상품 이미지 크기", answer="800px")])
    assert ids(env, english, command="search") == ["id-1"]


def test_the_querys_own_words_outweigh_their_synonyms(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [
        rec(1, question="재시도 policy for webhooks", decided_at="2026-02-01T00:00:00Z"),
        rec(2, question="retry policy for webhooks", decided_at="2026-01-01T00:00:00Z"),
    ])
    # both match both terms; the older record wins because "retry" is the query's own word
    assert ids(env, "retry policy", command="search") == ["id-2", "id-1"]
    assert ids(env, "재시도 policy", command="search") == ["id-1", "id-2"]


# --- a team's own lexicon: $HARNESS_JUDGMENT_LEXICON ------------------------------------------

def test_a_team_lexicon_adds_its_groups(env, tmp_path):
    write_records(env["HARNESS_JUDGMENT_LEDGER"],
                  [rec(1, question="Print the article number on the packing slip?")])
    assert ids(env, "SKU") == []
    first, second = tmp_path / "one.txt", tmp_path / "two.txt"
    first.write_text("# our words\nplausible, web analytics\n", encoding="utf-8")
    second.write_text("sku, article number, 품번\n", encoding="utf-8")
    env[lexicon.ENV] = f"{first}{os.pathsep}{second}"
    assert ids(env, "SKU") == ["id-1"]
    assert ids(env, "품번은 어디에 찍나요") == ["id-1"]
    r = ledger("search", "--project", "demo", "--query", "SKU", env=env)
    assert r.stdout == ""  # the match mode never reads a lexicon


def make_fifo(path):
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("make, message", [
    (lambda p: p, "no such file"),
    (lambda p: (p.mkdir(), p)[1], "cannot be read: not a regular file (a directory)"),
    (lambda p: make_fifo(p), "cannot be read: not a regular file (a FIFO)"),
    (lambda p: (p.write_bytes(b"deploy, \xff\xfe\n"), p)[1], "not UTF-8 text (byte 8)"),
    (lambda p: (p.write_text("deploy, release\nrelease\n"), p)[1],
     "line 2: a group needs at least two entries"),
    (lambda p: (os.truncate(p.open("wb").name, lexicon.MAX_BYTES + 1), p)[1],
     f"larger than {lexicon.MAX_BYTES} bytes"),
])
@pytest.mark.parametrize("command", ["search", "recall"])
def test_a_bad_team_lexicon_is_a_usage_error_naming_it(env, tmp_path, make, message, command):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [rec(1, question="deploy on fridays?")])
    before = (tmp_path / "l.jsonl").read_bytes()
    path = make(tmp_path / "team.txt")
    env[lexicon.ENV] = str(path)
    flag = "--question" if command == "recall" else "--query"
    r = ledger(command, "--project", "demo", flag, "deploy", "--rank", "relevance", env=env)
    assert r.returncode == 64 and r.stdout == ""
    assert r.stderr.startswith(f"judgment-ledger: {command}: lexicon: {lexicon.ENV}: {path}: "
                               f"{message}"), r.stderr
    assert r.stderr.count("\n") == 1 and r.stderr.endswith("\n")
    assert (tmp_path / "l.jsonl").read_bytes() == before
    # the default mode does not read it
    ok = ledger(command, "--project", "demo", flag, "deploy", env=env)
    assert (ok.returncode, ok.stderr) == (0, "")


def test_card_recall_reports_a_bad_team_lexicon(env, tmp_path):
    from ledger_helpers import card, write_card
    path = write_card(tmp_path / "card.json")
    env[lexicon.ENV] = str(tmp_path / "absent.txt")
    r = card("recall", path, "--project", "demo", "--rank", "relevance", env=env)
    assert r.returncode == 64
    assert r.stderr == (f"judgment-card: recall: lexicon: {lexicon.ENV}: "
                        f"{tmp_path / 'absent.txt'}: no such file\n")


def test_a_bad_packaged_entry_names_its_line():
    """The terms table is written from lexicon.txt by terms_table, which names the line of a bad
    entry as a team file's reading does; comments and blank lines are not groups."""
    text = "# a comment\n\ndeploy, release\n  it, the  \n"
    with pytest.raises(lexicon.LexiconError, match="the packaged lexicon.txt: line 4: the entry 'it'"):
        lexicon.terms_table(text)
    lx = lexicon.Lexicon()
    lx.add_packaged(lexicon.terms_table(text[:-len("  it, the  \n")]))
    assert len(lx) == 1 and lx.groups() == [[("deploy",), ("releas",)]]


def test_the_last_line_of_a_table_without_a_line_end_is_read_whole():
    lx = lexicon.Lexicon()
    lx.add_packaged("# terms\ndeploy,releas\nqueue,fifo")
    assert len(lx) == 2 and lx.groups() == [[("deploy",), ("releas",)], [("queue",), ("fifo",)]]
    assert lx.fired(["fifo"]) == [(frozenset({"fifo"}), [("queue",), ("fifo",)])]


def test_words_snowball_merges_with_another_meaning_keep_their_own_term():
    """docs/judgment-ledger.md, "Scoring", step 4 (Stem): Snowball stems production,
    productivity and product alike, responsive and response alike; as software teams write them
    they are apart, and production is prod, the environment, so it fires the lexicon's group of
    prod (운영 환경), never that of a catalog's products (상품)."""
    term = analysis.term
    assert term("production") == term("prod") != term("product")
    assert term("productivity") not in (term("product"), term("prod"))
    assert term("responsive") != term("response")
    fired = [group for _, group in lexicon.load().fired([term("production")])]
    assert any(("운영", "환경") in group for group in fired)
    assert not any(("상품",) in group for group in fired)
    assert any(("상품",) in group for _, group in lexicon.load().fired([term("product")]))

"""Recall for automatic injection (judgment.inject.answers; docs/judgment-ledger.md, "Recall
for automatic injection"): a past decision only when it answers the question, the newest first
on one topic, nothing otherwise. Judgment Ledger v1, "Project Scope": only the asking project's
records. Small hand-made ledgers, real files."""
import json

import pytest

from judgment_toolkit.judgment import inject, ledger
from ledger_helpers import write_records


def decision(rid, question, answer, rationale="", tags=(), project="shop", at="2025-03-01"):
    return {"id": rid, "project": project, "decided_at": f"{at}T10:00:00Z", "question": question,
            "answer": answer, "rationale": rationale, "card_ref": f"cards/{rid}.json",
            "tags": list(tags)}


TEAM = [
    decision("queue", "Use Redis or Postgres for the job queue?", "postgres",
             "one less service to run; SKIP LOCKED handles our volume", ["infra", "queue"]),
    decision("webhooks", "How many times should failed webhook deliveries be retried?",
             "5 times with exponential backoff", "then the endpoint is marked failing"),
    decision("cdn", "What TTL for product pages on the CDN?", "5 minutes", "prices change often"),
    decision("versioning", "Version the public API in the URL path or in a header?", "URL path"),
    decision("logs", "How long do we retain application logs?", "30 days searchable",
             "then one year in cold storage", ["logging"]),
    decision("flags", "Feature flags: buy LaunchDarkly or build our own?", "LaunchDarkly"),
    decision("coverage", "Do we put a minimum code coverage gate in CI?", "no global gate"),
    decision("canary", "Deploy strategy: blue-green or canary?", "canary, 5% for 30 minutes"),
    decision("e2e", "Which tool should we use for the end-to-end tests?", "Playwright",
             "runs the three browsers in CI"),
    decision("passwords", "Which algorithm do we hash passwords with?", "argon2id"),
    decision("paging", "Offset or cursor pagination for list endpoints?", "cursor"),
    decision("darkmode", "Ship dark mode in the first release?", "no, after launch"),
]


@pytest.fixture
def shop(tmp_path):
    path = tmp_path / "ledger.jsonl"
    write_records(path, TEAM)
    return path


def ids(found):
    return [a["record"]["id"] for a in found]


def test_a_paraphrase_is_accepted(shop):
    found = inject.answers(str(shop), "shop", "Should background jobs go through Redis or stay in Postgres?")
    assert ids(found) == ["queue"]
    assert found[0]["earlier"] == []
    assert found[0]["record"] == TEAM[0]  # the record as stored


def test_an_unrelated_question_that_shares_generic_words_is_silent(shop):
    """"Which tool should we use" is what the end-to-end decision asks too; the subject differs."""
    assert inject.answers(str(shop), "shop", "Which tool should we use for the settings page layout?") == []
    assert inject.answers(str(shop), "shop", "Should the new settings page use a modal or a separate route?") == []


def test_a_question_of_stop_words_only_is_silent(shop):
    assert inject.answers(str(shop), "shop", "Should we do it or not?") == []
    assert inject.answers(str(shop), "shop", "") == []


def test_a_korean_question_finds_the_english_decision_through_the_lexicon(shop):
    found = inject.answers(str(shop), "shop", "로그는 며칠 동안 보관할까요?")
    assert ids(found) == ["logs"]


def test_an_english_question_finds_the_korean_decision(tmp_path):
    path = tmp_path / "ledger.jsonl"
    write_records(path, TEAM + [decision("timeout", "결제 API 타임아웃은 몇 초로 둘까?", "30초")])
    found = inject.answers(str(path), "shop", "What timeout should the payment API use?")
    assert ids(found) == ["timeout"]


def test_on_a_reversed_decision_the_newest_leads_and_the_older_is_earlier(tmp_path):
    path = tmp_path / "ledger.jsonl"
    first = decision("api-1", "Use REST or GraphQL for the mobile API?", "REST", at="2025-03-03")
    again = decision("api-0", "REST or GraphQL for the mobile API?", "rest", at="2025-01-10")
    later = decision("api-2", "Should the mobile API move to GraphQL now?", "GraphQL", at="2025-09-09")
    write_records(path, [first, later] + TEAM + [again])  # file order is not time order
    found = inject.answers(str(path), "shop", "Which API style should the mobile app use: REST or GraphQL?")
    assert ids(found) == ["api-2"]
    # newest first; the oldest said the same as the one after it ("rest"), so it is not repeated
    assert [r["id"] for r in found[0]["earlier"]] == ["api-1"]


@pytest.mark.parametrize("later_question, later_answer, reverses", [
    ("Shard the Playwright tests in CI?", "yes, 4 shards", False),
    ("Playwright 테스트 CI에서 샤딩할까?", "4개로 나눈다", False),
    ("Switch the end-to-end tests from Playwright to Cypress?", "Cypress", True),
    ("E2E 테스트 Playwright 대신 Cypress로 바꿀까?", "Cypress로 전환", True),
])
def test_a_later_decision_leads_only_when_it_changes_the_earlier_one(
        tmp_path, later_question, later_answer, reverses):
    """A later decision on the same subject that is not worded as a change (inject.CHANGE,
    CHANGE_KOREAN) builds on the earlier one: it does not take the lead from the decision that
    answers the question, nor is that decision shown as "earlier"."""
    path = tmp_path / "ledger.jsonl"
    first = decision("e2e-tool", "Cypress or Playwright for the end-to-end tests?", "Playwright",
                     at="2025-03-03")
    later = decision("e2e-later", later_question, later_answer, at="2025-09-09")
    write_records(path, [first, later])
    found = inject.answers(str(path), "shop", "Which end-to-end test tool: Cypress or Playwright?",
                           ["Cypress", "Playwright"])
    if reverses:
        assert ids(found)[0] == "e2e-later"
        assert [r["id"] for r in found[0]["earlier"]] == ["e2e-tool"]
    else:
        assert ids(found)[0] == "e2e-tool"
        assert found[0]["earlier"] == []


def test_a_later_decision_asked_as_a_situation_reverses_the_earlier(tmp_path):
    """Step 3 of "The rule" (docs/judgment-ledger.md, "Recall for automatic injection"): a
    decision taken again because something went wrong is often asked as that situation, a
    statement before its question, with no word of a change; it is worded as a change all the
    same, so the newest leads and the decision it reversed is its earlier one."""
    path = tmp_path / "ledger.jsonl"
    first = decision("gx", "Which data quality tool do we use?", "Great Expectations, run from Airflow",
                     tags=["quality"], at="2025-03-03")
    later = decision("elementary", "Nobody maintains the GX suites and half of them fail. "
                     "What do we run for data quality checks?", "dbt tests plus Elementary",
                     tags=["quality"], at="2026-02-02")
    write_records(path, [first, later] + TEAM)
    found = inject.answers(str(path), "shop", "Adding quality checks to the new mart: which tool?",
                           ["dbt tests + Elementary", "Great Expectations"])
    assert ids(found) == ["elementary"]
    assert [r["id"] for r in found[0]["earlier"]] == ["gx"]


@pytest.mark.parametrize("question, answer, changes", [
    ("Should the job queue stay on Redis?", "No, Postgres", True),
    ("잡 큐 이제 Postgres로 할까?", "Postgres", True),
    ("Keep Redis for the job queue?", "No, Postgres", True),
    ("Redis broke twice this month. What runs the job queue?", "Postgres", True),
    ("Which job queue for the new service?", "Postgres", False),
    ("잡 큐 뭐로 해?", "Redis", False),
])
def test_what_is_worded_as_a_change(question, answer, changes):
    """Step 3 of "The rule" (docs/judgment-ledger.md, "Recall for automatic injection"): the
    words of a change, English and Korean (inject.CHANGE: keep and stay, 지금 and 이제, ...), or a
    question asked as a situation, a statement before it asks."""
    rec = decision("q", question, answer)
    assert inject._changes(rec, inject.Topic()._words(rec)) is changes


def test_an_older_decision_on_a_neighbouring_question_is_no_earlier_answer(tmp_path):
    """The later of two decisions must be worded as a change for the older to be shown as
    what it reversed: the logging library is not an earlier Python version."""
    path = tmp_path / "ledger.jsonl"
    logging = decision("logging", "Which logging library for the Python services?", "structlog",
                       at="2025-01-10")
    version = decision("version", "Which Python version for new services?", "3.12",
                       at="2025-06-01")
    write_records(path, [logging, version])
    found = inject.answers(str(path), "shop", "Python version for the new services?")
    assert ids(found) == ["version"]
    assert found[0]["earlier"] == []


@pytest.mark.parametrize("answers_by_itself", [False, True])
def test_alike_questions_not_worded_as_a_change_are_one_topic_only_when_both_answer(
        answers_by_itself):
    """Step 3 of "The rule" (docs/judgment-ledger.md, "Recall for automatic injection"): two
    decisions whose questions are at least SAME_CERTAIN alike, the later not worded as a
    change, answer the same question only when the later one (the candidate) answers the asked
    question by itself as well (`alone`: the candidates the rule accepts by themselves). By
    likeness alone a neighbour joined and led: a coin's expiry for a coin's price."""
    price = decision("price", "Coin price in the shop for new players?", "100 won", at="2025-02-04")
    expiry = decision("expiry", "Coin expiry in the shop for new players?", "5 years",
                      at="2025-07-27")
    topic = inject.Topic()
    a, b = topic._words(price), topic._words(expiry)
    assert topic.alike(a, b) >= inject.SAME_CERTAIN
    assert not inject._changes(expiry, b)
    alone = {id(price): 0, id(expiry): 0} if answers_by_itself else {id(price): 0}
    assert topic.same(price, expiry, 0.3, alone) is answers_by_itself


def test_two_subjects_asked_at_once_give_two_answers_best_first(shop):
    found = inject.answers(str(shop), "shop",
                           "How long do we retain application logs, and what TTL for product pages on the CDN?")
    assert set(ids(found)) == {"logs", "cdn"}
    assert all(a["earlier"] == [] for a in found)


def test_each_question_asked_at_once_is_measured_alone(tmp_path, monkeypatch):
    """A decision answering one of two questions asked together covers half of the whole
    question's words: it is measured against its part (inject._parts), and MARGIN holds within
    each part. Without the parts, only the budget was found."""
    path = tmp_path / "ledger.jsonl"
    write_records(path, TEAM + [
        decision("budget", "Bundle size budget for the console?", "200 KB of JS, gzipped, checked in CI"),
        decision("charts", "Charts library for the dashboards?", "Recharts")])
    asked = "Before we add the charts page: which bundle size budget applies, and which charts library should it use?"
    found = inject.answers(str(path), "shop", asked)
    assert [(a["record"]["id"], a["part"]) for a in found] == [("charts", 2), ("budget", 1)]
    monkeypatch.setattr(inject, "PART_JOINS", ())
    assert ids(inject.answers(str(path), "shop", asked)) == ["budget"]


ASPECTS = [decision("warehouse", "Which GCP region for the warehouse?", "asia-northeast3 (Seoul)"),
           decision("tracing", "Sentry performance tracing: what sample rate?", "10%")]


def test_a_decision_that_shares_only_an_aspect_of_the_question_is_no_answer(tmp_path, monkeypatch):
    """The subject: a decision must hold a word of what the question is about, not only of the
    aspect it asks (inject.FACET: which region, what sample rate, how often). Without FACET,
    the sample rate of tracing was the answer for session replays."""
    path = tmp_path / "ledger.jsonl"
    write_records(path, TEAM + ASPECTS)
    kafka = ("Which region should the Kafka cluster run in?", ["asia-northeast3", "asia-northeast1"])
    replays = ("What sample rate should session replays use in the app?", ["1%", "10%", "Only on errors"])
    assert inject.answers(str(path), "shop", *kafka) == []
    assert inject.answers(str(path), "shop", *replays) == []
    monkeypatch.setattr(inject, "FACET", "")
    assert ids(inject.answers(str(path), "shop", *replays)) == ["tracing"]


@pytest.mark.parametrize("question, labels, found", [
    ("Which region should the warehouse run in now?", ["asia-northeast3", "asia-northeast1"], ["warehouse"]),
    ("웨어하우스 리전은 어디로 할까?", ["서울", "도쿄"], ["warehouse"]),  # by its sound
    ("트레이싱 샘플링 비율은?", ["1%", "10%"], ["tracing"]),  # through the lexicon
    ("What sample rate for tracing?", ["1%", "10%"], ["tracing"]),
])
def test_a_decision_that_holds_the_subject_is_still_the_answer(tmp_path, question, labels, found):
    path = tmp_path / "ledger.jsonl"
    write_records(path, TEAM + ASPECTS)
    assert ids(inject.answers(str(path), "shop", question, labels)) == found


def test_a_question_that_names_no_subject_holds_every_decision():
    """A question of aspects and generic words only ("How long, and how often?") has no subject
    to look for: the rule's other tests decide."""
    for question in ("How long, and how often?", "Which region?", "몇 시간 주기로?"):
        assert inject.Query(question, [], None).holds_subject(TEAM[0])
    assert not inject.Query("Which region for Kafka?", [], None).holds_subject(ASPECTS[0])
    assert inject.Query("Which region for Kafka?", [], None).holds_subject(
        decision("k", "Kafka: self-hosted or Confluent?", "Confluent"))


def test_no_word_is_both_generic_and_an_aspect():
    from judgment_toolkit.judgment import analysis
    assert not set(analysis.word_terms(inject.GENERIC)) & set(analysis.word_terms(inject.FACET))


@pytest.mark.parametrize("question, parts", [
    ("Which bundle size budget applies, and which charts library should it use?",
     ["Which bundle size budget applies", "which charts library should it use?"]),
    ("펌웨어 서명 알고리즘이랑 기기 인증 방식", ["펌웨어 서명 알고리즘", "기기 인증 방식"]),
    ("Should we settle both the crash reporting tool and the tracing sample rate?",
     ["Should we settle both the crash reporting tool", "the tracing sample rate?"]),
    # one question: a part of fewer than PART_WORDS words that are not generic
    ("Which crash and error reporting tool should the services report to?", []),
    ("Should we keep using and extending the old client?", []),
    ("Which region for the warehouse?", []),
    # more than PART_MAX: read as one question (each part costs a Query)
    (" and ".join(f"log retention {i}" for i in range(inject.PART_MAX + 1)), []),
    (" and ".join(f"log retention {i}" for i in range(inject.PART_MAX)),
     [f"log retention {i}" for i in range(inject.PART_MAX)]),
])
def test_the_questions_a_question_asks(question, parts):
    assert [q.text for q in inject._parts(question, [], None)] == parts


def test_at_most_max_answers(tmp_path):
    path = tmp_path / "ledger.jsonl"
    same = [decision(f"q{n}", f"Cache product pages on the CDN for {n} minutes?", f"answer {n}",
                     at=f"2025-0{n}-01") for n in range(1, 6)]
    write_records(path, TEAM + same)
    found = inject.answers(str(path), "shop", "How long do we cache product pages on the CDN?")
    assert 1 <= len(found) <= inject.MAX_ANSWERS
    assert found[0]["record"]["id"] == "q5"  # one topic: the newest leads


def test_only_the_asking_projects_records(tmp_path):
    """Judgment Ledger v1, "Project Scope"."""
    path = tmp_path / "ledger.jsonl"
    other = [dict(r, id="blog-" + r["id"], project="blog") for r in TEAM]
    write_records(path, other + TEAM)
    found = inject.answers(str(path), "shop", "Use Redis or Postgres for the job queue?")
    assert ids(found) == ["queue"]
    assert inject.answers(str(path), "wiki", "Use Redis or Postgres for the job queue?") == []
    assert ids(inject.answers(str(path), "blog", "Use Redis or Postgres for the job queue?")) == ["blog-queue"]


def test_option_labels_weigh_less_than_the_question(shop):
    """The labels alone do not make a decision the answer; with the question they help."""
    asked = "Which one should we pick for the settings page?"
    assert inject.answers(str(shop), "shop", asked, ["Redis", "Postgres"]) == []
    found = inject.answers(str(shop), "shop", "Which backend for the job queue?", ["Redis", "Postgres"])
    assert ids(found) == ["queue"]
    # labels naming another decision's subject do not take the lead from the question's own
    found = inject.answers(str(shop), "shop", "Use Redis or Postgres for the job queue?",
                           ["failed webhook deliveries", "retried with exponential backoff"])
    assert ids(found)[0] == "queue"


def test_a_corrupt_line_is_skipped_as_ledger_records_does(tmp_path):
    path = tmp_path / "ledger.jsonl"
    lines = [json.dumps(r) for r in TEAM]
    lines.insert(3, '{"id": "torn", "project": "shop", "question": "Use Redis or Post')
    lines.insert(5, "not json at all: Redis Postgres job queue")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = inject.answers(str(path), "shop", "Use Redis or Postgres for the job queue?")
    assert ids(found) == ["queue"]


def test_a_missing_ledger_has_nothing_and_a_directory_raises(tmp_path):
    assert inject.answers(str(tmp_path / "none.jsonl"), "shop", "Use Redis or Postgres for the job queue?") == []
    with pytest.raises(ledger.NotRegular):
        inject.answers(str(tmp_path), "shop", "Use Redis or Postgres for the job queue?")


def test_the_ledger_is_left_as_it_was(shop):
    before = shop.read_bytes()
    inject.answers(str(shop), "shop", "Use Redis or Postgres for the job queue?", ["Redis", "Postgres"])
    assert shop.read_bytes() == before


def test_a_teams_own_lexicon_links_its_words(tmp_path, shop):
    """$HARNESS_JUDGMENT_LEXICON (docs/judgment-ledger.md, "The lexicon: words that mean the
    same") is read by this recall too, passed as env."""
    path = tmp_path / "ledger.jsonl"
    write_records(path, TEAM + [decision("authz", "Zanzibar-style authorization for sharing?", "yes")])
    words = tmp_path / "team-words.txt"
    words.write_text("rebac, zanzibar\n", encoding="utf-8")
    asked = "Should document sharing use ReBAC?"
    assert inject.answers(str(path), "shop", asked, env={}) == []
    found = inject.answers(str(path), "shop", asked, env={"HARNESS_JUDGMENT_LEXICON": str(words)})
    assert ids(found) == ["authz"]


def test_a_typo_of_a_word_the_ledger_lacks_is_read_as_the_word_one_edit_away(shop):
    """"webhok" is in no record: read as "webhook" (one letter dropped), the decision is found;
    a word two edits away is not corrected."""
    assert ids(inject.answers(str(shop), "shop", "webhok retries?")) == ["webhooks"]
    assert inject.answers(str(shop), "shop", "wbhok retries?") == []


@pytest.mark.parametrize("a, b, near", [
    ("verison", "version", True), ("shfit", "shift", True), ("downlaod", "download", True),
    ("retens", "retent", True), ("webhok", "webhook", True), ("webhooks", "webhook", True),
    ("wbhok", "webhook", False), ("version", "version", False), ("abcde", "edcba", False)])
def test_one_edit(a, b, near):
    assert inject._one_edit(a, b) is near
    assert inject._one_edit(b, a) is near


def test_a_decision_whose_answer_is_offered_needs_a_lower_match(shop):
    """A past answer among the option labels is a decision between the same alternatives: the
    job-queue decision ("Use Redis or Postgres for the job queue?" -> postgres) is accepted
    below ACCEPT when its answer is offered, and not when the options name others."""
    question = "Where do background tasks wait to run?"
    found = inject.judge(str(shop), "shop", question, ["Postgres", "Redis", "SQS"])
    assert found[0][1]["id"] == "queue"
    assert inject.ACCEPT_OFFERED <= found[0][0]["match"] < inject.ACCEPT
    assert ids(inject.answers(str(shop), "shop", question, ["Postgres", "Redis", "SQS"])) == ["queue"]
    assert inject.answers(str(shop), "shop", question, ["SQS", "Kafka"]) == []


def test_a_decision_that_gives_the_offered_quantity_needs_a_lower_match(shop):
    """docs/judgment-ledger.md, "Recall for automatic injection", step 2 "Accept": a past
    answer that gives the quantity an option offers ("30 days searchable" for "30 days") is
    accepted from ACCEPT_VALUE; with the same question and no option of that quantity, it is
    not (the match alone is under ACCEPT)."""
    question = "How long do we hold on to what the app prints?"
    found = inject.judge(str(shop), "shop", question, ["7 days", "30 days", "1 year"])
    assert found[0][1]["id"] == "logs"
    assert inject.ACCEPT_VALUE <= found[0][0]["match"] < inject.ACCEPT
    assert offered(found[0][1]["answer"], ["7 days", "30 days", "1 year"]) is False  # a value
    assert ids(inject.answers(str(shop), "shop", question, ["7 days", "30 days", "1 year"])) \
        == ["logs"]
    assert ids(inject.answers(str(shop), "shop", question, ["7일", "30일", "1년"])) == ["logs"]
    assert inject.answers(str(shop), "shop", question, ["7 days", "90 days", "1 year"]) == []


def test_a_decision_between_the_offered_alternatives_needs_a_lower_match(shop):
    """Same section: a past answer that is an option, from a record whose own question names
    two options or more (it chose between the alternatives offered), is accepted from
    ACCEPT_CHOSEN; when its question names one of them only, the answer that chose one option
    alone (option_of) is accepted from ACCEPT_VALUE, and an answer that is no option is not
    accepted at this match."""
    question = "Where does a client say which release of the public interface it wants?"
    labels = ["URL path", "Header"]
    found = inject.judge(str(shop), "shop", question, labels)
    assert found[0][1]["id"] == "versioning"
    assert inject.ACCEPT_CHOSEN <= found[0][0]["match"] < inject.ACCEPT_OFFERED
    assert ids(inject.answers(str(shop), "shop", question, labels)) == ["versioning"]
    assert ids(inject.answers(str(shop), "shop", question, ["Header", "URL path", "Media type"])) \
        == ["versioning"]
    assert found[0][0]["match"] >= inject.ACCEPT_VALUE
    assert inject._Offered(["URL path", "Query string"], None).alternatives(found[0][1]) == 1
    assert ids(inject.answers(str(shop), "shop", question, ["URL path", "Query string"])) \
        == ["versioning"]
    assert inject.answers(str(shop), "shop", question, ["Query string", "Media type"]) == []


@pytest.mark.parametrize("labels, named", [
    (["URL path", "Header"], 2), (["경로", "헤더"], 2),  # in the lexicon's other words too
    (["URL path", "Query string"], 1), (["Yes", "No"], 0), (["30 days", "1 year"], 0)])
def test_the_options_a_records_question_names(labels, named):
    versioning = next(rec for rec in TEAM if rec["id"] == "versioning")
    assert inject._Offered(labels, None).alternatives(versioning) == named


@pytest.mark.parametrize("answer, named", [
    ("RabbitMQ on our own nodes", 2),  # the question names SQS, the answer chose RabbitMQ
    ("SQS", 1),  # the same option twice
    ("SQS for mail, RabbitMQ for the rest", 1),  # two options: the answer chose neither alone
    ("Kafka", 1),  # no option
])
def test_the_option_a_records_answer_chose_is_one_of_the_alternatives_it_names(answer, named):
    """docs/judgment-ledger.md, "Recall for automatic injection", step 2 "Chosen between the
    options": the options a record names are those its question names and the one its answer
    chose alone; two of them, and the record chose between the alternatives offered, though its
    question names one ("SQS or something we host?" answered "RabbitMQ")."""
    rec = decision("mailq", "Which job queue for the mailer: SQS or something we host?", answer)
    assert inject._Offered(["SQS", "RabbitMQ", "Postgres table"], None).alternatives(rec) == named


def test_a_past_choice_named_in_the_answer_alone_is_recalled(tmp_path):
    """Same section: the record's question names one option, its answer chose another; with
    its question sharing a word of the question asked, it is accepted from ACCEPT_CHOSEN."""
    path = tmp_path / "ledger.jsonl"
    queue = decision("mailq", "Which job queue for the mailer: SQS or something we host?",
                     "RabbitMQ on our own nodes")
    write_records(path, TEAM + [queue])
    question, labels = "Where do the mailer's outgoing messages wait?", ["SQS", "RabbitMQ", "Postgres table"]
    match = inject.judge(str(path), "shop", question, labels)[0]
    assert match[1]["id"] == "mailq"
    assert inject.ACCEPT_CHOSEN <= match[0]["match"] < inject.ACCEPT_OFFERED
    assert ids(inject.answers(str(path), "shop", question, labels)) == ["mailq"]
    # the answer that chose two options is no choice of one (the question names one only): it
    # comes in only as the best candidate naming two options, its note under the question
    write_records(path, TEAM + [dict(queue, answer="SQS for mail, RabbitMQ for the rest")])
    explain = {}
    found = inject.answers(str(path), "shop", question, labels, explain=explain)
    assert explain == {"mailq": "names several options"} and "option" not in found[0]


@pytest.mark.parametrize("labels, answer, named, holds", [
    (["마크다운", "팁탭"], "Markdown", 2, True),  # both labels loanwords of the question's words
    (["마크다운", "TipTap"], "TipTap, with the Markdown shortcuts", 2, True),
    (["마크다운", "Notion"], "Notion", 2, True),  # not in the question, but the answer chose it
    (["마크다운", "팁탭"], "HTML", 2, False),  # an answer that is neither option
])
def test_an_option_written_as_a_loanword_is_the_word_it_sounds_like(labels, answer, named, holds):
    """Same section and "Vocabulary": an option label written in Hangul ("마크다운") names the
    English word it sounds like (judgment.loanword) in a record's question and answer, where
    the lexicon has no group for it."""
    rec = decision("editor", "Editor for admin notices: TipTap or Markdown?", answer)
    offered = inject._Offered(labels, None)
    assert (offered.alternatives(rec), offered.holds(rec)) == (named, holds)


def test_a_choice_between_loanword_options_is_recalled(tmp_path):
    path = tmp_path / "ledger.jsonl"
    write_records(path, TEAM + [decision("editor", "Editor for admin notices: TipTap or Markdown?",
                                         "Markdown")])
    question, labels = "공지 글 쓸 때 뭐 써요?", ["마크다운", "팁탭"]
    match = inject.judge(str(path), "shop", question, labels)[0][0]["match"]
    assert inject.ACCEPT_CHOSEN <= match < inject.ACCEPT_OFFERED
    assert ids(inject.answers(str(path), "shop", question, labels)) == ["editor"]


@pytest.mark.parametrize("header, found", [
    ("", []), ("Approach", []),  # none, or a generic word: the question alone
    ("Rollout", ["rollout"]), ("Release", ["rollout"]), ("출시", ["rollout"]),
])
def test_the_header_names_the_subject_a_question_describes(tmp_path, header, found):
    """docs/judgment-ledger.md, "Recall for automatic injection", step 1 "Rank": the header
    (AskUserQuestion's chip, "Rollout") is the asker's name for the subject; a record is
    measured with it in front of the question and without it, and keeps the better match."""
    path = tmp_path / "ledger.jsonl"
    write_records(path, TEAM + [decision("rollout", "Mobile app release rollout?",
                                         "staged over three days: 10%, 50%, 100%")])
    question = "Is everyone moved to the new app the same morning?"
    assert ids(inject.answers(str(path), "shop", question, ["Yes", "No"], header=header)) == found


def test_a_header_of_the_questions_own_words_changes_nothing(shop):
    question = "Use Redis or Postgres for the job queue?"
    plain = inject.judge(str(shop), "shop", question, ["Redis", "Postgres"])
    headed = inject.judge(str(shop), "shop", question, ["Redis", "Postgres"], header="Job queue")
    assert headed == plain and plain
    assert inject.Query(question, [], None).headed("Job queue", [], None) is None


def offered(answer, labels):
    return inject._Offered(labels, None).holds({"answer": answer})


def test_an_offered_number_is_no_alternative():
    assert offered("10%", ["1%", "10%"]) is False
    assert offered("Postgres", ["Postgres (SKIP LOCKED)"])
    assert offered("yes", ["Yes", "No"]) is False


@pytest.mark.parametrize("answer,labels", [
    ("30 days", ["7 days", "90 days"]),  # the unit of a number is a value, as the number is
    ("1시간", ["1시간", "6시간", "일 1회"]),
    ("every 24h", ["12h", "24h"]),  # a number written with its unit's letter
    ("8 times over 3 days", ["3 times", "5 times"]),
])
def test_a_value_with_its_unit_is_no_alternative(answer, labels):
    """Values offered by many unrelated questions (durations, counts) name no alternative."""
    assert offered(answer, labels) is False


def test_the_words_beside_a_value_still_name_an_alternative():
    assert offered("3 times, then manual review", ["Manual review", "Retry forever"])
    assert offered("Python 3.12", ["Python", "Go"])


def test_an_offered_answer_needs_a_question_about_the_same_thing(shop):
    """An offered answer lowers the threshold only for a decision whose own question holds a
    word of the question asked: the job-queue decision is "postgres", but a question about the
    settings page that offers Redis and Postgres is not about the job queue."""
    question = "Which one should we pick for the settings page?"
    found = inject.judge(str(shop), "shop", question, ["Redis", "Postgres"])
    queue = next(m for m, rec in found if rec["id"] == "queue")
    assert queue["asked_q"] == 0 and queue["match"] >= inject.ACCEPT_OFFERED
    assert inject.answers(str(shop), "shop", question, ["Redis", "Postgres"]) == []


@pytest.mark.parametrize("answer,labels", [
    ("react-hook-form + zod", ["rhf + zod", "formik + yup"]),  # an abbreviation of the lexicon
    ("레디스", ["Redis", "Postgres"]),  # the same product in the other language
    ("Postgres", ["포스트그레스", "레디스"]),
])
def test_an_answer_offered_in_other_words_of_the_lexicon_is_offered(answer, labels):
    assert offered(answer, labels)


@pytest.mark.parametrize("answer,labels", [
    ("react-hook-form + zod", ["formik + yup"]), ("레디스", ["Postgres", "SQS"]),
    ("Kafka", ["Redis", "Postgres"])])
def test_an_answer_no_label_names_is_not_offered(answer, labels):
    assert offered(answer, labels) is False


def test_a_one_syllable_korean_loanword_is_a_word(shop):
    """큐 (queue) and 잡 (job), one syllable each, the first with its particle, in casual
    Korean: the job-queue decision recorded in English is found through the lexicon."""
    assert ids(inject.answers(str(shop), "shop", "잡 큐는 뭐 씀?")) == ["queue"]
    assert ids(inject.answers(str(shop), "shop", "잡 큐 뭘로 할래?")) == ["queue"]


def test_a_translation_counts_less_outside_the_records_question():
    """The lexicon gives "deploy" for 배포: a record that asks about deploys holds the question's
    word at ALT_CREDIT; one that names a deploy only in its rationale, at ALT_FAR."""
    query = inject.Query("배포?", [], {})
    idf = {"배포": 1.0}
    asks = {"question": "When do we deploy?", "answer": "Tuesdays", "rationale": ""}
    names = {"question": "When do we ship?", "answer": "Tuesdays", "rationale": "a deploy a week"}
    assert query.features(asks, idf)["asked"] == pytest.approx(inject.ALT_CREDIT)
    assert query.features(names, idf)["asked"] == pytest.approx(inject.ALT_FAR)
    assert inject.ALT_FAR < inject.ALT_CREDIT



def test_a_question_that_offers_only_numbers_asks_for_a_value(shop):
    """Options that are all numbers ask for a value (judgment.values): the job-queue decision
    ("postgres") holds none, so it does not answer how many workers the queue runs, however many
    words the two share; with options that are not all numbers the rule is as before."""
    question = "How many workers should the Postgres job queue run?"
    found = inject.judge(str(shop), "shop", question, ["2", "4", "8"])
    assert found[0][1]["id"] == "queue" and found[0][0]["match"] >= inject.ACCEPT
    assert inject.answers(str(shop), "shop", question, ["2", "4", "8"]) == []
    assert ids(inject.answers(str(shop), "shop", question, ["2 workers", "Autoscale"])) == ["queue"]
    # a decision whose answer is a value still answers a question of numbers
    assert ids(inject.answers(str(shop), "shop", "How many retries for failed webhook deliveries?",
                              ["3", "5", "8"])) == ["webhooks"]


@pytest.mark.parametrize("tags, found", [(["cli"], ["rust"]), ([], ["go"])])
def test_a_reversal_asked_in_the_earlier_answers_words_leads_by_its_tags(tmp_path, tags, found):
    """docs/judgment-ledger.md, "Recall for automatic injection", step 3: a later decision
    worded as a change whose own question names the earlier answer ("Go 대신 Rust로 다시
    짤까?" after "Go or Rust?" -> Go), far from the question asked by itself, leads when the
    team tagged the two alike; naming the earlier answer alone no longer joins it (the
    held-out sets counted every such join wrong: "A seventh blind set"), and the earlier
    decision is shown alone."""
    path = tmp_path / "ledger.jsonl"
    old = decision("go", "CLI implementation language: Go or Rust?", "Go",
                   "the team knows it; single static binary", tags=tags, at="2025-01-15")
    new = decision("rust", "Go 대신 Rust로 다시 짤까?", "Rust로 재작성, 2분기까지 병행 배포",
                   tags=tags, at="2026-04-27")
    write_records(path, TEAM + [old, new])
    asked = "Which language is the CLI implemented in?"
    judged = {rec["id"]: m for m, rec in inject.judge(str(path), "shop", asked, ["Go", "Rust"])}
    assert judged["rust"]["match"] < inject.NEAR  # far from the asked question by itself
    shown = inject.answers(str(path), "shop", asked, ["Go", "Rust"])
    assert ids(shown) == found
    assert [r["id"] for r in shown[0]["earlier"]] == (["go"] if found == ["rust"] else [])


def test_a_word_of_change_shared_with_an_option_is_no_alternative(tmp_path):
    """docs/judgment-ledger.md, "Recall for automatic injection", step 3: a later decision
    worded as a change joins an earlier one's topic when it speaks of the same alternatives,
    and "keep" of the label "Keep semver" is the word of a change (inject.CHANGE), not an
    alternative: keeping the docs of old versions does not reverse the version scheme."""
    path = tmp_path / "ledger.jsonl"
    scheme = decision("scheme", "Version numbers: semver or calver?", "semver", at="2025-04-06")
    docs = decision("docs", "Keep docs for old version numbers too?",
                    "latest plus the two previous majors", at="2026-02-25")
    write_records(path, TEAM + [scheme, docs])
    asked, labels = "Keep semver for our version numbers?", ["Keep semver", "Switch to calver"]
    judged = {rec["id"]: m for m, rec in inject.judge(str(path), "shop", asked, labels)}
    assert judged["docs"]["match"] >= inject.NEAR  # near enough to be weighed as a reversal
    found = inject.answers(str(path), "shop", asked, labels)
    assert ids(found) == ["scheme"] and found[0]["earlier"] == []


def test_a_later_decision_giving_an_offered_quantity_speaks_of_the_same_alternatives(tmp_path):
    """docs/judgment-ledger.md, "Recall for automatic injection", step 3: a later decision worded
    as a change, near the asked question, speaks of its alternatives when its answer gives a
    quantity an option offers ("5회, 24시간" for "5x / 24h", judgment.values.quantities), though
    it shares no word with the labels or the earlier answer: it leads, the earlier is shown."""
    path = tmp_path / "ledger.jsonl"
    team = [d for d in TEAM if d["id"] != "webhooks"]
    first = decision("retries", "How many times should failed webhook deliveries be retried?",
                     "8 times over 3 days, exponential backoff", at="2025-03-04")
    fewer = decision("fewer", "웹훅 재시도 횟수 줄일까요? 가맹점 서버 부하 민원이 들어옴",
                     "5회, 24시간 안에 끝나게", at="2026-07-07")
    write_records(path, team + [first, fewer])
    asked, labels = "webhook retry policy — how many tries, over how long?", ["8x / 3 days", "5x / 24h", "3x / 1h"]
    found = inject.answers(str(path), "shop", asked, labels)
    assert ids(found) == ["fewer"] and [r["id"] for r in found[0]["earlier"]] == ["retries"]
    # the same later decision, its answer a quantity no option offers: not the same alternatives
    other = dict(fewer, answer="6회, 12시간 안에 끝나게")
    write_records(path, team + [first, other])
    assert ids(inject.answers(str(path), "shop", asked, labels)) == ["retries"]


def test_a_decision_whose_answer_chose_one_offered_option_needs_a_lower_match(tmp_path):
    """docs/judgment-ledger.md, "Recall for automatic injection", step 2: a decision whose answer
    chose one of the options offered alone (option_of: "polling every 10 seconds" is "폴링"),
    though its question names only one of them, is accepted from ACCEPT_VALUE, as an answer
    giving an offered quantity is; with options it chose none of, the same match is not enough."""
    path = tmp_path / "ledger.jsonl"
    poll = decision("tracking", "Customer live tracking page: WebSocket or polling?",
                    "polling every 10 seconds", at="2025-08-08")
    write_records(path, TEAM + [poll])
    asked, header = "고객 배송 추적 화면은 위치를 어떻게 받아와요? 주기적으로 요청하나요?", "추적 화면"
    labels = ["폴링", "서버 푸시"]
    [(features, first)] = inject.judge(str(path), "shop", asked, labels, header=header)[:1]
    assert first["id"] == "tracking" and features["asked_q"] > 0
    assert inject.ACCEPT_VALUE <= features["match"] < inject.ACCEPT_OFFERED
    assert inject.option_of(poll["answer"], labels) == ["폴링"]
    assert inject._Offered(labels, None).alternatives(poll) < 2  # names one option of two
    assert ids(inject.answers(str(path), "shop", asked, labels, header=header)) == ["tracking"]
    other = ["서버 푸시", "SSE"]
    assert inject.option_of(poll["answer"], other) == []
    assert inject.answers(str(path), "shop", asked, other, header=header) == []


def test_a_later_decision_that_chose_another_offered_option_reverses_the_earlier(tmp_path):
    """docs/judgment-ledger.md, "Recall for automatic injection", step 3: a later decision near
    the asked question whose answer chose another of the options offered than the accepted
    one's (option_of) is the same choice made again, however differently its question is
    worded: it leads, and the earlier is shown as earlier. Without it the person would be shown
    only the decision that was reversed."""
    path = tmp_path / "ledger.jsonl"
    team = [d for d in TEAM if d["id"] != "coverage"]
    first = decision("coverage", "Do we put a minimum code coverage gate in CI?",
                     "no global gate; 80% on the payments core module only", at="2025-05-14")
    later = decision("gate", "CI 커버리지 게이트를 저장소 전체에 걸까요?", "전체 70% 게이트 적용",
                     at="2026-06-16")
    asked = "Do we enforce a code coverage threshold in CI?"
    labels = ["70% for the whole repo", "80% on the core module only", "No gate"]
    write_records(path, team + [first, later])
    assert inject.option_of(later["answer"], labels) == ["70% for the whole repo"]
    assert inject.option_of(first["answer"], labels) == ["80% on the core module only"]
    found = inject.answers(str(path), "shop", asked, labels)
    assert ids(found) == ["gate"] and [r["id"] for r in found[0]["earlier"]] == ["coverage"]
    # a ledger of these two alone: every word is as common, the later matches less than NEAR
    write_records(path, [first, later])
    judged = {rec["id"]: m["match"] for m, rec in inject.judge(str(path), "shop", asked, labels)}
    assert inject.ACCEPT_VALUE <= judged["gate"] < inject.NEAR
    found = inject.answers(str(path), "shop", asked, labels)
    assert ids(found) == ["gate"] and [r["id"] for r in found[0]["earlier"]] == ["coverage"]
    # the same later decision choosing none of the options: its question alone is too far from
    # the earlier one's to join it, and the earlier answers alone
    undecided = dict(later, answer="다음 분기에 다시 논의")
    write_records(path, team + [first, undecided])
    assert inject.option_of(undecided["answer"], labels) == []
    found = inject.answers(str(path), "shop", asked, labels)
    assert ids(found) == ["coverage"] and found[0]["earlier"] == []


def test_a_later_decision_on_another_subject_choosing_another_offered_value_is_no_reversal(
        tmp_path, monkeypatch):
    """Values ("30 days / 90 days / 1 year") are chosen by decisions on many subjects: a later
    decision that chose another of them joins the topic only when it holds a word of the asked
    question's subject (the units of time are aspects, inject.FACET). Without that, the chat
    transcripts' 30 days led as the reversal of the call recordings' 90 days."""
    path = tmp_path / "ledger.jsonl"
    calls = decision("calls", "How long do we retain support call recordings?", "90 days", at="2025-02-01")
    chats = decision("chats", "채팅 상담 내역은 며칠 보관해?", "30일", at="2026-04-01")
    write_records(path, TEAM + [calls, chats])
    asked = ("Support call recordings: how many days do we keep them?", ["30 days", "90 days", "1 year"])
    found = inject.answers(str(path), "shop", *asked)
    assert [(a["record"]["id"], a["earlier"]) for a in found] == [("calls", [])]
    assert not inject.Query(asked[0], [], None).holds_subject(chats)
    monkeypatch.setattr(inject, "FACET", "")
    assert ids(inject.answers(str(path), "shop", *asked))[0] == "chats"


def test_of_two_decisions_of_one_second_the_later_line_is_the_newer(tmp_path):
    """docs/judgment-ledger.md, "Recall for automatic injection", step 3: the newest leads,
    and of two decisions appended in the same second (decided_at has whole seconds) the later
    line of the ledger is the newer, as prime orders them."""
    path = tmp_path / "ledger.jsonl"
    first = decision("first", "Use Redis or Postgres for the job queue?", "redis", at="2025-03-03")
    moved = decision("moved", "Move the job queue from Redis to Postgres?", "postgres", at="2025-03-03")
    asked = "Which job queue: Redis or Postgres?"
    for order, lead, earlier in (([first, moved], "moved", "first"), ([moved, first], "first", "moved")):
        write_records(path, TEAM[1:] + order)
        found = inject.answers(str(path), "shop", asked, ["Redis", "Postgres"])
        assert ids(found)[0] == lead and [r["id"] for r in found[0]["earlier"]] == [earlier]


@pytest.mark.parametrize("later_question, later_answer, reverses", [
    ("밴 경로 계산, OSRM 대신 Valhalla로 갈까?", "Valhalla로 전환", True),
    ("Valhalla에 밴 높이 제한 프로필 추가?", "Valhalla, 2.5 m 높이 제한", False),
])
def test_a_later_change_that_answers_by_itself_under_the_margin_leads(
        tmp_path, later_question, later_answer, reverses):
    """docs/judgment-ledger.md, "The rule", step 3 "One topic, newest first": a later decision
    worded as a change that the rule accepts by itself (here an offered option), but under
    MARGIN of the earlier decision's match, joins the earlier one's topic and leads, however
    few words the two questions share (one English, one Korean). A later decision on the same
    engine that is no change stays apart, and under MARGIN it is not shown."""
    path = tmp_path / "ledger.jsonl"
    first = decision("route-1", "Routing engine for the delivery vans: OSRM or GraphHopper?",
                     "OSRM, self-hosted", at="2025-01-28")
    later = decision("route-2", later_question, later_answer, at="2026-01-10")
    write_records(path, TEAM + [first, later])
    question = "Which engine computes the delivery vans' routes now?"
    labels = ["OSRM", "Valhalla", "Google Routes API"]
    judged = {rec["id"]: m for m, rec in inject.judge(str(path), "shop", question, labels)}
    assert judged["route-2"]["match"] < inject.MARGIN * judged["route-1"]["match"]
    found = inject.answers(str(path), "shop", question, labels)
    if reverses:
        assert judged["route-2"]["match"] >= inject.ACCEPT_OFFERED
        assert ids(found) == ["route-2"]
        assert [r["id"] for r in found[0]["earlier"]] == ["route-1"]
    else:
        assert ids(found) == ["route-1"]
        assert found[0]["earlier"] == []


@pytest.mark.parametrize("labels, found", [
    (["50만 원", "100만 원", "200만 원"], ["approve"]),
    (["50만 원", "200만 원"], []),
])
def test_an_amount_in_myriads_is_the_amount_in_digits(tmp_path, labels, found):
    """docs/judgment-ledger.md, "Recall for automatic injection", step 2 "The quantity
    offered": Korean writes large amounts by 만 (10,000), so the label "100만 원" offers the
    amount "₩1,000,000" a past answer gives, and the decision is accepted from ACCEPT_VALUE;
    without the amount among the labels it stays under ACCEPT."""
    path = tmp_path / "ledger.jsonl"
    write_records(path, TEAM + [decision("approve", "Auto-approve small claims up to what amount?",
                                         "₩1,000,000", at="2025-05-01")])
    question = "소액 청구 자동 승인 한도는 얼마야?"
    match = {rec["id"]: m["match"] for m, rec in inject.judge(str(path), "shop", question, labels)}
    assert inject.ACCEPT_VALUE <= match["approve"] < inject.ACCEPT
    assert ids(inject.answers(str(path), "shop", question, labels)) == found


@pytest.mark.parametrize("later_tags, third, reverses", [
    (["deductible", "glass"], False, True),
    (["glass"], False, False),
    (["deductible", "glass"], True, False),
])
def test_a_later_change_with_the_same_rare_tags_leads(tmp_path, later_tags, third, reverses):
    """docs/judgment-ledger.md, "The rule", step 3 "One topic, newest first": a later decision
    worded as a change, on the asked subject, at least SAME_TAGGED alike, joins the earlier
    decision's topic and leads when the two carry the same tags, a set no more than
    TAGS_SHARED of the candidates carry: the English change of a Korean decision, which the
    lexicon links by few words. Other tags, or a tag set that a third candidate carries too,
    and the earlier decision is shown alone."""
    path = tmp_path / "ledger.jsonl"
    first = decision("glass-1", "유리 파손 단독 청구 자기부담금은?", "20만 원",
                     tags=["deductible", "glass"], at="2025-02-17")
    later = decision("glass-2", "Switch the glass claim deductible?",
                     "Waived when repaired at a network shop", tags=later_tags, at="2026-01-18")
    more = [decision("glass-3", "Glass repair shops: which network?", "Partner shops only",
                     tags=["deductible", "glass"], at="2025-06-01")] if third else []
    write_records(path, TEAM + [first, later] + more)
    question = "유리 파손 청구, 고객 자기부담금은 얼마예요?"
    judged = {rec["id"]: m for m, rec in inject.judge(str(path), "shop", question)}
    assert judged["glass-2"]["match"] < inject.NEAR  # not near the question by itself
    assert "glass-3" in judged or not third
    explain = {}
    found = inject.answers(str(path), "shop", question, explain=explain)
    if reverses:
        assert ids(found) == ["glass-2"] and [r["id"] for r in found[0]["earlier"]] == ["glass-1"]
        assert explain == {"glass-1": "match", "glass-2": "joined: worded as a change, same tags"}
    else:
        assert ids(found) == ["glass-1"] and found[0]["earlier"] == []


@pytest.mark.parametrize("tags, reverses", [(["deductible", "glass"], True), (["glass"], False)])
def test_a_later_change_less_alike_joins_by_two_rare_tags(tmp_path, tags, reverses):
    """docs/judgment-ledger.md, "The rule", step 3 "One topic, newest first": a later decision
    worded as a change, on the asked subject, with the same rare tag set, joins the earlier
    decision's topic under SAME_TAGGED alike when the set holds two tags or more: a reversal
    asked as a situation in the other language shares almost no words with the decision it
    reverses. A single tag, broad as a team's single tags are, asks SAME_TAGGED."""
    path = tmp_path / "ledger.jsonl"
    first = decision("glass-1", "유리 파손 단독 청구 자기부담금은?", "20만 원", tags=tags,
                     at="2025-02-17")
    later = decision("glass-2", "Drivers keep disputing the deductible at the counter. What do "
                     "we charge now?", "Nothing when repaired at a network shop", tags=tags,
                     at="2026-01-18")
    write_records(path, TEAM + [first, later])
    question = "유리 파손 청구, 고객 자기부담금은 얼마예요?"
    judged = {rec["id"]: (m, rec) for m, rec in inject.judge(str(path), "shop", question)}
    assert judged["glass-2"][0]["subject"] and judged["glass-2"][0]["match"] < inject.NEAR
    topic = inject.Topic()
    words = [topic._words(judged[key][1]) for key in ("glass-1", "glass-2")]
    assert topic.alike(*words) < inject.SAME_TAGGED
    found = inject.answers(str(path), "shop", question)
    if reverses:
        assert ids(found) == ["glass-2"] and [r["id"] for r in found[0]["earlier"]] == ["glass-1"]
    else:
        assert ids(found) == ["glass-1"] and found[0]["earlier"] == []


@pytest.mark.parametrize("labels, found", [
    (["Per merchant", "Per API key"], []),
    (["Yes", "No"], ["keys"]),
])
def test_a_value_alone_does_not_answer_which_thing(tmp_path, labels, found):
    """docs/judgment-ledger.md, "Recall for automatic injection", step 2, "A thing asked for":
    options that name two things ask which, and a decision whose answer is a value alone
    answers how long; with options that name nothing, the same decision is shown."""
    path = tmp_path / "ledger.jsonl"
    write_records(path, TEAM + [decision("keys", "How long do we keep idempotency keys before "
                                         "they expire?", "24 hours", at="2025-05-01")])
    question = "How should idempotency keys be scoped?"
    judged = {rec["id"]: m for m, rec in inject.judge(str(path), "shop", question, labels)}
    assert judged["keys"]["match"] >= inject.ACCEPT
    assert ids(inject.answers(str(path), "shop", question, labels)) == found


@pytest.mark.parametrize("later_tags, found", [
    (["queue"], [("q-2", ["q-1"])]),  # a tag shared: one topic, the newest first
    ([], [("q-2", ["q-1"])]),  # no tags to tell: the words decide
    (["billing"], [("q-1", []), ("q-2", [])]),  # tags that share none: two subjects
])
def test_decisions_whose_tags_share_none_are_no_topic(tmp_path, later_tags, found):
    """docs/judgment-ledger.md, "The rule", step 3 "One topic, newest first": two decisions
    whose tags share none are on two of the team's subjects, however alike their words and
    however the later one is worded; each is shown as its own answer."""
    path = tmp_path / "ledger.jsonl"
    write_records(path, TEAM[1:] + [
        decision("q-1", "Use Redis or Postgres for the job queue?", "Redis", tags=["infra", "queue"],
                 at="2025-01-01"),
        decision("q-2", "Move the job queue from Redis to Postgres?", "Postgres", tags=later_tags,
                 at="2026-01-01")])
    shown = inject.answers(str(path), "shop", "Which job queue do we run now: Redis or Postgres?",
                           ["Redis", "Postgres"])
    assert [(a["record"]["id"], [r["id"] for r in a["earlier"]]) for a in shown] == found

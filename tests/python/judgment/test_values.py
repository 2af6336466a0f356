"""judgment.values: what in options and answers is a value (docs/judgment-ledger.md, "Recall
for automatic injection", step 2 "Accept")."""
import pytest

from judgment_toolkit.judgment import values


@pytest.mark.parametrize("text, terms", [
    ("30 days", set()), ("1시간", set()), ("10%", set()), ("90d", set()), ("every 24h", set()),
    ("3 times, then manual review", {"manual", "review"}), ("Python 3.12", {"python"}),
    ("asia-northeast3 (Seoul)", {"asia", "northeast3", "seoul"}), ("FIDO2", {"fido2"}),
])
def test_named_leaves_out_numbers_and_their_units(text, terms):
    assert values.named(text) == terms


@pytest.mark.parametrize("labels, asks", [
    (["12", "48", "96"], True), (["30 days", "1 year", "Delete at once"], True),
    (["1시간", "6시간", "일 1회"], True), (["Yes", "No"], False), ([], False),
    (["iOS 16", "iOS 17"], True), (["2", "No cap"], False), (["3", "5", "Never", "Ask"], False),
    (["Python 3.12", "Go", "Rust"], False),
])
def test_most_labels_numbers_is_a_question_that_asks_for_a_value(labels, asks):
    assert values.asks_for_value(labels) is asks


@pytest.mark.parametrize("text", [
    "8 times over 3 days", "two reviewers, one of them from the ledger team", "weekly, by a bot",
    "Twice a day", "never", "하루 한 번", "두 명", "세 번까지", "매주 월요일", "무기한 보관",
])
def test_an_answer_with_a_number_or_a_number_word_holds_a_value(text):
    assert values.holds_value(text)


@pytest.mark.parametrize("text", [
    "Kafka on MSK", "no: fullscreen check and tab-switch logging", "OpenSearch로 이전",
    "someone from the ledger team",  # "one" inside a word is no number
    "한국어 지원", "두부", "세션은 서버에", "세분화", "세대 교체",  # a numeral's syllable inside a word is none either
])
def test_an_answer_without_one_holds_none(text):
    assert values.holds_value(text) is False


@pytest.mark.parametrize("text, found", [
    ("30 days", {("30", "d")}), ("30일", {("30", "d")}), ("원본 90일 후 삭제", {("90", "d")}),
    ("Every 15 min", {("15", "min")}), ("15분마다", {("15", "min")}),
    ("Redis, 10-minute TTL", {("10", "min")}), ("every 5 seconds while on shift", {("5", "s")}),
    ("five years after the last sale", {("5", "y")}), ("하루", {("1", "d")}),
    ("한 달", {("1", "mo")}), ("세 번까지", {("3", "times")}), ("8x", {("8", "times")}),
    ("0.5x to 2x", {("0.5", "times"), ("2", "times")}), ("150 m", {("150", "m")}),
    ("10%", {("10", "%")}), ("1,000 rows", {("1000", None)}), ("WCAG 2.2 AA", {("2.2", None)}),
    ("25/50/100", {("25", None), ("50", None), ("100", None)}),
    # Korean amounts by myriads and thousands: 만 10,000, 천 1,000, 천만, 억
    ("2만 원", {("20000", None)}), ("3만원", {("30000", None)}), ("₩20,000", {("20000", None)}),
    ("100만 원으로 상향", {("1000000", None)}), ("1천만 원 초과", {("10000000", None)}),
    ("5천 원", {("5000", None)}), ("1.5만명", {("15000", "people")}), ("2억", {("200000000", None)}),
    ("30일만", {("30", "d")}),
])
def test_quantities_read_a_number_with_its_unit_in_either_language(text, found):
    """docs/judgment-ledger.md, "Recall for automatic injection", step 2 "Accept": the
    quantity an option offers and a past answer gives, read the same whatever its spelling."""
    assert values.quantities(text) == found


@pytest.mark.parametrize("text", [
    "2", "Android 8.0", "two reviewers",  # one digit, or a number word, without a unit
    "v2", "asia-northeast3", "p95",  # a digit inside a word is no number
    "한국어 지원", "두부", "세션은 서버에", "Kafka on MSK",
])
def test_what_is_no_quantity(text):
    assert values.quantities(text) == set()


@pytest.mark.parametrize("labels, asks", [
    (["Per merchant", "Per API key"], True), (["Photo", "Signature", "PIN code"], True),
    (["Yes", "No"], False),  # no label names anything
    (["30 days", "90 days"], False), (["Redis (10 min TTL)", "Memcached"], False),  # one names
])
def test_a_question_asks_for_a_thing_when_two_labels_name_one_without_a_value(labels, asks):
    """docs/judgment-ledger.md, "Recall for automatic injection", step 2, "A thing asked for"."""
    assert values.asks_for_choice(labels) is asks


@pytest.mark.parametrize("text, alone", [
    ("24 hours", True), ("6년", True), ("₩90,000", True), ("30일", True), ("3.12", True),
    ("6개월로 단축", False), ("Redis, 10-minute TTL", False), ("Yes", False), ("Postgres", False),
])
def test_an_answer_is_a_value_alone_when_it_names_nothing(text, alone):
    assert values.only_value(text) is alone


def test_an_english_question_with_named_options_compiles_no_value_expression(tmp_path):
    """docs/judgment-ledger.md, "Cost": whether an English label or answer holds a number word
    is read from its words (holds_value's ASCII path), so the recall of an English question
    whose options name things never compiles the expression of every value word, Korean
    counters included (milliseconds of every hook that asked it). Counted, never timed."""
    from ledger_helpers import fresh_python, write_records
    path = tmp_path / "ledger.jsonl"
    write_records(path, [{"id": f"r{i}", "project": "shop", "decided_at": "2025-01-01T00:00:00Z",
                          "question": "Which job queue for the new service: Redis or Postgres?",
                          "answer": answer, "rationale": "", "card_ref": "c", "tags": []}
                         for i, answer in enumerate(["Redis", "Yes", "24 hours", "twice a day"])])
    code = ("import sys\n"
            "from judgment_toolkit.judgment import inject, values\n"
            "inject.answers(sys.argv[1], 'shop', 'Which job queue: Redis or Postgres?',"
            " ['Redis', 'Postgres'])\n"
            "print(values._VALUE_WORD is None, values.holds_value('둘 중 하나'),"
            " values._VALUE_WORD is None)\n")
    assert fresh_python(tmp_path, code, path).split() == ["True", "False", "False"]

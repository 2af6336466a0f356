"""Recall for automatic injection (docs/judgment-ledger.md, "Recall for automatic injection",
step 2, "The one decision that names an option"): where the rule accepts no candidate, the one
candidate whose answer alone names an option's own words answers, and only that one. Small
hand-made ledgers, real files."""
import pytest

from judgment_toolkit.judgment import inject
from ledger_helpers import write_records
from test_inject import TEAM, decision, ids

MOCKS = decision(
    "mocks", "The provider test mode rate-limits our nightly runs and half of them flake. How do "
    "E2E tests reach the payment provider now?", "WireMock stubs of its API on staging",
    "its test mode only in a weekly smoke job")
ASKED = "Adding a refund scenario to the checkout E2E suite: should it call the real sandbox?"
LABELS = ["No, WireMock stubs", "Yes, Toss sandbox"]


def ledger_of(tmp_path, *records):
    path = tmp_path / "ledger.jsonl"
    write_records(path, [*TEAM, *records])
    return str(path)


def test_the_one_decision_whose_answer_names_an_option_answers(tmp_path):
    """Its question shares few words with the one asked (its match is under every other test's
    threshold), but its answer names the words only one option holds, and no other candidate's
    does: the past choice of that option."""
    path = ledger_of(tmp_path, MOCKS)
    judged = {rec["id"]: m for m, rec in inject.judge(path, "shop", ASKED, LABELS, header="Refund test")}
    assert inject.ACCEPT_NAMED <= judged["mocks"]["match"] < inject.ACCEPT_OFFERED
    explain = {}
    found = inject.answers(path, "shop", ASKED, LABELS, header="Refund test", explain=explain)
    assert ids(found) == ["mocks"]
    assert explain == {"mocks": "alone names an option"}
    assert found[0]["option"] == "No, WireMock stubs"  # where the hook puts its note


EXPORT = decision("export", "Who can export the webhook delivery logs?",
                  "Merchants export their own as CSV; support staff only with a signed DPA")
AUDIT = "An auditor from a partner bank asks for last week's webhook logs. Do we hand them over?"
AUDIT_LABELS = ["Only with a DPA", "Send them by email"]


def test_one_rare_word_of_an_option_is_enough_to_answer_but_not_to_place_the_note(tmp_path):
    """"Only with a DPA": the answer names the option's one own word that one record holds
    (DPA), as much idf as such a word (NAMED_ALONE_WORDS): the decision answers. The hook's note
    goes on an option by this test only with more (NAMED_WORDS: two rare words); here it goes
    where option_of puts it."""
    path = ledger_of(tmp_path, EXPORT)
    judged, idf, count = inject._judged(path, "shop", AUDIT, AUDIT_LABELS, None, "Audit request")
    naming = inject._Offered(AUDIT_LABELS, None).naming(judged, f"Audit request {AUDIT}", idf, count)
    [(key, said)] = naming["Only with a DPA"]
    assert inject.NAMED_ALONE_WORDS <= said < inject.NAMED_WORDS
    explain = {}
    found = inject.answers(path, "shop", AUDIT, AUDIT_LABELS, header="Audit request", explain=explain)
    assert ids(found) == ["export"] and explain == {"export": "alone names an option"}
    assert "option" not in found[0]


@pytest.mark.parametrize("records, asked, labels, header", [
    ((MOCKS, decision("push", "How do the mobile app tests fake the push service?",
                      "WireMock stubs of FCM")), ASKED, LABELS, "Refund test"),
    # one rare word as well: another decision whose answer says DPA too
    ((EXPORT, decision("dpa", "Do enterprise customers get a DPA?",
                       "Yes, our standard DPA on request")), AUDIT, AUDIT_LABELS, "Audit request"),
], ids=["two words", "one rare word"])
def test_two_decisions_naming_the_option_leave_the_question_unanswered(tmp_path, records, asked,
                                                                       labels, header):
    """Another decision whose answer names the same option's words (on another subject): the
    option's words no longer single out one past choice."""
    assert inject.answers(ledger_of(tmp_path, *records), "shop", asked, labels, header=header) == []


SIGNIN = decision("signin", "Which login methods does the app support?",
                  "Google, Apple and Kakao, plus a guest mode that links an account once")
LOGIN = "Laying out the login screen: which social buttons go on it?"
LOGIN_LABELS = ["Google, Apple, Kakao + guest", "Google and Apple only", "Add Naver"]


def test_the_best_candidate_naming_two_options_answers(tmp_path):
    """Its answer names the words of two options (Google, Apple, Kakao and guest; Google and
    Apple), so it chose neither alone and no option's note is its, but it is a past decision
    between the alternatives offered: the best candidate answers, by this test only, under
    every other test's threshold."""
    path = ledger_of(tmp_path, SIGNIN)
    [(m, rec)] = inject.judge(path, "shop", LOGIN, LOGIN_LABELS, header="Login")[:1]
    assert rec["id"] == "signin" and inject.ACCEPT_NAMED <= m["match"] < inject.ACCEPT_OFFERED
    explain = {}
    found = inject.answers(path, "shop", LOGIN, LOGIN_LABELS, header="Login", explain=explain)
    assert ids(found) == ["signin"] and explain == {"signin": "names several options"}
    assert "option" not in found[0]


def test_a_candidate_naming_two_options_below_the_best_does_not_answer(tmp_path):
    """Only the best candidate is read so: below a better one that no test accepts and that
    names no option (a decision on the login screen's background), the same decision answers
    nothing."""
    screen = decision("screen", "Dark or light background on the login screen?", "light")
    path = ledger_of(tmp_path, SIGNIN, screen)
    judged = inject.judge(path, "shop", LOGIN, LOGIN_LABELS, header="Login")
    assert [rec["id"] for _, rec in judged][:2] == ["screen", "signin"]
    assert judged[0][0]["match"] < inject.ACCEPT
    assert inject.answers(path, "shop", LOGIN, LOGIN_LABELS, header="Login") == []


def test_a_candidate_under_the_least_match_does_not_answer(tmp_path):
    """The option's words alone are not enough: the decision must come near the question
    (ACCEPT_NAMED), as a question that shares only the option's words does not."""
    path = ledger_of(tmp_path, MOCKS)
    asked = "Which library should the web app use for its date pickers?"
    labels = ["WireMock stubs", "Moment"]
    judged = {rec["id"]: m["match"] for m, rec in inject.judge(path, "shop", asked, labels)}
    assert judged.get("mocks", 0) < inject.ACCEPT_NAMED
    assert inject.answers(path, "shop", asked, labels) == []


def named_options(path, asked, labels, header=""):
    """{id: the option} of the candidates whose answer names one option and no other
    (_Offered.naming, inject._named)."""
    judged, idf, count = inject._judged(path, "shop", asked, labels, None, header)
    alone = inject._named(inject._Offered(labels, None).naming(judged, f"{header} {asked}", idf, count))
    return {rec["id"]: alone[id(rec)] for _, rec in judged if id(rec) in alone}


def named(path, asked, labels, header=""):
    """The ids of the candidates whose answer names one option and no other."""
    return set(named_options(path, asked, labels, header))


def test_an_answer_naming_two_options_names_neither(tmp_path):
    """"WireMock stubs, and the Toss sandbox once a week" chose neither option alone."""
    both = dict(MOCKS, answer="WireMock stubs, and the Toss sandbox once a week")
    assert named(ledger_of(tmp_path, MOCKS), ASKED, LABELS, "Refund test") == {"mocks"}
    assert named(ledger_of(tmp_path, both), ASKED, LABELS, "Refund test") == set()


@pytest.mark.parametrize("answer, names", [
    ("서버 로그만 보고 따로 안 붙임", True),  # the words themselves
    ("별도 도구 없이 server log만", True),  # their lexicon entries, whole words
    ("서버 로그인 화면만", False),  # 로그 is a piece of 로그인 "login", not the word
])
def test_a_word_is_named_by_whole_words_only(tmp_path, answer, names):
    """Words of the option ("서버 로그") are named by whole words of the answer, the word or a
    lexicon entry of its group: a 2-character piece of a longer Korean word is another word
    (and one word of the two is not enough: NAMED_WORDS)."""
    record = decision("errors", "앱 에러 추적 도구 정했어?", answer)
    found = named(ledger_of(tmp_path, record), "앱 에러는 어디서 모아 봐?", ["Sentry", "서버 로그"])
    assert found == ({"errors"} if names else set())


def test_the_option_words_the_question_holds_are_not_its_own(tmp_path):
    """A label's words that the question (or header) already holds name nothing: "real
    sandbox" is asked about, so an answer holding "sandbox" did not choose that option."""
    sandbox = dict(MOCKS, answer="the sandbox of the provider, nightly")
    labels = ["Stubs", "Yes, the real sandbox"]
    assert named(ledger_of(tmp_path, sandbox), ASKED, labels, "Refund test") == set()


def test_an_answer_that_names_one_option_tells_the_hook_which(tmp_path):
    """The Answer's "option": the one option whose words the answer names, whatever test
    accepted the record (here the match), for the hook's note (docs/claude-kit.md, "What the
    person sees"); none when the answer names two options."""
    asked = "How do our E2E tests reach the payment provider now?"
    path = ledger_of(tmp_path, MOCKS)
    found = inject.answers(path, "shop", asked, LABELS)
    assert ids(found)[0] == "mocks" and found[0]["option"] == "No, WireMock stubs"
    assert all("option" not in a for a in found[1:])  # "Playwright" names neither
    both = dict(MOCKS, answer="WireMock stubs, and the Toss sandbox once a week")
    found = inject.answers(ledger_of(tmp_path, both), "shop", asked, LABELS)
    assert ids(found)[0] == "mocks" and "option" not in found[0]


def test_each_candidate_that_alone_names_an_option_is_accepted(tmp_path):
    """Two candidates, each the only one to name its option (the decision that chose Toss's
    keys and the later one that moved to stubs), are both accepted by the test, not the better
    of them alone: a decision and the one that reversed it name two options. The rule's
    MARGIN applies to them afterwards as to any other."""
    keys = decision("keys", "How are E2E payments set up?", "Toss merchant keys of its staging account",
                    at="2024-11-02")
    labels = ["No, WireMock stubs", "Yes, Toss merchant keys"]
    asked = "Adding a refund scenario to the E2E suite: real provider calls?"
    path = ledger_of(tmp_path, keys, MOCKS)
    judged, idf, count = inject._judged(path, "shop", asked, labels, None, "Refund test")
    naming = inject._Offered(labels, None).naming(judged, f"Refund test {asked}", idf, count)
    alone = inject._named_alone(judged, naming, inject._named(naming))
    assert [rec["id"] for _, rec in alone] == ["mocks", "keys"]
    assert all(inject.ACCEPT_NAMED <= m["match"] < inject.ACCEPT_OFFERED for m, _ in alone)


@pytest.mark.parametrize("text, said, denied", [
    ("Inside ad-server: ONNX Runtime; no separate model server",
     {"insid", "ad", "server", "onnx", "runtim"}, {"separ", "model", "server"}),
    ("A weekly CSV on the portal, without personal data", {"week", "csv", "portal", "without"},
     {"person", "data"}),  # the negation itself is a word of the text, said
    ("No, WireMock stubs", {"wiremock", "stub"}, set()),  # a reply, then what was chosen
    ("No account", set(), {"account"}),
    ("카카오 로그인. 이메일 가입 없음", {"카카", "카오", "로그", "그인", "이메", "메일", "없음"}, {"가입"}),
    ("Redis 말고 Postgres", {"postgr", "말고"}, {"redi"}),
    ("서버 로그만 보고 따로 안 붙임", {"서버", "로그", "보고", "따로", "붙임"}, set()),  # 안: a verb
])
def test_words_said_no_to(text, said, denied):
    """_polar: in each clause, the words after an English negation and the word right before a
    Korean one are said no to; the others are said, the negation too."""
    got = inject._polar(text)
    assert ({t for w in got[0] for t in w}, {t for w in got[1] for t in w}) == (said, denied)


@pytest.mark.parametrize("answer, labels, names", [
    # "separate model server" is said no to: the answer names the other option alone
    ("Inside the ad server, in process; no separate model server",
     ["Inside the ad server", "A separate model server"], "Inside the ad server"),
    # a label that says no is named by an answer that says no to the same words
    ("A free page with the hall's map; no gift account number or money-transfer link",
     ["No gift account", "Money-transfer link"], "No gift account"),
])
def test_an_option_is_named_by_words_of_the_same_polarity(tmp_path, answer, labels, names):
    """docs/judgment-ledger.md, "The one decision that names an option": a word of an option is
    named by a word of the answer said as the label says it, yes or no ("no pixel or SDK"
    does not name "Install the SDK")."""
    record = decision("serving", "pCTR 모델 서빙 구조 정했어?", answer)
    path = ledger_of(tmp_path, record)
    assert named_options(path, "pCTR 모델 서빙은 어디서 해?", labels).get("serving") == names

"""Rivals in the recall for automatic injection (judgment.rivals, judgment.inject.answers;
docs/judgment-ledger.md, "Recall for automatic injection", "Rivals"): a decision whose question
names a sibling of the thing asked about (iOS for Android, staging for production), and not
it, answers another question. Real ledgers in tmp_path."""
import pytest

from judgment_toolkit.judgment import inject, rivals
from ledger_helpers import write_records


def decision(rid, question, answer, at="2025-04-07"):
    return {"id": rid, "project": "app", "decided_at": f"{at}T10:00:00Z", "question": question,
            "answer": answer, "rationale": "", "card_ref": f"cards/{rid}.json", "tags": []}


MOBILE = [
    decision("android-min", "Minimum Android API level?", "API 26 (Android 8.0)", "2025-04-07"),
    decision("ios-min", "Minimum iOS version for the app?", "iOS 16", "2025-03-31"),
    decision("ios-raise", "iOS 최소 지원 버전 17로 올릴까?", "올린다, iOS 17 이상", "2026-04-13"),
    decision("stores", "Which app stores do we ship to: Play Store, App Store, both?", "both"),
    decision("push", "Push notifications: FCM for both platforms or APNs directly on iOS?", "FCM"),
    decision("staging-data", "Seed the staging database with anonymised production data?",
             "yes, nightly"),
    decision("prod-access", "Who may open a shell on production servers?", "on-call only"),
]


@pytest.fixture
def mobile(tmp_path):
    path = tmp_path / "ledger.jsonl"
    write_records(path, MOBILE)
    return str(path)


def recalled(path, question, options=(), header=""):
    return [a["record"]["id"] for a in inject.answers(path, "app", question, options, None, header)]


def test_a_question_on_android_is_not_answered_by_the_ios_decisions(mobile):
    labels = ["API 26 (Android 8.0)", "API 29 (Android 10)"]
    asked = "Minimum Android version for the app?"
    judged = [(rec["id"], m["match"]) for m, rec in inject.judge(mobile, "app", asked, labels)]
    # by their words the iOS decisions are nearer: a minimum version for the app
    assert judged[0] == ("ios-min", pytest.approx(judged[0][1])) and judged[0][1] >= inject.ACCEPT
    found = inject.answers(mobile, "app", asked, labels)
    assert [a["record"]["id"] for a in found] == ["android-min"] and found[0]["earlier"] == []


def test_the_header_names_the_rival_too(mobile):
    assert recalled(mobile, "Minimum version for the app?", ["API 26", "API 29"],
                    header="Android") == ["android-min"]


def test_a_question_on_both_rivals_keeps_both(mobile):
    """"iOS or Android?" asks about both; a record naming both is never apart."""
    assert rivals.apart(rivals.named("Minimum iOS or Android version?"),
                        rivals.named("Minimum iOS version?")) is False
    assert rivals.apart(rivals.named("Minimum Android version?"),
                        rivals.named("Push: FCM on Android, APNs on iOS?")) is False


@pytest.mark.parametrize("asked, other, is_apart", [
    ("What minimum Android version?", "iOS 최소 지원 버전 17로 올릴까?", True),
    ("안드로이드 최소 버전은?", "Minimum iOS version?", True),
    ("안드에서 뒤로가기 누르면?", "Android back button on checkout?", False),
    ("Who may open a shell on prod?", "Who may open a shell on staging servers?", True),
    ("운영 환경 DB에 누가 접근해요?", "Staging DB access for contractors?", True),
    ("Run the front-end tests on every push?", "Backend test runner: pytest or unittest?", True),
    ("Which Safari versions do we support?", "Oldest Chrome version we support?", True),
    # "product" is no production (Snowball gives both one stem; words are compared here)
    ("What TTL for product pages on the CDN?", "CDN cache TTL on staging?", False),
    # no rival named in the asked question: nothing is apart
    ("Minimum version for the app?", "Minimum iOS version?", False),
    # "windows" of time name the OS: harmless, since a decision naming another OS does not
    # answer a question on deploy windows either
    ("Which macOS version do CI runners use?", "Linux distro for the CI runners?", True),
])
def test_rivals_named_in_each_language(asked, other, is_apart):
    assert rivals.apart(rivals.named(asked), rivals.named(other)) is is_apart


def test_rivals_are_words_not_pieces_of_words():
    assert rivals.named("Chromecast support and the prodigal son") == set()
    assert rivals.named("Is the backend's API versioned?") == {(4, 1)}


def test_a_rival_of_one_kind_leaves_the_other_kinds_alone(mobile):
    """Production is asked: a decision naming staging and production (its data) is not apart,
    and the iOS kind is not asked at all."""
    assert recalled(mobile, "Who may open a shell on the production servers?") == ["prod-access"]
    asked = rivals.named("Seed production-like data into staging?")
    assert not rivals.apart(asked, rivals.named(MOBILE[5]["question"]))

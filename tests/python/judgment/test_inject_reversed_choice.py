"""Recall for automatic injection (docs/judgment-ledger.md, "Recall for automatic injection",
step 2, "A decision and its reversal, both options"): where the rule accepts no candidate, two
candidates whose answers chose two different options of the question, the later worded as a
change and tagged as the earlier, answer it: the later leads, the earlier is shown as earlier.
Small hand-made ledgers, real files."""
import pytest

from judgment_toolkit.judgment import inject
from ledger_helpers import write_records
from test_inject import TEAM, decision, ids

HOLD = decision("hold", "How long is a reserved cart held before its stock is released?", "15 minutes",
                "stock sells out during drops", ["checkout"], at="2025-01-10")
LONGER = decision("longer", "Shoppers paying by bank transfer lose their reserved cart halfway. Keep it longer?",
                  "30 minutes", "transfers take up to 20 minutes", ["checkout"], at="2025-09-02")
ASKED = "Writing the expiry banner for the payment page: how many minutes does the countdown show?"
LABELS = ["15 minutes", "30 minutes", "60 minutes"]
HEADER = "Countdown"


def ledger_of(tmp_path, *records):
    path = tmp_path / "ledger.jsonl"
    write_records(path, [*TEAM, *records])
    return str(path)


def test_a_decision_and_its_reversal_answer_a_question_offering_both_answers(tmp_path):
    """A task's question shares few words with the two decisions (each under every threshold of
    the rule), but their answers are two of its options, the later one changing the earlier:
    the question decided and decided again. The newest leads."""
    path = ledger_of(tmp_path, HOLD, LONGER)
    judged = {rec["id"]: m for m, rec in inject.judge(path, "shop", ASKED, LABELS, header=HEADER)}
    assert max(judged["longer"]["match"], judged["hold"]["match"]) < inject.ACCEPT_VALUE
    explain = {}
    found = inject.answers(path, "shop", ASKED, LABELS, header=HEADER, explain=explain)
    assert ids(found) == ["longer"]
    assert [r["id"] for r in found[0]["earlier"]] == ["hold"]
    assert explain == {"longer": "reversed one option for another",
                       "hold": "joined: chose another option"}
    assert inject.option_of(found[0]["record"]["answer"], LABELS) == ["30 minutes"]  # the note's place


def test_long_answers_choose_the_option_whose_own_words_they_name(tmp_path):
    """An answer that says more than a label ("Jenkins on the build VM, one job per report")
    chose no option by option_of, but names the own words of one option alone ("Jenkins" of
    "Jenkins job", where the question holds "job"): that is its choice."""
    old = decision("batch", "Where do the nightly batch jobs run?",
                   "Jenkins on the build VM, one job per report, cron triggers", "", ["batch"], at="2025-02-03")
    new = decision("argo", "The build VM ran out of disk twice this month. Move the nightly batch jobs?",
                   "Argo Workflows on the shared cluster; each report becomes a template", "", ["batch"],
                   at="2025-10-20")
    asked, labels = "Wiring up the invoice export that runs every night: where do I put it?", ["Argo workflow", "Jenkins job"]
    assert [inject.option_of(r["answer"], labels) for r in (old, new)] == [[], []]
    explain = {}
    found = inject.answers(ledger_of(tmp_path, old, new), "shop", asked, labels, header="Export", explain=explain)
    assert ids(found) == ["argo"] and [r["id"] for r in found[0]["earlier"]] == ["batch"]
    assert explain == {"argo": "reversed one option for another", "batch": "joined: chose another option"}
    assert found[0]["option"] == "Argo workflow"


@pytest.mark.parametrize("later, why", [
    (dict(LONGER, question="How long is a cart held for bank-transfer payments?"),
     "the later decision is not worded as a change: a neighbour, not a reversal"),
    (dict(LONGER, tags=["payments"]), "tags that share none: two subjects of the team's"),
    (dict(LONGER, answer="15 minutes, as before"), "both chose the same option: nothing reversed"),
    (dict(LONGER, answer="until the transfer is confirmed"), "the later chose no option"),
    (dict(LONGER, decided_at="2024-09-02T10:00:00Z"), "the one worded as a change is the older"),
])
def test_without_every_sign_of_a_reversal_the_question_stays_unanswered(tmp_path, later, why):
    assert inject.answers(ledger_of(tmp_path, HOLD, later), "shop", ASKED, LABELS, header=HEADER) == [], why


def test_a_question_without_options_has_nothing_to_choose_between(tmp_path):
    assert inject.answers(ledger_of(tmp_path, HOLD, LONGER), "shop", ASKED, [], header=HEADER) == []


def test_a_candidate_accepted_otherwise_leaves_the_pair_unread(tmp_path):
    """Only where no candidate is accepted: a question the match answers is answered by it."""
    path = ledger_of(tmp_path, HOLD, LONGER)
    found = inject.answers(path, "shop", HOLD["question"],
                           LABELS)
    assert ids(found) == ["longer"]  # hold accepted by its match; longer joins its topic and leads
    explain = {}
    inject.answers(path, "shop", HOLD["question"],
                   LABELS, explain=explain)
    assert explain["hold"] == "match"


def test_choices_are_read_only_where_a_pair_needs_them(tmp_path, monkeypatch):
    """The rule reaches the pair test on every question it leaves silent, so a candidate's
    choice (option_of, the costly reading) is read there only for a candidate worded as a change
    with an older candidate beside it, and for those older ones: with no later decision worded
    as a change, the pair test reads none, and the only choices read are those the rule's own
    tests read (a candidate near enough, ACCEPT_VALUE, whose question holds a word asked)."""
    calls = []
    real = inject.option_of

    def counted(answer, labels, env=None):
        calls.append(answer)
        return real(answer, labels, env)
    monkeypatch.setattr(inject, "option_of", counted)
    plain = dict(LONGER, question="How long is a cart held for bank-transfer payments?")
    path = ledger_of(tmp_path, HOLD, plain)
    assert inject.answers(path, "shop", ASKED, LABELS, header=HEADER) == []
    judged = inject.judge(path, "shop", ASKED, LABELS, header=HEADER)
    assert len(judged) >= 4  # candidates there were, their choices unread
    near = {rec["answer"] for m, rec in judged if m["match"] >= inject.ACCEPT_VALUE and m["asked_q"] > 0}
    assert set(calls) <= near
    calls.clear()
    inject.answers(ledger_of(tmp_path, HOLD, LONGER), "shop", ASKED, LABELS, header=HEADER)
    assert {HOLD["answer"], LONGER["answer"]} <= set(calls)  # read where a pair needed them


def test_two_decisions_of_one_second_are_ordered_by_their_lines(tmp_path):
    """Appended in the same second (a script recording both, a replay): the later line of the
    ledger is the later decision, as the topics and prime order them."""
    same = dict(LONGER, decided_at=HOLD["decided_at"])
    found = inject.answers(ledger_of(tmp_path, HOLD, same), "shop", ASKED, LABELS, header=HEADER)
    assert ids(found) == ["longer"] and [r["id"] for r in found[0]["earlier"]] == ["hold"]
    reordered = inject.answers(ledger_of(tmp_path, same, HOLD), "shop", ASKED, LABELS, header=HEADER)
    assert reordered == []  # the one worded as a change is now the earlier line

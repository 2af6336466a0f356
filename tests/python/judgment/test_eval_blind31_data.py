"""bench/eval/inject34, the held-out set blind31 (three Korean teams that no other set names,
writing in Korean and English: the backend team of a freight forwarder and customs broker's
shipper portal, the operations team of a regional intercity and commuter bus company and the
product and backend team of a translation agency's online platform), keeps the format and the
promises of bench/eval/inject34/README.md: a Judgment Ledger v1 file written as append writes it,
and questions that pass every check the first set's files pass (eval_inject_checks), plus a
`chosen` option for every answerable question (held_out_set). It checks the data only, never a
ranker's output. The only other question files it loads are the earlier sets' (inject5's to
inject33's held-out and tuning files, through blind30's `after`), and only to compare normalised
question texts and team names."""
from held_out_set import EVAL, HeldOutSet, after

import test_eval_blind30_data as blind30


class TestBlind31(HeldOutSet):
    SET = EVAL / "inject34"
    NAME = "blind31"
    ID_PREFIX = "b31q"
    TEAMS = {"gwanse-forwarding-api", "sioe-bus-ops", "beonyeok-platform"}
    # blind30's and every earlier set's teams and questions
    OTHER_TEAMS, EARLIER = after(blind30.TestBlind30)
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 12

"""bench/eval/inject29, the held-out set blind26 (three Korean teams that no other set names: the
data-engineering team of a bank's mobile app, the frontend design-system team of a web portal and
the operations team of a chain of after-school academies), keeps the format and the promises of
bench/eval/inject29/README.md: a Judgment Ledger v1 file written as append writes it, and
questions that pass every check the first set's files pass (eval_inject_checks), plus a `chosen`
option for every answerable question (held_out_set). It checks the data only, never a ranker's
output. The only other question files it loads are the earlier sets' (inject5's to inject28's
held-out and tuning files, through blind25's `after`), and only to compare normalised question
texts and team names."""
from held_out_set import EVAL, HeldOutSet, after

import test_eval_blind25_data as blind25


class TestBlind26(HeldOutSet):
    SET = EVAL / "inject29"
    NAME = "blind26"
    ID_PREFIX = "b26q"
    TEAMS = {"keumyung-data-eng", "portal-design-system", "hagwon-chain-ops"}
    # blind25's and every earlier set's teams and questions
    OTHER_TEAMS, EARLIER = after(blind25.TestBlind25)
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 12

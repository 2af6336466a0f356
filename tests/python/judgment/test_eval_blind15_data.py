"""bench/eval/inject18, the held-out set blind15 (three teams no other set names), keeps the
format and the promises of bench/eval/inject18/README.md: a Judgment Ledger v1 file written as
append writes it, and questions that pass every check the first set's files pass
(eval_inject_checks), plus a `chosen` option for every answerable question (held_out_set). It
checks the data only, never a ranker's output. The only other question files it loads are the
earlier sets' (inject5's to inject17's held-out and tuning files, through blind14's `after`), and
only to compare normalised question texts and team names."""
from held_out_set import EVAL, HeldOutSet, after

import test_eval_blind14_data as blind14


class TestBlind15(HeldOutSet):
    SET = EVAL / "inject18"
    NAME = "blind15"
    ID_PREFIX = "b15q"
    TEAMS = {"food-lake", "guild-server", "chart-desk"}
    # blind14's and every earlier set's teams and questions
    OTHER_TEAMS, EARLIER = after(blind14.TestBlind14)
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 12

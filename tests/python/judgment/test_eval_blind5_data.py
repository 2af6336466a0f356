"""bench/eval/inject7, the held-out set blind5 (three teams no other set names), keeps the
format and the promises of bench/eval/inject7/README.md: a Judgment Ledger v1 file written as
append writes it, and questions that pass every check the first set's files pass
(eval_inject_checks), plus a `chosen` option for every answerable question (held_out_set). It
checks the data only, never a ranker's output. The only other held-out files it loads are
inject5's and inject6's blind.json, and only to compare normalised question texts and team
names."""
from held_out_set import EVAL, HeldOutSet, after

import test_eval_blind4_data as blind4


class TestBlind5(HeldOutSet):
    SET = EVAL / "inject7"
    NAME = "blind5"
    ID_PREFIX = "b5q"
    TEAMS = {"esign-contracts", "webtoon-studio", "factory-mes"}
    OTHER_TEAMS, EARLIER = after(blind4.TestBlind4)
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 10

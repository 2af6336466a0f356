"""bench/eval/inject6, the held-out set blind4 (three teams no other set names), keeps the
format and the promises of bench/eval/inject6/README.md: a Judgment Ledger v1 file written as
append writes it, and questions that pass every check the first set's files pass
(eval_inject_checks), plus a `chosen` option for every answerable question (held_out_set). It
checks the data only, never a ranker's output. The only other held-out file it loads is
inject5's blind.json, and only to compare normalised question texts and team names."""
from held_out_set import EVAL, TEAMS_BEFORE, HeldOutSet

import test_eval_blind3_data as blind3


class TestBlind4(HeldOutSet):
    SET = EVAL / "inject6"
    NAME = "blind4"
    ID_PREFIX = "b4q"
    TEAMS = {"hotel-pms", "music-streaming", "payroll-saas"}
    OTHER_TEAMS = TEAMS_BEFORE | blind3.TestBlind3.TEAMS
    EARLIER = blind3.TestBlind3.EARLIER + ((blind3.TestBlind3.SET, "blind.json"),)
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 10

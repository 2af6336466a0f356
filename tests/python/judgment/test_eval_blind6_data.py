"""bench/eval/inject9, the held-out set blind6 (three teams no other set names), keeps the
format and the promises of bench/eval/inject9/README.md: a Judgment Ledger v1 file written as
append writes it, and questions that pass every check the first set's files pass
(eval_inject_checks), plus a `chosen` option for every answerable question (held_out_set). It
checks the data only, never a ranker's output. The only other question files it loads are
inject5's, inject6's and inject7's blind.json and inject8's tune.json, and only to compare
normalised question texts and team names."""
from held_out_set import EVAL, HeldOutSet, after

import test_eval_blind5_data as blind5
import test_eval_tune5_data as tune5


class TestBlind6(HeldOutSet):
    SET = EVAL / "inject9"
    NAME = "blind6"
    ID_PREFIX = "b6q"
    TEAMS = {"grocery-delivery", "real-estate-listings", "govtech-permits"}
    # blind5's and every earlier set's teams and questions, and those of the tuning set written
    # alongside this one (bench/eval/inject8)
    OTHER_TEAMS, EARLIER = after(blind5.TestBlind5, tune5.TestTune5)
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 10

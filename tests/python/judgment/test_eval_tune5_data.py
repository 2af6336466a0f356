"""bench/eval/inject8, the tuning set tune5 (three teams no other set names: bike-share,
clinic-booking, insurance-claims), keeps the format and the promises of
bench/eval/inject8/README.md: a Judgment Ledger v1 file written as append writes it, and
questions that pass every check the first set's files pass (eval_inject_checks), plus a `chosen`
option for every answerable question (held_out_set). It is a TUNING set, read and tuned on,
unlike the held-out sets whose checks it shares; it emphasises reversals, so it asks for 11
reversal pairs per team (the held-out sets ask for 8). It checks the data only, never a
ranker's output. The other question files it loads (the held-out sets of EARLIER) are loaded
only to compare normalised question texts and team names."""
from held_out_set import EVAL, HeldOutSet, after

import test_eval_blind5_data as blind5


class TestTune5(HeldOutSet):
    SET = EVAL / "inject8"
    NAME = "tune5"
    ID_PREFIX = "t5q"
    QUESTIONS = "tune.json"
    TEAMS = {"bike-share", "clinic-booking", "insurance-claims"}
    OTHER_TEAMS, EARLIER = after(blind5.TestBlind5)
    REVERSALS_PER_TEAM = 11
    CROSS_LANGUAGE_EACH_WAY = 10

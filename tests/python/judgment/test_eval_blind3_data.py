"""bench/eval/inject5, the held-out set blind3 (three teams no other set names), keeps the
format and the promises of bench/eval/inject5/README.md: a Judgment Ledger v1 file written as
append writes it, and questions that pass every check the first set's files pass
(eval_inject_checks), plus a `chosen` option for every answerable question (held_out_set). It
checks the data only, never a ranker's output, and it never loads another held-out question
file: its question texts are compared with the tuning sets inject3 and inject4 only."""
from held_out_set import EVAL, TEAMS_BEFORE, HeldOutSet


class TestBlind3(HeldOutSet):
    SET = EVAL / "inject5"
    NAME = "blind3"
    ID_PREFIX = "b3q"
    TEAMS = {"fraud-detection", "newsroom-cms", "transit-ticketing"}
    OTHER_TEAMS = TEAMS_BEFORE
    EARLIER = ((EVAL / "inject3", "tune.json"), (EVAL / "inject4", "tune.json"))
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 10

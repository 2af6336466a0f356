"""bench/eval/inject19, the held-out set blind16 (three teams no other set names), keeps the
format and the promises of bench/eval/inject19/README.md: a Judgment Ledger v1 file written as
append writes it, and questions that pass every check the first set's files pass
(eval_inject_checks), plus a `chosen` option for every answerable question (held_out_set). It
checks the data only, never a ranker's output. The only other question files it loads are the
earlier sets' (inject5's to inject18's held-out and tuning files, through blind15's `after`), and
only to compare normalised question texts and team names."""
from held_out_set import EVAL, HeldOutSet, after

import test_eval_blind15_data as blind15


class TestBlind16(HeldOutSet):
    SET = EVAL / "inject19"
    NAME = "blind16"
    ID_PREFIX = "b16q"
    TEAMS = {"bazaar-web", "tenant-gate", "hearth-fw"}
    # blind15's and every earlier set's teams and questions
    OTHER_TEAMS, EARLIER = after(blind15.TestBlind15)
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 12

"""bench/eval/inject21, the held-out set blind18 (three teams of other trades that no other set
names), keeps the format and the promises of bench/eval/inject21/README.md: a Judgment Ledger v1
file written as append writes it, and questions that pass every check the first set's files pass
(eval_inject_checks), plus a `chosen` option for every answerable question (held_out_set). It
checks the data only, never a ranker's output. The only other question files it loads are the
earlier sets' (inject5's to inject20's held-out and tuning files, through blind17's `after`), and
only to compare normalised question texts and team names."""
from held_out_set import EVAL, HeldOutSet, after

import test_eval_blind17_data as blind17


class TestBlind18(HeldOutSet):
    SET = EVAL / "inject21"
    NAME = "blind18"
    ID_PREFIX = "b18q"
    TEAMS = {"isa-quote", "paw-lodge", "encore-tix"}
    # blind17's and every earlier set's teams and questions (blind17 was written at the same
    # time, by another author: chained here after both were done)
    OTHER_TEAMS, EARLIER = after(blind17.TestBlind17)
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 12

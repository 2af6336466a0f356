"""bench/eval/inject25, the held-out set blind22 (three Korean product teams of consumer services of
other trades that no other set names), keeps the format and the promises of
bench/eval/inject25/README.md: a Judgment Ledger v1 file written as append writes it, and questions
that pass every check the first set's files pass (eval_inject_checks), plus a `chosen` option for
every answerable question (held_out_set). It checks the data only, never a ranker's output. The
only other question files it loads are the earlier sets' (inject5's to inject24's held-out and
tuning files, through blind21's `after`), and only to compare normalised question texts and team
names."""
from held_out_set import EVAL, HeldOutSet, after

import test_eval_blind21_data as blind21


class TestBlind22(HeldOutSet):
    SET = EVAL / "inject25"
    NAME = "blind22"
    ID_PREFIX = "b22q"
    TEAMS = {"yesik-venue", "junggo-cars", "ppang-hq"}
    # blind21's and every earlier set's teams and questions
    OTHER_TEAMS, EARLIER = after(blind21.TestBlind21)
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 12

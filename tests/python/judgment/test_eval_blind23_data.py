"""bench/eval/inject26, the held-out set blind23 (three more Korean software teams that no other
set names), keeps the format and the promises of bench/eval/inject26/README.md: a Judgment Ledger
v1 file written as append writes it, and questions that pass every check the first set's files
pass (eval_inject_checks), plus a `chosen` option for every answerable question (held_out_set). It
checks the data only, never a ranker's output. The only other question files it loads are the
earlier sets' (inject5's to inject25's held-out and tuning files, through blind22's `after`), and
only to compare normalised question texts and team names."""
from held_out_set import EVAL, HeldOutSet, after

import test_eval_blind22_data as blind22


class TestBlind23(HeldOutSet):
    SET = EVAL / "inject26"
    NAME = "blind23"
    ID_PREFIX = "b23q"
    TEAMS = {"sinyong-lend-api", "jeoksa-wms-web", "otgeori-reco-ml"}
    # blind22's and every earlier set's teams and questions
    OTHER_TEAMS, EARLIER = after(blind22.TestBlind22)
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 12

"""bench/eval/inject35, the held-out set blind32 (three Korean teams that no other set names,
writing in Korean and English: the nursing operations team of a university hospital's wards, the
web and commerce team of a Korean cosmetics brand selling direct to consumers and the operations
team of a coastal passenger ferry company), keeps the format and the promises of
bench/eval/inject35/README.md: a Judgment Ledger v1 file written as append writes it, and
questions that pass every check the first set's files pass (eval_inject_checks), plus a `chosen`
option for every answerable question (held_out_set). It checks the data only, never a ranker's
output. The only other question files it loads are the earlier sets' (inject5's to inject34's
held-out and tuning files, through blind31's `after`), and only to compare normalised question
texts and team names."""
from held_out_set import EVAL, HeldOutSet, after

import test_eval_blind31_data as blind31


class TestBlind32(HeldOutSet):
    SET = EVAL / "inject35"
    NAME = "blind32"
    ID_PREFIX = "b32q"
    TEAMS = {"byeongdong-nurse-ops", "hwajangpum-d2c-web", "yeogaekseon-ferry-ops"}
    # blind31's and every earlier set's teams and questions
    OTHER_TEAMS, EARLIER = after(blind31.TestBlind31)
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 12

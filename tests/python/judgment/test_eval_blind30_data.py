"""bench/eval/inject33, the held-out set blind30 (three Korean teams that no other set names,
writing in Korean and English: the backend team of a pharmacy chain's prescription and refill
app, the operations team of a public EV charging network and the product and backend team of a
city parking-lot app), keeps the format and the promises of bench/eval/inject33/README.md: a
Judgment Ledger v1 file written as append writes it, and questions that pass every check the first
set's files pass (eval_inject_checks), plus a `chosen` option for every answerable question
(held_out_set). It checks the data only, never a ranker's output. The only other question files it
loads are the earlier sets' (inject5's to inject32's held-out and tuning files, through blind29's
`after`), and only to compare normalised question texts and team names."""
from held_out_set import EVAL, HeldOutSet, after

import test_eval_blind29_data as blind29


class TestBlind30(HeldOutSet):
    SET = EVAL / "inject33"
    NAME = "blind30"
    ID_PREFIX = "b30q"
    TEAMS = {"yakguk-refill-api", "jeongi-charge-ops", "juchajang-parking-app"}
    # blind29's and every earlier set's teams and questions
    OTHER_TEAMS, EARLIER = after(blind29.TestBlind29)
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 12

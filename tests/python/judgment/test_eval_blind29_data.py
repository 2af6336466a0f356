"""bench/eval/inject32, the held-out set blind29 (three Korean teams that no other set names,
writing in Korean and English: the product and backend team of a K-pop agency's fan platform, the
operations team of a waste-collection contractor working for a Korean 구청 and the backend team of
a golf tee-time booking app), keeps the format and the promises of bench/eval/inject32/README.md: a
Judgment Ledger v1 file written as append writes it, and questions that pass every check the first
set's files pass (eval_inject_checks), plus a `chosen` option for every answerable question
(held_out_set). It checks the data only, never a ranker's output. The only other question files it
loads are the earlier sets' (inject5's to inject31's held-out and tuning files, through blind28's
`after`), and only to compare normalised question texts and team names."""
from held_out_set import EVAL, HeldOutSet, after

import test_eval_blind28_data as blind28


class TestBlind29(HeldOutSet):
    SET = EVAL / "inject32"
    NAME = "blind29"
    ID_PREFIX = "b29q"
    TEAMS = {"byeolbit-fan-app", "cheongso-haengjeong-ops", "teeup-golf-api"}
    # blind28's and every earlier set's teams and questions
    OTHER_TEAMS, EARLIER = after(blind28.TestBlind28)
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 12

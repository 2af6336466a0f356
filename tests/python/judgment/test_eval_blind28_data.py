"""bench/eval/inject31, the held-out set blind28 (three Korean teams that no other set names,
writing in Korean and English: the team behind a Korean airline's crew app and crew-scheduling
backend, the backend team of a farm-to-door produce marketplace and the operations team of a
hospital funeral hall), keeps the format and the promises of bench/eval/inject31/README.md: a
Judgment Ledger v1 file written as append writes it, and questions that pass every check the first
set's files pass (eval_inject_checks), plus a `chosen` option for every answerable question
(held_out_set). It checks the data only, never a ranker's output. The only other question files it
loads are the earlier sets' (inject5's to inject30's held-out and tuning files, through blind27's
`after`), and only to compare normalised question texts and team names."""
from held_out_set import EVAL, HeldOutSet, after

import test_eval_blind27_data as blind27


class TestBlind28(HeldOutSet):
    SET = EVAL / "inject31"
    NAME = "blind28"
    ID_PREFIX = "b28q"
    TEAMS = {"haneul-crew-app", "nongga-direct-api", "eunhasu-funeral-ops"}
    # blind27's and every earlier set's teams and questions
    OTHER_TEAMS, EARLIER = after(blind27.TestBlind27)
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 12

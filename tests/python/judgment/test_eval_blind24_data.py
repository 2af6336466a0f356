"""bench/eval/inject27, the held-out set blind24 (three Korean teams that no other set names: a
webtoon platform's infra team, a hospital telemedicine backend team and a pet-care service's
operations product team), keeps the format and the promises of bench/eval/inject27/README.md: a
Judgment Ledger v1 file written as append writes it, and questions that pass every check the first
set's files pass (eval_inject_checks), plus a `chosen` option for every answerable question
(held_out_set). It checks the data only, never a ranker's output. The only other question files it
loads are the earlier sets' (inject5's to inject26's held-out and tuning files, through blind23's
`after`), and only to compare normalised question texts and team names."""
from held_out_set import EVAL, HeldOutSet, after

import test_eval_blind23_data as blind23


class TestBlind24(HeldOutSet):
    SET = EVAL / "inject27"
    NAME = "blind24"
    ID_PREFIX = "b24q"
    TEAMS = {"toondal-infra", "hanul-telecare-api", "harupet-care-ops"}
    # blind23's and every earlier set's teams and questions
    OTHER_TEAMS, EARLIER = after(blind23.TestBlind23)
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 12

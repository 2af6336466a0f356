"""bench/eval/inject30, the held-out set blind27 (three teams that no other set names, writing in
Korean and English: the backend/platform team of a Korean food-delivery company's rider app, the
mobile team of an English-language app that teaches Korean to foreigners and the front-desk
operations team of a Korean public sports centre with a swimming pool), keeps the format and the
promises of bench/eval/inject30/README.md: a Judgment Ledger v1 file written as append writes it,
and questions that pass every check the first set's files pass (eval_inject_checks), plus a
`chosen` option for every answerable question (held_out_set). It checks the data only, never a
ranker's output. The only other question files it loads are the earlier sets' (inject5's to
inject29's held-out and tuning files, through blind26's `after`), and only to compare normalised
question texts and team names."""
from held_out_set import EVAL, HeldOutSet, after

import test_eval_blind26_data as blind26


class TestBlind27(HeldOutSet):
    SET = EVAL / "inject30"
    NAME = "blind27"
    ID_PREFIX = "b27q"
    TEAMS = {"baedal-rider-platform", "hangul-learn-mobile", "sports-center-ops"}
    # blind26's and every earlier set's teams and questions
    OTHER_TEAMS, EARLIER = after(blind26.TestBlind26)
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 12

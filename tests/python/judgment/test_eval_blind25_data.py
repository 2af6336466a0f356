"""bench/eval/inject28, the held-out set blind25 (three Korean teams that no other set names: the
backend team of a construction-site management SaaS, the Unity client team of a mobile RPG and the
operations team of a package-tour travel agency), keeps the format and the promises of
bench/eval/inject28/README.md: a Judgment Ledger v1 file written as append writes it, and questions
that pass every check the first set's files pass (eval_inject_checks), plus a `chosen` option for
every answerable question (held_out_set). It checks the data only, never a ranker's output. The
only other question files it loads are the earlier sets' (inject5's to inject27's held-out and
tuning files, through blind24's `after`), and only to compare normalised question texts and team
names."""
from held_out_set import EVAL, HeldOutSet, after

import test_eval_blind24_data as blind24


class TestBlind25(HeldOutSet):
    SET = EVAL / "inject28"
    NAME = "blind25"
    ID_PREFIX = "b25q"
    TEAMS = {"hyeonjang-saas-api", "dungeon-rpg-client", "yeohaeng-tour-ops"}
    # blind24's and every earlier set's teams and questions
    OTHER_TEAMS, EARLIER = after(blind24.TestBlind24)
    REVERSALS_PER_TEAM = 8
    CROSS_LANGUAGE_EACH_WAY = 12

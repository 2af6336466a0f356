"""The checks of a held-out set with a `chosen` option (bench/eval/inject5 and later: three teams
no other set names, a Judgment Ledger v1 file written as append writes it, questions that pass
every check the first set's files pass, eval_inject_checks). A set's test module subclasses
HeldOutSet with its own constants; pytest collects the subclass (its name starts with Test),
never this class. The checks read the data only, never a ranker's output."""
import copy
from collections import Counter
from pathlib import Path

import pytest

from eval_inject_checks import (NO_ANSWER_KINDS, check_about_half_korean,
                                check_cross_language_both_ways, check_kind_minimums,
                                check_new_teams_in_time_order, check_no_repeated_question_text,
                                check_question_file, check_questions_per_team,
                                check_reversal_pairs_per_team, check_sequential_ids,
                                check_written_as_append_writes, load_ledger, load_split,
                                normalised, read_set, reversal_pairs)

EVAL = Path(__file__).resolve().parents[3] / "bench" / "eval"
# Teams of the sets before inject5, named so that a later set's teams stay new.
TEAMS_BEFORE = frozenset({
    "payments-api", "mobile-app", "data-platform", "web-console", "ml-platform", "game-backend",
    "sre-ops", "ecommerce-search", "health-records", "devtools-cli", "logistics-routing",
    "learning-platform", "iot-firmware"})
DECISIONS_PER_TEAM = (50, 55)
QUESTIONS_PER_PROJECT = (48, 53)
MIN_PER_KIND = {"reversal": 20, "cross-language": 20, "paraphrase": 20, "korean": 10,
                "near-duplicate": 5, "distractor": 5, "multi-question": 4,
                "unanswerable": 30, "cross-project": 8}
NO_ANSWER_SHARE = 0.30


def after(*sets):
    """(OTHER_TEAMS, EARLIER) of a set written after the HeldOutSet classes `sets`: every team
    they hold or name, and their question files after the ones they compare with, each once."""
    teams = frozenset().union(*(s.OTHER_TEAMS | s.TEAMS for s in sets))
    earlier = tuple(dict.fromkeys(e for s in sets for e in s.EARLIER + ((s.SET, s.QUESTIONS),)))
    return teams, earlier


class HeldOutSet:
    SET: Path  # the set's folder
    NAME: str  # its split
    ID_PREFIX: str  # of its question ids
    TEAMS: set
    OTHER_TEAMS: frozenset  # every other set's teams
    EARLIER: tuple  # (folder, question file) of the sets its question texts must not repeat
    REVERSALS_PER_TEAM: int
    CROSS_LANGUAGE_EACH_WAY: int
    QUESTIONS = "blind.json"  # the question file (a tuning set of this shape: tune.json)

    @pytest.fixture(scope="class")
    @classmethod
    def files(cls):
        return read_set(cls.SET, cls.QUESTIONS)

    @pytest.fixture(scope="class")
    @classmethod
    def records(cls, files):
        return files[1]

    @pytest.fixture(scope="class")
    @classmethod
    def data(cls, files):
        return files[2]

    @pytest.fixture(scope="class")
    @classmethod
    def shaped(cls, data):
        """The question file without the `chosen` field, which the shared AskUserQuestion shape
        check does not know; `chosen` is checked on its own below."""
        plain = copy.deepcopy(data)
        for q in plain["questions"]:
            q.pop("chosen", None)
        return plain

    @pytest.fixture(scope="class")
    @classmethod
    def earlier_sets(cls):
        """The ledger records and question files of EARLIER."""
        return [read_set(folder, name)[1:] for folder, name in cls.EARLIER]

    def test_every_line_is_a_valid_record_written_as_append_writes_it(self, files):
        check_written_as_append_writes(files[0])

    def test_three_new_teams_in_time_order(self, records, earlier_sets):
        earlier = [rec["project"] for rec in load_ledger()]
        for set_records, _ in earlier_sets:
            earlier += [rec["project"] for rec in set_records.values()]
        check_new_teams_in_time_order(records, self.TEAMS, self.OTHER_TEAMS, DECISIONS_PER_TEAM,
                                      earlier)

    def test_about_half_of_the_recorded_questions_are_korean(self, records):
        check_about_half_korean(records)

    def test_format_is_the_one_of_the_first_set(self, shaped, records):
        check_question_file(self.NAME, shaped, records, 145)

    def test_only_chosen_is_added_to_the_shape(self, data):
        for q in data["questions"]:
            assert set(q) - {"newest", "chosen"} == {"id", "split", "project", "kind",
                                                     "question", "header", "options",
                                                     "multiSelect", "relevant"}, q["id"]

    def test_grades_are_the_ones_dev_defines(self, data):
        assert data["grades"] == load_split("dev")["grades"]

    def test_ids_are_sequential(self, data):
        check_sequential_ids(data, self.ID_PREFIX)

    def test_every_team_has_its_share_of_questions(self, data):
        check_questions_per_team(data, self.TEAMS, QUESTIONS_PER_PROJECT)

    def test_kinds_reach_their_minimum_counts(self, data):
        kinds = check_kind_minimums(data, MIN_PER_KIND, NO_ANSWER_SHARE)
        assert kinds["unanswerable"] and kinds["cross-project"]

    def test_every_team_has_questions_without_an_answer(self, data):
        for team in self.TEAMS:
            mine = [q for q in data["questions"] if q["project"] == team]
            silent = [q for q in mine if not q["relevant"]]
            assert len(silent) / len(mine) >= NO_ANSWER_SHARE, team

    def test_reversals_label_a_pair_per_team(self, data):
        check_reversal_pairs_per_team(data, self.TEAMS, MIN_PER_KIND["reversal"],
                                      self.REVERSALS_PER_TEAM)

    def test_the_ledger_holds_enough_reversals_per_team(self, data, records):
        """Every labelled pair is two decisions of one team, and each team has at least
        REVERSALS_PER_TEAM of them."""
        pairs = reversal_pairs(data["questions"])
        assert len(pairs) >= 24
        for earlier, newest in pairs:
            assert records[earlier]["project"] == records[newest]["project"]
        per_team = Counter(records[newest]["project"] for _, newest in pairs)
        assert all(per_team[team] >= self.REVERSALS_PER_TEAM for team in self.TEAMS), per_team

    def test_cross_language_goes_both_ways_and_mixes_scripts(self, data):
        check_cross_language_both_ways(data, self.CROSS_LANGUAGE_EACH_WAY)

    def test_every_answerable_question_names_the_option_it_recalls(self, data):
        """`chosen` is the label of the option the leader's answer corresponds to, or null when
        no single option is that answer; questions with two leaders have null; questions
        without a relevant decision have no `chosen` or null."""
        for q in data["questions"]:
            labels = [opt["label"] for opt in q["options"]]
            leaders = [rid for rid, g in q["relevant"].items() if g == 2]
            if q["kind"] in NO_ANSWER_KINDS or not q["relevant"]:
                assert q.get("chosen") is None, q["id"]
                continue
            assert "chosen" in q, q["id"]
            assert q["chosen"] is None or q["chosen"] in labels, (q["id"], q["chosen"])
            if len(leaders) >= 2:
                assert q["chosen"] is None, q["id"]
        named = [q for q in data["questions"] if q.get("chosen") is not None]
        assert len(named) >= 90

    def test_no_question_text_repeats_a_recorded_question_or_an_earlier_set(self, data, records,
                                                                            earlier_sets):
        """Compared as normalised sets, with EARLIER's questions and recorded questions."""
        others = []
        for set_records, set_data in earlier_sets:
            others.append({normalised(q["question"]) for q in set_data["questions"]})
            others.append({normalised(rec["question"]) for rec in set_records.values()})
        check_no_repeated_question_text(data, records, *others)

"""Target ids: AC-n from SPEC.md, EX-n and AC rows from PLAN.md's 조건표, T001 from ## Task."""
import pytest

from conftest import ha
from helpers_core import GOAL, plan_with, write_goal

from judgment_toolkit.ha import gitrepo, goal as goalmod
from judgment_toolkit.ha.errors import HaError


def ids_of(repo, rel):
    return goalmod.resolve(gitrepo.discover(str(repo)), rel, cwd=str(repo)).ids()


def test_fixture_ids(repo, goal):
    ids = ids_of(repo, goal)
    assert ids.criteria == ["AC-1", "AC-2"]          # AC-99 in the fenced block is ignored
    assert ids.optional == ["AC-2"]
    assert ids.extras == ["EX-1"]
    assert ids.tasks == ["T001"]
    assert ids.all() == {"AC-1", "AC-2", "EX-1", "T001"}
    rows = {r.id: r for r in ids.plan.conditions}
    assert rows["AC-1"].argv() == ["true"] and rows["EX-1"].kind == "manual"


SPEC_OK = "# x\n\n## Acceptance Criteria\n\n- **AC-1** one\n* AC-2\n   + AC-3 (선택) three\n"


def test_list_markers_and_indent(repo):
    write_goal(repo, "g", SPEC_OK)
    ids = ids_of(repo, "g")
    assert ids.criteria == ["AC-1", "AC-2", "AC-3"] and ids.optional == ["AC-3"]


def test_only_the_acceptance_section_counts(repo):
    spec = ("# x\n\n- AC-7 before\n\n## Acceptance Criteria\n\n- AC-1 a\n\n"
            "### detail\n\n- AC-2 b\n\n## Other\n\n- not an id\n")
    write_goal(repo, "g", spec)
    assert ids_of(repo, "g").criteria == ["AC-1", "AC-2"]


@pytest.mark.parametrize("spec,line,words", [
    ("# x\n\n## Acceptance Criteria\n\n- AC-1 a\n- AC-1 again\n", 6, "duplicate id AC-1 (first at line 5)"),
    ("# x\n\n## Acceptance Criteria\n\n- AC-1 a\n- just text\n", 6, "has no AC-n id"),
    ("# x\n\n## Acceptance Criteria\n\n- AC-1a glued\n", 5, "has no AC-n id"),
    ("# x\n\n## Acceptance Criteria\n\n-\n", 5, "has no AC-n id"),
    ("# x\n\n## Acceptance Criteria\n\n- AC-\u0661 arabic-indic digit\n", 5, "has no AC-n id"),
])
def test_spec_errors_name_file_and_line(repo, spec, line, words):
    write_goal(repo, "g", spec)
    with pytest.raises(HaError) as exc:
        ids_of(repo, "g")
    assert exc.value.message.startswith(f"g/SPEC.md:{line}: ")
    assert words in exc.value.message
    assert exc.value.exit_code == 65


@pytest.mark.parametrize("rows,line,words", [
    (["| AC-1 | change | `true` | src/ | T001 |", "| AC-1 | change | `true` | src/ | T001 |"], 8, "duplicate id AC-1 (first at line 7)"),
    (["| EX-1 | change | `true` | src/ | T001 |", "| EX-1 | manual | — 사람 | — | T001 |"], 8, "duplicate id EX-1"),
    (["|  | change | `true` | src/ | T001 |"], 7, "row without an id"),
    (["| AC-9 | change | `true` | src/ | T001 |"], 7, "AC-9 is not an acceptance criterion"),
    (["| XY-1 | change | `true` | src/ | T001 |"], 7, "is not AC-n or EX-n"),
    (["| EX-\u0661 | change | `true` | src/ | T001 |"], 7, "is not AC-n or EX-n"),
    (["| EX-1 | sometimes | `true` | src/ | T001 |"], 7, "종류 'sometimes'"),
    (["| EX-1 | change | true | src/ | T001 |"], 7, "must be one code span"),
    (["| EX-1 | change | `a` and `b` | src/ | T001 |"], 7, "must be one code span"),
    (["| EX-1 | manual | `true` | src/ | T001 |"], 7, "manual row"),
    (["| EX-1 | change | `true` | src/ |"], 7, "has 4 cells"),
    (["| EX-1 | change | `true` | src/ | T009 |"], 7, "Task 'T009' is not in ## Task"),
])
def test_plan_condition_errors_name_file_and_line(repo, rows, line, words):
    write_goal(repo, "g", "# x\n\n## Acceptance Criteria\n\n- AC-1 a\n", plan_with(rows))
    with pytest.raises(HaError) as exc:
        ids_of(repo, "g")
    assert exc.value.message.startswith(f"g/PLAN.md:{line}: "), exc.value.message
    assert words in exc.value.message


@pytest.mark.parametrize("task_row,words", [
    ("| T1 | a | b | c | — | 예 | — |", "does not match T001"),
    ("| T\u0661\u0662\u0663 | a | b | c | — | 예 | — |", "does not match T001"),  # ASCII digits only
    ("| T001 | a | b | c | — | maybe | — |", "필수 must be 예 or 아니오"),
    ("| T001 | a | b | c | — | 예 | notes.md |", "문서 must be tasks/T001.md"),
])
def test_plan_task_errors(repo, task_row, words):
    tasks = ("\n## Task\n\n| ID | 목표 | 근거 | 제안 | 선행 | 필수 | 문서 |\n"
             "|---|---|---|---|---|---|---|\n" + task_row + "\n")
    write_goal(repo, "g", "# x\n\n## Acceptance Criteria\n\n- AC-1 a\n", plan_with([], tasks))
    with pytest.raises(HaError) as exc:
        ids_of(repo, "g")
    assert exc.value.message.startswith("g/PLAN.md:12: "), exc.value.message
    assert words in exc.value.message


def test_duplicate_task(repo):
    tasks = ("\n## Task\n\n| ID | 목표 | 근거 | 제안 | 선행 | 필수 | 문서 |\n|---|---|---|---|---|---|---|\n"
             "| T001 | a | b | c | — | 예 | — |\n| T001 | a | b | c | — | 아니오 | tasks/T001.md |\n")
    write_goal(repo, "g", "# x\n\n## Acceptance Criteria\n\n- AC-1 a\n", plan_with([], tasks))
    with pytest.raises(HaError, match=r"g/PLAN.md:13: duplicate id T001 \(first at line 12\)"):
        ids_of(repo, "g")


def test_wrong_columns(repo):
    plan = "# PLAN\n\n## 조건표\n\n| ID | 종류 | 명령 |\n|---|---|---|\n| AC-1 | change | `true` |\n"
    write_goal(repo, "g", "# x\n\n## Acceptance Criteria\n\n- AC-1 a\n", plan)
    with pytest.raises(HaError, match=r"^g/PLAN.md:5: ## 조건표 columns must be exactly"):
        ids_of(repo, "g")


def test_fenced_table_is_ignored(repo):
    plan = ("# PLAN\n\n## 조건표\n\n```\n| ID | x |\n```\n\n| ID | 종류 | 검증 명령 | 검사 경로 | Task |\n"
            "|---|---|---|---|---|\n| EX-3 | maintain | `echo 'a b'` | src/ | — |\n")
    write_goal(repo, "g", "# x\n\n## Acceptance Criteria\n\n- AC-1 a\n", plan)
    ids = ids_of(repo, "g")
    assert ids.extras == ["EX-3"] and ids.plan.conditions[0].argv() == ["echo", "a b"]


def test_ids_error_refuses_start_with_file_line(repo):
    write_goal(repo, "g", "# x\n\n## Acceptance Criteria\n\n- AC-1 a\n- AC-1 b\n")
    r = ha("start", "g", "--request", "q", cwd=repo)
    assert r.returncode == 65
    assert r.stderr == "ha: g/SPEC.md:6: duplicate id AC-1 (first at line 5)\n"
    assert not (repo / "g" / "runs.jsonl").exists()


# --- one grammar everywhere (docs/ha-core.md, "Goal folders and ids") -----------------------------

GOOD = ["AC-1", "AC-10", "AC-123456789", "EX-1", "EX-42", "T001", "T000", "T0001", "T123"]
BAD = ["AC-0", "AC-01", "EX-00", "EX-007", "AC-", "AC-1a", "ac-1", "AC-1\n", "T01", "T1", "t001",
       "T\u0661\u0662\u0663", "AC-\u0661", "D1", "", "AC -1"]


@pytest.mark.parametrize("text", GOOD + BAD)
def test_the_one_grammar_of_target_ids(text):
    from judgment_toolkit.ha import ids
    assert ids.is_target(text) == (text in GOOD)


def test_the_history_schema_states_the_same_grammar():
    import json
    import re
    from judgment_toolkit import packaged
    from judgment_toolkit.ha import ids
    schema = json.loads(packaged.text("schema", "schemas", "decision-history-v1.json"))
    found, stack = [], [schema]
    while stack:  # the one "pattern" that spells target ids, wherever the schema keeps it
        o = stack.pop()
        if isinstance(o, dict):
            if "AC-" in str(o.get("pattern", "")):
                found.append(o["pattern"])
            stack.extend(o.values())
        elif isinstance(o, list):
            stack.extend(o)
    [pattern] = found
    for text in GOOD + BAD:
        assert (re.search(pattern, text) is not None and "\n" not in text) == ids.is_target(text)


def test_a_leading_zero_id_is_refused_by_spec_plan_check_and_history_alike(repo):
    # SPEC.md: a criterion spelled AC-01 is an error naming file:line, not a second spelling
    write_goal(repo, "g", "# x\n\n## Acceptance Criteria\n\n- AC-01 a\n")
    with pytest.raises(HaError) as exc:
        ids_of(repo, "g")
    assert exc.value.message == ("g/SPEC.md:5: 'AC-01' is not an AC-n id (n = 1, 2, ... "
                                 "without leading zeros)")
    # PLAN.md ## 조건표
    write_goal(repo, "h", "# x\n\n## Acceptance Criteria\n\n- AC-1 a\n",
               plan_with(["| EX-01 | change | `true` | src/ | T001 |"]))
    with pytest.raises(HaError, match=r"^g?h/PLAN.md:7: ## 조건표 id 'EX-01' is not AC-n or EX-n"):
        ids_of(repo, "h")
    # ha check and ha history --target: usage / invalid_input, exit 64 both
    write_goal(repo, "k", "# x\n\n## Acceptance Criteria\n\n- AC-1 a\n",
               plan_with(["| AC-1 | change | `true` | src/ | T001 |"]))
    assert ha("start", "k", "--request", "q", cwd=repo).returncode == 0
    r = ha("check", "k", "AC-01", cwd=repo)
    assert r.returncode == 64 and "'AC-01' is not a target id" in r.stderr, r.stderr
    r = ha("history", "k", "add", "--kind", "관측", "--summary", "s", "--target", "AC-01",
           cwd=repo)
    assert r.returncode == 64 and r.stderr.startswith("ha: invalid_input: "), r.stderr

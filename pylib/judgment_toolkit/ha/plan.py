"""PLAN.md: the condition table (`## 조건표`), the task table (`## Task`) and `## 범위`.

Every malformed row is an error naming `file:line`; nothing is guessed.
"""
from __future__ import annotations

import re
import shlex

from . import ids, markdown
from .errors import error

CONDITION_COLUMNS = ["ID", "종류", "검증 명령", "검사 경로", "Task"]
TASK_COLUMNS = ["ID", "목표", "근거", "제안", "선행", "필수", "문서"]
KINDS = ("change", "maintain", "manual")
# English names a new user may give the Korean headings (the tables are read only under these)
HEADING_ALIASES = {"조건표": ("Conditions", "Condition table", "Checks"), "Task": ("Tasks",)}
NONE_MARK = "—"
_ONE_CODE_SPAN = re.compile(r"(`+)(.+)\1", re.S)
_SHELL_CHARS = set("|&;<>()$`*?~\n")
SHARED_BUNDLE_DECLARATION = "- 다른 목표 실행 묶음: `검사 입력`"


class ConditionRow:
    # plain classes here: no dataclasses at start-up (tests/python/imports)
    def __init__(self, id, kind, command, note, paths, tasks=None, line=0, file=""):
        self.id, self.kind, self.paths, self.line, self.file = id, kind, paths, line, file
        self.command = command  # code span text; None for manual rows
        self.note = note        # the whole 검증 명령 cell (the reason, for manual rows)
        self.tasks = [] if tasks is None else tasks

    @property
    def runnable(self) -> bool:
        return self.kind != "manual"

    def argv(self) -> list:
        """The command split into argv by POSIX quoting; shell syntax is refused."""
        text = self.command or ""
        try:
            lexer = shlex.shlex(text, posix=True, punctuation_chars=False)
            lexer.whitespace_split = True
            lexer.commenters = ""
            argv = list(lexer)
        except ValueError as exc:
            raise _bad(self.file, self.line, f"{self.id}: cannot split command: {exc}") from None
        bad = _unquoted_shell_chars(text)
        if bad:
            raise _bad(self.file, self.line, f"{self.id}: command uses shell syntax {bad!r}; "
                       "ha check runs one program without a shell")
        if not argv:
            raise _bad(self.file, self.line, f"{self.id}: empty command")
        return argv


class TaskRow:
    def __init__(self, id, title, required, document, line=0):
        self.id, self.title, self.required, self.document, self.line = \
            id, title, required, document, line


class Plan:
    def __init__(self):
        self.conditions = []    # ConditionRow, table order
        self.tasks = []         # TaskRow, table order
        self.shares_bundles = False  # `## 범위` declares the sibling exception

    def condition(self, cid: str):
        return next((r for r in self.conditions if r.id == cid), None)

    def rows_for_task(self, tid: str):
        return [r for r in self.conditions if tid in r.tasks]


def _code_span(cell: str):
    """The text of a cell that is exactly one code span, else None (CommonMark space rule)."""
    m = _ONE_CODE_SPAN.fullmatch(cell)
    if not m or m.group(1) in m.group(2):
        return None
    text = m.group(2)
    if len(text) > 2 and text.startswith(" ") and text.endswith(" ") and text.strip():
        text = text[1:-1]
    return text or None


def _unquoted_shell_chars(text: str) -> str:
    quote = None
    i = 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == quote:
                quote = None
            elif c == "\\" and quote == '"':
                i += 1
        elif c in "'\"":
            quote = c
        elif c == "\\":
            i += 1
        elif c in _SHELL_CHARS:
            return c
        i += 1
    return ""


def _bad(file: str, no: int, what: str):
    """A malformed PLAN.md, naming file:line."""
    return error("goal_invalid", f"{file}:{no}: {what}")


def _table_rows(text: str, heading: str, columns: list, file: str):
    """(line, cells) of the first table under `## heading`, its header checked, each row the
    right number of cells with an id that appears once; nothing when there is no table."""
    sec = markdown.section(text, heading)
    expected = f"'## {heading}' with columns exactly '{' | '.join(columns)}'"
    if sec is None:
        near = markdown.near_heading(text, heading, HEADING_ALIASES.get(heading, ()))
        if near is not None:
            raise _bad(file, near[0], f"heading '{near[1]}' is not '## {heading}', so its "
                       f"table would be ignored; ha reads a table under {expected}")
        return
    table = markdown.first_table(sec)
    if not table:
        stray = next((no for no, line in sec if "|" in line), None)
        if stray is not None:
            raise _bad(file, stray, f"## {heading} has no table ha can read: every row, the "
                       f"header included, starts with '|'; expected {expected}")
        return
    hno, header, rows = table
    if header != columns:
        raise _bad(file, hno, f"## {heading} columns must be exactly '{' | '.join(columns)}', "
                   f"found '{' | '.join(header)}'")
    seen = {}
    for no, cells in rows:
        if len(cells) != len(columns):
            raise _bad(file, no, f"## {heading} row has {len(cells)} cells, "
                       f"expected {len(columns)}")
        rid = cells[0]
        if not rid:
            raise _bad(file, no, f"## {heading} row without an id")
        if rid in seen:
            raise _bad(file, no, f"duplicate id {rid} (first at line {seen[rid]})")
        seen[rid] = no
        yield no, cells


def _task_refs(cell: str):
    if cell in (NONE_MARK, "-", ""):
        return []
    return [t for t in re.split(r"[,\s]+", cell) if t]


def _condition_row(file: str, no: int, cells: list) -> ConditionRow:
    cid, kind, cmd, paths, tasks = cells
    if not ids.CONDITION.match(cid):
        raise _bad(file, no, f"## 조건표 id {cid!r} is not AC-n or EX-n "
                   "(n = 1, 2, ... without leading zeros)")
    if kind not in KINDS:
        raise _bad(file, no, f"{cid}: 종류 {kind!r} is not one of {', '.join(KINDS)}")
    command = None
    if kind == "manual":
        if not cmd.startswith(NONE_MARK):
            raise _bad(file, no,
                       f"{cid}: a manual row's 검증 명령 is '{NONE_MARK}' and a reason")
    else:
        command = _code_span(cmd)
        if command is None:
            raise _bad(file, no, f"{cid}: 검증 명령 must be one code span, found {cmd!r}")
    return ConditionRow(cid, kind, command, cmd, paths, _task_refs(tasks), no, file)


def _task_row(file: str, no: int, cells: list) -> TaskRow:
    tid, title, _basis, _proposal, _after, required, doc = cells
    if not ids.TASK.match(tid):
        raise _bad(file, no, f"## Task id {tid!r} does not match T001...")
    if required not in ("예", "아니오"):
        raise _bad(file, no, f"{tid}: 필수 must be 예 or 아니오, found {required!r}")
    if doc != NONE_MARK and doc != f"tasks/{tid}.md":
        raise _bad(file, no, f"{tid}: 문서 must be tasks/{tid}.md or {NONE_MARK}, found {doc!r}")
    return TaskRow(tid, title, required == "예", None if doc == NONE_MARK else doc, no)


def parse(text: str, file: str) -> Plan:
    """Parse PLAN.md text; `file` is the repository-relative path used in messages."""
    plan = Plan()
    plan.conditions = [_condition_row(file, no, cells)
                       for no, cells in _table_rows(text, "조건표", CONDITION_COLUMNS, file)]
    plan.tasks = [_task_row(file, no, cells)
                  for no, cells in _table_rows(text, "Task", TASK_COLUMNS, file)]
    task_ids = {t.id for t in plan.tasks}
    for row in plan.conditions:
        for t in row.tasks:
            if not ids.TASK.match(t) or t not in task_ids:
                raise _bad(file, row.line, f"{row.id}: Task {t!r} is not in ## Task")
    scope = markdown.section(text, "범위")
    if scope is not None:
        plan.shares_bundles = any(line.strip() == SHARED_BUNDLE_DECLARATION
                                  for _no, line in scope)
    return plan

"""PLAN.md: the condition table (`## 조건표`), the task table (`## Task`) and `## 범위`.

Every malformed row is an error naming `file:line`; nothing is guessed.
"""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from . import ids, markdown
from .errors import REFUSED, HaError

CONDITION_COLUMNS = ["ID", "종류", "검증 명령", "검사 경로", "Task"]
TASK_COLUMNS = ["ID", "목표", "근거", "제안", "선행", "필수", "문서"]
KINDS = ("change", "maintain", "manual")
NONE_MARK = "—"
_ONE_CODE_SPAN = re.compile(r"(`+)(.+)\1", re.S)
_SHELL_CHARS = set("|&;<>()$`*?~\n")
SHARED_BUNDLE_DECLARATION = "- 다른 목표 실행 묶음: `검사 입력`"


@dataclass
class ConditionRow:
    id: str
    kind: str
    command: str | None      # code span text; None for manual rows
    note: str                # the whole 검증 명령 cell (the reason, for manual rows)
    paths: str
    tasks: list = field(default_factory=list)
    line: int = 0
    file: str = ""

    @property
    def runnable(self) -> bool:
        return self.kind != "manual"

    def argv(self) -> list:
        """The command split into argv by POSIX quoting; shell syntax is refused."""
        text = self.command or ""
        where = f"{self.file}:{self.line}"
        try:
            lexer = shlex.shlex(text, posix=True, punctuation_chars=False)
            lexer.whitespace_split = True
            lexer.commenters = ""
            argv = list(lexer)
        except ValueError as exc:
            raise HaError(f"{where}: {self.id}: cannot split command: {exc}", REFUSED) from None
        bad = _unquoted_shell_chars(text)
        if bad:
            raise HaError(f"{where}: {self.id}: command uses shell syntax {bad!r}; "
                          "ha check runs one program without a shell", REFUSED)
        if not argv:
            raise HaError(f"{where}: {self.id}: empty command", REFUSED)
        return argv


@dataclass
class TaskRow:
    id: str
    title: str
    required: bool
    document: str | None
    line: int = 0


@dataclass
class Plan:
    conditions: list = field(default_factory=list)   # ConditionRow, table order
    tasks: list = field(default_factory=list)        # TaskRow, table order
    shares_bundles: bool = False                     # `## 범위` declares the sibling exception

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


def _check_header(file, no, cells, expected, table):
    if cells != expected:
        raise HaError(f"{file}:{no}: {table} columns must be exactly "
                      f"'{' | '.join(expected)}', found '{' | '.join(cells)}'", REFUSED)


def _task_refs(cell: str):
    if cell in (NONE_MARK, "-", ""):
        return []
    return [t for t in re.split(r"[,\s]+", cell) if t]


def parse(text: str, file: str) -> Plan:
    """Parse PLAN.md text; `file` is the repository-relative path used in messages."""
    plan = Plan()
    cond = markdown.section(text, "조건표")
    if cond is not None:
        table = markdown.first_table(cond)
        if table:
            hno, header, rows = table
            _check_header(file, hno, header, CONDITION_COLUMNS, "## 조건표")
            seen = {}
            for no, cells in rows:
                if len(cells) != len(CONDITION_COLUMNS):
                    raise HaError(f"{file}:{no}: ## 조건표 row has {len(cells)} cells, "
                                  f"expected {len(CONDITION_COLUMNS)}", REFUSED)
                cid, kind, cmd, paths, tasks = cells
                if not cid:
                    raise HaError(f"{file}:{no}: ## 조건표 row without an id", REFUSED)
                if not ids.CONDITION.match(cid):
                    raise HaError(f"{file}:{no}: ## 조건표 id {cid!r} is not AC-n or EX-n "
                                  "(n = 1, 2, ... without leading zeros)", REFUSED)
                if cid in seen:
                    raise HaError(f"{file}:{no}: duplicate id {cid} (first at line "
                                  f"{seen[cid]})", REFUSED)
                seen[cid] = no
                if kind not in KINDS:
                    raise HaError(f"{file}:{no}: {cid}: 종류 {kind!r} is not one of "
                                  f"{', '.join(KINDS)}", REFUSED)
                command = None
                if kind == "manual":
                    if not cmd.startswith(NONE_MARK):
                        raise HaError(f"{file}:{no}: {cid}: a manual row's 검증 명령 is "
                                      f"'{NONE_MARK}' and a reason", REFUSED)
                else:
                    command = _code_span(cmd)
                    if command is None:
                        raise HaError(f"{file}:{no}: {cid}: 검증 명령 must be one code span, "
                                      f"found {cmd!r}", REFUSED)
                plan.conditions.append(ConditionRow(cid, kind, command, cmd, paths,
                                                    _task_refs(tasks), no, file))
    task_sec = markdown.section(text, "Task")
    if task_sec is not None:
        table = markdown.first_table(task_sec)
        if table:
            hno, header, rows = table
            _check_header(file, hno, header, TASK_COLUMNS, "## Task")
            seen = {}
            for no, cells in rows:
                if len(cells) != len(TASK_COLUMNS):
                    raise HaError(f"{file}:{no}: ## Task row has {len(cells)} cells, "
                                  f"expected {len(TASK_COLUMNS)}", REFUSED)
                tid, title, _basis, _proposal, _after, required, doc = cells
                if not tid:
                    raise HaError(f"{file}:{no}: ## Task row without an id", REFUSED)
                if not ids.TASK.match(tid):
                    raise HaError(f"{file}:{no}: ## Task id {tid!r} does not match T001...",
                                  REFUSED)
                if tid in seen:
                    raise HaError(f"{file}:{no}: duplicate id {tid} (first at line "
                                  f"{seen[tid]})", REFUSED)
                seen[tid] = no
                if required not in ("예", "아니오"):
                    raise HaError(f"{file}:{no}: {tid}: 필수 must be 예 or 아니오, found "
                                  f"{required!r}", REFUSED)
                if doc != NONE_MARK and doc != f"tasks/{tid}.md":
                    raise HaError(f"{file}:{no}: {tid}: 문서 must be tasks/{tid}.md or "
                                  f"{NONE_MARK}, found {doc!r}", REFUSED)
                plan.tasks.append(TaskRow(tid, title, required == "예",
                                          None if doc == NONE_MARK else doc, no))
    task_ids = {t.id for t in plan.tasks}
    for row in plan.conditions:
        for t in row.tasks:
            if not ids.TASK.match(t) or t not in task_ids:
                raise HaError(f"{file}:{row.line}: {row.id}: Task {t!r} is not in ## Task",
                              REFUSED)
    scope = markdown.section(text, "범위")
    if scope is not None:
        plan.shares_bundles = any(line.strip() == SHARED_BUNDLE_DECLARATION
                                  for _no, line in scope)
    return plan

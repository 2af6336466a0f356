"""Issue 9, Exit codes: one table per command in the docs, checked against the code's tables
(the judgment commands' --help texts in scripts/lib/help/, ha/usage.py). A table in the docs reads

    Exit codes of `judgment-ledger append`:

    | exit | meaning |
    |---|---|
    | 0 | ... |
"""
import re
from pathlib import Path

import pytest

from judgment_toolkit.ha import usage as ha_usage
from judgment_toolkit.ha.history.errors import EXIT_CODES
from judgment_toolkit.judgment import exits

import judgment_help

DOCS = Path(__file__).resolve().parents[3] / "docs"
HEAD = re.compile(r"^Exit codes of `([^`]+)`:\s*$")


def doc_tables():
    found = {}
    for path in sorted(DOCS.glob("*.md")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            m = HEAD.match(line)
            if not m:
                continue
            assert lines[i + 1] == "" and lines[i + 2] == "| exit | meaning |", (path, line)
            rows, j = [], i + 4
            while j < len(lines) and lines[j].startswith("| "):
                code, text = lines[j][2:-2].split(" | ", 1)
                rows.append((int(code), text))
                j += 1
            assert m.group(1) not in found, f"{m.group(1)} has two tables"
            found[m.group(1)] = (path.name, rows)
    return found


def code_tables():
    tables = {c: judgment_help.table(c) for c in judgment_help.commands()}
    for command in list(ha_usage.CORE_TABLES) + list(ha_usage.HISTORY_CODES):
        tables[command] = ha_usage.table(command)
    return tables


@pytest.mark.parametrize("command", sorted(code_tables()))
def test_the_docs_table_is_the_codes(command):
    docs = doc_tables()
    assert command in docs, f"docs/ has no `Exit codes of `{command}`:` table"
    rows = docs[command][1]
    if command.startswith("judgment-"):  # the help prints the docs' meaning without Markdown
        rows = [(code, judgment_help.plain(text)) for code, text in rows]
    assert rows == code_tables()[command]


def test_no_table_for_a_command_the_code_does_not_know():
    assert set(doc_tables()) <= set(code_tables())


def test_the_history_tables_come_from_the_one_error_table():
    for command, codes in ha_usage.HISTORY_CODES.items():
        rows = dict(ha_usage.table(command))
        for code in codes:
            assert f"`{code}`" in rows[EXIT_CODES[code]]


def test_should_issue_never_shares_a_code_between_a_usage_error_and_an_answer():
    rows = judgment_help.table("judgment-card should-issue")
    answers = {0, 1, 2}  # ISSUE_CARD, NO_CARD, HARD_STOP
    assert exits.USAGE not in answers and len({c for c, _ in rows}) == len(rows)

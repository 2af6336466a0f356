"""Issue 9, Exit codes: one table per command in the docs, checked against the code's tables
(judgment/exits.py, ha/usage.py, which the --help texts print). A table in the docs reads

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
    tables = dict(exits.TABLES)
    for command in list(ha_usage.CORE_TABLES) + list(ha_usage.HISTORY_CODES):
        tables[command] = ha_usage.table(command)
    return tables


@pytest.mark.parametrize("command", sorted(code_tables()))
def test_the_docs_table_is_the_codes(command):
    docs = doc_tables()
    assert command in docs, f"docs/ has no `Exit codes of `{command}`:` table"
    assert docs[command][1] == code_tables()[command]


def test_no_table_for_a_command_the_code_does_not_know():
    assert set(doc_tables()) <= set(code_tables())


def test_the_history_tables_come_from_the_one_error_table():
    for command, codes in ha_usage.HISTORY_CODES.items():
        rows = dict(ha_usage.table(command))
        for code in codes:
            assert f"`{code}`" in rows[EXIT_CODES[code]]


def test_should_issue_never_shares_a_code_between_a_usage_error_and_an_answer():
    rows = exits.TABLES["judgment-card should-issue"]
    answers = {exits.OK, exits.NO_CARD, exits.HARD_STOP}
    assert exits.USAGE not in answers and len({c for c, _ in rows}) == len(rows)

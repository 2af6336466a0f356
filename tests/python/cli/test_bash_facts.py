"""The few facts the Bash layer must know without starting Python (docs/internals.md, "Two
layers") are the Python modules' own: each shell constant is read from the script and compared
with the one place Python keeps it, so the two can never drift apart."""
import re
from pathlib import Path

import pytest

from judgment_toolkit import cliargs
from judgment_toolkit.judgment import exits, prime, search

SCRIPTS = Path(__file__).resolve().parents[3] / "scripts"


def shell_constant(script, name):
    text = (SCRIPTS / script).read_text(encoding="utf-8")
    found = re.findall(rf"^{name}=(\d+)\b", text, re.M)
    assert len(found) == 1, f"{script} must set {name} exactly once"
    return int(found[0])


@pytest.mark.parametrize("script,name,python", [
    ("judgment-ledger.sh", "MAX_RESULTS", search.MAX_LIMIT),  # Judgment Ledger v1: the top 3
    ("judgment-ledger.sh", "PRIME_MAX", prime.MAX_LIMIT),
    ("lib/py.sh", "PY_REJECTED", exits.CHILD_REJECTED),
    ("lib/cli.sh", "CLI_USAGE", exits.USAGE),
])
def test_a_shell_constant_is_the_python_one(script, name, python):
    assert shell_constant(script, name) == python


def test_cli_suggest_bounds_the_word_as_cliargs_does():
    text = (SCRIPTS / "lib" / "cli.sh").read_text(encoding="utf-8")
    [bound] = re.findall(r"\$\{#word\} <= (\d+)", text)
    assert int(bound) == cliargs.SUGGEST_MAX_LEN


@pytest.mark.parametrize("name,python", [("CLI_RANK_MODES", search.MODES),
                                         ("CLI_RECALL_MODES", search.RECALL_MODES)])
def test_the_ranking_modes_are_search_s(name, python):
    """cli.sh checks --rank without starting Python; its modes are judgment.search's."""
    text = (SCRIPTS / "lib" / "cli.sh").read_text(encoding="utf-8")
    found = re.findall(rf"^{name}=\(([^)]*)\)", text, re.M)
    assert len(found) == 1 and tuple(found[0].split()) == python

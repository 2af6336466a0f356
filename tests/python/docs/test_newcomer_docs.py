"""What a newcomer reading the rendered README needs to follow its examples: every file an
example reads is shown (not made by a hidden doc-test set-up), the service the examples talk
to is explained where it first appears, pipx is said how to get, and the README's flags of
`ha history <goal> graph` are its help's."""
import re
import subprocess
import sys

import pytest

from conftest import ROOT, SCRIPTS

README = (ROOT / "README.md").read_text(encoding="utf-8")
LEDGER_DOC = (ROOT / "docs" / "judgment-ledger.md").read_text(encoding="utf-8")
RUN = re.compile(r"<!--\s*doc-test:\s*run\s+(.*?)\s*-->")
COMMAND = re.compile(r"^\$ (.*)$", re.M)


def test_no_readme_example_reads_a_file_only_a_hidden_set_up_makes():
    """The rendered README hides `doc-test: run` comments: a file they write that an example
    then reads is one the reader never sees (the README's card examples and card.json)."""
    hidden = {name for cmd in RUN.findall(README) for name in re.findall(r">\s*([\w.-]+)", cmd)}
    commands = COMMAND.findall(README)
    used = sorted(name for name in hidden if any(re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", c)
                                                 for c in commands))
    assert not used, f"README examples read {used}, which only a hidden doc-test run writes"


@pytest.mark.parametrize("text", [README, LEDGER_DOC], ids=["README.md", "docs/judgment-ledger.md"])
def test_harness_mem_is_explained_where_it_first_appears(text):
    first = text.index("harness-mem")
    paragraph = text[text.rfind("\n\n", 0, first):text.find("\n\n", first)]
    assert "memory service" in paragraph and "not part of this toolkit" in paragraph, paragraph

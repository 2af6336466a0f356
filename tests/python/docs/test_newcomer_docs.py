"""What a newcomer reading the rendered README needs to follow its examples: every file an
example reads is shown (not made by a hidden doc-test set-up), the service the examples talk
to is explained where it first appears, pipx is said how to get, and the README's flags of
`ha history <goal> graph` are its help's."""
import re
import subprocess

import pytest

from conftest import ROOT, SCRIPTS

README = (ROOT / "README.md").read_text(encoding="utf-8")
README_LEDGER = (ROOT / "docs" / "readme" / "ledger.md").read_text(encoding="utf-8")
LEDGER_DOC = (ROOT / "docs" / "judgment-ledger.md").read_text(encoding="utf-8")
RUN = re.compile(r"<!--\s*doc-test:\s*run\s+(.*?)\s*-->")
COMMAND = re.compile(r"^\$ (.*)$", re.M)


@pytest.mark.parametrize("text", [README, README_LEDGER], ids=["README.md", "docs/readme/ledger.md"])
def test_no_readme_example_reads_a_file_only_a_hidden_set_up_makes(text):
    """The rendered README hides `doc-test: run` comments: a file they write that an example
    then reads is one the reader never sees (the README's card examples and card.json)."""
    hidden = {name for cmd in RUN.findall(text) for name in re.findall(r">\s*([\w.-]+)", cmd)}
    commands = COMMAND.findall(text)
    used = sorted(name for name in hidden if any(re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", c)
                                                 for c in commands))
    assert not used, f"README examples read {used}, which only a hidden doc-test run writes"


@pytest.mark.parametrize("text", [README, README_LEDGER, LEDGER_DOC],
                         ids=["README.md", "docs/readme/ledger.md", "docs/judgment-ledger.md"])
def test_harness_mem_is_explained_where_it_first_appears(text):
    first = text.index("harness-mem")
    paragraph = text[text.rfind("\n\n", 0, first):text.find("\n\n", first)]
    assert "memory service" in paragraph and "not part of this toolkit" in paragraph, paragraph


def _usage(argv):
    """The help's usage of `ha history <goal> ...`, on one line."""
    r = subprocess.run([str(SCRIPTS / "ha"), "history", "<goal>", *argv, "--help"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split("\n")
    usage = [lines[0]]
    for line in lines[1:]:  # the usage's continuation lines are indented
        if not line.startswith(" "):
            break
        usage.append(line)
    return " ".join(" ".join(usage).split()).removeprefix("usage: ")


def test_the_readme_synopses_of_history_commands_are_their_help():
    """Each `ha history <goal> SUB [...]` synopsis in the README is the usage its --help prints
    (the help is the truth; the README said `graph [--format md|--json]`)."""
    found = re.findall(r"`(ha history <goal> (\w+) \[[^`]*)`", README)
    assert {sub for _, sub in found} >= {"graph", "verify"}
    for synopsis, sub in found:
        assert synopsis == _usage([sub]), sub


def test_the_readme_says_how_to_get_pipx():
    install = README[README.index("## Install"):README.index("## Quick start")]
    assert "python3 -m pip install --user pipx" in install and "apt" in install

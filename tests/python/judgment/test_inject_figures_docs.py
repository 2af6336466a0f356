"""docs/judgment-ledger.md, "Calibration and evaluation", "Where it stands": the table of the
rule's figures on every labelled set is what bench/inject_eval.py computes for it now, so a
change of the rule, the lexicon or a set that moves a figure moves the table with it; and
README.md's prose figures of the held-out sets are those figures rounded."""
import functools
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.append(str(ROOT / "bench"))  # after site-packages: bench/mcp.py must not hide the SDK

import inject_eval  # noqa: E402

DOC = ROOT / "docs" / "judgment-ledger.md"
ROW = re.compile(r"^\| (\w+) \| (?:yes \(tuning\)|no \(held out\)) \| `([^`]+)` \| (.+) \|$")


def documented():
    """{file: (set, [the row's figure cells])} of the table under "Where it stands"."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("**Where it stands**")
    table = text[start:text.index("\n\n", text.index("|---", start))]
    rows = {}
    for line in table.splitlines():
        m = ROW.match(line)
        if m:
            rows[m.group(2)] = (m.group(1), [c.strip() for c in m.group(3).split("|")])
    return rows


def test_the_table_names_every_question_file_of_the_evaluation():
    files = {str(p.relative_to(ROOT)) for p in (ROOT / "bench" / "eval").glob("inject*/*.json")}
    assert set(documented()) == files


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(documented()))
def test_each_row_and_its_readme_figures_are_what_the_evaluation_gives(name):
    """The table's row of the file `name`, and for a held-out set README.md's prose figures of
    it (precision, silence and success to two decimals, in the table's order), are the
    evaluation's figures: one test a file, so that each file is evaluated once in the run and
    the files' evaluations run side by side."""
    split, cells = documented()[name]
    _, questions = inject_eval.load(ROOT / name)
    f = evaluated(name)
    assert cells == [f"{f['questions']} ({f['answerable']})", *map(inject_eval.cell, (
        f["precision"], f["success"], f["silence"], f["ndcg@3"])), f["leads"]], split
    assert {q["split"] for q in questions} in ({split}, {"blind"})  # inject2's split is "blind"
    if name in held_out():
        i = held_out().index(name)
        assert {figure: said[i] for figure, said in readme_figures().items()} == {
            figure: f"{f[figure]:.2f}" for figure in ("precision", "silence", "success")}


def evaluated(name):
    """bench/inject_eval.py's figures of the rule on the question file `name` (one test calls it
    a file)."""
    ledger, questions = inject_eval.load(ROOT / name)
    return inject_eval.figures([(q, inject_eval.rule(ledger, q)) for q in questions])


def held_out():
    """The held-out sets' question files, in the table's order."""
    return [name for name in documented() if "blind" in name]


@functools.lru_cache(maxsize=None)
def readme_figures():
    """{figure: [the README's figures of it, one a held-out set, in the table's order]}: the
    prose gives precision, silence and success to two decimals, each list after its lead (read
    over 8 characters a set: "0.94, ", "and 0.76")."""
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    said = {}
    for figure, lead in (("precision", "the rule), "), ("silence", "silent on "),
                         ("success", "an answer for ")):
        start = readme.index(lead, readme.index("blind sets (")) + len(lead)
        window = readme[start:start + 8 * len(held_out()) + 20]
        said[figure] = re.findall(r"\d\.\d\d", window)[:len(held_out())]
    return said


def test_the_readme_gives_a_figure_of_each_kind_for_every_held_out_set():
    assert {figure: len(said) for figure, said in readme_figures().items()} == dict.fromkeys(
        ("precision", "silence", "success"), len(held_out()))

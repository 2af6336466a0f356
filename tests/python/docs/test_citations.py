"""Docs and code cite the repository's own docs sections, never what a reader of the
repository does not have: no "the seed §11", "seed section 12", "issue 12", "계약: 판단 이력",
no working notes or design cards (README, "The two contracts", names the two contracts by
their titles once; everything else refers to it or to a docs section).

Scanned: README.md and every text file under docs/, scripts/, pylib/ and templates/ (caches
and build output left out). A failure lists every offending `file:line: text`."""
import re

import pytest

from transcripts import ROOT

SCANNED = ["README.md", "docs", "scripts", "pylib", "templates"]
SKIPPED_PARTS = {"__pycache__", "node_modules", ".venv"}
# generated word lists, no prose: the lexicon's stem table lists every English word of it, its
# terms table every group as terms ("seed valu")
SKIPPED_FILES = {"templates/lexicon-stems.txt", "templates/lexicon-terms.txt"}
# (pattern, what it is): each one a kind of citation a reader cannot follow
CITATIONS = [
    # (a seed of a random generator, or a database's seed data, is not one)
    (r"(?<!fixed )(?<!random )(?<!rng )(?<!db )\bseed\b(?! data| value| script)",
     "the seed documents (outside the repository)"),
    (r"§", "a section sign: a section of a document outside the repository"),
    (r"\bissues?\s+#?\d+", "an issue number"),
    (r"계약:\s*판단\s*이력", "the Korean title of a contract document"),
    (r"\bha[- ]core[- ]formats\b", "the working note on the ha core formats"),
    (r"\bdesign card\b|\bdesign note\b(?!s)|\bDESIGN\.md\b",
     "the design card (outside the repository)"),
    (r"/work/", "a path of the machine the project was built on"),
]
PATTERN = re.compile("|".join(f"(?:{p})" for p, _ in CITATIONS), re.IGNORECASE)


def scanned_files():
    for name in SCANNED:
        top = ROOT / name
        paths = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        for path in paths:
            rel = path.relative_to(ROOT)
            if (SKIPPED_PARTS & set(rel.parts) or any(p.endswith(".egg-info") for p in rel.parts)
                    or rel.as_posix() in SKIPPED_FILES):
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue  # binary: an image, a compiled file
            yield rel, text


def offending_lines(text):
    """[(line number, line)] of the lines that cite something outside the repository."""
    return [(no, line) for no, line in enumerate(text.splitlines(), 1) if PATTERN.search(line)]


def test_the_patterns_catch_each_kind_and_spare_ordinary_words():
    for bad in ("as the seed's §11 example", "seed section 12", "(issue 12)", "Issue 9, Install",
                "계약: 판단 이력 (decision-history/v1)", "ha-core-formats.md \"Ids\"",
                "the note \"ha core formats\"", "as the design card asks", "The design note puts",
                "/work/shared/x"):
        assert offending_lines(bad) == [(1, bad)], bad
    for fine in ("random bytes (fixed seed)", "a random seed", "rng seed", "seed data, db seed",
                 "seed value", "seed script", "issues show",
                 "decision-history/v1",
                 "Judgment Ledger v1, section 'Fail-open'", "contract, 계약", "tissue 3",
                 "## Design notes"):
        assert offending_lines(fine) == [], fine


def test_docs_and_code_cite_only_the_repository():
    found = [f"{rel}:{no}: {line.strip()[:160]}" for rel, text in scanned_files()
             for no, line in offending_lines(text)]
    assert not found, ("cite the repository's own docs sections instead (README, 'The two "
                       "contracts'):\n" + "\n".join(found))

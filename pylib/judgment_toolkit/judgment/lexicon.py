"""Query expansion for the relevance ranking: groups of words that mean the same thing.

A lexicon is UTF-8 text, one group per line, entries separated by commas; an entry is a word or
a phrase ("deploy, release, rollout, 배포"). Lines that start with # and blank lines are ignored.
Every entry is analysed into terms by the ranking's own analysis (judgment.rank.terms: case
folding, stems, Korean bigrams), so a group speaks of terms, not spellings.

Expansion: a group fires for a query when every term of one of its entries is among the query's
terms; the terms of its other entries that the query lacks are added, each with the weight
EXPANSION_WEIGHT divided by the number of terms of its entry (a 5-bigram Korean word weighs no
more than one English word), and a term added by two groups keeps the larger weight.

The packaged lexicon (judgment_toolkit/templates/lexicon.txt, general software-team vocabulary)
is always read; $HARNESS_JUDGMENT_LEXICON names more files (separated by os.pathsep) whose groups
are added to it, so a team can teach the ranking its own words. Only the relevance ranking
imports this module.
"""
import functools
import os
from importlib import resources

from . import ledger
from .args import UsageError
from .deps import MissingResource

PACKAGE = "judgment_toolkit.templates"
PACKAGED = "lexicon.txt"
ENV = "HARNESS_JUDGMENT_LEXICON"
MAX_BYTES = 4 * 1024 * 1024  # a lexicon file larger than this is refused, unread
EXPANSION_WEIGHT = 0.5  # of a query's own term


class LexiconError(ValueError):
    """A lexicon file that cannot be used: where (file, line) and why."""


def parse(text, source, analyse):
    """[group], a group being a list of entries, an entry a tuple of terms, from lexicon text.
    LexiconError names the source and line of the first bad line."""
    groups = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        entries = [e.strip() for e in line.split(",")]
        where = f"{source} line {number}"
        if len(entries) < 2:
            raise LexiconError(f"{where}: a group needs at least two entries separated by commas")
        group = []
        for entry in entries:
            if not entry:
                raise LexiconError(f"{where}: an empty entry (two commas in a row, or a comma "
                                   "at an end)")
            found = tuple(analyse(entry))
            if not found:
                raise LexiconError(f"{where}: the entry {entry!r} has no term (only stopwords "
                                   "or one-letter words)")
            if found not in group:
                group.append(found)
        if len(group) > 1:  # "cache, caching": one term twice, nothing to expand
            groups.append(group)
    return groups


class Lexicon:
    def __init__(self, groups):
        self.groups = groups
        self.by_term = {}  # term -> indices of the groups with an entry that holds it
        for i, group in enumerate(groups):
            for entry in group:
                for t in entry:
                    found = self.by_term.setdefault(t, [])
                    if not found or found[-1] != i:
                        found.append(i)

    def __len__(self):
        return len(self.groups)

    def expand(self, own, weight=EXPANSION_WEIGHT):
        """{added term: weight} for a query whose terms are `own`, in a stable order."""
        have = set(own)
        fired = set()
        for t in own:
            for i in self.by_term.get(t, ()):
                if i not in fired and any(have.issuperset(e) for e in self.groups[i]):
                    fired.add(i)
        added = {}
        for i in sorted(fired):
            for entry in self.groups[i]:
                share = weight / len(entry)
                for t in entry:
                    if t not in have and added.get(t, 0.0) < share:
                        added[t] = share
        return added


def packaged_text():
    try:
        return resources.files(PACKAGE).joinpath(PACKAGED).read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError) as e:
        raise MissingResource(f"the packaged lexicon {PACKAGED} is missing from {PACKAGE} "
                              f"({type(e).__name__}); the installation is broken: reinstall "
                              "judgment-toolkit") from None


def read_file(path):
    """The text of a lexicon file; LexiconError when it is missing, not a regular file (opened
    as the ledger is, so a FIFO cannot block), unreadable, too large or not UTF-8."""
    try:
        f = ledger.open_read(path)
        if f is None:
            raise LexiconError(f"{path}: no such file")
        with f:
            data = f.read(MAX_BYTES + 1)  # unbuffered: read until MAX_BYTES + 1 or the end
            while len(data) <= MAX_BYTES:
                more = f.read(MAX_BYTES + 1 - len(data))
                if not more:
                    break
                data += more
    except OSError as e:
        raise LexiconError(f"{path}: cannot be read: {e.strerror or e}") from None
    if len(data) > MAX_BYTES:
        raise LexiconError(f"{path}: larger than {MAX_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise LexiconError(f"{path}: not UTF-8 text (byte {e.start})") from None


def env_paths(env=None):
    value = (os.environ if env is None else env).get(ENV) or ""
    return tuple(p for p in value.split(os.pathsep) if p)


@functools.lru_cache(maxsize=4)
def load(analyse, paths=()):
    """The packaged lexicon plus the groups of the files in `paths`."""
    try:
        groups = parse(packaged_text(), f"the packaged {PACKAGED}", analyse)
    except LexiconError as e:
        raise MissingResource(f"{e}; the installation is broken: reinstall judgment-toolkit") from None
    for path in paths:
        groups.extend(parse(read_file(path), path, analyse))
    return Lexicon(groups)


def check(analyse, env=None):
    """Load the lexicon of this environment now: a UsageError naming ENV for a bad file."""
    try:
        return load(analyse, env_paths(env))
    except LexiconError as e:
        raise UsageError("lexicon", f"{ENV}: {e}") from None

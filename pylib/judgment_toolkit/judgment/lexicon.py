"""Query expansion for the relevance ranking: groups of words that mean the same thing.

A lexicon is UTF-8 text, one group per line, entries separated by commas; an entry is a word or
a phrase ("deploy, release, rollout, 배포"). Lines that start with # and blank lines are ignored.
Every entry is analysed into terms by the ranking's own analysis (judgment.analysis.terms: case
folding, stems, Korean bigrams), so a group speaks of terms, not spellings.

Expansion: a group fires for a query when every term of one of its entries is among the query's
terms; the terms of its other entries that the query lacks are added, each with the weight
EXPANSION_WEIGHT divided by the number of terms of its entry (a 5-bigram Korean word weighs no
more than one English word), and a term added by two groups keeps the larger weight.

The packaged lexicon (templates/lexicon.txt, general software-team vocabulary) is read as
its analysed form, templates/lexicon-terms.txt (terms_table: generated from it, and held equal to
it by tests/python/judgment/test_rank_lexicon.py), so that no process analyses its groups;
$HARNESS_JUDGMENT_LEXICON names more files (separated by os.pathsep) whose groups are added to
it, analysed when read, so a team can teach the ranking its own words. Only the relevance
ranking imports this module.
"""
import functools
import os

from . import analysis, ledger
from .args import UsageError
from .deps import packaged_text

PACKAGED = "lexicon.txt"  # in templates/ (judgment_toolkit.packaged)
TERMS = "lexicon-terms.txt"  # ... its groups analysed (terms_table), which a process reads
ENV = "HARNESS_JUDGMENT_LEXICON"
MAX_BYTES = 4 * 1024 * 1024  # a lexicon file larger than this is refused, unread
EXPANSION_WEIGHT = 0.5  # of a query's own term
PLACES_MAX = 4096  # terms whose places a Lexicon keeps (Lexicon._places)
_APART = " ,\n"  # what stands between the terms of terms_table's lines


class LexiconError(ValueError):
    """A lexicon file that cannot be used: where (file, line) and why."""


def lines(text, source):
    """[(where, [entry])] of lexicon text: the format's syntax, checked without analysis."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        entries = [e.strip() for e in line.split(",")]
        where = f"{source}: line {number}"
        if len(entries) < 2:
            raise LexiconError(f"{where}: a group needs at least two entries separated by commas")
        if not all(entries):
            raise LexiconError(f"{where}: an empty entry (two commas in a row, or a comma "
                               "at an end)")
        found.append((where, entries))
    return found


def analyse(where, entries):
    """A group: its entries' distinct term tuples, in order (analysis.terms)."""
    group = []
    for entry in entries:
        found = tuple(analysis.terms(entry))
        if not found:
            raise LexiconError(f"{where}: the entry {entry!r} has no term (only stopwords "
                               "or one-letter words)")
        if found not in group:
            group.append(found)
    return group


def parse(text, source):
    """Every group of lexicon text, analysed: [[terms of an entry]]. LexiconError names the
    source and line of the first bad line."""
    return [analyse(where, entries) for where, entries in lines(text, source)]


def terms_table(text, source=f"the packaged {PACKAGED}"):
    """The text of TERMS for lexicon text: comment lines, then each group on a line of its own,
    in order, its entries' terms (analyse) separated by commas, the terms of an entry by spaces.
    LexiconError names the line of the first bad entry."""
    return ("# The groups of lexicon.txt analysed into terms, read by judgment.lexicon so that no\n"
            "# process analyses them. Generated: tests/python/judgment/test_rank_lexicon.py says\n"
            "# how to write it again when the lexicon or its analysis changes.\n"
            + "".join(",".join(map(" ".join, group)) + "\n" for group in parse(text, source)))


def generated(text):
    """{file of templates/: its text} of the two files generated from lexicon text: its terms
    table (TERMS, read by this module) and its stem table (analysis.STEM_TABLE, read by the
    analysis). After a change to lexicon.txt both are written again, with one command (REWRITE
    of tests/python/judgment/ledger_helpers.py)."""
    return {TERMS: terms_table(text), analysis.STEM_TABLE: analysis.stem_table(text)}


class Lexicon:
    """The packaged groups kept as the lines of their terms_table, each split only when a query
    holds one of its terms (splitting all of them would cost a recall hook milliseconds), and a
    team's groups analysed, with an index of their terms. A group can fire only if one of its
    entries has all its terms among a query's, so only the lines holding one of the query's
    terms are read."""

    def __init__(self):
        self.text = ""  # the packaged lines (terms_table, its comments left in place)
        self.parsed = {}  # where a packaged line starts -> its group, split when first read
        self.places = {}  # term -> where the packaged lines holding it start (_places)
        self.team = []  # the groups of add, analysed
        self.team_terms = {}  # term -> the indices in self.team of the groups holding it
        self.starts = None  # where each packaged line starts, in order (_starts)

    def add(self, found):
        """The groups of lines() (a team's file), analysed now."""
        for where, entries in found:
            group = analyse(where, entries)
            for t in {t for entry in group for t in entry}:
                self.team_terms.setdefault(t, []).append(len(self.team))
            self.team.append(group)

    def add_packaged(self, table):
        """The packaged groups: the text of their terms_table."""
        self.text, self.parsed, self.places, self.starts = table, {}, {}, None

    def __len__(self):
        return len(self._starts()) + len(self.team)

    def groups(self):
        """Every group, analysed: the packaged ones in order, then a team's."""
        return [self._group(at) for at in self._starts()] + list(self.team)

    def _starts(self):
        """Where each packaged line starts, in order (comments and blank lines left out)."""
        if self.starts is None:
            self.starts, at = [], 0
            for line in self.text.split("\n"):
                if line and line[0] != "#":
                    self.starts.append(at)
                at += len(line) + 1
        return self.starts

    def _group(self, at):
        """The group of the packaged line that starts at `at`, split once."""
        group = self.parsed.get(at)
        if group is None:
            end = self.text.find("\n", at)
            line = self.text[at:] if end == -1 else self.text[at:end]
            group = self.parsed[at] = [tuple(entry.split(" ")) for entry in line.split(",")]
        return group

    def fired(self, own):
        """[(the terms of `own` that fire the group, group)] of every group that fires for a
        query whose terms are `own`, in the lexicon's order (the packaged groups first)."""
        have = set(own)
        found = []
        packaged = sorted({at for t in have for at in self._places(t)})
        team = sorted({i for t in have for i in self.team_terms.get(t, ())})
        for group in [self._group(at) for at in packaged] + [self.team[i] for i in team]:
            sources = frozenset(t for entry in group if have.issuperset(entry) for t in entry)
            if sources:
                found.append((sources, group))
        return found

    def _places(self, term):
        """[where a packaged line starts] of the lines holding `term`, a whole term (between
        spaces, commas and line ends: "mq" is not in "mqtt"). Found by str.find over the text,
        a jump to the next line after each line found, and kept: a recall asks for the same terms
        again and again (the question, its header, each candidate's question in `topics`)."""
        found = self.places.get(term)
        if found is not None:
            return found
        text, size = self.text, len(term)
        found = []
        at = text.find(term)
        while at != -1:
            end = at + size
            if (at == 0 or text[at - 1] in _APART) and (end == len(text) or text[end] in _APART):
                begin = text.rfind("\n", 0, at) + 1
                if text[begin] != "#":
                    found.append(begin)
                end = text.find("\n", end)
                at = text.find(term, end + 1) if end != -1 else -1
            else:
                at = text.find(term, at + 1)
        if len(self.places) >= PLACES_MAX:  # a long-lived process (the MCP server) asks on
            self.places.clear()  # and on: the kept places stay bounded
        self.places[term] = found
        return found

    def expand(self, own, weight=EXPANSION_WEIGHT):
        """{added term: weight} for a query whose terms are `own`, in a stable order."""
        have = set(own)
        added = {}
        for _, group in self.fired(own):
            for entry in group:
                share = weight / len(entry)
                for t in entry:
                    if t not in have and added.get(t, 0.0) < share:
                        added[t] = share
        return added


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
def load(paths=()):
    """The packaged lexicon (its terms_table) plus the groups of the files in `paths` (analysed
    now, so a bad entry in a team's file is reported whatever the query)."""
    lexicon = Lexicon()
    lexicon.add_packaged(packaged_text("lexicon", TERMS))
    for path in paths:
        lexicon.add(lines(read_file(path), path))
    return lexicon


def check(env=None):
    """The lexicon of this environment: a UsageError naming ENV for a bad file."""
    try:
        return load(env_paths(env))
    except LexiconError as e:
        raise UsageError("lexicon", f"{ENV}: {e}") from None

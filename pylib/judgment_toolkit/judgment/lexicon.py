"""Query expansion for the relevance ranking: groups of words that mean the same thing.

A lexicon is UTF-8 text, one group per line, entries separated by commas; an entry is a word or
a phrase ("deploy, release, rollout, 배포"). Lines that start with # and blank lines are ignored.
Every entry is analysed into terms by the ranking's own analysis (judgment.analysis.terms: case
folding, stems, Korean bigrams), so a group speaks of terms, not spellings.

Expansion: a group fires for a query when every term of one of its entries is among the query's
terms; the terms of its other entries that the query lacks are added, each with the weight
EXPANSION_WEIGHT divided by the number of terms of its entry (a 5-bigram Korean word weighs no
more than one English word), and a term added by two groups keeps the larger weight.

The packaged lexicon (templates/lexicon.txt, general software-team vocabulary)
is always read; $HARNESS_JUDGMENT_LEXICON names more files (separated by os.pathsep) whose groups
are added to it, so a team can teach the ranking its own words. Only the relevance ranking
imports this module.
"""
import functools
import os
import re

from . import analysis, ledger
from .args import UsageError
from .deps import packaged_text

PACKAGED = "lexicon.txt"  # in templates/ (judgment_toolkit.packaged)
ENV = "HARNESS_JUDGMENT_LEXICON"
MAX_BYTES = 4 * 1024 * 1024  # a lexicon file larger than this is refused, unread
EXPANSION_WEIGHT = 0.5  # of a query's own term
PLACES_MAX = 4096  # needles whose places a Lexicon keeps (Lexicon._places)
_ALNUM = frozenset("0123456789abcdefghijklmnopqrstuvwxyz")  # folded ASCII letters and digits
_ASCII_RUN = re.compile("[0-9a-z]+")


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


class Lexicon:
    """Groups kept as text, each analysed only when a query could fire it: stemming the whole
    packaged lexicon would cost more than a search. A group can fire only if one of its
    entries holds a word of each of that entry's terms, hence a word of some query term, and
    every such word contains one of the term's needles (analysis.needles): a line without any
    query needle is skipped unread."""

    def __init__(self):
        # [where, entries, the line as written, group]; entries and group are None until the
        # group is analysed, and `where` is (source, line number) until then for a group of
        # add_packaged
        self.items = []
        self.text = None  # the folded lines joined by LFs, where each starts, and the places of
        self.starts = None  # each needle looked for (_places)
        self.places = None

    def add(self, found, analysed=None):
        for i, (where, entries) in enumerate(found):
            group = analysed[i] if analysed else None
            self.items.append([where, entries, analysis.fold(",".join(entries)), group])
        self.text = self.starts = self.places = None

    def add_packaged(self, text, source):
        """The groups of the packaged lexicon, kept as the lines they are: split into entries
        only when analysed (splitting all of them costs a recall hook milliseconds). Its
        syntax is held by its tests (lines() finds no error in it), and so is its being written
        folded (analysis.fold changes none of its lines), so that _places need not fold it."""
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if line and line[0] != "#":
                self.items.append([(source, number), None, line, None])
        self.text = self.starts = self.places = None

    def __len__(self):
        return len(self.items)

    def groups(self):
        """Every group, analysed."""
        return [self._group(item) for item in self.items]

    def _group(self, item):
        if item[3] is None:
            if item[1] is None:
                source, number = item[0]
                item[0] = f"{source}: line {number}"
                item[1] = [e.strip() for e in item[2].split(",")]
            item[3] = analyse(item[0], item[1])
        return item[3]

    def fired(self, own):
        """[(the terms of `own` that fire the group, group)] of every group that fires for a
        query whose terms are `own`, in the lexicon's order."""
        have = set(own)
        found = []
        for i in self._lines_with({n for t in own for n in analysis.needles(t)}, have):
            group = self._group(self.items[i])
            sources = frozenset(t for entry in group if have.issuperset(entry) for t in entry)
            if sources:
                found.append((sources, group))
        return found

    def _lines_with(self, needles, have):
        """The indices, in order, of the items whose folded line holds one of `needles` and
        may fire for a query whose terms are `have`: a needle of an ASCII term only at the
        start of an ASCII word whose term is in `have` (analysing that word costs one stem,
        analysing the group one a word of each entry). Each needle's places are found once
        (_places) and kept: a recall asks for the lines of the same needles again and again
        (the question, its header, each candidate's question in `topics`)."""
        hit = set()
        for n in needles:
            hit.update(i for i, term in self._places(n) if term is True or term in have)
        return sorted(hit)

    def _places(self, needle):
        """[(item index, True or the term a word there must have)] of the lines that hold
        `needle`. A word with an ASCII term begins with its needle (analysis.needles); a letter
        or digit before it would be of the same word (no place), and where a non-ASCII
        character borders it the line is kept (True). Found by str.find over the lines joined
        once, a jump to the next line after a line is kept for certain: the lines are not
        visited one by one, and a one-letter needle ("m" of "mq") brings only the lines with
        a word of its own."""
        found = self.places.get(needle) if self.places is not None else None
        if found is not None:
            return found
        if self.text is None:
            # every line is folded already (add folds a team's, the packaged ones are written so)
            self.text = "\n".join(item[2] for item in self.items)
            self.starts = {}  # where a line starts -> its item's index
            self.places = {}
            at = 0
            for i, line in enumerate(self.text.split("\n")):
                self.starts[at] = i
                at += len(line) + 1
        text, starts = self.text, self.starts
        found = []
        word_start = needle.isascii()
        at = text.find(needle)
        while at != -1:
            begin = text.rfind("\n", 0, at) + 1
            term = _term_at(text, at, at > begin) if word_start else True
            if term is not None:
                found.append((starts[begin], term))
            if term is True:
                end = text.find("\n", at)
                at = text.find(needle, end + 1) if end != -1 else -1
            else:
                at = text.find(needle, at + 1)
        if len(self.places) >= PLACES_MAX:  # a long-lived process (the MCP server) asks on
            self.places.clear()  # and on: the kept places stay bounded
        self.places[needle] = found
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


def _term_at(text, at, inside):
    """What the word of folded text that starts at `at` (not at a line's start when `inside`)
    needs to fire: None when a letter or digit before `at` makes it part of a longer word; True
    where a non-ASCII character borders it (another script's rules split it); else the term of
    the ASCII word, which the query must have."""
    if inside:
        before = text[at - 1]
        if before in _ALNUM:
            return None
        if not before.isascii():
            return True
    m = _ASCII_RUN.match(text, at)
    end = m.end()
    if end < len(text) and not text[end].isascii():
        return True
    return analysis.term(m.group())


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
    """The packaged lexicon (analysed lazily) plus the groups of the files in `paths` (analysed
    now, so a bad entry in a team's file is reported whatever the query)."""
    lexicon = Lexicon()
    lexicon.add_packaged(packaged_text("lexicon", PACKAGED), f"the packaged {PACKAGED}")
    for path in paths:
        found = lines(read_file(path), path)
        lexicon.add(found, [analyse(where, entries) for where, entries in found])
    return lexicon


def check(env=None):
    """The lexicon of this environment: a UsageError naming ENV for a bad file."""
    try:
        return load(env_paths(env))
    except LexiconError as e:
        raise UsageError("lexicon", f"{ENV}: {e}") from None

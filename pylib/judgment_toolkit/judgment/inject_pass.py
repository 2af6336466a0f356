"""The ranking pass of recall for automatic injection (judgment.inject): the relevance ranking's
BM25 (judgment.rank) over the asking project's records, without parsing and analysing every
record (docs/judgment-ledger.md, "Recall for automatic injection", "Cost").

The hook pays this pass at every question, and in a large ledger of one project whose records all
share the question's words the relevance pass parses and analyses every one (about 25 µs a
record). Here the project's lines are read from their bytes:
  1. a block of lines that are all the project's records in judgment-ledger's key order, without
     a backslash (every quote then delimits a string), is read with a few scans of the whole
     block: the question, answer, rationale and tags by one regular expression, their weighted
     length (the ranking's length, exact), and for each needle of the query's terms
     (analysis.needles: a substring every word with the term holds) the lines holding it; any
     other block is read line by line (_line), and a line with a backslash or of another shape
     is parsed as the ranking parses it;
  2. N and the average length are the ranking's (every record of the project counted);
  3. when at most EXACT lines hold a needle, those lines are parsed and scored exactly as the
     ranking does (rank.Scorer): df, hence every score, is the ranking's own;
  4. beyond EXACT, df of a term is the number of lines holding one of its needles (an upper
     bound: "retr" is in "retrieval" too), each such line gets a rough score (the sum of the
     weighted idf of the terms whose needle it holds), and only the SHORTLIST best of them are
     parsed and scored exactly (their term counts and length), with that df.
So its cost is a few C-speed scans per block and the analysis of at most max(EXACT, SHORTLIST)
records; the relevance mode (`--rank relevance`) keeps its own pass.

Where a line of a block starts is found only for the lines chosen to be scored (3, 4): a block
remembers where it is in the file and which of its lines hold a needle, and at the end the
blocks holding a chosen line are read again and split from whichever end is nearer the chosen
lines (the starts of every line of a 10k ledger cost about as much as the record expression).
The chosen lines are sliced from the bytes read again, not read one by one. Appends leave those
bytes as they were; a ledger replaced meanwhile (a git checkout) gives other bytes, as the read
back by offset does: what is there is scored only if it is a record of the project.
"""
import gc
from itertools import accumulate, chain, count, islice, repeat
import json
from operator import add
import re

from . import ledger, rank
from .analysis import fold, needles
from .lines import RECORD_MAX, Overlong, blocks

EXACT = 200
SHORTLIST = 100

_STRINGS = ('"question":"', '"answer":"', '"rationale":"')
# _ORDERED and _TAG_LIST are compiled (re's cache) only when a line is read alone (_texts): a
# ledger as judgment-ledger writes it is read a block at a time, and the hook pays every compile
_ORDERED = r'"question":"([^"]*)","answer":"([^"]*)"(?:,"rationale":"([^"]*)")?'
_TAGS = '"tags":['
# a list of strings, each without a quote (no backslash), so a "]" inside a tag is read right
_TAG_LIST = r'("[^"\n]*"(?:,"[^"\n]*")*)\]'
# a record as judgment-ledger writes it (every field, in the schema's order), its project's
# literal key and value put in between. Each string is [^"]*, which sre runs several times
# faster than [^"\n]*, and is captured, so that a match crossing a line (a torn line) is seen
# (the id, the project and decided_at in one group: one bytes object a line fewer to build).
# The repeats are possessive (*+, ?+: no backtracking state kept, ~20% faster at 10k lines):
# what follows each ("... or ,"card_ref") can never match where giving back would put it.
_RECORD = ledger.possessive(
    rb'\{"id":"([^"]*+",%s,"decided_at":"[^"]*+)",'
    rb'"question":"([^"]*+)","answer":"([^"]*+)"(?:,"rationale":"([^"]*+)")?+'
    rb',"card_ref":"([^"]*+)","tags":\[("[^"]*+"(?:,"[^"]*+")*+|)\]')
_LF = re.compile(b"\n")
_Q, _A, _R, _T = (rank.WEIGHTS[f] for f in ("question", "answer", "rationale", "tags"))


def _texts(line):
    """(the ranking's weighted length, the searched fields' text) of a line without a
    backslash, where every quote delimits a string, so `"question":"` is that key and its value
    ends at the next quote; None when the question or the answer is not a string."""
    # the order judgment-ledger writes: one match for three fields
    m = re.compile(_ORDERED).search(line)
    if m is not None:
        question, answer, rationale = m.groups()
        rationale = rationale or ""
        at = line.find(_TAGS, m.end())
    else:
        found = []
        for key in _STRINGS:
            at = line.find(key)
            if at == -1:
                found.append(None)
                continue
            at += len(key)
            found.append(line[at:line.find('"', at)])
        question, answer, rationale = found
        if question is None or answer is None:
            return None
        rationale = rationale or ""
        at = line.find(_TAGS)
    length = _Q * len(question) + _A * len(answer) + _R * len(rationale)
    text = question + "\0" + answer + "\0" + rationale
    if at != -1:
        m = re.compile(_TAG_LIST).match(line, at + len(_TAGS))
        tags = m.group(1) if m else ""
        if tags:
            n = tags.count('","') + 1
            length += _T * (len(tags) - 3 * n + 1)
            text += "\0" + tags
    return length, text


def _line_at(f, offset, step=8192):
    """The line that starts at `offset`: read in steps, because the ledger's reader is
    unbuffered and its readline would read one byte at a time."""
    f.seek(offset)
    data = f.read(step)
    while b"\n" not in data and len(data) <= RECORD_MAX:
        more = f.read(max(step, len(data)))
        if not more:
            break
        data += more
    end = data.find(b"\n")
    return data if end == -1 else data[:end]


def _occurrences(buf, sep, total, lo, hi):
    """[where the k-th occurrence of sep in buf starts, for k from lo to hi], buf holding `total`
    of them: split from the start or from the end, whichever reaches them sooner."""
    step = len(sep)
    if hi + 1 <= total - lo:
        pieces = buf.split(sep, hi + 1)
        first = len(pieces[0])
        at = map(add, map(len, islice(pieces, 1, hi + 1)), repeat(step))
        return list(islice(accumulate(chain((first,), at)), lo, None))
    pieces = buf.rsplit(sep, total - lo)  # pieces[0] ends where occurrence lo starts
    if len(pieces) != total - lo + 1:
        return []  # not the bytes scanned (the file changed): nothing there to score
    first = len(pieces[0])
    at = map(add, map(len, islice(pieces, 1, hi - lo + 1)), repeat(step))
    return list(accumulate(chain((first,), at)))


def _read_at(f, offset, size):
    """The `size` bytes at `offset` (fewer at the end of the file)."""
    f.seek(offset)
    data = f.read(size)
    while data and len(data) < size:
        more = f.read(size - len(data))
        if not more:
            break
        data += more
    return data


def read_back(path, project, found):
    """rank.read_back: the records with these (offset, id), read again, in the given order."""
    f = ledger.open_read(path) if found else None
    if f is None:
        return
    with f:
        for offset, rec_id in found:
            rec = ledger.record_of(_line_at(f, offset), project)
            if rec is not None and rec["id"] == rec_id:
                yield rec


def _chars(data):
    """The number of characters of UTF-8 bytes."""
    return len(data) if data.isascii() else len(data.decode("utf-8"))


class Pass:
    """N, the average length and the needle hits of the project's lines; then a rank.Scorer
    holding the exact entries of the lines worth scoring (see the module docstring)."""

    def __init__(self, path, project, terms, weights):
        self.path, self.project = path, project
        self.scorer = rank.Scorer(terms, weights)
        self.terms = terms
        self.by_needle = {}  # a needle's UTF-8 bytes -> the indices of the terms it is for
        for i, t in enumerate(terms):
            for n in needles(t):
                self.by_needle.setdefault(n.encode("utf-8"), set()).add(i)
        self.byte_needles = list(self.by_needle)
        self.parsed = 0  # json.loads calls, counted for the tests
        self.offsets = []  # line id -> offset, for the lines holding a needle (read from bytes);
        # None for a line of a block until it is chosen (_locate)
        # (first line id, base, cut, at_needle, the block's lines held, its lines matched)
        self.blocks = []
        self.located = 0  # line starts found in blocks read again (counted for the tests)
        self.raw = {}  # offset -> the line, for the chosen lines sliced from a block read again
        self.by_needle_first = False  # the last block's lines were told apart by the needle
        self.lines_of = {n: [] for n in self.byte_needles}  # needle -> ids of the lines holding it
        self.scored = 0  # lines parsed in the pass that hold a query term (scored exactly)
        self.key = '"project":' + json.dumps(project, ensure_ascii=False)
        self.needle = ledger.project_needle(project)
        self.needle_at = re.compile(re.escape(self.needle))
        self.record = re.compile(_RECORD % re.escape(b'"project":' + self.needle))
        self.count = 0
        self.total_length = 0.0

    def run(self):
        f = ledger.open_read(self.path)
        if f is None:
            return self
        with f:
            for block in blocks(f):
                if type(block) is Overlong:
                    continue
                if not self._block(*block):
                    for offset, raw in ledger._scan(*block, self.needle):
                        self._line(offset, raw)
        return self

    def _block(self, base, buf, cut):
        """A block without a backslash whose lines holding the project's needle are each a
        record of the project written in judgment-ledger's key order (id, project, decided_at,
        question, answer, rationale, ..., tags), holding the needle once, read with a few scans
        of the whole block; False (and nothing counted) for any other block, read line by
        line. Other projects' lines (a shared ledger interleaves them) are never visited, as
        in ledger._scan: those lines are not its candidates either."""
        if buf.find(b"\\", 0, cut) != -1:
            return False
        found = self.record.findall(buf, 0, cut)  # at most one a line: "{" opens it
        at_needle = self._which(buf, cut, len(found))
        if at_needle is False:
            return False
        if not found:
            return True  # no line of the project
        # (id to decided_at), questions, answers, rationales, card refs, tags
        fields = list(zip(*found))
        if b"\n" in b"".join(fields[0] + fields[4]):
            return False  # a match across lines: each line as _line reads it
        fields = fields[1:4] + fields[5:]  # the searched ones: question, answer, rationale, tags
        try:  # str: `in` on bytes costs several times more
            text = b"\n".join(map(b"\0".join, zip(*fields))).decode("utf-8")
        except UnicodeDecodeError:  # each line as _line reads it: parsed
            return False
        lines = len(found)
        if text.count("\n") != lines - 1:  # a searched field across lines: as above
            return False
        if text.isascii():  # a character a byte: summed in C, nothing joined
            chars = [sum(map(len, values)) for values in fields]
        else:
            chars = [_chars(b"\n".join(values)) - (lines - 1) for values in fields]
        tags = fields[3]
        tag_chars = chars[3] - 3 * b"".join(tags).count(b'","') - 2 * (lines - tags.count(b""))
        self.count += lines
        self.total_length += _Q * chars[0] + _A * chars[1] + _R * chars[2] + _T * tag_chars
        text = fold(text)
        texts = None
        hits = []  # (the needle's holding list, the lines in the block holding it)
        for n, holding in self.lines_of.items():
            n = n.decode("utf-8")
            if n not in text:
                continue
            if texts is None:
                texts = text.split("\n")
            hits.append((holding, [i for i, t in enumerate(texts) if n in t]))
        if hits:
            # a line id for each line holding a needle, in the block's order
            first = len(self.offsets)
            if any(len(numbers) == lines for _, numbers in hits):  # every line holds one
                held = range(lines)
                for holding, numbers in hits:
                    holding.extend(map(add, numbers, repeat(first)))
            else:
                held = sorted(set().union(*[numbers for _, numbers in hits]))
                ids = dict(zip(held, count(first)))
                for holding, numbers in hits:
                    holding.extend(map(ids.__getitem__, numbers))
            # where they start is found only for the chosen ones (_locate)
            self.blocks.append((first, base, cut, at_needle, held, lines))
            self.offsets.extend(repeat(None, len(held)))
        return True

    def _which(self, buf, cut, matches):
        """How the matches map to the lines of buf[:cut]: None when every line is one (the
        i-th match is the i-th line), True when each match holds the needle and no other line
        does (the candidates of _scan are exactly the matched lines, and the i-th match holds
        the i-th needle), False when neither. The test that told the last block's lines apart
        is tried first: the other costs a scan of the block. Where both hold, True maps each
        match to the line it is in, which None does too (the needle is in every line)."""
        tests = (self._every_line, self._needle_lines)
        for test in (tests[::-1] if self.by_needle_first else tests):
            at_needle = test(buf, cut, matches)
            if at_needle is not False:
                self.by_needle_first = at_needle is True
                return at_needle
        return False

    @staticmethod
    def _every_line(buf, cut, matches):
        lines = buf.count(b"\n", 0, cut) + (cut > 0 and buf[cut - 1] != 0x0A)
        return None if matches == lines else False

    def _needle_lines(self, buf, cut, matches):
        return True if matches == buf.count(self.needle, 0, cut) else False

    def _starts(self, buf, at_needle, total, numbers):
        """[where line k of buf starts, for k in numbers], the lines numbered among those
        holding the project's needle (each holds it once) with at_needle, else among all the
        lines, `total` of them; None when buf is not the bytes scanned (the file changed).
        Only the occurrences from the first to the last of them are found, split in C."""
        lo, hi = min(numbers), max(numbers)
        self.located += hi - lo + 1
        if at_needle:
            found = _occurrences(buf, self.needle, total, lo, hi)
            if len(found) != hi - lo + 1:
                return None
            return [buf.rfind(b"\n", 0, found[k - lo]) + 1 for k in numbers]
        # line k starts after the (k-1)-th LF, counted from 0 (the last line may lack its LF)
        if hi == 0:
            return [0] * len(numbers)
        first = max(lo - 1, 0)
        found = _occurrences(buf, b"\n", total - (buf[-1:] != b"\n"), first, hi - 1)
        if len(found) != hi - first:
            return None
        return [found[k - 1 - first] + 1 if k else 0 for k in numbers]

    def _locate(self, f, ids):
        """The offsets of these line ids (the ones chosen), those of a block's lines found by
        reading the block again up to its last chosen line, whose bytes are kept (self.raw)."""
        offsets, blocks = self.offsets, self.blocks
        wanted = {}  # index in self.blocks -> the ids of its lines chosen
        k = 0
        for i in sorted(ids):  # the blocks' first ids are in order too
            if offsets[i] is None:
                while k + 1 < len(blocks) and blocks[k + 1][0] <= i:
                    k += 1
                wanted.setdefault(k, []).append(i)
        for k, chosen in wanted.items():
            first, base, cut, at_needle, held, total = self.blocks[k]
            buf = _read_at(f, base, cut)
            starts = self._starts(buf, at_needle, total, [held[i - first] for i in chosen])
            if starts is None:
                continue  # nothing there to score
            for i, at in zip(chosen, starts):
                end = buf.find(b"\n", at)
                offsets[i] = base + at
                self.raw[base + at] = buf[at:end] if end != -1 else buf[at:]
        return [offsets[i] for i in ids if offsets[i] is not None]

    def _line(self, offset, raw):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            line = "\\"
        if "\\" in line or self.key not in line or '"id":"' not in line \
                or '"decided_at":"' not in line:
            self._parsed_line(offset, raw)
            return
        texts = _texts(line)
        if texts is None:  # no question or answer string: as the ranking reads it
            self._parsed_line(offset, raw)
            return
        length, texts = texts
        self.count += 1
        self.total_length += length
        text = fold(texts).encode("utf-8")
        line_id = None
        for n, holding in self.lines_of.items():
            if n in text:
                if line_id is None:
                    line_id = len(self.offsets)
                    self.offsets.append(offset)
                holding.append(line_id)

    def _parsed_line(self, offset, raw):
        self.parsed += 1
        try:
            rec = json.loads(raw)
        except (ValueError, RecursionError):
            return
        if type(rec) is dict and rec.get("project") == self.project and ledger.is_record(rec):
            before = len(self.scorer.hits)
            self.scorer.add(offset, rec)
            self.count += 1
            self.total_length += sum(w * len(t) for w, t in rank._fields(rec))
            self.scored += len(self.scorer.hits) > before  # scored exactly already

    def finish(self):
        """The rank.Scorer whose count, df and entries the ranking's keys() and idf read."""
        s = self.scorer
        lines = len(self.offsets)
        exact_df = lines + self.scored <= EXACT
        if exact_df:
            chosen = range(lines)
        else:
            df = [0] * len(self.terms)
            held = [set() for _ in self.terms]  # term -> ids of the lines holding a needle of it
            every = range(lines)  # a needle's lines are distinct: as many as lines is all of them
            for n, holding in self.lines_of.items():
                for i in self.by_needle[n]:
                    if held[i] is every:
                        continue
                    if len(holding) == lines:
                        held[i] = every
                    else:
                        held[i].update(holding)
            for i, ids in enumerate(held):
                df[i] = len(ids)
            for counts in (e[0] for e in s.hits):  # the lines parsed already: their own terms
                for i, c in enumerate(counts):
                    if c:
                        df[i] += 1
            n = self.count
            rough = [0.0] * lines
            for i, ids in enumerate(held):
                value = s.weights[i] * rank.idf(n, df[i])
                if len(ids) == lines:  # every line: one comprehension, in the same order
                    rough = [r + value for r in rough]
                    continue
                for line_id in ids:
                    rough[line_id] += value
            # line ids follow the file's order, hence the offsets': the best by (rough, offset)
            # are the last of a stable sort by rough (ties stay in id order), sorted in C
            chosen = sorted(range(lines), key=rough.__getitem__)[-SHORTLIST:]
            s.df = df
        self._score_exactly(chosen, keep_df=not exact_df)
        s.count = self.count
        s.total_length = self.total_length
        return s

    def _score_exactly(self, ids, keep_df):
        s = self.scorer
        saved = list(s.df)
        f = ledger.open_read(self.path) if ids else None
        if f is None:
            return
        with f:
            raw = self.raw
            for offset in sorted(self._locate(f, ids)):
                self.parsed += 1
                line = raw.get(offset)
                rec = ledger.record_of(_line_at(f, offset) if line is None else line, self.project)
                if rec is not None:
                    s.add(offset, rec)
        if keep_df:
            s.df = saved


class GcPaused:
    """`with GcPaused():` the cyclic garbage collector paused, then as it was. The pass (and a
    hook's whole recall) makes tens of thousands of tuples, lists and bytes and no cycle
    (reference counting frees them all), which the collector would otherwise walk every 700
    allocations (about 3 ms of the hook at 10k records). Nested, the outer one restores it."""

    def __enter__(self):
        self.collecting = gc.isenabled()
        gc.disable()
        return self

    def __exit__(self, *exc):
        if self.collecting:
            gc.enable()
        return False


def scorer(path, project, terms, weights):
    """A rank.Scorer after one pass over `project`'s records of the ledger at `path` (see the
    module docstring); `.parsed` of the pass counts the lines parsed. The garbage collector is
    paused meanwhile (GcPaused)."""
    with GcPaused():
        p = Pass(path, project, terms, weights).run()
        s = p.finish()
    s.parsed = p.parsed
    return s

"""Relevance ranking (opt-in, `--rank relevance`): BM25 over one project's records, one pass.

Text to terms (the same function for the query and the records):
  1. NFKC normalisation (non-ASCII text only), then Unicode case folding;
  2. words: runs of letters and digits (underscore and punctuation separate words), and a change
     of script between Hangul, kana, Han and everything else also separates them ("Redis를" is
     "redis" and "를"); a Hangul word loses its particles and verb endings (KOREAN_SUFFIXES:
     "데이터베이스를" is "데이터베이스") and is dropped when it is a KOREAN_STOPWORD; a Hangul,
     kana or Han run longer than 2 characters is then cut into its overlapping 2-character
     pieces (bigrams, as CJK search engines do): Japanese and Chinese have no spaces, and a
     Korean compound still shares pieces with its parts;
  3. words shorter than MIN_LEN characters and STOPWORDS (English function words, and the
     pieces of Korean question and sentence endings) are dropped;
  4. ASCII words with a letter are stemmed with the Snowball English stemmer (snowballstemmer);
     other words (Korean, Japanese, accented Latin, ...) are kept as they are, because Snowball
     has no Korean stemmer and an English one must not touch other languages.
A term matches a record's term only when they are equal: whole words, never substrings.

Query terms: the query's own terms weigh 1; the lexicon (judgment.lexicon) adds synonyms and
Korean <-> English translations with lower weights w(t), which multiply the term's score.

Score: BM25 with field weights (BM25F-style: a term's count in a field counts WEIGHTS[field]
times, and a record's length is the weighted number of characters of its fields, which costs
nothing to measure, unlike a word count, on the records that hold no query term):

    score = sum over distinct query terms t found in the record of
            w(t) * idf(t) * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / average length))
    idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))

N, df and the average length come from the asking project's records only. A record without a
query term is no match. Ties (equal scores, rounded to 9 decimals): newest decided_at first,
then the later line. A query without terms (only stopwords or one-letter words) matches nothing.

One pass: every record of the project is read once and counted for N and the average length;
the records holding a query term leave a small entry (term counts, length, decided_at, offset,
id), because the idf and the average length, hence every score, are known only when the pass
ends. The best `limit` entries are then chosen and only their lines are read again, by offset
(the ledger is append-only, so an offset keeps its line; a line that no longer holds the same
record, in a file rewritten meanwhile, is left out). Memory is bounded by the asking project's
matching records, and other projects' lines are never parsed. Both reads go through
ledger.open_read, so a ledger that is not a regular file is refused as in the match mode.
"""
import heapq
import math
import re

from . import ledger
from .analysis import fold, needles, term, terms, words
from .lines import RECORD_MAX

WEIGHTS = {"question": 3.0, "answer": 1.0, "rationale": 1.5, "tags": 1.0}
K1 = 1.2
B = 0.75
SCORE_DIGITS = 9


def idf(n, df):
    """BM25's idf of a term that `df` of `n` records hold."""
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def _fields(rec):
    """[(weight, text)] of the searched fields: question, answer, rationale, each tag."""
    found = [(WEIGHTS[f], rec[f]) for f in ("question", "answer", "rationale") if type(rec.get(f)) is str]
    tags = rec.get("tags")
    if type(tags) is list:
        weight = WEIGHTS["tags"]
        found.extend((weight, tag) for tag in tags if type(tag) is str)
    return found


def query_terms(query, env=None):
    """([term], [weight]): the query's own terms (weight 1), then the terms that the lexicon
    adds (judgment.lexicon: lower weights)."""
    own = terms(query)
    if not own:
        return own, []
    from . import lexicon
    added = lexicon.check(env).expand(own)
    return own + list(added), [1.0] * len(own) + list(added.values())


class Scorer:
    """Accumulates the corpus statistics and the matching records of one pass."""

    def __init__(self, query_terms, weights=None):
        self.terms = query_terms
        self.weights = weights or [1.0] * len(query_terms)
        self.index = {}  # folded word -> position of its term in query_terms, or -1
        self.positions = {t: i for i, t in enumerate(query_terms)}
        found = sorted({n for t in query_terms for n in needles(t)}, key=len, reverse=True)
        # one scan for all the needles: a query and its lexicon terms can hold a hundred, and
        # most records hold none of them (a regex alternation of literals runs in C)
        self.needles = re.compile("|".join(map(re.escape, found))) if found else None
        self.count = 0  # N
        self.total_length = 0.0
        self.df = [0] * len(query_terms)
        self.hits = []  # (term counts, length, offset, decided_at, id)
        self.hit_ids = set()  # a record on several lines is one hit: its first line

    def add(self, offset, rec):
        fields = _fields(rec)
        length = sum(weight * len(text) for weight, text in fields)
        self.count += 1
        self.total_length += length
        needles = self.needles
        if needles is None or not needles.search(fold("\0".join([text for _, text in fields]))):
            return  # the common case: counted, and nothing else to do
        counts = None
        for weight, text in fields:
            folded = fold(text)
            if not needles.search(folded):
                continue
            for word in words(folded):
                i = self.index.get(word)
                if i is None:
                    i = self._position(word)
                if i >= 0:
                    if counts is None:
                        counts = [0.0] * len(self.terms)
                    counts[i] += weight
        if counts is not None and rec["id"] not in self.hit_ids:
            self.hit_ids.add(rec["id"])
            for i, c in enumerate(counts):
                if c:
                    self.df[i] += 1
            self.hits.append((tuple(counts), length, offset, rec["decided_at"], rec["id"]))

    def _position(self, word):
        i = self.positions.get(term(word), -1)
        self.index[word] = i
        return i

    def best(self, limit):
        """[(offset, id)] of the best `limit` matching records, best first."""
        # the offset makes every key unique, so ids are never compared
        return [(key[2], key[3]) for key in heapq.nlargest(limit, self.keys())]

    def keys(self):
        """[(score, time key, offset, id)] of every matching record, unordered."""
        if not self.hits:
            return []
        n = self.count
        weighed = [w * idf(n, df) for w, df in zip(self.weights, self.df)]
        average = self.total_length / n or 1.0
        keys = []
        for counts, length, offset, decided_at, rec_id in self.hits:
            norm = K1 * (1 - B + B * length / average)
            score = sum(weighed[i] * c * (K1 + 1) / (c + norm) for i, c in enumerate(counts) if c)
            keys.append((round(score, SCORE_DIGITS), ledger.time_key(decided_at), offset, rec_id))
        return keys


def search_records(path, project, query, limit):
    """Up to `limit` records of `project` for `query`, best first (see the module docstring)."""
    # none (only stopwords): the pass still reads, and finds nothing
    scorer = Scorer(*query_terms(query))
    for offset, rec in ledger.records(path, project):
        scorer.add(offset, rec)
    return list(read_back(path, project, scorer.best(limit)))


def read_back(path, project, found):
    """The records with these (offset, id), read again from the ledger, in the given order."""
    if not found:
        return
    f = ledger.open_read(path)
    if f is None:  # removed since the pass: its records are gone
        return
    with f:
        for offset, rec_id in found:
            f.seek(offset)
            rec = ledger.record_of(f.readline(RECORD_MAX + 1), project)
            if rec is not None and rec["id"] == rec_id:
                yield rec


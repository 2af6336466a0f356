"""Text analysis of the relevance ranking: how a record's text and a query become terms (case
folding, words of Latin, Hangul, Kana and Han script, Korean suffixes, English stems, stop words)
and the byte needles a line must hold to be worth parsing. Its own module because both the
scorer (judgment.rank) and the lexicon (judgment.lexicon) analyse text the same way, and the
lexicon is imported by the scorer: one module under both keeps the import graph acyclic
(tests/python/imports/test_import_graph.py).
"""
import re
import sys
import types
import unicodedata

from ..packaged import path as packaged_path

MIN_LEN = 2

STOPWORDS = frozenset("""
a about above after again against all also am an and any are aren as at be because been before
being below between both but by can cannot could couldn did didn do does doesn doing don down
during each either else ever every few for from further had hadn has hasn have haven having he
her here hers herself him himself his how however i if in into is isn it its itself just let
ll may me might more most must mustn my myself neither no nor not now of off on once only or
other ought our ours ourselves out over own re same shall shan she should shouldn so some such
than that the their theirs them themselves then there these they this those through to too
under until up upon us ve very was wasn we were weren what when where whether which while who
whom whose why will with won would wouldn yes yet you your yours yourself yourselves
""".split()) | frozenset(
    # Korean: the 2-character pieces of the question and sentence endings (할까요, 되나요,
    # 합니다, 있습니까, 하세요, 해요...), which every Korean question has and which say nothing
    "까요 나요 가요 어요 해요 세요 니다 니까 습니 합니 할까 될까 되나 는지 는가 인가 한가".split())

_HANGUL = "\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff"
_KANA = "\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f"
_HAN = "\u2e80-\u2fdf\u3005\u3007\u3021-\u3029\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_WORD = f"[{_HANGUL}]+|[{_KANA}]+|[{_HAN}]+|[^{_HANGUL}{_KANA}{_HAN}" r"\W_]+"
# Compiling _WORD costs ~5 ms (sre expands each class's ranges code point by code point), more
# than a tenth of the recall hook's budget, so it is compiled only for text that needs it: in
# ASCII text a word is a run of ASCII letters and digits, and in text whose other characters
# are all Hangul syllables (Korean), also a run of those; both give what _WORD gives.
_ASCII_WORD = re.compile(r"[0-9A-Za-z]+")
_ASCII_OR_SYLLABLES = re.compile(r"[0-9A-Za-z]+|[^\x00-\x7f]+")
_ASCII_RUN = re.compile(r"[\x00-\x7f]+")
_compiled = []


def _words_of(folded):
    """_WORD.findall(folded), compiling _WORD only when the fast paths above do not apply."""
    if folded.isascii():
        return _ASCII_WORD.findall(folded)
    rest = _ASCII_RUN.sub("", folded)
    if "\uac00" <= min(rest) and max(rest) <= "\ud7a3":  # Hangul syllables only
        return _ASCII_OR_SYLLABLES.findall(folded)
    if not _compiled:
        _compiled.append(re.compile(_WORD))
    return _compiled[0].findall(folded)



def _ranges(chars):
    """[(first, last)] code points of a character class's body as written above."""
    out, i = [], 0
    while i < len(chars):
        if i + 2 < len(chars) and chars[i + 1] == "-":
            out.append((ord(chars[i]), ord(chars[i + 2])))
            i += 3
        else:
            out.append((ord(chars[i]), ord(chars[i])))
            i += 1
    return tuple(out)


# The first letter of a word tells its script (a word of _WORD is of one script): compared by
# code point, because a compiled class of these ranges costs milliseconds at every start-up.
_HANGUL_RANGES = _ranges(_HANGUL)
_CJK_RANGES = _HANGUL_RANGES + _ranges(_KANA) + _ranges(_HAN)


def _starts_in(word, ranges):
    c = ord(word[0])
    return c >= 0x1100 and any(lo <= c <= hi for lo, hi in ranges)


def holds_hangul(text):
    """Whether any letter of `text` is Hangul (_HANGUL), by code point as _starts_in."""
    return any(_starts_in(c, _HANGUL_RANGES) for c in text)

# Korean particles (조사) and the endings that 하다/되다/이다 verbs attach to a noun, taken off
# the end of a Hangul word (longest first, again and again) while 2 characters or more remain:
# "데이터베이스를" -> 데이터베이스, "도입할까요" -> 도입, "캐시는" -> 캐시.
KOREAN_SUFFIXES = tuple(sorted(set("""
에서부터 으로부터 에서는 에서도 에서의 에서만 으로는 으로도 으로서 으로써 에게는 에게서 까지는
부터는 에서 으로 에게 한테 까지 부터 보다 처럼 마다 별 이나 이랑 이든 이란 에는 에도 에만 로는 로도
로서 로써 과는 와는 과의 와의 을 를 이 가 은 는 에 로 의 도 와 과 만 랑
할까요 하나요 합니까 합니다 하세요 해야 해요 하는 하기 하면 해서 했다 할지 하지 한다 하고 하여
하죠 할까 할 한 해 했 되나요 될까요 됩니다 되는 되면 돼야 되어 된다 될 된 돼
인가요 일까요 입니까 입니다 인지 이다 있나요 있을까요 없나요
하자 할래 하냐 하니 할지 될지 해도 할거 할건지 하는지 되는지 해야함 해야해 해야돼 해야지 함 됨 임 씀
주세요 줄래 줘요 줘 줌
""".split()), key=len, reverse=True))
# The one-syllable Korean nouns of software talk (loanwords mostly: 큐 is "queue", 앱 "app"),
# kept as terms although a word needs MIN_LEN characters: "큐는" -> 큐. Any other one-syllable
# Hangul word (좀, 더, 것, 수, 왜, ...) says nothing about a decision and is dropped.
KOREAN_ONE_SYLLABLE = frozenset("""
큐 잡 앱 웹 키 락 봇 팀 뷰 탭 룰 맵 롤 값 폰 훅 팟 셀 글 램 칩 핀 챗 톡 팩 콜 툴 킷 힙 돈 룸 샵
""".split())
_SUFFIXES_BY_LAST = {}
for _suffix in KOREAN_SUFFIXES:
    _SUFFIXES_BY_LAST.setdefault(_suffix[-1], []).append(_suffix)  # longest first, kept
# Korean words that say nothing about a decision (question words, "we", "case", "for", endings
# standing alone, and the conjugated auxiliaries that English says with stopwords: 있어요 "can",
# 돼요 "may", 하고 "and do", 싶은 "want to"; not the forms of 없다, which lexicon entries such as
# "자리 없어" need), dropped before and after stripping
KOREAN_STOPWORDS = frozenset("""
어떻게 언제 어디 어디서 무엇 뭐 뭘 왜 어느 어떤 어떨까요 우리 그냥 이제 지금 해당 경우 것 수 위해
위한 대해 대한 관련 정말 계속 다시 어떻게든 아니면 또는 그리고 하지만 그래서 어때요 좋을까요 동안
하나요 할까요 되나요 될까요 인가요 있나요 없나요 합니까 합니다 해야 하는 할지 했나요 모든 또한
뭘로 뭐로 뭐가 뭐임 뭔가 뭐씀 뭐쓰 어케 어떡해 어떰 어때 어떨까 어떻게할까 할래 하자 하지 해야지
있어 있어요 있나 있니 있냐 있음 있는 있으면 있을 있게 돼 돼요 되지 되나 됐어 하고 해도 했어 해줘 해줄 싶은 싶어 싶어요 싶다
좋을지 좋아 괜찮 괜찮아 괜찮나 괜찮음 괜찮은지 괜찮은가 괜찮을까 그럼 일단 아님 걍 할지 될지 쓸지 쓸까 갈까 둘까 말까 얼마나 몇개 언제쯤
""".split())


def strip_korean(word):
    """A Hangul word without its particles and verb endings (see KOREAN_SUFFIXES)."""
    while len(word) > 2 or (len(word) == 2 and word[0] in KOREAN_ONE_SYLLABLE):
        for suffix in _SUFFIXES_BY_LAST.get(word[-1], ()):
            if word.endswith(suffix) and (len(word) - len(suffix) >= 2
                                          or word[:-len(suffix)] in KOREAN_ONE_SYLLABLE):
                word = word[:-len(suffix)]
                break
        else:
            return word
    return word


def _english_stemmer():
    """Snowball's English stemmer, loaded alone: the package's __init__ imports the stemmers of
    all its 30-odd languages (about 35 ms, more than a Python start-up), and the recall hook
    pays every millisecond (docs/judgment-ledger.md, "Recall for automatic injection"). The
    module is imported under its own name (snowballstemmer.english_stemmer) with the package
    standing in for the time of the import only, so a later `import snowballstemmer` runs the
    real package, which then finds the module already loaded."""
    if "snowballstemmer" in sys.modules:  # the package already ran: import as usual
        __import__("snowballstemmer.english_stemmer")
        return sys.modules["snowballstemmer.english_stemmer"].EnglishStemmer()
    from .deps import find_spec
    spec = find_spec("snowballstemmer")  # locates it without running it
    if spec is None or not spec.submodule_search_locations:
        import snowballstemmer  # noqa: F401  (the ImportError a missing package raises)
    package = types.ModuleType("snowballstemmer")
    package.__path__ = list(spec.submodule_search_locations)
    package.__spec__ = spec
    sys.modules["snowballstemmer"] = package
    try:
        __import__("snowballstemmer.english_stemmer")  # the import statement's own path
        english = sys.modules["snowballstemmer.english_stemmer"]
    finally:
        if sys.modules.get("snowballstemmer") is package:
            del sys.modules["snowballstemmer"]
    # always the pure-Python stemmer, even where the package would pick PyStemmer: one
    # algorithm, the same stems in every process
    return english.EnglishStemmer()


_STEMMER = _english_stemmer()


def fold(text):
    """NFKC (only where it can change anything: non-ASCII text not in NFKC already, which
    is_normalized tells several times faster than normalize computes: Hangul syllables, the
    lexicon's lines), then case folding."""
    if not text.isascii() and not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
    return text.casefold()


def words(folded):
    """The words of folded text. A Hangul word loses its particles and endings ("로그는" ->
    로그, "보관하나요" -> 보관) or is dropped as a Korean stopword; then a Hangul, kana or Han
    run longer than 2 characters becomes its overlapping 2-character pieces ("데이터베이스" ->
    데이 이터 터베 베이 이스)."""
    found = _words_of(folded)
    if folded.isascii():
        return found
    out = []
    for word in found:
        out.extend(_pieces(word))
    return out


def _pieces(word):
    """The words that one run of `_WORD` gives (see words)."""
    if word.isascii():
        return (word,)
    if _starts_in(word, _HANGUL_RANGES):
        if word in KOREAN_STOPWORDS:
            return ()
        word = strip_korean(word)
        if word in KOREAN_STOPWORDS:
            return ()
    if len(word) > 2 and _starts_in(word, _CJK_RANGES):
        return [word[i:i + 2] for i in range(len(word) - 1)]
    return (word,)


def term(word):
    """The term of a folded word, or None for a stopword or a word that is too short."""
    if (len(word) < MIN_LEN and word not in KOREAN_ONE_SYLLABLE) or word in STOPWORDS:
        return None
    if word.isascii() and not word.isdigit():
        stem = _STEMS.get(word)
        if stem is None:
            stem = _TABLE.get(word)
            if stem is None:
                if len(_STEMS) >= _STEMS_MAX:
                    _STEMS.clear()
                stem = _STEMS[word] = _stem(word)
        return stem
    return word


def _stem(word):
    """Snowball's stem, and the plural of an initialism as its singular: Snowball keeps the s
    of a word without a vowel ("jwts", "vms", "prs", "sdks" stay as written), so "JWTs" would
    never meet "JWT"; the words Snowball merges with another meaning of theirs have their own
    term (_APART)."""
    apart = _APART.get(word)
    if apart is not None:
        return apart
    if (len(word) > 3 and word[-1] == "s" and word[-2] != "s"
            and not _VOWEL.search(word, 0, len(word) - 1)):
        return word[:-1]
    stem = _STEMMER.stemWord(word)
    # Snowball stems a verb in -ify and its noun in -ification apart ("verify" verifi,
    # "verification" verif): the verb's stem is read as the noun's
    return stem[:-1] if stem.endswith("ifi") else stem


_VOWEL = re.compile("[aeiouy0-9]")
# Words that Snowball stems to another meaning's stem, as software teams write them: production
# (the environment, as "prod" abbreviates it) and productive/productivity are not "product" (a
# catalog's 상품), responsive (a layout) is not "response" (an API's)
_APART = {"production": "prod", "productions": "prod", "productive": "productiv",
          "productivity": "productiv", "responsive": "responsiv", "responsiveness": "responsiv"}


# Stems already computed: Snowball in pure Python costs tens of microseconds a word, and a
# query, its lexicon groups and the records read back repeat the same words. Bounded.
_STEMS = {}
_STEMS_MAX = 50000
STEM_TABLE = "lexicon-stems.txt"  # in templates/ (judgment_toolkit.packaged)


def stem_table(lexicon_text):
    """The text of STEM_TABLE for a lexicon: the stems of its English words, the words a
    question and the records read back hold most, which each process would otherwise stem again
    (a hook is one process; the lexicon's own groups are read already analysed, lexicon.TERMS):
    comment lines, then the words on one line and their stems on the next, in the same order."""
    found = set()
    for line in lexicon_text.splitlines():
        if not line.strip().startswith("#"):
            found.update(w for w in words(fold(line))
                         if w.isascii() and not w.isdigit() and term(w) is not None)
    table = sorted(found)
    return ("# The Snowball English stems of the words of lexicon.txt, read by judgment.analysis\n"
            "# so that no process stems them again. Generated: tests/python/judgment/"
            "test_rank_stem_table.py\n# says how to write it again when the lexicon changes.\n"
            + " ".join(table) + "\n" + " ".join(map(_stem, table)) + "\n")


def _read_table():
    """{word: stem} of the packaged STEM_TABLE (empty where it is missing: stemmed then)."""
    try:
        with open(packaged_path(STEM_TABLE), encoding="utf-8") as f:
            rows = [line for line in f.read().split("\n") if line and line[0] != "#"]
    except OSError:
        return {}
    if len(rows) != 2:
        return {}
    found, stems = rows[0].split(), rows[1].split()
    return dict(zip(found, stems)) if len(found) == len(stems) else {}


_TABLE = _read_table()


def terms(text):
    """The distinct terms of a text, in order of first appearance."""
    seen = {}
    for word in words(fold(text)):
        t = term(word)
        if t is not None:
            seen.setdefault(t, None)
    return list(seen)


def word_terms(text):
    """The terms of a text grouped by the word they come from, distinct, in order of first
    appearance: [(term, ...)]. An English word gives one term, a long Hangul, kana or Han word
    its 2-character pieces, so a caller can weigh a word as one unit of meaning."""
    return list(surface_words(text))


def surface_words(text):
    """{(term, ...): the word as written}: word_terms's words, each with the folded word it
    first came from, a Hangul word without its particles and endings ("태블릿은" -> 태블릿), for
    a caller that reads how a word sounds (judgment.loanword)."""
    seen = {}
    for word in _words_of(fold(text)):
        found = tuple(dict.fromkeys(t for t in map(term, _pieces(word)) if t is not None))
        if found and found not in seen:
            seen[found] = strip_korean(word) if _starts_in(word, _HANGUL_RANGES) else word
    return seen


def needles(t):
    """Substrings that every word with term t contains: a cheap, exact pre-check that lets a
    record field without any of them skip the word-by-word analysis. A Snowball English stem
    is the word's own prefix, except that its last letter may be one the stemmer wrote: an i
    (y -> i), an added e, the y of sky (skies), the l of -bl (probability -> probabl); and
    5-letter words in -ying (dying -> die). So a stem that ends otherwise is its own needle
    ("mq", "pg", "postgr"): a one-letter needle would be in nearly every line. Checked against
    every word of this repository's text and its dependencies' (74k words;
    tests/python/judgment/test_rank_relevance.py checks the repository's docs and data)."""
    if not (t.isascii() and not t.isdigit()):
        return (t,)  # unstemmed: the word itself
    if len(t) == 3 and t.endswith("ie"):
        return (t[:-1], t[0] + "y")
    if t[-1] in "eiy" or t.endswith("bl"):
        return (t[:-1],)
    return (t,)

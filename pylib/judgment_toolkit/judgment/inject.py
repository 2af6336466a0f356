"""Recall for automatic injection (docs/claude-kit.md, "At the moment of asking"): the past
decisions that answer a question being asked, or nothing. The PreToolUse hook calls `answers`
in-process; an explicit search (judgment.search) stays broad.

INTERFACE (fixed):

    answers(path, project, question, options=(), env=None, header="") -> [Answer]

    Answer = {"record": the ledger record (dict, as stored),
              "earlier": [older records of the same project that answer the same question
                          with another answer, newest first],
              "part": which of the questions a question asks when it asks several the
                      record answers, from 1 (_parts), or 0: the question as a whole,
              "option": present when the record's answer names the words of one option of
                        `options` and no other's (_Offered.naming): its label}

The list is best first and holds at most MAX_ANSWERS items; an empty list means "say nothing".
`question` is the question's text, `options` the option labels (they weigh less than the
question), `header` AskUserQuestion's short name for the question's subject ("Rollout").
Raises only what ledger.records raises for an unreadable ledger (OSError and ledger's own
errors); the hook maps every exception to silence.

The rule (docs/judgment-ledger.md, "Recall for automatic injection"):
  1. rank: one pass of the relevance ranking (judgment.rank, BM25 with the lexicon) over the
     project's records (judgment.inject_pass: read from their bytes, and only the records
     worth scoring parsed), the question's terms weighing 1 and the option labels' OPTION_WEIGHT,
     the header's words searched for as the question's; the best CANDIDATES records are read
     back;
  2. accept: a candidate is kept only when it is about what is asked, measured on whole words
     (a Korean word's 2-character pieces count as one word), each weighed by its idf:
     `asked` is the share of the question's words that the record holds (its own word, or one
     the lexicon gives for it, which counts ALT_CREDIT in the record's question and ALT_FAR
     elsewhere), `covered` the share of the record's QUESTION words that the question or its
     options hold; GENERIC words weigh GENERIC_WEIGHT
     of their idf; the match is their geometric mean, measured for the question and for the
     header and question together, and for each of the questions it asks when it asks several
     (parts: "which bundle size budget applies, and which charts library?"), the best kept;
     it must reach ACCEPT and MARGIN times the best match of the same part, and the record
     must hold (anywhere, as its own word, the lexicon's or a loanword's) a word of the
     question's subject: one that is neither GENERIC nor an aspect (FACET);
  3. one topic: the candidates that answer the same question as an accepted record (Topic)
     form its topic; where they disagree the newest leads (else the best match), and the older ones
     with another answer are "earlier". Two records join one topic only when the later of them
     is worded as a change (CHANGE: "move to", "바꿀까", "대신", ...; or asked as a situation,
     a statement before its question: "Nobody maintains the GX suites. What do we use?") or
     their questions are
     SAME_CERTAIN close and the later one is accepted by itself too: a later decision that
     builds on an earlier one ("shard the Playwright tests?" after "Cypress or Playwright?")
     does not reverse it, nor does a neighbour whose question looks alike ("complaint
     records" after "visitor car records", both "how long do we keep ...?").
The rule's other tests (docs, same section): an offered answer must come from a record whose
own question shares a word with the question, and is enough from ACCEPT_OFFERED; so is the
quantity an option offers ("30일" for "30 days"), from ACCEPT_VALUE; where none is accepted,
each candidate that alone names an option's own words is, from ACCEPT_NAMED (_named_alone);
where none is still, the best candidate whose answer names two options or more
(_naming_several); where none is still, a decision and its reversal among the best
REVERSAL_CANDIDATES answer together when they chose two different options of the question (_reversed_choice);
a question whose options are numbers, most of them, is answered only by a record whose answer
holds a value, and one whose options name two things or more, by none whose answer is a value
alone (judgment.values); a record whose question names a rival of what the question names
(judgment.rivals: iOS for Android) is no candidate at all.
"""
MAX_ANSWERS = 3
CANDIDATES = 10
# the best candidates in which a decision and its reversal are looked for, their questions
# SAME_TAGGED alike at least (_reversed_choice)
REVERSAL_CANDIDATES = 6
OPTION_WEIGHT = 0.3  # an option label's term, against a question's term (1)
OPTION_CREDIT = 0.5  # a record's question word found only among the option labels
ALT_CREDIT = 0.8  # a question word matched through the lexicon, against the word itself
ACCEPT = 0.42
ALT_FAR = 0.5  # ... when the record holds the lexicon's word only outside its question
ACCEPT_OFFERED = 0.26  # enough for a record whose answer is one of the options offered
ACCEPT_VALUE = 0.2  # ... whose answer gives the quantity an option offers (values.quantities),
# or chose one option alone (option_of: its naming words all in one label, or its quantity)
ACCEPT_CHOSEN = 0.1  # ... whose answer is an option, and whose question names two options
ACCEPT_NAMED = 0.15  # ... a candidate alone naming an option, where none is accepted
NAMED_SHARE = 0.5  # the share of an option's own words' idf that names it (_Offered.naming)
NAMED_WORDS = 1.1  # ... this many times the idf of a word one record holds, for the note
NAMED_ALONE_WORDS = 1.0  # ... and for the one decision naming an option to answer (_named_alone)
MARGIN = 0.8
SAME_QUESTION = 0.6  # two records this alike answer the same question (Topic.same)
SAME_CERTAIN = 0.7  # a later decision this close, and accepted by itself, is on the same question
SAME_LOOSE = 0.3  # enough for a candidate that itself comes NEAR to answering
SAME_TAGGED = 0.2  # enough for a later decision worded as a change with the same tag, ...
TAGS_SHARED = 2  # ... a tag set that at most this many candidates carry (Topic.same)
NEAR = 0.25
GENERIC_WEIGHT = 0.2  # of a generic word's idf (GENERIC)
TYPO_MIN = 5  # letters of a term before it may be read as a typo of another (Query.correct)
# a question asks several when these join parts of PART_WORDS words or more each (_parts): not
# generic, so "crash and error reporting tool" or "retried, and how many times?" is one question
PART_JOINS = (", and ", " and ", "이랑 ", "랑 ", " 및 ")
PART_WORDS = 2
PART_MAX = 4  # parts at most


def answers(path, project, question, options=(), env=None, header="", explain=None):
    """The past decisions that answer `question` (see the module docstring). `explain`, a dict
    when given, receives for each record shown (by its id) the test that let it in: one of
    ADMITTED for a record the rule accepts, "joined: " and one of JOINED for a record of its
    topic (bench/inject_eval.py --paths counts them)."""
    from . import rivals, values
    judged, idf, count = _judged(path, project, question, options, env, header)
    asked = rivals.named(f"{header} {question}")
    if asked:  # a decision on a rival's question is not this one's ("iOS" for "Android")
        judged = [(m, rec) for m, rec in judged
                  if not rivals.apart(asked, rivals.named(_string(rec, "question")))]
    if values.asks_for_value(options):  # an answer without a value is not the one asked for
        judged = [(m, rec) for m, rec in judged if values.holds_value(_string(rec, "answer"))]
    elif values.asks_for_choice(options):  # nor is a value alone, where a thing is asked for
        judged = [(m, rec) for m, rec in judged if not values.only_value(_string(rec, "answer"))]
    offered = _Offered(options, env)
    topic = Topic(options, env, {id(rec) for m, rec in judged if m["subject"]},
                  [rec for _, rec in judged])
    given = topic.given  # one reading of the options' quantities for the rule and the topics
    admitted = {}  # id(record) -> the test that accepts it (ADMITTED)
    for m, rec in judged:
        why = _admits(m, rec, given, topic, offered)
        if why:
            admitted[id(rec)] = why
    accepted = [(m, rec) for m, rec in judged if id(rec) in admitted]
    naming = offered.naming(judged, f"{header} {question}", idf, count) if judged else {}
    named = _named(naming)  # id(record) -> the one option its answer names
    if not accepted and judged:
        accepted = _named_alone(judged, naming, _named(naming, NAMED_ALONE_WORDS))
        admitted.update((id(rec), ADMITTED[5]) for _, rec in accepted)
    if not accepted and judged:
        accepted = _naming_several(judged, naming)
        admitted.update((id(rec), ADMITTED[7]) for _, rec in accepted)
    if accepted:
        parts = {id(rec): m["part"] for m, rec in accepted}  # accepted by themselves, MARGIN aside
        best = {}  # the best match of each part (0: the question as a whole)
        for m, _ in accepted:
            best.setdefault(m["part"], m["match"])
        accepted = [(m, rec) for m, rec in accepted if m["match"] >= MARGIN * best[m["part"]]]
        found = topics([rec for _, rec in accepted], [(m["match"], rec) for m, rec in judged],
                       topic, {id(rec): m["offset"] for m, rec in judged}, parts)[:MAX_ANSWERS]
    else:
        found = _reversed_choice(judged, topic, naming)
        if found:
            admitted[id(found[0]["record"])] = ADMITTED[6]
    if not found:
        return []
    for answer in found:  # where the hook's note goes, when option_of finds no option
        if id(answer["record"]) in named:
            answer["option"] = named[id(answer["record"])]
    if explain is not None:
        for answer in found:
            for rec in [answer["record"], *answer["earlier"]]:
                explain[rec.get("id")] = admitted.get(id(rec)) or (
                    "joined: " + topic.joined.get(id(rec), "?"))
    return found


# The tests of the rule that accept a candidate (_admits), as `explain` names them
ADMITTED = ("match", "quantity offered", "chose one option", "offered answer",
            "offered answer, its question naming two options", "alone names an option",
            "reversed one option for another", "names several options")


def _admits(m, rec, given, topic, offered):
    """Which test of the rule (step 2 of the module docstring) accepts a candidate whose
    features are `m`: one of ADMITTED, or "" when none does. Each holds only for a record
    holding the question's subject; all but the first for one whose own question holds a
    word of the question asked."""
    if not m["subject"]:
        return ""
    if m["match"] >= ACCEPT:
        return ADMITTED[0]
    if not m["asked_q"] > 0:
        return ""
    if m["match"] >= ACCEPT_VALUE:
        if given.holds(rec):
            return ADMITTED[1]
        if topic.chose(rec):
            return ADMITTED[2]
    if m["match"] >= ACCEPT_CHOSEN and offered.holds(rec):
        if m["match"] >= ACCEPT_OFFERED:
            return ADMITTED[3]
        if offered.alternatives(rec) >= 2:
            return ADMITTED[4]
    return ""


def _named_alone(judged, naming, named):
    """[(features, record)] of the candidates whose answer alone names an option, where the
    rule accepts no other: each a record holding the question's subject, whose own question
    holds a word of the question asked and whose match reaches ACCEPT_NAMED, whose answer names
    one option and no other (`named`: _named of `naming`, _Offered.naming, with as much idf
    as one word that one record holds, NAMED_ALONE_WORDS: "a signed DPA" for "Only with a
    DPA"; the note goes on that option with more, NAMED_WORDS), when no other
    candidate's answer names that option ("No, WireMock stubs" answered by "WireMock stubs of
    its API on staging"); two of them name two options, as a decision and the one that
    reversed it do (MARGIN and the topics apply to them as to any other). [] when none is."""
    alone = {key for key, option in named.items() if len(naming[option]) == 1}
    return [(m, rec) for m, rec in judged if id(rec) in alone and _may_name(m)]


def _may_name(m):
    """Whether a candidate whose features are `m` may answer by the options its answer names
    (_named_alone, _naming_several): it holds the question's subject, its own question a word
    of the question asked, and its match reaches ACCEPT_NAMED."""
    return m["subject"] and m["asked_q"] > 0 and m["match"] >= ACCEPT_NAMED


def _naming_several(judged, naming):
    """[(features, record)] of the best candidate, where the rule accepts none, when its
    answer names the own words of two options or more (_Offered.naming): a past decision
    between the alternatives the question offers, whichever it chose ("구글, 애플, 카카오 +
    게스트" for "구글·애플·카카오 + 게스트 / 구글·애플만 / 네이버 추가"), and a candidate that may
    answer so (_may_name, as _named_alone asks). Only the best: the others were right less
    often. [] when it is not."""
    m, rec = judged[0]
    if len(_by_record(naming).get(id(rec), ())) >= 2 and _may_name(m):
        return [(m, rec)]
    return []


def _reversed_choice(judged, topic, naming):
    """[Answer] of a decision and the one that reversed it, where the rule accepts no candidate:
    two of the best REVERSAL_CANDIDATES candidates whose answers chose two different options of
    the question asked, each one option alone (`option` below), the later worded as a change
    (_changes), their tags sharing one where both have tags (as Topic.same asks of any two
    decisions on one question) and their questions SAME_TAGGED alike at least (Topic.alike; a
    decision on another subject gives a quantity an option offers as well: "canary, 5% for 30
    minutes"). A task's question that a past choice settles shares few words with it
    ("Building the deposit step of the checkout. How is the deposit amount computed?" with
    "Flat 200만원 / 10% of the quote", after "계약금 얼마 받아? -> 200만원" and "Couples say a
    flat deposit is unfair ... change it? -> 10% of the quote"), but two past answers that are
    two of its options, one changing the other, are the question decided and decided again.
    The later leads, the earlier is shown as earlier (it joins as a decision that chose another
    option, JOINED[0]); of several such pairs, the one of the best match together. [] when
    there is none, and [] without options: nothing to choose between. Each candidate's choice
    and wording are read only where a pair needs them (the rule reaches here on every question
    it leaves silent). `naming`: _Offered.naming of the candidates."""
    if not topic.labels:
        return []
    from .ledger import time_key
    # later: decided later, or in the same second on a later line of the ledger (as topics orders)
    pool = [(m["match"], rec, (time_key(rec["decided_at"]), m["offset"]), _tag_set(rec))
            for m, rec in judged[:REVERSAL_CANDIDATES]]
    named = _named(naming, 0)  # id(record) -> the one option it names

    def option(rec):
        """The one option the answer chose (Topic.chose, read once a record), else the one
        whose own words it names: "Amazon MWAA (Airflow 2.8), prod DAG 전부 환경 하나에" says
        more than "Yes, the MWAA bucket" but chose it."""
        chose = topic.chose(rec)
        return chose[0] if chose else named.get(id(rec))

    best = None
    for match_y, y, at_y, tags_y in pool:
        older = [(match_x, x) for match_x, x, at_x, tags_x in pool if at_x < at_y
                 and not (tags_x and tags_y and tags_x.isdisjoint(tags_y))
                 and (best is None or match_x + match_y > best[0])]
        if not older or not _changes(y, topic.terms(y)) or not option(y):
            continue
        for match_x, x in older:
            if option(x) and option(x) != option(y) \
                    and (best is None or match_x + match_y > best[0]):
                if topic.alike(topic._words(x), topic._words(y)) >= SAME_TAGGED:
                    best = (match_x + match_y, x, y)
    if best is None:
        return []
    _, earlier, later = best
    topic._join(earlier, JOINED[0])
    return [{"record": later, "earlier": [earlier], "part": 0}]


def _terms_of(rec):
    """(the word terms of a record's question, the terms of its question and answer): what
    _changes reads, and Topic._words before its lexicon step."""
    from .analysis import terms, word_terms
    words = word_terms(_string(rec, "question"))
    return words, {t for w in words for t in w} | set(terms(_string(rec, "answer")))


def judge(path, project, question, options=(), env=None, header=""):
    """[(features, record)] of the best candidates, best match first: the measures of the
    acceptance rule for each (see the module docstring)."""
    return _judged(path, project, question, options, env, header)[0]


def _judged(path, project, question, options, env, header):
    """(judge's list, {term: idf} of the terms the pass searched for, the number of the
    project's records)."""
    from . import inject_pass
    query = Query(question, options, env)
    if not query.words:
        return [], {}, 0
    headed = query.headed(header, options, env)
    searched = headed or query  # the pass looks for the header's words too
    scorer = inject_pass.scorer(path, project, searched.terms, searched.weights)
    import heapq
    keys = heapq.nlargest(CANDIDATES, scorer.keys())
    if not keys:
        return [], {}, 0
    idf = searched.idf(scorer)
    scores = {key[3]: key[0] for key in keys}
    lines = {key[3]: key[2] for key in keys}  # where each record is in the ledger
    records = list(inject_pass.read_back(path, project, [(key[2], key[3]) for key in keys]))
    judged = []
    for q in filter(None, (query, headed)):
        q.correct(records, idf, scorer)
    # (part, its query): the question whole, with its header, and each question it asks
    readings = [(0, q) for q in (query, headed) if q is not None]
    readings += enumerate(_parts(question, options, env), 1)
    whole = headed or query  # the subject is the whole question's (a part may name only an aspect)
    for rec in records:
        features = None
        for k, q in readings:
            found = q.features(rec, idf)
            if features is None or found["match"] > features["match"]:
                features = found
                features["part"] = k
        # read only where the rule may accept: the least match any of its tests takes
        features["subject"] = features["match"] >= ACCEPT_CHOSEN and whole.holds_subject(rec)
        features["bm25"] = scores[rec["id"]]
        features["offset"] = lines[rec["id"]]
        judged.append((features, rec))
    judged.sort(key=lambda item: -item[0]["match"])  # stable: BM25 order on ties
    return judged, idf, scorer.count


def _parts(question, options, env):
    """[Query] of each question that `question` asks when it asks several: its text split where
    PART_JOINS join them, each part of PART_WORDS words or more that are not generic; [] when
    it asks one, or more than PART_MAX (a part costs a Query: a long text of many joins is read
    as one question, in time linear in its length). "Which bundle size budget applies, and
    which charts library should it use?" asks two; a decision answering one of them covers
    half of the whole question's words, and is measured against its part. The parts' terms
    are the question's own, so the pass's statistics (idf) hold for them."""
    pieces = [question]
    for join in PART_JOINS:
        pieces = [p for piece in pieces for p in piece.split(join, PART_MAX)]
        if len(pieces) > PART_MAX:
            return []
    if len(pieces) < 2:
        return []
    from . import analysis
    generic = generic_words()
    for piece in pieces:
        if sum(not is_generic(w, generic) for w in analysis.word_terms(piece)) < PART_WORDS:
            return []
    return [Query(piece, options, env) for piece in pieces]


class Query:
    """A question and its option labels, analysed: words, terms, weights, lexicon links."""

    def __init__(self, question, options, env):
        from . import analysis, lexicon, loanword
        self.analysis, self.loanword = analysis, loanword
        self.text = question
        self._subject = None  # the words of its subject (holds_subject), read once
        surface = analysis.surface_words(question)
        self.words = list(surface)
        own = [t for word in self.words for t in word]
        have = set(own)
        option_terms = [t for t in analysis.terms(" ".join(options)) if t not in have]
        lx = lexicon.check(env)
        self.alternatives = {}  # term the lexicon adds -> the question's terms that fired it
        self.entries = {}  # (terms of a lexicon entry the question lacks) -> the same
        # a generic word is not searched for: it would bring most records into the pass's
        # scoring (the slow part) and weighs little in the rule
        generic = generic_words()
        weights = {t: 1.0 for word in self.words if not is_generic(word, generic) for t in word}
        for t in option_terms:
            weights[t] = OPTION_WEIGHT
        translated = set()  # the question's terms that fired a lexicon group
        for base, terms in ((1.0, own), (OPTION_WEIGHT, option_terms)):
            if not terms:
                continue
            for sources, group in lx.fired(terms):
                translated.update(sources)
                for entry in group:
                    if base == 1.0 and not have.issuperset(entry):
                        self.entries.setdefault(tuple(entry), set()).update(sources)
                    share = base * lexicon.EXPANSION_WEIGHT / len(entry)
                    for t in entry:
                        if t in weights and (t in have or weights[t] >= share):
                            continue
                        weights[t] = share
                        if base == 1.0:
                            self.alternatives.setdefault(t, set()).update(sources)
        for t in list(self.alternatives):
            if t in have:
                del self.alternatives[t]
        self.own = have
        self.option_terms = set(option_terms)
        # how the words the lexicon does not translate sound (judgment.loanword): a Korean
        # loanword is then found in a record that writes it in English, and the other way
        self.sounds = {}  # (script, key) -> the question's words of that sound
        for word, written in surface.items():
            for sound in loanword.sounds(written) if translated.isdisjoint(word) else ():
                self.sounds.setdefault(sound, []).append(word)
        # the scripts of the words to look for, by str.isascii() of a word of that script
        self.scripts = {script == "hangul" for script, _ in self.sounds}
        self.terms = list(weights)
        self.weights = list(weights.values())

    def headed(self, header, options, env):
        """The question read with its header in front ("Token TTL: What idle timeout ...?"),
        or None when the header adds no word (none, or only the question's own): the header
        is the asker's name for the question's subject, and a record that holds its words
        matches at least as well as without them (judge keeps the better of the two)."""
        if type(header) is not str or not header.strip():
            return None
        if self.own.issuperset(self.analysis.terms(header)):
            return None
        return Query(f"{header}: {self.text}", options, env)

    def idf(self, scorer):
        """{term: idf} of the query's terms, from the pass's statistics."""
        from .rank import idf
        return {t: idf(scorer.count, df) for t, df in zip(scorer.terms, scorer.df)}

    def correct(self, records, idf, scorer):
        """Typos: an English term of the question that no record of the project holds (df 0)
        and that is one edit (a letter dropped, added, changed, or two swapped) from a term of
        the candidates, of TYPO_MIN letters or more, is read as that term ("verison" is
        "version"): its word then counts as held wherever the corrected term is. The corrected
        term keeps its own idf where the pass measured one (a lexicon term of the query), else
        takes the written one's (it was not searched for)."""
        missing = [t for t, df in zip(scorer.terms, scorer.df)
                   if not df and t in self.own and t.isalpha() and t.isascii()
                   and len(t) >= TYPO_MIN]
        if not missing:
            return
        vocabulary = {t for rec in records for t in self.analysis.terms(_text(rec))
                      if t.isascii() and len(t) >= TYPO_MIN - 1}
        fixed = {}
        for t in missing:
            near = sorted(v for v in vocabulary if _one_edit(t, v))
            if near:
                fixed[t] = near[0]
                idf.setdefault(near[0], idf.get(t, 0.0))  # a measured idf stays
        if fixed:
            self.words = [tuple(fixed.get(t, t) for t in word) for word in self.words]
            self._subject = None
            self.own = self.own | set(fixed.values())

    def features(self, rec, idf):
        """{"asked", "asked_q", "covered", "match"} of one record (see the module docstring)."""
        terms = self.analysis.terms
        asked_fields = set(terms(_text(rec)))
        question = _string(rec, "question")
        asked_q = set(terms(question))
        rare = max(idf.values()) if idf else 1.0
        generic = generic_words()
        words = self.analysis.surface_words(question)
        heard = self._heard(question)  # the question's words this record's question sounds
        heard_far = self._heard(_text(rec)) - heard
        f = {"asked": self._asked(asked_fields, idf, asked_q, heard, heard_far),
             "asked_q": self._asked(asked_q, idf, asked_q, heard)}
        found = 0.0
        total = 0.0
        for word, written in words.items():
            weight = _word_idf(word, idf, rare)
            if is_generic(word, generic):
                weight *= GENERIC_WEIGHT
            total += weight
            share = 0.0
            for t in word:
                if t in self.own or t in self.alternatives:
                    share += 1.0
                elif t in self.option_terms:
                    share += OPTION_CREDIT
            if not share and self._sounds_like(written):
                share = len(word)  # a loanword of the question, written in the other script
            found += weight * share / len(word)
        f["covered"] = found / total if total else 0.0
        f["match"] = (f["asked"] * f["covered"]) ** 0.5
        return f

    def holds_subject(self, rec):
        """Whether the record holds a word of the question's subject: a word that is neither
        generic nor an aspect (FACET: how long, how often, which region, who), as its own word,
        a lexicon alternative or a loanword; True when the question names no subject."""
        if self._subject is None:
            generic, facets = generic_words(), facet_words()
            self._subject = [w for w in self.words if not is_generic(w, generic) and w not in facets]
        subject = self._subject
        if not subject:
            return True
        text = _text(rec)
        held = set(self.analysis.terms(text))
        reached = _reached(self.entries, held) | self._heard(text)
        return any(t in held or t in reached for w in subject for t in w)

    def _sounds_like(self, written):
        """Whether a word (as written) sounds like a word of the question in the other
        script (judgment.loanword)."""
        return bool(self.sounds) and any((_OTHER_SCRIPT[script], key) in self.sounds
                                         for script, key in self.loanword.sounds(written))

    def _heard(self, text):
        """The terms of the question's words that a word of `text` sounds like in the other
        script: a loanword and its English word (judgment.loanword)."""
        out = set()
        if not self.sounds or (text.isascii() and True not in self.scripts):
            return out  # nothing to hear: no word in the script the question's sounds need
        for written in self.analysis.surface_words(text).values():
            if written.isascii() not in self.scripts:
                continue
            for script, key in self.loanword.sounds(written):
                for word in self.sounds.get((_OTHER_SCRIPT[script], key), ()):
                    out.update(word)
        return out

    def _asked(self, held, idf, held_in_question, heard=frozenset(), heard_far=frozenset()):
        """The share of the question's words, by idf, that a record holds (`held`: the terms
        of the fields read; `held_in_question`: those of its question): a word of its own
        counts 1; a word the lexicon translates, or a loanword the record writes in the other
        script (`heard`, `heard_far`: judgment.loanword), counts ALT_CREDIT when the record's
        question holds it, ALT_FAR when only its answer, rationale or tags do (a long
        rationale holds a chance translation of some word far more often than a question)."""
        found = 0.0
        total = 0.0
        generic = generic_words()
        near = _reached(self.entries, held_in_question) | heard
        far = (_reached(self.entries, held) | heard_far) - near
        for word in self.words:
            weight = _word_idf(word, idf, 0.0)
            if is_generic(word, generic):
                weight *= GENERIC_WEIGHT
            total += weight
            share = sum(1 for t in word if t in held) / len(word)
            if share < ALT_CREDIT and not near.isdisjoint(word):
                share = ALT_CREDIT
            elif share < ALT_FAR and not far.isdisjoint(word):
                share = ALT_FAR
            found += weight * share
        return found / total if total else 0.0


_OTHER_SCRIPT = {"latin": "hangul", "hangul": "latin"}


class _Offered:
    """Whether a record's answer is one of the options: its terms are those of a label, or
    within them, or the label's within the answer's ("Postgres" and "Postgres (SKIP LOCKED)"),
    each term read as itself or as a word of a lexicon group it fires ("rhf + zod" and
    "react-hook-form + zod", "Redis" and "레디스"), or a label's words as the loanwords they
    sound like ("마크다운" and "Markdown", judgment.loanword): a past decision between the same
    alternatives as the question offers. Numbers are left out: "10%" or "30 days" is a value
    that many unrelated questions offer, and so is the unit that follows a number ("30 days",
    "1시간"). Labels without other terms ("Yes", "No", "90d") offer nothing."""

    def __init__(self, options, env):
        self.env = env
        from .values import named
        self.named = named
        self.offered = [(found, option) for option in options for found in [named(option)] if found]
        self._lexicon = None

    def _fired(self, own):
        """The lexicon's groups that `own` fires (lexicon.Lexicon.fired), the lexicon read
        once an _Offered."""
        if self._lexicon is None:
            from . import lexicon
            self._lexicon = lexicon.check(self.env)
        return self._lexicon.fired(own)

    def _read(self, own):
        """{term: the terms it may be read as}: itself, and every term of a lexicon group it
        fires (wholly: an entry of several terms fires only with all of them)."""
        read = {t: {t} for t in own}
        for sources, group in self._fired(own):
            alternatives = {t for entry in group for t in entry}
            for t in sources:
                read[t] |= alternatives
        return read

    def alternatives(self, rec):
        """How many of the options a record names: those its own question names (their terms,
        each read as itself or as a word of a lexicon group it fires, or their words as the
        loanwords they sound like in the other script, judgment.loanword), and the one its
        answer is, when it is one alone (an answer naming two chose neither). Two or more, and
        the record chose between the alternatives offered ("Course authoring: WYSIWYG editor or
        Markdown?" for "마크다운 / WYSIWYG"; "Kafka or Kinesis?" answered "Kafka on MSK" for
        "MSK / Kinesis")."""
        question = _string(rec, "question")
        text = self.named(question)
        found = set(self._held(_string(rec, "answer")))
        if len(found) > 1:
            found = set()
        if not text:
            return len(found)
        held = heard = None
        for label, option in self.offered:
            if option in found:
                continue
            if label <= text:
                found.add(option)
                continue
            if held is None:
                held = set().union(*self._read(text).values())
            as_label = self._read(label)
            if all(t in held or not as_label[t].isdisjoint(text) for t in label):
                found.add(option)
                continue
            if heard is None:
                heard = _sounds(question)
            if _spoken(option, label, text, heard):
                found.add(option)
        return len(found)

    def holds(self, rec):
        return next(self._held(_string(rec, "answer")), None) is not None

    def naming(self, judged, asked, idf, count):
        """{option: [(id(record), said)]} of the candidates (`judged`) whose answer names
        each option's own words (those of its label that the header and question, `asked`, do
        not hold, generic words and words of a change aside, and the option's values): NAMED_SHARE
        of their idf at least; `said`, the idf named as a multiple of the idf of a word that one
        of the project's `count` records holds (_named asks NAMED_WORDS of it). A word is named
        as itself or as a lexicon entry of a group it fires, spelled by whole words of the
        answer (a piece of a longer Korean word is not the word: 로그 "log" is not in 로그인
        "login")."""
        from . import analysis, rank
        generic, change = generic_words(), change_terms()
        known = self.named(asked)
        rare = max(idf.values()) if idf else 1.0
        one = rank.idf(count, 1)
        answers = [(id(rec), _polar(_string(rec, "answer"))) for _, rec in judged]
        out = {}
        for label, option in self.offered:
            words = [w for w in analysis.surface_words(option)
                     if not label.isdisjoint(w) and not known.issuperset(w)
                     and not is_generic(w, generic) and change.isdisjoint(w)]
            if not words:
                continue
            negated = set(_polar(option)[1])  # "No account": a word the label says no to
            weight = {w: _word_idf(w, idf, rare) for w in words}
            total = sum(weight.values())
            fired = self._fired([t for w in words for t in w])
            for key, polar in answers:
                held = 0.0
                for w in words:  # said of the answer's words of the same polarity as the label's
                    spelled = polar[w in negated]
                    if w in spelled or any(
                            sources.issuperset(w) and any(_spells(entry, spelled) for entry in group)
                            for sources, group in fired):
                        held += weight[w]
                if held >= NAMED_SHARE * total:
                    out.setdefault(option, []).append((key, held / one))
        return out

    def options_within(self, text):
        """The options whose label holds every term of the answer `text` that names something,
        words of a change and generic words aside ("Detox로 전환" is "Detox"), each term read
        as itself or as a word of a lexicon group it fires ("가맹점 현지 시간" is "Merchant
        local time"): the answer says nothing the label does not."""
        generic = generic_words()
        answer = {t for t in self.named(text) - change_terms() if not is_generic((t,), generic)}
        if not answer or not self.offered:
            return []
        as_answer = self._read(answer)
        return [option for label, option in self.offered
                if all(t in label or not as_answer[t].isdisjoint(label) for t in answer)]

    def _held(self, text):
        """The options whose label the answer `text` is, each once: first those read by their
        terms alone, then through the lexicon, then by how they sound (the costlier readings
        only when the cheaper found none of the options yet to be read)."""
        answer = self.named(text)
        if not answer or not self.offered:
            return
        left = []
        for label, option in self.offered:
            if answer <= label or label <= answer:
                yield option
            else:
                left.append((label, option))
        if not left:
            return
        as_answer = self._read(answer)
        held = set().union(*as_answer.values())
        unheard = []
        for label, option in left:
            as_label = self._read(label)
            readings = set().union(*as_label.values())
            if (all(t in readings or not as_answer[t].isdisjoint(label) for t in answer)
                    or all(t in held or not as_label[t].isdisjoint(answer) for t in label)):
                yield option
            else:
                unheard.append((label, option))
        if unheard:
            heard = _sounds(text)  # "Markdown" for "마크다운"
            for label, option in unheard:
                if _spoken(option, label, answer, heard):
                    yield option


def _named(naming, words=NAMED_WORDS):
    """{id(record): the one option its answer names} (_Offered.naming), `words` times the idf
    of a word that one record holds at least (0: half of the option's own words' idf is enough,
    _reversed_choice), of the records that name no other option: an answer naming two options
    ("Chrome, Edge, Firefox, Safari" for "chrome만 / chrome+safari") chose neither alone."""
    return {key: named[0][0] for key, named in _by_record(naming).items()
            if len(named) == 1 and named[0][1] >= words}


def _by_record(naming):
    """{id(record): [(option, said)]}: _Offered.naming by the record that names the options."""
    options = {}
    for option, names in naming.items():
        for key, said in names:
            options.setdefault(key, []).append((option, said))
    return options


_CLAUSE = None  # compiled on first use (_polar)
NEGATING = frozenset("no not without never nor none neither".split())
NEGATING_KOREAN = ("없",)  # 없음, 없이, 없고: the word before is said no to
NEGATING_KOREAN_WORDS = frozenset("말고 제외 불가 금지".split())  # ... and so after these


def _polar(text):
    """([words said], [words said no to]) of `text` (analysis.surface_words' term tuples): in
    each clause (between , ; : . ! ? and "but"), the words after an English negation ("no
    separate model server", "without personal data") and the word right before a Korean one
    that says no to a thing ("가입 없음", "Redis 말고") are said no to. (안 and 않 say no to
    a verb: "따로 안 붙임" says 서버 로그 before it.)"""
    global _CLAUSE
    import re
    from . import analysis
    if _CLAUSE is None:
        _CLAUSE = re.compile(r"[,;:.!?\n]+|\sbut\s")
    said, denied = [], []
    for clause in _CLAUSE.split(analysis.fold(text)):
        tokens = clause.split()
        cut = next((i for i, t in enumerate(tokens) if t in NEGATING or t.endswith("n't")), None)
        if cut is not None:  # the negation itself is said ("without", 없이: words of both)
            said.append(" ".join(tokens[:cut + 1]))
            denied.append(" ".join(tokens[cut + 1:]))
            continue
        cut = next((i for i, t in enumerate(tokens) if t in NEGATING_KOREAN_WORDS
                    or t.startswith(NEGATING_KOREAN)), None)
        if cut:
            said.append(" ".join(tokens[:cut - 1] + tokens[cut:]))
            denied.append(tokens[cut - 1])
            continue
        said.append(clause)
    return (list(analysis.surface_words(" ".join(said))),
            list(analysis.surface_words(" ".join(denied))))


def _word_idf(word, idf, default):
    """A word's weight: the mean idf of its terms (a Korean word's 2-character pieces count
    together as one word), `default` for a term the pass did not measure."""
    return sum(idf.get(t, default) for t in word) / len(word)


def _spells(entry, words):
    """Whether the whole words `words` (term tuples) that lie within a lexicon entry spell all
    of it."""
    entry = set(entry)
    inside = [w for w in words if entry.issuperset(w)]
    return bool(inside) and entry.issubset(t for w in inside for t in w)


def _words_and_sounds(text):
    """[(a word's terms, the keys it sounds like)] of the words of `text` (judgment.loanword)."""
    from . import analysis, loanword
    return [(set(terms), loanword.sounds(written))
            for terms, written in analysis.surface_words(text).items()]


def _spoken(option, label, terms, heard):
    """Whether every word of an offered option (its `label` the terms that name) is among
    `terms`, or sounds like a word in the other script whose keys are `heard` (_sounds): the
    label written as a loanword ("마크다운" in "Markdown or TipTap?")."""
    return bool(heard) and all(
        label.isdisjoint(own) or terms.issuperset(own)
        or any((_OTHER_SCRIPT[script], key) in heard for script, key in sounds)
        for own, sounds in _words_and_sounds(option))


def _sounds(text):
    """{(script, key)} of the words of `text` (judgment.loanword)."""
    return {sound for _, sounds in _words_and_sounds(text) for sound in sounds}


def option_of(answer, labels, env=None):
    """[the label of the option a past answer chose] when one option alone is it, else []
    (docs/claude-kit.md, "What the person sees"): the one label that holds every word of the
    answer that names something (_Offered.options_within), else the one label that offers a
    quantity the answer gives ("5회, 24시간" for "5x / 24h", judgment.values.quantities), a
    number without a unit only with every word of the label that names something ("iOS 17"
    for "올린다, iOS 17 이상", not "PDF + ICD-10" for "KCD-8 (ICD-10 기반)"). Where none is,
    or several, the hook's note goes under the question, which is never wrong about the
    option."""
    offered = _Offered(labels, env)
    within = offered.options_within(answer)
    if len(within) == 1:
        return within
    from .values import quantities
    given = quantities(answer)
    if not given:
        return []
    names = offered.named(answer)
    named = {option: found for found, option in offered.offered}  # a label's naming terms

    def offers(label):
        shared = given & quantities(label)
        return bool(shared) and (any(unit is not None for _, unit in shared)
                                 or named.get(label, frozenset()) <= names)
    offering = [label for label in labels if offers(label)]
    return offering if len(offering) == 1 else []


class _Given:
    """Whether a record's answer gives a quantity that an option offers: "30일" for "30 days",
    "every 5 seconds" for "Every 5 s" (judgment.values.quantities). The options are read only
    when a record needs it."""

    def __init__(self, options):
        self.options = options
        self.offered = None

    def holds(self, rec):
        from .values import quantities
        if self.offered is None:
            self.offered = frozenset().union(*map(quantities, self.options))
        return bool(self.offered) and not self.offered.isdisjoint(
            quantities(_string(rec, "answer")))


def _one_edit(a, b):
    """Whether b is a at one edit: a letter dropped, added or changed, or two neighbours
    swapped (Damerau), in time linear in their length."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1:]


def _reached(entries, held):
    """The terms whose lexicon alternatives a record holds (`held`): a whole entry, every term
    of it (one 2-character piece of a long Korean word, such as the 이션 of 오케스트레이션, is
    in many unrelated words); linear in both, where asking word by word would cost words x
    entries."""
    reached = set()
    for entry, sources in entries.items():
        if held.issuperset(entry):
            reached |= sources
    return reached


def _string(rec, name):
    """A record's field when it is a string (a record is checked only as far as it is read),
    else ""."""
    value = rec.get(name)
    return value if type(value) is str else ""


def _text(rec):
    parts = [rec[f] for f in ("question", "answer", "rationale") if type(rec.get(f)) is str]
    tags = rec.get("tags")
    if type(tags) is list:
        parts.extend(t for t in tags if type(t) is str)
    return "\n".join(parts)


def topics(accepted, candidates, topic, offsets=None, parts=None):
    """[Answer]: each accepted record's topic led by its newest record (see the docstring): the
    latest decided_at, and of two decided in the same second the later line of the ledger
    (`offsets`: id(record) -> where its line starts), as prime orders them. `parts`:
    id(record) -> its part, of every candidate the rule accepts by itself, MARGIN aside (a
    superset of `accepted`; Topic.same reads it too); each answer's "part" is the one of the
    accepted record that started its topic (0 when not given)."""
    from .ledger import time_key
    offsets = offsets or {}
    parts = parts or {}
    out = []
    used = set()
    for rec in accepted:
        if id(rec) in used:
            continue
        same = [rec] + [c for match, c in candidates if c is not rec and id(c) not in used
                        and topic.same(rec, c, match, parts)]
        same.sort(key=lambda c: (time_key(c["decided_at"]), offsets.get(id(c), -1)), reverse=True)
        used.update(id(c) for c in same)
        # the newest leads only where the topic's decisions disagree (a reversal); where they
        # all gave the same answer, the one that answers the asked question best leads
        lead = same[0] if any(_answer(c) != _answer(rec) for c in same) else rec
        answers = {_answer(lead)}
        earlier = []
        for c in same:
            if c is not lead and _answer(c) not in answers:
                answers.add(_answer(c))
                earlier.append(c)
        out.append({"record": lead, "earlier": earlier, "part": parts.get(id(rec), 0)})
    return out


# Why a candidate joins an accepted record's topic (Topic.same), as `explain` names them
JOINED = ("chose another option", "alike questions", "worded as a change, accepted alone",
          "worded as a change, near, quantity offered", "worded as a change, same tags")


def _tag_set(rec):
    """The record's tags as a set (of its strings; empty for a record without a list)."""
    tags = rec.get("tags")
    return frozenset(t for t in tags if type(t) is str) if type(tags) is list else frozenset()


class Topic:
    """Whether two records answer the same question: the words of each one's question, its own
    or the lexicon's, found in the other's question or answer (a later decision often names
    the answer it reverses: "Recharts 대신 ECharts로 바꿀까?"), on average over both directions (generic words
    weigh GENERIC_WEIGHT), reach SAME_QUESTION; or a later one, worded as a change, joins by
    one of the other tests of `same` (JOINED). Two records whose tags share none never do."""

    def __init__(self, options=(), env=None, on_subject=frozenset(), candidates=()):
        from collections import Counter
        from . import lexicon
        from .ledger import time_key
        self.time_key = time_key
        self.lexicon = lexicon.check(env)
        self.generic = generic_words()
        self.cache = {}
        self.terms_cache = {}  # id(record) -> _terms_of (terms)
        self.labels = list(options)
        self.env = env
        self.chosen = {}  # id(record) -> (the one option its answer chose,) or () (option_of)
        self.given = _Given(options)
        self.on_subject = on_subject  # id(record) of the candidates holding the asked subject
        self.joined = {}  # id(record) -> why it joined a topic (JOINED), for answers(explain)
        self.tag_sets = Counter(map(_tag_set, candidates))  # tag set -> candidates carrying it

    def terms(self, rec):
        """_terms_of(rec), read once a Topic: what _changes reads, and _words builds on."""
        key = id(rec)
        if key not in self.terms_cache:
            self.terms_cache[key] = _terms_of(rec)
        return self.terms_cache[key]

    def _words(self, rec):
        key = id(rec)
        if key not in self.cache:
            words, held = self.terms(rec)
            terms = {t for w in words for t in w}
            alternatives = {}
            for sources, group in self.lexicon.fired(terms):
                for entry in group:
                    if not terms.issuperset(entry):
                        alternatives.setdefault(tuple(entry), set()).update(sources)
            self.cache[key] = (words, held, alternatives)
        return self.cache[key]

    def alike(self, a, b):
        """How alike two records' questions are (their Topic._words): the share of each one's
        question words the other holds, averaged over both directions."""
        return (self._covered(a, b) + self._covered(b, a)) / 2

    def _covered(self, a, b):
        words, _, alternatives = a
        held = b[1]
        found = total = 0.0
        reached = _reached(alternatives, held)
        for word in words:
            weight = GENERIC_WEIGHT if is_generic(word, self.generic) else 1.0
            total += weight
            share = sum(1 for t in word if t in held) / len(word)
            if share < ALT_CREDIT and not reached.isdisjoint(word):
                share = ALT_CREDIT
            found += weight * share
        return found / total if total else 0.0

    def chose(self, rec):
        """(the one option the answer of rec chose,) or () (option_of); read once a record."""
        key = id(rec)
        if key not in self.chosen:
            self.chosen[key] = tuple(option_of(_string(rec, "answer"), self.labels, self.env))
        return self.chosen[key]

    def same(self, x, y, match, alone=None):
        """x (accepted) and y (a candidate whose match with the asked question is `match`);
        `alone`: id(record) -> its part, of the candidates the rule accepts by themselves
        before MARGIN (topics' `parts`)."""
        # two decisions whose tags share none are on two subjects of the team's: it tags a
        # decision and the one that changes it alike (a captured decision carries the capture
        # tag, so captured ones never differ so)
        tags_x, tags_y = _tag_set(x), _tag_set(y)
        if tags_x and tags_y and tags_x.isdisjoint(tags_y):
            return False
        newer = self.time_key(y["decided_at"]) > self.time_key(x["decided_at"])
        # a later decision that chose another of the options asked now than x chose, and that
        # comes as near to answering as a decision giving an offered quantity must (ACCEPT_VALUE),
        # is the same choice made again: a reversal, however its question is worded ("CI 커버리지 게이트를 저장소 전체에 걸까요?" -> "전체 70%"
        # after "Do we put a minimum code coverage gate in CI?" -> "80% on the core module"),
        # when it holds the asked question's subject: values ("30 days / 90 days") are chosen
        # by decisions on many subjects
        if newer and self.labels and match >= ACCEPT_VALUE and id(y) in self.on_subject:
            was, now = self.chose(x), self.chose(y)
            if was and now and was != now:
                return self._join(y, JOINED[0])
        a, b = self._words(x), self._words(y)
        similar = self.alike(a, b)
        later = (y, b) if newer else (x, a)
        # a later decision not worded as a change is on the same question only when the two
        # questions are SAME_CERTAIN close and it answers the asked question by itself too:
        # likeness alone joined neighbours ("How long do we keep complaint records?" after
        # "... visitor car records?") and let them lead
        if not _changes(*later) and (similar < SAME_CERTAIN or not (alone and id(y) in alone)):
            return False
        if similar >= SAME_QUESTION:
            return self._join(y, JOINED[1])
        # a later decision worded as a change that answers the asked question by itself, as x
        # does (of the same part), only under MARGIN of x's match, is x's answer changed
        # however far apart the two questions' words are: a reversal asked in the other
        # language ("트럭 경로 계산, OSRM 대신 Valhalla로 갈까?" after "Routing engine for the
        # rebalancing truck planner: OSRM or GraphHopper?")
        if newer and alone and id(y) in alone and alone.get(id(x)) == alone[id(y)]:
            return self._join(y, JOINED[2])
        # a later decision worded as a change, on the asked subject, with the tags of x, a tag
        # set no more than TAGS_SHARED candidates carry: a team tags a decision and the one
        # that changes it alike ("deductible, glass" on "유리 파손 단독 청구 자기부담금은?" and
        # on "Deductible for glass claims?"), however few of their words the lexicon links;
        # SAME_TAGGED alike for a single tag, which a team gives broadly ("framework" on the
        # app's framework and on its New Architecture), none asked of a set of two or more
        # (a reversal asked as a situation in the other language shares almost no words)
        if newer and id(y) in self.on_subject and tags_x and tags_x == tags_y:
            if (similar >= SAME_TAGGED or len(tags_x) >= 2) \
                    and self.tag_sets[tags_x] <= TAGS_SHARED:
                return self._join(y, JOINED[4])
        # a later decision that reverses x is often asked as a change ("move the console to
        # Next.js?") and shares fewer words with it: enough when it nearly answers by itself
        # and gives a quantity an option offers ("5회, 24시간" for "5x / 24h"). (Speaking of
        # the same alternatives, a word of the labels or of x's answer, was enough too until
        # the tags joined most such reversals; then it joined more wrong decisions than right
        # ones: docs/judgment-ledger.md, "A seventh blind set".)
        # (A change whose question names the answer it changes, "Go 대신 Rust로 다시 짤까?" after
        # "Go or Rust?" -> Go, joined too however far from the asked question: the blind sets
        # counted 9 such joins, all wrong, same section.)
        if not (similar >= SAME_LOOSE and newer and match >= NEAR):
            return False
        return self.given.holds(y) and self._join(y, JOINED[3])

    def _join(self, y, why):
        """True, with why y joins a topic (JOINED) kept for `answers(explain=...)`."""
        self.joined.setdefault(id(y), why)
        return True


# Words that every team's decisions use whatever they are about (verbs of deciding, "tool",
# "way", "new"): in a small ledger they are rare, hence of high idf, but they say nothing about
# the subject; they weigh GENERIC_WEIGHT of their idf in the acceptance rule.
GENERIC = """
use using used new tool tools approach option options choice choose pick way method default type
kind keep move switch change add make need want go now still first next set get start stop own
better best good right plan decide decision setup support value run running
도구 툴 방식 방법 사용 선택 도입 변경 유지 전환 적용 기준 정하 얼마 얼마나 몇 계속 이번 다음 새로 방향 여부
"""


# Words of an aspect that many subjects have (how long, how often, which region, who, what
# rate, which version): a decision that holds only these of a question, and none of its other
# words that are not generic (its subject), answers another subject's question ("Which region
# should the Kafka cluster run in?" and "Which GCP region for the warehouse?"). Not GENERIC:
# they weigh as much as any word in the match, since the aspect asked matters too.
FACET = """
rate ratio percent percentage sample sampling region zone timezone timeout ttl expiry expire
expiration lifetime idle retention retain often frequency interval period cadence schedule
daily weekly monthly hourly nightly long duration length size limit cap max maximum min minimum
threshold quota count number many times retry attempt version format owner who when where
level scope granularity window deadline cutoff
second seconds minute minutes hour hours day days week weeks month months year years
주기 빈도 간격 기간 보관 보존 만료 유효 유휴 횟수 재시도 한도 상한 하한 최대 최소 비율 샘플링 리전 지역
시간대 버전 형식 포맷 담당 누가 언제 어디 범위 단위 크기 용량 제한 마감 기한 시간 며칠 개월 몇주
"""


def generic_words():
    """The word-term tuples of GENERIC, as a set that answers `in` (analysed lazily)."""
    return _word_set(GENERIC)


def facet_words():
    """The word-term tuples of FACET (as generic_words)."""
    return _word_set(FACET)


_WORD_SETS = {}  # a word list's text -> its _Generic, read once a process


def _word_set(text):
    found = _WORD_SETS.get(text)
    if found is None:
        found = _WORD_SETS[text] = _Generic(text)
    return found


class _Generic:
    """`word in` frozenset(word_terms(text)) without stemming every English word of the text
    (Snowball in pure Python: ~2.6 ms for GENERIC, at every question): a word of one ASCII
    term t can only come from a word that starts with a needle of t (analysis.needles; each
    word of GENERIC is one run of letters, so its own word_terms), and only those are
    analysed; the other words (Korean: no stemmer) are analysed at once.
    tests/python/judgment/test_inject_cost.py holds it equal to the whole analysis."""

    def __init__(self, text):
        from . import analysis
        self.analysis = analysis
        tokens = text.split()
        self.by_letter = {}  # the ASCII words of the text by their first letter, not analysed
        for w in tokens:
            if w.isascii():
                self.by_letter.setdefault(w[0], []).append(w)
        self.known = {t for w in tokens if not w.isascii() for t in analysis.word_terms(w)}
        self.analysed = set()  # ASCII words of the text analysed so far
        self.answers = {}

    def __contains__(self, word):
        found = self.answers.get(word)
        if found is None:
            if word not in self.known and len(word) == 1 and word[0].isascii():
                for n in self.analysis.needles(word[0]):
                    among = self.by_letter.get(n[0], ()) if n else sum(self.by_letter.values(), [])
                    for w in among:
                        if w not in self.analysed and w.startswith(n):
                            self.analysed.add(w)
                            self.known.update(self.analysis.word_terms(w))
            found = self.answers[word] = word in self.known
        return found


def is_generic(word, generic):
    """A word of GENERIC, or a Korean verb in a question's ending -ㄹ까 (바꿀까, 옮길까: what
    it asks is in the other words)."""
    return word in generic or word[-1].endswith("까")


def _answer(rec):
    return " ".join(str(rec.get("answer", "")).casefold().split())


# How a decision that changes an earlier one is asked: the verbs and adverbs of a change, in
# English (as analysed: stems) and in Korean (the syllables a verb's forms begin with: 바꿀까,
# 바꿔, 바꾼 ...). A later decision on a related question that changes nothing ("shard the
# Playwright tests in CI?" after "Cypress or Playwright?") builds on the earlier one.
CHANGE = """
move switch replace migrate instead still now anymore again drop stop revisit reconsider
upgrade downgrade raise lower increase reduce change shorten extend cut back retire keep stay
"""
CHANGE_KOREAN = tuple("""
바꾸 바꿀 바꿔 바꾼 바꿈 옮기 옮길 옮겨 옮긴 대신 전환 교체 이전 늘리 늘릴 늘려 늘린 줄이 줄일 줄여 줄인
올리 올릴 올려 올린 내리 내릴 내려 내린 통일 지금 이제 다시 그만 계속 단축 연장 확대 축소 폐기 중단 유지
""".split())
_CHANGE = None


def change_terms():
    """The terms of the words of a change, English and Korean (CHANGE, CHANGE_KOREAN)."""
    global _CHANGE
    if _CHANGE is None:
        from .analysis import terms
        _CHANGE = frozenset(terms(CHANGE + " ".join(CHANGE_KOREAN)))
    return _CHANGE


_SITUATION = None


def _changes(rec, words):
    """Whether a record is worded as a change (CHANGE, CHANGE_KOREAN) in its question or
    answer, or asked as a situation: its question states something before it asks, a
    sentence's end followed by more ("Nobody maintains the GX suites and half of them fail.
    What do we use for data quality?", "야간 빌드가 매일 깨져요. CI 러너 뭐로 해?"), as a
    decision taken again because something went wrong is asked. `words` is its Topic._words
    (the terms of both, already analysed)."""
    global _SITUATION
    if not change_terms().isdisjoint(words[1]):
        return True
    if _SITUATION is None:
        import re
        _SITUATION = re.compile(r"[.!\u3002]\s+\S")
    if _SITUATION.search(_string(rec, "question")):
        return True
    text = " ".join(rec[f] for f in ("question", "answer") if type(rec.get(f)) is str)
    return any(k in text for k in CHANGE_KOREAN)

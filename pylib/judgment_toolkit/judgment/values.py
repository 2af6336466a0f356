"""What in a question's options or a decision's answer is a value: a number, the unit that
follows it ("30 days", "1시간"), a number written with its unit's letter ("90d", "24h"), a
number word ("two", "twice", "weekly", "하루", "두 명"). Used by automatic injection
(judgment.inject; docs/judgment-ledger.md, "Recall for automatic injection"):
  - an answer offered among the labels is a decision between the same alternatives only for
    the words that name something (`named`): "30 days" or "10%" is offered by many unrelated
    questions;
  - a question whose options are numbers, most of them, asks for a value, and a decision whose
    answer holds none ("Kafka on MSK", "no: a fullscreen check") answers another question
    (`asks_for_value`, `holds_value`); a question whose options name two things or more,
    without a value, asks which, and a decision whose answer is a value alone ("24 hours")
    answers another question (`asks_for_choice`, `only_value`);
  - a decision whose answer gives the very quantity an option offers ("30일" for "30 days",
    "15분마다" for "Every 15 min", "five years" for "5 years") is a decision between the
    alternatives offered, the same amount of the same unit (`quantities`).
"""
import re

# a number with the letter of its unit: 90d, 24h, 15m, 2x, 10k
UNIT_LETTER = re.compile("[0-9]+[a-z]{1,2}")
_DIGIT = re.compile("[0-9]")
NUMBER_WORDS = """
one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty fifty
hundred thousand million once twice half dozen none unlimited forever never indefinitely
daily weekly biweekly monthly quarterly yearly annually hourly nightly
"""
# Korean: words that are an amount or a period by themselves, and the native numerals, which
# are words only before a counter (두 명, 세 번, 한 달)
KOREAN_AMOUNTS = "하루 이틀 사흘 나흘 일주일 보름 매일 매주 매월 매달 매년 매시간 무기한 무제한 영구"
KOREAN_NUMERALS = "한 두 세 네 다섯 여섯 일곱 여덟 아홉 열"
KOREAN_COUNTERS = "명 개 번 회 시간 달 주 곳 건 자리 가지 군데 차례 시 분 초 년 살"
# what may follow a counter in the same word: 세 번까지, 두 명씩, 한 달에 (세분화 or 세대 is no
# numeral and counter; 대, machines, is left out: 세대 is a generation)
KOREAN_AFTER_COUNTER = "까지|씩|째|만|에|은|는|이|가|을|를|도|으로|로"
_VALUE_WORD = None

# The units a quantity is read in, each spelling (English, its plural, its letter, Korean) to
# one name: "30 days", "30d" and "30일" are one quantity. A number followed by no unit of these is
# a quantity only when written in digits and two characters or more ("25", "2.2"): a single
# digit, or a number word without a unit ("3", "8.0", "two"), counts too many things to say which.
UNITS = {
    "ms": "ms millisecond milliseconds 밀리초",
    "s": "s sec secs second seconds 초",
    "min": "min mins minute minutes 분",
    "h": "h hr hrs hour hours 시간",
    "d": "d day days 일",
    "w": "w wk wks week weeks 주 주일",
    "mo": "mo month months 개월 달",
    "y": "y yr yrs year years 년",
    "%": "% percent pct 퍼센트 프로",
    "times": "x time times try tries attempt attempts retry retries 배 번 회 차례",
    "m": "m meter meters metre metres 미터",
    "km": "km kilometer kilometers kilometre kilometres 킬로미터 킬로",
    "kb": "kb", "mb": "mb 메가", "gb": "gb 기가", "tb": "tb 테라",
    "people": "people person persons 명",
}
NUMBER_VALUES = {word: n for n, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}
NUMBER_VALUES.update(fifteen=15, twenty=20, thirty=30, sixty=60, ninety=90, hundred=100)
# Korean words that are an amount with its unit by themselves, and the native numerals before
# a counter (두 명, 세 번, 한 달)
KOREAN_QUANTITIES = {"하루": (1, "d"), "이틀": (2, "d"), "사흘": (3, "d"), "나흘": (4, "d"),
                     "일주일": (1, "w"), "보름": (15, "d")}
KOREAN_NUMERAL_VALUES = dict(zip(KOREAN_NUMERALS.split(), range(1, 11)))
_QUANTITY = None
_UNIT_OF = None


def named(text):
    """The terms of a label or an answer that name something (judgment.analysis terms): not
    its numbers and values, nor the word right after a number, which is its unit."""
    from .analysis import fold, term, words
    out = set()
    after_number = False
    for word in words(fold(text)):
        if word.isdigit() or UNIT_LETTER.fullmatch(word):
            after_number = True
            continue
        t = None if after_number else term(word)
        after_number = False
        if t is not None:
            out.add(t)
    return frozenset(out)


def asks_for_value(labels):
    """Whether most labels hold a digit, two at least: the question asks for a value (the
    odd label out is then a value in words: "Never", "Delete at once", "No cap")."""
    held = sum(1 for label in labels if _DIGIT.search(label))
    return held >= 2 and 2 * held > len(labels)


def asks_for_choice(labels):
    """Whether two labels or more name something and hold no value ("Per merchant", "Per API
    key"): the question asks which thing, and an answer that is a value alone answers how
    much or how long of something (`only_value`)."""
    return sum(1 for label in labels if named(label) and not holds_value(label)) >= 2


def only_value(text):
    """Whether a text is a value and names nothing besides ("24 hours", "6년", "₩90,000")."""
    return not named(text) and holds_value(text)


def holds_value(text):
    """Whether a text holds a value: a digit or a number word (NUMBER_WORDS, KOREAN_AMOUNTS,
    a Korean numeral before a counter)."""
    global _VALUE_WORD
    if _DIGIT.search(text):
        return True
    if text.isascii():  # the English number words as whole words, without the full expression
        return not _NUMBER_WORD_SET.isdisjoint(_ASCII_TOKEN.findall(text.lower()))
    if _VALUE_WORD is None:
        english = "|".join(NUMBER_WORDS.split())
        korean = "|".join(KOREAN_AMOUNTS.split())
        numerals = "|".join(KOREAN_NUMERALS.split())
        counters = "|".join(sorted(KOREAN_COUNTERS.split(), key=len, reverse=True))
        _VALUE_WORD = re.compile(rf"\b(?:{english})\b|{korean}|(?<![가-힣])(?:{numerals})\s*"
                                 rf"(?:{counters})(?:{KOREAN_AFTER_COUNTER})?(?![가-힣])",
                                 re.IGNORECASE)
    return bool(_VALUE_WORD.search(text))


# a word as \b delimits it in ASCII text (letters, digits and _), for holds_value's fast path:
# compiling the whole expression of value words costs a hook milliseconds
_ASCII_TOKEN = re.compile("[a-z0-9_]+")
_NUMBER_WORD_SET = frozenset(NUMBER_WORDS.split())


def quantities(text):
    """The quantities a text gives, as (number, unit) pairs: "every 15 min" {("15", "min")},
    "15분마다" and "a 15-minute window" the same, "five years" {("5", "y")}, "25" {("25", None)}
    (see UNITS for the units and for what a number without one counts as)."""
    global _QUANTITY, _UNIT_OF
    if _QUANTITY is None:
        _UNIT_OF = {spelling: unit for unit, spellings in UNITS.items()
                    for spelling in spellings.split()}
        words = "|".join(NUMBER_VALUES)
        numerals = "|".join(KOREAN_NUMERALS.split())
        # a number, in digits (1,000 and 1.5 too) or a word, then an optional dash or space and
        # a unit: a run of letters, a run of Hangul (its particle or 마다 stays on it and is
        # read off by the longest unit it starts with) or "%"; a native Korean numeral only
        # before its counter, as a word of its own
        _QUANTITY = re.compile(
            rf"(?<![\w.])([0-9][0-9,]*(?:\.[0-9]+)?|(?:{words})\b|(?:{numerals})(?=\s*[가-힣]))"
            rf"(?:\s*-?\s*(%|[a-z]+|[가-힣]+))?", re.IGNORECASE)
    out = set()
    folded = text.casefold()
    for number, unit in _QUANTITY.findall(folded):
        digits = number[0].isdigit()
        if digits:
            value = number.replace(",", "")
            if "." in value:
                value = value.rstrip("0").rstrip(".")
        else:
            value = str(NUMBER_VALUES.get(number, KOREAN_NUMERAL_VALUES.get(number)))
        if digits and unit and not unit.isascii():
            value, unit = _korean_amount(value, unit)
        name = _unit(unit)
        if name is None and not digits and number in KOREAN_NUMERAL_VALUES:
            continue  # 한, 두, 세 before a word that is no counter: 한국, 두부, 세션
        if name is None and (not digits or len(value) < 2):
            continue
        out.add((value, name))
    for word, (value, name) in KOREAN_QUANTITIES.items():
        if word in folded:
            out.add((str(value), name))
    return frozenset(out)


# Korean writes large numbers by myriads: 2만 is 20,000, 100만 1,000,000, 3천만 30,000,000, 1억
# 100,000,000 ("2만 원" is "₩20,000"); the multiplier is read off the word after the number
KOREAN_MULTIPLIERS = (("천만", 10 ** 7), ("백만", 10 ** 6), ("억", 10 ** 8), ("만", 10 ** 4),
                      ("천", 10 ** 3))


def _korean_amount(value, written):
    """(the value, the rest of the word after it) of a number in digits followed by a Korean
    word that starts with a multiplier (KOREAN_MULTIPLIERS): ("2", "만") is ("20000", "")."""
    for prefix, times in KOREAN_MULTIPLIERS:
        if written.startswith(prefix):
            from decimal import Decimal
            amount = Decimal(value) * times
            return format(amount.normalize(), "f"), written[len(prefix):]
    return value, written


def _unit(written):
    """The unit a word after a number names (UNITS), or None: a Korean word is read by the
    longest unit it starts with (15분마다, 30일간, 3회까지)."""
    if not written:
        return None
    unit = _UNIT_OF.get(written)
    if unit is None and not written.isascii():
        for end in range(len(written), 0, -1):
            unit = _UNIT_OF.get(written[:end])
            if unit is not None:
                break
    return unit

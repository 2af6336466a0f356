"""What in a question's options or a decision's answer is a value: a number, the unit that
follows it ("30 days", "1시간"), a number written with its unit's letter ("90d", "24h"), a
number word ("two", "twice", "weekly", "하루", "두 명"). Used by automatic injection
(judgment.inject; docs/judgment-ledger.md, "Recall for automatic injection"):
  - an answer offered among the labels is a decision between the same alternatives only for
    the words that name something (`named`): "30 days" or "10%" is offered by many unrelated
    questions;
  - a question whose options are numbers, most of them, asks for a value, and a decision whose
    answer holds none ("Kafka on MSK", "no: a fullscreen check") answers another question
    (`asks_for_value`, `holds_value`).
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


def holds_value(text):
    """Whether a text holds a value: a digit or a number word (NUMBER_WORDS, KOREAN_AMOUNTS,
    a Korean numeral before a counter)."""
    global _VALUE_WORD
    if _DIGIT.search(text):
        return True
    if _VALUE_WORD is None:
        english = "|".join(NUMBER_WORDS.split())
        korean = "|".join(KOREAN_AMOUNTS.split())
        numerals = "|".join(KOREAN_NUMERALS.split())
        counters = "|".join(sorted(KOREAN_COUNTERS.split(), key=len, reverse=True))
        _VALUE_WORD = re.compile(rf"\b(?:{english})\b|{korean}|(?<![가-힣])(?:{numerals})\s*"
                                 rf"(?:{counters})(?:{KOREAN_AFTER_COUNTER})?(?![가-힣])",
                                 re.IGNORECASE)
    return bool(_VALUE_WORD.search(text))

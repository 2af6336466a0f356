"""Korean loanwords read as the English words they spell (judgment.loanword), and their part in
recall for automatic injection (docs/judgment-ledger.md, "Recall for automatic injection")."""
import json
import re

import pytest

from judgment_toolkit.judgment import inject, loanword
from judgment_toolkit import packaged

PAIRS = [("태블릿", "tablet"), ("스플래시", "splash"), ("다이내믹", "dynamic"), ("로케일", "locale"),
         ("노티피케이션", "notification"), ("스레드", "thread"), ("클러스터", "cluster"),
         ("파이썬", "python"), ("스트링", "string"), ("싱글톤", "singleton"), ("서비스", "service"),
         ("쿠버네티스", "kubernetes"), ("데이터베이스", "database"), ("사이프러스", "Cypress"),
         ("웹훅", "webhook"), ("모달", "modal"), ("토스트", "toast"), ("캐시", "cache"), ("서버", "server")]


@pytest.mark.parametrize("hangul,latin", PAIRS)
def test_a_loanword_and_its_english_word_have_one_key(hangul, latin):
    assert loanword.hangul_key(hangul) == loanword.latin_key(latin)


def test_keys_are_consonant_classes_in_order_a_repeat_once():
    assert loanword.latin_key("tablet") == "TPLT"  # the final t that Hangul writes 릿
    assert loanword.hangul_key("클러스터") == "KLST"  # 클러: the ㄹ written twice is one L
    assert loanword.latin_key("server") == "SP"  # an r before no vowel is not written: 서버
    assert loanword.latin_key("notification") == "NTPKSN"  # -tion is 션


def test_other_characters_have_no_key():
    for word in ("v2", "로그2", "ログ", "naïve", ""):
        assert loanword.key(word) is None or word == ""
    assert loanword.hangul_key("ログ") is None and loanword.latin_key("v2") is None


def test_a_key_of_two_consonants_is_not_used():
    """Two consonants are shared by chance too often (케이스 "case" and "keys" are both KS);
    three are used (로스터 "roster"), four and more too (태블릿 "tablet")."""
    assert loanword.hangul_key("케이스") == loanword.latin_key("keys") == "KS"
    assert loanword.key("케이스") is None and loanword.key("keys") is None
    assert loanword.key("로스터") == ("hangul", "LST") and loanword.key("roster") == ("latin", "LST")
    assert loanword.key("태블릿") == ("hangul", "TPLT") and loanword.key("tablet") == ("latin", "TPLT")


def test_a_sino_korean_word_is_not_read_by_its_sound_whatever_its_key():
    """출시 "release" has the key of "cells", 3 consonants; it has no syllable of a loanword."""
    assert loanword.hangul_key("출시") == loanword.latin_key("cells") == "SLS"
    assert loanword.key("출시") is None and loanword.key("cells") == ("latin", "SLS")


def test_only_a_word_with_a_syllable_sino_korean_lacks_is_read_by_its_sound():
    """Sino-Korean words (설정 "settings", 인증서 "certificate") and native verbs (만들까,
    막음) share keys with English words by chance; a loanword has a syllable they never have."""
    for word in ("태블릿", "스플래시", "로케일", "노티피케이션", "파이썬", "레이아웃", "토스트"):
        assert loanword.borrowed(word), word
    for word in ("설정", "인증서", "측정", "발송", "만들까", "보여줄까", "막음"):
        assert not loanword.borrowed(word) and loanword.key(word) is None, word
    assert loanword.hangul_key("인증서") == loanword.latin_key("engines")  # why it matters


def _single_words_of_packaged_groups():
    hangul, latin = [], {}
    for n, line in enumerate(packaged.text("lexicon", "lexicon.txt").splitlines()):
        if not line.strip() or line.startswith("#"):
            continue
        for entry in (e.strip() for e in line.split(",")):
            if re.fullmatch("[가-힣]+", entry):
                hangul.append((entry, n))
            elif re.fullmatch("[A-Za-z]+", entry) and loanword.key(entry):
                latin.setdefault(loanword.key(entry)[1], set()).add(n)
    return hangul, latin


def _shared_keys_by_length():
    """{consonants of the key: [own, other]}: the lexicon's single Korean words with a key (see
    `loanword.key`) that an English word of the lexicon has, sharing it with an English word
    of their own group, or only with English words of other groups."""
    hangul, latin = _single_words_of_packaged_groups()
    counts = {}
    for word, group in hangul:
        sound = loanword.key(word)
        if sound is None or sound[1] not in latin:
            continue
        counts.setdefault(len(sound[1]), [0, 0])[group not in latin[sound[1]]] += 1
    return counts


def test_on_the_packaged_lexicon_a_shared_key_is_mostly_a_translation():
    """The claim of the module docstring, held: of the lexicon's single Korean words with a
    key of 4 consonants or more, far more share it with an English word of their own group
    than only with an English word of another group; with a key of 3, more do, and that is why
    a key is heard only among a question's candidates."""
    counts = _shared_keys_by_length()
    own, other = (sum(counts[n][i] for n in counts if n >= 4) for i in (0, 1))
    assert own >= 150 and own >= 8 * other, (own, other)
    own3, other3 = counts[3]
    assert own3 >= 150 and own3 > other3 * 1.3, (own3, other3)
    assert min(counts) == loanword.MIN_KEY == 3


LEDGER = [
    {"question": "Show a splash screen while the app starts?",
     "answer": "yes, until the first data loads",
     "rationale": "a blank screen looks broken"},
    {"question": "Which versions of Android do we support?", "answer": "Android 10 and later",
     "rationale": "95% of our users"},
    {"question": "스플래시 화면 최소 표시 시간을 둘까?", "answer": "없음, 로드가 끝나면 바로 닫음",
     "rationale": "기다리게 하지 않는다"},
]


def _write(path, records):
    with path.open("w", encoding="utf-8") as f:
        for i, fields in records:
            record = dict(id=f"d{i}", project="app", decided_at=f"2026-0{i + 1}-01T00:00:00Z",
                          card_ref="c", tags=[], **fields)
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
    return str(path)


@pytest.fixture
def ledger(tmp_path):
    return _write(tmp_path / "ledger.jsonl", enumerate(LEDGER))


def _found(ledger, question):
    return [a["record"]["id"] for a in inject.answers(ledger, "app", question)]


def test_a_korean_loanword_finds_the_decision_written_in_english(ledger):
    """Section "Recall for automatic injection": 스플래시 is the record's "splash"; the same
    question with a word of no such sound (광고, "ad") in its place is not answered."""
    assert "d0" in _found(ledger, "스플래시 화면 넣을까?")
    assert "d0" not in _found(ledger, "광고 화면 넣을까?")


def test_an_english_word_finds_the_decision_written_as_a_korean_loanword(tmp_path):
    """The other way: "splash" is the Korean record's 스플래시 (no record writes "splash",
    nor "banner", the control word, so both weigh the same)."""
    ledger = _write(tmp_path / "ledger.jsonl", list(enumerate(LEDGER))[1:])
    for question, expected in (("Minimum display time for the splash?", ["d2"]),
                               ("Minimum display time for the banner?", [])):
        assert _found(ledger, question) == expected, question


def test_a_loanword_of_three_consonants_finds_its_decision(tmp_path):
    """Section "Recall for automatic injection", step 2, "Loanwords": 로스터 (LST) is the
    record's "roster", a key of 3 consonants; the same question with a word of no such sound
    (광고, "ad") in its place is not answered."""
    ledger = _write(tmp_path / "ledger.jsonl", enumerate([
        {"question": "Show the weekly roster on the home screen?", "answer": "yes, above the news",
         "rationale": "crew open the app for it"},
        {"question": "Which versions of Android do we support?", "answer": "Android 10 and later",
         "rationale": "95% of our users"}]))
    assert _found(ledger, "로스터 홈 화면에 보여줄까?") == ["d0"]
    assert _found(ledger, "광고 홈 화면에 보여줄까?") == []


def test_a_word_the_lexicon_translates_is_not_read_by_its_sound(ledger):
    """배송지 ("shipping address", a lexicon entry) has the key of "versions"; the lexicon's
    reading wins and the Android record is not heard in it."""
    assert loanword.hangul_key("배송지") == loanword.latin_key("versions")
    query = inject.Query("배송지 버전 정할까?", (), None)
    assert all(word != ("배송", "송지") for words in query.sounds.values() for word in words)


def test_an_english_plural_is_heard_as_its_singular_too():
    """Korean borrows the singular (리마인더 "reminder"); a word that ends in s after a vowel
    keeps it (쿠버네티스 "kubernetes")."""
    assert ("latin", loanword.hangul_key("리마인더")) in loanword.sounds("reminders")
    assert ("latin", loanword.hangul_key("태블릿")) in loanword.sounds("tablets")
    assert loanword.sounds("kubernetes") == (("latin", loanword.hangul_key("쿠버네티스")),)
    assert loanword.sounds("리마인더") == (("hangul", "LMNT"),)


def test_a_hangul_word_that_starts_with_rieul_is_borrowed():
    """A Sino-Korean word never starts with ㄹ (리마인더, 로케일, 레이아웃 do)."""
    assert loanword.borrowed("리마인더") and loanword.borrowed("로드맵")
    assert not loanword.borrowed("이력") and not loanword.borrowed("노력")

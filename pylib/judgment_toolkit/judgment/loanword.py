"""Korean loanwords read as the English words they spell (docs/judgment-ledger.md, "Recall for
automatic injection"): 태블릿 is "tablet", 스플래시 "splash", 로케일 "locale". Korean writes most
English words of software in Hangul by sound, by rules regular enough that both spellings come
down to one key: the word's consonants, in classes of the sounds Hangul tells apart, in order,
vowels left out (Korean adds a vowel to every consonant cluster: "s-pl" is 스플).

    key("태블릿") == key("tablet") == "TPLT"      key("스플래시") == key("splash") == "SPLS"

Classes: K (k, c, g, q, ch before r/l; ㄱ ㄲ ㅋ), T (t, d; ㄷ ㄸ ㅌ, and a final ㅅ: tablet's
final t is written 릿), P (p, b, f, v, ph; ㅂ ㅃ ㅍ), S (s, z, j, x's s, sh, th, ch, a soft c
or g, the t of -tion; ㅅ ㅆ ㅈ ㅉ ㅊ), L (l, an r before a vowel; ㄹ: the r of "server" and
"docker" is not written), M, N (n, ng; ㄴ, a final ㅇ), H (h; ㅎ); a class repeated is one.

A key is a weak clue: a Korean word of another meaning shares a key with some English word
often enough (출시 "release" and "cells" are both SLS), so a key is used only for a Hangul
word with a syllable that Sino-Korean words never have (`borrowed`; 출시 has none), only when
it has MIN_KEY consonants or more, and only between a question and the few candidate records
the ranking already found (judgment.inject); a word the lexicon translates is not read this
way. Checked on the packaged lexicon's Korean-English groups, against every English word of
the lexicon: of its single Korean words that `borrowed` keeps and whose key an English word
has, those with a key of 4 consonants or more share it with an English word of their own group
241 + 126 + 54 + 14 + 2 = 437 times and only with one of another group 51 times; with a key of
3 (로스터 "roster", 클립 "clip"), 315 and 223; with 2 (락커 "locker", 케이스 "case" and "keys"),
157 and 110. Among a question's few candidates a chance namesake is rarer than among the
lexicon's 4,000 groups: on the held-out evaluation sets, keys of 3 answered more questions than
they let wrong decisions in, and keys of 2 let more in (docs/judgment-ledger.md, "Recall for
automatic injection", step 2, "Loanwords").
"""
import re

MIN_KEY = 3

_SYLLABLE_FIRST, _SYLLABLES = 0xAC00, 11172
# initial consonant (19) and final consonant (28, the first none) of a syllable, as classes;
# "" for the silent initial ㅇ and the finals that loanwords do not write
_INITIAL = "KKNTTLMPPSSKSSSKTPH"
_INITIAL = tuple("" if i == 11 else c for i, c in enumerate(_INITIAL))  # ㅇ (index 11): silent
_FINAL = ("", "K", "K", "K", "N", "N", "N", "T", "L", "L", "L", "L", "L", "L", "L", "L", "M",
          "P", "P", "T", "T", "N", "T", "T", "K", "T", "P", "")
_LATIN = {"b": "P", "p": "P", "f": "P", "v": "P", "d": "T", "t": "T", "k": "K", "q": "K",
          "s": "S", "z": "S", "j": "S", "l": "L", "m": "M", "n": "N", "h": "H", "x": "KS"}
_VOWELS = frozenset("aeiouy")
_REPEATS = re.compile(r"(.)\1+")


def hangul_key(word):
    """The key of a word of Hangul syllables, or None for any other character."""
    out = []
    for ch in word:
        code = ord(ch) - _SYLLABLE_FIRST
        if not 0 <= code < _SYLLABLES:
            return None
        out.append(_INITIAL[code // 588])
        out.append(_FINAL[code % 28])
    return _REPEATS.sub(r"\1", "".join(out))


def borrowed(word):
    """Whether a word of Hangul syllables holds a syllable that Sino-Korean words (most of the
    Korean words of software talk: 설정, 인증서, 측정) never have, as a loanword does: a ㅡ
    without a final (스, 트, 크: the vowel Hangul adds to a consonant cluster), a final other
    than ㄱ ㄴ ㄹ ㅁ ㅂ ㅇ (릿, 웃, 넷), an initial ㅋ or ㅆ (케, 쿼, 썬), ㅅ ㅈ ㅊ before ㅑ ㅕ ㅛ ㅠ
    ㅒ ㅖ (션, 쇼, 쥬), ㅔ after any initial but ㅅ ㅈ ㅊ (레, 데, 네), a ㄹ that starts the word
    (리마인더, 로케일: a Sino-Korean word never starts with ㄹ), ㅓ after ㅌ or ㅍ (터, 퍼, 턴)
    or, with no final, after ㄴ ㄷ ㄹ ㅁ ㅂ (더, 버), or 티."""
    for at, ch in enumerate(word):
        code = ord(ch) - _SYLLABLE_FIRST
        if not 0 <= code < _SYLLABLES:
            return False
        initial, vowel, final = code // 588, code % 588 // 28, code % 28
        if ((vowel == _EU and not final) or final not in _SINO_FINALS
                or initial == _SSANG_SIOS or (initial == _KIEUK and vowel != _WAE)
                or (initial in _SIBILANTS and vowel in _Y_VOWELS)
                or (vowel == _E and initial not in _SIBILANTS)
                or (at == 0 and initial == _RIEUL)
                or (vowel == _EO and (initial in _ASPIRATED or (not final and initial in _EO_OPEN)))
                or (vowel == _I and initial == _TIEUT)):
            return True
    return False


# syllable parts by index: initials ㄱ ㄲ ㄴ ㄷ ㄸ ㄹ ㅁ ㅂ ㅃ ㅅ ㅆ ㅇ ㅈ ㅉ ㅊ ㅋ ㅌ ㅍ ㅎ; vowels
# ㅏ ㅐ ㅑ ㅒ ㅓ ㅔ ㅕ ㅖ ㅗ ㅘ ㅙ ㅚ ㅛ ㅜ ㅝ ㅞ ㅟ ㅠ ㅡ ㅢ ㅣ; finals (none) ㄱ ㄲ ㄳ ㄴ ...
_EU, _E, _WAE, _EO, _I = 18, 5, 10, 4, 20
_SSANG_SIOS, _KIEUK, _RIEUL, _TIEUT = 10, 15, 5, 16
_ASPIRATED = frozenset((16, 17))  # ㅌ ㅍ: 터, 턴, 퍼, 펌
_EO_OPEN = frozenset((2, 3, 5, 6, 7))  # ㄴ ㄷ ㄹ ㅁ ㅂ before ㅓ with no final: 너, 더, 러, 머, 버
_SIBILANTS = frozenset((9, 12, 14))  # ㅅ ㅈ ㅊ
_Y_VOWELS = frozenset((2, 3, 6, 7, 12, 17))  # ㅑ ㅒ ㅕ ㅖ ㅛ ㅠ
_SINO_FINALS = frozenset((0, 1, 4, 8, 16, 17, 21))  # none ㄱ ㄴ ㄹ ㅁ ㅂ ㅇ


def latin_key(word):
    """The key of a word of ASCII letters (any case), or None for any other character."""
    if not (word.isascii() and word.isalpha()):
        return None
    w = word.lower()
    out = []
    i, n = 0, len(w)
    while i < n:
        c, after = w[i], w[i + 1] if i + 1 < n else ""
        step = 1
        if c in "aeiouwy":
            c = ""
        elif c == "p" and after == "h":
            c, step = "P", 2
        elif c in "st" and after == "h":
            c, step = "S", 2
        elif c == "c" and after == "h":
            c, step = ("K" if w[i + 2:i + 3] in ("r", "l") and i + 2 < n else "S"), 2
        elif c == "c" and after == "k":
            c, step = "K", 2
        elif c == "t" and w[i + 1:i + 3] == "ch":
            c = ""  # batch, switch: 배치, 스위치
        elif c == "t" and after == "i" and w[i + 2:i + 3] in ("a", "o", "u") and i + 2 < n:
            c = "S"  # -tion, -tial
        elif c == "c":
            c = "S" if after in ("e", "i", "y") and after else "K"
        elif c == "g":
            if i + 1 == n and i and w[i - 1] == "n":
                c = ""  # -ng: one sound, a final ㅇ
            else:
                c = "S" if after in ("e", "i", "y") and after and i + 2 < n else "K"
        elif c == "r":
            c = "L" if after in _VOWELS and after else ""
        else:
            c = _LATIN.get(c, "")
        out.append(c)
        i += step
    return _REPEATS.sub(r"\1", "".join(out))


def key(word):
    """("hangul" or "latin", the word's key) when its key has MIN_KEY consonants or more, else
    None. `word` is one folded word as the analysis reads it (a Korean word without its
    particles and endings)."""
    if word.isascii():
        found, script = latin_key(word), "latin"
    else:
        found, script = (hangul_key(word) if borrowed(word) else None), "hangul"
    return (script, found) if found and len(found) >= MIN_KEY else None


def sounds(word):
    """The keys a word may be heard as (see `key`): an English word that ends in an s after a
    consonant also as its singular, the form Korean borrows ("reminders" is 리마인더, but
    "kubernetes" is 쿠버네티스 and "redis" 레디스, so both are kept)."""
    found = key(word)
    out = (found,) if found else ()
    if len(word) > 3 and word.isascii() and word[-1] == "s" and word[-2] not in "aeiousy":
        singular = key(word[:-1])
        if singular and singular != found:
            out += (singular,)
    return out

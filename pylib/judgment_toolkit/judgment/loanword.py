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

A key is a weak clue: a Korean word of another meaning shares a key of 3 consonants with some
English word often enough (출시 "release" and "cells"), so only keys of MIN_KEY consonants or
more are used, and only between a question and the few candidate records the ranking already
found (judgment.inject); a word the lexicon translates is not read this way. Checked on the
lexicon's own Korean-English groups: of its single Korean words with a key of 4 or more, 190
share it with an English word of their own group and 18 with one of another group only.
"""
import re

MIN_KEY = 4

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
        found, script = hangul_key(word), "hangul"
    return (script, found) if found and len(found) >= MIN_KEY else None

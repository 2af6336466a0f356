"""The filters of a view (--target, --keyword) and the event `show` selects, decided during the
pass over the store so that no summary or reason text is kept; a keyword is looked for in the
raw bytes first and a line is parsed only when they cannot tell (`Query.matches_stored`)."""
from __future__ import annotations

import hashlib
import json
import re

from judgment_toolkit.ha.history.errors import corrupt, invalid_input
from judgment_toolkit.ha.history.model import TARGET_RE


class Query:
    """The filters of a view: any of `targets`, all of `keywords` (case-insensitive)."""
    __slots__ = ("targets", "keywords")

    def __init__(self, targets: tuple = (), keywords: tuple = ()):
        self.targets, self.keywords = targets, keywords

    @classmethod
    def of(cls, targets, keywords) -> "Query":
        for t in targets:
            if not TARGET_RE.match(t):
                raise invalid_input(f"--target {t!r} must be an id like AC-1, EX-1 or T001")
        words = []
        for k in keywords:
            if k.strip() == "":
                raise invalid_input("--keyword needs a non-empty word")
            words.append(k.casefold())
        return cls(tuple(sorted(set(targets))), tuple(sorted(set(words))))

    def matches(self, decision) -> bool:
        """Whether a decision (dict) passes the filters."""
        return self._targets_ok(decision) and self._text_ok(decision)

    def matches_stored(self, stored, raw) -> bool:
        """`matches` for one verified stored event and its raw line. A word with no character
        JSON must escape appears verbatim in a line without `\\u` or `\\/` escapes wherever it
        is in the summary or reason, and casefolding is per character, so such a line whose
        casefolded text lacks a word cannot match and is not parsed."""
        if self.targets and not any(t in self.targets for t in stored.targets):
            return False
        if not self.keywords:
            return True
        if self._plain and b"\\u" not in raw and b"\\/" not in raw:
            text = raw.decode("utf-8", "replace").casefold()
            if not all(k in text for k in self.keywords):
                return False
        return self._text_ok(json.loads(raw).get("decision") or {})

    def _targets_ok(self, decision) -> bool:
        if not self.targets:
            return True
        return any(t in self.targets for t in decision.get("targets") or ())

    def _text_ok(self, decision) -> bool:
        if not self.keywords:
            return True
        summary = (decision.get("summary") or "").casefold()
        reason = (decision.get("reason") or "").casefold()
        return all(k in summary or k in reason for k in self.keywords)

    @property
    def _plain(self) -> bool:
        return not any(_ESCAPED.search(k) for k in self.keywords)

    def digest(self, view: str, selector: str | None, since: str | None) -> str:
        """What a page cursor pins besides the range: view, selected event, filters, since."""
        text = json.dumps([view, selector, list(self.targets), list(self.keywords), since],
                          ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]

    def clear_misses(self, store, data: bytes, flags: bytearray, at: int, bit: int) -> None:
        """Clear `bit` (where set) in flags[at + i] for each event i of a chunk of index lines
        whose summary and reason lack a keyword, reading their events lines in blocks. The rule
        of matches_stored decides without parsing; for ASCII and Hangul words (`_bytes_exact`)
        bytes.lower() of the whole block does, unless a line holds a CASEFOLDS_TO_ASCII."""
        lines = data.split(b"\n")
        lines.pop()
        words, plain = self.keywords, self._plain
        ascii_words = [w.encode() for w in words] if plain and all(map(_bytes_exact, words)) \
            else None
        for g in range(0, len(lines), _KEYWORD_GROUP):
            group = lines[g:g + _KEYWORD_GROUP]
            todo = [i for i in range(len(group)) if flags[at + g + i] & bit]
            if not todo:
                continue
            head, tail = group[0].split(b" ", 4), group[-1].split(b" ", 4)
            start = int(head[2])
            block = store.read_block(start, int(tail[2]) + int(tail[3]) + 1 - start)
            raws = block.split(b"\n")
            raws.pop()
            if len(raws) != len(group):
                raise corrupt(f"events.jsonl changed while it was read (lines {at + g + 1}.."
                              f"{at + g + len(group)})")
            lowered = block.lower().split(b"\n") if ascii_words is not None else None
            special = lowered is not None and bool(block.translate(None, _NOT_LEAD))
            for i in todo:
                raw = raws[i]
                if not plain or b"\\u" in raw or b"\\/" in raw:
                    lacks = False                   # escapes: only the parsed text can tell
                elif lowered is not None and not (special and _TO_ASCII.search(raw)):
                    lacks = not all(w in lowered[i] for w in ascii_words)
                else:
                    text = raw.decode("utf-8", "replace").casefold()
                    lacks = not all(w in text for w in words)
                if lacks or not self._text_ok(json.loads(raw).get("decision") or {}):
                    flags[at + g + i] &= ~bit


class Selector:
    """The event `show` reads: by id (`seq`) or by request id; found during the pass. `shown`
    is the id as given (a huge D-number is capped in seq, never in messages)."""
    __slots__ = ("seq", "request_id", "shown")

    def __init__(self, seq: int | None = None, request_id: str | None = None, shown: str = ""):
        self.seq, self.request_id, self.shown = seq, request_id, shown


    @property
    def text(self) -> str:
        return f"D{self.seq}" if self.request_id is None else f"request:{self.request_id}"


_KEYWORD_GROUP = 1024     # events lines read at once (memory: about 1 MB)

# The non-ASCII characters whose casefold holds an ASCII character (ß -> ss, the Kelvin sign ->
# k, ligatures ...). Outside them, an ASCII word occurs in a line's casefolded text exactly
# where it occurs in bytes.lower() of the line (UTF-8 sequences hold no ASCII byte). A test
# recomputes this set from the running Python's Unicode data.
CASEFOLDS_TO_ASCII = ("\u00df\u0130\u0149\u017f\u01f0\u1e96\u1e97\u1e98\u1e99\u1e9a"
                      "\u1e9e\u212a\ufb00\ufb01\ufb02\ufb03\ufb04\ufb05\ufb06")
_TO_ASCII = re.compile(b"|".join(re.escape(c.encode()) for c in CASEFOLDS_TO_ASCII))
# every byte but their first bytes: block.translate(None, _NOT_LEAD) is empty when a block
# cannot hold one of them (a fast test; Hangul and ASCII text never has these bytes)
_NOT_LEAD = bytes(sorted(set(range(256)) - {c.encode()[0] for c in CASEFOLDS_TO_ASCII}))


def _bytes_exact(word: str) -> bool:
    """Whether a casefolded word can be looked for in bytes.lower() of UTF-8 text: it holds
    only ASCII and Hangul syllables (these casefold to themselves and no other character
    casefolds into one; a test checks both against the running Python's Unicode data)."""
    return all(c.isascii() or "\uac00" <= c <= "\ud7a3" for c in word)


# A keyword with a character JSON must escape cannot be looked for in the raw bytes.
_ESCAPED = re.compile(r'["\\\x00-\x1f\x7f\u2028\u2029]')

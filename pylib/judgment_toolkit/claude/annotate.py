"""The past decision where the person reads it (docs/claude-kit.md, "What the person sees").

AskUserQuestion's input, as Claude Code 2.1.332 checks it: 1-4 questions, each with a
`question` and a `header` (strings), 2-4 `options` (a `label`, a `description`, an optional
`preview`) and `multiSelect` (a boolean, false when absent); question texts unique, labels
unique within their question; `answers`, `annotations` and `metadata` may ride along. `shape`
accepts only an input of that shape, and `annotate` changes nothing but descriptions and
question texts, by appending a note that starts with MARK. So what it returns is valid
whenever what it was given is, and equal to it (as JSON) once `strip` has been applied to every
text: the capture hook stores what the person was asked with `strip`.

A note is appended as SEP + MARK + words (SEP only after a non-empty text), and no text that
already holds MARK is ever annotated (such an input is left as it is), so `strip` cutting at
the first MARK, and the one SEP before it, gives back the text exactly.
"""
from __future__ import annotations

import json

# ZERO WIDTH NON-JOINER + "↺ ": unlikely in a model's text. The invisible character is one that
# Claude Code's terminal UI passes through unseen; it shows U+2063, U+200B, U+2060 and U+FEFF
# as "�" (docs/claude-kit.md, "What the person sees in the terminal").
MARK = "\u200c\u21ba "
SEP = {"question": "\n", "description": " "}  # a question's note is a line of its own
NOTE_LIMIT = 160          # characters of one note (a rationale is clipped to fit)
WHY_LIMIT = 90            # characters of the rationale inside a note
ANSWER_LIMIT = 60         # characters of a past answer quoted in a note
OLD_LIMIT, OLD_LEAST = 40, 20  # characters of the answer a decision reversed (the least, when
#                                the note would not fit otherwise)
WHY_LEAST = 20            # characters of a rationale worth showing, clipped to fit a note
MAX_QUESTIONS, OPTIONS = 4, (2, 4)
TEXT_MAX = 10_000         # characters of a question, header, label or description: longer is
#                           no question a person reads, and the recall's time grows with it


def shape(tool_input) -> list | None:
    """The questions of a well-formed AskUserQuestion input (see the module docstring), or None
    for anything else (no questions, five, an option short, a label twice, MARK in a text, a
    text over TEXT_MAX...)."""
    if not isinstance(tool_input, dict):
        return None
    items = tool_input.get("questions")
    if not isinstance(items, list) or not 1 <= len(items) <= MAX_QUESTIONS:
        return None
    for q in items:
        if not (isinstance(q, dict) and _text(q.get("question")) and q["question"].strip()
                and _text(q.get("header")) and isinstance(q.get("multiSelect", False), bool)):
            return None
        options = q.get("options")
        if not isinstance(options, list) or not OPTIONS[0] <= len(options) <= OPTIONS[1]:
            return None
        for o in options:
            if not (isinstance(o, dict) and _text(o.get("label")) and _text(o.get("description", ""))):
                return None
        if len({o["label"] for o in options}) != len(options):
            return None
    if len({q["question"] for q in items}) != len(items) or MARK in _texts(items):
        return None
    return items


def _text(value) -> bool:
    return isinstance(value, str) and len(value) <= TEXT_MAX


def _texts(items) -> str:
    return "\n".join([q["question"] for q in items]
                     + [o.get("description", "") for q in items for o in q["options"]])


def clip(text, limit) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def day(rec) -> str:
    return str(rec.get("decided_at", ""))[:10]


def chosen_labels(answer: str, labels: list) -> list:
    """The labels a past answer names: the answer itself, else its comma-separated parts (a
    multi-select answer), compared without case and outer spaces."""
    folded = {l.strip().casefold(): l for l in labels}
    whole = folded.get(answer.strip().casefold())
    if whole is not None:
        return [whole]
    parts = [folded.get(p.strip().casefold()) for p in answer.split(",") if p.strip()]
    return parts if parts and all(parts) else []


# The words of a note, in the language of the question it goes with (`language`): a person
# who is asked in Korean reads the past decision in Korean too. {day}: the decision's date,
# {answer}: its answer (clipped), {why}: ": " and its rationale (clipped), or nothing; "was",
# added after the rest for a decision that reversed another: {old}, the answer it reversed
# (clipped), held until {until}, the decision's date.
NOTES = {
    "en": {"chosen": "Chosen on {day}{why}",
           "chosen_as": "Chosen on {day} as \"{answer}\"{why}",
           "last_time": "Last time ({day}) the answer was \"{answer}\"{why}",
           "was": " (was {old} until {until})"},
    "ko": {"chosen": "{day}에 고른 답{why}",
           "chosen_as": "{day}에 고른 답 \"{answer}\"{why}",
           "last_time": "지난번({day}) 답 \"{answer}\"{why}",
           "was": " ({until} 전까지는 \"{old}\")"},
}


def language(text: str) -> str:
    """The language a note to `text` is written in: "ko" when it has more words with Hangul
    than English function words (the ranking's stopwords: "do", "we", "the", "or", ...), the
    words that carry an English sentence where Korean has its endings: "Bun, Deno 지원해?",
    "SWD 완전 잠금(RDP level 2)으로 바꿀까?" are Korean, "Do we send 카카오 알림톡 reminders?" and
    "Which 주휴수당 rule applies?" English; else "en"."""
    from judgment_toolkit.judgment.analysis import STOPWORDS, holds_hangul  # the recall's
    korean = english = 0
    for word in text.split():
        if holds_hangul(word):
            korean += 1
        elif word.strip("\"'()[]{},.:;!?").casefold() in STOPWORDS:
            english += 1
    return "ko" if korean > english else "en"


def note(answer: dict, on_option: bool, worded: bool = False, lang: str = "en") -> str:
    """The note of a past decision: on the option chosen then, or under the question, in
    `lang` (NOTES). `worded`: the option is the answer in other words (option_of), so the note
    quotes the answer. Within NOTE_LIMIT, what it reversed keeps its date: the answer it
    reversed is clipped shorter first, then the rationale (left out below WHY_LEAST)."""
    rec = answer["record"]
    words = NOTES[lang]
    kind = ("chosen_as" if worded else "chosen") if on_option else "last_time"
    head = {"day": day(rec), "answer": clip(rec["answer"], ANSWER_LIMIT)}
    why = rec.get("rationale") if isinstance(rec.get("rationale"), str) else ""
    why = " ".join(why.split())
    earlier = answer.get("earlier") or []  # what this decision reversed, until its own date
    was = ""
    for limit in (OLD_LIMIT, OLD_LEAST):
        if earlier:
            was = words["was"].format(old=clip(earlier[0]["answer"], limit), until=day(rec))
        fixed = len(words[kind].format(why="", **head)) + len(was)
        if fixed + 2 + min(len(why), WHY_LIMIT) <= NOTE_LIMIT:  # the words, MARK aside
            break
    left = min(WHY_LIMIT, NOTE_LIMIT - fixed - 2)
    said = ": " + clip(why, left) if why and left >= min(len(why), WHY_LEAST) else ""
    return MARK + clip(words[kind].format(why=said, **head) + was, NOTE_LIMIT)


def append(text: str, field: str, words: str) -> str:
    return text + (SEP[field] if text else "") + words


def strip(text):
    """The text without the note `annotate` appended (unchanged when it holds none)."""
    if not isinstance(text, str):
        return text
    cut = text.find(MARK)
    if cut < 0:
        return text
    head = text[:cut]
    for sep in SEP.values():
        if head.endswith(sep):
            return head[:-len(sep)]
    return head


def annotate(tool_input: dict, found: list, option_of=None) -> dict | None:
    """A copy of `tool_input` with each question's past decision added (found[i]: the answers
    for question i, best first; the first is shown, and the first of each other part of a
    question that asks several: judgment.inject's Answer "part"), or None when nothing is
    added. A note goes on the option the past answer is (chosen_labels), else on the one label
    `option_of(answer, labels)` returns (the hook's: judgment.inject.option_of, "SQS" for
    "Amazon SQS"), else on the one option whose words it names (the Answer's "option"), else
    under the question (placed)."""
    items = shape(tool_input)
    if items is None or not any(found):
        return None
    updated = json.loads(json.dumps(tool_input))  # a deep copy of JSON data
    for q, answers in zip(updated["questions"], found):
        for best in shown(answers):
            _add(q, best, option_of)
    return updated


def shown(answers) -> list:
    """The answers of one question the person is shown: the first, and the first of each
    other part ("part" of judgment.inject's Answer; none given is one part)."""
    out, parts = [], set()
    for answer in answers:
        if answer.get("part") not in parts:
            out.append(answer)
            parts.add(answer.get("part"))
    return out


def placed(best, labels, option_of=None):
    """(the labels a past decision's note goes on, whether the option is its answer in other
    words): the option its answer is (chosen_labels), else the one label `option_of` returns,
    else the one option whose words the answer names ("option" of judgment.inject's Answer,
    "WireMock stubs of its API on staging" for "No, WireMock stubs"); ([], False): under the
    question."""
    hits = chosen_labels(best["record"]["answer"], labels)
    if hits:
        return hits, False
    if option_of is not None:
        hits = [label for label in option_of(best["record"]["answer"], labels) if label in labels]
    if not hits and best.get("option") in labels:
        hits = [best["option"]]
    return hits[:1], bool(hits)


def _add(q, best, option_of):
    """One past decision's note, added to question q (a copy): see annotate."""
    hits, worded = placed(best, [o["label"] for o in q["options"]], option_of)
    lang = language(q["question"])
    if hits:
        for o in q["options"]:
            if o["label"] in hits:
                o["description"] = append(o.get("description", ""), "description",
                                          note(best, True, worded, lang))
    else:
        q["question"] = append(q["question"], "question", note(best, False, lang=lang))


def strip_input(tool_input):
    """What the person was asked, from the input the rest of the session sees: every question
    text and description stripped, and the `answers` / `annotations` keys (question texts) too."""
    if not isinstance(tool_input, dict):
        return tool_input
    clean = json.loads(json.dumps(tool_input))
    for q in clean.get("questions") or []:
        if isinstance(q, dict):
            q["question"] = strip(q.get("question"))
            for o in q.get("options") or []:
                if isinstance(o, dict) and "description" in o:
                    o["description"] = strip(o["description"])
    for field in ("answers", "annotations"):
        if isinstance(clean.get(field), dict):
            clean[field] = {strip(k): v for k, v in clean[field].items()}
    return clean

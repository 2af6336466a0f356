"""The recall's rewrite of AskUserQuestion's input (docs/claude-kit.md, "What the person sees"):
valid by construction for every question shape, equal as JSON to what Claude asked once the
notes are stripped, and stripped exactly.

ASK_SCHEMA is AskUserQuestion's input schema as Claude Code 2.1.332 checks it (its zod schema
in the client, and sdk-tools.d.ts of @anthropic-ai/claude-code 2.1.332): 1-4 questions; each a
question and a header (strings), 2-4 options (label, description, optional preview) and
multiSelect (a boolean, false when absent); answers, annotations and metadata may come along.
The schema has no length limits. Its refinement (question texts unique, labels unique within a
question) is `unique` below. Claude Code refuses an updatedInput that fails it, and then the
person is never asked."""
import json
import random

import jsonschema
import pytest

from judgment_toolkit.claude import annotate

OPTION = {"type": "object", "required": ["label", "description"],
          "properties": {"label": {"type": "string"}, "description": {"type": "string"},
                         "preview": {"type": "string"}}}
QUESTION = {"type": "object", "required": ["question", "header", "options"],
            "properties": {"question": {"type": "string"}, "header": {"type": "string"},
                           "options": {"type": "array", "minItems": 2, "maxItems": 4, "items": OPTION},
                           "multiSelect": {"type": "boolean"}}}
ASK_SCHEMA = {"type": "object", "required": ["questions"],
              "properties": {"questions": {"type": "array", "minItems": 1, "maxItems": 4, "items": QUESTION},
                             "answers": {"type": "object", "additionalProperties": {"type": "string"}},
                             "annotations": {"type": "object"}, "metadata": {"type": "object"}}}
TEXTS = ["Redis", "Postgres", "데이터베이스는 무엇으로 할까요?", "🙂 emoji", "e\u0301 combining",
         "עברית", "a,b", " spaced ", "x" * 3000, "", "line\nbreak", "\"quoted\" \\ back"]


def unique(doc):
    texts = [q["question"] for q in doc["questions"]]
    return len(set(texts)) == len(texts) and all(
        len({o["label"] for o in q["options"]}) == len(q["options"]) for q in doc["questions"])


def valid(doc):
    jsonschema.validate(doc, ASK_SCHEMA)
    assert unique(doc)


def text(rng, short=False):
    base = rng.choice(TEXTS)
    return base[:12] if short else base + rng.choice(["", " ", "?", str(rng.randint(0, 99))])


def generated(rng):
    """A valid AskUserQuestion input of a random shape."""
    questions = []
    for n in range(rng.randint(1, 4)):
        labels = list(dict.fromkeys(f"{text(rng, True)}{i}" for i in range(rng.randint(2, 4))))
        q = {"question": f"{text(rng)} #{n}?", "header": text(rng, True),
             "options": [{"label": label, "description": text(rng)} for label in labels]}
        if rng.random() < 0.7:
            q["multiSelect"] = rng.random() < 0.5
        if rng.random() < 0.2:
            q["options"][0]["preview"] = "```\ncode\n```"
        questions.append(q)
    doc = {"questions": questions}
    if rng.random() < 0.2:
        doc["metadata"] = {"source": "remember"}
    return doc


def past(rng, q, n):
    """A recalled answer for question q: its option's label (any case), several labels, or an
    answer no option matches; with a long rationale or none, reversed or not."""
    labels = [o["label"] for o in q["options"]]
    answer = rng.choice([rng.choice(labels).upper(), ", ".join(labels[:2]), "something else",
                         rng.choice(labels)])
    rec = {"id": f"id-{n}", "project": "p", "decided_at": "2026-07-03T10:00:00Z",
           "question": text(rng), "answer": answer,
           "rationale": rng.choice(["", "one less service to run", "y" * 2000, "줄 바꿈\n있음"])}
    earlier = [dict(rec, id=f"old-{n}", answer="Redis", decided_at="2026-01-02T00:00:00Z")] \
        if rng.random() < 0.3 else []
    return {"record": rec, "earlier": earlier}


def recalled(rng, q, n):
    """The answers recalled for question q: none, one, or (a question that asks several) one
    for each of two parts, with another answer of the first part that is not shown."""
    roll = rng.random()
    if roll < 0.3:
        return []
    if roll < 0.8:
        return [past(rng, q, n)]
    return [dict(past(rng, q, n), part=1), dict(past(rng, q, n), part=1), dict(past(rng, q, n), part=2)]


def test_generated_inputs_stay_valid_and_strip_back_to_what_was_asked():
    rng = random.Random(27)
    for n in range(600):
        asked = generated(rng)
        valid(asked)
        found = [recalled(rng, q, n) for q in asked["questions"]]
        updated = annotate.annotate(asked, found)
        if not any(found):
            assert updated is None
            continue
        valid(updated)
        assert json.loads(json.dumps(updated)) == updated
        assert annotate.strip_input(updated) == asked  # equal as JSON: nothing else moved
        for q, was, answers in zip(updated["questions"], asked["questions"], found):
            assert (q["header"], q.get("multiSelect"), [o["label"] for o in q["options"]]) == \
                (was["header"], was.get("multiSelect"), [o["label"] for o in was["options"]])
            texts = [q["question"]] + [o["description"] for o in q["options"]]
            labels = [o["label"] for o in q["options"]]
            hits = [annotate.chosen_labels(a["record"]["answer"], labels)
                    for a in annotate.shown(answers)]
            assert len(hits) == len({a.get("part") for a in answers})
            assert sum(t.count(annotate.MARK) for t in texts) == sum(len(h) or 1 for h in hits)
            assert q["question"].count(annotate.MARK) == sum(not h for h in hits)
            for t in texts:
                for piece in t.split(annotate.MARK)[1:]:
                    assert len(annotate.MARK + piece.rstrip(" \n")) <= len(annotate.MARK) + annotate.NOTE_LIMIT


@pytest.mark.parametrize("question, chosen, worded, reversed_, under", [
    ("Redis or Postgres for the queue?", "Chosen on 2026-07-03", 'Chosen on 2026-07-03 as "{}"',
     " (was Redis until 2026-07-03)", 'Last time (2026-07-03) the answer was "SQS"'),
    # asked in Korean (docs/claude-kit.md, "What the person sees": the note is in the question's
    # language, whatever the decision's)
    ("잡 큐는 레디스로 할까 포스트그레스로 할까?", "2026-07-03에 고른 답", '2026-07-03에 고른 답 "{}"',
     ' (2026-07-03 전까지는 "Redis")', '지난번(2026-07-03) 답 "SQS"')])
def test_the_note_goes_on_the_option_chosen_then_else_under_the_question(question, chosen, worded,
                                                                         reversed_, under):
    asked = {"questions": [{"question": question, "header": "Queue", "multiSelect": False,
                            "options": [{"label": "Redis", "description": "fast"},
                                        {"label": "Postgres", "description": "no new service"}]}]}
    rec = {"id": "a", "decided_at": "2026-07-03T10:00:00Z", "answer": "postgres",
           "rationale": "one less service to run", "question": "q"}
    old = dict(rec, id="b", answer="Redis", decided_at="2026-01-02T00:00:00Z")
    why = ": one less service to run"
    updated = annotate.annotate(asked, [[{"record": rec, "earlier": [old]}]])
    assert updated["questions"][0]["options"][1]["description"] == (
        "no new service " + annotate.MARK + chosen + why + reversed_)
    assert updated["questions"][0]["options"][0] == asked["questions"][0]["options"][0]
    other_words = annotate.annotate(asked, [[{"record": dict(rec, answer="Postgres로 전환"),
                                              "earlier": []}]], lambda answer, labels: ["Postgres"])
    assert other_words["questions"][0]["options"][1]["description"] == (
        "no new service " + annotate.MARK + worded.format("Postgres로 전환") + why)
    no_option = annotate.annotate(asked, [[{"record": dict(rec, answer="SQS"), "earlier": []}]])
    assert no_option["questions"][0]["question"] == question + "\n" + annotate.MARK + under + why
    for changed in (updated, other_words, no_option):
        assert annotate.strip_input(changed) == asked


@pytest.mark.parametrize("text, lang", [
    ("잡 큐는 레디스로 할까?", "ko"), ("Redis 클러스터 모드 켜?", "ko"),
    ("SWD 완전 잠금(RDP level 2)으로 바꿀까?", "ko"), ("EMR 연동은 어떤 방식으로 해?", "ko"),
    ("Which 주휴수당 rule applies to part-timers?", "en"), ("Do we send 카카오 알림톡 reminders?", "en"),
    ("Bun, Deno 지원해?", "ko"), ("avro vs proto 뭐로 감", "ko"), ("Kafka or Kinesis 중 뭐로?", "ko"),
    ("Should subscriptions accept 네이버페이 or 카카오페이, not just cards?", "en"),
    ("Redis or Postgres?", "en"), ("0.8?", "en"), ("עברית", "en")])
def test_a_note_is_korean_when_the_words_with_hangul_outnumber_english_function_words(text, lang):
    assert annotate.language(text) == lang


def test_a_note_over_its_limit_keeps_the_date_of_what_it_reversed():
    """The answer reversed is clipped shorter first, then the rationale: the note never ends
    in a date cut short ("until 2026…")."""
    rec = {"id": "a", "decided_at": "2026-06-24T10:00:00Z", "question": "q",
           "answer": "Yes, one at a time again, but with 10 minutes to accept the slot offered",
           "rationale": "동시 발송 후 확정 취소율이 40%까지 올라가서 창구 업무가 늘었음 " * 3}
    old = dict(rec, answer="To the first person in line, who has 30 minutes to accept it")
    for lang in annotate.NOTES:
        for on_option, worded in ((True, False), (True, True), (False, False)):
            text = annotate.note({"record": rec, "earlier": [old]}, on_option, worded, lang)
            words = text[len(annotate.MARK):]
            assert len(words) <= annotate.NOTE_LIMIT
            assert words.endswith("until 2026-06-24)") if lang == "en" else (
                '(2026-06-24 전까지는 "To the first' in words and words.endswith('")')), words
            assert "To the first" in words
    long_why = annotate.note({"record": rec, "earlier": []}, True, False)
    assert long_why.endswith("…") and len(long_why) - len(annotate.MARK) <= annotate.NOTE_LIMIT


def test_the_first_decision_of_each_part_is_shown():
    """docs/claude-kit.md, "What the person sees": the first answer, then the first of each
    other part of a question that asks several (judgment.inject's Answer "part")."""
    def a(name, **part):
        return dict({"record": {"id": name}, "earlier": []}, **part)
    ids = lambda answers: [x["record"]["id"] for x in annotate.shown(answers)]  # noqa: E731
    assert ids([a("x"), a("y")]) == ["x"]  # no part given: one question
    assert ids([a("x", part=0), a("y", part=0), a("z", part=0)]) == ["x"]
    assert ids([a("x", part=2), a("y", part=2), a("z", part=1)]) == ["x", "z"]
    assert ids([a("x", part=0), a("y", part=1)]) == ["x", "y"]
    assert ids([]) == []


@pytest.mark.parametrize("original", ["", " ", "x", "x ", "x\n", "\n", "a \u21ba b", "한국어 설명"])
@pytest.mark.parametrize("field", ["question", "description"])
def test_strip_gives_back_the_text_exactly(original, field):
    words = annotate.MARK + "Chosen on 2026-07-03"
    assert annotate.strip(annotate.append(original, field, words)) == original
    assert annotate.strip(original) == original


@pytest.mark.parametrize("bad", [
    None, [], {}, {"questions": []}, {"questions": "x"},
    {"questions": [{"question": f"q{i}?", "header": "h", "options": [{"label": "a", "description": ""},
                                                                     {"label": "b", "description": ""}]}
                   for i in range(5)]},
    {"questions": [{"question": "q?", "header": "h", "options": [{"label": "a", "description": ""}]}]},
    {"questions": [{"question": "q?", "header": "h", "options": [{"label": "a", "description": ""},
                                                                 {"label": "a", "description": ""}]}]},
    {"questions": [{"question": "q?", "header": "h", "multiSelect": "yes",
                    "options": [{"label": "a", "description": ""}, {"label": "b", "description": ""}]}]},
    {"questions": [{"question": "q?", "header": "h",
                    "options": [{"label": "a", "description": "x" * (annotate.TEXT_MAX + 1)},
                                {"label": "b", "description": ""}]}]},
    {"questions": [{"question": "q?" + annotate.MARK, "header": "h",
                    "options": [{"label": "a", "description": ""}, {"label": "b", "description": ""}]}]},
])
def test_an_input_not_of_the_tools_shape_is_never_rewritten(bad):
    assert annotate.shape(bad) is None
    rec = {"id": "a", "decided_at": "2026-07-03T10:00:00Z", "answer": "a", "question": "q"}
    assert annotate.annotate(bad, [[{"record": rec, "earlier": []}]] * 5) is None


def test_capture_strips_the_answers_keys_too():
    asked = {"questions": [{"question": "Which?", "header": "h", "multiSelect": False,
                            "options": [{"label": "a", "description": "d"}, {"label": "b", "description": ""}]}]}
    rec = {"id": "a", "decided_at": "2026-07-03T10:00:00Z", "answer": "zzz", "question": "q"}
    shown = annotate.annotate(asked, [[{"record": rec, "earlier": []}]])
    seen = dict(shown, answers={shown["questions"][0]["question"]: "a"})
    assert annotate.strip_input(seen) == dict(asked, answers={"Which?": "a"})


def test_claude_gets_one_line_per_past_decision_with_its_mem_id_and_what_it_reversed():
    from judgment_toolkit.claude.hooks import CONTEXT_LIMIT, recall_context
    rec = {"id": "new", "decided_at": "2026-07-03T10:00:00Z", "answer": "Postgres",
           "rationale": "one less service to run", "question": "Use Redis or Postgres for the queue?"}
    old = dict(rec, id="old", answer="Redis", decided_at="2026-01-02T00:00:00Z")
    asked = [{"question": "Which queue?"}, {"question": "Which cache?"}]
    found = [[{"record": rec, "earlier": [old]}], [{"record": rec, "earlier": []}]]
    lines = recall_context("shop", asked, found).split("\n")
    assert len(lines) == 2  # the head, then one line: the same decision is named once
    assert lines[1] == ('- For "Which queue?": on 2026-07-03T10:00:00Z the person chose "Postgres" '
                        'because one less service to run (asked: "Use Redis or Postgres for the queue?"; '
                        'mem_id judgment-ledger:new); this reversed "Redis" of 2026-01-02 '
                        '(mem_id judgment-ledger:old)')
    many = [[{"record": dict(rec, id=f"r{i}", rationale="x" * 400), "earlier": []} for i in range(40)]]
    assert len(recall_context("shop", asked[:1], many).encode()) <= CONTEXT_LIMIT
    assert recall_context("shop", asked, [[], []]) == ""


def test_the_note_goes_on_the_one_option_the_answer_is_in_other_words():
    """docs/claude-kit.md, "What the person sees": a past answer that is no label as written
    ("5회, 24시간 안에 끝나게" for "5x / 24h") is put on the option judgment.inject.option_of
    finds, quoted, since the label is not its words; without it, or where it finds none, under
    the question. An answer that is the label itself is not quoted."""
    from judgment_toolkit.judgment import inject
    asked = {"questions": [{"question": "webhook retry policy: how many tries, over how long?",
                            "header": "Retries", "multiSelect": False,
                            "options": [{"label": l, "description": d} for l, d in
                                        [("8x / 3 days", "patient"), ("5x / 24h", "lighter"),
                                         ("3x / 1h", "fast")]]}]}
    rec = {"id": "a", "decided_at": "2026-07-07T10:00:00Z", "answer": "5회, 24시간 안에 끝나게",
           "rationale": "merchants' servers complained", "question": "웹훅 재시도 횟수 줄일까요?"}
    updated = annotate.annotate(asked, [[{"record": rec, "earlier": []}]], inject.option_of)
    options = updated["questions"][0]["options"]
    assert options[1]["description"] == ("lighter " + annotate.MARK + "Chosen on 2026-07-07 as"
                                         " \"5회, 24시간 안에 끝나게\": merchants' servers complained")
    assert [options[0], options[2]] == [asked["questions"][0]["options"][i] for i in (0, 2)]
    assert updated["questions"][0]["question"] == asked["questions"][0]["question"]
    assert annotate.strip_input(updated) == asked
    plain = annotate.annotate(asked, [[{"record": rec, "earlier": []}]])
    assert annotate.MARK in plain["questions"][0]["question"]
    same = annotate.annotate(asked, [[{"record": dict(rec, answer="5x / 24h"), "earlier": []}]],
                             inject.option_of)
    assert same["questions"][0]["options"][1]["description"] == (
        "lighter " + annotate.MARK + "Chosen on 2026-07-07: merchants' servers complained")
    # a label the function names that is not offered, or several: the first offered, else none
    for names, on in [(["nope"], None), (["3x / 1h", "8x / 3 days"], 2), ([], None)]:
        got = annotate.annotate(asked, [[{"record": rec, "earlier": []}]], lambda a, l: names)
        marked = [i for i, o in enumerate(got["questions"][0]["options"]) if annotate.MARK in o["description"]]
        assert marked == ([] if on is None else [on])
        assert (annotate.MARK in got["questions"][0]["question"]) == (on is None)


def test_the_note_goes_on_the_option_whose_words_the_answer_names():
    """docs/claude-kit.md, "What the person sees": where the answer is no label and option_of
    finds none ("WireMock stubs of its API on staging" has words no label holds), the note goes
    on the option judgment.inject found the answer names the words of ("option" of its Answer),
    quoted; an "option" that is no label offered puts it under the question."""
    from judgment_toolkit.judgment import inject
    asked = {"questions": [{"question": "Should the refund E2E call the real sandbox?",
                            "header": "Refund test", "multiSelect": False,
                            "options": [{"label": "No, WireMock stubs", "description": "offline"},
                                        {"label": "Yes, Toss sandbox", "description": "real"}]}]}
    rec = {"id": "a", "decided_at": "2026-07-07T10:00:00Z", "rationale": "",
           "answer": "WireMock stubs of its API on staging", "question": "How do E2E tests pay?"}
    labels = ["No, WireMock stubs", "Yes, Toss sandbox"]
    assert annotate.chosen_labels(rec["answer"], labels) == inject.option_of(rec["answer"], labels) == []
    best = {"record": rec, "earlier": [], "option": "No, WireMock stubs"}
    assert annotate.placed(best, labels, inject.option_of) == (["No, WireMock stubs"], True)
    updated = annotate.annotate(asked, [[best]], inject.option_of)
    options = updated["questions"][0]["options"]
    assert options[0]["description"] == (
        "offline " + annotate.MARK + "Chosen on 2026-07-07 as \"WireMock stubs of its API on staging\"")
    assert options[1] == asked["questions"][0]["options"][1]
    assert annotate.strip_input(updated) == asked
    for other in ({"option": "Not offered"}, {}):
        best = {"record": rec, "earlier": [], **other}
        assert annotate.placed(best, labels, inject.option_of) == ([], False)
        under = annotate.annotate(asked, [[best]], inject.option_of)
        assert annotate.MARK in under["questions"][0]["question"]


def test_generated_inputs_with_option_of_stay_valid_with_one_note_a_question():
    """The rewrite with judgment.inject.option_of is valid by construction as well: every
    generated shape stays valid, strips back to what was asked, and carries one note for each
    question answered (on one option or under the question), none for the others."""
    from judgment_toolkit.judgment import inject
    rng = random.Random(2027)
    for n in range(300):
        asked = generated(rng)
        found = [[past(rng, q, n)] if rng.random() < 0.7 else [] for q in asked["questions"]]
        for answers, q in zip(found, asked["questions"]):
            if answers and rng.random() < 0.5:  # an answer in other words than its label
                answers[0]["record"]["answer"] = f"move to {rng.choice(q['options'])['label']}"
            if answers and rng.random() < 0.3:  # the option whose words it names, or none offered
                answers[0]["option"] = rng.choice([o["label"] for o in q["options"]] + ["absent"])
        updated = annotate.annotate(asked, found, inject.option_of)
        if not any(found):
            assert updated is None
            continue
        valid(updated)
        assert annotate.strip_input(updated) == asked
        for q, answers in zip(updated["questions"], found):
            texts = [q["question"]] + [o["description"] for o in q["options"]]
            notes = sum(annotate.MARK in t for t in texts)
            multi = answers and "," in answers[0]["record"]["answer"] and annotate.chosen_labels(
                answers[0]["record"]["answer"], [o["label"] for o in q["options"]])
            assert notes == (len(multi) if multi else 1 if answers else 0)

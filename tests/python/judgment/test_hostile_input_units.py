"""The modules behind the hostile-input rules (docs/judgment-ledger.md, "The record" and "What a
person reads"): the one strict JSON reader, the one escaping of text for a person, and a
record's identity (project, id) in the --id look-up and in verify."""
import json
import os

import pytest

from judgment_toolkit import jsonutil, output
from judgment_toolkit.ha.history import strictjson
from judgment_toolkit.ha.history.errors import HistoryError
from judgment_toolkit.judgment import appending, browse, prime, verify, writer


def test_loads_strict_names_a_repeated_key_at_any_depth():
    for text, key in (('{"a":1,"a":2}', "a"), ('{"x":[{"b":1,"b":1}]}', "b")):
        with pytest.raises(jsonutil.RepeatedKey) as exc:
            jsonutil.loads_strict(text)
        assert exc.value.args[0] == key
    for text in ('{"a":NaN}', '[Infinity]', '{"a":-Infinity}'):
        with pytest.raises(ValueError):
            jsonutil.loads_strict(text)
    assert jsonutil.loads_strict('{"a":{"a":1}}') == {"a": {"a": 1}}  # one per object


def test_append_verify_and_history_refuse_the_same_repeated_key():
    raw = b'{"project":"p","project":"q","question":"q?","answer":"a","card_ref":"c"}'
    assert list(appending.fields_from_json(raw).values()) == [
        "--input: the key 'project' is given twice; give each field once"]
    assert verify.check_line(raw, True, verify._valid()) == "repeats the key 'project'"
    with pytest.raises(HistoryError) as exc:
        strictjson.parse_input(raw)
    assert "duplicate key 'project'" in str(exc.value)


@pytest.mark.parametrize("text,shown", [
    ("plain", "plain"), ("a\r\x1b[31mred", '"a\\r\\u001b[31mred"'),
    ("bell\x07", '"bell\\u0007"'), ("c1\x9b31m", '"c1\\u009b31m"'),
    ("sep\u2028x", '"sep\\u2028x"'), ("한국어", "한국어"), (None, "none"),
])
def test_safe_quotes_a_text_with_a_control_character(text, shown):
    assert output.safe(text) == shown


def test_one_line_joins_white_space_then_quotes_what_is_left():
    assert prime.one_line("a\n\tb") == "a b"
    assert prime.one_line("a\r\x1b[31mred") == '"a \\u001b[31mred"'
    assert prime.one_line("x" * 200, 10) == "xxxxxxxxx…"


def test_show_details_escape_each_line_and_keep_the_rest():
    rec = {"id": "i", "project": "p", "decided_at": "2026-01-01T00:00:00Z", "question": "q",
           "answer": "a\x1b[1m", "rationale": "one\ntwo\x07", "card_ref": "c", "tags": ["t"]}
    text = browse.details(rec)
    assert "answer: \"a\\u001b[1m\"\n" in text and "rationale: one\n  \"two\\u0007\"\n" in text
    assert not any(ch in text for ch in "\x1b\x07\r")


def _ledger(tmp_path, *records):
    path = tmp_path / "l.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _rec(project, rec_id, answer="a"):
    return {"id": rec_id, "project": project, "decided_at": "2026-01-01T00:00:00Z",
            "question": "q", "answer": answer, "rationale": "", "card_ref": "c", "tags": []}


def test_find_id_sees_only_the_asking_projects_record(tmp_path):
    path = _ledger(tmp_path, _rec("secret", "shared"), _rec("other", "shared", "b"))
    fd = os.open(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        assert writer.find_id(fd, size, "shared", "secret")["answer"] == "a"
        assert writer.find_id(fd, size, "shared", "other")["answer"] == "b"
        assert writer.find_id(fd, size, "shared", "third") is None
    finally:
        os.close(fd)


def test_verify_names_a_repeated_id_within_a_project_only(tmp_path):
    """A record's identity is (project, id): the same id in two projects is two records; the
    same record again in one project is a repeat (counted once); the same id in one project
    with another content is damage, both lines named (docs/judgment-ledger.md, "verify")."""
    report = verify.verify(str(_ledger(tmp_path, _rec("a", "x"), _rec("b", "x"), _rec("a", "x"))))
    assert (report.records, report.repeats, report.bad) == (2, 1, [])
    (tmp_path / "second").mkdir()
    report = verify.verify(str(_ledger(tmp_path / "second", _rec("a", "x"), _rec("b", "x"),
                                       _rec("a", "x", "c"))))
    assert report.records == 2
    assert report.bad == [
        (1, "id 'x' is on a later line too (line 3) with different content; readers use this line"),
        (3, "id 'x' is already on line 1 with different content (readers use line 1)")]

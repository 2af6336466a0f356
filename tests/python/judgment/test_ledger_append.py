"""judgment-ledger.sh append: the record line, its defaults, and every way to be rejected."""
import json
import os
import re
import subprocess
import uuid

import pytest

from ledger_helpers import LEDGER_SH, append_args, hermetic_env, ledger, lines, records

from judgment_toolkit.judgment import record, schema


@pytest.fixture
def env(tmp_path):
    return hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path / "state" / "ledger.jsonl")


def path(env):
    return env["HARNESS_JUDGMENT_LEDGER"]


def test_writes_one_compact_line_with_schema_fields_in_schema_order(env):
    r = ledger(*append_args(question="Café or thé? 日本語", rationale="faster",
                            tags="infra, queue,,  ,db", id="rec-1"), env=env)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    [raw] = lines(path(env))
    rec = json.loads(raw)
    assert list(rec) == list(schema.load(schema.LEDGER)["properties"])
    assert list(rec) == ["id", "project", "decided_at", "question", "answer", "rationale",
                         "card_ref", "tags"]
    assert rec == {"id": "rec-1", "project": "demo", "decided_at": rec["decided_at"],
                   "question": "Café or thé? 日本語", "answer": "postgres", "rationale": "faster",
                   "card_ref": "cards/q.json", "tags": ["infra", "queue", "db"]}
    # compact, UTF-8 unescaped: exactly what json.dumps with these options produces
    assert raw == json.dumps(rec, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    assert "日本語".encode("utf-8") in raw and b"\\u" not in raw and b", " not in raw


def test_defaults_uuid_utc_now_empty_rationale_and_tags(env):
    assert ledger(*append_args(), env=env).returncode == 0
    [rec] = records(path(env))
    assert str(uuid.UUID(rec["id"])) == rec["id"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", rec["decided_at"])
    assert rec["rationale"] == "" and rec["tags"] == []


def test_ids_are_fresh_per_append(env):
    for _ in range(2):
        assert ledger(*append_args(), env=env).returncode == 0
    a, b = records(path(env))
    assert a["id"] != b["id"]


def test_equals_form_and_values_that_look_like_flags(env):
    r = ledger("append", "--project=demo", "--question", "--answer?", "--answer", "a",
               "--card-ref=c", env=env)
    assert r.returncode == 0, r.stderr
    [rec] = records(path(env))
    assert rec["question"] == "--answer?" and rec["card_ref"] == "c"


def test_newlines_and_quotes_stay_inside_one_line(env):
    assert ledger(*append_args(question='line1\nline2 "quoted" \\ tab\t'), env=env).returncode == 0
    [rec] = records(path(env))
    assert rec["question"] == 'line1\nline2 "quoted" \\ tab\t'


@pytest.mark.parametrize("flag,field", [("--project", "project"), ("--question", "question"),
                                        ("--answer", "answer"), ("--card-ref", "card_ref")])
def test_missing_required_flag_is_rejected_naming_the_field(env, flag, field):
    args = append_args()
    i = args.index(flag)
    del args[i:i + 2]
    r = ledger(*args, env=env)
    assert r.returncode == 1
    assert r.stderr == f"judgment-ledger: append rejected ({field}: missing {flag})\n"
    assert not os.path.exists(path(env))


@pytest.mark.parametrize("field", ["project", "question", "answer", "card_ref", "id"])
def test_empty_required_string_is_rejected(env, field):
    r = ledger(*append_args(**{field: ""}), env=env)
    assert r.returncode == 1
    assert r.stderr == f"judgment-ledger: append rejected ({field}: must not be empty)\n"


def test_unknown_flag_repeated_flag_missing_value_stray_argument(env):
    cases = {
        ("--colour", "red"): "append rejected (--colour: unknown flag)",
        ("--project", "again"): "append rejected (project: --project given more than once)",
        ("--tags",): "append rejected (tags: --tags needs a value)",
        ("stray",): "append rejected (unexpected argument 'stray')",
    }
    for extra, message in cases.items():
        r = ledger(*append_args(), *extra, env=env)
        assert (r.returncode, r.stderr) == (1, f"judgment-ledger: {message}\n"), extra
    assert not os.path.exists(path(env))


def test_all_problems_are_named_in_one_line(env):
    r = ledger("append", "--project", "demo", "--question", "", env=env)
    assert r.returncode == 1
    assert r.stderr == ("judgment-ledger: append rejected (answer: missing --answer; "
                        "card_ref: missing --card-ref; question: must not be empty)\n")


def test_invalid_utf8_argument_is_rejected(env, tmp_path):
    r = subprocess.run([str(LEDGER_SH), "append", "--project", "demo", "--question", b"caf\xe9",
                        "--answer", "a", "--card-ref", "c"], env=env, capture_output=True)
    assert r.returncode == 1
    assert r.stderr == b"judgment-ledger: append rejected (question: not valid UTF-8)\n"


def test_record_build_uses_schema_and_rejects_extra_fields():
    rec = record.build({"project": "p", "question": "q", "answer": "a", "card_ref": "c"},
                       now="2026-01-02T03:04:05Z")
    assert rec["decided_at"] == "2026-01-02T03:04:05Z"
    with pytest.raises(record.RecordError) as e:
        record.build({"project": "p", "question": "q", "answer": "a", "card_ref": "c",
                      "colour": "red"})
    assert e.value.problems[0][0] == "record" and "colour" in e.value.problems[0][1]
    with pytest.raises(record.RecordError) as e:
        record.build({"project": "p", "question": "q", "answer": "a", "card_ref": "c"},
                     now="yesterday")
    assert e.value.problems[0][0] == "decided_at"


def test_split_tags():
    assert record.split_tags(" a, b ,,c , ") == ["a", "b", "c"]
    assert record.split_tags("") == []

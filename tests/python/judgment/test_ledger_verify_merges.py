"""judgment-ledger verify on what merges leave (docs/team-memory.md, "When something went
wrong"): the same record twice is one record, the same id with two contents names both lines,
conflict markers are named; and the compiled validity test says what jsonschema says."""
import json

import pytest

from ledger_helpers import hermetic_env, ledger, rec

MARKERS = [b"<<<<<<< HEAD", b"||||||| base", b"=======", b">>>>>>> theirs"]


def verify(tmp_path, data, *flags):
    path = tmp_path / "l.jsonl"
    path.write_bytes(data)
    return ledger("verify", *flags, env=hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)), path


def compact(r):
    return json.dumps(r, separators=(",", ":")).encode()


def test_the_same_record_twice_is_accepted_and_counted_once(tmp_path):
    """Byte for byte (a union merge) or spelled otherwise (another writer): one record."""
    data = b"\n".join([compact(rec(1)), compact(rec(2)), compact(rec(1)),
                       json.dumps(rec(2), indent=None).encode()]) + b"\n"
    r, path = verify(tmp_path, data)
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout == (f"ok: 2 records in {path} (2 repeated lines of the same record, "
                        "counted once)\n")
    j, _ = verify(tmp_path, data, "--json")
    assert json.loads(j.stdout) == {"ok": True, "records": 2, "bad": [], "repeats": 2}


def test_the_same_id_with_two_contents_names_both_lines(tmp_path):
    data = b"\n".join([compact(rec(1)), compact(rec(2)), compact(rec(1, answer="b")),
                       compact(rec(1, answer="c"))]) + b"\n"
    r, path = verify(tmp_path, data)
    assert r.returncode == 1
    assert r.stdout.splitlines() == [
        "line 1: id 'id-1' is on a later line too (line 3) with different content; readers use "
        "this line",
        "line 3: id 'id-1' is already on line 1 with different content (readers use line 1)",
        "line 4: id 'id-1' is already on line 1 with different content (readers use line 1)",
    ]


def test_conflict_markers_are_named(tmp_path):
    data = b"\n".join([compact(rec(1)), MARKERS[0], compact(rec(2)), MARKERS[1], MARKERS[2],
                       compact(rec(3)), MARKERS[3]]) + b"\n"
    r, _ = verify(tmp_path, data, "--json")
    doc = json.loads(r.stdout)
    assert r.returncode == 1 and doc["records"] == 3
    assert [b["line"] for b in doc["bad"]] == [2, 4, 5, 7]
    assert all(b["reason"].startswith("a git conflict marker") for b in doc["bad"])


def test_readers_skip_conflict_markers(tmp_path):
    data = b"\n".join([MARKERS[0], compact(rec(1, question="which queue")), MARKERS[2],
                       compact(rec(2, question="which queue now")), MARKERS[3]]) + b"\n"
    _, path = verify(tmp_path, data)
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)
    r = ledger("list", "--project", "demo", "--json", env=env)
    assert r.returncode == 0
    assert sorted(d["id"] for d in json.loads(r.stdout)["decisions"]) == ["id-1", "id-2"]


# --- the compiled validity test against jsonschema's verdict ----------------------------------

GOOD = rec(1)
EDGE_CASES = [
    GOOD,
    dict(GOOD, rationale=""),                       # rationale may be empty
    dict(GOOD, tags=["a", "b"]),
    dict(GOOD, tags=[""]),                          # items minLength 1
    dict(GOOD, tags=[1]),
    dict(GOOD, tags="a"),
    dict(GOOD, tags=None),
    dict(GOOD, id=""),
    dict(GOOD, id=1),
    dict(GOOD, project=""),
    dict(GOOD, question=""), dict(GOOD, answer=""), dict(GOOD, card_ref=""),
    dict(GOOD, answer=["a"]), dict(GOOD, rationale=None),
    dict(GOOD, extra="x"),                          # additionalProperties false
    {k: v for k, v in GOOD.items() if k != "rationale"},
    {k: v for k, v in GOOD.items() if k != "tags"},
    {},
    dict(GOOD, decided_at="2026-01-01T00:00:00Z"),
    dict(GOOD, decided_at="2026-01-01T00:00:00.123456789Z"),
    dict(GOOD, decided_at="2026-01-01T00:00:00+09:00"),
    dict(GOOD, decided_at="2026-01-01T00:00:00-00:30"),
    dict(GOOD, decided_at="2026-01-01T00:00:00"),   # no zone
    dict(GOOD, decided_at="2026-01-01 00:00:00Z"),
    dict(GOOD, decided_at="2026-01-01T00:00:00Z\n"),  # re.search: $ before a final newline
    dict(GOOD, decided_at="x2026-01-01T00:00:00Z"),
    dict(GOOD, decided_at="2026-13-45T99:99:99Z"),  # pattern only: format is not checked
    dict(GOOD, decided_at="\u0662026-01-01T00:00:00Z"),  # a non-ASCII digit
    dict(GOOD, decided_at="2026-01-01T00:00:00.Z"),
    dict(GOOD, decided_at=20260101),
    dict(GOOD, question="\U0001F600"),              # one code point is length 1
    dict(GOOD, id="\x00"),
    [GOOD], "x", None, 1,
]


@pytest.mark.parametrize("case", EDGE_CASES, ids=range(len(EDGE_CASES)))
def test_the_compiled_check_is_jsonschemas_verdict(case):
    from judgment_toolkit.judgment import fastcheck, schema
    valid = fastcheck.compile_schema(schema.load(schema.LEDGER))
    assert valid is not None  # the ledger's schema is within what it compiles
    assert valid(case) is (not list(schema.validator(schema.LEDGER).iter_errors(case)))


@pytest.mark.parametrize("change", [
    {"minProperties": 1}, {"properties": {"id": {"type": "string", "maxLength": 3}}},
    {"additionalProperties": True}, {"properties": {"n": {"type": "integer"}}},
    {"properties": {"tags": {"type": "array", "items": {"type": "string", "enum": ["a"]}}}},
])
def test_a_schema_beyond_the_compiler_is_refused(change):
    """Then verify falls back to jsonschema rather than check less than the schema says."""
    from judgment_toolkit.judgment import fastcheck, schema
    doc = dict(schema.load(schema.LEDGER))
    for key, value in change.items():
        doc[key] = dict(doc[key], **value) if key == "properties" else value
    assert fastcheck.compile_schema(doc) is None

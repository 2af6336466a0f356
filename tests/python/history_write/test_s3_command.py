"""Seed section 3: the two input forms of `add`, flag rules, strict --input, request ids."""
import json

from ulid import ULID

from helpers_write import add, events, receipt, refused, snapshot, started  # noqa: F401


def test_flags_receipt_and_stored_decision(started):
    r = receipt(add(started, "--kind", "원인", "--status", "가설", "--summary",
                    "첫 항목이 항상 있다고 가정했다", "--target", "AC-1", "--ref", "run:2",
                    "--request-id", "cause-1"))
    assert list(r) == ["schema", "id", "request_id", "seq", "sha256", "replayed"]
    assert r["schema"] == "decision-receipt/v1"
    assert (r["id"], r["request_id"], r["seq"], r["replayed"]) == ("D1", "cause-1", 1, False)
    [ev] = events(started)
    assert ev["decision"] == {"kind": "원인", "status": "가설",
                              "summary": "첫 항목이 항상 있다고 가정했다",
                              "targets": ["AC-1"], "evidence": [{"type": "run", "seq": 2}]}


def test_repeated_flags_keep_order_and_refs_come_before_checked_refs(started):
    receipt(add(started, "--kind", "관측", "--summary", "s", "--target", "T001",
                "--target", "AC-1", "--checked-ref", "external:https://a.invalid/1",
                "--ref", "file:README.md", "--checked-ref", "run:1", "--ref",
                "external:issue-7"))
    d = events(started)[0]["decision"]
    assert d["targets"] == ["T001", "AC-1"]
    assert d["evidence"] == [
        {"type": "file", "path": "README.md"},
        {"type": "external", "ref": "issue-7"},
        {"type": "external", "ref": "https://a.invalid/1", "checked": True},
        {"type": "run", "seq": 1, "checked": True},
    ]


def test_flag_equals_form(started):
    receipt(add(started, "--kind=관측", "--summary=a=b", "--target=AC-1"))
    assert events(started)[0]["decision"] == {"kind": "관측", "summary": "a=b",
                                              "targets": ["AC-1"]}


def test_repeated_single_value_flag_is_refused(started):
    for flag, a, b in [("--kind", "관측", "결정"), ("--summary", "a", "b"),
                       ("--status", "가설", "가설"), ("--reason", "a", "b"),
                       ("--event-at", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z"),
                       ("--request-id", "a", "a"), ("--input", "-", "-")]:
        args = ["--kind", "원인", "--summary", "x"] if flag not in ("--kind", "--summary") else \
            (["--summary", "x"] if flag == "--kind" else ["--kind", "관측"])
        p = add(started, *args, flag, a, flag, b)
        assert f"{flag} given twice" in refused(p, "invalid_input", 64)
    assert snapshot(started) is None


def test_argument_errors(started):
    refused(add(started, "--kind", "관측"), "invalid_input", 64)             # no summary
    refused(add(started, "--summary", "x"), "invalid_input", 64)             # no kind
    refused(add(started, "--kind", "관측", "--summary"), "invalid_input", 64)  # no value
    refused(add(started, "--kind", "관측", "--summary", "x", "--bogus", "1"), "invalid_input", 64)
    refused(add(started, "--kind", "관측", "--summary", "x", "extra"), "invalid_input", 64)
    refused(add(started, "--kind", "관측", "--summary", "x", "--ref", "http://x"),
            "invalid_input", 64)
    refused(add(started, "--kind", "관측", "--summary", "x", "--input", "-"),
            "invalid_input", 64)
    assert snapshot(started) is None


def test_input_from_stdin_and_file(started, tmp_path):
    doc = {"request_id": "decide-1", "decision": {
        "kind": "결정", "summary": "빈 입력이면 0을 반환한다", "targets": ["T001"],
        "evidence": [{"type": "external", "ref": "https://example.invalid/review/1",
                      "version": "rev-2", "checked": True}]}}
    r = receipt(add(started, "--input", "-", input=json.dumps(doc, ensure_ascii=False)))
    assert (r["id"], r["request_id"]) == ("D1", "decide-1")
    assert events(started)[0]["decision"] == doc["decision"]
    f = tmp_path / "d.json"
    f.write_text(json.dumps({"decision": {"summary": "두 번째", "kind": "관측"}}))
    r = receipt(add(started, "--input", str(f), "--request-id", "file-1"))
    assert (r["id"], r["request_id"]) == ("D2", "file-1")
    # stored as submitted: key order of the document is kept
    assert list(events(started)[1]["decision"]) == ["summary", "kind"]


def test_input_request_id_must_agree_with_flag(started):
    doc = json.dumps({"request_id": "a", "decision": {"kind": "관측", "summary": "x"}})
    refused(add(started, "--input", "-", "--request-id", "b", input=doc), "invalid_input", 64)
    receipt(add(started, "--input", "-", "--request-id", "a", input=doc))


def test_input_cannot_be_mixed_with_decision_flags(started):
    doc = json.dumps({"decision": {"kind": "관측", "summary": "x"}})
    p = add(started, "--input", "-", "--target", "AC-1", input=doc)
    assert "cannot be combined" in refused(p, "invalid_input", 64)


def _refuse_input(repo, data, code="invalid_input", needle=""):
    p = add(repo, "--input", "-", input=data)
    assert needle in refused(p, code, 64)


def test_input_strict_parsing(started):
    ok = '{"decision":{"kind":"관측","summary":"x"}}'
    _refuse_input(started, ok + " {}", needle="data after the JSON value")
    _refuse_input(started, '{"decision":{"kind":"관측","kind":"결정","summary":"x"}}',
                  needle="duplicate key 'kind'")
    _refuse_input(started, '{"decision":{"kind":"관측","Summary":"y","summary":"x"}}',
                  needle="differ only in case")
    _refuse_input(started, '{"decision":{"kind":"관측","summary":"x","note":1}}',
                  needle="unknown field 'note'")
    _refuse_input(started, '{"decision":{"kind":"관측","summary":"x"},"extra":1}',
                  needle="unknown field 'extra'")
    _refuse_input(started, '{"decision":{"kind":"관측","summary":NaN}}', needle="NaN")
    _refuse_input(started, '{"decision":{"kind":"관측","summary":"\\ud800"}}',
                  needle="surrogate")
    _refuse_input(started, '[1]', needle="must be a JSON object")
    _refuse_input(started, '{"decision":', needle="not JSON")
    _refuse_input(started, "", needle="not JSON")
    # a number Python will not convert (over 4300 digits) is a bad seq, not a crash
    _refuse_input(started, '{"decision":{"kind":"관측","summary":"x","evidence":[{"type":'
                  '"run","seq":' + "1" * 5000 + '}]}}', needle="seq must be an integer")
    assert snapshot(started) is None


def test_input_invalid_utf8_and_bom(started):
    p = add(started, "--input", "-", input=None)  # empty stdin
    refused(p, "invalid_input", 64)
    import subprocess
    from conftest import SCRIPTS
    for data in (b'{"decision":{"kind":"\xff","summary":"x"}}',
                 b'\xef\xbb\xbf{"decision":{"kind":"\xea\xb4\x80\xec\xb8\xa1","summary":"x"}}'):
        p = subprocess.run([str(SCRIPTS / "ha"), "history", "docs/specs/empty-input", "add",
                            "--input", "-"], cwd=started, input=data, capture_output=True)
        assert p.returncode == 64 and p.stderr.startswith(b"ha: invalid_input: "), p.stderr


def test_input_limits(started):
    deep = '{"decision":{"kind":"관측","summary":"x","reason":' + "[" * 15 + "]" * 15 + "}}"
    _refuse_input(started, deep, code="limit_exceeded", needle="deeper than 16")
    at_limit = '{"decision":{"kind":"관측","summary":"x","reason":' + "[" * 14 + "]" * 14 + "}}"
    _refuse_input(started, at_limit, needle="reason must be a string")  # depth ok, type wrong
    big = json.dumps({"decision": {"kind": "관측", "summary": "x", "reason": "r" * 300_000}})
    _refuse_input(started, big, code="limit_exceeded", needle="larger than 262144 bytes")
    pad = 256 * 1024 - len('{"decision":{"kind":"관측","summary":"x"}}'.encode())
    exact = '{"decision":{"kind":"관측","summary":"x"}}' + " " * pad
    assert len(exact.encode()) == 256 * 1024
    receipt(add(started, "--input", "-", input=exact))
    _refuse_input(started, exact + " ", code="limit_exceeded")


def test_auto_request_id_is_a_ulid(started):
    r1 = receipt(add(started, "--kind", "관측", "--summary", "x"))
    r2 = receipt(add(started, "--kind", "관측", "--summary", "x"))
    for r in (r1, r2):
        assert r["request_id"].startswith("auto-")
        ULID.from_str(r["request_id"][5:])  # a valid ULID
    assert r1["request_id"] != r2["request_id"]
    assert [e["request_id"] for e in events(started)] == [r1["request_id"], r2["request_id"]]


def test_flag_and_input_forms_of_the_same_decision_replay_each_other(started):
    first = receipt(add(started, "--kind", "원인", "--status", "가설", "--summary", "s",
                        "--target", "AC-1", "--ref", "run:2", "--request-id", "same"))
    doc = {"decision": {"evidence": [{"seq": 2, "type": "run"}], "targets": ["AC-1"],
                        "summary": "s", "status": "가설", "kind": "원인"}}
    again = receipt(add(started, "--input", "-", "--request-id", "same",
                        input=json.dumps(doc, ensure_ascii=False)))
    assert again == {**first, "replayed": True}
    assert len(events(started)) == 1


def test_add_help(started):
    p = add(started, "--help")
    assert p.returncode == 0 and p.stdout.startswith("usage: ha history <goal> add")
    assert snapshot(started) is None


def test_goal_argument_is_relative_to_the_current_folder(started):
    r = receipt(add(started / "src", "--kind", "관측", "--summary", "from src",
                    goal="../docs/specs/empty-input"))
    assert r["id"] == "D1"
    assert events(started)[0]["context"]["goal"] == "docs/specs/empty-input"


def test_strict_parser_agrees_with_json_on_valid_documents():
    import random
    from judgment_toolkit.ha.history.strictjson import depth, parse_input
    rng = random.Random(7)

    def value(level):
        r = rng.random()
        if level > 5 or r < 0.3:
            return rng.choice([None, True, False, 0, -3, 2.5, "", "가\\\"[{", "x]}"])
        if r < 0.65:
            return [value(level + 1) for _ in range(rng.randrange(4))]
        return {f"k{i}_{level}": value(level + 1) for i in range(rng.randrange(4))}

    for _ in range(300):
        doc = value(0)
        text = json.dumps(doc, ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, 1]))
        assert parse_input(text.encode()) == doc
        want = 0
        stack = [(doc, 1)]
        while stack:
            o, d = stack.pop()
            if isinstance(o, (list, dict)):
                want = max(want, d)
                stack.extend((v, d + 1) for v in (o.values() if isinstance(o, dict) else o))
        assert depth(text.encode()) == want

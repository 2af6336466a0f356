"""Hostile `--input` documents and cursors (decision-history/v1 section 3 `--input`, section 8
cursors, section 9 errors): every one gets the documented error an ordinary bad value of the same kind
gets, never an internal error (exit 70), and every check is one pass over the input.

The inputs are the real shapes that hung or crashed before: a 256 KB run of `"\\` (the depth
check took minutes: quadratic), numbers with more digits than Python converts, a NUL in a
commit reference's repository, a cursor payload nested thousands deep. The subprocess timeout
is only a safety net against a hang; no test asserts how long anything takes (figures:
bench/input_checks.py).
"""
import base64
import hashlib
import json
import re

import pytest

from helpers_write import events, refused, snapshot, start_key, started  # noqa: F401
from conftest import ha

from judgment_toolkit.ha.history.views import cursor
from judgment_toolkit.ha.history.model import INPUT_DEPTH_MAX, INPUT_MAX, SEQ_MAX
from judgment_toolkit.ha.history.strictjson import depth

SAFETY_NET = 120  # seconds; before the fix the 256 KB escape run took ~400 s

BIG = "9" * 5000  # more digits than Python's int() converts (4300)


def add_doc(repo, doc):
    data = doc if isinstance(doc, str) else json.dumps(doc, ensure_ascii=False)
    return ha("history", "docs/specs/empty-input", "add", "--input", "-", cwd=repo, input=data,
              timeout=SAFETY_NET)


def decision(**fields):
    return {"request_id": "r-1", "decision": {"kind": "관측", "summary": "s", **fields}}


# --- one pass: the shapes that were quadratic -------------------------------------------------

@pytest.mark.parametrize("unit", ['"\\', '"\\"\\', '"a\\'])
def test_a_long_run_of_escapes_is_refused_as_invalid_input(started, unit):
    data = unit * ((INPUT_MAX - 10) // len(unit))
    refused(add_doc(started, data), "invalid_input", 64)
    assert snapshot(started) is None


def test_a_valid_document_full_of_escapes_is_accepted(started):
    reason = '\\"\\\\' * 5000  # escaped quote + escaped backslash: within REASON_MAX
    text = json.dumps(decision())[:-2] + f', "reason": "{reason}"}}}}'
    assert len(text.encode()) > 20_000
    p = add_doc(started, text)
    assert p.returncode == 0, p.stderr
    assert events(started)[0]["decision"]["reason"] == '"\\' * 5000


def test_nesting_past_the_limit_at_full_size_is_limit_exceeded(started):
    data = "[" * (INPUT_MAX - 1)
    refused(add_doc(started, data), "limit_exceeded", 64)


def test_brackets_inside_strings_never_count_as_nesting(started):
    inside = "[{" * 5000 + '\\"]' * 10
    p = add_doc(started, json.dumps(decision(reason=inside)))
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("text, want", [
    ('"\\', 0), ('["\\"]', 1), ('[' * 17 + '"\\', 17), ('["\\\\"]', 1), ('["\\\\", [[]]]', 3),
    ('"[[["', 0), ('{"a": "}}}", "b": [{"c": "["}]}', 3), ('"\\u005b["', 0),
])
def test_depth_skips_strings_and_escapes_exactly(text, want):
    assert depth(text.encode()) == want


def test_depth_at_the_limit_is_accepted_and_one_more_is_not(started):
    at = json.dumps(decision())[:-2] + ', "reason": "x"}, "x": ' + "[" * (INPUT_DEPTH_MAX - 1) \
        + "]" * (INPUT_DEPTH_MAX - 1) + "}"
    # the unknown field `x` is refused only after the depth check passed
    assert "unknown field" in refused(add_doc(started, at), "invalid_input", 64)
    past = at.replace('"x": [', '"x": [[', 1).replace("]}", "]]}", 1)
    refused(add_doc(started, past), "limit_exceeded", 64)


# --- numbers beyond Python's int digit limit ---------------------------------------------------

def test_a_huge_event_id_is_an_unknown_relation_like_any_id_past_the_last(started):
    ordinary = add_doc(started, json.dumps(decision(builds_on=["D99999"])))
    refused(ordinary, "invalid_relation", 65)
    huge = add_doc(started, json.dumps(decision(builds_on=["D" + BIG])))
    assert f"D{BIG} is not a stored event" in refused(huge, "invalid_relation", 65)
    huge = add_doc(started, json.dumps(decision(supersedes=[{"id": "D" + BIG}])))
    refused(huge, "invalid_relation", 65)
    assert snapshot(started) is None


def test_a_huge_run_seq_is_invalid_input_like_seq_zero(started):
    zero = add_doc(started, json.dumps(decision(evidence=[{"type": "run", "seq": 0}])))
    want = refused(zero, "invalid_input", 64)
    huge = add_doc(started, json.dumps(decision())[:-2]
                   + ', "evidence": [{"type": "run", "seq": ' + BIG + "}]}}")
    assert refused(huge, "invalid_input", 64) == want
    over = add_doc(started, json.dumps(decision(evidence=[{"type": "run", "seq": SEQ_MAX + 1}])))
    assert refused(over, "invalid_input", 64) == want


@pytest.mark.parametrize("where", ["request_id", "summary", "targets", "extra"])
def test_a_huge_number_in_any_field_gets_that_fields_error(started, where):
    doc = decision(targets=["AC-1"])
    if where == "request_id":
        doc["request_id"] = 0
    elif where == "extra":
        doc["decision"]["extra"] = 0
    elif where == "targets":
        doc["decision"]["targets"] = [0]
    else:
        doc["decision"]["summary"] = 0
    ordinary = refused(add_doc(started, json.dumps(doc)), "invalid_input", 64)
    text = json.dumps(doc).replace(": 0", ": -" + BIG).replace("[0]", "[" + BIG + "]")
    assert BIG in text
    huge = refused(add_doc(started, text), "invalid_input", 64)
    assert re.sub(r"-?[0-9]+", "N", huge) == re.sub(r"-?[0-9]+", "N", ordinary)


def test_a_huge_event_id_in_show_is_unknown_like_any_other(started):
    assert add_doc(started, json.dumps(decision())).returncode == 0
    p = ha("history", "docs/specs/empty-input", "show", "D" + BIG, cwd=started,
           timeout=SAFETY_NET)
    refused(p, "unknown_event", 65)


# --- NUL in a commit reference's repository ----------------------------------------------------

def test_nul_in_a_commit_repository_is_invalid_input(started):
    doc = decision(evidence=[{"type": "commit", "commit": "abcdef0", "repository": "a\0b"}])
    assert "\\u0000" in json.dumps(doc)
    err = refused(add_doc(started, json.dumps(doc)), "invalid_input", 64)
    assert "repository contains NUL" in err
    assert snapshot(started) is None


# --- forged cursors -----------------------------------------------------------------------------

def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def forged(key: str, body: bytes) -> str:
    """A cursor whose check is right (the key is local, anyone can compute it) but whose
    payload is hostile: what a forger can always build."""
    check = hashlib.sha256(cursor.DOMAIN)
    check.update(key.encode("ascii") + b"\0c1\0" + body)
    return f"c1.{_b64(body)}.{_b64(check.digest()[:12])}"


@pytest.mark.parametrize("body", [
    b"[" * 3000, b'{"e":' + b"[" * 1400 + b"]" * 1400 + b"}", b'{"e":' + b"9" * 2900 + b"}",
])
def test_a_forged_hostile_cursor_is_cursor_invalid(started, body):
    assert add_doc(started, json.dumps(decision())).returncode == 0
    text = forged(start_key(started), body)
    assert len(text) <= 4096
    p = ha("history", "docs/specs/empty-input", "current", "--since", text, cwd=started,
           timeout=SAFETY_NET)
    refused(p, "cursor_invalid", 65)


def real_cursor(repo) -> str:
    p = ha("history", "docs/specs/empty-input", "current", "--format", "json", cwd=repo)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)["cursor"]


def payload(text: str) -> dict:
    body = text.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))


def since(repo, text):
    return ha("history", "docs/specs/empty-input", "current", "--since", text, cwd=repo,
              timeout=SAFETY_NET)


def test_a_forged_cursor_is_checked_like_a_real_one(started):
    """The forging helper is right: the real cursor's payload, forged again, is accepted."""
    assert add_doc(started, json.dumps(decision())).returncode == 0
    real = real_cursor(started)
    body = json.dumps(payload(real), separators=(",", ":"), sort_keys=True).encode()
    assert forged(start_key(started), body) == real
    assert since(started, real).returncode == 0


def test_a_huge_head_seq_in_a_cursor_is_like_any_head_not_in_the_run_record(started):
    assert add_doc(started, json.dumps(decision())).returncode == 0
    p = payload(real_cursor(started))
    p["h"][0] = 99999
    body = json.dumps(p, separators=(",", ":"), sort_keys=True).encode()
    ordinary = refused(since(started, forged(start_key(started), body)), "cursor_stale", 65)
    body = body.replace(b"99999", b"9" * 2800)
    assert refused(since(started, forged(start_key(started), body)), "cursor_stale", 65) \
        == ordinary


def test_depth_agrees_with_a_byte_by_byte_scanner_on_random_inputs():
    import random

    def reference(data: bytes) -> int:
        level = deepest = 0
        in_string = escaped = False
        for c in data.decode("latin-1"):
            if in_string:
                if escaped:
                    escaped = False
                elif c == "\\":
                    escaped = True
                elif c == '"':
                    in_string = False
            elif c == '"':
                in_string = True
            elif c in "[{":
                level += 1
                deepest = max(deepest, level)
            elif c in "]}":
                level -= 1
        return deepest

    rng = random.Random(11)
    for _ in range(5000):
        data = "".join(rng.choice('[]{}"\\a ') for _ in range(rng.randrange(40))).encode()
        assert depth(data) == reference(data), data

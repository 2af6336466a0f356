"""Seed section 4: kinds and statuses, field limits, targets, event_at, the stored line and its
context, replay by request id."""
import hashlib
import json
import os
import re

import pytest

from conftest import git, ha
from helpers_write import (GOAL, add, events, receipt, refused, snapshot, start_key,  # noqa: F401
                           started, store_dir)

VALID = [("관측", None), ("원인", None), ("원인", "가설"), ("원인", "확정"), ("원인", "기각"),
         ("결정", None), ("조치", "예정"), ("조치", "반영"), ("검증", "대기"), ("검증", "통과"),
         ("검증", "실패"), ("막힘", None), ("재개", None)]


def test_every_kind_and_status_of_the_table(started):
    for kind, status in VALID:
        args = ["--kind", kind, "--summary", f"{kind} {status}"]
        if status:
            args += ["--status", status]
        receipt(add(started, *args))
    got = [(e["decision"]["kind"], e["decision"].get("status")) for e in events(started)]
    assert got == VALID


@pytest.mark.parametrize("kind,status", [("관측", "가설"), ("결정", "반영"), ("원인", "통과"),
                                         ("조치", "확정"), ("검증", "예정"), ("막힘", "대기"),
                                         ("재개", "기각"), ("원인", "")])
def test_status_outside_its_kind_is_refused(started, kind, status):
    refused(add(started, "--kind", kind, "--status", status, "--summary", "x"),
            "invalid_input", 64)


@pytest.mark.parametrize("kind", ["계획", "정정", "observation", "", "관측 "])
def test_unknown_kind_is_refused(started, kind):
    refused(add(started, "--kind", kind, "--summary", "x"), "invalid_input", 64)


def test_summary_limits(started):
    receipt(add(started, "--kind", "관측", "--summary", "가" * 341 + "a"))  # 1024 bytes
    p = add(started, "--kind", "관측", "--summary", "가" * 341 + "ab")        # 1025 bytes
    assert "longer than 1024 bytes" in refused(p, "limit_exceeded", 64)
    refused(add(started, "--kind", "관측", "--summary", ""), "invalid_input", 64)
    p = add(started, "--kind", "관측", "--summary", "two\nlines")
    assert "one line" in refused(p, "invalid_input", 64)
    refused(add(started, "--kind", "관측", "--summary", "cr\rhere"), "invalid_input", 64)


def test_reason_limits_and_newlines(started):
    receipt(add(started, "--kind", "결정", "--summary", "s", "--reason", "a\nb\n" + "r" * 16380))
    assert len(events(started)[0]["decision"]["reason"].encode()) == 16384
    p = add(started, "--kind", "결정", "--summary", "s", "--reason", "r" * 16385)
    refused(p, "limit_exceeded", 64)
    refused(add(started, "--kind", "결정", "--summary", "s", "--reason", ""), "invalid_input", 64)


def test_request_id_syntax(started):
    receipt(add(started, "--kind", "관측", "--summary", "x", "--request-id", "A" + "b" * 127))
    receipt(add(started, "--kind", "관측", "--summary", "x", "--request-id", "0_.:/-x"))
    for bad in ["A" + "b" * 128, "-x", "_x", ".x", "", "a b", "a#b", "가"]:
        refused(add(started, "--kind", "관측", "--summary", "x", "--request-id", bad),
                "invalid_input", 64)


def test_targets_must_exist_now_in_the_goal(started):
    receipt(add(started, "--kind", "관측", "--summary", "x", "--target", "AC-1", "--target",
                "AC-2", "--target", "EX-1", "--target", "T001"))
    before = snapshot(started)
    # AC-99 appears only inside a code block of SPEC.md; T002 and EX-2 do not exist
    for t in ("AC-99", "T002", "EX-2"):
        p = add(started, "--kind", "관측", "--summary", "x", "--target", t)
        assert t in refused(p, "invalid_reference", 65)
    assert snapshot(started) == before
    for bad in ("ac-1", "AC-", "T01", "D1", "AC-01"):
        refused(add(started, "--kind", "관측", "--summary", "x", "--target", bad),
                "invalid_input", 64)
    refused(add(started, "--kind", "관측", "--summary", "x", "--target", "AC-1", "--target",
                "AC-1"), "invalid_input", 64)


def test_targets_follow_the_current_documents(started):
    spec = started / GOAL / "SPEC.md"
    spec.write_text(spec.read_text().replace("- AC-2 (선택)", "- AC-3 (선택)"))
    p = add(started, "--kind", "관측", "--summary", "x", "--target", "AC-1")
    assert "AC-2 is not an acceptance criterion" in refused(p, "invalid_reference", 65)
    plan = started / GOAL / "PLAN.md"
    plan.write_text(plan.read_text().replace("| AC-2 |", "| AC-3 |"))
    refused(add(started, "--kind", "관측", "--summary", "x", "--target", "AC-2"),
            "invalid_reference", 65)
    receipt(add(started, "--kind", "관측", "--summary", "x", "--target", "AC-3"))


def test_event_at(started):
    for value in ("2026-12-02T15:04:05Z", "2026-12-02t15:04:05.123456+09:00",
                  "2016-12-31T23:59:60Z", "2026-01-01T00:00:00-23:59",
                  "0000-02-29T00:00:00Z"):  # RFC 3339 years are 0000-9999; year 0 is leap
        receipt(add(started, "--kind", "관측", "--summary", "x", "--event-at", value))
    assert [e["decision"]["event_at"] for e in events(started)][0] == "2026-12-02T15:04:05Z"
    for bad in ("2026-02-30T00:00:00Z", "2026-12-02 15:04:05Z", "2026-12-02T15:04:05",
                "2026-12-02T25:00:00Z", "2026-12-02T15:04:05+24:00", "yesterday",
                "0001-02-29T00:00:00Z"):
        refused(add(started, "--kind", "관측", "--summary", "x", "--event-at", bad),
                "invalid_input", 64)
    receipt(add(started, "--kind", "관측", "--summary", "no time"))
    assert "event_at" not in events(started)[-1]["decision"]


def test_stored_line_format_and_chain(started):
    for i in range(3):
        receipt(add(started, "--kind", "관측", "--summary", f"s{i}", "--request-id", f"r{i}"))
    raw = (store_dir(started) / "events.jsonl").read_bytes()
    lines = raw.split(b"\n")
    assert lines[-1] == b"" and len(lines) == 4
    prev = None
    for n, line in enumerate(lines[:3], 1):
        ev = json.loads(line)
        assert list(ev) == ["schema", "id", "seq", "prev", "request_id", "at", "decision",
                            "context"]
        assert (ev["schema"], ev["id"], ev["seq"], ev["prev"]) == ("decision-history/v1",
                                                                   f"D{n}", n, prev)
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", ev["at"])
        assert line == json.dumps(ev, separators=(",", ":"), ensure_ascii=False).encode()
        prev = hashlib.sha256(line).hexdigest()
    last = (store_dir(started) / "last").read_bytes()
    assert last == json.dumps({"seq": 3, "sha256": prev}, separators=(",", ":")).encode() + b"\n"


def test_receipt_sha_is_the_stored_line_hash(started):
    r = receipt(add(started, "--kind", "관측", "--summary", "x"))
    line = (store_dir(started) / "events.jsonl").read_bytes().rstrip(b"\n")
    assert r["sha256"] == hashlib.sha256(line).hexdigest()


def test_context_as_observed(started):
    receipt(add(started, "--kind", "관측", "--summary", "x"))
    ctx = events(started)[0]["context"]
    status = json.loads(ha("status", GOAL, "--format", "json", cwd=started).stdout)
    head = git(started, "rev-parse", "HEAD").stdout.strip()
    runs = (started / GOAL / "runs.jsonl").read_bytes().split(b"\n")
    assert ctx == {"start": start_key(started),
                   "run_head": {"seq": 2, "sha256": hashlib.sha256(runs[1]).hexdigest()},
                   "goal": GOAL, "commit": head, "tree_clean": True,
                   "spec_digest": status["spec_digest"]["now"], "evidence": []}
    assert ctx["start"] == store_dir(started).name


def test_context_tree_clean_ignores_the_run_bundle_only(started):
    (started / GOAL / "PROGRESS.md").write_text("# PROGRESS\n\n## 타임라인\n- 관측 x\n")
    receipt(add(started, "--kind", "관측", "--summary", "bundle edit"))
    assert events(started)[-1]["context"]["tree_clean"] is True
    (started / "src" / "count.go").write_text("package count // changed\n")
    receipt(add(started, "--kind", "관측", "--summary", "code edit"))
    assert events(started)[-1]["context"]["tree_clean"] is False


def test_context_records_a_moved_goal_path_and_new_digest(started):
    git(started, "mv", GOAL, "docs/specs/moved")
    git(started, "commit", "-qm", "move")
    r = receipt(add(started, "--kind", "관측", "--summary", "moved", goal="docs/specs/moved"))
    assert r["id"] == "D1"  # same raw start line -> same history
    ctx = events(started, goal="docs/specs/moved")[0]["context"]
    assert ctx["goal"] == "docs/specs/moved"


def test_replay_returns_the_original_receipt_and_changes_nothing(started):
    args = ["--kind", "관측", "--summary", "x", "--checked-ref", "file:src/count.go",
            "--request-id", "obs-1"]
    first = receipt(add(started, *args))
    before = snapshot(started)
    # the evidence file is now a FIFO: a replay must answer before reading any file
    (started / "src" / "count.go").unlink()
    os.mkfifo(started / "src" / "count.go")
    again = receipt(add(started, *args))
    assert again == {**first, "replayed": True}
    assert snapshot(started) == before


def test_same_request_id_with_another_decision_is_a_conflict(started):
    receipt(add(started, "--kind", "관측", "--summary", "x", "--request-id", "obs-1"))
    before = snapshot(started)
    p = add(started, "--kind", "관측", "--summary", "y", "--request-id", "obs-1")
    assert "D1" in refused(p, "request_conflict", 65)
    p = add(started, "--kind", "관측", "--summary", "x", "--target", "AC-1", "--request-id",
            "obs-1")
    refused(p, "request_conflict", 65)
    assert snapshot(started) == before


def test_replay_answers_before_targets_are_checked(started):
    args = ["--kind", "관측", "--summary", "x", "--target", "AC-2", "--request-id", "t-1"]
    first = receipt(add(started, *args))
    for name in ("SPEC.md", "PLAN.md"):
        doc = started / GOAL / name
        doc.write_text(doc.read_text().replace("AC-2", "AC-3"))
    refused(add(started, *args[:-2]), "invalid_reference", 65)   # a new event is refused
    assert receipt(add(started, *args)) == {**first, "replayed": True}


def test_a_copied_run_bundle_with_the_same_start_line_shares_the_history(started):
    import shutil
    receipt(add(started, "--kind", "관측", "--summary", "original"))
    shutil.copytree(started / GOAL, started / "docs" / "specs" / "copy")
    r = receipt(add(started, "--kind", "관측", "--summary", "copy", goal="docs/specs/copy"))
    assert r["id"] == "D2"
    assert [e["context"]["goal"] for e in events(started)] == [GOAL, "docs/specs/copy"]

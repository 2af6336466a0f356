"""`ha history <goal> add`, the registration: check against the store under its lock, observe
context and evidence, append one line, update `last`, print the receipt. The command line is
parsed by addcli; the receipt is written through judgment_toolkit.output.

The order is fixed (docs/history.md): input syntax (64) -> goal and run chain -> store lock ->
verify the store (and bring a lagging `last` up to date) -> replay by request id -> targets ->
relations and corrections -> run evidence -> file/commit observations -> write.
"""
from __future__ import annotations

import hashlib

from judgment_toolkit.ha.history import model
from judgment_toolkit.ha import runs
from judgment_toolkit.ha.errors import HaError
from judgment_toolkit.ha.history.errors import HistoryError, limit_exceeded, unreadable

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def _new_request_id() -> str:
    """`auto-<ULID>`: 48-bit millisecond time + 80 random bits in Crockford base32, the
    encoding python-ulid produces (tests parse it back with python-ulid); built here because
    importing python-ulid costs ~30 ms of every add's start-up (importlib.metadata)."""
    import os
    import time
    n = (time.time_ns() // 1_000_000) << 80 | int.from_bytes(os.urandom(10), "big")
    return "auto-" + "".join(_CROCKFORD[(n >> (5 * i)) & 31] for i in range(25, -1, -1))


def _check_relations(decision: dict, count: int, last_correction: dict) -> None:
    stored = f"D1..D{count}" if count else "none"
    for ref, n in model.relation_seqs(decision):
        if n > count:
            what = "this event itself" if n == count + 1 else "not a stored event"
            raise HistoryError("invalid_relation", f"{ref} is {what}; relations may only name "
                               f"earlier stored events (stored: {stored})")
    for item in decision.get("supersedes", ()):
        current, claimed = last_correction.get(item["id"]), item.get("after")
        if current != claimed:
            if current is None:
                hint = f"{item['id']} has no correction yet; use --supersedes {item['id']}"
            else:
                hint = (f"{item['id']} was last corrected by {current}; read {current} and "
                        f"use --supersedes {item['id']}@{current}")
            raise HistoryError("correction_conflict", hint)


def add(goal_arg: str, decision: dict, request_id: str | None, out=None) -> str:
    """Register one decision; returns the receipt line (also written to `out`)."""
    from judgment_toolkit.ha.history.context import open_history
    from judgment_toolkit.ha.history.register.evidence import check_runs, observe, unread_notes
    from judgment_toolkit.ha.history.store.writer import NotWritten, WriteFailed

    at = model.utc_now()
    ctx = open_history(goal_arg, for_write=True)
    auto = request_id is None
    if auto:
        request_id = _new_request_id()
    with ctx.store.write_lock() as w:
        scan = w.scan(request_id)
        old = None  # the one stored event under this request id, if any
        for stored in scan:
            if old is None and stored.request_id == request_id:
                old = stored
        last_correction = scan.last_correction
        count = scan.count
        if scan.last_behind:
            try:
                w.write_last(count, scan.head_sha256)
            except WriteFailed as exc:
                raise unreadable(f"cannot bring last up to date with D{count} ({exc}); "
                                 "nothing was added") from None
        if old is not None:
            if old.event["decision"] != decision:
                raise HistoryError("request_conflict", f"request id {request_id!r} already "
                                   f"names D{old.seq} with a different decision")
            receipt = model.receipt_line(old.seq, request_id, old.sha256, True)
            _print(out, receipt, None)
            return receipt
        if "targets" in decision:
            try:
                known = ctx.goal.ids().all()
            except HaError as exc:
                raise HistoryError("invalid_reference", f"cannot check targets: {exc.message}"
                                   ) from None
            missing = [t for t in decision["targets"] if t not in known]
            if missing:
                raise HistoryError("invalid_reference", f"target {', '.join(missing)} is not in "
                                   f"the documents or PLAN of {ctx.goal.path}")
        _check_relations(decision, count, last_correction)
        check_runs(decision, ctx)
        names: dict = {}
        observed = [observe(ev, ctx, names) for ev in decision.get("evidence", ())]
        context = {"start": ctx.start_key, "run_head": ctx.chain.head, "goal": ctx.goal.path,
                   **runs.snapshot(ctx.goal, ctx.rules).fields(), "evidence": observed}
        seq = count + 1
        line = model.event_line(seq, scan.head_sha256, request_id, at, decision, context)
        if len(line) > model.LINE_MAX:
            raise limit_exceeded(f"the event line would be {len(line)} bytes; at most "
                                 f"{model.LINE_MAX}")
        sha = hashlib.sha256(line).hexdigest()
        uncertain = (f"D{seq} (request id {request_id}) may or may not be stored; check with "
                     f"`ha history {ctx.goal.path} show --request-id {request_id}` or resend "
                     f"the same decision with --request-id {request_id}")
        try:
            offset = w.append(line)
        except NotWritten as exc:
            raise HistoryError("write_uncertain", f"D{seq} (request id {request_id}) was not "
                               f"stored: {exc}; the partial line was removed and nothing was "
                               f"stored: resend the same decision with --request-id "
                               f"{request_id} to store it once") from None
        except WriteFailed as exc:
            raise HistoryError("write_uncertain", f"{uncertain}: {exc}") from None
        try:
            w.write_last(seq, sha)
        except WriteFailed as exc:
            raise HistoryError("write_uncertain", f"D{seq} (request id {request_id}) was "
                               f"stored but last was not updated: {exc}") from None
        w.record(seq, offset, line, sha)
    receipt = model.receipt_line(seq, request_id, sha, False)
    _print(out, receipt, (seq, request_id))
    _notes(unread_notes(decision.get("evidence", ()), observed))
    return receipt


def _notes(notes) -> None:
    """The stored event's unread references, on stderr after the receipt; a stderr that
    cannot be written loses the notes, never the receipt or its exit code."""
    import sys
    from judgment_toolkit import output
    for note in notes:
        try:
            output.write(note, sys.stderr)
        except OSError:
            return


def _print(out, receipt: str, stored) -> None:
    from judgment_toolkit import output
    try:
        output.write(receipt + "\n", out)
    except OSError as exc:
        if stored is None:
            raise unreadable(f"cannot print the receipt: {exc}") from None
        raise HistoryError("write_uncertain", f"D{stored[0]} (request id {stored[1]}) was "
                           f"stored but its receipt could not be printed: {exc}") from None

"""`ha history <goal> add`: parse, validate, check against the store under its lock, observe
context and evidence, append one line, update `last`, print the receipt.

The order is fixed (docs/history.md): input syntax (64) -> goal and run chain -> store lock ->
verify the store (and bring a lagging `last` up to date) -> replay by request id -> targets ->
relations and corrections -> run evidence -> file/commit observations -> write.
"""
from __future__ import annotations

import hashlib
import sys

from . import model
from .. import runs
from ..errors import HaError
from .errors import HistoryError, invalid_input, limit_exceeded, unreadable

SINGLE = ("--kind", "--summary", "--status", "--reason", "--event-at", "--request-id",
          "--input")
MULTI = ("--target", "--ref", "--checked-ref", "--builds-on", "--supersedes")


def parse_args(argv: list[str]) -> tuple[dict, str | None]:
    """argv after `add` -> (decision, request id or None); syntax errors only."""
    single: dict[str, str] = {}
    multi: dict[str, list[str]] = {k: [] for k in MULTI}
    i = 0
    while i < len(argv):
        arg = argv[i]
        name, eq, value = arg.partition("=")
        if name not in SINGLE and name not in MULTI:
            raise invalid_input(f"add: unknown argument {arg!r}")
        if not eq:
            if i + 1 >= len(argv):
                raise invalid_input(f"add: {name} needs a value")
            value = argv[i + 1]
            i += 1
        i += 1
        model.utf8_len(value, f"{name} value")
        if name in SINGLE:
            if name in single:
                raise invalid_input(f"add: {name} given twice")
            single[name] = value
        else:
            multi[name].append(value)
    request_id = single.pop("--request-id", None)
    if request_id is not None:
        model.check_request_id(request_id)
    if "--input" in single:
        given = sorted(set(single) - {"--input"}) + [k for k in MULTI if multi[k]]
        if given:
            raise invalid_input(f"add: --input cannot be combined with {', '.join(given)}")
        return _from_input(single["--input"], request_id)
    for need in ("--kind", "--summary"):
        if need not in single:
            raise invalid_input(f"add: {need} is required (or use --input)")
    d: dict = {"kind": single["--kind"]}
    if "--status" in single:
        d["status"] = single["--status"]
    d["summary"] = single["--summary"]
    if "--reason" in single:
        d["reason"] = single["--reason"]
    if multi["--target"]:
        d["targets"] = multi["--target"]
    refs = [model.parse_ref(r, False) for r in multi["--ref"]] + \
           [model.parse_ref(r, True) for r in multi["--checked-ref"]]
    if refs:
        d["evidence"] = refs
    if multi["--builds-on"]:
        d["builds_on"] = multi["--builds-on"]
    if multi["--supersedes"]:
        d["supersedes"] = [model.parse_supersedes(s) for s in multi["--supersedes"]]
    if "--event-at" in single:
        d["event_at"] = single["--event-at"]
    return model.check_decision(d), request_id


def _read_input(source: str) -> bytes:
    if source == "-":
        return sys.stdin.buffer.read(model.INPUT_MAX + 1)
    try:
        with open(source, "rb") as f:
            return f.read(model.INPUT_MAX + 1)
    except OSError as exc:
        raise invalid_input(f"--input {source}: {exc.strerror or exc}") from None


def _from_input(source: str, request_id: str | None):
    from .strictjson import parse_input
    doc = parse_input(_read_input(source))
    if not isinstance(doc, dict):
        raise invalid_input("--input must be a JSON object {\"request_id\", \"decision\"}")
    for key in doc:
        if key not in ("request_id", "decision"):
            raise invalid_input(f"--input: unknown field {key!r}")
    if "decision" not in doc:
        raise invalid_input("--input: decision is required")
    if "request_id" in doc:
        model.check_request_id(doc["request_id"], "--input request_id")
        if request_id is not None and request_id != doc["request_id"]:
            raise invalid_input(f"--request-id {request_id!r} differs from the --input "
                                f"request_id {doc['request_id']!r}")
        request_id = doc["request_id"]
    return model.check_decision(doc["decision"]), request_id


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
    from .context import open_history
    from .evidence import check_runs, observe
    from .store import WriteFailed

    at = model.utc_now()
    ctx = open_history(goal_arg, for_write=True)
    auto = request_id is None
    if auto:
        request_id = _new_request_id()
    with ctx.store.write_lock() as w:
        scan = w.scan()
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
            w.append(line)
        except WriteFailed as exc:
            raise HistoryError("write_uncertain", f"{uncertain}: {exc}") from None
        try:
            w.write_last(seq, sha)
        except WriteFailed as exc:
            raise HistoryError("write_uncertain", f"D{seq} (request id {request_id}) was "
                               f"stored but last was not updated: {exc}") from None
    receipt = model.receipt_line(seq, request_id, sha, False)
    _print(out, receipt, (seq, request_id))
    return receipt


def _print(out, receipt: str, stored) -> None:
    out = out or sys.stdout
    try:
        out.write(receipt + "\n")
        out.flush()
    except OSError as exc:
        if stored is None:
            raise unreadable(f"cannot print the receipt: {exc}") from None
        raise HistoryError("write_uncertain", f"D{stored[0]} (request id {stored[1]}) was "
                           f"stored but its receipt could not be printed: {exc}") from None


HELP = """usage: ha history <goal> add --kind <kind> --summary <text> [--status <status>]
         [--reason <text>] [--target AC-n|EX-n|T001]... [--ref <ref>]... [--checked-ref <ref>]...
         [--builds-on Dn]... [--supersedes Dn[@Dm]]... [--event-at <RFC 3339>] [--request-id <id>]
       ha history <goal> add --input <file|-> [--request-id <id>]
kinds: 관측 원인(가설|확정|기각) 결정 조치(예정|반영) 검증(대기|통과|실패) 막힘 재개
refs:  run:<seq>[:<sha256>]  file:<path>[#<section>]  commit:<sha>[@<repository>]  external:<ref>
prints one decision-receipt/v1 JSON line; see docs/history.md"""


def main(goal_arg: str, argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        sys.stdout.write(HELP + "\n")
        return 0
    decision, request_id = parse_args(argv)
    add(goal_arg, decision, request_id)
    return 0

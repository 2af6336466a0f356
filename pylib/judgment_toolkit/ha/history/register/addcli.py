"""`ha history <goal> add ...`: the argument handling of the write side. Turns argv (flags or
`--input`) into a checked decision and a request id, then hands them to add.add, which
registers the event and prints the receipt. Syntax errors only here (invalid_input, 64).
"""
from __future__ import annotations

import sys

from judgment_toolkit.cliargs import ArgError, HelpRequested, did_you_mean, scan
from judgment_toolkit.ha.history import model
from judgment_toolkit.ha.history.errors import invalid_input

SINGLE = ("--kind", "--summary", "--status", "--reason", "--event-at", "--request-id",
          "--input")
MULTI = ("--target", "--ref", "--checked-ref", "--builds-on", "--supersedes")


def parse_args(argv: list[str]) -> tuple[dict, str | None]:
    """argv after `add` -> (decision, request id or None); syntax errors only."""
    try:
        p = scan(argv, single=SINGLE, multi=MULTI, positional_is_unknown=True)
    except ArgError as e:
        raise invalid_input("add: " + {
            "unknown": f"unknown argument {e.arg!r}"
                       + did_you_mean(e.name, [*SINGLE, *MULTI, "--help"]),
            "needs_value": f"{e.name} needs a value",
            "twice": f"{e.name} given twice"}[e.kind]) from None
    if p.help:
        raise HelpRequested("ha history add")
    single = {k: v for k, v in p.values.items() if k in SINGLE}
    multi = {k: p.values[k] for k in MULTI}
    for name, value in [*single.items(), *((k, v) for k in MULTI for v in multi[k])]:
        model.utf8_len(value, f"{name} value")
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
    from judgment_toolkit.ha.history.strictjson import parse_input
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


def main(goal_arg: str, argv: list[str]) -> int:
    decision, request_id = parse_args(argv)
    from judgment_toolkit.ha.history.register.add import add
    add(goal_arg, decision, request_id)
    return 0

"""Validation of a decision, its evidence and a stored context: field syntax and limits only,
no store or goal lookups. The same checks serve new input and stored lines (verify.py)."""
from __future__ import annotations

from judgment_toolkit.ha.history.errors import invalid_input, limit_exceeded
from judgment_toolkit.ha.history.model.terms import (
    CONTEXT_KEYS, COMMIT_RE, DECISION_KEYS, EVIDENCE_FIELDS, EVIDENCE_MAX, FULL_COMMIT_RE, KINDS,
    LABEL_MAX, OBSERVATION_STATES, REASON_MAX, RELATIONS_MAX, RFC3339_RE, SEQ_MAX, SEQ_RE,
    SHA256_RE, SUMMARY_MAX, TARGET_RE, TARGETS_MAX, TEXT_MAX, event_seq, utf8_len)


def _text(value, what: str, limit: int, one_line: bool = True) -> str:
    if not isinstance(value, str):
        raise invalid_input(f"{what} must be a string")
    if value == "":
        raise invalid_input(f"{what} is empty")
    if utf8_len(value, what) > limit:
        raise limit_exceeded(f"{what} is longer than {limit} bytes")
    if one_line and ("\n" in value or "\r" in value):
        raise invalid_input(f"{what} must be one line")
    return value

def check_rfc3339(value, what="event_at") -> str:
    m = RFC3339_RE.match(value) if isinstance(value, str) else None
    if not m:
        raise invalid_input(f"{what} {value!r} is not an RFC 3339 date-time")
    import datetime
    y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
    try:
        # datetime starts at year 1; RFC 3339 allows 0000, a leap year like 2000
        datetime.datetime(y or 2000, mo, d, h, mi, min(s, 59))
        if s > 60 or (m.group(9) and (int(m.group(9)) > 23 or int(m.group(10)) > 59)):
            raise ValueError
    except ValueError:
        raise invalid_input(f"{what} {value!r} is not a valid date-time") from None
    return value


def check_path(path, what="file path") -> str:
    """Repository-relative POSIX path syntax: not empty/absolute, no NUL, no `..` component."""
    _text(path, what, TEXT_MAX)
    if "\0" in path:
        raise invalid_input(f"{what} contains NUL")
    if path.startswith("/"):
        raise invalid_input(f"{what} {path!r} must be relative to the repository")
    if ".." in path.split("/"):
        raise invalid_input(f"{what} {path!r} must not contain '..'")
    return path


def parse_ref(text: str, checked: bool) -> dict:
    """One `--ref` / `--checked-ref` value -> an evidence object (docs/internals.md shape)."""
    kind, sep, rest = text.partition(":")
    if not sep or kind not in EVIDENCE_FIELDS:
        raise invalid_input(f"reference {text!r} must start with run:, file:, commit: or external:")
    if kind == "run":
        seq, _, sha = rest.partition(":")
        if not SEQ_RE.match(seq):
            raise invalid_input(f"reference {text!r}: run:<seq>[:<sha256>] needs a seq >= 1")
        ev = {"type": "run", "seq": int(seq)}
        if _:
            ev["sha256"] = sha
    elif kind == "file":
        path, hashmark, section = rest.partition("#")
        ev = {"type": "file", "path": path}
        if hashmark:
            ev["section"] = section
    elif kind == "commit":
        commit, at, repository = rest.partition("@")
        ev = {"type": "commit", "commit": commit}
        if at:
            ev["repository"] = repository
    else:
        ev = {"type": "external", "ref": rest}
    if checked:
        ev["checked"] = True
    check_evidence(ev, f"reference {text!r}")
    return ev


def parse_supersedes(text: str) -> dict:
    target, at, after = text.partition("@")
    item = {"id": target}
    if at:
        item["after"] = after
    return item


def check_evidence(ev, what: str) -> None:
    if not isinstance(ev, dict):
        raise invalid_input(f"{what} must be an object")
    kind = ev.get("type")
    if not isinstance(kind, str) or kind not in EVIDENCE_FIELDS:  # a list/object is unhashable
        raise invalid_input(f"{what}: type must be run, file, commit or external")
    required, optional = EVIDENCE_FIELDS[kind]
    for key in ev:
        if key not in ("type", required, optional, "checked"):
            raise invalid_input(f"{what}: unknown field {key!r} for type {kind}")
    if required not in ev:
        raise invalid_input(f"{what}: {required} is required for type {kind}")
    if "checked" in ev and not isinstance(ev["checked"], bool):
        raise invalid_input(f"{what}: checked must be true or false")
    val, opt = ev[required], ev.get(optional)
    if kind == "run":
        if type(val) is not int or not 1 <= val <= SEQ_MAX:
            raise invalid_input(f"{what}: seq must be an integer from 1 to {SEQ_MAX}")
        if optional in ev and not (isinstance(opt, str) and SHA256_RE.match(opt)):
            raise invalid_input(f"{what}: sha256 must be 64 lowercase hex digits")
    elif kind == "file":
        check_path(val, f"{what}: path")
        if optional in ev:
            _text(opt, f"{what}: section", LABEL_MAX)
    elif kind == "commit":
        if not (isinstance(val, str) and COMMIT_RE.match(val)):
            raise invalid_input(f"{what}: commit must be 7 to 64 hex digits")
        if optional in ev:
            _text(opt, f"{what}: repository", TEXT_MAX)
            if "\0" in opt:
                raise invalid_input(f"{what}: repository contains NUL")
    else:
        _text(val, f"{what}: ref", TEXT_MAX)
        if optional in ev:
            _text(opt, f"{what}: version", LABEL_MAX)


def _list(value, what: str, limit: int) -> list:
    if not isinstance(value, list):
        raise invalid_input(f"{what} must be a list")
    if not value:
        raise invalid_input(f"{what} is empty")
    if len(value) > limit:
        raise limit_exceeded(f"{what} has {len(value)} items; at most {limit}")
    return value


def _unique(items, what: str) -> None:
    seen = set()
    for item in items:
        if item in seen:
            raise invalid_input(f"{what} lists {item} twice")
        seen.add(item)


def check_decision(d) -> dict:
    """Validate a decision object (field syntax and limits only; no store or goal lookups)."""
    if not isinstance(d, dict):
        raise invalid_input("decision must be an object")
    for key in d:
        if key not in DECISION_KEYS:
            raise invalid_input(f"decision: unknown field {key!r}")
    if "kind" not in d:
        raise invalid_input("decision: kind is required")
    kind = d["kind"]
    if not isinstance(kind, str) or kind not in KINDS:
        from judgment_toolkit.ha.history.meanings import kind_refusal
        raise invalid_input(kind_refusal(kind))
    if "status" in d:
        status = d["status"]
        if not KINDS[kind]:
            raise invalid_input(f"kind {kind} takes no status (got {status!r})")
        if status not in KINDS[kind]:
            raise invalid_input(f"status {status!r} of kind {kind} must be one of "
                                f"{' '.join(KINDS[kind])}")
    if "summary" not in d:
        raise invalid_input("decision: summary is required")
    _text(d["summary"], "summary", SUMMARY_MAX)
    if "reason" in d:
        _text(d["reason"], "reason", REASON_MAX, one_line=False)
    if "targets" in d:
        for t in _list(d["targets"], "targets", TARGETS_MAX):
            if not isinstance(t, str) or not TARGET_RE.match(t):
                raise invalid_input(f"target {t!r} must look like AC-1, EX-1 or T001")
        _unique(d["targets"], "targets")
    if "evidence" in d:
        for i, ev in enumerate(_list(d["evidence"], "evidence", EVIDENCE_MAX), 1):
            check_evidence(ev, f"evidence {i}")
    if "builds_on" in d:
        for ref in _list(d["builds_on"], "builds_on", RELATIONS_MAX):
            event_seq(ref)
        _unique(d["builds_on"], "builds_on")
    if "supersedes" in d:
        for item in _list(d["supersedes"], "supersedes", RELATIONS_MAX):
            if not isinstance(item, dict) or "id" not in item or \
                    any(k not in ("id", "after") for k in item):
                raise invalid_input('supersedes items must be {"id": "Dn"[, "after": "Dm"]}')
            event_seq(item["id"])
            if "after" in item:
                event_seq(item["after"])
        _unique([item["id"] for item in d["supersedes"]], "supersedes")
    if "event_at" in d:
        check_rfc3339(d["event_at"])
    return d


def relation_seqs(d: dict):
    """Every seq a decision's relations name (builds_on, supersedes ids and their `after`)."""
    for ref in d.get("builds_on", ()):
        yield ref, event_seq(ref)
    for item in d.get("supersedes", ()):
        yield item["id"], event_seq(item["id"])
        if "after" in item:
            yield item["after"], event_seq(item["after"])


def check_context(c, decision: dict, start_key: str) -> None:
    """Light structural check of a stored context (store scan)."""
    if not isinstance(c, dict) or set(c) != set(CONTEXT_KEYS):
        raise invalid_input(f"context must have exactly {', '.join(CONTEXT_KEYS)}")
    if c["start"] != start_key:
        raise invalid_input("context.start is not this history's start record")
    head = c["run_head"]
    if not (isinstance(head, dict) and set(head) == {"seq", "sha256"} and type(head["seq"]) is int
            and 1 <= head["seq"] <= SEQ_MAX and isinstance(head["sha256"], str)
            and SHA256_RE.match(head["sha256"])):
        raise invalid_input("context.run_head must be {seq, sha256}")
    if not isinstance(c["goal"], str) or not c["goal"]:
        raise invalid_input("context.goal must be a path")
    if c["commit"] is not None and not (isinstance(c["commit"], str)
                                        and FULL_COMMIT_RE.match(c["commit"])):
        raise invalid_input("context.commit must be a full commit id or null")
    if not isinstance(c["tree_clean"], bool):
        raise invalid_input("context.tree_clean must be true or false")
    if not isinstance(c["spec_digest"], str) or not SHA256_RE.match(c["spec_digest"]):
        raise invalid_input("context.spec_digest must be a sha256")
    obs, given = c["evidence"], decision.get("evidence", [])
    if not isinstance(obs, list) or len(obs) != len(given):
        raise invalid_input("context.evidence must observe each decision.evidence item")
    for i, (o, ev) in enumerate(zip(obs, given), 1):
        if not isinstance(o, dict) or o.get("type") != ev["type"] or \
                o.get("state") not in OBSERVATION_STATES[ev["type"]]:
            raise invalid_input(f"context.evidence {i} is not an observation of evidence {i}")
        extra = set(o) - {"type", "state"}
        need = {"matched": {"version"}, "read": {"version"}, "found": {"commit"}}.get(o["state"],
                                                                                     set())
        if extra != need:
            raise invalid_input(f"context.evidence {i} has fields {sorted(extra)}")
        if "version" in o and not (isinstance(o["version"], str)
                                   and SHA256_RE.match(o["version"])):
            raise invalid_input(f"context.evidence {i}: version must be a sha256")
        if "commit" in o and not (isinstance(o["commit"], str)
                                  and FULL_COMMIT_RE.match(o["commit"])):
            raise invalid_input(f"context.evidence {i}: commit must be a full id")

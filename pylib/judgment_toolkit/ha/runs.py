"""The run record `<goal>/runs.jsonl`: chain verification, start identity, locked appends.

`verify` is the one chain check every reader uses. An append holds flock on
`<git-dir>/ha/lock`, re-reads and verifies the whole chain under it, then writes exactly one
line with O_APPEND and fsyncs. Nothing here ever repairs or truncates a record.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
from collections import namedtuple

from judgment_toolkit.jsonutil import compact_bytes, utc_now

from . import HA_VERSION, safefs
from .errors import HaError, error

SCHEMA = "run/v1"
SUPPORTED_RULES = ("run-rules/1", "run-rules/2", "run-rules/3", "run-rules/4")
DEFAULT_RULES = "run-rules/3"
HEADER = ("schema", "seq", "prev", "kind", "at", "ha_version")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Chain:
    """The verified prefix of a run record; `error` names the first bad line, if any."""

    def __init__(self, raw, records, error=None, error_line=None, size=0):
        self.raw = raw
        self.records = records
        self.error = error
        self.error_line = error_line
        self.size = size  # bytes read from disk (the whole file)
        self._sha = {}

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def head(self):
        if not self.raw:
            return None
        return {"seq": len(self.raw), "sha256": self.line_sha256(len(self.raw))}

    @property
    def start(self):
        if self.records and self.records[0].get("kind") == "start":
            return self.records[0]
        return None

    @property
    def start_raw(self):
        return self.raw[0] if self.start is not None else None

    def line_sha256(self, seq: int):
        if not 1 <= seq <= len(self.raw):
            return None
        if seq not in self._sha:
            self._sha[seq] = sha256_hex(self.raw[seq - 1])
        return self._sha[seq]


def _reject_duplicates(pairs):
    obj = {}
    for k, v in pairs:
        if k in obj:
            raise ValueError(f"duplicate key {k!r}")
        obj[k] = v
    return obj


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def verify(data: bytes, name: str = "runs.jsonl") -> Chain:
    """Verify raw record bytes; `name` (the repo-relative path) prefixes the error message."""
    raw, records = [], []
    if not data:
        return Chain(raw, records, size=0)
    parts = data.split(b"\n")
    tail = parts.pop()  # b"" when the data ends with LF
    prev_sha = None
    for no, line in enumerate(parts, 1):
        problem = _line_problem(line, no, prev_sha)
        if isinstance(problem, str):
            return Chain(raw, records, f"{name}:{no}: {problem}", no, len(data))
        raw.append(line)
        records.append(problem)
        prev_sha = sha256_hex(line)
    if tail:
        no = len(parts) + 1
        return Chain(raw, records, f"{name}:{no}: no final newline", no, len(data))
    return Chain(raw, records, size=len(data))


def _line_problem(line: bytes, no: int, prev_sha):
    """The parsed record, or a string saying what is wrong with line `no`."""
    try:
        rec = json.loads(line.decode("utf-8"), object_pairs_hook=_reject_duplicates,
                         parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError) as exc:
        return f"not a JSON line ({exc})"
    if not isinstance(rec, dict):
        return "not a JSON object"
    if rec.get("schema") != SCHEMA:
        return f"unknown schema {_show(rec.get('schema'))}"
    seq = rec.get("seq")
    if type(seq) is not int or seq != no:
        return f"seq {_show(seq)} is not the line number {no}"
    prev = rec.get("prev")
    if no == 1:
        if prev is not None:
            return "line 1 has a non-null prev"
    elif prev != prev_sha:
        return f"prev does not match the sha256 of line {no - 1}"
    return rec


def _show(value) -> str:
    return json.dumps(value, ensure_ascii=False)[:80]


def read_chain(goal) -> Chain:
    """Read and verify `<goal>/runs.jsonl` (missing = empty chain). Never raises for integrity."""
    name = f"{goal.path}/runs.jsonl"
    try:
        data = safefs.read_file(goal.runs_path)
    except safefs.FsError as exc:
        if exc.state == "missing":
            return Chain([], [])
        if exc.state == "not_regular":
            return Chain([], [], f"{name}: not a regular file ({exc.detail})", 1)
        raise error("io_error", f"{name}: cannot read: {exc.detail}") from None
    return verify(data, name)


def start_key(chain: Chain) -> str:
    """sha256 of the raw start line: the history store's key for this run."""
    raw = chain.start_raw
    if raw is None:
        raise error("not_started", "not started: the run record has no start line")
    return sha256_hex(raw)


def require_rules(start: dict) -> str:
    rules = start.get("rules")
    if rules not in SUPPORTED_RULES:
        raise error("unsupported_rules", f"unsupported run rules {rules!r} in the start line "
                    f"(supported: {', '.join(SUPPORTED_RULES)})")
    return rules


def integrity_error(chain: Chain) -> HaError:
    return error("record_integrity", f"{chain.error}; nothing was changed (ha never repairs "
                 "a run record)")


class Snapshot(namedtuple("Snapshot", "commit tree_clean spec_digest")):
    """The worktree as a line of the record (or a history event) states it: HEAD, whether the
    tree is clean under the run's rules, and the goal digest. Taken by `snapshot` only. (Tuples,
    not dataclasses or typing: a history call's start-up, tests/python/imports.)"""
    __slots__ = ()

    def fields(self) -> dict:
        return {"commit": self.commit, "tree_clean": self.tree_clean,
                "spec_digest": self.spec_digest}


def snapshot(goal, rules: str) -> Snapshot:
    return Snapshot(goal.repo.head(), goal.is_clean(rules), goal.digest())


# A started goal's run: the verified chain (its `head`), the start line's rules and the start
# key (sha256 of the raw start line, the history store's key).
StartedRun = namedtuple("StartedRun", "goal chain rules start_key")


def open_started(goal, intact: bool = True) -> StartedRun:
    """Read and verify a goal's run record and require a start line. Refusals, in this order:
    unsupported rules (66), a broken chain (record_integrity, 65; only when `intact`: a view
    may read a broken record), no start line (not_started, 65)."""
    chain = read_chain(goal)
    if chain.start is not None:
        require_rules(chain.start)
    if intact and not chain.ok:
        raise integrity_error(chain)
    if chain.start is None:
        raise error("not_started",
                    f"not started: {goal.path} has no start line; run ha start first")
    return StartedRun(goal, chain, chain.start["rules"], start_key(chain))


Appended = namedtuple("Appended", "seq raw record sha256")


class Lock:
    """Blocking advisory flock on `<git-dir>/ha/lock` (per worktree)."""

    def __init__(self, repo):
        self.dir = os.path.join(repo.git_dir, "ha")
        self.path = os.path.join(self.dir, "lock")
        self.fd = None

    def __enter__(self):
        try:
            safefs.ensure_dir(self.dir)
            self.fd = safefs.open_lock(self.path)
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        except (safefs.FsError, OSError) as exc:
            if self.fd is not None:
                os.close(self.fd)
                self.fd = None
            raise error("io_error", f"cannot lock {self.path}: {exc}") from None
        return self

    def __exit__(self, *exc):
        os.close(self.fd)  # closing releases the flock
        self.fd = None


def append(goal, kind: str, fields: dict, check=None, before_write=None) -> Appended:
    """Append one `kind` line under the lock.

    `check(chain)` runs under the lock after verification and may raise to refuse;
    `fields` may be a callable `fields(chain, seq) -> dict` for values that depend on the seq.
    `before_write(seq)` runs under the lock just before the write (e.g. to place a log file).
    """
    with Lock(goal.repo):
        chain = read_chain(goal)
        if not chain.ok:
            raise integrity_error(chain)
        if check is not None:
            check(chain)
        seq = len(chain.raw) + 1
        body = fields(chain, seq) if callable(fields) else fields
        record = {"schema": SCHEMA, "seq": seq,
                  "prev": chain.line_sha256(seq - 1) if seq > 1 else None,
                  "kind": kind, "at": utc_now(), "ha_version": HA_VERSION}
        for k, v in body.items():
            if k not in HEADER:
                record[k] = v
        line = compact_bytes(record)
        if before_write is not None:
            before_write(seq)
        _write_line(goal, chain, line)
        return Appended(seq, line, record, sha256_hex(line))


def _write_line(goal, chain: Chain, line: bytes):
    name = f"{goal.path}/runs.jsonl"
    try:
        fd, created = safefs.open_append(goal.runs_path)
    except safefs.FsError as exc:
        raise error("io_error",
                    f"{name}: cannot open for append: {exc.state} {exc.detail}; nothing "
                    "was written") from None
    try:
        size = os.fstat(fd).st_size
        if size != chain.size:
            raise error("io_error",
                        f"{name}: changed while locked ({size} bytes, read {chain.size}); "
                        "nothing was written")
        try:
            safefs.write_all(fd, line + b"\n")
            os.fsync(fd)
        except OSError as exc:
            raise error("write_uncertain",
                        f"{name}: write failed ({exc.strerror or exc}); the line may have "
                        "applied; inspect before retrying") from None
    finally:
        os.close(fd)
    if created:
        safefs.fsync_dir(goal.abs_path)

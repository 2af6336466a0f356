"""Chain verification: one function, the verified prefix and the first bad line."""
import json

import pytest

from conftest import ha
from helpers_core import GOAL, lines, sha, started

from judgment_toolkit.ha import runs


def line(seq, prev, kind="check", schema="run/v1", **extra):
    rec = {"schema": schema, "seq": seq, "prev": prev, "kind": kind, "at": "2026-01-01T00:00:00Z",
           "ha_version": "0.1.5", **extra}
    return json.dumps(rec, separators=(",", ":")).encode()


def good(n):
    out, prev = [], None
    for i in range(1, n + 1):
        raw = line(i, prev, "start" if i == 1 else "check", rules="run-rules/3")
        out.append(raw)
        prev = sha(raw)
    return out


def test_intact_chain_head():
    raws = good(3)
    chain = runs.verify(b"\n".join(raws) + b"\n", "g/runs.jsonl")
    assert chain.ok and chain.error is None
    assert chain.raw == raws
    assert chain.head == {"seq": 3, "sha256": sha(raws[2])}
    assert chain.start["kind"] == "start" and chain.start_raw == raws[0]
    assert chain.line_sha256(2) == sha(raws[1]) and chain.line_sha256(4) is None
    assert runs.start_key(chain) == sha(raws[0])


def test_empty_chain():
    chain = runs.verify(b"")
    assert chain.ok and chain.head is None and chain.start is None and chain.raw == []


def breaks():
    r = good(3)
    yield "no final newline", b"\n".join(r), 3, 2
    yield "not a JSON line", r[0] + b"\n" + b"{oops\n" + r[2] + b"\n", 2, 1
    yield "not a JSON line", r[0] + b"\n\n", 2, 1
    yield "not a JSON object", r[0] + b"\n[1]\n", 2, 1
    yield "duplicate key", r[0] + b"\n" + r[1][:-1] + b',"seq":2}\n', 2, 1
    yield "unknown schema \"run/v9\"", r[0] + b"\n" + line(2, sha(r[0]), schema="run/v9") + b"\n", 2, 1
    yield "seq 3 is not the line number 2", r[0] + b"\n" + line(3, sha(r[0])) + b"\n", 2, 1
    yield "seq \"2\" is not the line number 2", r[0] + b"\n" + line("2", sha(r[0])) + b"\n", 2, 1
    yield "line 1 has a non-null prev", line(1, "0" * 64, "start") + b"\n", 1, 0
    yield "prev does not match the sha256 of line 1", r[0] + b"\n" + line(2, "a" * 64) + b"\n", 2, 1
    yield "not a JSON line", r[0] + b"\n\xff\xfe\n", 2, 1
    yield "NaN is not JSON", r[0] + b"\n" + line(2, sha(r[0]), x=1).replace(b'"x":1', b'"x":NaN') + b"\n", 2, 1


@pytest.mark.parametrize("words,data,bad,kept", list(breaks()))
def test_each_break(words, data, bad, kept):
    chain = runs.verify(data, "g/runs.jsonl")
    assert not chain.ok
    assert chain.error.startswith(f"g/runs.jsonl:{bad}: ")
    assert words in chain.error
    assert chain.error_line == bad
    assert len(chain.raw) == kept and len(chain.records) == kept


def test_broken_chain_refuses_append_and_is_not_repaired(repo, goal):
    started(repo)
    path = repo / goal / "runs.jsonl"
    data = path.read_bytes()
    path.write_bytes(data[:-1])  # drop the final LF
    r = ha("check", goal, "AC-1", cwd=repo)
    assert r.returncode == 65
    assert r.stderr.startswith(f"ha: record_integrity: {goal}/runs.jsonl:1: no final newline")
    assert path.read_bytes() == data[:-1]
    r = ha("start", goal, "--request", "again", cwd=repo)
    assert r.returncode == 65 and "record_integrity" in r.stderr
    assert path.read_bytes() == data[:-1]
    st = ha("status", goal, "--format", "json", cwd=repo)
    view = json.loads(st.stdout)
    assert view["chain"] == {"ok": False, "lines": 0,
                             "error": f"{goal}/runs.jsonl:1: no final newline"}


def test_tampered_middle_line(repo, goal):
    started(repo)
    assert ha("check", goal, "AC-1", cwd=repo).returncode == 0
    assert ha("check", goal, "AC-1", cwd=repo).returncode == 0
    path = repo / goal / "runs.jsonl"
    raws = lines(repo)
    raws[1] = raws[1].replace(b'"duration_ms":', b'"duration_ms":1')
    path.write_bytes(b"\n".join(raws) + b"\n")
    r = ha("check", goal, "AC-1", cwd=repo)
    assert r.returncode == 65
    assert f"{goal}/runs.jsonl:3: prev does not match the sha256 of line 2" in r.stderr
    st = ha("status", goal, cwd=repo)
    assert st.returncode == 0 and "- chain: broken: " in st.stdout and "(2 verified lines)" in st.stdout


def test_symlinked_record_is_not_followed(repo, goal):
    target = repo / "elsewhere.jsonl"
    target.write_bytes(b"")
    (repo / goal / "runs.jsonl").symlink_to(target)
    r = ha("start", goal, "--request", "q", cwd=repo)
    assert r.returncode == 65 and "not a regular file" in r.stderr
    assert target.read_bytes() == b""


def test_unsupported_rules_exit_66_for_readers(repo, goal):
    raw = line(1, None, "start", goal=goal, rules="run-rules/9")
    (repo / goal / "runs.jsonl").write_bytes(raw + b"\n")
    for args in (("check", goal), ("status", goal), ("status", goal, "--format", "json"),
                 ("start", goal, "--request", "q")):
        r = ha(*args, cwd=repo)
        assert r.returncode == 66, (args, r.stderr)
        assert "unsupported run rules 'run-rules/9'" in r.stderr
    assert (repo / goal / "runs.jsonl").read_bytes() == raw + b"\n"


def test_require_rules():
    for rules in runs.SUPPORTED_RULES:
        assert runs.require_rules({"rules": rules}) == rules
    from judgment_toolkit.ha.errors import HaError
    with pytest.raises(HaError) as exc:
        runs.require_rules({"rules": "run-rules/5"})
    assert exc.value.exit_code == 66
    with pytest.raises(HaError):
        runs.require_rules({})


def test_unsupported_rules_win_over_a_later_break(repo, goal):
    raw = line(1, None, "start", goal=goal, rules="run-rules/0")
    (repo / goal / "runs.jsonl").write_bytes(raw + b"\n" + b"garbage\n")
    assert ha("check", goal, cwd=repo).returncode == 66
    assert ha("status", goal, cwd=repo).returncode == 66

"""judgment-ledger merge BASE OURS THEIRS: git's merge driver for a shared ledger
(docs/team-memory.md, "What the merge does"): a union by record, in a canonical order, that
loses no record and keeps every line that is not one."""
import json
import os

import pytest

from ledger_helpers import hermetic_env, ledger, rec


def line(r, **spelling):
    return (json.dumps(r, separators=(",", ":"), **spelling) + "\n").encode()


def sides(tmp_path, base, ours, theirs):
    paths = []
    for name, data in (("base", base), ("ours", ours), ("theirs", theirs)):
        p = tmp_path / name
        p.write_bytes(b"".join(data) if isinstance(data, list) else data)
        paths.append(p)
    return paths


def folder(tmp_path, name):
    (tmp_path / name).mkdir()
    return tmp_path / name


def merge(tmp_path, base, ours, theirs):
    o, a, b = sides(tmp_path, base, ours, theirs)
    r = ledger("merge", o, a, b, env=hermetic_env(tmp_path))
    return r, a.read_bytes()


def test_both_sides_records_are_kept_once_each_in_time_order(tmp_path):
    common = [line(rec(1)), line(rec(2))]
    ours = common + [line(rec(5)), line(rec(3))]
    theirs = common + [line(rec(4)), line(rec(3))]  # id-3 came through both branches
    r, out = merge(tmp_path, common, ours, theirs)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    assert out == b"".join(line(rec(n)) for n in (1, 2, 3, 4, 5))


def test_both_directions_write_the_same_bytes(tmp_path):
    """Canonical: A into B and B into A converge, so the next merge has nothing to merge."""
    a = [line(rec(3)), line(rec(1)), line(rec(9), ensure_ascii=False), b"garbage\n"]
    b = [line(rec(2)), line(dict(rec(1), question="other"))[:-1] + b"\n", b"zz\n", line(rec(9))]
    r1, one = merge(folder(tmp_path, "1"), [], a, b)
    r2, two = merge(folder(tmp_path, "2"), [], b, a)
    assert one == two and r1.returncode == r2.returncode == 0
    _, three = merge(folder(tmp_path, "3"), [], one, two)
    assert three == one


def test_the_same_record_spelled_twice_is_kept_once_in_its_smallest_spelling(tmp_path):
    compact, spaced = line(rec(1)), (json.dumps(rec(1)) + "\n").encode()
    r, out = merge(tmp_path, [], [spaced], [compact])
    assert r.returncode == 0 and out == min(compact, spaced)


def test_the_same_id_with_two_contents_keeps_both_and_says_so(tmp_path):
    first, second = line(rec(1, answer="a")), line(rec(1, answer="b"))
    r, out = merge(tmp_path, [], [first], [second])
    assert r.returncode == 0
    assert sorted(out.splitlines(keepends=True)) == sorted([first, second])
    assert r.stderr == ("judgment-ledger: merge: 1 id(s) carry two different records ('id-1'); "
                        "both lines are kept; judgment-ledger verify names them\n")


def test_lines_that_are_not_records_are_kept_after_the_records(tmp_path):
    """Conflict markers left by a manual merge, a torn line: never dropped silently."""
    markers = [b"<<<<<<< HEAD\n", b"=======\n", b">>>>>>> other\n"]
    ours = [line(rec(2)), markers[0], b'{"id":"torn\n']
    theirs = [line(rec(1)), markers[1], markers[2], b"\n"]
    r, out = merge(tmp_path, [], ours, theirs)
    assert r.returncode == 0
    assert out == b"".join([line(rec(1)), line(rec(2))] + sorted(markers + [b'{"id":"torn\n']))


def test_a_non_record_line_one_side_removed_stays_removed(tmp_path):
    """The base tells a fix (one side deleted the marker) from an addition (one side added it);
    a record is never removed that way: records are immutable and the merge is their union."""
    base = [line(rec(1)), b"=======\n", line(rec(2))]
    ours = [line(rec(1))]  # fixed by hand: the marker and, by mistake, id-2 deleted
    theirs = base + [line(rec(3))]
    r, out = merge(tmp_path, base, ours, theirs)
    assert r.returncode == 0 and out == b"".join(line(rec(n)) for n in (1, 2, 3))


def test_lines_without_a_final_newline_and_foreign_spellings_merge(tmp_path):
    foreign = json.dumps(dict(reversed(list(rec(7, question="caf\u00e9 \\ x").items()))))
    ours = line(rec(1)) + foreign.encode()  # no final LF; id not first; escapes
    r, out = merge(tmp_path, b"", ours, line(rec(8)))
    assert r.returncode == 0
    assert out == line(rec(1)) + foreign.encode() + b"\n" + line(rec(8))


def test_times_are_compared_as_utc_not_as_text(tmp_path):
    late = rec(1, decided_at="2026-01-01T09:00:00+09:00")   # 00:00 UTC
    early = rec(2, decided_at="2025-12-31T23:30:00Z")
    r, out = merge(tmp_path, [], [line(late)], [line(early)])
    assert out == line(early) + line(late)


def test_the_merged_file_verifies(tmp_path):
    o, a, b = sides(tmp_path, [], [line(rec(n)) for n in range(1, 40, 2)],
                    [line(rec(n)) for n in range(40)])
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=a)
    assert ledger("merge", o, a, b, env=env).returncode == 0
    v = ledger("verify", "--json", env=env)
    assert (v.returncode, json.loads(v.stdout)) == (0, {"ok": True, "records": 40, "bad": []})


@pytest.mark.parametrize("args, message", [
    ((), "needs BASE OURS THEIRS (git's %O %A %B), got 0 argument(s)"),
    (("a", "b"), "needs BASE OURS THEIRS (git's %O %A %B), got 2 argument(s)"),
    (("a", "b", "c", "d"), "unexpected argument 'd'"),
    (("--json", "a", "b", "c"), "--json: unknown flag"),
])
def test_usage_errors(tmp_path, args, message):
    r = ledger("merge", *args, env=hermetic_env(tmp_path))
    assert (r.returncode, r.stderr) == (64, f"judgment-ledger: merge: {message}\n")


def test_a_missing_side_is_a_usage_error_and_ours_is_unchanged(tmp_path):
    o, a, b = sides(tmp_path, [], [line(rec(1))], [line(rec(2))])
    b.unlink()
    r = ledger("merge", o, a, b, env=hermetic_env(tmp_path))
    assert (r.returncode, r.stderr) == (64, f"judgment-ledger: merge: not a file: '{b}'\n")
    assert a.read_bytes() == line(rec(1))


def test_an_unreadable_side_is_exit_1_and_ours_is_unchanged(tmp_path):
    o, a, b = sides(tmp_path, [], [line(rec(1))], [line(rec(2))])
    b.chmod(0)
    if os.access(b, os.R_OK):  # running as root: the file stays readable; nothing to test
        pytest.skip("root reads a file of mode 000")
    r = ledger("merge", o, a, b, env=hermetic_env(tmp_path))
    assert r.returncode == 1 and "cannot read" in r.stderr
    assert a.read_bytes() == line(rec(1))


def test_time_is_linear_counted_in_parses(tmp_path, monkeypatch):
    """Lines as append writes them are never parsed; only an id with two lines is (counted,
    not timed: bench/team.py has the figures)."""
    from judgment_toolkit.judgment import merge as merge_mod
    calls = []
    real = merge_mod.json.loads
    monkeypatch.setattr(merge_mod.json, "loads", lambda s, *a, **k: calls.append(1) or real(s))
    ours = [line(rec(n)).rstrip(b"\n") for n in range(0, 3000)]
    theirs = [line(rec(n)).rstrip(b"\n") for n in range(1000, 4000)] + \
        [line(rec(1, answer="other")).rstrip(b"\n")]
    lines, damaged = merge_mod.merged_lines([], ours, theirs)
    assert len(lines) == 4001 and damaged == ["id-1"]
    assert len(calls) == 2  # the two lines of id-1

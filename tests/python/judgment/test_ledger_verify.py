"""judgment-ledger.sh verify [--json]: every line a valid judgment-ledger.v1 record
(Judgment Ledger v1, section 'Schema'), else exit 1 naming each bad line. Read-only."""
import hashlib
import json
import os

from ledger_helpers import append_args, hermetic_env, ledger, rec, write_records


def env_for(tmp_path, path):
    return hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)


def test_ledger_written_by_append_is_valid(tmp_path):
    path = tmp_path / "l.jsonl"
    env = env_for(tmp_path, path)
    for n in range(3):
        assert ledger(*append_args(question=f"q{n}", tags="a,b"), env=env).returncode == 0
    r = ledger("verify", env=env)
    assert (r.returncode, r.stdout, r.stderr) == (0, f"ok: 3 records in {path}\n", "")
    r = ledger("verify", "--json", env=env)
    assert json.loads(r.stdout) == {"ok": True, "records": 3, "bad": []} and r.returncode == 0


def test_missing_ledger_is_said_with_its_path_and_how_it_was_chosen(tmp_path):
    """No file at the path is exit 1: nothing was verified, and a mistyped path must show."""
    path = tmp_path / "none.jsonl"
    r = ledger("verify", "--json", env=env_for(tmp_path, path))
    doc = json.loads(r.stdout)
    assert r.returncode == 1
    assert {k: doc[k] for k in ("ok", "records", "bad", "missing")} == \
        {"ok": False, "records": 0, "bad": [], "missing": True}
    assert doc["error"].startswith(f"no ledger at {path} (chosen from $HARNESS_JUDGMENT_LEDGER")
    r = ledger("verify", env=env_for(tmp_path, path))
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == f"judgment-ledger: verify: {doc['error']}\n"
    assert not path.exists()


def test_missing_ledger_under_the_git_top_level_names_that_rule(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "sub").mkdir()
    r = ledger("verify", env=hermetic_env(tmp_path), cwd=repo / "sub")
    assert r.returncode == 1
    assert r.stderr == (f"judgment-ledger: verify: no ledger at {repo}/.claude/state/"
                        "judgment-ledger.jsonl (chosen under the git top level; see "
                        "judgment-ledger verify --help); the first append creates it\n")


def test_every_bad_line_is_named_with_its_reason(tmp_path):
    path = tmp_path / "l.jsonl"
    good = [json.dumps(rec(n), separators=(",", ":")).encode() for n in range(1, 4)]
    lines = [
        good[0],
        b"{not json",
        b"",
        json.dumps(dict(rec(4), extra=1)).encode(),
        json.dumps(dict(rec(5), decided_at="yesterday")).encode(),
        b'{"id":"x","id":"y"}',
        "\u00e9".encode("latin-1"),
        b"[1,2]",
        good[1],
        json.dumps(rec(1, answer="other")).encode(),  # id-1 again, another record
        b'{"id":NaN}',
        good[2],
    ]
    data = b"\n".join(lines) + b"\n" + b'{"id":"torn'
    path.write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    r = ledger("verify", env=env_for(tmp_path, path))
    assert r.returncode == 1
    assert r.stdout.splitlines() == [
        "line 1: id 'id-1' is on a later line too (line 10) with different content; readers use "
        "this line",
        "line 2: not JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))",
        "line 3: empty line",
        "line 4: $: Additional properties are not allowed ('extra' was unexpected)",
        "line 5: $.decided_at: 'yesterday' does not match "
        "'^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$'",
        "line 6: repeats the key 'id'",
        "line 7: not UTF-8 (unexpected end of data at byte 0)",
        "line 8: not a JSON object (a list)",
        "line 10: id 'id-1' is already on line 1 with different content (readers use line 1)",
        "line 11: not JSON (NaN is not JSON)",
        "line 13: incomplete line (no final newline; a torn write?)",
    ]
    assert r.stderr == f"judgment-ledger: verify: 3 valid records, 11 bad lines in {path}\n"
    j = ledger("verify", "--json", env=env_for(tmp_path, path))
    doc = json.loads(j.stdout)
    assert j.returncode == 1 and doc["ok"] is False and doc["records"] == 3
    assert [b["line"] for b in doc["bad"]] == [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 13]
    assert doc["bad"][2] == {"line": 3, "reason": "empty line"}
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest  # read-only


def test_long_reasons_are_cut(tmp_path):
    path = tmp_path / "l.jsonl"
    write_records(path, [dict(rec(1), answer=["x" * 5000])])
    line = ledger("verify", env=env_for(tmp_path, path)).stdout.splitlines()[0]
    assert line.startswith("line 1: $.answer: ") and line.endswith("…") and len(line) < 320


def test_unreadable_or_odd_ledger_is_exit_1(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    r = ledger("verify", env=env_for(tmp_path, fifo))
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == f"judgment-ledger: verify: cannot read {fifo}: not a regular file (a FIFO)\n"
    r = ledger("verify", "--json", env=env_for(tmp_path, tmp_path))
    assert r.returncode == 1
    assert json.loads(r.stdout) == {"ok": False, "records": 0, "bad": [], "error":
                                    f"cannot read {tmp_path}: not a regular file (a directory)"}


def test_usage(tmp_path):
    r = ledger("verify", "--fix", env=env_for(tmp_path, tmp_path / "l"))
    assert (r.returncode, r.stderr) == (64, "judgment-ledger: verify: --fix: unknown flag\n")
    r = ledger("verify", "extra", env=env_for(tmp_path, tmp_path / "l"))
    assert r.returncode == 64 and "unexpected argument 'extra'" in r.stderr

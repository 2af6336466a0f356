"""Long lines and the record cap (judgment.lines): lines of any length stream in bounded
memory, append refuses a record over the cap, the readers skip an over-long line and verify
names it (docs/judgment-ledger.md, "The record")."""
import io
import json
import random
import subprocess
import sys

import pytest

from ledger_helpers import LEDGER_SH, append_args, hermetic_env, ledger, rec, write_records

from judgment_toolkit.judgment import lines as lines_mod
from judgment_toolkit.judgment.lines import RECORD_MAX, Overlong


def expected(data, cap):
    """What numbered() must yield, from bytes.split: the obvious reading of the same file."""
    parts = data.split(b"\n")
    out, offset = [], 0
    for i, part in enumerate(parts):
        complete = i < len(parts) - 1
        if not complete and not part:
            break
        out.append((len(out) + 1, part if len(part) <= cap else ("long", offset, len(part)), complete))
        offset += len(part) + 1
    return out


def numbered(data, chunk, cap):
    return [(n, ("long", line.offset, line.length) if type(line) is Overlong else line, complete)
            for n, line, complete in lines_mod.numbered(io.BytesIO(data), chunk, cap)]


def test_every_line_shape_at_every_chunk_size_and_cap():
    rng = random.Random(20)
    for _ in range(400):
        data = b"\n".join(b"x" * rng.choice([0, 1, 2, 5, 9, 20, 40]) for _ in range(rng.randint(0, 8)))
        if rng.random() < 0.5:
            data += b"\n"
        for chunk in (1, 2, 3, 7, 16, 64):
            for cap in (1, 3, 8, 30, 100):
                assert numbered(data, chunk, cap) == expected(data, cap), (data, chunk, cap)


def write_long_ledger(path, size):
    """A ledger of: record 1, one line of about `size` bytes (a demo record whose question
    holds the query word, then padding), record 2."""
    first, last = (json.dumps(rec(n, question="queue pick"), separators=(",", ":")).encode()
                   for n in (1, 2))
    with open(path, "wb") as f:
        f.write(first + b"\n" + b'{"id":"id-long","project":"demo","decided_at":'
                b'"2026-01-09T00:00:00Z","answer":"a","card_ref":"c","question":"queue pick ')
        block = b"x" * (1 << 20)
        for _ in range(size >> 20):
            f.write(block)
        f.write(b'"}\n' + last + b"\n")


PEAK = """
import resource, subprocess, sys
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


@pytest.mark.parametrize("command, code", [
    (["search", "--project", "demo", "--query", "queue"], 0),
    (["prime", "--project", "demo"], 0),
    (["list", "--project", "demo"], 0),
    (["show", "id-long", "--project", "demo"], 1),
    (["verify"], 1),
])
def test_one_120_mb_line_stays_within_a_bounded_rss(tmp_path, command, code):
    """A small parent runs the command: its RUSAGE_CHILDREN peak is the command's own (the
    reader holds one chunk and at most RECORD_MAX, never the 120 MB line)."""
    path = tmp_path / "l.jsonl"
    write_long_ledger(path, 120 << 20)
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)
    r = subprocess.run([sys.executable, "-c", PEAK, str(LEDGER_SH), *command], env=env,
                       capture_output=True, text=True, check=True)
    status, peak_kib = map(int, r.stdout.split())
    assert status == code
    assert peak_kib < 64 * 1024, peak_kib


def test_search_recall_and_prime_skip_the_long_line(tmp_path):
    path = tmp_path / "l.jsonl"
    write_long_ledger(path, 2 * RECORD_MAX)
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)
    r = ledger("search", "--project", "demo", "--query", "queue", env=env)
    assert r.returncode == 0 and [json.loads(x)["id"] for x in r.stdout.splitlines()] == ["id-2", "id-1"]
    r = ledger("recall", "--project", "demo", "--question", "queue pick", env=env)
    assert [i["mem_id"] for i in json.loads(r.stdout)] == ["judgment-ledger:id-2", "judgment-ledger:id-1"]
    r = ledger("prime", "--project", "demo", env=env)
    assert r.returncode == 0 and "id-long" not in r.stdout and "`id-2`" in r.stdout
    assert r.stderr == ""
    r = ledger("list", "--project", "demo", "--json", env=env)
    assert [d["id"] for d in json.loads(r.stdout)["decisions"]] == ["id-2", "id-1"]
    r = ledger("show", "id-long", "--project", "demo", env=env)
    assert r.returncode == 1 and "no decision 'id-long'" in r.stderr


def test_verify_names_the_long_line_by_its_number(tmp_path):
    path = tmp_path / "l.jsonl"
    write_long_ledger(path, 2 * RECORD_MAX)
    r = ledger("verify", env=hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path))
    assert r.returncode == 1
    assert r.stdout.startswith("line 2: ")
    assert "longer than the record cap of 4 MiB" in r.stdout and r.stdout.count("\n") == 1
    assert r.stderr.endswith("2 valid records, 1 bad line in " + str(path) + "\n")


def test_append_refuses_a_record_over_the_cap_and_writes_nothing(tmp_path):
    """Judgment Ledger v1, section 'Fail-Open': a record the caller got wrong exits 1."""
    path = tmp_path / "l.jsonl"
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)
    fields = {"project": "demo", "question": "q" * RECORD_MAX, "answer": "a", "card_ref": "c"}
    r = subprocess.run([str(LEDGER_SH), "append", "--input", "-"], env=env,
                       input=json.dumps(fields), capture_output=True, text=True)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith("judgment-ledger: append rejected (record: ")
    assert "over the record cap of 4 MiB" in r.stderr
    assert not path.exists()
    fields["question"] = "q" * (RECORD_MAX - 200)  # just under: stored
    r = subprocess.run([str(LEDGER_SH), "append", "--input", "-"], env=env,
                       input=json.dumps(fields), capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert ledger("verify", env=env).returncode == 0


def test_append_input_is_not_read_past_what_a_record_can_need(tmp_path):
    """Over appending.INPUT_MAX bytes of stdin is refused without holding it all."""
    from judgment_toolkit.judgment import appending
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl")
    body = b'{"project":"demo","question":"' + b" " * (appending.INPUT_MAX + 10) + b'"}'
    r = subprocess.run([str(LEDGER_SH), "append", "--input", "-"], env=env, input=body,
                       capture_output=True)
    assert r.returncode == 1
    assert b"append rejected (--input: over " in r.stderr and b"4 MiB" in r.stderr
    assert not (tmp_path / "l.jsonl").exists()


def test_an_id_retry_does_not_parse_a_long_line_holding_the_id(tmp_path):
    """find_id (append --id) passes a line over the cap: it is no record, so the id is new."""
    path = tmp_path / "l.jsonl"
    write_long_ledger(path, 2 * RECORD_MAX)
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)
    r = ledger(*append_args(id="id-long"), env=env)
    assert r.returncode == 0 and r.stderr == ""
    assert json.loads(path.read_bytes().splitlines()[-1])["id"] == "id-long"
    assert path.read_bytes().count(b'"id":"id-long"') == 2


def test_streaming_read_of_other_projects_is_unchanged_by_the_cap(tmp_path):
    path = tmp_path / "l.jsonl"
    write_records(path, [rec(n, project=f"p{n % 3}") for n in range(30)])
    r = ledger("search", "--project", "p1", "--query", "", env=hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path))
    assert len(r.stdout.splitlines()) == 3

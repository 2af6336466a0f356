"""Appends from many processes at once never interleave, tear or lose a line."""
import json
import subprocess
import sys

from ledger_helpers import PYLIB, append_args, hermetic_env, ledger, records

from judgment_toolkit.judgment import schema

WORKER = """
import sys
from judgment_toolkit.judgment import record, writer
path, worker, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
for i in range(count):
    rec = record.build({"project": "p%d" % (i % 3), "question": "q " * (i % 50 + 1),
                        "answer": "w%s-%d" % (worker, i), "card_ref": "c", "rationale": "r" * 300,
                        "tags": "w%s,n%d" % (worker, i)})
    writer.append(path, record.to_line(rec))
"""


def test_8_processes_times_250_appends_leave_exactly_2000_valid_lines(tmp_path):
    path = tmp_path / "ledger.jsonl"
    env = hermetic_env(tmp_path, PYTHONPATH=PYLIB)
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(path), str(w), "250"], env=env)
             for w in range(8)]
    assert [p.wait(timeout=300) for p in procs] == [0] * 8
    raw = path.read_bytes()
    assert raw.endswith(b"\n")
    lines = raw.split(b"\n")[:-1]
    assert len(lines) == 2000
    validator = schema.validator(schema.LEDGER)
    answers = set()
    for line in lines:
        rec = json.loads(line)
        validator.validate(rec)
        answers.add(rec["answer"])
    assert answers == {f"w{w}-{i}" for w in range(8) for i in range(250)}


def test_concurrent_appends_through_the_script(tmp_path):
    path = tmp_path / "ledger.jsonl"
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)
    from ledger_helpers import LEDGER_SH
    procs = [subprocess.Popen([str(LEDGER_SH), *append_args(answer=f"a{i}")], env=env)
             for i in range(16)]
    assert [p.wait(timeout=120) for p in procs] == [0] * 16
    assert sorted(r["answer"] for r in records(path)) == sorted(f"a{i}" for i in range(16))

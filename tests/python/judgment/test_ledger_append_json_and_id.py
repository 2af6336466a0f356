"""`append --json` prints the stored record; `--id` makes retries idempotent (same
content: exit 0, no second line; other content: exit 1 naming the id, ledger unchanged);
`record-answer --json` prints the ledger record and the harness-mem outcome."""
import json

from ledger_helpers import (CaptureServer, append_args, card, hermetic_env, ledger, lines,
                            write_card, write_records, rec)


def test_append_is_silent_by_default_and_json_prints_the_stored_line(tmp_path):
    path = tmp_path / "l.jsonl"
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)
    r = ledger(*append_args(question="first"), env=env)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    r = ledger(*append_args(question="Café 日本"), "--json", env=env)
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout.encode("utf-8") == lines(path)[1] + b"\n"  # the very bytes stored


def test_json_prints_nothing_when_the_append_is_skipped(tmp_path):
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER="/dev/full")
    r = ledger(*append_args(), "--json", env=env)
    assert r.returncode == 0 and r.stdout == "" and "append skipped" in r.stderr


def test_same_id_same_content_is_not_written_twice(tmp_path):
    path = tmp_path / "l.jsonl"
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)
    args = append_args(id="dec-1", rationale="why", tags="a,b")
    assert ledger(*args, env=env).returncode == 0
    before = path.read_bytes()
    r = ledger(*args, "--json", env=env)
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout.encode("utf-8") == before  # the record stored the first time, its time too
    r = ledger(*args, env=env)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    assert path.read_bytes() == before


def test_same_id_other_content_is_rejected_and_the_ledger_unchanged(tmp_path):
    path = tmp_path / "l.jsonl"
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)
    assert ledger(*append_args(id="dec-1", answer="postgres"), env=env).returncode == 0
    before = path.read_bytes()
    r = ledger(*append_args(id="dec-1", answer="redis"), "--json", env=env)
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == ("judgment-ledger: append rejected (id: 'dec-1' is already in the ledger "
                        "with other content; nothing was written)\n")
    assert path.read_bytes() == before


def test_the_id_is_found_anywhere_and_only_as_an_id(tmp_path):
    """The check streams the whole ledger (other projects, torn and foreign lines, escaped
    spellings) and compares ids exactly: a question that mentions the id is not that record."""
    path = tmp_path / "l.jsonl"
    recs = [rec(n, project=f"p{n % 3}") for n in range(2000)]
    recs[5]["question"] = "dec-9"  # the id's text inside another field
    write_records(path, recs)
    with open(path, "ab") as f:
        f.write(b'{"id":"dec\\u002d9","project":"demo","decided_at":"2026-01-01T00:00:00Z",'
                b'"question":"escaped","answer":"a","rationale":"","card_ref":"c","tags":[]}\n')
        f.write(b'{"id":"torn","proj')
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)
    r = ledger(*append_args(id="dec-9"), env=env)  # other content than the escaped record
    assert r.returncode == 1 and "'dec-9' is already in the ledger" in r.stderr
    r = ledger(*append_args(id="id-1999", project="p1", question="question 1999", answer="a",
                            card_ref="c"), env=env)
    assert (r.returncode, r.stderr) == (0, "")  # same content as line 2000 (its time aside)
    r = ledger(*append_args(id="fresh"), env=env)
    assert (r.returncode, r.stderr) == (0, "")
    assert json.loads(lines(path)[-1])["id"] == "fresh"
    assert lines(path)[-2] == b'{"id":"torn","proj'


def test_record_answer_json(tmp_path):
    path = tmp_path / "l.jsonl"
    card_path = write_card(tmp_path / "card.json")
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)
    argv = ["record-answer", card_path, "--answer", "postgres", "--why", "w", "--project",
            "demo", "--session", "s"]
    r = card(*argv, env=env)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    r = card(*argv, "--json", env=env)
    assert (r.returncode, r.stderr) == (0, "")
    out = json.loads(r.stdout)
    assert out == {"ledger": json.loads(lines(path)[-1]), "harness_mem": "not_configured"}
    with CaptureServer() as server:
        r = card(*argv, "--json", env=dict(env, HARNESS_MEM_HOME=str(tmp_path),
                                            HARNESS_MEM_PORT=str(server.port)))
    assert json.loads(r.stdout)["harness_mem"] == "recorded" and len(server.requests) == 1
    skip = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER="/dev/full",
                        HARNESS_MEM_HOME=tmp_path, HARNESS_MEM_PORT=1)
    r = card(*argv, "--json", env=skip)
    assert json.loads(r.stdout) == {"ledger": None, "harness_mem": "unreachable"}
    assert r.stderr.splitlines()[0] == "judgment-card: record skipped (unreachable)"
    assert r.stderr.splitlines()[1].startswith("judgment-ledger: append skipped (")

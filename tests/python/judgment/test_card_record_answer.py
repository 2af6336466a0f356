"""judgment-card.sh record-answer: harness-mem checkpoint (real local HTTP server), then the
ledger append through judgment-ledger.sh append; both fail-open, exit 0."""
import json

import pytest

from ledger_helpers import (CARD, CARD_SH, CaptureServer, RawServer, card, closed_port,
                            hermetic_env, records, run, write_card)

from judgment_toolkit.judgment import mem

QUESTION_61 = "Q" * 61


def args(path, answer="postgres", why="fewer moving parts", project="demo", session="sess-1"):
    return ["record-answer", path, "--answer", answer, "--why", why, "--project", project,
            "--session", session]


@pytest.fixture
def card_path(tmp_path):
    return write_card(tmp_path / "card.json")


def mem_env(tmp_path, port, **extra):
    return hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl",
                        HARNESS_MEM_HOME=tmp_path / "mem", HARNESS_MEM_HOST="127.0.0.1",
                        HARNESS_MEM_PORT=port, **extra)


def assert_appended(tmp_path, card_path, why="fewer moving parts", question=CARD["question"]):
    [rec] = records(tmp_path / "l.jsonl")
    assert {k: rec[k] for k in ("project", "question", "answer", "rationale", "card_ref", "tags")} == {
        "project": "demo", "question": question, "answer": "postgres", "rationale": why,
        "card_ref": str(card_path), "tags": ["judgment-card"]}


def test_posts_the_checkpoint_field_by_field_then_appends(tmp_path, card_path):
    with CaptureServer() as server:
        env = mem_env(tmp_path, server.port, HARNESS_MEM_ADMIN_TOKEN="s3cret",
                      HARNESS_MEM_PLATFORM="claude-code")
        r = card(*args(card_path), env=env)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    [req] = server.requests
    assert req["method"] == "POST" and req["path"] == "/v1/checkpoints/record"
    assert req["headers"]["Authorization"] == "Bearer s3cret"
    assert req["headers"]["Content-Type"] == "application/json"
    body = json.loads(req["body"].decode("utf-8"))
    assert list(body) == ["session_id", "title", "content", "platform", "project", "tags"]
    assert body["session_id"] == "sess-1"
    assert body["title"] == "judgment: " + CARD["question"]
    assert body["platform"] == "claude-code"
    assert body["project"] == "demo"
    assert body["tags"] == ["judgment-card"]
    assert isinstance(body["content"], str)
    assert json.loads(body["content"]) == {"card": CARD, "answer": "postgres", "why": "fewer moving parts"}
    assert_appended(tmp_path, card_path)


def test_title_takes_the_first_60_characters_and_defaults_apply(tmp_path):
    path = write_card(tmp_path / "card.json", question="é" * 59 + "XYZ")
    with CaptureServer() as server:
        r = card(*args(path), env=mem_env(tmp_path, server.port))
    assert r.returncode == 0
    [req] = server.requests
    body = json.loads(req["body"])
    assert body["title"] == "judgment: " + "é" * 59 + "X"
    assert body["platform"] == "harness"
    assert "Authorization" not in req["headers"]


@pytest.mark.parametrize("status", [500, 404, 301, 199])
def test_non_2xx_is_skipped_and_still_appends(tmp_path, card_path, status):
    with CaptureServer(status=status) as server:
        r = card(*args(card_path), env=mem_env(tmp_path, server.port))
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "judgment-card: record skipped (unreachable)\n")
    assert len(server.requests) == 1  # a redirect is not followed
    assert_appended(tmp_path, card_path)


def test_unreachable_is_skipped_and_still_appends(tmp_path, card_path):
    r = card(*args(card_path), env=mem_env(tmp_path, closed_port()))
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "judgment-card: record skipped (unreachable)\n")
    assert_appended(tmp_path, card_path)


def test_a_silent_server_times_out_after_1_s(tmp_path, card_path):
    # accepts the connection and reads the request, never answers: the client must give up by
    # itself (the server sees it close the connection) after about 1 s. Asserted with a 10x
    # margin either way (0.1 s .. 10 s), never the exact time (figures belong in bench/).
    with RawServer(lambda srv, conn: srv.wait_for_close(conn)) as server:
        r = run(CARD_SH, *args(card_path), env=mem_env(tmp_path, server.port), timeout=10)
        assert server.client_closed.wait(10)
    assert (r.returncode, r.stderr) == (0, "judgment-card: record skipped (unreachable)\n")
    assert server.got_request.is_set()
    assert 0.1 <= server.open_for <= 10
    assert_appended(tmp_path, card_path)


def test_the_1_s_timeout_bounds_the_whole_request(tmp_path, card_path):
    # A server that answers 200 but never finishes: one header byte every 0.2 s, forever. Each
    # read is well within 1 s, so only a bound on the whole request ends it: the client gives
    # up and closes the connection, which the server sees while it is still writing. Without
    # the bound the card would wait forever (the 10 s subprocess timeout, 10x the bound, fails
    # the test instead).
    def trickle(srv, conn):
        conn.sendall(b"HTTP/1.1 200 OK\r\nX-Slow: ")
        while not srv.stop.wait(0.2):
            conn.sendall(b"a")
        raise OSError("test over")

    with RawServer(trickle) as server:
        r = run(CARD_SH, *args(card_path), env=mem_env(tmp_path, server.port), timeout=10)
        assert server.client_closed.wait(10)
    assert (r.returncode, r.stderr) == (0, "judgment-card: record skipped (unreachable)\n")
    assert server.got_request.is_set()
    assert_appended(tmp_path, card_path)


@pytest.mark.parametrize("marker", [".harness-mem", ".claude-mem"])
def test_configured_by_a_folder_in_home(tmp_path, card_path, marker):
    with CaptureServer() as server:
        env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl",
                           HARNESS_MEM_PORT=server.port)
        (tmp_path / "home" / marker).mkdir()
        r = card(*args(card_path), env=env)
    assert (r.returncode, r.stderr) == (0, "")
    assert len(server.requests) == 1


def test_not_configured_posts_nothing_and_appends(tmp_path, card_path):
    with CaptureServer() as server:
        env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl",
                           HARNESS_MEM_PORT=server.port)
        r = card(*args(card_path), env=env)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    assert server.requests == []
    assert_appended(tmp_path, card_path)


def test_answer_must_be_an_option_id(tmp_path, card_path):
    with CaptureServer() as server:
        r = card(*args(card_path, answer="Postgres"), env=mem_env(tmp_path, server.port))
    assert r.returncode == 1
    assert r.stderr == (f"judgment-card: record-answer: --answer 'Postgres' is not an option of "
                        f"{card_path} (valid: redis, postgres)\n")
    assert server.requests == [] and not (tmp_path / "l.jsonl").exists()


def test_invalid_card_is_refused_before_anything_happens(tmp_path):
    path = write_card(tmp_path / "card.json", confidence="maybe")
    with CaptureServer() as server:
        r = card(*args(path), env=mem_env(tmp_path, server.port))
    assert r.returncode == 1 and "$.confidence" in r.stderr
    assert server.requests == [] and not (tmp_path / "l.jsonl").exists()


def test_ledger_failure_is_fail_open(tmp_path, card_path):
    (tmp_path / "blocker").write_text("")
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path / "blocker" / "l.jsonl")
    r = card(*args(card_path), env=env)
    assert r.returncode == 0
    [line] = r.stderr.splitlines()
    assert line.startswith("judgment-ledger: append skipped (")


def test_a_question_no_command_line_could_carry_is_recorded(tmp_path):
    # The record goes to append on stdin (--input -; docs/judgment-ledger.md, "How it works"):
    # a NUL, valid in JSON and UTF-8, reaches the ledger; no argument list is involved.
    path = tmp_path / "card.json"
    path.write_text(json.dumps(dict(CARD, question="Null\u0000inside?")), encoding="ascii")
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl")
    r = card(*args(path), env=env)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    [stored] = records(tmp_path / "l.jsonl")
    assert stored["question"] == "Null\u0000inside?"


def test_a_lone_surrogate_question_is_rejected_by_the_ledger_not_a_crash(tmp_path):
    # Valid JSON, valid card, but not encodable as UTF-8: the ledger rejects the record (its
    # one line on stderr), and record-answer exits 1 with it: Judgment Ledger v1, section
    # 'Fail-Open', keeps an invalid record from the caller an error.
    path = tmp_path / "card.json"
    path.write_text(json.dumps(dict(CARD, question="Lone \ud800 surrogate?")), encoding="ascii")
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl")
    r = card(*args(path), env=env)
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == "judgment-ledger: append rejected (question: not valid UTF-8)\n"
    assert not (tmp_path / "l.jsonl").exists()


def test_a_field_over_128_kib_is_recorded(tmp_path):
    """A card field larger than one argument may be (128 KiB) is recorded,
    because record-answer appends in-process through the ledger command's own function."""
    big = "q" * (200 * 1024)
    path = tmp_path / "card.json"
    path.write_text(json.dumps(dict(CARD, question=big)), encoding="ascii")
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl")
    r = card(*args(path), env=env)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    [stored] = records(tmp_path / "l.jsonl")
    assert stored["question"] == big and stored["tags"] == ["judgment-card"]


def test_a_lone_surrogate_still_reaches_harness_mem_as_valid_json(tmp_path):
    path = tmp_path / "card.json"
    path.write_text(json.dumps(dict(CARD, question="Lone \ud800 surrogate?")), encoding="ascii")
    with CaptureServer() as server:
        r = card(*args(path), env=mem_env(tmp_path, server.port))
    assert r.returncode == 1  # the ledger's refusal (see above)
    [line] = r.stderr.splitlines()  # only the ledger's refusal, no traceback
    assert line.startswith("judgment-ledger: append rejected (")
    [req] = server.requests
    body = json.loads(req["body"].decode("utf-8"))
    assert body["title"] == "judgment: Lone \ud800 surrogate?"
    assert json.loads(body["content"])["card"]["question"] == "Lone \ud800 surrogate?"


def test_empty_why_is_an_empty_rationale(tmp_path, card_path):
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl")
    assert card(*args(card_path, why=""), env=env).returncode == 0
    assert_appended(tmp_path, card_path, why="")


def test_required_flags(tmp_path, card_path):
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl")
    full = args(card_path)
    for flag in ("--answer", "--why", "--project", "--session"):
        i = full.index(flag)
        r = card(*(full[:i] + full[i + 2:]), env=env)
        assert r.returncode == 64 and f"missing {flag}" in r.stderr, flag
    r = card(*args(card_path, session=""), env=env)
    assert r.returncode == 64 and "session: must not be empty" in r.stderr
    assert not (tmp_path / "l.jsonl").exists()


def test_mem_module_helpers(tmp_path):
    env = {"HOME": str(tmp_path)}
    assert not mem.configured(env)
    assert mem.configured(dict(env, HARNESS_MEM_HOME="/anywhere"))
    assert mem.url({}) == "http://127.0.0.1:37888/v1/checkpoints/record"
    assert mem.url({"HARNESS_MEM_HOST": "::1", "HARNESS_MEM_PORT": "9"}) == "http://[::1]:9/v1/checkpoints/record"
    assert mem.post({"x": 1}, {"HARNESS_MEM_PORT": "not-a-port"}) is False

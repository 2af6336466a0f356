"""A ledger path that is not a regular file. Opened without blocking and
refused after fstat: append stays fail-open (one `append skipped` line, exit 0, never silent),
search, recall and card recall warn on stderr and print no results (exit 1). A symlink is
followed to what it names (documented), so a symlink to a regular file is a ledger.
Real FIFOs and devices; the subprocess timeout is only a safety net, never the assertion."""
import json
import os

import pytest

from ledger_helpers import append_args, card, hermetic_env, ledger, records, write_card


def kinds(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    folder = tmp_path / "folder"
    folder.mkdir()
    link_to_fifo = tmp_path / "link-to-fifo"
    link_to_fifo.symlink_to(fifo)
    return {"a FIFO": fifo, "a character device": "/dev/zero", "a directory": folder,
            "a FIFO (through a symlink)": link_to_fifo}


@pytest.mark.parametrize("kind", ["a FIFO", "a character device", "a directory",
                                  "a FIFO (through a symlink)"])
def test_append_refuses_with_one_warning(tmp_path, kind):
    path = kinds(tmp_path)[kind]
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)
    r = ledger(*append_args(), env=env)
    assert (r.returncode, r.stdout) == (0, "")
    [line] = r.stderr.splitlines()
    assert line.startswith("judgment-ledger: append skipped (")
    what = kind.split(" (")[0]
    assert line.endswith(f"is not a regular file ({what}))") or \
        (what == "a directory" and line.endswith("Is a directory)"))


@pytest.mark.parametrize("kind", ["a FIFO", "a character device", "a directory",
                                  "a FIFO (through a symlink)"])
@pytest.mark.parametrize("command", [
    ("search", "--project", "demo", "--query", "q"),
    ("recall", "--project", "demo", "--question", "q"),
])
def test_reads_warn_and_print_nothing(tmp_path, kind, command):
    path = kinds(tmp_path)[kind]
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)
    r = ledger(*command, env=env)
    what = kind.split(" (")[0]
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == (f"judgment-ledger: {command[0]}: cannot read the ledger {path}: "
                        f"not a regular file ({what})\n")


def test_card_recall_warns_and_prints_nothing(tmp_path):
    path = kinds(tmp_path)["a FIFO"]
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=path)
    r = card("recall", write_card(tmp_path / "card.json"), "--project", "demo", env=env)
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == f"judgment-card: recall: cannot read the ledger {path}: not a regular file (a FIFO)\n"


def test_a_fifo_with_a_reader_waiting_is_not_fed(tmp_path):
    """The FIFO has a reader holding it open: a plain open() for append would succeed and the
    record would vanish into the pipe. It must be refused and nothing written into it."""
    fifo = kinds(tmp_path)["a FIFO"]
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=fifo)
        r = ledger(*append_args(), env=env)
        assert r.returncode == 0 and "not a regular file (a FIFO)" in r.stderr
        try:
            data = os.read(reader, 1)  # b"": no writer left and nothing in the pipe
        except BlockingIOError:  # (or a writer still open and nothing in the pipe)
            data = b""
        assert data == b""
    finally:
        os.close(reader)


def test_a_symlink_to_a_regular_file_is_followed(tmp_path):
    real = tmp_path / "real.jsonl"
    link = tmp_path / "ledger.jsonl"
    link.symlink_to(real)
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=link)
    assert ledger(*append_args(question="through the link"), env=env).returncode == 0
    assert link.is_symlink() and [r["question"] for r in records(real)] == ["through the link"]
    r = ledger("search", "--project", "demo", "--query", "link", env=env)
    assert json.loads(r.stdout)["question"] == "through the link"

"""Seed section 9: receipts, every error code and exit code of the table through scripts/ha,
and write failures produced by real faults (file-size limit, read-only mount, full tmpfs)."""
import json
import os
import shutil
import subprocess

import pytest

from conftest import GIT_ENV, SCRIPTS, git, ha
from helpers_write import (GOAL, add, events, receipt, refused, snapshot, started,  # noqa: F401
                           store_dir)

HA = str(SCRIPTS / "ha")


def obs(repo, summary="x", *extra, **kw):
    return add(repo, "--kind", "관측", "--summary", summary, *extra, **kw)


def view(repo):
    return ha("history", GOAL, "list", cwd=repo)


# --- the table, one trigger per code ------------------------------------------------------

def test_invalid_input_64(started):
    refused(obs(started, "x", "--status", "가설"), "invalid_input", 64)


def test_limit_exceeded_64(started):
    refused(obs(started, "x" * 1025), "limit_exceeded", 64)


def test_invalid_reference_65(started):
    refused(obs(started, "x", "--target", "AC-7"), "invalid_reference", 65)


def test_invalid_relation_65(started):
    refused(obs(started, "x", "--builds-on", "D3"), "invalid_relation", 65)


def test_correction_conflict_65(started):
    receipt(obs(started))
    receipt(obs(started, "fix", "--supersedes", "D1"))
    refused(obs(started, "fix again", "--supersedes", "D1"), "correction_conflict", 65)


def test_request_conflict_65(started):
    receipt(obs(started, "a", "--request-id", "r"))
    refused(obs(started, "b", "--request-id", "r"), "request_conflict", 65)


def test_not_started_65(repo, goal):
    err = refused(obs(repo), "not_started", 65)
    assert "ha start" in err
    assert not (repo / goal / "runs.jsonl").exists()  # add never starts a run


def test_run_record_broken_65(started):
    runs = started / GOAL / "runs.jsonl"
    with open(runs, "ab") as f:
        f.write(b"not json\n")
    refused(obs(started), "run_record_broken", 65)
    assert snapshot(started) is None


def test_history_corrupt_65(started):
    receipt(obs(started))
    with open(store_dir(started) / "events.jsonl", "ab") as f:
        f.write(b'{"half a line')
    refused(obs(started), "history_corrupt", 65)


def test_history_unsupported_66_for_unknown_run_rules(started):
    runs = started / GOAL / "runs.jsonl"
    start = json.loads(runs.read_bytes().split(b"\n")[0])
    start["rules"] = "run-rules/9"
    runs.write_bytes(json.dumps(start, separators=(",", ":"), ensure_ascii=False).encode()
                     + b"\n")
    err = refused(obs(started), "history_unsupported", 66)
    assert "run-rules/9" in err
    refused(view(started), "history_unsupported", 66)
    assert not (store_dir(started)).exists()  # no store was created


def test_history_unreadable_70(started, tmp_path):
    receipt(obs(started))
    d = store_dir(started)
    os.rename(d / "events.jsonl", tmp_path / "events.jsonl")
    os.symlink(tmp_path / "events.jsonl", d / "events.jsonl")
    refused(obs(started), "history_unreadable", 70)


def test_goal_and_repository_errors_are_invalid_input(started, tmp_path):
    p = add(started, "--kind", "관측", "--summary", "x", goal="docs/specs/nothing")
    assert "no such folder" in refused(p, "invalid_input", 64)
    p = add(started, "--kind", "관측", "--summary", "x", goal=".")
    refused(p, "invalid_input", 64)
    outside = tmp_path / "plain"
    outside.mkdir()
    p = ha("history", "x", "add", "--kind", "관측", "--summary", "x", cwd=outside)
    assert "not inside a git repository" in refused(p, "invalid_input", 64)
    p = ha("history", cwd=started)
    assert "usage: ha history" in refused(p, "invalid_input", 64)


def test_success_prints_exactly_one_receipt_line(started):
    p = obs(started)
    assert p.returncode == 0 and p.stderr == ""
    assert p.stdout.count("\n") == 1
    r = json.loads(p.stdout)
    assert set(r) == {"schema", "id", "request_id", "seq", "sha256", "replayed"}


# --- real write faults ----------------------------------------------------------------------

def _limited(repo, blocks, *args):
    """Run add with a file-size limit (1 KiB blocks) and SIGXFSZ ignored: writes past it fail
    with EFBIG instead of killing the process."""
    cmd = " ".join(["ulimit -f %d; trap '' XFSZ; exec" % blocks, HA, "history", GOAL, "add",
                    *(f"'{a}'" for a in args)])
    return subprocess.run(["bash", "-c", cmd], cwd=repo, capture_output=True, text=True,
                          env=dict(os.environ, **GIT_ENV))


def test_write_failure_is_write_uncertain_and_a_retry_answers(started):
    for i in range(3):
        receipt(obs(started, f"s{i}"))
    size = (store_dir(started) / "events.jsonl").stat().st_size
    before = snapshot(started)
    p = _limited(started, size // 1024, "--kind", "관측", "--summary", "limited", "--request-id", "lim-1")
    err = refused(p, "write_uncertain", 70)
    assert "D4" in err and "lim-1" in err and "File too large" in err
    assert snapshot(started) == before            # nothing was written in fact
    r = receipt(obs(started, "limited", "--request-id", "lim-1"))
    assert (r["id"], r["replayed"]) == ("D4", False)
    again = receipt(obs(started, "limited", "--request-id", "lim-1"))
    assert again == {**r, "replayed": True}


def test_auto_request_id_is_named_in_write_uncertain(started):
    for i in range(3):
        receipt(obs(started, f"s{i}"))
    size = (store_dir(started) / "events.jsonl").stat().st_size
    p = _limited(started, size // 1024, "--kind", "관측", "--summary", "limited")
    err = refused(p, "write_uncertain", 70)
    assert "request id auto-" in err


def test_partial_write_leaves_damage_that_is_reported_not_repaired(started):
    for i in range(3):
        receipt(obs(started, f"s{i}"))
    size = (store_dir(started) / "events.jsonl").stat().st_size
    blocks = size // 1024 + 1                       # the limit falls inside the new line
    long = "y" * 1000
    p = _limited(started, blocks, "--kind", "관측", "--summary", long, "--request-id", "part")
    refused(p, "write_uncertain", 70)
    raw = (store_dir(started) / "events.jsonl").read_bytes()
    assert len(raw) == blocks * 1024 and not raw.endswith(b"\n")
    # the retry cannot tell whether it applied: the damage is the answer, nothing is cut
    refused(obs(started, long, "--request-id", "part"), "history_corrupt", 65)
    refused(view(started), "history_corrupt", 65)
    assert (store_dir(started) / "events.jsonl").read_bytes() == raw


@pytest.fixture
def mounts():
    done = []
    yield done
    for path in reversed(done):
        subprocess.run(["umount", "-l", str(path)], check=False)


def _mount(mounts, *argv):
    p = subprocess.run(["mount", *argv], capture_output=True, text=True)
    if p.returncode != 0:
        pytest.skip(f"cannot mount here: {p.stderr.strip()}")
    mounts.append(argv[-1])


def test_read_only_store_folder_refuses_without_writing(started, mounts):
    receipt(obs(started))
    d = store_dir(started)
    before = snapshot(started)
    _mount(mounts, "--bind", str(d), str(d))
    _mount(mounts, "-o", "remount,bind,ro", str(d))
    err = refused(obs(started, "ro"), "history_unreadable", 70)
    assert "Read-only file system" in err
    assert view(started).returncode == 0      # reads still work
    assert snapshot(started) == before


def test_read_only_git_dir_on_the_first_add(started, mounts):
    ha_dir = started / ".git" / "ha"
    ha_dir.mkdir(exist_ok=True)
    _mount(mounts, "--bind", str(ha_dir), str(ha_dir))
    _mount(mounts, "-o", "remount,bind,ro", str(ha_dir))
    refused(obs(started), "history_unreadable", 70)
    assert not (ha_dir / "history").exists()


def test_full_disk_after_the_line_is_stored_is_write_uncertain_then_caught_up(started,
                                                                             mounts, tmp_path):
    """The new line fits in the events file's last page; the `last` temp file needs a new page
    of a full tmpfs: the event is stored but `last` cannot be updated."""
    for i in range(2):
        receipt(obs(started, f"s{i}"))
    d = store_dir(started)
    keep = tmp_path / "keep"
    shutil.copytree(d, keep)
    _mount(mounts, "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(d))
    for f in keep.iterdir():
        shutil.copy2(f, d / f.name)
    assert (d / "events.jsonl").stat().st_size < 2600
    filler = d / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    for chunk in (4096, 1):  # fill whole pages, then top the last one up byte by byte
        try:
            while True:
                os.write(fd, b"\0" * chunk)
        except OSError:
            pass
    os.close(fd)
    p = obs(started, "stored, last not updated", "--request-id", "full-1")
    err = refused(p, "write_uncertain", 70)
    assert "D3" in err and "full-1" in err and "last was not updated" in err
    assert len(events(started)) == 3
    # while `last` lags, reads accept it; an add that cannot catch `last` up writes nothing
    assert view(started).returncode == 0
    n = (d / "events.jsonl").stat().st_size
    err = refused(obs(started, "blocked"), "history_unreadable", 70)
    assert "cannot bring last up to date" in err
    assert (d / "events.jsonl").stat().st_size == n
    # with space again, the retry of the same request answers; the next add catches up
    filler.unlink()
    r = receipt(obs(started, "stored, last not updated", "--request-id", "full-1"))
    assert (r["id"], r["replayed"]) == ("D3", True)
    assert json.loads((d / "last").read_bytes())["seq"] == 3
    assert receipt(obs(started, "next"))["id"] == "D4"

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


def _cut_back(p, seq, rid):
    """The refusal of a write that failed and was undone (decision-history/v1 section 2;
    docs/history.md, "Failed writes": only a line left by a killed writer is damage; a live
    writer restores the file)."""
    err = refused(p, "write_uncertain", 70)
    assert f"D{seq} (request id {rid}) was not stored" in err
    assert "the partial line was removed and nothing was stored" in err
    return err


def test_write_failure_at_the_size_limit_is_undone_and_a_retry_adds(started):
    for i in range(3):
        receipt(obs(started, f"s{i}"))
    size = (store_dir(started) / "events.jsonl").stat().st_size
    before = snapshot(started)
    p = _limited(started, size // 1024, "--kind", "관측", "--summary", "limited", "--request-id", "lim-1")
    assert "File too large" in _cut_back(p, 4, "lim-1")
    assert snapshot(started) == before            # nothing was written in fact
    r = receipt(obs(started, "limited", "--request-id", "lim-1"))
    assert (r["id"], r["replayed"]) == ("D4", False)
    again = receipt(obs(started, "limited", "--request-id", "lim-1"))
    assert again == {**r, "replayed": True}


def test_auto_request_id_is_named_when_a_write_fails(started):
    for i in range(3):
        receipt(obs(started, f"s{i}"))
    size = (store_dir(started) / "events.jsonl").stat().st_size
    p = _limited(started, size // 1024, "--kind", "관측", "--summary", "limited")
    assert "(request id auto-" in refused(p, "write_uncertain", 70)


def test_short_write_is_cut_back_so_the_history_stays_readable(started):
    """The limit falls inside the new line: the first write() stores part of it; the writer,
    still holding the lock, cuts the file back and fsyncs before it reports."""
    for i in range(3):
        receipt(obs(started, f"s{i}"))
    path = store_dir(started) / "events.jsonl"
    raw = path.read_bytes()
    blocks = len(raw) // 1024 + 1
    assert len(raw) < blocks * 1024 < len(raw) + 1000
    before = snapshot(started)
    long = "y" * 1000
    p = _limited(started, blocks, "--kind", "관측", "--summary", long, "--request-id", "part")
    assert "File too large" in _cut_back(p, 4, "part")
    assert path.read_bytes() == raw and snapshot(started) == before
    cur = ha("history", GOAL, "current", cwd=started)
    assert cur.returncode == 0, cur.stderr
    r = receipt(obs(started, long, "--request-id", "part"))
    assert (r["id"], r["replayed"]) == ("D4", False)
    assert receipt(obs(started, "next"))["id"] == "D5"


def test_a_line_left_by_a_killed_writer_is_corrupt_and_never_cut(started):
    """Seed section 2: an incomplete line left by an interrupted writer is damage; no call
    repairs it (the writer died, so nobody can know it was its own)."""
    for i in range(2):
        receipt(obs(started, f"s{i}"))
    path = store_dir(started) / "events.jsonl"
    with open(path, "ab") as f:
        f.write(b'{"schema":"decision-history/v1","id":"D3"')
    raw = path.read_bytes()
    refused(obs(started, "after"), "history_corrupt", 65)
    refused(view(started), "history_corrupt", 65)
    assert path.read_bytes() == raw


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
    d = _two_events_on_a_small_tmpfs(started, mounts, tmp_path)
    assert (d / "events.jsonl").stat().st_size < 2600
    filler = d / "filler"
    _fill(filler)
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


def _two_events_on_a_small_tmpfs(started, mounts, tmp_path):
    """A store of D1, D2 moved onto a 64 KiB tmpfs mounted over its own folder; the folder."""
    for i in range(2):
        receipt(obs(started, f"s{i}"))
    d = store_dir(started)
    keep = tmp_path / "keep"
    shutil.copytree(d, keep)
    _mount(mounts, "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(d))
    for f in keep.iterdir():
        shutil.copy2(f, d / f.name)
    return d


def _fill(path):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    for chunk in (4096, 1):  # fill whole pages, then top the last one up byte by byte
        try:
            while True:
                os.write(fd, b"\0" * chunk)
        except OSError:
            pass
    os.close(fd)


def test_full_tmpfs_during_the_line_write_is_cut_back(started, mounts, tmp_path):
    """A real full file system (tmpfs): the new line needs a page that is not there, so the
    write stops short (ENOSPC); the file is restored, current still reads, and with space
    again the same request is added as the next seq."""
    d = _two_events_on_a_small_tmpfs(started, mounts, tmp_path)
    raw = (d / "events.jsonl").read_bytes()
    _fill(d / "filler")
    long = ("z" * 1000, "--reason", "r" * 9000)  # needs at least one more page
    p = obs(started, *long, "--request-id", "full-line")
    assert "No space left on device" in _cut_back(p, 3, "full-line")
    assert (d / "events.jsonl").read_bytes() == raw
    cur = ha("history", GOAL, "current", cwd=started)
    assert cur.returncode == 0, cur.stderr
    (d / "filler").unlink()
    r = receipt(obs(started, *long, "--request-id", "full-line"))
    assert (r["id"], r["replayed"]) == ("D3", False)


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_first_add_fsyncs_every_folder_it_creates(started, tmp_path):
    """The first add creates ha/, history/ and the key folder: each new entry is fsynced in
    its parent (seen with strace), so a crash cannot lose the folder of a stored event."""
    trace = tmp_path / "trace"
    p = subprocess.run(["strace", "-f", "-qq", "-e", "trace=mkdirat,mkdir,fsync,openat",
                        "-o", str(trace), HA, "history", GOAL, "add", "--kind", "관측",
                        "--summary", "first"], cwd=started, capture_output=True, text=True,
                       env=dict(os.environ, **GIT_ENV))
    receipt(p)
    made, unsynced = [], []
    for line in trace.read_text().splitlines():
        body = line.split(None, 1)[1] if line[:1].isdigit() else line
        if body.startswith("mkdirat(") and body.rstrip().endswith("= 0"):
            parent = body.split("(", 1)[1].split(",")[0]
            made.append(body.split('"')[1])
            unsynced.append(parent)
        elif body.startswith("fsync(") and body[6:].split(")")[0] in unsynced:
            unsynced.remove(body[6:].split(")")[0])
    # `ha start` made .git/ha already; the first add makes history/ and the key folder
    assert made == ["history", store_dir(started).name]
    assert unsynced == []

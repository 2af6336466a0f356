"""`add` says which evidence references it could not read (decision-history/v1, section 5
'근거 참조': an observation that fails is stored as such and never refuses the event;
docs/history.md, "Evidence"): one `ha: note:` line on stderr per such reference, in
reference order, while stdout keeps exactly the one receipt line."""
import json
import os

from helpers_write import add, events, receipt, started  # noqa: F401


def test_one_note_per_reference_that_could_not_be_read(started, tmp_path):
    repo = started
    (tmp_path / "far.txt").write_text("outside\n")
    os.symlink(tmp_path, repo / "away")
    os.mkfifo(repo / "pipe")
    p = add(repo, "--kind", "관측", "--summary", "근거 확인",
            "--checked-ref", "file:src/nope.py", "--ref", "file:src/count.go",
            "--ref", "file:away/far.txt#top", "--ref", "file:pipe", "--ref", "external:JIRA-1",
            "--ref", "commit:0123456789abcdef0123456789abcdef01234567",
            "--ref", "commit:abcdef1@https://example.invalid/other.git")
    r = receipt(p)
    assert list(r) == ["schema", "id", "request_id", "seq", "sha256", "replayed"]
    assert p.stderr.splitlines() == [
        "ha: note: file:away/far.txt#top is stored as outside: its path leads outside the "
        "repository, so it was not read",
        "ha: note: file:pipe is stored as not_regular: not a regular file (a symlink, folder, "
        "FIFO or device), so it was not read",
        "ha: note: commit:0123456789abcdef0123456789abcdef01234567 is stored as not_found: "
        "no such commit in this repository (nothing is ever fetched)",
        "ha: note: commit:abcdef1@https://example.invalid/other.git is stored as "
        "other_repository: it names another "
        "repository, so it was not looked up",
        "ha: note: file:src/nope.py is stored as missing: no such file in the repository",
    ]
    states = [e["state"] for e in events(repo)[0]["context"]["evidence"]]
    # evidence order: the --ref values, then the --checked-ref ones (docs/history.md)
    assert states == ["read", "outside", "not_regular", "not_checked", "not_found",
                      "other_repository", "missing"]


def test_the_receipt_is_the_same_with_or_without_notes(started):
    a = add(started, "--kind", "관측", "--summary", "a", "--ref", "file:src/nope.py",
            "--request-id", "r-1")
    assert a.stderr.count("\n") == 1 and "file:src/nope.py is stored as missing" in a.stderr
    b = add(started, "--kind", "관측", "--summary", "b", "--ref", "file:src/count.go")
    assert b.stderr == ""
    ra, rb = json.loads(a.stdout), json.loads(b.stdout)
    assert a.stdout == json.dumps(ra, ensure_ascii=False, separators=(",", ":")) + "\n"
    assert (ra["id"], rb["id"]) == ("D1", "D2")
    replay = add(started, "--kind", "관측", "--summary", "a", "--ref", "file:src/nope.py",
                 "--request-id", "r-1")
    # a replay reads no file again and stores nothing, so it has nothing new to say
    assert replay.stderr == "" and json.loads(replay.stdout)["replayed"] is True


def test_a_file_over_the_read_limit_is_named_too_large(started):
    big = started / "big.bin"
    with open(big, "wb") as f:
        f.truncate(64 * 1024 * 1024 + 1)  # sparse: no disk space
    p = add(started, "--kind", "관측", "--summary", "큰 파일", "--ref", "file:big.bin")
    receipt(p)
    assert p.stderr == ("ha: note: file:big.bin is stored as too_large: over the read limit "
                        "of 64 MiB, so no version was identified\n")

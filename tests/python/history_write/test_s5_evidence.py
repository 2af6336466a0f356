"""Seed section 5: run / file / commit / external evidence and what add observes for each."""
import hashlib
import os

from conftest import git
from helpers_write import GOAL, add, events, receipt, refused, snapshot, started  # noqa: F401

MIB64 = 64 * 1024 * 1024


def observe(repo, *refs, checked=False):
    flag = "--checked-ref" if checked else "--ref"
    args = ["--kind", "관측", "--summary", "evidence"]
    for r in refs:
        args += [flag, r]
    receipt(add(repo, *args))
    ev = events(repo)[-1]
    return ev["decision"]["evidence"], ev["context"]["evidence"]


def test_run_evidence_matched_with_line_hash(started):
    runs = (started / GOAL / "runs.jsonl").read_bytes().split(b"\n")
    h2 = hashlib.sha256(runs[1]).hexdigest()
    given, seen = observe(started, "run:2", f"run:1:{hashlib.sha256(runs[0]).hexdigest()}")
    assert given == [{"type": "run", "seq": 2},
                     {"type": "run", "seq": 1, "sha256": hashlib.sha256(runs[0]).hexdigest()}]
    assert seen[0] == {"type": "run", "state": "matched", "version": h2}


def test_run_evidence_missing_line_or_wrong_hash_is_refused(started):
    p = add(started, "--kind", "관측", "--summary", "x", "--ref", "run:3")
    assert "no line 3" in refused(p, "invalid_reference", 65)
    p = add(started, "--kind", "관측", "--summary", "x", "--ref", "run:2:" + "0" * 64)
    refused(p, "invalid_reference", 65)
    for bad in ("run:0", "run:x", "run:2:abc", "run:2:" + "A" * 64, "run:"):
        refused(add(started, "--kind", "관측", "--summary", "x", "--ref", bad),
                "invalid_input", 64)
    assert snapshot(started) is None


def test_file_read_with_content_hash_and_section(started):
    given, seen = observe(started, "file:src/count.go", "file:docs/specs/empty-input/PLAN.md#Task",
                          checked=True)
    assert given[1] == {"type": "file", "path": "docs/specs/empty-input/PLAN.md",
                        "section": "Task", "checked": True}
    want = hashlib.sha256((started / "src" / "count.go").read_bytes()).hexdigest()
    assert seen[0] == {"type": "file", "state": "read", "version": want}
    assert seen[1]["state"] == "read"


def test_file_states(started, tmp_path):
    src = started / "src"
    os.symlink("count.go", src / "link.go")               # last component is a symlink
    os.mkfifo(src / "pipe")                               # never waited on
    os.symlink(str(tmp_path), src / "out")                # intermediate link leaving the repo
    (tmp_path / "secret.txt").write_text("outside\n")
    os.symlink("../src", started / "docs" / "srclink")    # intermediate link inside the repo
    os.symlink("loop", src / "loop")                      # symlink loop as a parent
    os.link(src / "count.go", src / "hard.go")            # a second link is still a file
    # the FIFO is never waited on: a wait would hang until add's safety-net timeout fails it
    _, seen = observe(started, "file:src/nothing.go", "file:src/link.go", "file:src/pipe",
                      "file:src", "file:src/out/secret.txt", "file:docs/srclink/count.go",
                      "file:src/loop/x", "file:README.md/x", "file:src/hard.go",
                      "file:./src//count.go")
    assert [o["state"] for o in seen] == ["missing", "not_regular", "not_regular",
                                          "not_regular", "outside", "read", "unreadable",
                                          "missing", "read", "read"]
    assert all(("version" in o) == (o["state"] == "read") for o in seen)


def test_file_size_cap_is_64_mib_of_actual_bytes(started):
    exact = started / "exact.bin"
    with open(exact, "wb") as f:
        f.truncate(MIB64)
    over = started / "over.bin"
    with open(over, "wb") as f:
        f.truncate(MIB64 + 1)
    _, seen = observe(started, "file:exact.bin", "file:over.bin")
    digest = hashlib.sha256()
    with open(exact, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    assert seen == [{"type": "file", "state": "read", "version": digest.hexdigest()},
                    {"type": "file", "state": "too_large"}]


def test_the_cap_applies_to_bytes_actually_read_not_to_the_reported_size():
    """/proc files are regular files whose fstat size is 0 while reading yields content: the
    bounded read must still stop at the cap and report too_large (same path as a file that
    grows past the cap while it is read)."""
    from judgment_toolkit.ha.history.register.evidence import observe_file
    assert os.stat("/proc/self/status").st_size == 0
    assert observe_file("/proc/self", "status", limit=64) == {"state": "too_large"}
    assert observe_file("/proc/self", "status", limit=1 << 20)["state"] == "read"


def test_file_path_syntax_is_refused(started):
    for bad in ("file:/etc/passwd", "file:", "file:../x", "file:src/../README.md",
                "file:src/..", "file:a#"):
        p = add(started, "--kind", "관측", "--summary", "x", "--ref", bad)
        refused(p, "invalid_input", 64)
    p = add(started, "--input", "-", input='{"decision":{"kind":"관측","summary":"x",'
            '"evidence":[{"type":"file","path":"a\\u0000b"}]}}')
    assert "NUL" in refused(p, "invalid_input", 64)


def test_commit_evidence(started, tmp_path):
    head = git(started, "rev-parse", "HEAD").stdout.strip()
    git(started, "remote", "add", "origin", "https://example.invalid/team/repo.git")
    _, seen = observe(started, f"commit:{head[:7]}", f"commit:{head.upper()}",
                      "commit:0000000", f"commit:{head}@https://example.invalid/other.git",
                      f"commit:{head}@https://example.invalid/team/repo.git",
                      f"commit:{head[:10]}@{started}", f"commit:deadbeef@{tmp_path}")
    assert seen == [{"type": "commit", "state": "found", "commit": head},
                    {"type": "commit", "state": "found", "commit": head},
                    {"type": "commit", "state": "not_found"},
                    {"type": "commit", "state": "other_repository"},
                    {"type": "commit", "state": "found", "commit": head},
                    {"type": "commit", "state": "found", "commit": head},
                    {"type": "commit", "state": "other_repository"}]
    for bad in ("commit:abc", "commit:" + "g" * 7, "commit:" + "a" * 65, "commit:abcdefg@"):
        refused(add(started, "--kind", "관측", "--summary", "x", "--ref", bad),
                "invalid_input", 64)


def test_commit_evidence_names_an_object_not_a_ref(started):
    """A branch spelled like hex digits must not stand in for the commit those digits name."""
    head = git(started, "rev-parse", "HEAD").stdout.strip()
    git(started, "commit", "-q", "--allow-empty", "-m", "second")
    second = git(started, "rev-parse", "HEAD").stdout.strip()
    git(started, "branch", head[:7], second)       # shadows the prefix of the first commit
    git(started, "branch", "deadbeef", second)     # hex-looking, names no object
    _, seen = observe(started, f"commit:{head[:7]}", "commit:deadbeef")
    assert seen == [{"type": "commit", "state": "found", "commit": head},
                    {"type": "commit", "state": "not_found"}]


def test_evidence_type_that_is_not_a_string_is_invalid_input(started):
    for t in ('["run"]', '{"a":1}', "null", "1"):
        p = add(started, "--input", "-", input='{"decision":{"kind":"관측","summary":"x",'
                '"evidence":[{"type":' + t + ',"seq":1}]}}')
        assert "type must be run, file, commit or external" in refused(p, "invalid_input", 64)
    assert snapshot(started) is None


def test_commit_of_a_tree_is_not_found(started):
    tree = git(started, "rev-parse", "HEAD^{tree}").stdout.strip()
    _, seen = observe(started, f"commit:{tree}")
    assert seen == [{"type": "commit", "state": "not_found"}]


def test_external_is_not_checked_and_keeps_version(started):
    doc = ('{"decision":{"kind":"관측","summary":"x","evidence":[{"type":"external",'
           '"ref":"https://example.invalid/review/1","version":"rev-2","checked":true}]}}')
    receipt(add(started, "--input", "-", input=doc))
    ev = events(started)[-1]
    assert ev["decision"]["evidence"][0]["version"] == "rev-2"
    assert ev["context"]["evidence"] == [{"type": "external", "state": "not_checked"}]


def test_input_evidence_field_rules(started):
    for ev in ('{"type":"run","seq":true}', '{"type":"run","seq":1.0}',
               '{"type":"file","path":"a","checked":"yes"}', '{"type":"url","ref":"x"}',
               '{"type":"external","ref":"x","sha256":"y"}', '{"type":"commit"}',
               '{"type":"external","ref":""}'):
        p = add(started, "--input", "-",
                input='{"decision":{"kind":"관측","summary":"x","evidence":[' + ev + ']}}')
        refused(p, "invalid_input", 64)
    many = ",".join(['{"type":"external","ref":"x"}'] * 65)
    p = add(started, "--input", "-",
            input='{"decision":{"kind":"관측","summary":"x","evidence":[' + many + ']}}')
    refused(p, "limit_exceeded", 64)


def test_observation_failure_does_not_refuse_the_event(started):
    r = receipt(add(started, "--kind", "관측", "--summary", "x", "--ref", "file:gone.txt"))
    assert r["id"] == "D1"

"""The goal digest (spec_digest), computed independently here from the formats note."""
import hashlib
import subprocess
from pathlib import Path

from conftest import git, ha
from helpers_core import GOAL, records, started, write_goal

from judgment_toolkit.ha import gitrepo, goal as goalmod


def expected_digest(repo, paths):
    text = b""
    for p in sorted(paths, key=lambda s: s.encode()):
        f = Path(repo) / p
        data = f.read_bytes() if f.is_file() else b""
        text += p.encode() + b"\0" + hashlib.sha256(data).hexdigest().encode() + b"\n"
    return hashlib.sha256(text).hexdigest()


def open_goal(repo, rel):
    return goalmod.resolve(gitrepo.discover(str(repo)), rel, cwd=str(repo))


def test_fixture_digest_exact(repo, goal):
    g = open_goal(repo, goal)
    assert g.document_paths() == [f"{goal}/SPEC.md", f"{goal}/notes.md"]
    want = expected_digest(repo, [f"{goal}/SPEC.md", f"{goal}/notes.md"])
    assert g.digest() == want
    started(repo)
    assert records(repo)[0]["spec_digest"] == want


def test_digest_literal_value(repo):
    # Independent of any helper: the bytes of the digest text written out by hand.
    write_goal(repo, "g", "# a\n\nsee [n](n.md)\n", extra={"n.md": "N\n"})
    spec_h = hashlib.sha256(b"# a\n\nsee [n](n.md)\n").hexdigest()
    n_h = hashlib.sha256(b"N\n").hexdigest()
    text = f"g/SPEC.md\0{spec_h}\ng/n.md\0{n_h}\n".encode()
    assert open_goal(repo, "g").digest() == hashlib.sha256(text).hexdigest()


def test_links_followed_transitively_bundle_and_code_excluded(repo):
    spec = ("# s\n[a](a.md) [p](PLAN.md) [r](./REVIEW.md) [t](tasks/T001.md) [x](https://x/y.md)\n"
            "[up](../outside.md) `[c](code-span.md)`\n\n```\n[f](fenced.md)\n```\n"
            "[ref]: sub/c.md \"title\"\n[img](missing.md#part)\n")
    write_goal(repo, "g", spec, plan="# PLAN\n", extra={
        "a.md": "[b](b.md) and back to [spec](SPEC.md)\n", "b.md": "B\n",
        "sub/c.md": "[d](../d.md)\n", "d.md": "D\n", "REVIEW.md": "r\n",
        "tasks/T001.md": "t\n", "fenced.md": "f\n", "code-span.md": "c\n", "unlinked.md": "u\n"})
    (Path(repo) / "outside.md").write_text("o\n")
    g = open_goal(repo, "g")
    docs = ["g/SPEC.md", "g/a.md", "g/b.md", "g/d.md", "g/missing.md", "g/sub/c.md"]
    assert g.document_paths() == docs
    assert g.digest() == expected_digest(repo, docs)  # missing.md counts as empty content


def test_a_link_to_a_name_no_file_can_have_counts_as_missing(repo):
    long_name = "n" * 300 + ".md"                       # over NAME_MAX: ENAMETOOLONG
    write_goal(repo, "g", f"# s\n[l]({long_name}) [f](a.md/b.md)\n", extra={"a.md": "A\n"})
    g = open_goal(repo, "g")
    docs = sorted(["g/SPEC.md", f"g/{long_name}", "g/a.md/b.md"], key=str.encode)
    assert g.document_paths() == docs
    spec = (Path(repo) / "g" / "SPEC.md").read_bytes()
    text = b"".join(p.encode() + b"\0" + hashlib.sha256(spec if p == "g/SPEC.md" else b"")
                    .hexdigest().encode() + b"\n" for p in docs)  # both links count empty
    assert g.digest() == hashlib.sha256(text).hexdigest()
    assert ha("status", "g", cwd=repo).returncode == 0


def test_missing_spec_is_digest_of_empty_text(repo):
    (Path(repo) / "g").mkdir()
    (Path(repo) / "g" / "x.txt").write_text("x")
    g = open_goal(repo, "g")
    assert g.document_paths() == []
    assert g.digest() == hashlib.sha256(b"").hexdigest()


def test_moving_the_goal_changes_the_digest(repo, goal):
    before = open_goal(repo, goal).digest()
    git(repo, "mv", goal, "docs/specs/moved")
    after = open_goal(repo, "docs/specs/moved").digest()
    assert before != after
    assert after == expected_digest(repo, ["docs/specs/moved/SPEC.md", "docs/specs/moved/notes.md"])


def test_editing_a_linked_document_changes_the_digest(repo, goal):
    before = open_goal(repo, goal).digest()
    (Path(repo) / goal / "notes.md").write_text("changed\n")
    assert open_goal(repo, goal).digest() != before
    (Path(repo) / goal / "REVIEW.md").write_text("bundle change\n")
    assert open_goal(repo, goal).digest() == open_goal(repo, goal).digest()


def test_bundle_edit_keeps_digest(repo, goal):
    before = open_goal(repo, goal).digest()
    for name in ("PLAN.md", "REVIEW.md", "PROGRESS.md"):
        (Path(repo) / goal / name).write_text("edited\n")
    assert open_goal(repo, goal).digest() == before


def test_status_shows_digest_change(repo, goal):
    started(repo)
    (Path(repo) / goal / "SPEC.md").write_text((Path(repo) / goal / "SPEC.md").read_text() + "\nmore\n")
    r = ha("status", goal, cwd=repo)
    assert r.returncode == 0
    assert "(changed)" in r.stdout

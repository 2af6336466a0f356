"""Seed section 2 (and the integrity rules of sections 4 and 9): where the store lives, the
path rules for every component, reads that create nothing, the OS lock, concurrency, and
damage that stops add and views alike without any repair."""
import hashlib
import json
import os
import subprocess
import sys
import time

import pytest

from conftest import SCRIPTS, git, ha
from helpers_write import (GOAL, GIT_ENV, add, events, git_common_dir, receipt, refused,  # noqa
                           SAFETY_NET, snapshot, start_key, started, store_dir, writer)
from inproc import ha as ha_in  # the rules of the data, without a process each (inproc.py)


def obs(repo, summary="x", *extra):
    return add(repo, "--kind", "관측", "--summary", summary, *extra)


def view(repo):
    return ha_in("history", GOAL, "list", cwd=repo)


def view_process(repo):
    """The same view through scripts/ha, where a hang must meet the safety net (a FIFO) or
    the answer is the entry point's own (a sample, inproc.py)."""
    return ha("history", GOAL, "list", cwd=repo, timeout=SAFETY_NET)


def test_store_location_and_files(started):
    receipt(obs(started))
    d = git_common_dir(started) / "ha" / "history" / start_key(started)
    assert sorted(p.name for p in d.iterdir()) == ["events.jsonl", "index", "index.slots",
                                                   "index.state", "last", "lock"]
    assert d == store_dir(started)
    # not tracked by git and not in the worktree
    assert git(started, "status", "--porcelain").stdout == ""


def test_linked_worktrees_share_one_history(started, tmp_path):
    receipt(obs(started, "main 1"))
    wt = tmp_path / "wt"
    git(started, "worktree", "add", "-q", "-b", "side", str(wt))
    r = receipt(obs(wt, "from the linked worktree"))
    assert r["id"] == "D2"
    assert [e["decision"]["summary"] for e in events(started)] == ["main 1",
                                                                    "from the linked worktree"]
    assert not (wt / ".git").is_dir()  # a linked worktree: .git is a file
    # removing the worktree keeps the history
    git(started, "worktree", "remove", "--force", str(wt))
    assert receipt(obs(started, "after removal"))["id"] == "D3"


def test_another_start_record_has_another_history(started):
    receipt(obs(started))
    first_key = start_key(started)
    (started / GOAL / "runs.jsonl").unlink()
    assert ha_in("start", GOAL, "--request", "다시", cwd=started).returncode == 0
    assert start_key(started) != first_key
    assert receipt(obs(started))["id"] == "D1"


def test_reads_create_nothing(started):
    ha_dir = git_common_dir(started) / "ha"
    listing = sorted(str(p) for p in ha_dir.rglob("*")) if ha_dir.exists() else []
    p = view(started)
    assert p.returncode == 0 and "absent" in p.stdout
    after = sorted(str(p) for p in ha_dir.rglob("*")) if ha_dir.exists() else []
    assert after == listing and not (ha_dir / "history").exists()


def test_store_api_reads_create_nothing(started):
    from judgment_toolkit.ha.history.context import open_history
    ctx = open_history(GOAL, for_write=False, cwd=str(started))
    assert ctx.store.exists() is False
    assert list(ctx.store.scan()) == []
    assert not (git_common_dir(started) / "ha" / "history").exists()


COMPONENTS = ["ha", "history", "key", "events.jsonl", "last", "lock", "last.tmp"]


def _replace_with_symlink(repo, component, tmp_path):
    d = store_dir(repo)
    common = git_common_dir(repo)
    path = {"ha": common / "ha", "history": common / "ha" / "history", "key": d}.get(
        component, d / component)
    real = tmp_path / f"real-{component}"
    if path.exists():
        os.rename(path, real)
    else:
        real.write_bytes(b"")
    os.symlink(real, path)


@pytest.mark.parametrize("component", COMPONENTS)
def test_symlink_in_the_store_path_is_unreadable_for_add_and_views(started, tmp_path,
                                                                   component):
    receipt(obs(started, "before"))
    _replace_with_symlink(started, component, tmp_path)
    refused(obs(started, "after"), "history_unreadable", 70)
    refused(view(started), "history_unreadable", 70)


@pytest.mark.parametrize("name", ["events.jsonl", "last", "lock", "last.tmp"])
def test_hard_linked_store_files_are_unreadable(started, tmp_path, name):
    receipt(obs(started))
    target = store_dir(started) / name
    if not target.exists():
        target.write_bytes(b"")
    os.link(target, tmp_path / "second-name")
    refused(obs(started), "history_unreadable", 70)
    refused(view(started), "history_unreadable", 70)


@pytest.mark.parametrize("name", ["events.jsonl", "last", "lock", "key"])
def test_non_regular_store_entries_are_unreadable_and_never_block(started, name):
    receipt(obs(started))
    d = store_dir(started)
    if name == "key":
        import shutil
        shutil.rmtree(d)
        d.write_text("a file where the folder should be")
    else:
        (d / name).unlink()
        os.mkfifo(d / name)
    # never blocks: a wait on the FIFO would hang until the safety-net timeout fails the test
    refused(obs(started), "history_unreadable", 70)
    refused(view_process(started), "history_unreadable", 70)


def test_a_dead_lock_holder_does_not_block(started):
    receipt(obs(started))
    lock = store_dir(started) / "lock"
    holder = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, os, sys, time\n"
        f"fd = os.open({str(lock)!r}, os.O_RDWR)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "print('locked', flush=True)\n"
        "time.sleep(60)\n")], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    waiting = subprocess.Popen([str(SCRIPTS / "ha"), "history", GOAL, "add", "--kind", "관측",
                                "--summary", "waits"], cwd=started, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=dict(os.environ, **GIT_ENV))
    time.sleep(0.5)
    assert waiting.poll() is None           # blocked by a live holder
    holder.kill()
    holder.wait()
    out, err = waiting.communicate(timeout=30)
    assert waiting.returncode == 0, err
    assert json.loads(out)["id"] == "D2"
    assert receipt(obs(started))["id"] == "D3"  # the lock file left behind blocks nothing


def test_eight_processes_from_two_worktrees_add_800_events(started, tmp_path):
    wt = tmp_path / "wt"
    git(started, "worktree", "add", "-q", "-b", "side", str(wt))
    procs = [writer(started if k % 2 else wt, f"w{k}", 100) for k in range(8)]
    # a reader overlapping the writers always sees an intact history
    seen = []
    while any(p.poll() is None for p in procs):
        r = view(started)
        assert r.returncode == 0, r.stderr
        seen.append(r.stdout.count("\n"))
    assert all(p.wait() == 0 for p in procs)
    evs = events(started)
    assert len(evs) == 800
    assert [e["seq"] for e in evs] == list(range(1, 801))
    assert len({e["request_id"] for e in evs}) == 800
    raw = (store_dir(started) / "events.jsonl").read_bytes().split(b"\n")[:-1]
    prev = None
    for line, ev in zip(raw, evs):
        assert ev["prev"] == prev
        prev = hashlib.sha256(line).hexdigest()
    last = json.loads((store_dir(started) / "last").read_bytes())
    assert last == {"seq": 800, "sha256": prev}
    assert len(seen) >= 1


# --- damage: history_corrupt for add and views alike, nothing repaired ---------------------

def _lines(repo):
    return (store_dir(repo) / "events.jsonl").read_bytes().split(b"\n")[:-1]


def _write(repo, lines, last=None):
    d = store_dir(repo)
    (d / "events.jsonl").write_bytes(b"".join(line + b"\n" for line in lines))
    if last is not None:
        (d / "last").write_bytes(last)


def _last_for(lines, n=None):
    n = len(lines) if n is None else n
    sha = hashlib.sha256(lines[n - 1]).hexdigest()
    return json.dumps({"seq": n, "sha256": sha}, separators=(",", ":")).encode() + b"\n"


def _rechain(lines):
    """Fix every prev after an edit (a forger's work) so only the rule under test breaks."""
    out, prev = [], None
    for line in lines:
        ev = json.loads(line)
        if isinstance(ev, dict) and "prev" in ev:
            ev["prev"] = prev
            line = json.dumps(ev, separators=(",", ":"), ensure_ascii=False).encode()
        out.append(line)
        prev = hashlib.sha256(line).hexdigest()
    return out


def _three(repo):
    for i in range(3):
        receipt(obs(repo, f"s{i}"))
    return _lines(repo)


def _assert_corrupt(repo, needle=""):
    before = snapshot(repo)
    err = refused(obs(repo, "after damage"), "history_corrupt", 65)
    assert needle in err, err
    refused(view(repo), "history_corrupt", 65)
    assert snapshot(repo) == before  # nothing truncated or repaired


def test_modified_middle_line(started):
    lines = _three(started)
    lines[1] = lines[1].replace(b'"s1"', b'"S1"')
    _write(started, lines)
    _assert_corrupt(started, "line 3: prev does not match")


def test_deleted_middle_line(started):
    lines = _three(started)
    _write(started, [lines[0], lines[2]])
    _assert_corrupt(started, "line 2")


def test_truncated_last_line(started):
    lines = _three(started)
    (store_dir(started) / "events.jsonl").write_bytes(b"\n".join(lines)[:-10])
    _assert_corrupt(started, "incomplete")


def test_intact_line_removed_from_the_end_is_caught_by_last(started):
    lines = _three(started)
    _write(started, lines[:2])
    _assert_corrupt(started, "missing from the end")


def test_events_file_removed_but_last_remains(started):
    _three(started)
    (store_dir(started) / "events.jsonl").unlink()
    _assert_corrupt(started, "missing from the end")


def test_last_mismatch_and_garbage(started):
    lines = _three(started)
    (store_dir(started) / "last").write_bytes(b'{"seq":3,"sha256":"' + b"0" * 64 + b'"}\n')
    _assert_corrupt(started, "another sha256")
    (store_dir(started) / "last").write_bytes(b"garbage\n")
    _assert_corrupt(started, "not a {seq, sha256} line")
    (store_dir(started) / "last").write_bytes(_last_for(lines, 1))
    _assert_corrupt(started, "names D1 but 3 events are stored")
    (store_dir(started) / "last").unlink()
    _assert_corrupt(started, "missing while 3 events")


def test_last_one_behind_is_accepted_and_caught_up_by_the_next_add(started):
    lines = _three(started)
    (store_dir(started) / "last").write_bytes(_last_for(lines, 2))
    assert view(started).returncode == 0
    assert (store_dir(started) / "last").read_bytes() == _last_for(lines, 2)  # reads: no write
    r = receipt(obs(started, "D4"))
    assert r["id"] == "D4"
    assert (store_dir(started) / "last").read_bytes() == _last_for(_lines(started))


def test_last_behind_on_the_first_event(started):
    lines = _three(started)
    _write(started, lines[:1])
    (store_dir(started) / "last").unlink()
    assert view(started).returncode == 0
    assert receipt(obs(started))["id"] == "D2"


def test_line_over_the_stored_size_limit(started):
    lines = _three(started)
    ev = json.loads(lines[2])
    ev["decision"]["reason"] = "r" * (1024 * 1024)
    lines[2] = json.dumps(ev, separators=(",", ":"), ensure_ascii=False).encode()
    _write(started, lines, _last_for(lines))
    _assert_corrupt(started, "longer than 1048576 bytes")


def _forge(repo, edit, index=1):
    lines = _three(repo)
    lines[index] = edit(lines[index])
    lines = _rechain(lines)
    _write(repo, lines, _last_for(lines))


@pytest.mark.parametrize("vouched", [True, False])
def test_duplicate_top_level_key(started, vouched):
    lines = _three(started)
    lines[2] = lines[2].replace(b'"request_id":', b'"seq":3,"request_id":', 1)
    _write(started, lines, _last_for(lines, 3 if vouched else 2))
    _assert_corrupt(started, "repeats the key 'seq'")


@pytest.mark.parametrize("schema,needle", [
    (None, "schema is missing"), ("", "schema is missing"), (1, "schema is missing"),
    ("decision-history", "not a decision-history schema id"),
    ("decision-history/v1.0", "not a decision-history schema id")])
def test_schema_field_problems_are_corrupt(started, schema, needle):
    def edit(line):
        ev = json.loads(line)
        ev["schema"] = schema
        return json.dumps(ev, separators=(",", ":"), ensure_ascii=False).encode()
    _forge(started, edit)
    _assert_corrupt(started, needle)


def test_missing_schema_and_schema_case_variant_are_corrupt(started):
    _forge(started, lambda line: line.replace(b'"schema":"decision-history/v1",', b"", 1))
    _assert_corrupt(started, "schema is missing")


def test_schema_key_case_variant_is_corrupt(started):
    _forge(started, lambda line: line.replace(b'{"schema":', b'{"Schema":', 1))
    _assert_corrupt(started, "schema key spelled 'Schema'")


def test_unsupported_schema_version_is_66_for_add_and_views(started):
    def edit(line):
        ev = json.loads(line)
        # a v2 body is not held to v1 field rules: unknown fields, no context
        return json.dumps({"schema": "decision-history/v2", "seq": 2, "prev": ev["prev"],
                           "anything": {"new": True}}, separators=(",", ":")).encode()
    _forge(started, edit)
    before = snapshot(started)
    err = refused(obs(started), "history_unsupported", 66)
    assert "decision-history/v2" in err
    refused(view(started), "history_unsupported", 66)
    # replay of an already stored request is refused the same way
    refused(add(started, "--kind", "관측", "--summary", "s0"), "history_unsupported", 66)
    assert snapshot(started) == before


@pytest.mark.parametrize("edit,needle", [
    (lambda ev: ev.update(seq=5), "has seq 5"),
    (lambda ev: ev.update(id="D9"), "has id 'D9'"),
    (lambda ev: ev["decision"].update(builds_on=["D2"]), "relation to D2"),
    (lambda ev: ev["decision"].update(supersedes=[{"id": "D5"}]), "relation to D5"),
    (lambda ev: ev.update(request_id="auto-dup") or None, None),
    (lambda ev: ev["decision"].update(kind="계획"), "kind"),
    (lambda ev: ev["decision"].pop("summary"), "summary is required"),
    (lambda ev: ev["context"].pop("run_head"), "context must have"),
    (lambda ev: ev.update(at="yesterday"), "at must be a UTC time"),
    (lambda ev: ev.update(extra=1), "exactly the fields"),
])
def test_forged_fields_in_the_unvouched_tail_are_corrupt(started, edit, needle):
    """The line after the one `last` names is verified field by field."""
    lines = _three(started)
    ev = json.loads(lines[1])
    if needle is None:  # a request id used twice
        for i in (0, 1):
            e = json.loads(lines[i])
            e["request_id"] = "dup"
            lines[i] = json.dumps(e, separators=(",", ":"), ensure_ascii=False).encode()
        needle = "used twice"
    else:
        edit(ev)
        lines[1] = json.dumps(ev, separators=(",", ":"), ensure_ascii=False).encode()
    lines = _rechain(lines[:2])
    _write(started, lines, _last_for(lines, 1))
    _assert_corrupt(started, needle)


def test_relation_forward_in_a_vouched_line_is_corrupt(started):
    def edit(line):
        ev = json.loads(line)
        ev["decision"]["builds_on"] = ["D3"]
        return json.dumps(ev, separators=(",", ":"), ensure_ascii=False).encode()
    _forge(started, edit)
    _assert_corrupt(started, "relation to D3")


def test_not_json_line_is_corrupt(started):
    lines = _three(started)
    lines = _rechain(lines[:2]) + [b"{not json"]
    _write(started, lines)
    _assert_corrupt(started, "line 3 is not JSON")


def test_reads_racing_the_first_add_see_absent_or_the_first_event(started):
    """The first add creates the folders and the lock while views read without one: every
    read answers before (absent) or after (D1), never damage. The writer is a process
    (scripts/ha), the reads are in this one (inproc.py), so many overlap each add."""
    import shutil
    env = dict(os.environ, **GIT_ENV)
    answers = set()
    for i in range(15):
        shutil.rmtree(git_common_dir(started) / "ha" / "history", ignore_errors=True)
        writer = subprocess.Popen([str(SCRIPTS / "ha"), "history", GOAL, "add", "--kind", "관측",
                                   "--summary", f"first {i}"], cwd=started, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        while writer.poll() is None:
            r = view(started)
            assert r.returncode == 0, r.stderr
            answers.add("absent" if "history: absent" in r.stdout else "D1")
        assert writer.wait() == 0
        assert "D1" in view(started).stdout
    assert answers  # at least one overlapping read happened


def test_a_leftover_regular_temp_file_is_ignored_by_reads_and_replaced_by_add(started):
    receipt(obs(started))
    tmp = store_dir(started) / "last.tmp"
    tmp.write_bytes(b'{"seq":9,"sha256":"' + b"0" * 64 + b'"}\n')   # a crash mid-replace
    assert view(started).returncode == 0
    assert receipt(obs(started))["id"] == "D2"
    assert not tmp.exists()
    assert json.loads((store_dir(started) / "last").read_bytes())["seq"] == 2


# --- every served line is checked in full (decision-history/v1 section 9) --------------

def _dumps(ev):
    return json.dumps(ev, separators=(",", ":"), ensure_ascii=False).encode()


def _set(path, value):
    def edit(line):
        ev = json.loads(line)
        ev["decision"][path] = value
        return _dumps(ev)
    return edit


@pytest.mark.parametrize("edit,needle", [
    (lambda line: line.replace(b'"decision":{"kind":"\xea\xb4\x80\xec\xb8\xa1"',
                               '"decision":{"kind":"결정","kind":"관측"'.encode(), 1),
     "repeats a key"),
    (lambda line: line.replace(b'"decision":{', b'"decision":{"Summary":"x",', 1),
     "unknown field 'Summary'"),
    (lambda line: line.replace(b'"context":{', b'"Context":{},"context":{', 1),
     "exactly the fields"),
    (_set("kind", "계획"), "kind '계획'"),
    (_set("summary", "a" * 1025), "longer than 1024 bytes"),
    (_set("status", "가설"), "takes no status"),
])
@pytest.mark.parametrize("form", [("current",), ("list",), ("show", "D3"), ("show", "D1"),
                                  ("add",)])
def test_a_vouched_line_is_checked_in_full_before_any_view_serves_it(started, edit, needle,
                                                                    form):
    """The last line, vouched for by `last` (and by a stale index), carries damage that only
    a full check of the line can see: every view and add refuse with history_corrupt."""
    lines = _three(started)
    lines[2] = edit(lines[2])
    _write(started, lines, _last_for(lines))
    before = snapshot(started)
    if form == ("add",):
        p = obs(started, "after damage")
    else:
        p = ha_in("history", GOAL, *form, cwd=started)
    err = refused(p, "history_corrupt", 65)
    assert "line 3" in err and needle in err, err
    assert snapshot(started) == before

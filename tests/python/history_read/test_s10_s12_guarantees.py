"""decision-history/v1 section 8 (last paragraph), section 9, section 10, section 12 as the views must keep them: views change nothing,
repeat byte for byte, never pass a damaged or unsupported store off as a normal result."""
import json
import os

import pytest

from conftest import ha
from helpers_read import GOAL, add, fails, md, ok, start, store_dir, tree_snapshot, view

VIEWS = [("current",), ("list",), ("show", "D1"), ("show", "--request-id", "r-1"),
         ("current", "--target", "AC-1", "--keyword", "a"), ("list", "--limit", "1")]


@pytest.fixture
def history(repo, goal):
    start(repo)
    add(repo, "--kind", "관측", "--summary", "a first", "--target", "AC-1",
        "--checked-ref", "file:src/count.go", "--request-id", "r-1")
    add(repo, "--kind", "결정", "--summary", "a second", "--builds-on", "D1")
    return repo


def test_views_change_no_file_anywhere(history):
    before = tree_snapshot(history)
    for args in VIEWS:
        for fmt in ("md", "json"):
            ok(ha("history", GOAL, *args, "--format", fmt, cwd=history))
    assert tree_snapshot(history) == before


def test_views_of_an_absent_history_create_nothing(repo, goal):
    start(repo)
    before = tree_snapshot(repo)
    assert md(repo, "current") == "history: absent\n"
    assert md(repo, "show", "D1") == "history: absent\n"
    assert tree_snapshot(repo) == before
    assert not (repo / ".git" / "ha" / "history").exists()


def test_same_store_and_git_state_give_the_same_bytes(history):
    for args in VIEWS:
        for fmt in ("md", "json"):
            a = ok(ha("history", GOAL, *args, "--format", fmt, cwd=history)).stdout
            b = ok(ha("history", GOAL, *args, "--format", fmt, cwd=history)).stdout
            assert a == b


def test_views_do_not_touch_the_run_record(history):
    runs = (history / GOAL / "runs.jsonl").read_bytes()
    for args in VIEWS:
        md(history, *args)
    assert (history / GOAL / "runs.jsonl").read_bytes() == runs


def test_a_damaged_store_stops_every_view(history):
    events = store_dir(history) / "events.jsonl"
    data = events.read_bytes()
    events.write_bytes(data.replace(b"a first", b"a fixed"))        # edited in the middle
    for args in VIEWS:
        assert fails(history, *args) == (65, "history_corrupt")


def test_a_truncated_store_stops_every_view(history):
    events = store_dir(history) / "events.jsonl"
    events.write_bytes(events.read_bytes()[:-5])
    assert fails(history, "current") == (65, "history_corrupt")
    assert fails(history, "list") == (65, "history_corrupt")


def test_an_unsupported_schema_stops_every_view(history):
    events = store_dir(history) / "events.jsonl"
    lines = events.read_bytes().split(b"\n")[:-1]
    ev = json.loads(lines[-1])
    ev["schema"] = "decision-history/v2"
    lines[-1] = json.dumps(ev, ensure_ascii=False, separators=(",", ":")).encode()
    events.write_bytes(b"\n".join(lines) + b"\n")
    for args in VIEWS[:3]:
        assert fails(history, *args) == (66, "history_unsupported")


def test_a_symlinked_store_is_unreadable(history, tmp_path):
    d = store_dir(history)
    moved = tmp_path / "elsewhere"
    os.rename(d, moved)
    os.symlink(moved, d)
    assert fails(history, "current") == (70, "history_unreadable")


def test_history_views_do_not_change_run_state(history):
    """section 10: reading the history leaves `ha status` exactly as it was."""
    before = ok(ha("status", GOAL, "--format", "json", cwd=history)).stdout
    for args in VIEWS:
        md(history, *args)
    assert ok(ha("status", GOAL, "--format", "json", cwd=history)).stdout == before



def test_views_during_concurrent_adds_see_whole_histories(history):
    """decision-history/v1 section 2: a view overlapping an add reads the history before or after it, never a part."""
    import subprocess
    import sys
    script = (
        "import subprocess,sys\n"
        "for i in range(15):\n"
        "    r = subprocess.run([sys.argv[1], 'history', sys.argv[2], 'add', '--kind', '관측',"
        " '--summary', f'concurrent {i}'], capture_output=True)\n"
        "    assert r.returncode == 0, r.stderr\n")
    from conftest import SCRIPTS
    writer = subprocess.Popen([sys.executable, "-c", script, str(SCRIPTS / "ha"), GOAL],
                              cwd=history)
    seen = []
    while writer.poll() is None:
        r = ha("history", GOAL, "list", "--limit", "200", "--format", "json", cwd=history)
        assert r.returncode == 0, r.stderr
        v = json.loads(r.stdout)
        got = [e["id"] for e in v["events"]]
        assert got == [f"D{i}" for i in range(1, len(got) + 1)]
        assert v["range"]["end"] == len(got)
        seen.append(len(got))
    assert writer.wait() == 0
    assert seen == sorted(seen) and view(history, "list")["page"]["total"] == 17


def test_output_is_utf8_whatever_the_locale(history):
    for env in ({"LC_ALL": "C", "LANG": "C"}, {"PYTHONIOENCODING": "ascii"}):
        r = ha("history", GOAL, "current", cwd=history, env=env)
        assert r.returncode == 0, r.stderr
        assert "- D1 · 관측 · AC-1 · a first" in r.stdout

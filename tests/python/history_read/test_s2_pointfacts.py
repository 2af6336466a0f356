"""decision-history/v1 sections 7 and 8 (the views): `show D<n>` and unfiltered `list` pages read only the events they
show, through the index's reverse links (pointfacts.py), and must give exactly what one pass
over the whole range gives (facts.collect; checked against the definitions in
test_s7_s8_oracle.py). Both are run on random histories with three lineages, builds_on and
supersedes, page walks and a range pinned by a cursor while adds land."""
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from helpers_read import GOAL, note, start, store_dir
from test_s7_s8_oracle import build, run_view

from judgment_toolkit.ha.history.views import pointfacts, viewcli, viewrun

ROOT = Path(__file__).resolve().parents[3]
INDEX_FILES = ("index", "index.slots", "index.state")


def walk_show(repo, seq, limit):
    v = run_view(repo, "show", f"D{seq}", "--limit", str(limit))
    out = [v]
    while v["page"]["next"]:
        v = run_view(repo, "show", f"D{seq}", "--limit", str(limit), "--page", v["page"]["next"])
        out.append(v)
    return out


def walk_list(repo, limit, cursor=None):
    args = ["list", "--limit", str(limit)]
    v = run_view(repo, *args, *(("--page", cursor) if cursor else ()))
    out = [v]
    while v["page"]["next"]:
        v = run_view(repo, *args, "--page", v["page"]["next"])
        out.append(v)
    return out


def facts_kind(repo, *argv):
    """The class of facts a view is computed from (PointFacts: read by seq)."""
    args = viewcli.Args([*argv, "--format", "json"])
    inp, _ = viewrun.view_input(GOAL, args, cwd=str(repo))
    try:
        return type(inp.facts).__name__
    finally:
        viewrun.release(inp.facts, inp.store)


def drop_index(repo):
    for name in INDEX_FILES:
        (store_dir(repo) / name).unlink()


@pytest.mark.parametrize("seed", range(5))
def test_point_views_equal_the_full_pass(repo, goal, seed):
    rnd = random.Random(100 + seed)
    start(repo)
    facts = build(repo, rnd, rnd.randint(20, 50))
    note(repo, "indexed", "--builds-on", f"D{rnd.randint(1, len(facts))}")  # writes the index
    n = len(facts) + 1
    assert facts_kind(repo, "show", "D1") == "PointFacts"
    assert facts_kind(repo, "list") == "PointFacts"
    assert facts_kind(repo, "list", "--target", "AC-1") == "Facts"     # filters: one pass
    assert facts_kind(repo, "current") == "Facts"
    limit = rnd.randint(1, 4)
    point = ([walk_show(repo, s, limit) for s in range(1, n + 1)],
             walk_list(repo, rnd.randint(1, 9)))
    drop_index(repo)
    assert facts_kind(repo, "show", "D1") == "Facts"
    full = ([walk_show(repo, s, limit) for s in range(1, n + 1)],
            walk_list(repo, len(point[1][0]["events"]) or 1))
    assert point == full


def test_a_pinned_page_walk_ignores_events_added_after_it(repo, goal):
    start(repo)
    rnd = random.Random(7)
    build(repo, rnd, 12)
    note(repo, "indexed")                                   # D13, writes the index
    first = run_view(repo, "list", "--limit", "4")
    # adds after the first page: a correction of D13 and an event built on D7
    note(repo, "fix", "--supersedes", "D13")
    note(repo, "more", "--builds-on", "D7")
    shown = run_view(repo, "show", "D13", "--limit", "1")
    assert shown["superseded_by"] == ["D14"]                # the new range sees it
    assert facts_kind(repo, "list", "--page", first["page"]["next"]) == "PointFacts"
    point = walk_list(repo, 4, first["page"]["next"])
    drop_index(repo)
    full = walk_list(repo, 4, first["page"]["next"])
    assert point == full
    d13 = next(e for v in point for e in v["events"] if e["id"] == "D13")
    assert d13["superseded_by"] == [] and d13["current"] is (d13["lineage"] == "same")
    assert point[-1]["range"]["end"] == 13


def test_a_page_cursor_past_the_history_is_refused_on_both_paths(repo, goal):
    """A cursor that names D13 on a history of 13 events cannot be replayed after the history
    was replaced by a shorter one (cursor_invalid), with the index or without."""
    start(repo)
    build(repo, random.Random(3), 12)
    note(repo, "indexed")
    cursor = run_view(repo, "list", "--limit", "2")["page"]["next"]
    build(repo, random.Random(4), 5)                         # another, shorter history
    note(repo, "indexed again")
    for with_index in (True, False):
        assert (store_dir(repo) / "index.state").exists() is with_index
        r = subprocess.run([str(ROOT / "scripts" / "ha"), "history", GOAL, "list", "--page",
                            cursor], cwd=repo, capture_output=True, text=True)
        assert r.returncode == 65 and "cursor_invalid" in r.stderr, r.stderr
        if with_index:
            drop_index(repo)


def test_show_reads_what_it_shows_not_the_history(repo, goal):
    """The cost of `show D<n>` and of a list page is the events they read: measured as the
    bytes the process reads (/proc/self/io rchar), not as time. 20k events of about 1 KB."""
    if not os.path.exists("/proc/self/io"):
        pytest.skip("needs /proc/self/io")
    sys.path.append(str(ROOT / "bench"))  # after site-packages: bench/mcp.py must not hide the SDK
    import history_fixture
    start(repo)
    history_fixture.write_history(str(repo), GOAL, 20_000, index=True)
    size = (store_dir(repo) / "events.jsonl").stat().st_size
    code = (
        "import json, sys\n"
        "from judgment_toolkit.ha.history.views import viewcli\n"
        "viewcli.run(sys.argv[1], ['current'], cwd=sys.argv[2])  # warm: imports, git\n"
        "def rchar():\n"
        "    for line in open('/proc/self/io'):\n"
        "        if line.startswith('rchar:'):\n"
        "            return int(line.split()[1])\n"
        "out = {}\n"
        "for name, argv in (('show', ['show', 'D10000']), ('list', ['list', '--limit', '20']),"
        " ('current', ['current'])):\n"
        "    before = rchar()\n"
        "    viewcli.run(sys.argv[1], argv + ['--format', 'json'], cwd=sys.argv[2])\n"
        "    out[name] = rchar() - before\n"
        "print(json.dumps(out))\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "pylib"))
    r = subprocess.run([sys.executable, "-c", code, GOAL, str(repo)], capture_output=True,
                       text=True, env=env)
    assert r.returncode == 0, r.stderr
    read = json.loads(r.stdout)
    assert read["show"] < size / 50 and read["list"] < size / 50, (read, size)
    assert read["current"] > size / 10          # the whole-range view reads the index
    assert pointfacts.eligible("show", viewrun.factsmod.Query(), None,
                               viewrun.factsmod.Selector(seq=1))


def test_show_by_request_id_from_the_index_equals_the_full_pass(repo, goal):
    start(repo)
    build(repo, random.Random(11), 15)
    note(repo, "indexed", "--builds-on", "D3")
    rids = [run_view(repo, "show", f"D{s}")["event"]["request_id"] for s in (1, 3, 8, 16)]
    assert facts_kind(repo, "show", "--request-id", rids[0]) == "PointFacts"
    point = [run_view(repo, "show", "--request-id", r, "--limit", "1") for r in rids]
    missing = subprocess.run([str(ROOT / "scripts" / "ha"), "history", GOAL, "show",
                              "--request-id", "no-such-request"], cwd=repo,
                             capture_output=True, text=True)
    drop_index(repo)
    assert facts_kind(repo, "show", "--request-id", rids[0]) == "Facts"
    assert [run_view(repo, "show", "--request-id", r, "--limit", "1") for r in rids] == point
    assert [v["event"]["seq"] for v in point] == [1, 3, 8, 16]
    again = subprocess.run([str(ROOT / "scripts" / "ha"), "history", GOAL, "show",
                            "--request-id", "no-such-request"], cwd=repo,
                           capture_output=True, text=True)
    assert (missing.returncode, missing.stderr) == (again.returncode, again.stderr)
    assert missing.returncode == 65 and "unknown_event" in missing.stderr

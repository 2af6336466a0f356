"""Team memory end to end (docs/team-memory.md): a bare remote and clones in folders of
different names share one ledger through git. Both append with the real `judgment-ledger
append` (no HARNESS_JUDGMENT_LEDGER: the default path in each clone), including the same
decision arriving through two branches; then push, pull, merge both ways and rebase. Expected:
no conflict markers, no record lost, none counted twice; recall and SessionStart's prime in
one clone see the other's decision. Then the same in a clone that never registered the driver
(git's union is the floor).

The repositories are built once per module (the fixtures) and each test reads one fact of the
result.
"""
import json
import os
import subprocess

import pytest

from conftest import GIT_ENV, SCRIPTS

LEDGER = ".claude/state/judgment-ledger.jsonl"
PROJECT = "shop"  # the name share commits; each clone's folder is named otherwise
MARKERS = (b"<<<<<<<", b"=======", b">>>>>>>")


def environment(home):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HARNESS_", "JUDGMENT_", "CLAUDE_", "PYTEST_"))}
    env.update(GIT_ENV, HOME=str(home))
    return env


class Team:
    """The remote, the clones, and what was seen on the way."""

    def __init__(self, root):
        self.root = root
        self.home = root / "home"
        self.home.mkdir()
        self.env = environment(self.home)
        self.remote = root / "origin.git"
        self.seen_markers = []   # (step, clone) whose ledger held a marker after a merge
        self.failed = []         # (step, command, stderr) of a git command that failed
        self.ids = {}            # label -> record id, for every record appended

    def run(self, cwd, *argv, env=None, input=None):
        return subprocess.run(list(map(str, argv)), cwd=cwd, env=dict(self.env, **(env or {})),
                              input=input, capture_output=True, text=True, timeout=120)

    def git(self, clone, *args, step=""):
        r = self.run(clone, "git", *args)
        if r.returncode != 0:
            self.failed.append((step, " ".join(args), r.stdout + r.stderr))
        self.look(clone, step or " ".join(args))
        return r

    def look(self, clone, step):
        path = clone / LEDGER
        if path.exists() and any(line.startswith(MARKERS)
                                 for line in path.read_bytes().splitlines()):
            self.seen_markers.append((step, clone.name))

    def append(self, clone, label, question, answer, rec_id=None):
        args = ["append", "--project", PROJECT, "--question", question, "--answer", answer,
                "--card-ref", f"cards/{label}.json", "--json"]
        if rec_id:
            args += ["--id", rec_id]
        r = self.run(clone, SCRIPTS / "judgment-ledger.sh", *args)
        assert r.returncode == 0 and r.stdout, r.stderr
        self.ids[label] = json.loads(r.stdout)["id"]

    def commit(self, clone, message):
        self.git(clone, "add", "-A", step=message)
        self.git(clone, "commit", "-qm", message, step=message)

    def clone(self, name):
        path = self.root / name
        r = self.run(self.root, "git", "clone", "-q", self.remote, path)
        assert r.returncode == 0, r.stderr
        return path

    def share(self, clone, *args):
        r = self.run(clone, SCRIPTS / "judgment-kit", "share", *args)
        assert r.returncode == 0, r.stdout + r.stderr
        return r


def build(root, driver=True):
    team = Team(root)
    team.run(root, "git", "init", "-q", "--bare", "-b", "main", team.remote)
    a = team.clone("shop-alice")
    (a / "README.md").write_text("shop\n")
    team.commit(a, "initial")
    team.share(a, "--project", PROJECT)
    team.commit(a, "Share the judgment ledger")
    if not driver:  # what share registered in this clone only goes; the committed part stays
        team.share(a, "--remove")
        team.git(a, "checkout", "-q", "--", ".")  # the committed files come back unchanged
        team.git(a, "clean", "-qfd")
    team.git(a, "push", "-q", "origin", "main")

    b = team.clone("bob-checkout")
    if driver:
        team.share(b)

    # both decide, each on its own main; b merges (pull), then a rebases (pull --rebase)
    team.append(a, "a1", "Which queue for background jobs?", "postgres")
    team.commit(a, "a1")
    team.git(a, "push", "-q", "origin", "main", step="push a1")
    team.append(b, "b1", "Which cache for sessions?", "redis")
    team.commit(b, "b1")
    team.git(b, "pull", "-q", "--no-rebase", "origin", "main", step="b pulls a1 (merge)")
    team.git(b, "push", "-q", "origin", "main", step="push b1")
    team.append(a, "a2", "Which logger format?", "json lines")
    team.commit(a, "a2")
    team.git(a, "pull", "-q", "--rebase", "origin", "main", step="a pulls b1 (rebase)")
    team.git(a, "push", "-q", "origin", "main", step="push a2")

    # the same decision through two branches: made on a fix branch, cherry-picked to main
    team.git(a, "checkout", "-q", "-b", "fix")
    team.append(a, "same", "Retry failed webhooks?", "yes, 3 times", rec_id="webhook-retry")
    team.commit(a, "decide retries")
    team.append(a, "a3", "Where do feature flags live?", "env vars")
    team.commit(a, "a3 on fix")
    team.git(a, "checkout", "-q", "main")
    team.git(a, "cherry-pick", team.run(a, "git", "rev-parse", "fix~1").stdout.strip(),
             step="cherry-pick the retries decision")
    team.git(a, "push", "-q", "origin", "main", "fix", step="push main and fix")

    # b decides more and picks the retries decision between two of its own, then merges the
    # fix branch and main: the same record reaches it three ways, amid different neighbours
    # (where git's line union keeps it twice)
    team.append(b, "b2", "Pagination style?", "cursor")
    team.commit(b, "b2")
    team.git(b, "fetch", "-q", "origin", step="b fetches")
    team.git(b, "cherry-pick", "origin/fix~1", step="b cherry-picks the retries decision")
    team.append(b, "b3", "Which CI runner?", "self-hosted")
    team.commit(b, "b3")
    team.git(b, "merge", "-q", "--no-edit", "origin/fix", step="b merges fix")
    team.git(b, "merge", "-q", "--no-edit", "origin/main", step="b merges main")
    team.git(b, "push", "-q", "origin", "main", step="push b2")
    # and back the other way: a merges b's main into its own, then fix into main
    team.append(a, "a4", "Deploy on Fridays?", "no")
    team.commit(a, "a4")
    team.git(a, "pull", "-q", "--no-rebase", "origin", "main", step="a pulls b (merge)")
    team.git(a, "merge", "-q", "--no-edit", "fix", step="a merges fix")
    team.git(a, "push", "-q", "origin", "main", step="push a4")
    team.git(b, "pull", "-q", "--no-rebase", "origin", "main", step="b pulls a4")
    team.a, team.b = a, b
    return team


@pytest.fixture(scope="module")
def team(tmp_path_factory):
    return build(tmp_path_factory.mktemp("team"))


@pytest.fixture(scope="module")
def floor(tmp_path_factory):
    """The same story where no clone has the driver (a shares, commits, then removes what
    share registered in its clone; b never runs share): git's built-in union merges."""
    return build(tmp_path_factory.mktemp("floor"), driver=False)


def ledger_cmd(team, clone, *args):
    return team.run(clone, SCRIPTS / "judgment-ledger.sh", *args)


BOTH = pytest.mark.parametrize("which", ["team", "floor"])


def story(request, which):
    return request.getfixturevalue(which)


@BOTH
def test_every_git_step_succeeded_without_conflict_markers(request, which):
    t = story(request, which)
    assert t.failed == []
    assert t.seen_markers == []


def test_the_driver_ran_where_it_is_registered_and_union_where_not(team, floor):
    attr = ["check-attr", "merge", "--", LEDGER]
    for clone in (team.a, team.b):
        assert team.run(clone, "git", *attr).stdout.endswith(": judgment-ledger\n")
    for clone in (floor.a, floor.b):
        assert floor.run(clone, "git", *attr).stdout.endswith(": union\n")


@BOTH
@pytest.mark.parametrize("clone", ["a", "b"])
def test_no_record_is_lost(request, which, clone):
    t = story(request, which)
    path = getattr(t, clone) / LEDGER
    ids = {json.loads(line)["id"] for line in path.read_bytes().splitlines()}
    assert ids == set(t.ids.values())


@BOTH
@pytest.mark.parametrize("clone", ["a", "b"])
def test_verify_passes_and_list_counts_each_record_once(request, which, clone):
    t = story(request, which)
    where = getattr(t, clone)
    v = ledger_cmd(t, where, "verify", "--json")
    assert v.returncode == 0, v.stdout + v.stderr
    assert json.loads(v.stdout)["records"] == len(t.ids)
    listed = ledger_cmd(t, where, "list", "--project", PROJECT, "--json")
    ids = [d["id"] for d in json.loads(listed.stdout)["decisions"]]
    assert sorted(ids) == sorted(t.ids.values())  # each once: readers count a repeat once


def test_with_the_driver_both_clones_hold_the_same_canonical_file(team):
    one, two = ((c / LEDGER).read_bytes() for c in (team.a, team.b))
    assert one == two
    times = [json.loads(line)["decided_at"] for line in one.splitlines()]
    assert times == sorted(times)


def test_without_the_driver_the_same_record_may_repeat_and_verify_counts_it(floor):
    v = ledger_cmd(floor, floor.b, "verify", "--json")
    doc = json.loads(v.stdout)
    lines = (floor.b / LEDGER).read_bytes().splitlines()
    assert len(lines) == len(floor.ids) + doc.get("repeats", 0)


@BOTH
def test_recall_in_b_finds_as_decision(request, which):
    t = story(request, which)
    r = ledger_cmd(t, t.b, "recall", "--project", PROJECT,
                   "--question", "Which queue should background jobs use?")
    assert r.returncode == 0, r.stderr
    assert t.ids["a1"] in r.stdout


@BOTH
def test_session_start_in_b_primes_as_decision(request, which):
    """The hook names the project from b's folder: the committed name (.claude/judgment-project),
    not the folder's own name, bob-checkout."""
    t = story(request, which)
    payload = json.dumps({"hook_event_name": "SessionStart", "source": "startup",
                          "cwd": str(t.b)})
    r = t.run(t.b, SCRIPTS / "judgment-kit", "hook", "session-start", input=payload,
              env={"CLAUDE_PROJECT_DIR": str(t.b)})
    assert r.returncode == 0
    # prime lists the newest decisions (PRIME_LIMIT of them): a's last one, pulled by b, leads
    assert r.stdout.startswith("## Recent judgments: ") and "Deploy on Fridays?" in r.stdout
    assert "Which CI runner?" in r.stdout  # and b's own
